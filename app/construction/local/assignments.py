"""Who owns a piece of work, and what a thing is built on: what a team is asked about as it is
now. "Ben owns the billing migration", "Dev is taking over billing from Ben", "I'm handing the
mobile app over to Chloe", "Search indexing is Ben's now": the thing's owner ("owner is", one at
a time: the new owner ends the old, supersession.py). "We're going with Postgres for billing",
"we switched to DynamoDB for billing": what the thing uses ("uses", one at a time). The fact is
the thing's (its subject), so a handover said by anyone ends the owner said by anyone before.
Several in one sentence ("Ben owns the billing migration, Chloe owns checkout") are facts of
their own, each told from its clause."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.entity_resolution import normalize_key
from app.construction.local.entities import _Registry
from app.construction.local.inline_dates import ISO_DAY, _fill
from app.construction.local.sentence import _Parse, _Sentence
from app.construction.local.sequels import HANDOVERS, ORDERED, ordered_thing

_WHO = r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
# The thing: a few words, without its article or "new" ("the new checkout design").
_THING = r"(?:(?:the|our|my|this)\s+)?(?:new\s+)?(?P<x>[\w-]+(?:\s+[\w-]+){0,3}?)"
# Where the thing's words stop: a clause's end, or what is said of the handover.
_END = (r"(?=\s*[,;.!?:\x00]|\s+(?:and|but|so|from|now|then|too|myself|ourselves|"
        r"going\s+forward|for\s+now|this\s+(?:sprint|week|"
        r"quarter)|starting|until|while|since|because)\b|\s*$)")  # (\x00: a date's place, local/inline_dates.py)
_OWNS = re.compile(
    # ("Rebecca Stone at Carter Lowe is taking over our file": Rebecca's, not her firm's)
    rf"(?<![\w']){_WHO}(?:\s+(?i:at|from)\s+(?P<at>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*){{0,3}}))?\s+(?:owns|own(?<=\bI\sown)|own(?<=\bI'll\sown)|"
    rf"(?:will|'ll|is\s+going\s+to)\s+own|(?:is|'s)\s+(?:now\s+)?(?:in\s+charge\s+of|"
    rf"leading|running|on)|(?:is|'s|will\s+be)\s+taking\s+over|took\s+over|has\s+taken\s+over|takes\s+over)"
    rf"\s+{_THING}{_END}")
_HANDED = re.compile(
    rf"\b(?i:handing|handed|hand|passing|passed|reassigning|reassigned)\s+{_THING}\s+(?i:over\s+)?"
    rf"to\s+{_WHO}(?![\w'-])")
# "Search indexing is Ben's now", "billing is mine now", "onboarding moves to Priya".
_IS_NOW = re.compile(rf"(?:^|[,;]\s+|\band\s+)(?:(?i:so|ok|okay|right|alright)[,]?\s+)*(?:(?i:the|our)\s+)?"
                     rf"(?P<x>[\w-]+(?:\s+[\w-]+){{0,3}}?)\s+"
                     rf"(?:(?i:is)\s+(?:{_WHO}['’]s|(?P<mine>mine))\s+(?i:now)\b|"
                     rf"(?i:moves|moved|goes|went|passes|passed|is\s+moving|is\s+going)\s+(?i:over\s+)?(?i:to)\s+"
                     rf"{_WHO.replace('who', 'to')}(?![\w'-]))")
_PRODUCT = r"(?P<v>[A-Z][\w.+#-]*(?:\s+(?:&\s+)?[A-Z][\w.+#-]*)?)"  # ("Moss & Grain": it was "Moss")
_USES = re.compile(
    rf"\b(?:going|gonna\s+go|sticking|staying|went|go|chose|picked|settled\s+on|decided\s+on|switched|"
    rf"switching|moved|moving|migrated|migrating|changed|changing)\s+(?:over\s+)?(?:with|to|on)?\s*(?:from\s+"
    rf"[A-Z][\w.+#-]*\s+to\s+)?{_PRODUCT}\s+for\s+{_THING}{_END}")
# ... said with the thing first ("For Brightwave we're switching from Figma to Penpot", "For
# Fernweh I'll use Figma too") or used now ("We use Figma for Brightwave"): the thing's, one at a
# time (they were "said" facts, and "Lena uses Figma for Brightwave" stayed current after it).
_FOR_USES = re.compile(
    rf"^(?i:for)\s+{_THING}\s*,?\s+(?i:we|I)(?:'re|'m|'ll|\s+are|\s+am|\s+will|\s+have|'ve)?\s+"
    r"(?:(?i:now|also|just)\s+)?"
    rf"(?i:switching|switched|moving|moved|going|changing|changed|migrating|migrated|use|using|stick|sticking)\s+"
    rf"(?:(?i:over)\s+)?(?:(?i:with|to|on)\s+)?(?:(?i:from)\s+[A-Z][\w.+#-]*\s+(?i:to)\s+)?{_PRODUCT}(?![\w'-])")
# Where things are kept: "I keep all my client files in Dropbox" (moved later: "I moved all my
# client files from Dropbox to Nextcloud", _MOVED_ONTO), the things' one place at a time.
_KEPT_IN = re.compile(
    rf"(?<![\w'])(?i:I|we)\s+(?:(?i:now|still|always)\s+)?(?i:keep|store|save|back\s+up)\s+(?:(?i:all)\s+)?"
    rf"(?:(?i:my|our)\s+)(?P<x>[\w-]+(?:\s+[\w-]+){{0,2}}?)\s+(?i:in|on)\s+{_PRODUCT}(?![\w'-])")
_USE_FOR = re.compile(
    rf"(?<![\w'])(?i:we|I)(?:'re|'m|\s+are|\s+am)?\s+(?:(?i:now|still|always|mostly)\s+)?(?i:use|using|work\s+in|"
    rf"design\s+in|build\s+with)\s+{_PRODUCT}\s+for\s+{_THING}{_END}")
_MOVED_ONTO = re.compile(
    rf"\b(?:moved|moving|migrated|migrating|switched|switching|ported|porting)\s+(?:(?i:all)\s+)?{_THING}\s+"
    r"(?:(?:off|away\s+from|from)\s+"
    rf"(?:of\s+)?[A-Z][\w.+#-]*\s+)?(?:on)?to\s+{_PRODUCT}(?![\w'-])")
# Where a group's work runs or is kept, one place at a time: "All our experiments run on AWS at the
# moment", then "all our experiments now run on Hydra", "We moved our experiments from AWS to the
# university cluster" (both stayed "said" facts).
_SITE = (r"(?P<v>[A-Z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*)?|(?:(?i:the|our)\s+)?(?i:university|uni|department|lab|group|"
         r"in-house|local|own)\s+(?i:cluster|server|servers|machines|hpc|gpus))")
_WORKLOADS = (r"(?P<x>(?i:experiments|jobs|workloads|builds|training\s+runs|models|servers|backups|website|site|"
              r"app|files|data|code|pipelines?|simulations|everything|production))")
# ... one key for where everything runs and where it is deployed
_HOSTING = frozenset({"everything", "production", "deploy", "deploys", "deploying", "host", "hosting"})
_RUNS_ON = re.compile(
    r"(?:^|[,:;]\s+|\b(?:and|so)\s+)(?:(?i:all)\s+)?(?:(?i:our|my|the)\s+)?" + _WORKLOADS
    + r"\s+(?:(?i:now|all|currently|still)\s+)?(?i:run|runs|are\s+running|is\s+running|live|lives|are\s+hosted|"
    r"is\s+hosted|are\s+stored|is\s+stored|are\s+kept|is\s+kept)\s+(?:(?i:now|all)\s+)?(?i:on|in|at)\s+"
    + _SITE + r"(?![\w'-])")
# Where a team deploys: "we deploy to Fly.io" (after "Everything runs on Heroku": both "hosting").
_DEPLOYS_TO = re.compile(
    r"(?<![\w'])(?i:we|I)(?:'re|'ll|\s+are|\s+will|\s+now)?\s+(?:(?i:now|all|currently)\s+)?"
    r"(?P<x>(?i:deploy|deploys|deploying|host|hosting))\s+(?:(?i:everything|it|the\s+app|our\s+app)\s+)?"
    r"(?:(?i:now)\s+)?(?i:to|on)\s+" + _SITE + r"(?![\w'-])")
_MOVED_SITE = re.compile(
    r"\b(?i:moved|moving|migrated|migrating|switched|switching)\s+(?:(?i:all)\s+)?(?:(?i:our|my|the)\s+)?"
    + _WORKLOADS + r"\s+(?:(?i:off|away\s+from|from)\s+[A-Z][\w.+#-]*\s+)?(?i:on)?(?i:to)\s+" + _SITE
    + r"(?![\w'-])")
# The day of something scheduled ("Launch is October 15th", "launch slipped to November 2nd",
# "the offsite got pushed to March 3rd"): one day at a time, the new one ends the old. A date's
# place in s1 is \x00i\x00 (local/inline_dates.py).
# A weekday before a date, in full or cut short ("on Sat 12 Dec").
_WEEKDAY = rf"(?:{lx.WEEKDAY_ALT})\.?"
_WITH_WHOM = lx.EVENT_PARTY  # "the review with Northpeak", "the inspection at 22 Oak Street"
_EVENT_DAY = re.compile(
    r"(?:^|[,;:]\s+|\s[-–—]\s+|\band\s+|\bso\s+)(?:(?i:the|our|this|next)\s+)?"
    # ("Great first rehearsal tonight!": how it went, no day of a "great first rehearsal")
    r"(?!(?i:great|good|lovely|amazing|brilliant|fantastic|awesome|fun|nice|wonderful|terrible|awful|productive|"
    r"excellent|busy|long|tough|hard|best|worst)\b)"
    r"(?P<x>(?:(?!(?i:for|to|with|of|about|at|in|on|so|is|was|are|have|has|had|a|an|got|rescheduling|booking|"
    rf"cancell?ing|moving|confirming|arranging|postponing|they|we|i|he|she|you|{lx.MOVED_VERBS}|"
    # (nor a verb's plain form: "Move the tech rehearsal to Saturday the 5th please" moves the tech rehearsal)
    r"move|push|postpone|reschedule|shift|delay|bump|book|confirm|arrange|cancel)\b)"
    r"[\w'-]+\s+){0,3}?"
    # ("New completion date is 29 January", "release target is March 12 2027")
    rf"(?i:{lx.SCHEDULED_ALT}))(?:\s+(?i:date|day|target(?:\s+date)?))?{_WITH_WHOM}"
    # ("first check-up with her is on 3 November at 9:15": with whom said before)
    r"(?:\s+(?i:with)\s+(?i:her|him|them|me|us|you))?"
    # the day it had, before a move ("my appointment on 24 September got moved to 29 September")
    rf"(?:\s*\x00\d+\x00(?=\s+(?i:(?:got|was|has\s+been|is|had\s+been)\s+)?(?:{lx.MOVED_VERBS})\b))?"
    # ("The party's moved to the 19th": "'s" right after the name)
    r"(?:\s+(?i:(?:is|'s|was|will\s+be|got|has\s+been|has|have|are|'re|were|have\s+been)\s+)?|(?i:['’]s|['’]re)\s+)"
    rf"(?i:(?:now|provisionally|tentatively|officially|finally)\s+)?"  # ("the viva is provisionally set for ...")
    rf"(?i:(?:{lx.MOVED_VERBS}|moving|set|scheduled|planned|booked(?:\s+in)?|pencill?ed\s+in|arranged|confirmed|"
    r"closes|opens|ends|starts|begins)"
    # ("moved one more time, to Saturday 31 October"; "booked at VFS Global in Manchester for Thursday ...")
    r"(?:\s+(?i:again|one\s+more\s+time|once\s+more)\s*,?)?"
    r"(?:\s+(?i:at|with|in)\s+(?-i:[A-Z])[^,.;!?\x00]{0,40}?(?=\s+(?i:for|on)\s))?"
    r"\s+(?:back\s+|out\s+|forward\s+)?"
    # ("launch slipped a week, now 10 November", "pushed back by two weeks to ...")
    r"(?:(?i:by\s+)?(?i:a|an|one|two|three|four|a\s+couple\s+of|\d+)\s+(?i:days?|weeks?|months?)\s*,?\s*"
    r"(?:(?i:so\s+)?(?i:it'?s\s+)?(?i:now)\s+)?)?"
    r"(?:\x00\d+\x00\s+)?(?:to|for|until|on)?\s*)?"
    rf"(?:(?i:on\s+)?(?i:{_WEEKDAY}),?\s+)?"  # ("is on Thursday, November 26")
    r"\x00(?P<d>\d+)\x00"
    # ("the social on the 18th would then be the night before the concert": a day supposed, not said)
    r"(?!\s+(?i:would|could|might)\b)"
    # ("Physio with Tom yesterday went really well": how one went, no day of the next)
    r"(?!\s+(?i:went|was|were|felt)\s+(?:(?i:really|so|very|pretty|quite|super|absolutely)\s+)?"
    r"(?i:well|great|fine|ok|okay|badly|brilliant|amazing|good|awful|terrible|lovely|fab|fantastic|rough|hard)\b)"
    # ("The Eastfield cup match on Saturday is cancelled": no day of it said again)
    r"(?!\s*,?\s*(?i:is|was|has\s+been|got|are|were)\s+(?:(?i:now|been)\s+)?"
    r"(?i:cancell?ed|called\s+off|off|scrapped|postponed|abandoned)\b)")
# ... or called off: "The Eastfield cup match on Saturday is cancelled" (its day "cancelled", which a
# day said later replaces: "The Eastfield cup match has been rescheduled to Saturday 14 November").
_CANCELLED_EVENT = re.compile(
    r"(?:^|[,;:]\s+|\band\s+)(?:(?i:the|our|this|next)\s+)?(?P<x>(?:[\w'-]+\s+){0,3}?"
    rf"(?i:{lx.SCHEDULED_ALT})(?:\s+(?i:day|night|weekend|evening))?){_WITH_WHOM}(?:\s*\x00\d+\x00)?\s*,?\s*"
    r"(?i:is|was|has\s+been|got|'s)\s+"  # ("demo day is cancelled :(")
    # ("the party's off, sorry")
    r"(?:(?i:now|been)\s+)?(?i:cancell?ed|called\s+off|scrapped|abandoned|off(?![\w-]|\s+(?i:to|for|on|at|the|by)\b))\b")
# A release's day, by its name: "Glasshouse comes out on 14 November", then "Glasshouse is pushed back
# to 15 January 2027" (both were "said" facts, 14 November first for "When is the single out?").
_RELEASE = (r"(?P<x>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,2}(?:\s+[vV]?\d+(?:\.\d+)*)?"
            r"|(?i:version|v)\s?\d+(?:\.\d+)+|(?i:the|our|my)\s+"  # ("Version 3.2", "v3.2")
            r"(?:(?i:new)\s+)?(?i:single|album|ep|record|book|app|release|update|version))")
_RELEASED = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so)\s+)" + _RELEASE + r"\s+(?:(?i:now)\s+)?"
    r"(?i:comes\s+out|is\s+out|is\s+released|will\s+be\s+released|will\s+be\s+out|drops|launches|goes\s+live|"
    r"slips|slipped|(?:is|'s)\s+slipping|"
    r"(?:is|has\s+been|was|got)\s+(?:pushed\s+back|pushed|delayed|moved|postponed|put\s+back|slipped))\s+"
    r"(?:(?i:to|until|till)\s+)?\x00(?P<d>\d+)\x00")
# ... or said of what we do on its day: "We're shipping version 3.2 on 2 November" (a plan whose
# day no "date is" held, so that "Version 3.2 is slipping to 16 November" ended nothing).
_WE_RELEASE = re.compile(
    r"(?<![\w'])(?i:we|I)(?:'re|'ll|\s+are|\s+will|\s+(?:plan|aim|hope)\s+to)?\s+"
    r"(?i:ship|shipping|release|releasing|launch|launching|publish|publishing)\s+" + _RELEASE
    + r"\s+(?i:on\s+)?" + rf"(?:(?i:{_WEEKDAY}),?\s+)?" + r"\x00(?P<d>\d+)\x00")
# The tool someone does all their work in, one at a time: "For software I do everything in Photoshop",
# then "Doing everything in Clip Studio Paint now" (each was a "said" fact, Photoshop current).
_TOOL = r"(?P<v>[A-Z][\w.+#-]*(?:\s+(?:&\s+)?[A-Z][\w.+#-]*){0,2})"
_DO_ALL_IN = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so|but)\s+)(?:(?i:for)\s+[a-z]+(?:\s+[a-z]+)?\s*,?\s+)?"
    r"(?:(?i:I|we)\s+(?:(?i:now|still|mostly|just)\s+)?)?"
    r"(?i:do|doing|draw|drawing|design|designing|edit|editing)\s+"
    r"(?i:everything|all\s+(?:of\s+)?(?:it|my\s+[a-z]+))\s+(?i:in|on|with)\s+" + _TOOL + r"(?![\w'-])")
# ... or switched from one to another: "I've switched from Photoshop to Procreate on the iPad" (the
# writer gives the value that held the old one the new one: construction/replacements.py).
_SWITCHED_FROM = re.compile(
    r"(?<![\w'])(?i:I|we)(?:'ve|\s+have)?\s+(?:(?i:just|finally|now|also)\s+)?"
    r"(?i:switched|moved|changed|gone\s+over)\s+from\s+" + _TOOL.replace("P<v>", "P<old>")
    + r"\s+(?i:to)\s+" + _TOOL + r"(?![\w'-])")
# When an agreement runs out, one day at a time: "lease runs until 31 December", then "Lease now ends
# 28 February 2027"; "the retainer ends on 31 October" (each was a "said" fact, the first current).
_TERM = (r"lease|tenancy|contract|retainer|subscription|membership|warranty|insurance|visa|licen[cs]e|policy|"
         r"trial|notice\s+period|rental|loan|residency|secondment|placement|internship|"
         r"broadband|internet|wifi|phone\s+line|landline|utilities|storage|hire")  # ("the broadband ends on ...")
_ENDS_ON = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so|but)\s+)(?:(?i:the|our|my|his|her|their)\s+)?"
    rf"(?P<x>(?:(?-i:[A-Z])[\w'-]*\s+)?(?i:{_TERM}))\s+(?:(?i:now|still|officially)\s+)?"
    r"(?i:ends|expires|finishes|runs(?:\s+out)?|will\s+end|will\s+expire|is\s+up|ends\s+on)\s+"
    r"(?:(?i:until|till|to|on)\s*)?" + rf"(?:(?i:{_WEEKDAY}),?\s+)?" + r"\x00(?P<d>\d+)\x00")
# ... or moved by whoever speaks ("We moved the Globex demo to October 21st").
_MOVED_EVENT = re.compile(
    # ("let's move the social to Sunday 20 December then")
    rf"\b(?i:{lx.MOVED_VERBS}|move|moving|push|pushing|postpone|postponing|reschedule|rescheduling|"
    r"lock(?:ed)?\s+in|pencil(?:led)?\s+in|book(?:ed)?|set\s+up|confirm(?:ed)?|"
    r"schedul(?:e|ed)|arrang(?:e|ed)|approved)\s+"  # ("Moss & Grain confirmed the kitchen fitting for Monday 7 December")
    r"(?:(?i:the|our|my|his|her|their)|(?P<pos>[A-Z][\w-]*)['’]s)\s+"
    r"(?P<x>(?:[\w'-]+\s+){0,3}?"
    rf"(?i:{lx.SCHEDULED_ALT}))"
    # ("booked the physio with Grace for Tuesday 6 October")
    r"(?:\s+(?i:with|at)\s+(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)?"
    r"(?:\s+(?i:again|one\s+more\s+time|once\s+more),?)?"  # ("we're moving the AGM again, to Saturday 9 January")
    r"\s+(?i:back\s+|out\s+|forward\s+)?(?:\x00\d+\x00\s+)?(?i:(?:to|until|till|for)\s*)?"
    rf"(?:(?i:{_WEEKDAY}),?\s+)?"  # ("to Wednesday 9 December")
    r"\x00(?P<d>\d+)\x00")  # ("to" goes into the date's place with it; "from" the day before it, skipped)
# ... or any thing of ours moved to a day, by a verb that moves only days ("and move the skip to monday
# 12th too", "the pour moved to Monday 19 October", "the skip is now Wednesday 14 October": each a
# "said" fact, the first day current beside it). With "the", "our" or "my" before it, or said first.
_THING_MOVED = re.compile(
    r"(?:\b(?i:move|moving|moved|push|pushing|pushed|postpone|postponing|postponed|reschedule|rescheduling|"
    r"rescheduled|extend|extending)\s+(?i:the|our|my)\s+"
    r"(?P<x>(?:(?i:[a-z])[\w'-]*\s+){0,2}?(?i:[a-z])[\w'-]*)|"
    r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:(?i:the|our|my)\s+)?(?P<y>(?:(?i:[a-z])[\w'-]*\s+){0,2}?(?i:[a-z])[\w'-]*)\s+"
    r"(?:(?i:has\s+been|have\s+been|was|got|is)\s+)?(?i:moves|moved|pushed|postponed|rescheduled|put\s+back|"
    r"brought\s+forward))"
    # ("to" goes into the day's place with it; not "to push the biz forward on 9 July")
    r"\s+(?:(?i:back|forward)\s+(?i:to|until|till)\s*|(?i:(?:to|until|till)\s*)?)" + rf"(?:(?i:{_WEEKDAY}),?\s+)?"
    + r"\x00(?P<d>\d+)\x00"
    # ("the skip is now Wednesday 14 October": a thing's day anew)
    # ("the Frostbite 50 is now Sunday 31 January": a name with its number)
    # ("The maths Paper 1 is now on Wednesday 13th": whose, then the name with its number)
    r"|(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:(?i:the|our|my)\s+)?(?P<z>(?i:[a-z])[\w'-]*(?:\s+(?:(?i:[a-z])[\w'-]*|\d{1,4})){0,2}?)"
    r"\s+(?i:is|'s)\s+(?i:now)\s+(?i:on\s+)?" + rf"(?:(?i:{_WEEKDAY}),?\s+)?" + r"\x00(?P<e>\d+)\x00")
# An event named, then its day: "It's called the Frostbite 50, it's on Sunday 24 January".
_CALLED_ON = re.compile(r"\b(?i:it'?s|it\s+is|we'?re|we\s+are)\s+(?i:called|calling\s+it|naming\s+it)\s+(?:(?i:the)\s+)?"
                        r"(?P<x>[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|\d{1,4}))?)\s*[,;-]\s*(?:(?i:and)\s+)?"
                        r"(?i:it'?s|it\s+is|it\s+will\s+be)\s+(?i:on\s+)?" + rf"(?:(?i:{_WEEKDAY}),?\s+)?" + r"\x00(?P<d>\d+)\x00")
_NOT_MOVED = frozenset("""it this that they we he she i you everything everyone something nothing which what who
one date day time meeting""".split())
_NOT_MOVED_LAST = frozenset("forward back out up on off".split())
# ... or named, then its day after a comma: "New booking came in. Sophie Lin's 40th birthday party, two weeks today at The
# Granary, £500" (a "said" fact: the party's move to the 19th had no day to end).
_EVENT_COMMA_DAY = re.compile(
    r"^(?:(?:new\s+booking|booking|gig|next\s+up|also)\s*[:,-]\s*)?(?:(?i:the|our|a|an)\s+|(?P<pos>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)['’]s\s+)?"
    rf"(?P<x>(?:[\w'-]+\s+){{0,3}}?(?i:{lx.SCHEDULED_ALT})),\s+(?:(?i:on)\s+)?(?:(?i:{_WEEKDAY}),?\s+)?\x00(?P<d>\d+)\x00")
# ... or settled on: "Let's say Friday 18 December for the social", "ok, Sunday 20 December for the social then"
_DAY_FOR_EVENT = re.compile(
    r"(?:^|[,;:]\s+)(?:(?i:ok|okay|so|right|fine)[,!]?\s+)?(?:(?i:let's\s+(?:say|do|make\s+it|go\s+with|pencil\s+in)|"
    r"we(?:'ll|\s+will)\s+(?:say|do|go\s+with))\s+)?(?:(?i:on\s+))?"
    rf"(?:(?i:{_WEEKDAY}),?\s+)?\x00(?P<d>\d+)\x00\s+(?i:for)\s+(?i:the|our)\s+"
    rf"(?P<x>(?:[\w'-]+\s+){{0,2}}?(?i:{lx.SCHEDULED_ALT})s?)\b")
# ... or someone booked for it on a day: "Nadia's booked for the annual boiler service at Flat 1 and
# Flat 2 on Monday 23 November" (a "said" fact: "make that Tuesday 24th" had no day to correct).
_BOOKED_FOR_EVENT = re.compile(
    r"(?:^|[,;:]\s+)(?:(?-i:[A-Z])[\w'-]*(?:['’]s|\s+is|\s+has\s+been|\s+got)\s+)?(?i:booked|scheduled|pencill?ed\s+in)\s+"
    rf"(?i:for)\s+(?i:the|our|my)\s+(?P<x>(?:[\w'-]+\s+){{0,2}}?(?i:{lx.SCHEDULED_ALT})s?)\b"
    r"[^.;!?\x00]{0,40}?\s(?i:on|for)\s+"
    rf"(?:(?i:{_WEEKDAY}),?\s+)?\x00(?P<d>\d+)\x00")
# ... or moved, then its day said of "it" ("QBR moved again, it's now December 3").
# ("Mr Holroyd is off sick so the inspection has moved AGAIN")
_EVENT_MOVED = (r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:(?i:the|our|this|next)\s+)?(?P<x>(?:[\w'-]+\s+){0,3}?"
                rf"(?i:{lx.SCHEDULED_ALT})){_WITH_WHOM}\s+(?i:(?:was|has\s+been|has|have|got)\s+)?"
                rf"(?i:{lx.MOVED_VERBS})"
                r"(?:\s+(?i:again|once\s+more))?")
_MOVED_IT = re.compile(_EVENT_MOVED + r"\s*[,;]\s+(?i:it's|it\s+is|it's\s+been\s+moved\s+to)\s+(?i:now\s+)?"
                       r"\x00(?P<d>\d+)\x00")
# ... said in two sentences: "Review with Northpeak moved again. It's now December 16 at 2pm."; "the
# council moved our health inspection. It's no longer 20 October, it's now Tuesday 3 November."
_MOVED_ALONE = re.compile(
    r"(?:" + _EVENT_MOVED + r"|\b(?i:" + lx.MOVED_VERBS + r"|move|reschedule|postpone|push)\s+(?i:the|our|my)\s+"
    rf"(?P<y>(?:[\w'-]+\s+){{0,3}}?(?i:{lx.SCHEDULED_ALT})s?)(?:\s+(?i:again|back))?)"
    r"(?:\s*,\s+[^.!?]*)?\s*[.!]*$")  # (and why: "Nadia needs to move the gas safety checks, she's on a course")
# (after a clause of why: "Dale's van broke down, it's now Friday 11 December"; "Dan now says Friday
# 26 February, not 29 January")
_IT_NOW = re.compile(r"(?:^|[,;]\s+|\s(?=(?i:so|now)\s))(?:(?i:(?:so\s+now|now|so)\s*,?\s+)?(?i:it's|it\s+is|it's\s+been\s+moved\s+to|(?:the\s+)?new\s+date(?:\s+is)?:?)|"
                     r"(?-i:[A-Z])[\w'-]*\s+"
                     r"(?:(?i:now)\s+)?(?i:says|said))\s+(?i:now\s+)?(?i:on\s+)?"
                     r"(?:(?i:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?\x00(?P<d>\d+)\x00")

# A day said of "it" alone, in a sentence of its own, after a sentence naming an event.
_IT_ON = re.compile(r"^(?i:it's|it\s+is|it'll\s+be|it\s+will\s+be)\s+(?i:on\s+)?"
                    r"(?:(?i:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?\x00(?P<d>\d+)\x00[\s.!]*$")
_EVENT_NAMED = re.compile(rf"\b(?i:the|our)\s+(?P<y>(?:[\w'-]+\s+){{0,3}}?(?i:{lx.SCHEDULED_ALT})"
                          r"(?:\s+(?i:day|night|weekend|evening))?)\b")

# ... or moved said of "it" alone, an event said before this episode: "The inspector was ill, and
# it's been moved again, now to Tuesday 1 December at 10:00" (the writer finds which: moved_events.py).
_IT_MOVED = re.compile(rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+)(?:(?i:it's|it\s+has|it\s+was|it\s+got|it)\s+"
                       rf"(?:(?i:been|now|just)\s+)*(?i:{lx.MOVED_VERBS}|rescheduled|changed)\s+"
                       r"(?:(?i:again|once\s+more)\s*,?\s+)?(?:(?i:now)\s+)?(?:(?i:to|until|till)\s+)?|"
                       # ... or a thing named by one word, moved by the one asking ("ok move tech to Saturday the 5th
                       # then", of the tech rehearsal): which thing, the writer finds by the word (moved_events.py)
                       r"^(?:(?i:ok|okay|so|right|yes|yep|fine)[,!]?\s+)?(?:(?i:let's|please)\s+)?"
                       r"(?i:move|push|postpone|reschedule)\s+(?!(?i:it|them|that|this|everything)\b)[a-z][\w'-]{2,}\s+"
                       r"(?:(?i:back|forward)\s+)?(?:(?i:to|until|till)\s*)?)"  # ("to" may go into the day's place)
                       rf"(?:(?i:{_WEEKDAY}),?\s+)?" + r"\x00(?P<d>\d+)\x00")


# ... or said to be "now" a day after the move was told ("NICEIC moved. Paul can't do the 10th, it's now Monday
# 14th December at 10am"): the move in the turn's sentence before or in this one.
# ("chapter 3 moves again, now Friday 27 November": "now" alone after a comma)
# ("the 24th clashes with something at the council so now it's Saturday 31st")
_NOW_A_DAY = re.compile(r"(?:^|[,;:]\s+|\b(?:and|so|but)\s+)(?:(?i:it's|it\s+is)\s+(?i:now)|(?i:now\s+it's|now\s+it\s+is)|"
                        r"(?<=[,;:]\s)(?i:now))\s+(?:(?i:on)\s+)?"
                        rf"(?:(?i:{_WEEKDAY}),?\s+)?" + r"\x00(?P<d>\d+)\x00")
_MOVE_TOLD = re.compile(rf"\b(?:{lx.MOVED_VERBS}|rescheduled|changed|can't\s+do|cannot\s+do|can\s+no\s+longer\s+do)\b", re.I)


def tells_move(text: str) -> bool:
    """Whether `text` says a day was moved or cannot be kept ("NICEIC moved.", "Paul can't do the 10th")."""
    return _MOVE_TOLD.search(text) is not None


def it_moved(sent: _Sentence, before: _Sentence | None = None) -> str | None:
    """The ISO day "it" was moved to, in a sentence that names no event moved; `before`: the turn's
    sentence before it, which may tell the move ("NICEIC moved.")."""
    m = _IT_MOVED.search(sent.s1)
    if m is None and (now := _NOW_A_DAY.search(sent.s1)) is not None and (
            _MOVE_TOLD.search(sent.s1, 0, now.start()) or (before is not None and tells_move(before.text))):
        m = now
    if m is None or int(m.group("d")) >= len(sent.rendered):
        return None
    day = ISO_DAY.search(sent.rendered[int(m.group("d"))])
    return day.group() if day else None


# Whom a thing has in a post, one at a time: "Raj Mehta is the hiring manager for the backend
# role", "Jess Byrne is going to be the new tenant for Flat 3", "Oliver Grant replaces Lena
# Fischer as hiring manager for the product designer role": the thing's "<post> is".
_OF_WHAT = (r"(?:the\s+|our\s+)?(?P<x>(?:\d{1,4}[A-Za-z]?\s+)?[A-Z][\w-]*"
            r"(?:\s+(?:[A-Z][\w-]*|\d{1,4}[A-Za-z]?\b)){0,2}"
            r"|(?:[a-z][\w-]*\s+){0,2}(?:role|position|job|team|project|account|flat|house|property|building|"
            r"office|contract|deal|vacancy|opening|search|hire))")
_HOLDS = re.compile(
    rf"(?<![\w']){_WHO}\s+(?:is|'s|will\s+be|is\s+going\s+to\s+be)\s+(?:now\s+|currently\s+|still\s+)?"
    rf"(?:the\s+|our\s+)?(?:new\s+)?(?P<role>(?i:{lx.HOLDER_ROLES}))\s+(?:for|of|on|at|in)\s+{_OF_WHAT}{_END}")
# ... said the other way round, or of "there": "The tenants there are Ruth and Sam Adeyemi",
# "Daniel Mensah is the tenant there" (the place the sentence, or the one before it, named last).
_HOLDER_IS = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:(?i:the|our)\s+)?(?:(?i:new)\s+)?(?P<role>(?i:{lx.HOLDER_ROLES}))\s+"
    rf"(?:(?i:there)|(?i:for|of|at|in)\s+{_OF_WHAT})\s+(?:is|are|will\s+be)\s+(?:now\s+)?"
    r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?(?:\s+and\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)?)(?![\w'-])")
_THERE = re.compile(
    rf"(?<![\w']){_WHO}\s+(?:is|'s|are|will\s+be|is\s+going\s+to\s+be)\s+(?:now\s+|still\s+)?(?:the\s+)?"
    rf"(?:new\s+)?(?P<role>(?i:{lx.HOLDER_ROLES}))\s+there\b")
_REPLACES = re.compile(
    rf"(?<![\w']){_WHO}\s+(?:replaces|replaced|is\s+replacing|takes\s+over\s+from|took\s+over\s+from)\s+"
    rf"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s+as\s+(?:the\s+)?(?:new\s+)?(?P<role>(?i:{lx.HOLDER_ROLES}))\s+"
    rf"(?:for|of|on|at|in)\s+{_OF_WHAT}{_END}")

# Not pieces of work: "Ellie is on holiday", "Dev is on the team", "Ana took over the call"
# (the first word), "Jonas is on paternity leave", "Dad is on insulin" (any word).
_NOT_WORK = frozenset("""call calls phone way road train plane bus team list line it this that them him her me
us time board track mend fire shift duty site both all everything one two""".split())
_NOT_WORK_ANY = (frozenset("holiday holidays vacation leave sick notice resignation list".split()) | lx.MEDICATIONS
                 | lx.WEEKDAYS | lx.MONTHS | lx.DATE_WORDS)  # ("Sofia is on Thursday": no one's work)
# Words after a piece of work's name that say what kind of work it is: "the billing migration"
# is billing's, as "Dev is taking over billing" says.
_KIND_OF_WORK = frozenset("""migration project work workstream stream service services feature epic initiative
effort piece side stuff rollout""".split())


_WHEN_WORDS = lx.WEEKDAYS | lx.WEEKDAYS_SHORT | lx.MONTHS | lx.DATE_WORDS


def work_key(thing: str) -> str:
    """A piece of work's name as its timeline knows it: "the billing migration" is "billing";
    written as entity keys are (normalize_key: "search-indexing" is "search indexing"), which
    the writer's key of a subject no entity names is made of (entity_resolution.thing_key)."""
    words = normalize_key(re.sub(r"^(?:(?:the|our|my|this)\s+)?(?:new\s+)?", "", thing.strip().lower())).split()
    while len(words) > 1 and words[-1] in _KIND_OF_WORK:
        words.pop()
    return " ".join(words)


_SAYS_LEAD = re.compile(r"^(?:[A-Z][\w'-]*|he|she|they|we)\s+(?:says|said|thinks|reckons|told\s+(?:me|us))\s+"
                        r"(?:that\s+)?", re.I)


def event_key(x: str, said: str, party: str | None, speaker: str | None = None) -> str:
    """An event's name with the place it is at, as said before it or after: "the inspection at 22
    Oak Street" and "the Oak Street inspection" are one (a house's number dropped, a flat's
    kept), "the gas safety check at Flat 5" is not Flat 6's. Whom it is with is no part of it
    ("the review with Northpeak" is the review)."""
    x = _SAYS_LEAD.sub("", x)  # "Marcus says the exchange has moved": the exchange
    # "My visa appointment ... is on", "moved my visa appointment to": the speaker's, one key
    mine = re.match(r"(?i:my)\s+", x) or re.search(rf"\b(?i:my)\s+{re.escape(x)}", said)
    x = re.sub(r"^(?i:my)\s+", "", x)
    x = f"{speaker}'s {x}" if mine and speaker else x
    if not party or re.search(rf"\s(?i:with)\s+{re.escape(party)}", said) or party.split()[-1].islower():
        return x  # ("my visa appointment at the Portuguese consulate": whom it is with, not a place of its own)
    place = re.sub(r"^\d{1,4}[A-Za-z]?\s+", "", party)
    return place + " " + re.sub(r"^(?i:the|our|this|next)\s+", "", x)


def _place_before(sent: _Sentence, reg: _Registry, pos: int, before: _Sentence | None):
    """The place or organisation "there" is: the one named last before `pos` (an s1 position) in
    the sentence, else the last one the sentence before it named."""
    found = sent.named_before(reg, pos, _WHERE) or (before.named_before(reg, None, _WHERE) if before else [])
    return found[-1] if found else None


_WHERE = ("place", "organization")


def assignments(sent: _Sentence, reg: _Registry, before: _Sentence | None = None) -> list[_Parse]:
    """The "owner is", "uses" and "date is" facts a sentence states, each told from its clause;
    `before`: the sentence before it in the same turn ("... moved again. It's now December 16")."""
    text = sent.s1
    out: list[_Parse] = []

    def add(thing: str, predicate: str, value: str, at: int, until: int | None = None,
            told: str | None = None, named: bool = False) -> None:
        key = thing if named else work_key(thing)  # (an entity by its name: "Flat 3")
        words = key.split()
        if not words or words[0] in lx.STOPWORDS | _NOT_WORK or set(words) & _NOT_WORK_ANY or any(
                p.subject == key and p.predicate == predicate for p in out):
            return
        out.append(_Parse(key, "name", predicate, value, True, False, clause=at, until=until, text=told))

    def person(name: str, handed: bool = False) -> str | None:
        if name in ("I", "I'll"):
            return sent.t.speaker
        ent = reg.get(name)
        if ent is None:  # "Dev is taking over billing": a capital opening a sentence, owning work
            return name if name.lower() not in lx.STOPWORDS | lx.PRONOUNS | lx.INTERJECTIONS else None
        if handed and ent.type == "place":  # "passing the search project to Dev": no place's
            ent.settle("person")
        return ent.name if ent.type in ("person", "thing", "organization") else None

    owns = list(_OWNS.finditer(text))
    for m, after in zip(owns, owns[1:] + [None]):
        if (who := person(m.group("who"))) is not None:
            add(m.group("x"), "owner is", who, m.start(), after.start() if after else None)
            if m.group("at") and (firm := reg.get(m.group("at"))) is not None and firm.type == "organization" \
                    and (e := reg.get(who)) is not None and e.type == "person":
                # ("Rebecca Stone at Carter Lowe is taking over our file": she is at the firm too)
                out.append(_Parse(e.name, "name", "works at", firm.name, True, False, clause=m.start(),
                                  text=f"{e.name} is at {firm.name}."))
    for m in [*_HOLDS.finditer(text), *_REPLACES.finditer(text)]:
        who = person(m.group("who"))
        thing = reg.get(m.group("x"))
        if who is not None and (thing is None or thing.type != "person"):
            role = " ".join(m.group("role").lower().split())
            add(thing.name if thing is not None else m.group("x"), f"{role} is", who, 0,  # (told whole)
                named=thing is not None)
    for m in [*_HOLDER_IS.finditer(text), *_THERE.finditer(text)]:
        where = m.groupdict().get("x")
        place = reg.get(where) if where else _place_before(sent, reg, m.start(), before)
        if place is None and not where:
            continue  # "there": no place said before it
        names = [n.strip() for n in re.split(r"\s+and\s+", m.group("who"))]
        people = [person(n) for n in names]
        if all(people) and len(names) <= 2:
            role = " ".join(m.group("role").lower().split())
            role = role[:-1] if role.endswith("tenants") else role
            add(place.name if place is not None else where, f"{role} is", " and ".join(people), 0,
                named=place is not None)
    for m in _HANDED.finditer(text):
        if (who := person(m.group("who"), handed=True)) is not None:
            add(m.group("x"), "owner is", who, 0)
    for m in _IS_NOW.finditer(text):  # to someone the episode knows, of a thing no entity is
        name = sent.t.speaker if m.group("mine") else m.group("who") or m.group("to")
        ent = reg.get(name)
        if reg.get(m.group("x")) is None and (m.group("mine") or (ent is not None and ent.type == "person")):
            add(m.group("x"), "owner is", ent.name if ent is not None else name, 0)
    # "we got into the Founders Demo Day at Pier 27! it's on November 5": the event the sentence
    # before named has the day
    if before and (on := _IT_ON.match(text)) and (named := list(_EVENT_NAMED.finditer(before.s1))):
        slot = int(on.group("d"))
        day = ISO_DAY.search(sent.rendered[slot]) if slot < len(sent.rendered) else None
        y = named[-1].group("y")
        if day and not set(y.lower().split()[:1]) & lx.STOPWORDS:
            when = sent.rendered[slot]
            when = when if re.match(r"(?i:on|in)\s", when) else f"on {when}"
            add(y, "date is", day.group(), 0, told=f"{y[:1].upper()}{y[1:]} is {when}")
    moved = [m for m in [_IT_NOW.search(text)] if m and before and (said := _MOVED_ALONE.search(before.s1))]
    for m in moved:  # the event the sentence before moved
        day = ISO_DAY.search(sent.rendered[int(m.group("d"))]) if int(m.group("d")) < len(sent.rendered) else None
        if day:  # told with what moved: "Review moved again: it's now on 2026-12-16 (December 16)."
            # (what moved, not why: "..., she's on a course on the 8th")
            event = " ".join(re.sub(r"\s*,\s+[^.!?]*$", "", said.group(0).strip(" .!")).split())
            event = re.sub(r"^(?i:and|so)\s+", "", event)  # ("so the inspection has moved AGAIN")
            add(said.group("x") or said.group("y"), "date is", day.group(), 0,
                told=f"{event[:1].upper()}{event[1:]}: {_fill(text, sent.rendered).strip()}")
    for m in [*_EVENT_DAY.finditer(text), *_MOVED_EVENT.finditer(text), *_MOVED_IT.finditer(text),
              *_DAY_FOR_EVENT.finditer(text), *_BOOKED_FOR_EVENT.finditer(text), *_EVENT_COMMA_DAY.finditer(text)]:
        day = ISO_DAY.search(sent.rendered[int(m.group("d"))]) if int(m.group("d")) < len(sent.rendered) else None
        if day:
            # someone's event is theirs: "Kim's final"
            x = f"{m.group('pos')}'s {m.group('x')}" if m.groupdict().get("pos") else m.group("x")
            if x.lower() in HANDOVERS and (thing := ordered_thing(ORDERED.search(text, 0, m.start()))):
                x = f"{thing} {x.lower()}"  # ("wedding cake for the Ruizes, 4 tiers, collection Saturday 17 October")
            add(event_key(x, m.group(0), m.groupdict().get("party"), sent.t.speaker), "date is", day.group(), 0)
    for m in _THING_MOVED.finditer(text):
        x = m.group("x") or m.group("y") or m.group("z")
        slot = int(m.group("d") or m.group("e"))
        day = ISO_DAY.search(sent.rendered[slot]) if slot < len(sent.rendered) else None
        # (moved "to" a day, said or in the day's place: not "to push the biz forward on 9 July")
        said = sent.dates[slot] if slot < len(sent.dates) else None
        to = m.group("z") or said is not None and re.search(
            rf"\b(?i:to|until|till)\s+(?:(?i:{_WEEKDAY}),?\s+)?$", sent.text[:said.pos]) or (
            said is not None and re.match(r"(?i:to|until|till)\b", said.phrase))
        if day and to and not set(x.lower().split()) & (_NOT_MOVED | _NOT_MOVED_LAST | lx.STOPWORDS) \
                and ((e := reg.get(x)) is None or e.type == "thing") and not re.search(lx.SCHEDULED_ALT, x, re.I):
            # (an event known by name is a thing: "the Frostbite 50 is now Sunday 31 January")
            # (a deadline's day is its value, as said when it was set: "the Year 10 coursework deadline is Friday 6
            # November", then "agreed to extend the coursework deadline to Friday 20 November")
            add(event_key(x, m.group(0), None, sent.t.speaker),
                "is" if x.lower().split()[-1] in ("deadline", "deadlines") else "date is", day.group(), 0)
    for m in _CALLED_ON.finditer(text):
        day = ISO_DAY.search(sent.rendered[int(m.group("d"))]) if int(m.group("d")) < len(sent.rendered) else None
        if day:
            add(m.group("x"), "date is", day.group(), 0)
    for m in [*_RELEASED.finditer(text), *_WE_RELEASE.finditer(text)]:
        thing = reg.get(m.group("x"))
        day = ISO_DAY.search(sent.rendered[int(m.group("d"))]) if int(m.group("d")) < len(sent.rendered) else None
        named = thing is not None
        if day and not (named and thing.type == "person") and m.group("x").split()[0].lower() not in lx.STOPWORDS:
            add(thing.name if named else m.group("x"), "date is", day.group(), 0, named=named)
    for m in _DO_ALL_IN.finditer(text):
        tool = reg.get(m.group("v"))
        if tool is not None and not tool.speaker and tool.type in ("place", "person"):
            tool.settle("thing")  # ("everything in Photoshop": a tool, not a town)
        name = tool.name if tool is not None else m.group("v")
        # ("Doing everything in Clip Studio Paint now": whose, said, so the question after her tool finds it)
        told = None if re.search(r"\b(?i:I|we)\s", m.group(0)) else f"{sent.t.speaker}'s main tool is {name}: " \
            + _fill(text, sent.rendered).strip()
        add(sent.t.speaker, "main tool is", name, 0, named=True, told=told)
    for m in _SWITCHED_FROM.finditer(text):
        old, new = reg.get(m.group("old")), reg.get(m.group("v"))
        for ent in (old, new):
            if ent is not None and not ent.speaker and ent.type in ("place", "person"):
                ent.settle("thing")
        add(old.name if old is not None else m.group("old"), "switched to",
            new.name if new is not None else m.group("v"), 0, named=True)
    for m in _ENDS_ON.finditer(text):
        day = ISO_DAY.search(sent.rendered[int(m.group("d"))]) if int(m.group("d")) < len(sent.rendered) else None
        if day:
            add(m.group("x"), "end date is", day.group(), 0)
    for m in _CANCELLED_EVENT.finditer(text):
        event = event_key(m.group("x"), m.group(0), m.groupdict().get("party"), sent.t.speaker)
        add(event, "date is", "cancelled", 0)
    for m in _MOVED_ONTO.finditer(text):  # "we moved billing off Postgres onto DynamoDB"
        product = reg.get(m.group("v"))
        if m.group("v").split()[0].lower() in _WHEN_WORDS:
            continue  # "moving my lifting to Mon/Wed/Fri mornings": a time, not a thing used
        came_off = re.search(r"\s(?:off|from)\s+[A-Z]", m.group(0))
        if product is not None and product.type == "place" and came_off and not product.speaker:
            product.settle("thing")  # "from Dropbox to Nextcloud": a tool moved off, not a town
        if reg.get(m.group("x")) is None and (product is None or product.type in ("thing", "organization")):
            add(m.group("x"), "uses", product.name if product is not None else m.group("v"), 0)
    for m in [*_FOR_USES.finditer(text), *_USE_FOR.finditer(text), *_KEPT_IN.finditer(text)]:
        product = reg.get(m.group("v"))
        thing = reg.get(m.group("x"))
        if thing is not None and thing.type == "person":
            continue  # "for Sofia I'll use ...": for whom, not a thing's tool
        if product is not None and product.type == "place" and product.name.lower() not in lx.PLACES:
            product.settle("thing")  # "we use Figma for Brightwave": a tool (a capital, read as a town)
        if product is None or not product.speaker:
            add(thing.name if thing is not None else m.group("x"), "uses",
                product.name if product is not None else m.group("v"), 0, named=thing is not None)
    for m in [*_RUNS_ON.finditer(text), *_MOVED_SITE.finditer(text), *_DEPLOYS_TO.finditer(text)]:
        said = m.group("v").rstrip(".")  # ("we deploy to Fly.io.": the sentence's full stop)
        site = reg.get(said)
        if site is not None and site.type in ("place", "person") and not site.speaker:
            site.settle("thing")  # ("run on Hydra": a machine, not a town)
        if site is None or not site.speaker:
            x = m.group("x").lower()
            add("hosting" if x in _HOSTING else x, "uses", site.name if site is not None else re.sub(
                r"^(?i:the|our)\s+", "", said), 0)
    for m in _USES.finditer(text):
        product = reg.get(m.group("v"))
        if product is not None and not product.speaker:  # "going with Postgres": a thing, not a person
            product.settle("thing")
        add(m.group("x"), "uses", product.name if product is not None else m.group("v"), 0)
    return out
