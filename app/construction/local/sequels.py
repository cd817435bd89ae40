"""A sentence that names its thing only by "it" or "the new date", read with the thing the
sentence before it in the turn named: "Millbrook just put flour up. It's £19.80 a sack now" says
"The flour is £19.80 a sack now"; "Brightmoss wants the release moved. new date is April 23 2027"
says "The release is on April 23 2027". Alone, each was a "said" fact, and the price or day before
it stayed current."""
from __future__ import annotations

import re
from typing import Callable

from app.construction import lexicon as lx
from app.construction.local.fact_patterns import _I

_ITEM = r"(?P<item>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
# A price that changes, its amount not said: "put flour up", "the butter went up again".
_PUT_UP = [re.compile(rf"\b(?:put|puts|putting|pushed|pushing|bumped)\s+(?:the\s+|their\s+|our\s+)?{_ITEM}"
                      r"(?:\s+price)?\s+(?:up|down)\b(?![^.!?]*\d)", _I),
           re.compile(rf"(?:^|\b(?:the|our|and)\s+){_ITEM}\s+(?:price\s+)?(?:went|has\s+gone|have\s+gone|"
                      r"is\s+going|are\s+going|'s\s+gone|goes)\s+(?:up|down)\b(?![^.!?]*\d)", _I)]
_ITS_PRICE = re.compile(r"^(?:(?:so|and|now|ugh)[,!]?\s+)*(?:it's|it\s+is|its|they're|they\s+are)\s+(?:now\s+)?"
                        r"(?P<rest>[£$€]\s?\d.*)$", _I)
# An event to be moved, its new day said next: "Brightmoss wants the release moved."
_MOVED = re.compile(rf"(?:^|\b(?:the|our|this)\s+)(?P<ev>(?:(?!(?:the|our|this)\s)[a-z][\w-]*\s+)?(?:{lx.SCHEDULED_ALT}))"
                    # ("the consultant appointment on the 1st is moved")
                    r"(?:\s+(?:on|for)\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+[A-Za-z]+)?)?"
                    # ("The visa appointment has been moved AGAIN", "the inspection's moved AGAIN", "pump training
                    # moved AGAIN")
                    r"(?:'s\s+|\s+(?:(?:has\s+been|have\s+been|was|were|got|is|are|is\s+being|'s\s+been)\s+)?)"
                    r"(?:moved|pushed(?:\s+back)?|postponed|delayed|rescheduled)\b"
                    # ("they've moved Biscuit's booster")
                    r"|\b(?:move|push|postpone|delay|reschedule|moved|pushed|postponed|delayed|rescheduled)\s+"
                    r"(?:the|our|this|his|her|their|[a-z][\w-]*['’]s)\s+"
                    rf"(?P<ev2>(?:[a-z][\w-]*\s+)?(?:{lx.SCHEDULED_ALT}))\b"
                    # ... or one named with its number: "Maths have moved Paper 1 AGAIN"
                    r"|\b(?:(?P<own>(?-i:[A-Z])[a-z]+)\s+(?:have\s+|has\s+)?)?(?:move|moved|moving)\s+(?:their\s+|the\s+)?"
                    r"(?P<ev3>(?-i:[A-Z])[a-z]+\s+\d{1,2})\b", _I)
# A day of a month, its weekday before it or not, as the sequels below read one ("Thursday 8 October",
# "October 8th").
_WEEKDAY_FIRST = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"
_DAY_MONTH = (rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{lx.MONTH_ALT})|"
              rf"(?:{lx.MONTH_ALT})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?)")
# ... or said as the day it is now: "May 28 2027 now, something about their Q2 slate".
# ("Tuesday 13th at 9am now", the answer to "To when?")
_DAY_NOW = re.compile(rf"^(?:(?:on|to)\s+)?(?P<rest>{_WEEKDAY_FIRST}(?:{_DAY_MONTH[3:-1]}|(?<=day )(?:the\s+)?\d{{1,2}}"
                      r"(?:st|nd|rd|th))(?:,?\s+\d{4})?(?:,?\s+(?:at\s+)?\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)?)\s+now\b"
                      r"(?P<tail>.*)$", _I)
# ... or said instead, a day of a month or of the week: "Sunday the 15th instead, same place, but 2:30pm".
_DAY_INSTEAD = re.compile(rf"^(?:(?:on|to)\s+)?(?P<rest>{_WEEKDAY_FIRST}(?:{_DAY_MONTH[3:-1]}|(?:the\s+)?\d{{1,2}}"
                          r"(?:st|nd|rd|th))(?:,?\s+\d{4})?)\s+instead\b(?P<tail>.*)$", _I)
# ... or said as what it is now: "now it's Thursday 8 October at 9:30am".
_NOW_ITS = re.compile(r"^(?:(?:so|and|ok|okay|ugh)[,!]?\s+)*(?:now\s+it's|now\s+it\s+is|it's\s+now|its\s+now|it\s+is\s+now)\s+"
                      rf"(?:on\s+)?(?P<rest>{_WEEKDAY_FIRST}(?:{_DAY_MONTH[3:-1]}"
                      r"|the\s+\d{1,2}(?:st|nd|rd|th)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b.*)$", _I)
# Booked, its day said next: "Flights booked! TAP from Manchester to Lisbon on Saturday 24 October".
_BOOKED = re.compile(rf"^(?:(?:the|our|my)\s+)?(?P<ev>(?:[a-z][\w-]*\s+)?(?:{lx.SCHEDULED_ALT})s?)\s+"
                     r"(?:(?:are|is|all|now)\s+)?(?:booked|confirmed|sorted)\b[\s!.]*$", _I)
_ON_DAY = re.compile(rf"\s*,?\s+on\s+(?P<day>{_WEEKDAY_FIRST}{_DAY_MONTH}(?:,?\s+\d{{4}})?)\b", _I)
# A month's amount said of "it" after a home was named: "Rui found us another one ... It's €2,350 a
# month" (the rent); an amount alone after an offer or a quote: "we've had an offer on the house.
# £285,000".
_MONTHLY = re.compile(r"^(?:(?:so|and|ok|okay)[,!]?\s+)*(?:it's|it\s+is|its)\s+(?:now\s+)?"
                      r"(?P<amt>[£$€]\s?\d[\d,]*(?:\.\d\d)?k?)\s+(?:a|per|each)\s+month\b(?P<tail>.*)$", _I)
_HOMES = re.compile(r"\b(?:flat|flats|apartment|house|home|place|room|studio|rent|rental|landlord|landlady|lease|"
                    r"tenancy|letting)\b", _I)
_THING_NAMED = re.compile(r"\b(?:the|my|our|their|his|her)\s+[a-z][\w-]+", _I)
# ... or with what it is for, after a bill came: "the water bill came in today. £312.40 for the half year"
_AMOUNT_FOR = re.compile(r"^(?P<amt>[£$€]\s?\d[\d,]*(?:\.\d\d)?k?)(?P<tail>\s+(?:for|a|per|each|inc|incl|including|plus)\b"
                         r"[^.!?]*?)?[\s!.]*$", _I)
_BILL_CAME = re.compile(r"\b(?:the|our|my|their)\s+(?P<bill>(?:[a-z][\w-]*\s+)?(?:bill|invoice|quote|estimate|"
                        r"statement|valuation|fine))\s+(?:has\s+|finally\s+)?(?:came|come|arrived|landed|is\s+in|"
                        r"is\s+here)\b", _I)
_OFFERED = re.compile(r"\b(?:an?|the)\s+(?P<what>offer|quote|bid|estimate|valuation)\s+(?:on|for)\s+"
                      r"(?:the|our|my|their)\s+(?P<thing>[a-z][\w-]*)\b[^.!?]*[.!]?\s*$", _I)
# A replacement found, named next: "Found Jonathan's replacement! Priya Nair, she accompanies the
# Bellfield Operatic Society" (the replacement's name alone said nothing of whom she replaces).
_FOUND_REPLACEMENT = re.compile(r"^(?:(?:we|i)(?:'ve|\s+have)?\s+)?(?:finally\s+)?(?:found|got|hired)\s+"
                                r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)['’]s\s+replacement[\s!.]*$", _I)
_NAME_FIRST = re.compile(r"^(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)(?P<rest>\s*,.*|\s+(?:is|who)\b.*|)$",
                         _I)
# ... or one found for a post, named next: "found an engineer!! Marek Nowak from Bake-Tech Services" (the name
# alone had been no fact, "Tom found an engineer." the only one).
_FOUND_ONE = re.compile(r"^(?:(?:we|i)(?:'ve|\s+have)?\s+)?(?:finally\s+)?(?:found|got|hired|booked)\s+(?:a|an|our)\s+"
                        r"(?P<new>new\s+)?(?P<post>engineer|plumber|electrician|builder|cleaner|nanny|childminder|tutor|"
                        r"accompanist|accountant|solicitor|vet|dentist|gardener|decorator|mechanic|photographer|"
                        r"caterer|dog\s+walker|dogwalker|babysitter|carer|roofer|locksmith|joiner|plasterer|"
                        r"bookkeeper|surveyor|instructor|coach|physio|therapist)[\s!.]*$", _I)
# ... or a new one for a post, named in the speaker's next sentence: "Gillian is moving to another patch,
# so we've got a new health visitor" "her name is Priya Shah." (a fact "Hannah said her name is Priya
# Shah", of no post: Gillian stayed the health visitor).
# (or a post of work named by its last word: "so I've got a new practice supervisor" "it's Tom Fenwick, he's a
# charge nurse on 4B")
_NEW_ONE = re.compile(r"\b(?:got|have|get|getting|found|hired)\s+(?:a|an|our)\s+new\s+"
                      rf"(?P<post>{'|'.join(sorted((re.escape(k) for k in lx.UNIQUE_KIN), key=len, reverse=True))}|"
                      r"(?:[a-z]+\s+){0,2}(?:supervisor|manager|mentor|tutor|teacher|consultant|midwife|keyworker|"
                      r"caseworker|officer|adviser|advisor|agent|contact|landlord|landlady|coordinator|co-ordinator))"
                      r"[\s!.]*$", _I)
_NAME_IS = re.compile(r"^(?:(?:his|her|their|the)\s+name(?:'s|\s+is)|(?:she|he)(?:'s|\s+is)\s+called|"
                      r"it'?s|it\s+is|that'?s)\s+"
                      r"(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)(?P<rest>[^.!?]*?)[\s.!]*$", _I)
# ... or one stepping down from a post, and who takes it on next: "Janet is stepping down as welfare officer,
# she's moving to Leeds. Marcus Reid has agreed to take it on" (the post had no holder after it).
_STEPS_DOWN = re.compile(r"\b(?:is|'s|are|has|have)\s+(?:stepping|stepped|standing|stood)\s+down\s+as\s+(?:the\s+|our\s+)?"
                         r"(?P<post>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)(?=\s*(?:[,.;!]|$|\s+(?:from|at|in|for|after|because|so|and)\b))",
                         _I)
_TAKES_IT_ON = re.compile(r"^(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\s+(?:has\s+agreed\s+to|agreed\s+to|"
                          r"will|is\s+going\s+to|'s\s+going\s+to|is|'s|has)\s+(?:take|taking|taken|took)\s+"
                          r"(?:it|that|the\s+(?:role|job|post))?\s*(?:on|over)\b(?P<rest>[^.!?]*)[.!]*$", _I)
_NAME_FROM = re.compile(r"^(?P<name>(?-i:[A-Z])[\w'-]+\s+(?-i:[A-Z])[\w'-]+)(?P<rest>\s+(?:from|at|of)\s+"
                        r"(?-i:[A-Z])[^.!?]*?|\s*,[^.!?]*?|)[\s.!]*$", _I)
_NEW_DATE = re.compile(r"^(?:(?:so|and|ok|okay)[,!]?\s+)*(?:the\s+)?new\s+(?:date|day)\s*(?:is|'s|:)?\s*"
                       r"(?:now\s+)?(?:on\s+)?(?P<rest>.+)$", _I)

# A day said of an order's collection after the order: "New order: christening cake for baby Ava, Lucy
# Grant is the mum." "collection Saturday 7 November at 10am" (alone, no cake's).
_HANDOVER = re.compile(r"^(?:(?:and|so|oh|also)[,!]?\s+)*(?P<what>collection|pick-?up|delivery|fitting|tasting)\s+"
                       r"(?:is\s+|will\s+be\s+|'s\s+)?(?:on\s+)?(?P<rest>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
                       rf"tomorrow|next|this|\d{{1,2}}(?:st|nd|rd|th)?\b|(?:{lx.MONTH_ALT})\b).*)$", _I)
ORDERED = re.compile(r"\b(?P<thing>(?:[a-z][\w-]*\s+){0,2}?(?:cake|cakes|order|suit|dress|bouquet|hamper|platter|"
                      r"batch|frame|print|prints|flowers|alterations))\s+(?:for|from)\s", _I)

# An event announced alone, its day said next: "also, halloween party! saturday 31st, here, 8pm" (the day alone
# had been no one's, and no plan: "the party's off" ended nothing).
# ("tech rehearsal - let's lock it in now." "Sunday 29th November, 2pm at Kingsdown")
_EVENT_ALONE = re.compile(r"^(?:(?:also|and|oh|so|ok|okay|right|plus)[,!]?\s+)*(?:(?:a|the|our|my)\s+)?"
                          rf"(?P<ev>(?:[a-z][\w'-]*\s+){{0,2}}?(?:{lx.SCHEDULED_ALT}))"
                          r"(?:\s+[-–—:]\s+(?:let'?s\s+)?(?:lock|pin|nail|fix|book|sort)\w*\s+(?:it|this|that)\s+(?:in|down)?"
                          r"[\w\s]{0,12})?[\s!.]*$", _I)
# ... or booked alone: "We also booked his neutering." "Thursday 12 November, drop off at 8am" (the day had been no
# one's, and the neutering's move to the 19th ended nothing).
_BOOKED_ALONE = re.compile(r"^(?:(?:we|i|they|he|she)(?:'ve|\s+have)?\s+)?(?:(?:also|just|finally|now)\s+)?"
                           r"(?:booked|scheduled|arranged)\s+(?:in\s+)?(?:the|his|her|our|my|their)\s+"
                           rf"(?P<ev>(?:[a-z][\w'-]*\s+){{0,2}}?(?:{lx.SCHEDULED_ALT}))[\s!.]*$", _I)
# (not any "this": "party! this is going to be epic" says no day)
_DAY_FIRST = re.compile(r"^(?:on\s+)?(?P<rest>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|(?:next|this)\s+"
                        r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|week(?:end)?|month)|"
                        rf"(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b|(?:{lx.MONTH_ALT})\b).*)$", _I)

# A thing named alone, what it is said next of "it": "yes, the Year 10 coursework deadline." "It's Friday 6 November,
# Graham set it"; "The Year 10 ecology field trip." "It's to Larkspur Field Centre on Wednesday 11 November" (a "said"
# fact each, the day of neither).
_NAMED_ALONE = re.compile(r"^(?:(?:yes|yeah|yep|ok|okay|so|and|also|right|oh|first|next|plus)[,!:]?\s+)*"
                          r"(?P<np>(?:the|our|my|this|next)\s+(?:[\w'’-]+\s+){0,5}?[a-z][\w'’-]*)[\s!.:]*$", _I)
_NOT_A_NOUN = frozenset("is are was were be been has have had will would can could should do does did".split())
_IT_IS = re.compile(r"^(?:it's|it\s+is|its)\s+(?P<rest>(?:on\s+|at\s+|to\s+|in\s+)?\S.*)$", _I)

HANDOVERS = frozenset({"collection", "pickup", "pick-up", "delivery", "fitting", "tasting"})


def ordered_thing(m: re.Match | None) -> str | None:
    """The thing an ORDERED match names ("christening cake"), without its article; None: no thing."""
    thing = re.sub(r"^(?:new|an?|the|our|my|their|big)\s+", "", m.group("thing").lower()) if m is not None else ""
    return thing if thing and thing.split()[0] not in lx.STOPWORDS else None


# An address said alone after a place was named: "Northfield Methodist Hall can have us on Tuesdays. 14 Quarry
# Road" (alone, it had been no fact): the place's address.
_ADDRESS_ALONE = re.compile(rf"^(?P<addr>\d{{1,4}}[A-Za-z]?,?\s+(?:[A-Z][\w'-]*\s+){{1,3}}(?=[A-Z])(?i:{lx.STREET_ALT})\b"
                            r"(?:,?\s+[A-Z][a-z]+)?(?:,?\s+[A-Z]{1,2}\d{1,2}[A-Z]?\s*\d[A-Z]{2})?)[\s.!]*$")
_PLACE = re.compile(rf"\b(?P<place>(?:[A-Z][\w'’-]+\s+){{0,3}}(?=[A-Z])(?i:{lx.BUILDING_ALT}))\b")


# A dose said alone after its medication was named: "she also wants me lower on the Tresiba again. 14 units from
# tonight" (the 14 had been a "unit count" of no one's, the 16 before it the Tresiba's, current).
_DOSE_ALONE = re.compile(r"^(?:(?:so|and|now|ok|okay)[,!]?\s+)*(?P<amt>\d+(?:\.\d+)?\s*(?:units?|mg|mcg|ml))\b"
                         r"(?P<tail>[^.!?]*)[.!]*$", _I)
_MEDICATION = re.compile(rf"\b(?P<my>my\s+|me\b[^.!?]*?\bthe\s+)?(?P<med>{'|'.join(sorted(lx.MEDICATIONS, key=len, reverse=True))})\b", _I)


# A test's result said after its name alone: "INR done. It was 3.4 - no sorry, 3.8", "INR today. 1.9 this time" (no
# fact held the reading; "INR was 2.6 on Tuesday" is one).
_TEST_ALONE = re.compile(r"^(?:(?i:so|ok|okay|and|right)[,]?\s+)?(?:(?i:the|my|his|her)\s+)?"
                         r"(?P<test>(?-i:[A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*)|(?i:blood\s+pressure|weight|weigh-in|blood\s+sugar|"
                         r"sugar|glucose|cholesterol|temperature|temp|peak\s+flow|sats|ketones))\s+"
                         r"(?i:done|today|this\s+morning|result|results|reading|test|check|back)\s*[.!:]*$")
_READING_ALONE = re.compile(r"^(?:(?i:it\s+was|it's|it\s+is|it\s+came\s+(?:back\s+)?(?:at|as))\s+)?"
                            r"(?P<num>\d+(?:\.\d+)?(?:/\d+)?)(?P<tail>(?:\s+(?i:this\s+time|today|now|again))?)\s*[.!]*$")


def _lowered(name: str) -> str:
    """A thing's name in lower case but for its capitals' words ("the MOT", "the dress fitting")."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in name.split())


def sequel(before: str, text: str, earlier: Callable[[], str] = str,
           around: Callable[[], str] = str) -> str | None:
    """`text` said with the thing `before` (the sentence before it, in its turn) named, when it
    names that thing only by "it" or "the new date"; else None. `earlier`: the speaker's sentences
    before it in its turn and the turn before (an order's collection day names the order said there);
    `around`: the last few sentences, whoever said them (a home named, whose month's amount is rent);
    each read only by a sentence of its shape."""
    if (said := _READING_ALONE.match(text)) is not None and (test := _TEST_ALONE.match(before)) is not None:
        return f"{test['test']} was {said['num']}{said['tail']}"
    if (said := _DOSE_ALONE.match(text)) is not None:
        meds = [*_MEDICATION.finditer(before)] or [*_MEDICATION.finditer(earlier())] or [
            *_MEDICATION.finditer(around())]
        if not meds:
            return None
        med = meds[-1]
        return f"{'My' if med['my'] else 'The'} {med['med']} is {said['amt']}{said['tail']}"
    if (said := _ADDRESS_ALONE.match(text)) is not None:
        places = [*_PLACE.finditer(earlier() or before)] or [*_PLACE.finditer(around())]
        return f"The address of {places[-1]['place']} is {said['addr']}" if places else None
    if (said := _MONTHLY.match(text)) is not None:
        # (a home named just before, or lately with no other thing named just before: "the gym is great.
        # It's £30 a month" is no rent)
        home = _HOMES.search(before) or _HOMES.search(around()) and not _THING_NAMED.search(before)
        return f"The rent is {said.group('amt')} a month{said.group('tail')}" if home else None
    if (said := _AMOUNT_FOR.match(text)) is not None:
        if said["tail"] is None and (offered := _OFFERED.search(before)) is not None:
            return f"The {offered.group('what').lower()} on the {offered.group('thing').lower()} is {said.group('amt')}"
        came = _BILL_CAME.search(before)
        return f"The {came['bill'].lower()} is {said['amt']}{said['tail'] or ''}" if came is not None else None
    if (found := _FOUND_ONE.match(before)) is not None and (named := _NAME_FROM.match(text)) is not None:
        return f"The {found['new'] or ''}{found['post'].lower()} is {named['name']}{named['rest']}"
    if (took := _TAKES_IT_ON.match(text)) is not None and (left := _STEPS_DOWN.search(before)) is not None:
        return f"The {left['post'].lower()} is now {took['name']}{took['rest']}"
    if (named := _NAME_IS.match(text)) is not None and (new := _NEW_ONE.search(before)) is not None:
        return f"Our new {new['post'].lower()} is {named['name']}{named['rest']}"
    if (found := _FOUND_REPLACEMENT.match(before)) is not None and (named := _NAME_FIRST.match(text)) is not None:
        return f"{found.group('who')}'s replacement is {named.group('name')}{named.group('rest')}"
    if (booked := _BOOKED.match(before)) is not None and (day := _ON_DAY.search(text)) is not None:
        event = booked.group("ev").lower()
        rest = (text[:day.start()] + text[day.end():]).strip(" ,")
        verb = "are" if event.endswith("s") else "is"
        return f"The {event} {verb} booked for {day.group('day')}" + (f": {rest}" if rest else "")
    # (the sentence before is read only for a sentence of that shape: most are none)
    if (said := _ITS_PRICE.match(text)) is not None:
        put = next((m for rx in _PUT_UP if (m := rx.search(before)) is not None), None)
        item = put.group("item").lower() if put is not None else ""
        return None if not item or item.split()[0] in lx.STOPWORDS else f"The {item} is {said.group('rest')}"
    if (day := _DAY_FIRST.match(text)) is not None and (event := _EVENT_ALONE.match(before)) is not None:
        return f"The {_lowered(event['ev'])} is on {day['rest']}"
    if (day := _DAY_FIRST.match(text)) is not None and (event := _BOOKED_ALONE.match(before)) is not None:
        return f"The {_lowered(event['ev'])} is booked for {day['rest']}"
    if (said := _IT_IS.match(text)) is not None and (named := _NAMED_ALONE.match(before)) is not None \
            and not set(named["np"].lower().split()) & _NOT_A_NOUN and not _ITS_PRICE.match(text) \
            and not re.search(r"['’]s\b|\w{3,}ed\b|\bagain\b", named["np"]):  # ("The store's doing great!", "The
        # Globex demo moved.", "And the dress fitting moved again!": a verb's, no thing named alone)
        np = named["np"]
        return f"{np[:1].upper()}{np[1:]} is {said['rest']}"
    if (said := _HANDOVER.match(text)) is not None:
        ordered = ORDERED.search(earlier() or before)
        thing = ordered_thing(ordered)
        return f"The {thing} {said.group('what').lower()} is on {said.group('rest')}" if thing else None
    return moved_to(before, text, earlier)


def moved_to(before: str, text: str, earlier: Callable[[], str] = str, asked: str = "") -> str | None:
    """`text` said as the new day of the thing `before` (or `earlier`) tells moved, else None (a sequel of
    that one shape: also after another's question, "they want to push the engagement shoot" "What did she
    suggest?" "Sunday the 15th instead", where other sequels' things are no longer the one talked of; after
    `asked`, "to when??", a day alone: "moved the booster again" "to when??" "Wednesday 14th, 5.30pm")."""
    said = _NEW_DATE.match(text) or _DAY_NOW.match(text) or _NOW_ITS.match(text) or _DAY_INSTEAD.match(text) or (
        _DAY_FIRST.match(text) if _TO_WHEN.match(asked) else None)
    # (the move told just before, or earlier in the speaker's turn: "pump training moved AGAIN. the pumps haven't
    # been delivered" "it's now Monday 9th November")
    if said is None or (moved := _MOVED.search(before) or next(reversed([*_MOVED.finditer(earlier())]), None)) is None:
        return None
    # (whose, in lower case: "The maths Paper 1 is now on ..."; "Maths" first had been read as a name)
    own = (moved.group("own") or "").lower()
    own = "" if own in lx.STOPWORDS or own in lx.PRONOUNS else own
    event = moved.group("ev") or moved.group("ev2") or f"{own} {moved.group('ev3')}".strip()
    # ("the Luton MOT", "the Globex demo"; not a sentence's first letter: "Pump training moved AGAIN")
    event = event if any(c.isupper() for c in event[1 if moved.start() == 0 else 0:]) else event.lower()
    if said.re is _NEW_DATE:
        return f"The {event} is on {said.group('rest')}"
    return f"The {event} is now on {said.group('rest')}{said.groupdict().get('tail') or ''}"


_TO_WHEN = re.compile(r"^\W*(?:to\s+)?when\b[\s?!]*(?:is\s+it|now)?[\s?!]*$", _I)


def told_again(before: str, said: str) -> bool:
    """Whether `said`, a sequel of `before`, says all `before` did ("Flights booked!" then "The flights are
    booked for Saturday 24 October: ..."): `before` is then no sentence of its own (its fact, "Flights |
    booked", stayed current beside the moved flights)."""
    if (named := _NAMED_ALONE.match(before)) is not None:  # (the thing named alone, said with what it is)
        return said.lower().startswith(f"{named['np'].lower()} is ")
    return _BOOKED.match(before) is not None and " booked for " in said
