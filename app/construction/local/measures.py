"""Values that change, one at a time: a person's weight or a lift's record, an account's seats,
plan, renewal date or the version it runs, a ticket's status. "Squat 5 rep max is 80 kg", "my
resting HR was 62", "I weigh 72 kg", "Brightwave has 42 seats, not 40", "Harbor is on the
Starter plan", "LUM-4821 is reopened", "They upgraded to Lumen 3.14": the value of "<attribute>
is" on its owner's timeline, where the new value ends the old (supersession.py).

Whose: the owner said ("my", "Nadia's", a ticket's id, "their" for the organisation the sentence
named before); else the speaker's, for what is measured of a body or its training (weight, a
heart rate, a lift's record); else the attribute's own in its group ("Renewal date is March 1":
"renewal date@acct-brightwave", as a piece of work is its group's: assignments.py). A correction
("sorry, 85 not 87") gives a value said before in the episode anew."""
from __future__ import annotations

import re
from datetime import date

from app.construction import lexicon as lx
from app.construction.dates import HOURS_SPAN, DateMention
from app.construction.entity_resolution import normalize_key
from app.construction.local.entities import _Registry, _key
from app.construction.local.inline_dates import ISO_DAY, _fill
from app.construction.local.text import held_number, put_instead
from app.construction.local.fact_patterns import DAY as _DAY, NAME as _NAME
from app.construction.local.group_values import GROUP_READERS
from app.construction.local.tenancy import TENANCY_READERS
from app.construction.local.injuries import INJURY_READERS
from app.construction.local.sentence import _Parse, _Sentence

# Where an attribute's words begin: a clause's start, or an owner's word anywhere ("With
# Enterprise their renewal date is now November 12, 2027").
_START = (r"(?:(?:^|(?<=[,;:])\s+)(?:(?i:and|so|but|then|also|yeah|yes|yep|yup|ok|okay|oh|well|right|btw|fyi|"
          r"actually|anyway|ugh|hmm)[,!]?\s+)*|\b(?:and|so|but)\s+|"  # (", so my exam is"; "yeah goal is £6,000")
          r"^(?:(?i:from|starting|as\s+of)\s+)?\x00\d+\x00\s*,?\s+|"  # ("From January subs go up to £25": its day first)
          # ("Tomasz says Bluewater's salmon goes up to £17.20 a kilo from Monday": told by another)
          r"^(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?\s+(?i:says|said|reckons|told\s+(?:me|us))\s+(?:(?i:that)\s+)?|"
          r"(?<=\s)(?=(?i:my|our|their|its|his|her)\s))")
# A value's own first day, said after it: "... from December", "starting 1 March".
# (The date's rendering holds the word before it: "from December 2026".)
_FROM_WORD = re.compile(r"(?i:from|starting(?:\s+from|\s+on)?|as\s+of|effective(?:\s+from)?)\s")
_LEAD_DAY = re.compile(r"^\s*\x00(?P<d>\d+)\x00\s*,?\s")  # the sentence begun by its day
# ("a month", "per changeover": "putting her price up to £65 per changeover from January")
_FROM_DAY = re.compile(rf"(?:\s+(?i:a|an|per|each|every)\s+(?i:month|week|year|annum|hour|night|day|[a-z][\w-]{{2,20}}))?"
                       rf"\s+(?P<from>{_FROM_WORD.pattern})?\s*\x00(?P<d>\d+)\x00")
_OWNER = (r"(?:(?P<det>(?i:my|our|their|its|his|her))\s+|"
          rf"(?P<owner>{_NAME})(?:['’]s|(?<=s)['’])\s+|"
          r"(?i:the)\s+)?")
# ("For now my goal is"; "She's exhausted by 7 so bedtime is 7pm": the bedtime, after its "so")
_ATTR = (r"(?P<attr>(?:(?!(?i:my|our|their|his|her|its|so|but|because|cos)\s)[\w-]+\s+){0,4}?[\w-]+)"
         # ("our total budget for the whole thing is £25,000": the budget)
         r"(?:\s+(?i:for\s+(?:the\s+(?:whole|entire)\s+(?:thing|project|job|lot)|everything|the\s+lot|all\s+of\s+it)))?"
         rf"(?:\s+(?i:for|of|at|in|on)\s+(?:(?P<owner2>{_NAME})"  # ("the rent for Flat 2 is now ...")
         r"|(?P<det2>(?i:my|our|his|her|their|the))\s+(?P<thing2>[\w-]+)))?")  # ("the rent for my flat")
_LINK = (r"(?:(?<!\d):(?=\s)|\s*=|'s|\s+(?i:is|are|was|were|will\s+be|is\s+going\s+to\s+be|stands\s+at|"
         r"(?:sits|sitting|hovers|hovering|stays)"
         # ("carb ratio stays 1:10 for now"; not "family stays £35")
         r"\s+(?:at|around|about)|stays(?=\s+(?:1:\d|\d[\d.]*\s*(?:units?|mg|mcg|ml|kg)\b))|"
         r"came\s+(?:back\s+)?(?:in\s+)?at|hit|reached"
         # ("Monthly fees are going up from £48 to £56", "Sunday roast goes up too, from £17 to £18.50")
         r"|(?:went|goes|go|(?:is|are|'re)\s+going|will\s+go)\s+(?:up|down)(?:\s+(?:again|too|as\s+well))?,?"
         r"\s+(?:from\s+\S+\s+)?to"
         # ("ok Heron goes to £85 a night then": a sum, not a place gone to)
         r"|(?:went|goes|go|is\s+going|will\s+go)\s+to(?=\s+[£$€]\d)"
         # ("target pace goes to 5:25 per km": a time, not a place gone to)
         r"|(?:went|goes|go|is\s+going|will\s+go)\s+to(?=\s+\d{1,2}:\d\d\b)"
         r"|(?:went|goes|go|is\s+going|will\s+go)\s+from\s+\S+\s+to"  # ("the hake dish goes from €26 to €27")
         r"|(?:dropped|drops|rose|rises|fell|falls|jumped|jumps|climbed|climbs|grew|grows|shot\s+up|"
         r"increased|increases|decreased|decreases)\s+to|(?:is\s+)?mov(?:es|ed|ing)(?:\s+to)?"
         # "... has changed, it's now 2580"
         r"|(?:has\s+)?changed(?:\s+again)?\s*[,;:-]?\s+(?:it's|it\s+is)(?=\s+now\b)"
         # "Helen's key safe code changed AGAIN, new one is 2258"
         r"|(?:has\s+)?changed(?:\s+again)?\s*[,;:-]?\s+(?:the\s+)?new\s+one\s+is"
         # "The rent for my flat went up, it's £1,050 now"
         r"|(?:went|has\s+gone|have\s+gone)\s+(?:up|down)(?:\s+again)?\s*[,;:-]\s*(?:it's|it\s+is)"
         # "my gym membership costs £35 a month"
         r"|(?:now\s+)?(?:costs|cost|is\s+costing)"
         # ("to" may be a day's: \x00)
         r"|(?:has\s+)?chang(?:es|ed)(?:\s+again)?\s+from\s+\S+\s+to"  # "goal score changed from 6 to 7"
         r"|(?:has\s+)?chang(?:es|ed)(?:\s+again)?(?:\s+to)?"
         # ("my start date at Feedzai is confirmed for Monday 2 November")
         r"|is\s+(?:now\s+)?(?:confirmed|set|booked|fixed|scheduled)\s+(?:for|as)(?=\s+\S*\s*\x00|\s+\x00))"
         r"|\s+(?i:up|down)\s+to(?=\s))")
_MOD = (r"(?:\s+(?i:now|currently|still|already|officially|finally|only|just))?"
        r"(?:\s+(?i:at|around|about|roughly|approx(?:imately)?|~|down\s+to|up\s+to|back\s+to|back\s+at|"
        r"holding(?:\s+steady)?\s+at|steady\s+at|like))?"
        r"(?:\s+(?i:band|grade|level|a(?=\s+\d{1,2}\b)))?")  # "my goal is band 6", "target grade is a 6": the 6
_WEIGHT_UNITS = r"kg|kgs|kilos?|lbs?|pounds|stone"
_UNITS = (rf"{_WEIGHT_UNITS}|g|mg|mcg|iu|ml|cm|mm|km|miles?|mi|bpm|kcal|cal|calories|seats|"
          r"users|licen[cs]es|hours|hrs|mins?|minutes|steps|units|reps|mmhg|percent|euros?|dollars?|"
          r"people|members|players|kids|children|families|households|"  # ("the waiting list is at 23 people")
          r"arr|mrr|acv|tcv")  # a deal's "$120k ARR" (it was no value, so the amount never changed)
_NUM = (rf"(?P<num>\d{{2,3}}/\d{{2,3}}(?!/)|"  # a blood pressure, "121/79"
        r"1:\d{1,3}(?![\d:]|\.\d)|"  # a ratio, "carb ratio is now 1:9" ("1:10", a clock's too, reads the same)
        rf"[$£€]?\d(?:[\d,]*\d)?(?:\.\d+)?(?![\d.,:]\d)(?:\s*%|k\b)?(?:\s*(?i:{_UNITS})\b)?)")
# A time of day or a race's time: "at 9:30", "48:10", "1:48:30"
_CLOCK = r"(?P<clock>\d{1,2}:\d{2}(?::\d{2})?(?![\d:])(?:\s*(?i:am|pm)\b)?|\d{1,2}\s*(?i:am|pm)\b)"
_STATUS_WORDS = (r"open|closed|fixed|resolved|reopened|pending|blocked|done|shipped|live|approved|rejected|"
                 r"cancell?ed|on\s+hold|in\s+progress|in\s+review|broken|leaking|out\s+of\s+order|"
                 r"repaired|paid|unpaid|overdue|delivered|delayed|dispatched|arrived|returned|refunded|lost|"
                 r"in\s+transit|out\s+for\s+delivery|back-?ordered")
# (a day's weekday said before it: "his last day is wednesday 30 sept")
_VALUE = (rf"(?:{_CLOCK}|{_NUM}|(?:(?i:{lx.WEEKDAY_ALT}),?\s+)?\x00(?P<d>\d+)\x00|(?P<ver>v?\d+(?:\.\d+){{1,3}})|"
          rf"(?P<status>(?i:{_STATUS_WORDS}))\b"
          r"|(?P<name>[A-Z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*){0,2}))")
# Where a value ends: its clause's end, or words said of it ("64 bpm according to my watch",
# "1,900 kcal a day", "87 kg for 5", "fixed in 3.14").
_END = (r"(?=\s*(?:[,;.!?)(\x00]|$)|\s+(?i:now|right|today|this|btw|by|for|according|and|but|so|per|a|an|"
        r"each|every|"
        r"in|on|since|after|x\s*\d|not|as|with|at|too|again|though|lol|these|lately|recently|nowadays|"
        r"please|pls|thanks|overall|total|annually|yearly|monthly|instead|open|left|remaining|outstanding|"
        # ("bedtime is 7pm from now on", "going forward", "starting Monday")
        r"because|cos|coz|since|from|going|starting)\b|"
        r"\s*/\s*(?i:yr|year|mo|month|seat|user|kg|kilo|lb|night|hour|hr|day|week|head)\b)")  # ("£16.50/kg")
# (a day said between, before an amount: "fundraising target this year is £2,000"; not "The Eastfield cup
# match on Saturday is cancelled", the match's day called off: assignments.py)
# Another's value of the same attribute, said right after: "key safe code for Heron is 4721 by the
# way, Swallow's is 1966" (Swallow's code: Heron's was closed with it when Heron's changed).
_THEIRS_NEXT = re.compile(rf"(?:\s+(?i:by\s+the\s+way|btw))?(?:\s*[,;]\s+(?:(?i:and|while|but)\s+)?|\s+(?i:and)\s+)"
                          rf"(?:(?i:the)\s+)?(?P<owner>{_NAME})['’]s\s+(?:(?i:is|was)\s+)?(?:{_CLOCK}|{_NUM})" + _END)
# ... and another thing's sum, said next in its shape: "Swan is £250, Red Lion £300 flat, ..." (the Red Lion's had been
# no value).
_THINGS_NEXT = re.compile(r"\s*[,;]\s+(?:(?i:and)\s+)?(?:(?i:the)\s+)?(?P<thing>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,2})"
                          r"\s+(?:(?i:is|at)\s+)?(?P<sum>[£$€]\d[\d,]*(?:\.\d+)?k?)"
                          r"(?P<per>\s+(?i:flat|a\s+night|a\s+day|an\s+hour|each|per\s+\w+))?(?=\s*(?:[,;.!]|$|(?i:and)\b))")
_IS_VALUE = re.compile(_START + _OWNER + _ATTR
                       + r"(?:\s+\x00\d+\x00(?=\s+(?i:is|are|was|will\s+be)\s+(?:(?i:now|still)\s+)?[£$€\d]))?"
                       + _LINK + _MOD + r"\s*" + _VALUE + _END)
# Whose a value is, said first: "I", "we", "they" or a name ("Brightwave", "Harbor Logistics").
_WHO = r"(?:^|\b)(?P<who>I|[Ww]e|[Tt]hey|[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)"
# "I weigh 72 kg", "I'm 72 kg right now", "Weighed in this morning at 70.5 kg", "Omar weighs 88".
_WEIGHS = re.compile(
    r"(?:^|\b(?P<who>I|[A-Z][\w-]+))(?:\s*(?i:weigh|weighs|weighed)(?:\s+(?i:in|myself))?(?:\s*\x00\d+\x00)?"
    r"(?:\s+(?i:at|about|around|in\s+at))?|(?:'m|'s|\s+am|\s+is)(?:\s+(?i:now|down\s+to|up\s+to|at))?)\s+"
    rf"(?P<num>\d+(?:\.\d+)?(?![\d.,:]\d)(?:\s*(?i:{_WEIGHT_UNITS})\b)?)" + _END)
# A body's measure or a lift named, then its number: "BP 121/79 at the GP", "bench 92.5 for a
# single today", "deadlift PB 140 kg, squat somewhere around 120", "new bench PR of 95 kg".
_BARE = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|also|plus)\s+)(?:(?:I\s+|we\s+)?(?i:hit|set|got|reached)\s+)?"
    r"(?:(?i:my|new|a\s+new|a)\s+)*"
    r"(?P<attr>(?i:(?:resting\s+)?(?:hr|heart\s+rate)|bp|blood\s+pressure|weight|bmi|body\s+fat|"
    r"(?:squat|bench(?:\s+press)?|deadlift|ohp|clean|snatch)(?:\s+(?:1rm|pr|pb|max|5rm|3rm|record))?))\s+"
    r"(?:(?i:is|was|of|at|hit|now|somewhere|around|about|roughly|down\s+to|up\s+to|went\s+up\s+to)\s+){0,3}"
    + _NUM + _END)
# The scale's word, or a weight said with no verb: "scale said 84.2 this morning", "Down to 83 kg!".
_SCALE = re.compile(r"(?:\b(?i:the\s+)?(?i:scale|scales)\s+(?i:said|says|showed|shows|read|reads|was|is)\s+|"
                    rf"^(?i:down|up)\s+to\s+(?=\d[\d.]*\s*(?i:{_WEIGHT_UNITS})\b))"
                    rf"(?P<num>\d+(?:\.\d+)?(?![\d.,:]\d)(?:\s*(?i:{_WEIGHT_UNITS})\b)?)" + _END)
# "Brightwave has 42 seats", "they have 25 users now".
_HAS = re.compile(
    _WHO + r"\s+(?:now\s+)?(?:has|have|'ve\s+got|has\s+got)"
    r"\s+(?:now\s+)?(?P<num>\d[\d,]*)\s+(?P<attr>seats|users|licen[cs]es|employees|staff|members|subscribers|"
    r"locations|stores|sites)\b")
# "Northpeak is at 80 licences now", "we're up to 50 seats".
_AT_COUNT = re.compile(
    _WHO + r"(?:'re|'s|\s+(?:is|are))\s+(?:now\s+)?"
    r"(?:at|on|up\s+to|down\s+to)\s+(?P<num>\d[\d,]*)\s+(?P<attr>seats|users|licen[cs]es)\b")
# "They're on the Pro plan", "Harbor is on the Starter plan", "moved to the Enterprise tier".
_PLAN = re.compile(
    _WHO + r"(?:'re|'s|\s+(?:is|are|was|were))?"
    r"(?:\s+(?:now|currently|still))?\s+(?:on|upgraded\s+to|downgraded\s+to|moved\s+to|switched\s+to)\s+"
    r"(?:the\s+|their\s+|our\s+)?(?P<v>[A-Z][\w+-]*)\s+(?P<attr>plan|tier|package|subscription|edition)\b")
# "Harbor upgraded from Starter to Pro": a tier's change, said by its tiers' names.
_TIERS = frozenset("free starter basic pro plus premium business team enterprise growth standard "
                   "professional essentials ultimate".split())
_FROM_TO = re.compile(
    _WHO + r"\s+(?:has\s+|have\s+)?(?:upgraded|downgraded|"
    r"moved|switched|went|changed)\s+from\s+(?:the\s+)?(?P<old>[A-Z]\w*)\s+to\s+(?:the\s+)?(?P<v>[A-Z]\w*)\b")
# "They run Lumen 3.12", "Brightwave upgraded to Lumen 3.15", "Harbor now runs Lumen 3.15".
_VERSION = re.compile(
    _WHO + r"(?:'re|\s+are|\s+is|'s)?"
    r"(?:\s+(?:now|currently|still|finally|just|also))?\s+(?:run|runs|running|on|"
    r"(?:upgraded|updated|moved|migrated)"
    r"(?:\s+(?:the|our|my)\s+(?:project|game|app|site|repo|build|codebase))?\s+to|"
    r"installed|deployed)\s+(?P<v>[A-Z][\w-]*\s+v?\d+(?:\.\d+){1,3})\b")
# When someone does a thing of their week ("I train Mon/Wed/Fri mornings", then "I'll train
# Mon/Wed/Fri evenings from now on"): one schedule at a time.
_SCHEDULE = re.compile(
    r"(?<![\w'])(?P<who>I|we)(?:'ll|\s+will|\s+now|\s+usually|\s+normally|\s+still|\s+can|\s+only)*\s+"
    r"(?P<v>train|run|swim|work\s+out|lift|cycle|climb|practi[cs]e|play|teach|study|go\s+to\s+the\s+gym|"
    rf"rehearse)\s+(?:on\s+|every\s+|each\s+)?(?P<when>{_DAY}(?:\s*(?:/|,|&|and)\s*{_DAY})*"
    r"(?:\s+(?:mornings?|evenings?|nights?|afternoons?))?"
    r"|(?:every|most)\s+(?:day|morning|evening|weekday|night)s?|mornings|evenings|weekends|weekdays)\b", re.I)
# A value changed by someone: "I raised my calories to 2,100", "we cut the budget to £400";
# "targeting 1,900 kcal a day" (a day's energy, the speaker's).
_CHANGED = re.compile(
    # ("I reckon we should put the fuel budget up to £600")
    r"(?:(?<![\w'])(?P<who>I|we|they|[A-Z][\w-]+)(?:'ve|\s+have|\s+has|'m|\s+am|'re|\s+are|\s+is|'s|'ll|\s+will|"
    r"\s+should)?"
    r"(?:\s+just)?\s+|"
    r"(?i:let's|please|(?:can|could)\s+(?:we|you))\s+|^(?:(?i:ok|okay|so|and|then|also)[,]?\s+)?|"
    r"\x00\d+\x00\s+)"  # ("The AGM tonight voted the annual fee up to £55": its day before the verb)
    # ("let's lower my calorie target to 2,200", "Ok bump my calories back to 2,400", "voted to raise")
    r"(?:(?i:voted|agreed|decided|wants?|wanted|needs?|had|have|has|going)\s+to\s+)?"
    r"(?i:raised|raise|increased|increase|bumped|bump|upped|up|lowered|lower|reduced|reduce|cut|dropped|drop|"
    r"changed|change|moved|move|set|revised|revise|updated|update|put|putting|voted|agreed|negotiated|haggled|"
    r"raising|increasing|bumping|upping|lowering|reducing|cutting|dropping|changing|moving|setting|revising|"
    r"updating)\s+(?:up\s+|down\s+)?"
    # (with no determiner a group's dues: "AGM voted to raise subs to £45 a term")
    r"(?:(?P<det>my|our|their|his|her|your|the)\s+|(?=(?i:subs|fees|rent|membership|dues|wages)\s)"
    # ... or a thing priced anew, up or down to its amount ("I'm putting raffle tickets up to £2 a strip")
    # ... or a dose or a count, by its unit ("Maria bumped basal up to 17 units")
    rf"|(?=[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?i:up|down)\s+to\s+(?:[£$€]|\d[\d.]*\s*(?i:{_UNITS})\b)))"
    # ("I've changed the Heron key safe code to 9035")
    rf"(?P<attr>[\w-]+(?:\s+[\w-]+){{0,3}}?)(?:\s+(?i:for|of|at|in)\s+(?P<owner2>{_NAME}))?(?:\s+again)?"
    r"(?:\s+(?i:from)\s+(?:(?i:a|an)\s+)?[$£€]?\d[\d,.]*\w*)?"  # ("raised his target grade from 6 to 7")
    # ("I raised my day rate again, it's £450 from 1 November")
    # ("Changing the travel fee again, $0.70 per mile from November 1")
    rf"(?:\s+(?:up\s+|down\s+|back\s+)?to\s+|\s*,\s*(?i:it's|it\s+is|to)(?:\s+now)?\s+|\s*,\s*(?=[£$€]\d))"
    rf"(?:(?i:a|an)\s+)?(?:{_CLOCK}|{_NUM})"
    + _END)  # ("I'm revising my goal time to 3:55")
# A rate agreed at its number: "Coastal Cottages have agreed to 16% commission" (after "commission
# is 18%": the group's commission, whoever agreed).
_AGREED_AT = re.compile(r"\b(?i:agreed|agree|settled|accepted)\s+(?i:to|on)\s+(?:(?i:a|an)\s+)?"
                        r"(?P<num>\d{1,3}(?:\.\d+)?\s?%|[£$€]\s?\d[\d,]*(?:\.\d+)?k?)\s+"
                        r"(?P<attr>(?i:commission|discount|deposit|fee|rate|day\s+rate|hourly\s+rate|rent|price|budget))\b")
# A sum settled on for a thing, in a group's words: "ok £450 for fuel then", "Let's say £650 for fuel now" (each had
# been nothing, the fuel budget never said).
_SUM_FOR = re.compile(r"(?:^|[.!;]\s+)(?:(?i:ok|okay|so|right|fine|yeah|yes|yep)[,!]?\s+)?"
                      r"(?:(?i:let'?s\s+(?:say|make\s+it|do|go\s+with)|we'?ll\s+(?:say|do))\s+)?"
                      r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d+)?k?)\s+(?i:for)\s+(?:(?i:the)\s+)?"
                      r"(?P<x>[a-z]+(?:\s+[a-z]+)?)\s+(?i:then|now|it\s+is)\b")
_PROPOSED = re.compile(r"(?:\w+\s+)?\b(?:proposal|propose[sd]?|proposing|suggest(?:s|ed|ing)?|should\s+we|could\s+we|"
                       r"how\s+about|what\s+if)\b", re.I)
_TARGETING = re.compile(r"\b(?:targeting|aiming\s+for|aim\s+for|eating|on)\s+(?:about\s+|around\s+|roughly\s+)?"
                        r"(?P<num>\d(?:[\d,]*\d)?\s*(?P<what>kcal|calories|g\s+(?:of\s+)?protein|"
                        r"grams\s+of\s+protein))\b",
                        re.I)
_WHEN = (rf"{_DAY}(?:\s*(?:/|,|&|and)\s*{_DAY})*(?:\s+(?:mornings?|evenings?|nights?|afternoons?))?"
         r"|(?:every|most)\s+(?:day|morning|evening|weekday|night)s?|mornings|evenings|weekends|weekdays")
# ... or moved: "moving my lifting to Mon/Wed/Fri mornings at 7".
_SCHEDULE_MOVED = re.compile(
    r"\b(?:moving|moved|switching|switched|changing|changed|shifting|shifted)\s+(?:my|our)\s+"
    rf"(?P<v>lifting|training|runs|running|workouts|sessions|gym\s+sessions|swims|swimming)\s+to\s+"
    rf"(?P<when>{_WHEN})\b", re.I)
# ... or the group's rehearsals moved: "We'll have to move rehearsals to Wednesdays from 23 September",
# "We're moving rehearsals to Thursdays from 5 November" (after "We rehearse on Tuesdays").
_REHEARSALS_MOVED = re.compile(
    r"\b(?:move|moving|moved|switch|switching|switched|change|changing|changed|shift|shifting|shifted)\s+"
    rf"(?:the\s+|our\s+)?(?:choir\s+)?(?:rehearsals?|practices?)\s+(?:night\s+|day\s+)?to\s+(?P<when>{_WHEN})\b", re.I)
# Appointments that recur on days of the week, whoever's they are: "Our sessions are Tuesdays at
# 5pm", "Samuel's sessions need to move from Tuesdays to Wednesdays at 5pm", "Her lessons will be
# on Mondays now": one slot at a time.
_MEETS = r"(?P<what>sessions|lessons|classes|appointments|tutorials|check-ins|calls)"
_SLOT = rf"(?P<when>(?i:{_WHEN}))(?P<hour>\s+at\s+\d{{1,2}}(?::\d\d)?\s*(?i:am|pm|a\.m\.|p\.m\.)?)?\b"
_SLOT_OWNER = rf"(?P<owner>(?P<name>{_NAME})['’]s|(?i:my|our|his|her|their))\s+(?:[\w-]+\s+)?"
_SLOT_IS = re.compile(_SLOT_OWNER + _MEETS + r"\s+(?i:are|will\s+be|'ll\s+be|are\s+going\s+to\s+be)"
                      r"(?:\s+(?i:now|still|usually))?\s+(?:(?i:on)\s+)?" + _SLOT)
_SLOT_MOVED = re.compile(_SLOT_OWNER + _MEETS + r"\s+(?i:need\s+to\s+|have\s+to\s+|will\s+|are\s+going\s+to\s+)?"
                         r"(?i:move|moved|moving|switch|switched|change|changed|shift|shifted)\s+"
                         rf"(?:(?i:from)\s+(?i:{_WHEN})\s+)?(?i:to)\s+(?:(?i:on)\s+)?" + _SLOT)
# ... said of an appointment without whose ("Physio is every Tuesday at 18:00 with Ana", the
# speaker's), or moved with its new slot after ("the clinic moved my physio: from now on it's
# Thursdays at 18:00, not Tuesdays"). (Both were "said" facts, the old day current.)
_APPOINTMENT = (r"(?P<what>(?i:physio|physiotherapy|therapy|counselling|counseling|rehab|tutoring|practice|"
                r"rehearsals?|"
                # ("Our weekly check-in call is Mondays at 7pm")
                r"(?:(?:weekly|regular|usual)\s+)?(?:check-in|catch-up|coaching|progress)\s+calls?|"
                r"sessions?|lessons?|classes|class|appointments?|check-ins?|calls?|training|standup|stand-up|"
                # ("Our weekly group meeting is on Mondays at 10am": the group meeting's)
                r"(?:(?:weekly|regular|usual)\s+)?(?:(?:group|team|lab|staff|department|project)\s+)?"
                r"(?:meetings?|training|practice)|"
                # a club's evening and a runner's long run ("Club track night is Tuesdays at 7pm")
                r"(?:(?:club|our|the)\s+)?(?:track|club|quiz|games|choir|training|run|running)\s+nights?|"
                r"long\s+runs?|choir|book\s+club|"
                # a courier's round ("collection is Fridays at 3pm now")
                r"collections?|pick-?ups?))")
_APPOINTMENT_NAMED = re.compile(r"\b(training|practice|rehearsals?|lessons?|classes|sessions)\b", re.I)
_EVERY_SLOT = _SLOT.replace("(?P<when>", r"(?P<when>(?i:(?:every|each)\s+" + _DAY + ")|")
_SLOT_ONE = re.compile(r"(?:^|(?<=[,;:])\s+|\b(?:and|so|but)\s+|^(?i:from\s+now\s+on|from\s+next\s+week|"
                       # ("From next week rehearsals are Mondays and Wednesdays": its day's place)
                       r"starting\s+next\s+week|now|\x00\d+\x00)\s*,?\s+)(?:(?P<owner>(?i:my|our|his|her|their))\s+|"
                       r"(?i:the)\s+)?" + _APPOINTMENT
                       + r"\s+(?i:is|are|'s)(?:\s+(?i:now|still|usually|always))?\s+(?:(?i:on)\s+)?" + _EVERY_SLOT)
_SLOT_NOW = re.compile(r"\b(?:(?i:moved|changed|switched|shifted|rescheduled)\s+|"
                       r"(?i:about|on|re|for)\s+(?:(?i:the)\s+)?(?=(?i:my|our|his|her|their)?\s*[\w-]+))"
                       # ("Small correction about the group meeting: it's Thursdays at 3pm")
                       r"(?:(?P<owner>(?i:my|our|his|her|their))\s+)?"
                       + _APPOINTMENT + r"\s*[:,;-]\s*(?:(?i:from\s+now\s+on|now|so)\s*,?\s+)?(?i:it's|it\s+is|"
                       r"they're|they\s+are)\s+(?:(?i:now)\s+)?(?:(?i:on)\s+)?" + _EVERY_SLOT)
# ... or moved by someone: "The club moved track night from Tuesdays to Thursdays, still 7pm".
_SLOT_MOVED_BY = re.compile(r"\b(?i:moved|changed|switched|shifted|moving|changing|switching|shifting)\s+"
                            r"(?:(?P<owner>(?i:my|our|his|her|their))\s+|"
                            r"(?i:the)\s+)?" + _APPOINTMENT + r"\s+(?:(?i:from)\s+[\w-]+"
                            r"(?:\s+(?i:mornings?|evenings?|nights?|afternoons?))?\s+)?(?i:to)\s+(?:(?i:on)\s+)?"
                            + _EVERY_SLOT)
# A weekday said as one day, a slot from now on: "Training moves to Wednesday from this week, same
# time" (a day's placeholder, whose weekday is the slot's).
_DAY_FROM_NOW = (r"\x00(?P<ph>\d+)\x00(?=\s*,?\s*(?:\x00\d+\x00|(?i:from\s+now\s+on|until\s+further\s+notice|"
                 r"same\s+time|every\s+week|each\s+week|for\s+the\s+rest\s+of\s+the\s+(?:season|term|year))\b))")
_PLACED_WEEKDAY = re.compile(r"^(?:(?:to|on)\s+)?\d{4}-\d\d-\d\d \((?P<wd>[A-Za-z]+day)\)$")
# ... or a courier's round told by its doing: "DPD will collect on Tuesdays at 2pm" (the group's
# collection).
_COLLECTS_ON = re.compile(r"\b(?:(?-i:[A-Z])[\w&'-]*|they|it)\s+(?:(?i:will|now|usually|still|only)\s+)?"
                          r"(?P<what>(?i:collects?|picks?\s+up))\s+(?:(?i:on)\s+)?" + _EVERY_SLOT)
# ... or moved to its new days: "From next week training moves from Tuesday to Wednesday evenings".
_SLOT_MOVES = re.compile(r"(?:^|(?<=[,;:])\s+|\b(?:and|so|but)\s+|^\x00\d+\x00\s*,?\s+)"
                         r"(?:(?P<owner>(?i:my|our|his|her|their))\s+|(?i:the)\s+)?" + _APPOINTMENT
                         + r"\s+(?i:moves?|moved|is\s+moving|are\s+moving|will\s+move|switch(?:es)?|change[sd]?|"
                         r"is\s+changing)\s+"
                         # ("from Tuesday" is a day's placeholder, its "from" with it)
                         r"(?:(?:\x00\d+\x00|(?i:from)\s+[\w-]+)"
                         r"(?:\s+(?i:mornings?|evenings?|nights?|afternoons?))?\s+(?=(?i:to)\s))?"
                         r"(?:(?i:to)\s+(?:(?i:on)\s+)?" + _EVERY_SLOT + "|" + _DAY_FROM_NOW + ")")
# ... or told as where we are going, of a slot the turn named before: "Training change again, the U13s
# have taken the Wednesday astro slot. We're moving to Tuesdays".
_WE_MOVE_TO = re.compile(r"(?:^|(?<=[,;:])\s+|\b(?:and|so|but)\s+)(?i:we're|we\s+are|we'll\s+be|we\s+will\s+be)\s+"
                         r"(?:(?i:now|then)\s+)?(?i:moving|switching|changing|going|shifting)\s+"
                         r"(?:(?i:it|back)\s+)?"
                         r"(?i:to)\s+(?:(?i:on)\s+)?" + _EVERY_SLOT)
# ... or a supplier's or a service's weekly day: "Our fish delivery day is now Thursday, not Tuesday",
# "Fish deliveries now come on Wednesday instead of Thursday", "Bin day is Monday" (the group's).
_ROUTINE_DAY = re.compile(
    r"(?:^|(?<=[,;:])\s+|\b(?:and|so|but)\s+)(?:(?i:my|our|the)\s+)?"
    r"(?P<what>(?:[A-Za-z][\w-]*\s+)?(?i:delivery\s+days?|deliveries|collection\s+days?|collections|bin\s+day|"
    r"recycling\s+day|market\s+day|cleaning\s+day))\s+"
    r"(?:(?i:now|still|usually|always)\s+)?(?i:is|are|'s|come|comes|arrive|arrives|will\s+be|happen)\s+"
    r"(?:(?i:now|still|usually|always)\s+)?(?:(?i:on)\s+)?" + _EVERY_SLOT)
_DOING = {"lifting": "lift", "training": "train", "runs": "run", "running": "run", "workouts": "work out",
          "sessions": "train", "gym sessions": "train", "swims": "swim", "swimming": "swim"}
# "Tidewater now renews on April 30, 2027".
_RENEWS = re.compile(_WHO + r"\s+(?:now\s+)?renews?\s+"
                     r"(?:on\s+)?\x00(?P<d>\d+)\x00")
# A ticket's status: "LUM-4821 is reopened", "I've marked LUM-4907 as fixed in 3.14.2".
_TICKET = rf"(?P<id>\b{lx.TICKET_ID}\b)"
_STATUS_TAIL = rf"(?P<status>(?i:{_STATUS_WORDS}))(?P<tail>\s+in\s+v?\d+(?:\.\d+){{1,3}})?\b"
# ("Order #A-10293 shipped this morning": a shipment's news said as a deed)
_TICKET_IS = re.compile(
    rf"{_TICKET}\s+(?:(?:is|was|has\s+been|got|looks|is\s+now|'s)\s+(?:now\s+|marked\s+(?:as\s+)?)?"
    rf"|(?:has\s+|just\s+)?(?=(?i:shipped|delivered|arrived|dispatched)\b)){_STATUS_TAIL}")
_TICKET_DONE = re.compile(
    rf"\b(?:I've|I\s+have|we've|we\s+have|I|we|they|[A-Z][\w-]+)\s+(?:(?:has|have)\s+)?(?:just\s+)?"
    rf"(?:(?P<verb>reopened|closed|resolved|fixed|opened|logged|filed|raised|created)\s+"
    rf"(?:(?i:the\s+)?(?i:ticket|complaint|case|issue|bug|request|order|return)\s+)?#?{_TICKET}|"
    rf"marked\s+(?:(?i:the\s+)?(?i:ticket|complaint|case|issue|bug|request|order|return|parcel|package)\s+)?#?"
    rf"{_TICKET.replace('id', 'id2')}\s+as\s+{_STATUS_TAIL})")
# A thing that breaks and is mended: "the boiler at Elm Road has broken again", "the extractor
# fan has stopped working", "Gareth fixed the boiler at Elm Road", "the boiler is working again".
_NOT_THING_WORD = r"(?!(?i:at|in|on|for|again|now|today|yesterday|has|have|is|was|just|this|last)\b)"
_THING = (rf"(?P<tdet>(?i:the|my|our|his|her|their))\s+"
          rf"(?P<attr>{_NOT_THING_WORD}[\w-]+(?:\s+{_NOT_THING_WORD}[\w-]+){{0,2}})"
          rf"(?:\s+(?i:at|in)\s+(?P<owner2>{_NAME}))?")
_BROKE = re.compile(rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+){_THING}\s+(?:(?:has|have|'s)\s+)?(?:just\s+)?"
                    r"(?P<st>broken(?:\s+down)?|broke(?:\s+down)?|stopped\s+working|packed\s+up|died|is\s+dead|"
                    r"works\s+again|(?:is|'s)\s+(?:back\s+(?:on|up)|working\s+(?:again|fine|now)))\b", re.I)
_FIXED = re.compile(rf"\b(?:I|we|[A-Z][\w-]+)(?:'ve|\s+have|\s+has)?\s+(?:just\s+|finally\s+)?"
                    rf"(?P<st>fixed|repaired|mended|sorted)\s+{_THING}")
_STATUS_OF = {"broke": "broken", "broke down": "broken", "broken down": "broken", "stopped working": "broken",
              "packed up": "broken", "died": "broken", "is dead": "broken", "works again": "working",
              "is back on": "working", "'s back on": "working", "is back up": "working", "'s back up": "working",
              "is working again": "working", "is working fine": "working", "is working now": "working",
              "'s working again": "working", "'s working fine": "working", "'s working now": "working",
              "repaired": "fixed", "mended": "fixed", "sorted": "fixed"}
# Where someone is in a process (a candidate's, an applicant's, a client's), one step at a time:
# "Priya passed the tech screen", "we're moving her to onsite", "she's through to the technical
# interview", "Tom declined our offer", "Ana withdrew", "Let's reject Marco".
_STEP = (r"(?:(?:phone|tech(?:nical)?|coding|culture|final|first|second|third|design|system\s+design|portfolio|"
         r"panel|sql|hiring\s+manager)\s+)?(?:screen|screening|interview|round|onsite|on-site|take-home|review|"
         r"assessment|panel|test)|onsite|on-site|offer\s+stage|reference\s+checks?|background\s+checks?")
_SHE = r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|[Ss]he|[Hh]e)"
_HER = r"(?P<who2>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|her|him)"
# What someone asks to be paid: "Priya wants 120k", "he's asking for 115k", "She came back at
# 130k though", "Sam Whitfield expects 92k".
_ASKS = re.compile(rf"(?<![\w']){_SHE}(?:'s|\s+is)?\s+(?:now\s+|also\s+)?(?:wants|asking\s+for|asks\s+for|expects|"
                   r"expecting|came\s+back\s+(?:at|with|asking\s+for))\s+(?:about\s+|around\s+)?"
                   r"(?P<num>[$£€]?\d+(?:[.,]\d+)?k\b|[$£€]\d[\d,]*(?:\.\d+)?)")
_STEPS = (
    (re.compile(rf"(?<![\w']){_SHE}(?:'s|\s+is|\s+has|\s+was)?\s+(?:now\s+)?(?:through|moving|moved|moving\s+on|"
                rf"progressing|going\s+through|going)\s+(?:on\s+)?to\s+(?:the\s+)?(?P<step>{_STEP})\b"), "{step}"),
    (re.compile(rf"\b(?:moving|move|moved|advancing|advance|progressing|progress|putting|put|sending|send|taking|"
                rf"take|skipping)\s+{_HER}\s+(?:through\s+|forward\s+|on\s+|straight\s+)?to\s+(?:the\s+)?"
                rf"(?P<step>{_STEP})\b"), "{step}"),
    (re.compile(rf"(?<![\w']){_SHE}\s+(?:has\s+|just\s+)*(?:passed|cleared|aced|nailed|smashed)\s+"
                r"(?:the\s+|her\s+|his\s+)?"
                rf"(?P<step>{_STEP})\b"), "passed {step}"),
    (re.compile(rf"(?<![\w']){_SHE}\s+(?:has\s+|just\s+)*(?P<step>accepted|declined|turned\s+down)"
                # ("Sam Okafor accepted our VP Engineering offer!!")
                r"(?:\s+(?:the|our|my|his|her|their)\s+(?:[\w$£€]+\s+){0,3}?offer)?(?=\s*(?:[!.,;]|$))"),
     "{step} the offer"),
    (re.compile(rf"(?<![\w']){_SHE}\s+(?:has\s+)?(?P<step>withdrawn|withdrew|pulled\s+out|dropped\s+out)\b"),
     "withdrew"),
    (re.compile(rf"\b(?:[Ll]et's|we'll|we\s+will|we're\s+going\s+to|I'll|[Ww]e|I)\s+(?:have\s+|just\s+)?"
                rf"(?P<step>reject(?:ed)?|turn(?:ed)?\s+down|pass(?:ed)?\s+on)\s+{_HER}(?![\w'])"), "rejected"),
    (re.compile(rf"\b(?:[Ww]e|I)(?:'ve|\s+have|'re|\s+are)?\s+(?:just\s+)?"
                r"(?P<step>made|sent|extended|making|offered)"
                rf"\s+{_HER}\s+(?:an\s+)?(?:offer|\d)"), "offer"),
)
# "sorry, 85 not 87", "42 seats, not 40", "I meant 40 seats not 45", "£1,100 instead of £1,150", "£24 a
# month now instead of £30".
# (a number, not a time's part: "at 3:50, not 3:45" had made "3:55" "50,:55")
# ("£32k Tom not 45 lol": whom it is said to between)
_CORRECTION = re.compile(r"(?<![\d:])(?P<new>(?:\d[\d,]*(?:\.\d+)?|\d{1,2}:\d{2})(?:\s?[ap]m\b)?)(?<!,)(?:k|%)?\s*"
                         r"(?:(?:[a-z]+|[A-Z][a-z]+(?=\s+not\b))(?:\s+[a-z]+){0,4}\s*)?,?\s+"
                         r"(?:not|instead\s+of|rather\s+than)\s+"
                         r"(?:the\s+)?[$£€]?(?P<old>\d{1,2}:\d{2}|\d[\d,]*(?:\.\d+)?)\b(?!:\d)")
# ... the old one said first, in a sentence of its own: "sorry, not 6, he wants 8 of them".
_NOT_OLD_FIRST = re.compile(r"^(?:(?i:sorry|oops|correction|wait|no|actually)[\s,:;!.-]+)*(?i:not)\s+"
                            r"[$£€]?(?P<old>\d[\d,]*(?:\.\d+)?)\s*[,;:-]\s*"
                            r"(?:(?i:it'?s|it\s+is|make\s+(?:it|that)|(?:he|she|they|we|I)\s+(?:wants?|needs?|meant|said|"
                            r"asked\s+for|ordered))\s+)?[$£€]?(?P<new>\d[\d,]*(?:\.\d+)?)(?![\d:])")
# "Actually no, make that 75": the value said last, anew.
# ... not a number of other things ("make it 6 crew days now" after "revised the quote to £4,650"
# had made the quote £6; "let's make it 25% of everything" after a day rate of £340, the rate £25): the number
# alone, or of money or time.
_MAKE_THAT = re.compile(r"\b(?i:make\s+(?:that|it))\s+[$£€]?(?P<new>\d[\d,]*(?:\.\d+)?)\b(?!\s*%)"
                        r"(?!\s*(?!(?:k|quid|pounds?|dollars?|euros?|each|per|an|pm|am|not|instead|then|now|please|"
                        r"pls|thanks|ok)\b)[a-z]{2,})")
# ... or a sum said again, alone after a word taken back: "wait no, €2,420." (after "invoice
# INV-2026-042 to Brandt for €2,310").
# ("wait no, with Ana's salary it's $66k. sorry", after "burn is $65k a month": the sum after "it's")
# ("sorry, I meant £55", "sorry, £5,250, I misread the PDF": why after it)
_SAID_AGAIN = re.compile(r"^(?:(?i:wait|no|sorry|oops|correction|actually|sorry\s+typo|typo)[\s,:;!.-]+)+"
                         r"(?:(?i:(?:with|after|including|plus)\s[^.!?]{1,40}?\s)?(?i:it'?s|it\s+is|it\s+was|that'?s|that\s+was|"
                         r"(?:let'?s\s+)?make\s+(?:it|that)|should\s+be|I\s+meant?)\s+(?i:actually\s+)?)?"
                         # ("sorry, £95 a day, 85 was last year's price on their website")
                         r"[$£€]\s?(?P<new>\d[\d,]*(?:\.\d+)?)(?P<unit>k\b)?(?:\s+(?i:a|an|per|each)\s+[a-z]+)?"
                         r"\s*(?:[.!,]+\s*(?i:sorry|oops)?)?"
                         # (why after it: "sorry, I meant £60, the £80 was for the U16 section")
                         # ("sorry, £11.84 — I was looking at last year's sheet")
                         r"(?:(?:,|\s+[—–-])\s+(?:(?i:I|I've|I'm|my|we|it|that|the|because|cos|since)\b|[$£€]?\d[\d,.]*\s+(?i:was|is)\b)"
                         r"[^.!?]*)?[.!]*$")
# A day said again, in a sentence of its own: "Sorry, I mean 28 January", "Oops, make that
# Friday the 12th", "Correction: the 28th". (A sentence that says what it corrects, "the Okafor
# booking is on Sunday 13 December, not Saturday 12", is its own value: assignments.py.)
_MEANT_DAY = re.compile(r"^(?:(?:sorry|oops|correction|my\s+mistake|my\s+bad|actually|no|wait)\b[\s,:;!.-]*)+"
                        # ("correction, Helen just told me it's 29 April not 22")
                        r"(?:(?-i:[A-Z])[\w'-]*\s+(?:just\s+)?(?:told|texted|emailed|messaged)\s+(?:me|us)\s+(?:that\s+)?"
                        r"(?=it'?s\s|it\s+is\s))?"
                        r"(?:i\s+meant?\s+|make\s+(?:that|it)\s+|it'?s\s+|it\s+is\s+)?(?:on\s+|from\s+)?(?P<day>.+?)"
                        r"[\s.!]*$", re.I)
# The day it replaces, said after it, and why ("29 April not 22, Prof Duarte can't do the 22nd").
# ("sorry, I meant from the 7th November, not next saturday")
_NOT_THE_OLD = re.compile(r",?\s+(?:not|instead\s+of|rather\s+than)\s+(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\b|"
                          rf"(?:next\s+|this\s+)?(?:{lx.WEEKDAY_ALT})\b).*$", re.I)
# ... or agreed, after someone asked to move it: "I can't do the 3rd, can we make it Tuesday 8
# December?" "ok, Tuesday 8 December it is" (the 3 December meeting stayed).
_DAY_IT_IS = re.compile(r"^(?:(?:ok|okay|right|fine|great|yes|yep|yeah|cool|perfect|sure|done)\b[\s,!.]*)*"
                        r"(?P<day>.+?)\s+it\s+is[\s.!]*$", re.I)

# ... or settled on after a doubt: "oct 2" "wait oct 2 is a friday. oct 5 then, monday" (its weekday
# after it is the same day's).
_DAY_THEN = re.compile(r"^(?:(?:ok|okay|right|fine|so|yes|yeah|hmm+)\b[\s,!.]*)*(?P<day>.+?)\s+then\b"
                       rf"(?:[\s,]+(?:{lx.WEEKDAY_ALT}))?[\s.!]*$", re.I)


SUM = re.compile(r"[$£€]\s?\d(?:[\d,]*\d)?(?:\.\d+)?k?")  # a sum as written: "$2,430", "£1.5k"


# What a value said again after a slip opens with: "no wait, ", "sorry, ", "Correction: ".
SLIP_LEAD = r"^(?:(?i:wait|no|sorry|oops|correction|actually|typo|my\s+bad)[\s,:;!.-]+)+"
# ... or a number alone: "no wait, 16." after "she's dropped my Tresiba to 15 units from tonight"; with
# its unit ("no wait, 4.6kg." after "weigh-in done, she's 4.8kg").
_NUMBER_SAID_AGAIN = re.compile(SLIP_LEAD +
                                r"(?:(?i:it'?s|it\s+is|it\s+was|make\s+(?:it|that)|I\s+meant?)\s+)?(?P<new>\d+(?:\.\d+)?)"
                                r"(?:\s?(?i:kg|g|lbs?|oz|ml|mg|mcg|units?|cm|mm|km|miles?))?[.!]*$")


# ... or a time ("training is tuesdays 6pm" "no wait, it's 6:30 now, the U14s have it till half past"), why after it.
_TIME_SAID_AGAIN = re.compile(SLIP_LEAD +
                              r"(?:(?i:it'?s|it\s+is|make\s+(?:it|that)|I\s+meant?)\s+)?(?:(?i:at)\s+)?"
                              r"(?P<new>\d{1,2}(?::\d\d)?\s?(?i:am|pm)|\d{1,2}:\d\d)(?:\s+(?i:now))?(?:[,;.!]|$)")


def time_said_again(raw: str) -> str | None:
    """The time of day a sentence says first after a word taken back ("no wait, it's 6:30 now, ...")."""
    m = _TIME_SAID_AGAIN.match(raw.strip())
    return m["new"] if m is not None else None


def number_said_again(raw: str) -> str | None:
    """The number a sentence says alone after a word taken back ("no wait, 16.")."""
    m = _NUMBER_SAID_AGAIN.match(raw.strip())
    return m["new"] if m is not None else None


def sum_said_again(raw: str) -> str | None:
    """The sum a sentence says alone after a word taken back ("wait no, it's $2,430."), as written."""
    m = _SAID_AGAIN.match(raw.strip())
    return SUM.search(m.group()).group() if m is not None else None


def _meant_day(raw: str) -> str | None:
    """What a sentence of a day said instead says after its "sorry, I meant" (or before its "it is",
    its "then")."""
    m = _MEANT_DAY.match(raw)
    if m is not None:
        # ("actually make that Tuesday 24th, Monday I've got the dentist lol": the day, then why)
        return _WHY_AFTER.split(_NOT_THE_OLD.sub("", m.group("day")), maxsplit=1)[0]
    m = _DAY_IT_IS.match(raw) or _DAY_THEN.match(raw)
    return m.group("day") if m is not None else None


_WHY_AFTER = re.compile(r",\s+(?=(?:[\w']+\s+){0,2}(?:I|I've|I'm|we|we've|we're|she|he|they|as|because|cos|since)\b)|"
                        r"\s+(?:because|cos|as|since)\s+", re.I)


_WEEKDAY_THE = re.compile(r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|the|on)\b")

# Measured of a body or its training: the speaker's when no one else's is said.
# (a dose too: "carb ratio stays 1:10 for now", said by the one who injects)
_OF_A_BODY = frozenset("""weight height heart hr rhr pressure bp sugar glucose a1c hba1c cholesterol bmi fat
basal bolus insulin ratio dose dosage
vo2 pr pb 1rm 3rm 5rm max squat deadlift bench press ohp pace time calories kcal protein steps sleep ferritin
iron temperature waist mileage""".split())
# Verbs a value is set with, no attribute's words ("Maria bumped basal up to 17 units").
_SET_VERBS = frozenset("raised bumped upped lowered reduced cut dropped changed moved put increased set revised "
                       "updated pushed".split())
# Words of an attribute that make it no attribute: a person's relation or post (parse.py holds
# them), a date or time word, what a pronoun or a question opens with.
_NOT_ATTR = (lx.KIN | lx.ORG_ROLES | lx.PRONOUNS | lx.WEEKDAYS | lx.MONTHS | frozenset(
    """it this that there here what which who whom whose how why where when today tonight tomorrow yesterday
    one thing things lot everything something nothing anything all both each score""".split()))
_NOT_ATTR_ALONE = frozenset("date day time week month year morning evening name address phone email number".split())
# One attribute under several words ("resting HR" is "resting heart rate").
_SAME = (("5 rep max", "5rm"), ("rep max", "rm"), ("one rep max", "1rm"), ("1 rep max", "1rm"),
         ("resting hr", "resting heart rate"), ("bp", "blood pressure"), ("bench press", "bench"),
         ("licences", "seats"), ("licenses", "seats"), ("users", "seats"),
         ("rhr", "resting heart rate"),
         ("fees", "fee"),  # ("Monthly fees are going up ... to £56", then "the fee is now £52 a month instead of £56")
         ("heart rate", "heart rate"), ("personal record", "pr"), ("personal best", "pr"), ("pb", "pr"),
         ("calorie target", "calories"), ("calories target", "calories"), ("daily calories", "calories"),
         ("calorie intake", "calories"), ("kcal", "calories"), ("seat count", "seats"),
         ("protein target", "protein"),
         ("number of seats", "seats"),
         ("salary expectation", "expectation"), ("salary expectations", "expectation"),
         ("expected salary", "expectation"), ("stage", "status"),
         ("body weight", "weight"), ("bodyweight", "weight"), ("renewal", "renewal date"),
         ("renewal date date", "renewal date"), ("tier", "plan"),
         ("goal score", "goal"), ("target score", "goal"), ("target", "goal"), ("goal time", "goal"),
         ("target time", "goal"), ("race goal", "goal"),
         ("deposit pot", "deposit savings"), ("deposit fund", "deposit savings"),
         ("savings for the deposit", "deposit savings"), ("final numbers", "guest count"),
         ("final number", "guest count"), ("number of guests", "guest count"),
         # a job's first day is its start date ("my start date at Feedzai is confirmed for Monday 2 November",
         # then "so my first day is now Monday 9 November")
         ("first day", "start date"))
# What is counted, whose number goes "down to" or "up to" a new one ("bug count down to 12").
_COUNTS = frozenset("count total number tally backlog list queue".split())
# A day that is a thing's own, said of no one (its group's): "Renewal date is March 1, 2027".
_DATED = frozenset("renewal expiry expiration deadline due contract trial subscription lease licence license "
                   "warranty cutoff cut-off".split())
_LEAD = frozenset("new current latest daily weekly monthly usual regular my our their the his her its total overall".split())
_HOMES = frozenset("flat apartment house home place room studio".split())


def attribute_key(words: str) -> str:
    """An attribute as its timeline knows it: "my new squat 5 rep max" is "squat 5rm", a lift's
    best single ("bench 1RM", "deadlift PB", "my bench") its "pr"; asked after ("What's Nadia's
    squat 5 rep max?") by the same words (asked_attribute.py)."""
    key = normalize_key(words)
    parts = key.split()
    while len(parts) > 1 and parts[0] in _LEAD:
        parts.pop(0)
    while len(parts) > 1 and parts[-1] in ("back", "again"):
        parts.pop()  # "weekly mileage back up to 40 km": the weekly mileage
    while len(parts) > 2 and tuple(parts[-2:]) in _FOR_NOW:
        del parts[-2:]  # "Target pace for now is 5:40": the target pace, as "target pace is 5:50" later
    if len(parts) == 3 and parts[1] == "for" and parts[2] not in lx.STOPWORDS:
        parts = [parts[2], parts[0]]  # "budget for tools" is the "tools budget"
    key = f" {' '.join(parts)} "
    for said, same in _SAME:
        key = key.replace(f" {said} ", f" {same} ")
    parts = key.split()
    if parts and parts[0] in _LIFTS and (len(parts) == 1 or " ".join(parts[1:]) in _BEST):
        return f"{parts[0]} pr"
    if " ".join(parts) in _A_PRICE:
        return "price"  # "his rate up to £60 an hour", after "Dan charges £50 an hour" (his price)
    return " ".join(parts)


_A_PRICE = frozenset({"rate", "rates", "hourly rate", "hourly fee", "fee per hour", "charge", "charges"})


# Whose body someone tends, by their post: a coach's athlete's pace is hers.
_TENDS = frozenset("coach trainer physio physiotherapist doctor gp nurse dietitian nutritionist carer".split())
# A sum paid to whom it is paid: "Deposit with Anglo Welsh is £300" is the deposit (each firm's had
# been a timeline of its own, the first current).
_PAID_WITH = re.compile(r"((?i:deposit|balance|fees?|payment|booking))\s+(?i:with|to|for)\s+\S.*$")
_FOR_NOW = frozenset({("for", "now"), ("right", "now"), ("this", "week"), ("at", "present")})
_LIFTS = frozenset("squat bench deadlift ohp clean snatch row".split())
_BEST = frozenset("pr 1rm max record best one rep max 1 rep max press".split())


# A dish or a paper a weekday names: "Sunday roast goes up too, from £17 to £18.50" (the roast's price).
_WEEKDAY_THINGS = frozenset("roast roasts lunch brunch carvery special specials menu paper papers".split())


def _attribute(words: str) -> str | None:
    key = attribute_key(words)
    parts = key.split()
    named = {w for i, w in enumerate(parts) if w in lx.WEEKDAYS and i + 1 < len(parts) and parts[i + 1] in _WEEKDAY_THINGS}
    if not parts or (set(parts) - named) & _NOT_ATTR or all(w in lx.STOPWORDS or w.isdigit() for w in parts) \
            or parts[0] in lx.STOPWORDS or set(parts) & lx.MEDICATIONS or key in _NOT_ATTR_ALONE:
        return None
    return key


def _value(m: re.Match, sent: _Sentence) -> str | None:
    """The value a match names: a number with its unit, a day, a version, a status or a name."""
    if m.groupdict().get("d") is not None:
        i = int(m.group("d"))
        day = ISO_DAY.search(sent.rendered[i]) if i < len(sent.rendered) else None
        return day.group() if day else None
    for g in ("clock", "num", "ver", "status", "name"):
        if m.groupdict().get(g):
            value = " ".join(m.group(g).split())
            # ("their warehouse is Snowflake." ends its sentence; "Node.js" keeps its dot)
            return value.rstrip(".") if g == "name" else value
    return None


class _Values:
    """The values one sentence states, gathered reader by reader (each reader below knows one
    kind of value), each with its owner and the clause it is told from."""

    def __init__(self, sent: _Sentence, reg: _Registry, org: str | None, recent: str | None,
                 before: list[_Parse]):
        self.sent, self.reg, self.org, self.recent, self.before = sent, reg, org, recent, before
        self.text, self.speaker = sent.s1, sent.t.speaker
        self.out: list[_Parse] = []
        self.ends: dict[int, int] = {}  # where each value's words end, by its parse's id
        self.firm: str | None = None  # (measures())

    def named_first(self, pos: int) -> str | None:
        """The first person the sentence names before `pos`, no speaker: its subject, whom "she"
        after it is ("Ana did her portfolio review with Lena, she's through to the onsite")."""
        return next((e.name for e in self.sent.named_before(self.reg, pos, ("person",))), None)

    def last_of(self, predicate: str) -> str | None:
        """Whose `predicate` value the episode said last ("Priya passed the tech screen. Raj loved
        her answers. We're moving her to onsite": Priya's)."""
        return next((p.subject for p in reversed([*self.before, *self.out]) if p.predicate == predicate), None)

    def pronoun_of(self, predicate: str) -> str | None:
        """Whom "she" or "him" is when the sentence names no one: the person named last, unless
        another had a `predicate` value said last in the episode ("Priya passed the tech screen.
        Raj loved her answers. We're moving her to onsite": Raj or Priya? neither is taken)."""
        last = self.last_of(predicate)
        return self.recent if last is None or last == self.recent else None

    def orgs_before(self, pos: int) -> str | None:
        found = self.sent.named_before(self.reg, pos, ("organization",))
        return found[-1].name if found else None

    def tended_by(self, speaker: str) -> str | None:
        """Whom the speaker coaches or treats, named so in the episode ("I'm Ollie Brennan, Nadia's coach")."""
        ent = self.reg.get(speaker)
        said = [*(ent.aliases if ent is not None else ()), *self.reg.known_aliases.get(_key(speaker), ())]
        tended = {a.rsplit("'s ", 1)[0] for a in said if "'s " in a and a.rsplit("'s ", 1)[1].lower() in _TENDS}
        return tended.pop() if len(tended) == 1 else None

    def owner(self, word: str | None, pos: int) -> str | None:
        """Whose a value is, said as `word` ("I", "my", "they", "Brightwave"); None: its group's."""
        if word is None:
            return None
        low = word.lower()
        if low in ("i", "my", "i'm"):
            return self.speaker
        if low in ("you", "your"):  # ("I'm changing your target marathon pace to 5:30 per km", his coach said)
            return self.sent.t.other
        if low in ("we", "our", "they", "their", "its"):
            return self.orgs_before(pos) or (self.org if low in ("they", "their", "its") else None)
        if low in ("his", "her"):  # "His callout is £85": the person named last, said before it
            named = self.sent.named_before(self.reg, pos, ("person",))  # ("Amir ..., so I raised his")
            return next((e.name for e in reversed(named) if not e.speaker), None) or self.recent
        ent = self.reg.get(word)
        if ent is None:
            return None if low in lx.STOPWORDS | lx.PRONOUNS else word
        return ent.name

    def add(self, whose: str | None, attr: str | None, value: str | None, at: int, lead: str | None = None,
            end: int | None = None, text: str | None = None, ended: bool = False, unowned: bool = False) -> None:
        # ("none" only for a value said to be over: "Colin did Sundays, Priya will take those over")
        if not attr or not value or value.lower() in lx.STOPWORDS and not (ended and value == "none"):
            return
        speaker = self.speaker
        if whose is None and (owned := {p.subject for p in self.before if p.predicate == f"{attr} is"}):
            whose = owned.pop() if len(owned) == 1 else None  # "The boiler is working again": the one said
        if whose is None and set(attr.split()) & _OF_A_BODY and not self.sent.t.assistant and not unowned:
            # "Squat 5 rep max is 80 kg", said by the lifter; "Target pace is 5:50", said by her coach
            whose = self.tended_by(speaker) or speaker
            lead = lead or f"{whose}'s"
        if whose is None:  # its group's, told as said ("Jon said the opening night is on ...")
            parse = _Parse(attr, "name", "is", value, True, False, clause=at,
                           lead=f"{speaker} said" if lead is None else lead or None, said_now=True, text=text)
        else:
            parse = _Parse(whose, "name", f"{attr} is", value, True, whose == speaker, clause=at, lead=lead,
                           said_now=True, text=text)
        if end is not None and (day := _FROM_DAY.match(self.text, end)) and (
                day.group("from") or _FROM_WORD.match(self.sent.rendered[int(day.group("d"))])):
            parse.said_now, parse.from_day = False, True  # "rent goes up to £1,150 from December": from then
        elif (day := _LEAD_DAY.match(self.text)) and _FROM_WORD.match(self.sent.rendered[int(day.group("d"))]):
            parse.said_now, parse.from_day = False, True  # "From November 1 my day rate goes up to €520"
        same = next((p for p in self.out if p.subject == parse.subject and p.predicate == parse.predicate), None)
        if same is not None and attr == "status" and at > same.clause:
            self.out.remove(same)  # "offered Priya 125k and she accepted": where she is now
            same = None
        if same is None:
            self.out.append(parse)
            self.ends[id(parse)] = end if end is not None else at

    def told(self) -> list[_Parse]:
        """The values in the sentence's order, each told from its clause to the next value's."""
        # "Northpeak is at 80 licences": Northpeak's seats, not a thing called Northpeak's value.
        owned = {p.clause for p in self.out if p.predicate != "is"}
        out = sorted((p for p in self.out if p.predicate != "is" or p.clause not in owned), key=lambda p: p.clause)
        for p, after in zip(out, out[1:]):
            if after.clause >= self.ends[id(p)] and after.clause > p.clause:
                p.until = after.clause  # "Squat 5RM is 80 kg, deadlift 5RM is 95 kg": each its clause
        if out and out[0].clause:  # what the sentence says before its first value is told with it
            out[0].clause = 0  # ("Josh says hi, his driving test is on ...")
            out[0].lead = out[0].lead if out[0].predicate == "is" else None
        return out


# "At Blue Harbour my contact is Niamh Kelly": the holder there, as "my contact at ..." (parse.py)
_AT_PLACE_FIRST = re.compile(r"^(?i:at|with|for)\s+(?:(?i:the)\s+)?[A-Z]")


# The words of an attribute whose value is a code ("ETH-2291").
_CODES = frozenset("number code reference ref id pin".split())


def _said_is(v: _Values) -> None:
    """"<attribute> is <value>", its owner said before it or none."""
    text, reg = v.text, v.reg
    for m in _IS_VALUE.finditer(text):
        det, said_owner = m.group("det"), m.group("owner") or m.group("owner2")
        if (det2 := m.group("det2")) and det2.lower() != "the":
            det = det or det2  # "the rent for my flat": the speaker's
        said_attr = m.group("attr")
        if (paid := _PAID_WITH.match(said_attr)) is not None:
            said_attr = paid.group(1)  # "Deposit with ABC is £400": the deposit's (ABC is no attribute)
        if not (det or said_owner):
            # "Northwind deal amount is $135k", "The Harbor renewal date is ...": a name before
            # the attribute is its owner, as "Northwind's" is.
            said_owner, said_attr = _org_first(said_attr, reg)
        # (a code is a value though: "ethics number is ETH-2291", then "new number is ETH-3310")
        coded = re.search(r"\d", m.group("name") or "") and said_attr.split()[-1].lower() in _CODES
        if m.group("name") and not coded and (not (det or said_owner) or ":" in m.group(0) or m.group("owner2")
                                              or _AT_PLACE_FIRST.match(text)):
            # "Launch is Monday", "my head chef sorted: Kwame": a name is no one's value; "my
            # contact at Nudge is Dev Patel": a holder there (parse.py), not "contact is" of mine
            # (which Brightwave's contact ended)
            continue
        if m.group("owner2") and re.match(r"['’]s\b", text[m.end("owner2"):]):
            continue  # "the Shrike at Sammy's Point": the name goes on
        thing = m.group("thing2")
        # "the rent for my flat" is the speaker's rent (a home's values are its dweller's);
        # "the cost of my phone plan" the plan's cost, not every cost of the speaker's.
        attr = _attribute(said_attr if thing is None or thing.lower() in _HOMES
                          else f"{thing} {said_attr}")
        words = [said_attr, *said_attr.split()]
        # "Swallow is £120 a night" (a cottage, read as a place): its sum, as a thing's ("the Forest
        # Floor Risotto will be €21")
        priced = (m.group("num") or "")[:1] in "£$€" and not (det or said_owner) and (
            (e := reg.get(said_attr)) is not None and e.type in ("place", "organization"))
        if attr is None or re.search(_TICKET, m.group("attr")) or not priced and any(
                (e := reg.get(w)) is not None and e.type != "thing" for w in words):
            continue  # "Tom is 30", "LUM-4821 is fixed": a name is no attribute
        loose = re.match(r"'s\b|\s+(?:up|down)\s+to\b", text[m.end("attr"):], re.I)
        if loose and (not set(attr.split()) & (_OF_A_BODY | _COUNTS) or set(attr.split()) & _SET_VERBS):
            # "weight's 83.1", "protein target up to 170 g"; but "Alfie's 8" is an age ("Maria
            # bumped basal up to 17 units": set by Maria, _changed)
            continue
        if m.group("d") is not None and attr.split()[-1] in lx.SCHEDULED_EVENTS and not (det or said_owner):
            continue  # "Launch is Monday": a scheduled event's day (assignments.py); "my exam" is mine
        if m.group("d") is not None and int(m.group("d")) < len(v.sent.rendered) \
                and re.match(r"(?i:from)\s", v.sent.rendered[int(m.group("d"))]) \
                and re.search(r"\bmov(?:es|ed|ing)$", text[:m.start("d") - 1].rstrip(), re.I):
            continue  # "my appointment moved from 8 Oct to 15 Oct": the day it left (assignments.py has the new)
        whose = v.owner(det or said_owner, m.start())
        if whose is None and m.group("d") is not None and not set(attr.split()) & _DATED:
            continue  # "first day is 31 July": whose first day? (two people's would end each other)
        if whose is None and (det or said_owner) and not (m.group("num") or m.group("d") or m.group("clock")):
            continue  # "their warehouse is Snowflake", no organisation named: too loose to keep
        lead = None
        if whose is None and attr == "status" and (tickets := re.findall(_TICKET, text[:m.start()])):
            whose = lead = tickets[-1]  # "Ticket is LUM-4821, status is open"
        v.add(whose, attr, _value(m, v.sent), m.start(), lead, m.end())
        if whose is None and not (det or said_owner) and (m.group("num") or "")[:1] in "£$€":
            end = m.end()
            while (more := _THINGS_NEXT.match(text, end)) is not None:  # ("Swan is £250, Red Lion £300 flat")
                thing, sum_ = more.group("thing"), more.group("sum")
                if (e := v.reg.get(thing)) is not None and e.type == "person":
                    break
                v.add(None, attribute_key(thing), sum_, more.start("thing"), None, more.end(),
                      text=f"{thing} is {sum_}{more.group('per') or ''}.")
                end = more.end()
        end, owners = m.end(), {whose}
        while whose is not None and (more := _THEIRS_NEXT.match(text, end)) and (
                other := v.owner(more.group("owner"), more.start("owner"))) not in owners | {None}:
            value, end = _value(more, v.sent), more.end()
            owners.add(other)
            v.add(other, attr, value, more.start("owner"), None, end, text=f"{other}'s {attr} is {value}.")


def _org_first(attr: str, reg) -> tuple[str | None, str]:
    """(the entity named by the attribute's first words, the rest), or (None, attr)."""
    words = attr.split()
    for k in (2, 1):
        # (of any type: "Northwind", named in "a call with Northwind", may be typed a person)
        if len(words) > k and (e := reg.get(" ".join(words[:k]))) is not None:
            return e.name, " ".join(words[k:])
    return None, attr


def _body(v: _Values) -> None:
    """A body's weight ("I weigh 72 kg", "Omar weighs 88"), and what the one measured says of
    no one else ("BP 121/79", "deadlift PB 140 kg", "scale said 84.2")."""
    text, speaker = v.text, v.speaker
    for m in _WEIGHS.finditer(text):
        who = m.group("who")
        said = m.group(0).lower()
        if who is None and not said.lstrip().startswith("weigh"):
            continue
        if "weigh" not in said and not re.search(r"kg|kilo|lb|pound|stone", m.group("num").lower()):
            continue  # "I'm 30": an age, not a weight
        pronoun = who is not None and who.lower() in ("she", "he", "it", "they")
        if pronoun:
            if who.lower() in ("it", "they") and "weigh" not in said:
                continue  # "it's 20 kg": a bag's, a parcel's
            # "she weighs 5.5 kg now", "she's 5.3 kg": the cat's named before, or no one's known,
            # never the speaker's (whose weight it had been)
            # (not the person named last: the cat's vet, "Hill" of "Hill's y/d", were taken so)
            whose = v.named_first(m.start()) or v.last_of("weight is")
            if whose is None or whose == speaker:
                continue
        elif who not in (None, "I") and "weigh" not in said and (
                (e := v.reg.get(who)) is None or e.type != "person"):
            continue  # "Omar is 88 kg", but not "PR is 87 kg"
        else:
            whose = speaker if who in (None, "I") else v.owner(who, m.start())
        v.add(whose, "weight", m.group("num"), m.start(), speaker if who is None else None, m.end())
    if v.sent.t.assistant:
        return
    for m in _BARE.finditer(text):
        v.add(speaker, attribute_key(m.group("attr")), " ".join(m.group("num").split()), m.start("attr"),
              f"{speaker}'s", m.end())
    for m in _SCALE.finditer(text):
        v.add(speaker, "weight", " ".join(m.group("num").split()), m.start(), f"{speaker}'s weight:", m.end())


# A weight told with no verb of being: "nurse weighed her too, 4.7 kg", "weighed at clinic yesterday:
# 4.4 kg!", "Asha 3.9 kg at the pharmacy scales today" (each a "said" fact beside "Asha is 3.3 kg").
_WEIGHED = re.compile(r"(?P<i>\bI\s+)?\b(?i:weighed|weigh-in|weigh\s+in)(?:\s+(?P<whom>(?i:her|him|them|it|myself|me)))?\b"
                      r"(?:[^.;!?\d\x00]|\x00\d+\x00){0,40}?"
                      rf"[:,]?\s+(?P<num>\d+(?:\.\d+)?\s*(?i:{_WEIGHT_UNITS}))\b" + _END)
_NAME_WEIGHT = re.compile(rf"(?:^|[,;:]\s+)(?P<who>[A-Z][\w-]+)\s+(?P<num>\d+(?:\.\d+)?\s*(?i:{_WEIGHT_UNITS}))\b"
                          + _END)


def _weighed(v: _Values) -> None:
    """Whose weight a weighing tells: the one weighed ("her": the person or pet named, or whose
    weight was said last, never the speaker), or the one named before the figure."""
    for m in _WEIGHED.finditer(v.text):
        if m.group("i") or (m.group("whom") or "").lower() in ("myself", "me"):
            continue  # the speaker's own weighing (_body's, when said as such)
        if m.group("whom"):
            whose = v.named_first(m.start()) or v.last_of("weight is") or v.recent
        else:
            whose = v.last_of("weight is")
        num = " ".join(m.group("num").split())
        if whose is None:
            # weighed in a session of its own: the group's weight, which the writer gives to the one
            # whose weight the group holds (value_owner.py), not the speaker's
            v.add(None, "weight", num, m.start(), None, m.end(), unowned=True)
        elif whose != v.speaker:  # (told as "Asha weighed at clinic ...: 4.4 kg")
            v.add(whose, "weight", num, m.start(), None if m.group("whom") else whose, m.end())
    for m in _NAME_WEIGHT.finditer(v.text):
        e = v.reg.get(m.group("who"))
        if e is not None and e.type == "person" and not e.speaker:
            v.add(e.name, "weight", " ".join(m.group("num").split()), m.start("who"), None, m.end())


# A week's distance: "I'm running about 50 km a week at the moment" (then "Weekly mileage is down
# to 30 km": both stayed current, the first a fact of its own).
_MILEAGE = re.compile(r"(?<![\w'])(?:I'm|I\s+am|I've\s+been|I'll\s+be)\s+(?:now\s+|currently\s+)?"
                      r"(?:running|doing|averaging|logging|cycling|riding|swimming|at)\s+(?:about\s+|around\s+|"
                      r"roughly\s+|~)?(?P<num>\d+(?:\.\d+)?\s*(?:km|k|kilometres|kilometers|miles|mi))\s+"
                      r"(?:a|per|each|every)\s+week\b", re.I)


# Someone's pay, one figure at a time: "I work at Halden Logistics as an operations analyst, 52k a year
# before tax", then "Halden gave me a raise from October, it's 54,500 now" (a "gave" fact: 52k stayed).
_MONEY = r"(?P<num>[£$€]?\d{1,3}(?:,\d{3})+(?:\.\d\d)?|[£$€]?\d+(?:\.\d+)?\s?[kK]\b|[£$€]\d+(?:\.\d\d)?)"
_PAY = (
    re.compile(r"(?<![\w'])(?:I|I'm|I\s+am)\s+(?:now\s+)?(?:earn|earning|make|making|get\s+paid|paid)\s+"
               r"(?:about\s+|around\s+|roughly\s+)?" + _MONEY + r"(?:\s+(?:a|per)\s+(?:year|annum))?(?![\w£$€])",
               re.I),
    # ("I'm on 48k now", "I'm on £52,000 a year"; not "I'm on 10k steps a day")
    re.compile(r"(?<![\w'])(?:I'm|I\s+am)\s+(?:now\s+)?on\s+(?:about\s+|around\s+)?" + _MONEY
               + r"(?=\s+(?:a|per)\s+(?:year|annum)\b|\s*(?:now|salary|before\s+tax|gross)?\s*[,.!;]|\s*$)", re.I),
    re.compile(r"\b(?:work|working)\s+(?:at|for)\b[^.;!?]{0,60}?,\s*" + _MONEY + r"\s+(?:a|per)\s+(?:year|annum)\b",
               re.I),
    re.compile(r"\b(?:gave\s+me|I\s+got|I've\s+got|got|getting)\s+a\s+(?:pay\s+)?(?:raise|rise|pay\s+rise)\b"
               r"[^.;!?]{0,30}?(?:,\s*(?:it's|it\s+is|I'm\s+on|I\s+am\s+on)\s+(?:now\s+)?|\s+to\s+)" + _MONEY,
               re.I),
)


# An hourly rate agreed for someone: "ok £14 an hour for Sam then" (after "I'll sort his contract. £13.50 an
# hour?" "£14, he's experienced": nothing of Sam's pay had been kept).
_RATE_FOR = re.compile(r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)\s+(?:an|per|a)\s+(?P<per>hour|day|shift)\s+"
                       rf"(?:(?i:for)\s+)(?P<who>{_NAME})(?:\s+(?i:then|now|from\s+now\s+on))?\s*[.!]*$")


# A customer's quote, said as given: "New job: Helen Okafor, 2 bed flat ... I quoted her £850", "Another one:
# Tom Reilly, house in Highbury to St Albans. quoted £1,200", then "I said £880, final price" (each a "said"
# fact beside "revised her quote to £920", which stayed current after £880).
_MONEY = r"(?P<num>[£$€]\s?\d(?:[\d,]*\d)?(?:\.\d\d)?k?)"
# (and given again: "re-quoted at £4,650 for the lot")
_QUOTED = re.compile(r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:(?i:I|we)(?:'ve|\s+have)?\s+)?(?P<again>(?i:re-?))?(?i:quoted)\s+"
                     rf"(?:(?P<whom>(?i:her|him|them)|{_NAME})\s+)?(?:(?i:at)\s+)?{_MONEY}(?![\d,.]\d)")
_FINAL_PRICE = re.compile(r"\b(?i:I|we)\s+(?i:said|agreed|settled\s+on|offered|went\s+with)\s+"
                          rf"{_MONEY}\s*,?\s*(?i:final|last|best)\s+(?i:price|offer|quote)\b")
# ... settled, of no one said: "Eleri knocked us down a bit, agreed £4,400 final"
_SETTLED = re.compile(rf"(?<!\bI\s)(?<!\b[Ww]e\s)\b(?i:agreed|settled\s+on)\s+{_MONEY}\s*,?\s*(?i:final)\b(?!\s+(?i:price|offer|quote))")


# A household by its surname: "the Hendersons".
_FAMILY = re.compile(r"\b(?i:the)\s+((?-i:[A-Z])[a-z]+s)\b(?!.*\b(?i:the)\s+(?-i:[A-Z])[a-z]+s\b)")


def _quotes(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    for m in (*_QUOTED.finditer(v.text), *_FINAL_PRICE.finditer(v.text), *_SETTLED.finditer(v.text)):
        whom = m.groupdict().get("whom")
        if whom and whom.lower() not in ("her", "him", "them"):
            ent = v.reg.get(whom)
            who = ent.name if ent is not None and ent.type == "person" and not ent.speaker else None
        elif whom and whom.lower() == "them" and (family := _FAMILY.search(v.text, 0, m.start())) is not None:
            who = family.group(1)  # ("a full rewire for the Hendersons on Cae Mawr Road, quoted them £4,200")
        elif m.re is _SETTLED or m.groupdict().get("again"):
            who = v.last_of("quote is")  # given again or settled: the quote said last in the episode, if any
        else:  # the customer the sentence named before it, else the one named last
            who = v.named_first(m.start()) or v.recent
        said = v.reg.get(who) if who else None
        if who and who != v.speaker and not (said is not None and said.speaker):  # (nor the assistant, "Bolt")
            v.add(who, "quote", m.group("num").replace(" ", ""), m.start(), end=m.end())


# What someone charges for their work, and what they were paid when their price went up: "he
# charges £85" (of the tuner named before), then "paid Gareth £90 this time, he's put his price up"
# (each had been nothing, or a "said" fact beside the other).
_CHARGES = re.compile(r"(?:^|[,;:.]\s+|\b(?:and|but|so)\s+)(?P<who>he|she|they|(?-i:[A-Z])[\w'-]+)\s+(?:(?i:now|only|still)\s+)?"
                      r"(?i:charges|charge)\s+(?:(?i:us|me|them)\s+)?(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)")
_PAID_MORE = re.compile(r"\b(?i:paid|pay|paying)\s+(?P<who>(?-i:[A-Z])[\w'-]+)\s+(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)"
                        r"(?=[^.;!?]*\b(?i:put\s+(?:his|her|their)\s+(?:price|prices|rate|rates|fee|fees)\s+up|"
                        r"raised\s+(?:his|her|their)\s+(?:price|prices|rate|rates|fee|fees)|"
                        r"(?:his|her|their)\s+(?:new\s+)?(?:price|rate|fee)\b))")


# ... or what someone is an hour ("Marta Kowalski. She's £13 an hour", "From now on you're £50 an hour, not
# £45"), or their rate put up ("I've put your hourly up again, £52 now"): each had been no value.
_IS_PER = re.compile(r"(?<![\w'])(?P<who>he|she|you|(?-i:[A-Z])[\w'-]+)(?:'s|'re|\s+is|\s+are)\s+(?:(?i:now|only|still)\s+)?"
                     r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)\s+(?i:an?|per)\s+(?i:hour|day|session|lesson|night|visit)\b")
_PUT_UP = re.compile(r"\b(?i:put|putting|bumped|bumping|raised|raising|upped)\s+(?P<who>(?i:your|his|her|my))\s+"
                     r"(?i:hourly|rates?|prices?|fees?|day\s+rate|hourly\s+rate)(?:\s+(?i:up))?(?:\s+(?i:again))?"
                     r"(?:\s*,\s*|\s+(?i:to)\s+)(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)")
_WHOSE_WORD = {"your": "you", "his": "he", "her": "she", "my": "I"}


def _charges(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    for m in [*_CHARGES.finditer(v.text), *_PAID_MORE.finditer(v.text), *_IS_PER.finditer(v.text),
              *_PUT_UP.finditer(v.text)]:
        said = _WHOSE_WORD.get(m.group("who").lower(), m.group("who"))
        if said.lower() == "you":
            who = v.sent.t.other
        elif said == "I":
            who = v.speaker
        elif said.lower() in ("he", "she", "they"):
            who = v.named_first(m.start()) or v.recent
        else:
            ent = v.reg.get(said)
            who = ent.name if ent is not None and ent.type == "person" and not ent.speaker else None
        if who is not None:
            num = m.group("num").replace(" ", "")
            v.add(who, "price", num, m.start(), end=m.end(), text=f"{who}'s price is {num}.")


def _pay(v: _Values) -> None:
    if not v.sent.t.assistant:
        for rx in _PAY:
            for m in rx.finditer(v.text):
                v.add(v.speaker, "salary", " ".join(m.group("num").split()), m.start(), end=m.end())
        for m in _RATE_FOR.finditer(v.text):
            who = v.reg.get(m.group("who"))
            if who is not None and who.type == "person" and not who.speaker:
                rate = f"{m.group('num').replace(' ', '')} an {m.group('per')}" if m.group("per") == "hour" \
                    else f"{m.group('num').replace(' ', '')} a {m.group('per')}"
                v.add(who.name, "pay", rate, m.start(), end=m.end(), text=f"{who.name}'s pay is {rate}.")


# A first day at a named organisation, gone by: where the speaker works now ("first day at Brightline
# was yesterday!" was Brightline's "first day is", and "works at" Halden stayed current).
_FIRST_DAY_AT = re.compile(r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:(?i:my|it's\s+my|it\s+was\s+my)\s+)?(?i:first)\s+"
                           r"(?i:day|week|morning)\s+(?i:at|with)\s+(?P<org>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,3})"
                           r"(?:\s+(?i:was|went|is\s+done|done))?")


def _first_day(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    ahead = any(d.direction == "future" for d in v.sent.dates)
    for m in _FIRST_DAY_AT.finditer(v.text):
        ent = v.reg.get(m.group("org"))
        if ent is None or ent.type not in ("organization", "thing", "place"):
            continue
        if ent.type != "organization":
            ent.settle("organization")
        # ("My first day at Brightline is on 2 November": from then)
        p = _Parse(v.speaker, "speaker", "works at", ent.name, True, True, clause=m.start(), said_now=not ahead,
                   from_day=ahead)
        v.out.append(p)
        v.ends[id(p)] = m.end()


# Someone's number, one at a time: "her number is 555-0148" (of the walker named before: nothing
# was kept), "My mobile is 07700 900123", "Hannah's new number is 07700 900456".
_PHONE = re.compile(
    r"(?<![\w'])(?P<whose>my|his|her|their|(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)['’]s)\s+(?:(?i:new)\s+)?"
    # ("Her direct line is 01423 557902": the solicitor's named before)
    r"(?:(?i:phone|mobile|cell|contact|work|home|direct)\s+)?(?i:number|no\.?|phone|mobile|cell|line|landline|dial)\s+"
    r"(?i:is|'s)\s+"
    r"(?:(?i:now)\s+)?(?P<num>\+?\(?\d[\d\s().-]{5,16}\d)(?![\d-])", re.I)


# Someone's email address, one at a time: "his email is g.collins@staldhelms.org.uk", "Ms Patel's new
# email is ..." (each was a "said" fact, the first current beside the next).
_ADDRESS = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_EMAIL = re.compile(
    r"(?<![\w'])(?P<whose>(?i:my|his|her|their)|(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)['’]s)\s+(?:(?i:new|work)\s+)?"
    rf"(?i:e-?mail)(?:\s+(?i:address))?\s+(?i:is|'s)\s+(?:(?i:now)\s+)?(?P<addr>{_ADDRESS})")
# ... and said again after a slip: "sorry, it's jpatel@staldhelms.org.uk, no dot"
_EMAIL_AGAIN = re.compile(r"^(?:(?i:sorry|oops|correction|typo|wait|no|actually)[\s,:;!.-]+)+"
                          rf"(?:(?i:it'?s|it\s+is|should\s+be)\s+)?(?P<addr>{_ADDRESS})")


def _contacts(v: _Values) -> None:
    """Someone's phone number and email address, each one at a time."""
    if v.sent.t.assistant:
        return
    for rx, attr, said_as, group in ((_PHONE, "phone", "number", "num"), (_EMAIL, "email", "email", "addr")):
        for m in rx.finditer(v.text):
            whose = v.owner(m.group("name") or m.group("whose"), m.start())
            if whose is None:
                continue
            value = " ".join(m.group(group).split())
            # (told with what the sentence said first: "The head of sixth form is Mr Graham Collins, his email is ...")
            said = f"{whose}'s {said_as} is {value}." if m.group("whose").lower() in ("his", "her", "their") \
                and not m.start() else None
            v.add(whose, attr, value, m.start(), end=m.end(), text=said)


# Grades as a school writes them ("A*AB", "AAA"), of what is graded, one set at a time: "his predicted
# grades came through today, A*AB", "Luca's predicted grades are now A*AA", "so predicted is AAA now",
# "Bristol made an offer, AAA" (each was a "said" fact: the first predicted grades stayed current).
_GRADES = r"(?P<grades>(?:A\*{1,2}|[A-E]){2,5})(?![\w*])"
_GRADED = re.compile(
    r"(?<![\w'])(?:(?P<whose>(?i:my|his|her|their)|(?P<name>[A-Z][\w-]*)['’]s)\s+)?"
    r"(?P<attr>(?i:predicted\s+grades?|predicted|predictions|target\s+grades?|grades|results))\s+"
    r"(?:(?i:came)(?:\s+(?i:through|in|out|back))?(?:\s+\S+)?\s*,|(?i:are|is|'s|were|was)(?:\s+(?i:now|still))?|"
    r"(?i:now))\s*" + _GRADES)
_OFFER_GRADES = re.compile(
    r"(?P<org>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)?)\s+(?i:made|gave|sent)\s+(?:(?i:him|her|them|us|me)\s+)?"
    r"(?i:an?\s+)?(?i:offer)(?:\s+(?i:too|as\s+well))?\s*[,:]\s*" + _GRADES)
_GRADES_OF = {"predicted": "predicted grades", "predictions": "predicted grades", "predicted grade": "predicted grades",
              "target grade": "target grades"}


def _grades(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    for m in _GRADED.finditer(v.text):
        attr = " ".join(m.group("attr").lower().split())
        attr = _GRADES_OF.get(attr, attr)
        said = m.group("name") or m.group("whose")
        whose = v.owner(said, m.start()) if said else None
        told = f"{whose}'s {attr} are {m.group('grades')}." if whose and said.lower() in ("his", "her", "their") \
            else None if whose else f"{attr[:1].upper()}{attr[1:]} are {m.group('grades')}."
        v.add(whose, attr, m.group("grades"), m.start(), end=m.end(), text=told)
    for m in _OFFER_GRADES.finditer(v.text):
        if (whose := v.owner(m.group("org"), m.start())) is not None:
            v.add(whose, "offer", m.group("grades"), m.start(), end=m.end(), text=f"{whose}'s offer is {m.group('grades')}.")


# The shifts someone works: "no more long days, I'm on earlies now, 7am to 3:30pm Monday to Thursday", "so I'm
# on 1pm to 9:30pm Tuesday to Friday from this week" (each had been a "said" fact, the long days current beside them).
_SHIFT_KIND = (r"(?:earlies|lates|nights|night\s+shifts?|long\s+days|early\s+shifts?|late\s+shifts?|twilights|"
               r"day\s+shifts?)")
_WEEKDAY_SPAN = (r"(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*(?:to|-|–|through|and|&)\s*"
                 r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b")
_ON_SHIFTS = re.compile(rf"\b(?P<who>(?-i:[A-Z])[\w-]*)(?:'m|'s|\s+am|\s+is)\s+(?:now\s+)?on\s+"
                        rf"(?:(?P<kind>{_SHIFT_KIND})\b(?:\s+now)?(?:\s*,\s*|\s+)?(?P<hours>{HOURS_SPAN})?|"
                        rf"(?P<hours2>{HOURS_SPAN}))(?:\s+(?P<days>{_WEEKDAY_SPAN}))?", re.I)


def _shifts(v: _Values) -> None:
    for m in _ON_SHIFTS.finditer(v.text):
        said = [m["kind"], m["hours"] or m["hours2"], m["days"] and re.sub(r"^on\s+", "", m["days"], flags=re.I)]
        if m["kind"] is None and m["days"] is None:
            continue  # ("I'm on 9 to 5 today": no shifts said)
        if m["who"] != "I" and m["who"].lower() in lx.STOPWORDS | lx.PRONOUNS:
            continue  # ("It's on 9am to 5pm Monday to Friday": what "it" is, no one's shifts)
        v.add(v.owner(m["who"], m.start()), "shifts", ", ".join(" ".join(x.split()) for x in said if x), m.start(),
              end=m.end())


def _mileage(v: _Values) -> None:
    if not v.sent.t.assistant:
        for m in _MILEAGE.finditer(v.text):
            v.add(v.speaker, "mileage", " ".join(m.group("num").split()), m.start(), end=m.end())


def _account(v: _Values) -> None:
    """An account's seats, plan, renewal and version ("Brightwave has 42 seats", "Harbor
    upgraded from Starter to Pro", "Tidewater now renews on ...", "Harbor now runs Lumen 3.15")."""
    text = v.text
    for m in [*_HAS.finditer(text), *_AT_COUNT.finditer(text)]:
        v.add(v.owner(m.group("who"), m.start()), attribute_key(m.group("attr")), m.group("num"), m.start(),
              end=m.end())
    for m in [*_PLAN.finditer(text), *_FROM_TO.finditer(text)]:
        if m.re is _FROM_TO and not {m.group("old").lower(), m.group("v").lower()} <= _TIERS:
            continue
        for tier in (m.group("v"), m.groupdict().get("old")):  # "from Starter to Pro": no places
            if tier and (e := v.reg.get(tier)) is not None and not e.speaker:
                e.settle("thing")
        v.add(v.owner(m.group("who"), m.start()), "plan", m.group("v"), m.start(), end=m.end())
    for m in _RENEWS.finditer(text):
        v.add(v.owner(m.group("who"), m.start()), "renewal date", _value(m, v.sent), m.start(), end=m.end())
    for m in _VERSION.finditer(text):
        # ("we're on Godot 4.3", then "I upgraded the project to Godot 4.4": the project's, no one's)
        whose = None if m.group("who").lower() in ("i", "we") else v.owner(m.group("who"), m.start())
        v.add(whose, "version", m.group("v"), m.start(), end=m.end())


def _changed(v: _Values) -> None:
    """A value someone set ("I raised my calories to 2,100", "we cut the budget to £400"), and a
    day's energy or protein aimed at ("targeting 1,900 kcal a day": the speaker's)."""
    for m in _CHANGED.finditer(v.text):
        if _PROPOSED.search(v.text, 0, m.start() + 12) or _PROPOSED.match(v.sent.raw.strip()):
            continue  # "Committee proposal: raise subs to £50 a term from the spring term": not yet
        det = (m.group("det") or "the").lower()  # "raised my calories": mine; "cut the budget": the group's
        whose = v.owner(m.group("det"), m.start()) if det != "the" else v.owner(m.group("owner2"), m.start())
        value = m.group("num") or m.group("clock")
        # ("put the Fireside up again, to £17": the Fireside's)
        said_attr = re.sub(r"\s+(?:up|down|back)$", "", m.group("attr"), flags=re.I)
        if det == "the" and whose is None:
            # ("I've changed the Heron key safe code to 9035": Heron's key safe code)
            whose, said_attr = _org_first(said_attr, v.reg)
        attr = _attribute(said_attr)
        if attr and attr.split()[-1] in lx.HIRED and value[:1] in "£$€":
            attr = f"{attr} fee"  # ("negotiated the hall down to £70 an evening": the hall fee)
        v.add(whose, attr, value, m.start(), "", m.end())  # (told by its doer)
    for m in _AGREED_AT.finditer(v.text):
        v.add(None, " ".join(m.group("attr").lower().split()), m.group("num").replace(" ", ""), m.start(), "", m.end())
    for m in _SUM_FOR.finditer(v.text):
        x = m.group("x").lower()
        if x.split()[0] not in lx.STOPWORDS:
            v.add(None, x if x.endswith("budget") else f"{x} budget", m.group("num").replace(" ", ""), m.start(), "",
                  m.end())
    for m in _TARGETING.finditer(v.text):
        protein = "protein" in m.group("what").lower()
        value = re.sub(r"\s*(?:of\s+)?protein$", "", " ".join(m.group("num").split()), flags=re.I)
        v.add(v.speaker, "protein" if protein else "calories", value, m.start(), end=m.end())


# Which school a child goes to, one at a time: "Leo is going to St Julian's too, they said year 1 might be
# tight", then "So Leo is going to Escola Básica Manuel da Maia instead", "so Leo will be at Redbridge,
# not Manuel da Maia" (each a "said" fact or a fact of its own, and all stayed current).
_AT_SCHOOL = re.compile(
    r"(?:^|[,;:]\s+|\b(?:so|and|but|now)\s+)(?P<who>(?-i:[A-Z])[\w'-]+)\s+(?i:is\s+(?:now\s+)?going\s+to|goes\s+to|"
    r"will\s+go\s+to|will\s+be\s+at|'ll\s+be\s+at|is\s+(?:still\s+|now\s+)?at|starts\s+at|is\s+starting\s+at|"
    r"is\s+moving\s+to|is\s+switching\s+to)\s+"
    r"(?P<school>(?-i:[A-Z])[\w'’-]*(?:\s+(?:(?-i:[A-Z])[\w'’-]*|da|de|do|dos|das|of|the)){0,5})")
_PLACE_AT = re.compile(  # "Maya's place at St Julian's School is confirmed"
    r"(?:^|[,;:]\s+|\b(?:so|and|but|now)\s+)(?P<who>(?-i:[A-Z])[\w'-]+?)['’]s\s+(?i:place|spot)\s+(?i:at|in)\s+"
    r"(?P<school>(?-i:[A-Z])[\w'’-]*(?:\s+(?:(?-i:[A-Z])[\w'’-]*|da|de|do|dos|das|of|the)){0,5})")
_SCHOOL_NAME = re.compile(r"\b(?:School|Academy|College|Primary|Nursery|Escola|Kindergarten|Prep|Montessori|"
                          r"Gymnasium|Lycée|Colégio)\b")
_SCHOOL_CUE = re.compile(r"\b(?:school|year\s+\d{1,2}|reception|nursery|class|pupils?|teachers?|term|place)\b", re.I)


def _schools(v: _Values) -> None:
    for m in (*_AT_SCHOOL.finditer(v.sent.text), *_PLACE_AT.finditer(v.sent.text)):
        who = v.reg.get(m.group("who"))
        if who is None or who.type != "person" or who.speaker:
            continue
        school = re.sub(r"(?:\s+(?:da|de|do|dos|das|of|the))+$", "", m.group("school"))
        known = v.reg.get(school)
        if not (_SCHOOL_NAME.search(school) or known is not None and _SCHOOL_NAME.search(known.name)
                or _SCHOOL_CUE.search(v.sent.text)):
            continue
        v.add(who.name, "school", known.name if known is not None else school,
              v.sent.s1_pos(m.start("who")), end=v.sent.s1_pos(m.end()))


def _schedules(v: _Values) -> None:
    """The days of the week the speaker does a thing on, said or moved (the words as said: a
    day is no date here)."""
    for m in _SCHEDULE.finditer(v.sent.text):
        verb = " ".join(m.group("v").lower().split())
        if verb == "rehearse":  # "We rehearse every Tuesday": the group's rehearsals (_slots)
            whose = None if m.group("who").lower() == "we" else v.speaker
            v.add(whose, "rehearsals schedule", " ".join(m.group("when").split()), 0)
            continue
        v.add(v.speaker, f"{verb} schedule", " ".join(m.group("when").split()), 0)
    for m in _SCHEDULE_MOVED.finditer(v.sent.text):
        doing = _DOING[" ".join(m.group("v").lower().split())]
        v.add(v.speaker, f"{doing} schedule", " ".join(m.group("when").split()), 0)
    for m in _REHEARSALS_MOVED.finditer(v.sent.text):  # (from the day said after it, when one is)
        v.add(None, "rehearsals schedule", " ".join(m.group("when").split()), 0, end=v.sent.s1_pos(m.end()))


_OURS = frozenset({"meeting", "meetings", "training", "practice", "standup", "stand-up", "rehearsals", "classes",
                   "night", "nights", "choir", "club", "collection", "collections", "pickup", "pickups", "pick-up",
                   "pick-ups"})
_SAME_APPOINTMENT = {"meetings": "meeting", "physiotherapy": "physio", "session": "sessions", "lesson": "lessons",
                     "collections": "collection", "pickup": "collection", "pickups": "collection",
                     "pick-up": "collection", "pick-ups": "collection",
                     "class": "classes",
                     "appointment": "appointments", "check-in": "check-ins", "call": "calls",
                     "rehearsal": "rehearsals",
                     "stand-up": "standup", "counseling": "counselling"}


_A_DATE_NEXT = re.compile(r"\s*,?\s*(?:the\s+)?\x00\d+\x00")


def _slots(v: _Values) -> None:
    """When someone's sessions are, said or moved; "our" said by an assistant is the person it
    speaks to (the one named last: "Hi Samuel! ... Our sessions are Tuesdays at 5pm")."""
    for m in [*_SLOT_ONE.finditer(v.text), *_SLOT_NOW.finditer(v.text), *_SLOT_MOVES.finditer(v.text),
              *_SLOT_MOVED_BY.finditer(v.text)]:
        if v.sent.t.assistant:
            continue  # (whose, said by an assistant, the rules below read when it says)
        if m.re is _SLOT_MOVED_BY and not re.match(r"(?i:every|each)\b|\w+days\b", m.group("when")):
            continue  # "Niall moved my appointment to Wednesday 9 December": one day, no slot
        if m.groupdict().get("when") and not m.group("when").lower().endswith("s") \
                and _A_DATE_NEXT.match(v.text, m.end("when")):
            continue  # "physio is now Friday 9 October at 8am": that Friday's, no weekly slot
        word = m.groupdict().get("owner")
        whose = v.owner(word, m.start()) if word else v.speaker
        what = " ".join(m.group("what").lower().split())
        what = re.sub(r"^(?:weekly|regular|usual|club|our|the)\s+(?=[\w-]+\s)", "", what)
        if not word and what.split()[-1] in _OURS:
            whose = None  # "the group meeting", "training": the group's, whoever says it
        if m.groupdict().get("ph") is not None:
            said = _PLACED_WEEKDAY.match(v.sent.rendered[int(m.group("ph"))])
            if said is None:
                continue  # "moves to 23 September from this week": a day, no weekday's slot
            when, hour = said.group("wd").capitalize() + "s", ""
        else:
            when, hour = m.group("when"), m.group("hour") or ""
        when = re.sub(rf"^(?i:every|each)\s+(?=(?i:{_DAY})\b)", "", when)  # "every Tuesday": Tuesday
        slot = " ".join((when + hour).split())
        # "Physio is ...": "Tomás's physio is ..."
        lead = None if word or m.start() > 0 or whose is None else f"{whose}'s"
        v.add(whose, f"{_SAME_APPOINTMENT.get(what, what)} schedule", slot, m.start(), lead=lead, end=m.end())
    for m in _WE_MOVE_TO.finditer(v.text):
        content = v.sent.t.turn.content
        at = content.find(v.sent.raw.strip())  # (the turn's words before this sentence: none when not found)
        named = _APPOINTMENT_NAMED.findall(content[:at]) if at > 0 else []
        what = " ".join(named[-1].lower().split()) if named and not v.sent.t.assistant else None
        if what is not None and re.match(rf"(?i:{_DAY})s\b", m.group("when")):
            slot = " ".join((m.group("when") + (m.group("hour") or "")).split())
            whose = None if what.split()[-1] in _OURS else v.speaker
            v.add(whose, f"{what} schedule", slot, m.start(), end=m.end())
    for m in _COLLECTS_ON.finditer(v.text):
        if not v.sent.t.assistant:
            v.add(None, "collection schedule", " ".join((m.group("when") + (m.group("hour") or "")).split()),
                  m.start(), end=m.end())
    for m in _ROUTINE_DAY.finditer(v.text):
        what = re.sub(r"\s+days?$", "", m.group("what").lower().replace("deliveries", "delivery")
                      .replace("collections", "collection"))
        v.add(None, f"{' '.join(what.split())} day", m.group("when"), m.start(), end=m.end())
    for m in [*_SLOT_IS.finditer(v.text), *_SLOT_MOVED.finditer(v.text)]:
        word = m.group("name") or m.group("owner")
        whose = v.recent if word.lower() == "our" and v.sent.t.assistant else v.owner(word, m.start())
        slot = " ".join((m.group("when") + (m.group("hour") or "")).split())
        v.add(whose, f"{m.group('what').lower()} schedule", slot, m.start(), end=m.end())


# Where someone's things go, one address at a time: "Please send everything to 12 Rue des Lilas,
# 69003 Lyon, France from now on", "my new address is 4 Elm Road, Leeds", "I moved to 7 Quay
# Street". An address: a house number, then its capitalised words, their particles and numbers.
_ADDRESS = (r"(?P<addr>\d{1,5}[A-Za-z]?,?\s+(?:[A-ZÀ-Ý][\w'’.-]*)(?:(?:\s+|,\s*)"
            r"(?:[A-ZÀ-Ý][\w'’.-]*|\d[A-Z\d]{1,5}|de|des|du|da|do|dos|das|di|del|della|la|le|les|van|von|der|den|"
            r"am|an|im|y|e|of|on|upon)"
            r"(?![\w'’])){0,10})")
_ADDRESS_SAID = re.compile(
    r"(?:(?P<mine>\b(?i:my|our))\s+(?i:new\s+)?(?i:(?:delivery|shipping|home|postal|billing|mailing)\s+)?"
    r"(?i:address)\s+(?i:is|will\s+be|'s)(?:\s+(?i:now))?\s*:?"
    r"|\b(?i:send|ship|deliver|post|mail|forward)\s+(?:(?i:everything|it|them|all|orders?|parcels?|packages?|"
    r"(?:my|the|our)\s+[\w-]+(?:\s+[\w-]+)?)\s+)?(?i:to)"
    r"|\b(?i:I|we)(?:'ve|\s+have)?\s+(?i:moved|relocated|now\s+live|live\s+now)\s+(?i:to|at|in))\s+" + _ADDRESS)


def _addresses(v: _Values) -> None:
    """Where the speaker's things are sent: their address, one at a time."""
    if v.sent.t.assistant or v.sent.question:
        return
    for m in _ADDRESS_SAID.finditer(v.text):
        # ("Please send everything to ...": whose, said before the request's words)
        lead = None if m.group("mine") or re.match(r"(?i)I|we", m.group(0)) else f"{v.speaker} said"
        v.add(v.speaker, "address", m.group("addr").rstrip(" ,."), 0 if lead else m.start(), lead=lead,
              end=m.end())


_OF_TICKET = re.compile(r"\b(?i:for|of|about|on|with|from|in|re|regarding)\s+#?$")
# A subscription's status, said of it or done to it: "your Gamer Pass Plus subscription is
# cancelled as of today", "I cancelled your Snack Box Premium subscription". (It was "Sam said
# done, ...", its object cut at "as", and "Am I still on Gamer Pass Plus?" found the upgrade.)
_SUB_STATUS = r"cancell?ed|paused|renewed|suspended|expired|reactivated|terminated|ended|active|on\s+hold"
_SUB = (r"(?i:my|your|his|her|their|our|the)\s+(?P<sub>(?-i:[A-Z])[\w+&-]*(?:\s+(?-i:[A-Z])[\w+&-]*){0,3})\s+"
        r"(?i:subscription|membership|plan|contract)\b")
_SUB_IS = re.compile(rf"\b{_SUB}\s+(?i:is|was|has\s+been|got)\s+(?:(?i:now|also|just)\s+)?"
                     rf"(?P<status>(?i:{_SUB_STATUS}))\b")
_SUB_DONE = re.compile(rf"\b(?i:I've|I\s+have|I|we've|we\s+have|we)\s+(?:(?i:just|now)\s+)?"
                       rf"(?P<verb>(?i:cancell?ed|paused|renewed|suspended|reactivated|terminated|ended))\s+"
                       rf"{_SUB.replace('sub>', 'sub2>')}")


# A discount or gift code's state: "WELCOME15 was single-use and is already redeemed", "Done,
# BEANS10 is applied to order #A-10377" ("Which discount code can I use?" found the spent one).
_CODE_IS = re.compile(
    r"\b(?P<code>(?-i:[A-Z]{3,}\d{1,4}))\b(?:\s+[^.;!?]{0,30}?)?\s+(?i:is|was|has\s+been)\s+"
    r"(?:(?i:already|now|just|also|no\s+longer)\s+)?(?P<status>(?i:redeemed|used|expired|applied|invalid|valid|"
    r"active))\b")
# A refund paid, of the order the turn is about: "We received the return for order #A-10620. The
# refund of $24.90 was issued to your Visa today." (the order's status stayed "returned").
_REFUND_DONE = re.compile(
    r"\b(?i:the|your|a|his|her)\s+(?i:full\s+|partial\s+)?(?i:refund)\b(?:\s+(?i:of|for)\s+(?:[^.;!?]|\.\d){1,40}?)?\s+"
    r"(?i:was|has\s+been|is|got|have\s+been)\s+(?:(?i:now|just|already)\s+)?"
    r"(?i:issued|processed|sent|approved|completed|paid|credited)\b")
_TICKET_ANY = re.compile(_TICKET)  # (any, wherever in the turn)
# An invoice paid, in whole or part, or sent: "Brightwave paid INV-2026-014 today", "Halden paid
# half of INV-2026-015", "I sent invoice INV-2026-016 to Nudge" (the overdue one stayed current).
_INVOICE_DONE = re.compile(
    r"\b(?P<verb>paid|settled|sent|issued|resent|voided|cancell?ed)\s+(?:(?P<part>half|part|some|a\s+third|"
    r"a\s+quarter|\d{1,2}\s*%)\s+of\s+)?(?:(?i:the|my|our|their|your)\s+)?(?:(?i:invoice|bill)\s+)?#?"
    rf"(?P<id>\b{lx.TICKET_ID})\b", re.IGNORECASE)
_NOT_DONE = re.compile(r"(?:\bnot|n't|\bnever|\byet\s+to|\bstill\s+to|\bto|\bwill|'ll|\bshould|\bmust|"
                       r"\bplease)\s+(?:(?:have|has|been|be|ever|yet|actually|even)\s+)*$", re.I)
# "I invoiced Nudge for the sketch work: INV-2026-016, €1,350": sent (it had no status).
_INVOICED = re.compile(rf"\b(?i:invoiced|billed)\s+[^.;!?]{{0,60}}?\b#?(?P<id>{lx.TICKET_ID})\b")
_INVOICE_STATUS = {"settled": "paid", "issued": "sent", "resent": "sent", "canceled": "cancelled"}


# An invoice's sum: "invoice INV-2026-042 to Brandt for €2,310", "sent invoice INV-2026-041 to Lindqvist, €1,860".
_INVOICE_SUM = re.compile(rf"\b(?i:invoice)\s+(?:(?i:no\.?|number|#)\s*)?{_TICKET}(?:\s+(?i:to|for)\s+[A-Z][\w&'-]*"
                          r"(?:\s+[A-Z][\w&'-]*)*)?\s*(?:,\s*|\s+(?i:for|of|is|=)\s+|:\s*)"
                          r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)(?![\d,])")


def _tickets(v: _Values) -> None:
    """A ticket's status, said of it or done to it ("LUM-4821 is reopened", "I've opened QL-118")."""
    for m in _TICKET_IS.finditer(v.text):
        if _OF_TICKET.search(v.text, 0, m.start()):
            continue  # "the invoice for #A-10711 arrived": the invoice did
        v.add(m.group("id"), "status", m.group("status").lower() + (m.group("tail") or ""), m.start(), end=m.end())
    for m in _TICKET_DONE.finditer(v.text):
        status = (m.group("verb") or m.group("status")).lower() + (m.group("tail") or "")
        status = "open" if status in ("opened", "logged", "filed", "raised", "created") else status
        v.add(m.group("id") or m.group("id2"), "status", status, m.start(), end=m.end())
    for m in _INVOICE_DONE.finditer(v.text):
        verb = m.group("verb").lower()
        if _NOT_DONE.search(v.text, max(0, m.start() - 24), m.start()):
            # "Nudge still hasn't paid INV-2026-016": unpaid (it was stored as paid); "will pay": no news
            if verb in ("paid", "settled") and re.search(r"(?:not|n't|never)\s+(?:\w+\s+)*$",
                                                        v.text[max(0, m.start() - 24):m.start()]):
                v.add(m.group("id"), "status", "unpaid", m.start(), end=m.end())
            continue
        status = _INVOICE_STATUS.get(verb, verb)
        v.add(m.group("id"), "status", f"partly {status}" if m.group("part") else status, m.start(), end=m.end())
    for m in _INVOICE_SUM.finditer(v.text):
        v.add(m.group("id"), "amount", m.group("num").replace(" ", ""), m.start("id"), end=m.end())
    for m in _INVOICED.finditer(v.text):
        if not _NOT_DONE.search(v.text, max(0, m.start() - 24), m.start()):
            v.add(m.group("id"), "status", "sent", m.start(), end=m.end())
    for m in _CODE_IS.finditer(v.text):
        v.add(m.group("code"), "status", m.group("status").lower(), m.start(), end=m.end())
    for m in _REFUND_DONE.finditer(v.text):
        named = _TICKET_ANY.findall(v.text)
        if not named:  # the order the turn named before this sentence
            content = v.sent.t.turn.content if isinstance(v.sent.t.turn.content, str) else ""
            at = content.find(v.sent.raw.strip()[:24])
            named = _TICKET_ANY.findall(content[:at]) if at > 0 else []
        if len(set(named)) == 1:
            v.add(named[0], "status", "refunded", m.start(), end=m.end())
    for m in [*_SUB_IS.finditer(v.text), *_SUB_DONE.finditer(v.text)]:
        status = " ".join((m.groupdict().get("status") or m.group("verb")).lower().split())
        v.add(m.groupdict().get("sub") or m.group("sub2"), "status", status.replace("canceled", "cancelled"),
              m.start(), end=m.end())


def _repairs(v: _Values) -> None:
    """A thing broken or mended, of the place it is at when said ("the boiler at 14 Elm Road")."""
    for m in [*_BROKE.finditer(v.text), *_FIXED.finditer(v.text)]:
        attr = _attribute(m.group("attr"))
        if attr is None or (e := v.reg.get(m.group("attr"))) is not None and e.type != "thing":
            continue  # "his Mum broke down": a person
        status = " ".join(m.group("st").lower().split())
        det = m.group("tdet").lower()  # "my car broke down": mine; "the boiler at Elm Road": the place's
        whose = v.owner(m.group("owner2") if det == "the" else det, m.start())
        v.add(whose, attr, _STATUS_OF.get(status, status), m.start(), end=m.end())


_STEP_SAID = {"rejected": "rejected", "reject": "rejected", "turn down": "rejected", "turned down": "declined",
              "pass on": "rejected", "passed on": "rejected"}


def _steps(v: _Values) -> None:
    """Where a person is in a process: "status is" on their timeline ("What stage is Priya at?")."""
    for rx, told in _STEPS:
        for m in rx.finditer(v.text):
            said = m.groupdict().get("who") or m.group("who2")
            if said.lower() in ("she", "he", "her", "him"):
                whose = v.named_first(m.start()) or v.pronoun_of("status is")
            else:
                ent = v.reg.get(said)
                whose = ent.name if ent is not None and ent.type == "person" and not ent.speaker else None
            step = " ".join(m.group("step").lower().split())
            step = _STEP_SAID.get(step, step)
            if whose:
                v.add(whose, "status", told.format(step=step), m.start(), end=m.end())


def _asks(v: _Values) -> None:
    """What a person asks to be paid, one figure at a time ("expectation is")."""
    for m in _ASKS.finditer(v.text):
        said = m.group("who")
        if said.lower() in ("she", "he"):
            whose = v.named_first(m.start()) or v.pronoun_of("expectation is")
        else:
            ent = v.reg.get(said)
            whose = ent.name if ent is not None and ent.type == "person" and not ent.speaker else None
        if whose:
            v.add(whose, "expectation", m.group("num"), m.start(), end=m.end())


# A client's or a project's deadline, said as what is due or as the deadline moved by whose it is:
# "The Halden brand guidelines are due on October 23", "Halden moved the deadline again, it's now
# November 27" (one was a fact "Halden | brand | guidelines are due", the other "Halden | moved",
# and the first deadline stayed current beside the moved ones).
_DUE_ON = re.compile(
    r"(?:^|[,;:]\s+)(?:(?i:the|our|my|their)\s+)?(?P<x>(?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s+(?i:is|are)\s+"
    r"(?:(?i:now)\s+)?"
    # ("chapter 3 draft is due to Martin on Friday 30 October")
    r"(?i:due)\s+(?:(?i:to|with|for)\s+(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*)?\s+)?(?:(?i:on|by)\s+)?"
    rf"(?:(?i:{lx.WEEKDAY_ALT}),?\s+)?\x00(?P<d>\d+)\x00")  # ("due on Friday 30 October")
# ... or what someone wants by a day: "she wants all the receipts by 15 December", then "Fiona wants the
# receipts earlier now, by 8 December" (two deadlines, both kept active).
_WANTS_BY = re.compile(
    rf"(?:(?P<who>{_NAME})|\b(?i:she|he|they))\s+(?i:wants|needs|asked\s+for|expects|has\s+asked\s+for)\s+"
    r"(?:(?i:all)\s+)?(?i:the|our|his|her|their|my)\s+(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
    r"(?:(?i:earlier|sooner|later)(?:\s+(?i:now))?\s*,?\s+)?(?:(?i:by|before)\s+)?\x00(?P<d>\d+)\x00")  # ("by" the day's)
_DEADLINE_MOVED = re.compile(
    rf"(?P<who>{_NAME})\s+(?:(?i:has|have)\s+)?(?i:moved|pushed|extended|changed|shifted|brought\s+forward)\s+"
    r"(?i:the|our|my|their|its)\s+(?i:deadline|due\s+date)\s+(?:(?i:again|back|out)\s*)?"
    # ("to" may be the day's own words)
    r"(?:[,;:]\s*(?:(?i:it's|it\s+is)\s+)?(?:(?i:now)\s+)?|(?:(?i:to)\s+)?)\x00(?P<d>\d+)\x00")
# ... or a thing's deadline, whoever moved it: "the council extended the grant deadline to 13
# November" (a "said" fact; "the grant application deadline is 30 October" stayed current).
_NAMED_DEADLINE_MOVED = re.compile(
    r"(?i:moved|moving|pushed|pushing|extended|extending|changed|changing|shifted|brought\s+forward)\s+"
    r"(?i:the|our|my|their|its)\s+(?P<x>(?:[\w-]+\s+){1,3}?(?i:deadline|due\s+date|end\s+date))\s+"
    r"(?:(?i:again|back|out)\s+)?(?:(?i:to|until)\s+)?"
    rf"(?:(?i:{lx.WEEKDAY_ALT}),?\s+)?\x00(?P<d>\d+)\x00")


def _deadlines(v: _Values) -> None:
    """Whose deadline a day is: the first organisation or person the thing due names ("the
    Halden brand guidelines": Halden's), else the thing's own."""
    for m in _DUE_ON.finditer(v.text):
        names = [e for w in re.findall(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?", m.group("x"))
                 if (e := v.reg.get(w)) is not None and not e.speaker]  # (a client read as a town too)
        if names:
            v.add(names[0].name, "deadline", _value(m, v.sent), m.start(), end=m.end())
        elif (attr := _attribute(m.group("x"))) is not None:  # "The venue's final payment is now due
            due = attr if attr.endswith("date") else f"{attr} due date"  # May 15": the group's
            v.add(None, due, _value(m, v.sent), m.start(), end=m.end())
    for m in _WANTS_BY.finditer(v.text):
        named = m.group("who") if m.group("who") and m.group("who").lower() not in ("she", "he", "they") else None
        who = v.owner(named, m.start()) if named else v.named_first(m.start()) or v.recent
        if m.group("x").split()[0].lower() not in lx.STOPWORDS and who:
            said = _fill(v.text[m.start("who") if m.group("who") else m.start():m.end()], v.sent.rendered).strip()
            said = re.sub(r"^(?:(?i:she|he|they)|\S+(?:\s+(?-i:[A-Z])\S*)?)\s+(?=(?i:wants|needs|asked|expects|has))",
                          f"{who} ", said, count=1)  # (whom "she" is: "Fiona Gallagher wants ...")
            # (what a person wants, the accountant's receipts, is the group's thing; "Acme wants the invoice
            # by Friday" stays a fact of Acme's)
            asker = v.reg.get(who)  # (a person surely: a full name or a given one; "Acme" alone may be a firm)
            if asker is not None and asker.type == "person" and (
                    " " in asker.name or asker.name.lower() in lx.GIVEN_NAMES):
                v.add(None, f"{m.group('x').lower()} due date", _value(m, v.sent), m.start(), end=m.end(),
                      text=f"{said}.")
    for m in _DEADLINE_MOVED.finditer(v.text):
        v.add(v.owner(m.group("who"), m.start()), "deadline", _value(m, v.sent), m.start(), end=m.end())
    for m in _NAMED_DEADLINE_MOVED.finditer(v.text):
        if (attr := _attribute(m.group("x"))) is None:
            continue
        if attr.endswith(" end date"):  # ("pushing the broadband end date to Friday 30 October": the
            # broadband's, as "the broadband ends on Friday 23 October" said it)
            v.add(attr[:-len(" end date")], "end date", _value(m, v.sent), m.start(), end=m.end())
        else:  # (the thing's: short_names.py finds its timeline)
            v.add(None, attr, _value(m, v.sent), m.start(), end=m.end())


# A count said with "now" or "at" and no verb ("wishlists now 2,650", "wishlists at 3,480!!"), or
# said first ("19 bugs open now", "47 bugs logged so far": the bug count): each was a "said" fact,
# and the count of a month before stayed current.
_COUNT_NOW = re.compile(
    r"^(?:(?i:and|so|ok|okay|also|yay|woo+)[,!]?\s+)?(?:(?i:the|our|my)\s+)?"
    r"(?P<attr>(?i:[a-z])[a-z-]*(?:\s+[a-z][a-z-]*)?)\s+(?i:now|currently|at|now\s+at)\s+"
    r"(?P<num>\d[\d,]*(?:\.\d+)?k?)(?![\d,.:]\d|\s*(?i:am|pm|o'clock)\b)"
    r"(?=\s*(?:[.!?,]|$|\s+(?i:now|today|already)\b))")
# ... or as what something adds up to: "Adding Friday 20 November for St Mary's. That makes 6 shows".
_MAKES_COUNT = re.compile(r"(?:^|[,;:]\s+|\b(?:so|and)\s+)(?i:that|which|this|it)(?:'s|\s+)\s*(?i:makes?|brings\s+(?:us|it)\s+to)\s+"
                          r"(?:(?i:it|us)\s+)?(?:(?i:a\s+total\s+of)\s+)?(?P<num>\d{1,4})\s+(?P<noun>[a-z][a-z-]*s)\b")
_COUNT_FIRST = re.compile(
    # (first in a clause too: "first Wednesday rehearsal went well btw, 41 singers now")
    r"(?:^|[,;:]\s+)(?:(?i:and|so|ok|okay|also)[,!]?\s+)?(?P<num>\d[\d,]*)\s+(?P<noun>[a-z][a-z-]*s)(?:\s+"
    r"(?:(?i:signed\s+up|registered|enrolled|confirmed|booked\s+in)\s+)?"  # ("38 singers signed up so far")
    r"(?:(?i:open|left|remaining|outstanding|logged|now|so\s+far|to\s+go)\b|\x00\d+\x00(?=\s*(?:[,.!;]|$)))"
    # ... and how many are still to come: "31 participants, 9 to go", "35 participants!! 5 to go"
    r"|\s*[,!]+\s*\d[\d,]*\s+(?:(?i:more\s+)?(?i:to\s+go|left|remaining|to\s+recruit))\b)")
# ... or alone, a sentence of its own: "35 participants!!" (then "5 to go").
_COUNT_ALONE = re.compile(r"^(?P<num>\d[\d,]*)\s+(?P<noun>[a-z][a-z-]*s)\s*!+\s*$")
# ... or first with its price each, the way an order is told ("4 trailer loads, £60 each"; then
# "5 loads now": the load count), a word of its kind between ("trailer").
_COUNT_PRICED = re.compile(
    r"^(?:(?i:and|so|ok|okay|also|it's|its)[,!]?\s+)?(?P<num>\d[\d,]*)\s+(?:[a-z][a-z-]*\s+)?"
    r"(?P<noun>[a-z][a-z-]*s)\s*(?:,\s*|\s(?i:at)\s+)[£$€]\s?\d[\d,]*(?:\.\d+)?\s+"
    r"(?i:each|apiece|a\s+piece|per\s+[a-z]+|a\s+[a-z]+)\b")


# A verb's "s", no things counted (_counts: "basal stays at 16").
_STAYS = frozenset("stays remains sits goes comes looks seems is was hovers holds".split())
# A count a thing has: "bake stall has 3 volunteers so far", "Bake stall now has 5 volunteers", "bake stall
# is down to 4 volunteers" (each a "said" fact, all current).
_HAS_COUNT = re.compile(
    r"(?:^|[,;:]\s+|\b(?:so|and|but|now)\s+)(?:(?i:the|our)\s+)?(?P<thing>(?i:[a-z])[\w-]*(?:\s+[a-z][\w-]*)?)\s+"
    r"(?:(?i:now|already|only)\s+)?(?i:has|has\s+got|is\s+down\s+to|is\s+up\s+to|'s\s+down\s+to|'s\s+up\s+to)\s+"
    r"(?:(?i:only|just)\s+)?(?P<num>\d{1,4})\s+(?P<noun>[a-z]+s)\b")


def _counts(v: _Values) -> None:
    for m in _HAS_COUNT.finditer(v.text):
        thing, noun = m.group("thing").lower(), m.group("noun").lower()
        if thing.split()[0] in lx.STOPWORDS | lx.PRONOUNS or noun in lx.STOPWORDS or v.reg.get(m.group("thing")):
            continue  # ("she has 3 kids", "Tom has 2 dogs": someone's, not a thing's count)
        one = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]
        v.add(None, f"{thing} {one} count", m.group("num"), m.start(), end=m.end())
    if (m := _COUNT_NOW.match(v.text)) is not None:
        attr = _attribute(m.group("attr"))
        # (things counted, not a verb's "s": "basal stays at 16" is no count of "basal stays")
        if attr is not None and (attr.endswith("s") and attr.split()[-1] not in _STAYS
                                 or set(attr.split()) & _COUNTS):
            v.add(None, attr, m.group("num"), m.start(), end=m.end())
    elif ((m := _COUNT_FIRST.search(v.text)) or (m := _COUNT_PRICED.match(v.text))
          or (m := _MAKES_COUNT.search(v.text)) or (m := _COUNT_ALONE.match(v.text))) is not None \
            and m.group("noun").lower() not in lx.STOPWORDS \
            and not (_for_tonight(m.group(0), v.sent) and not _WHO_COUNT.search(m.group("noun").lower())):
        v.add(None, f"{m.group('noun').lower()[:-1]} count", m.group("num"), m.start(), end=m.end())


_TONIGHT = re.compile(r"(?:tonight|this\s+evening|today)$", re.I)
# ... but people counted tonight are the group's count as it grows ("45 singers tonight").
_WHO_COUNT = re.compile(r"(?:ers|ists|ants|ents|members|people|kids|children|players|guests|volunteers)$")


def _for_tonight(said: str, sent: _Sentence) -> bool:
    """Whether a count is said of the day's own event, by "tonight" after it ("Tom can you print the setlist? 22 songs
    tonight", the Red Lion's gig: it had ended the wedding's "26 songs")."""
    return any(int(d) < len(sent.dates) and _TONIGHT.search(sent.dates[int(d)].phrase.strip())
               for d in re.findall(r"\x00(\d+)\x00", said))


_READERS = (_said_is, _counts, _schools, _quotes, _body, _weighed, _pay, _charges, _first_day, _contacts, _grades,
            _mileage, _shifts, _account, _changed, _schedules, _slots, _tickets, _repairs, _steps, _asks, _addresses, _deadlines, *GROUP_READERS,
            *TENANCY_READERS, *INJURY_READERS)


def measures(sent: _Sentence, reg: _Registry, before: list[_Parse], org: str | None = None,
             recent: str | None = None, correctable: bool = True, firm: str | None = None) -> list[_Parse]:
    """The "<attribute> is" facts a sentence states, each told from its clause; `before`: those
    of the episode's sentences before it (a correction's value replaces one of theirs); `org`:
    the organisation the episode named last, whom "they" and "their" are when the sentence
    names none; `recent`: the person named last before it, whom "his" and "her" are;
    `firm`: the organisation (or a thing, then) the episode named last, whose post "the owner" is;
    `correctable`: whether a correction of a number may give a value of `before` anew (not when the
    sentence just before said the old number of something else)."""
    if sent.question:
        return []
    values = _Values(sent, reg, org, recent, before)
    values.firm = firm
    for read in _READERS:
        read(values)
    return values.told() or (_corrected(sent, before) if correctable else [])


def correction_of(sent: _Sentence) -> tuple[str, str] | None:
    """(old, new) of a number said instead of another ("It's 995 not 975", "sorry, not 6, he wants
    8 of them"); not of an offer made instead of a sum asked ("Sofia has offered £835 rather than
    £850": it had become Priya's rent, the £850 the writer found in the group)."""
    m = _CORRECTION.search(sent.s1)
    if m is None:
        m = _NOT_OLD_FIRST.match(sent.s1)
    if m is None or _OFFERED.search(sent.s1, 0, m.start()):
        return None
    return m.group("old"), m.group("new")


# A name said instead of another, in a sentence of its own: "sorry, Whitlock not Whitmore." after
# "our accountant is Graham Whitmore" (the value said before with that name, anew).
_RENAMED = re.compile(r"^(?:(?i:sorry|oops|correction|typo|my\s+bad|my\s+mistake|no)[\s,:;!.-]+)*(?i:it'?s\s+)?"
                      r"(?P<new>[A-Z][\w'-]+)\s*,?\s+(?i:not)\s+(?P<old>[A-Z][\w'-]+)[\s.!]*$")


def renamed_value(sent: _Sentence, held: list[_Parse]) -> _Parse | None:
    """The single value said last (`held`, in order) holding the name corrected, with the new name."""
    m = _RENAMED.match(sent.raw.strip())
    if m is None or m.group("new").lower() == m.group("old").lower():
        return None
    old = re.compile(rf"\b{re.escape(m.group('old'))}\b")
    for p in reversed(held[-6:]):
        if old.search(p.obj):
            value = old.sub(m.group("new"), p.obj, count=1)
            said = f"{p.subject}'s {p.predicate[:-3]}" if p.predicate != "is" else p.subject
            if said[:1].islower():  # the household's role: "Zoe's accountant is Graham Whitlock"
                said = f"{sent.t.speaker}'s {said}"
            return _Parse(p.subject, p.kind, p.predicate, value, True, p.first_person,
                          text=f"{said[:1].upper()}{said[1:]} is {value}", said_now=True)
    return None


_OFFERED = re.compile(r"\b(?:offer|offers|offered|offering|proposed|proposes|bid|bids|counter-?offered)\b[^.;!?]*$",
                      re.I)


def _corrected(sent: _Sentence, before: list[_Parse]) -> list[_Parse]:
    """"sorry, 85 not 87": the value said before in the episode with the old number, anew; "make
    that 75": the value said last; "Sorry, I mean 28 January": the day said last."""
    if (slot := _corrected_slot(sent, before)) is not None:
        return [slot]
    if (day := corrected_day(sent, before)) is not None:
        return [day[0]]
    if (again := _EMAIL_AGAIN.match(sent.raw.strip())) and (
            last := next((p for p in reversed(before) if p.predicate == "email is"), None)) is not None:
        addr = again.group("addr")
        return [] if addr == last.obj else [_Parse(last.subject, last.kind, last.predicate, addr, True, last.first_person,
                                                   text=f"{last.subject}'s email is {addr}", said_now=True)]
    fix = correction_of(sent)  # (none of an offer: "Sofia has offered £835 rather than £850")
    if fix is not None:
        old, new = fix
    else:
        said = _MAKE_THAT.search(sent.s1) or _SAID_AGAIN.match(sent.raw.strip())
        # (a sum said again is a sum's: "sorry, £14,200" had made a warfarin dose of 14,200 mg)
        money = re.search(r"[$£€]", said.group(0)) if said is not None else None
        number = rf"{re.escape(money.group())}\s?\d" if money else r"\d"
        last = next((p for p in reversed(before) if re.search(number, p.obj)), None)
        if said is None or last is None:
            return []
        old, new = re.search(r"\d[\d,]*(?:\.\d+)?", last.obj).group(), said.group("new")
    number = held_number(old)  # ("now 42 guests instead of 30" had made a last day "2026-11-42")
    out: list[_Parse] = []
    for p in reversed(before):
        if not number.search(p.obj) or out and (p.subject != out[0].subject or p.obj != before[-1 - len(out)].obj):
            if out:
                break
            continue
        # (and the value read beside it of the same words: "raising my day rate to £340" is a day rate and a price,
        # "sorry, £350" both anew; the price alone had been)
        value = put_instead(p.obj, old, new)
        said = f"{p.subject}'s {p.predicate[:-3]}" if p.predicate != "is" else p.subject
        said = f"{said[:1].upper()}{said[1:]} is {value}"
        out.append(_Parse(p.subject, p.kind, p.predicate, value, True, p.first_person, text=said, said_now=True))
        if len(out) == 2:
            break
    return out[::-1]


_SLOT_DAYS = re.compile(rf"\b(?i:{_DAY})\b")
_BARE_WEEKDAY = re.compile(r"^(?:on\s+)?(?P<wd>(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?$", re.I)


def _is_slot(p: _Parse) -> bool:
    """A weekly slot's value: someone's ("Sam | training schedule is") or a group's ("training schedule | is")."""
    return p.predicate.endswith("schedule is") or (p.predicate == "is" and p.subject.endswith(" schedule"))


def _corrected_slot(sent: _Sentence, before: list[_Parse]) -> _Parse | None:
    """A weekly slot said last in the episode, on the weekday said instead ("We're moving to
    Tuesdays", then "sorry I meant Thursday": Thursdays; it had stayed Tuesdays)."""
    meant = _meant_day(sent.raw.strip())
    said = _BARE_WEEKDAY.match(meant.strip(" ,")) if meant is not None else None
    last = next((p for p in reversed(before) if _is_slot(p) or ISO_DAY.fullmatch(p.obj)), None)
    if said is None or last is None or not _is_slot(last):
        return None
    days = _SLOT_DAYS.findall(last.obj)
    if len(days) != 1:
        return None  # ("Mon/Wed/Fri": which one it corrects, it does not say)
    value = _SLOT_DAYS.sub(said.group("wd").capitalize() + "s", last.obj, count=1)
    if value == last.obj:
        return None
    whose = f"{last.subject}'s {last.predicate[:-3]}" if last.predicate != "is" else last.subject
    return _Parse(last.subject, last.kind, last.predicate, value, True, last.first_person,
                  text=f"{whose[:1].upper()}{whose[1:]} is {value}", said_now=True)


def day_said_alone(sent: _Sentence) -> DateMention | None:
    """The one day a sentence says after "sorry", "I meant" or "make that", and nothing else but why
    ("no wait, wednesday 9th"); None for more than a day ("Sorry, I'm late today")."""
    meant = _meant_day(sent.raw.strip())
    # (only the days said in its words: "oct 5 then, monday" says one day)
    days = [d for d in sent.dates if d.granularity == "day" and (
        meant is None or d.phrase.strip().lower() in meant.lower())]
    if len(days) > 1:  # (its weekday said with it: "no, it's the 19th, Saturday")
        days = [d for d in days if d.phrase.strip().lower() not in lx.WEEKDAYS] or days
    if meant is None or len(days) != 1 or _WEEKDAY_THE.sub(
            "", meant.lower().replace(days[0].phrase.strip().lower(), "", 1)).strip(" ,"):
        return None
    return days[0]


def corrected_day(sent: _Sentence, before: list[_Parse]) -> tuple[_Parse, str] | None:
    """The day said last in the episode, anew, and the day it replaces, for a sentence that says
    only a day after "sorry", "I meant" or "make that"."""
    day = day_said_alone(sent)
    last = next((p for p in reversed(before) if ISO_DAY.fullmatch(p.obj)), None) if day is not None else None
    if last is None:
        return None
    phrase, said = day.phrase.strip(), day.start
    if not re.search(r"\b\d{4}\b", phrase):  # the year of the day it corrects ("Sorry, I mean 28 January")
        was = date.fromisoformat(last.obj)
        try:
            said = min((said.replace(year=y) for y in (was.year - 1, was.year, was.year + 1)),
                       key=lambda d: abs((d - was).days))
        except ValueError:  # (29 February)
            return None
    new = said.isoformat()
    if last.obj == new:
        return None
    if last.predicate in ("date is", "is"):  # an event's ("The mortgage meeting is on 2027-01-28 (28 January)")
        head = last.subject if "'" in last.subject or last.subject[:1].isupper() else f"the {last.subject}"
        due = head.endswith(" due date")  # ("the capsule art is due on ...")
        said = f"{head[:-9] if due else head} is {'due ' if due else ''}on {new} ({phrase})"
    else:
        said = f"{last.subject}'s {last.predicate[:-3]} is {new} ({phrase})"
    return _Parse(last.subject, last.kind, last.predicate, new, True, last.first_person,
                  text=f"{said[:1].upper()}{said[1:]}", said_now=True), last.obj
