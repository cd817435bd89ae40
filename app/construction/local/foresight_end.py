"""Statements that a constraint or plan no longer holds: "I'm not allergic to peanuts any more",
"I outgrew my egg allergy", "I'm no longer vegan", "I eat meat again", "we called off the Tokyo
trip", "I'm not going to Lisbon after all", "a half marathon instead of the 10k", and a to-do
done: "I renewed my passport". Each names whom and what; the writer ends that person's active
foresight holding one of the words (app/construction/foresight_ends.py)."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta

from app.construction import lexicon as lx
from app.construction.local.bounds import LETTER
from app.construction.local.entities import _Registry
from app.construction.local.fact_patterns import _I, _LIST_END, _chunk
from app.construction.local.foresight import _DIET_ALT, ALLERGY_GONE, _subject_at
from app.construction.local.instructions import ERRANDS
from app.construction.local.sentence import _Sentence
from app.construction.local.text import _WORD
from app.domain.models import ForesightDraft, ForesightEndDraft

_NO = r"(?:\bnot|n't|\bno\s+longer)\s+(?:(?:really|actually|even)\s+)?"
_ALLERGY_NOT = re.compile(rf"{_NO}allergic\s+to\s+(?P<x>[^.;:!?()]+)", _I)
_DIET_NOT = re.compile(
    rf"(?:{_NO}|\b(?:stopped|quit|gave\s+up|given\s+up)\s+being\s+)(?:(?:a|an|strictly|fully)\s+)*"
    rf"(?P<d>{_DIET_ALT})\b", _I)
_FEAR_NOT = re.compile(
    rf"(?:{_NO}(?:afraid|scared|terrified|frightened)\s+of|\b(?:got\s+over|overcame|overcome|conquered)\s+"
    r"(?:my|his|her|their|our|the)\s+fear\s+of)\s+(?P<x>[^.;:!?(),]+)", _I)
_EATS_AGAIN = re.compile(
    r"(?<![\w'])(?:eat|eats|eating|started\s+eating|back\s+to\s+eating|drink|drinks|drinking)\s+"
    r"(?P<x>[\w -]{2,40}?)\s+again\b", _I)
# A doing a rule had stopped, back: "I'm drinking again", "I can drive again" (not "eat", whose
# rules name what is not eaten: "I eat fish again" above).
_DOING_AGAIN = re.compile(
    r"(?:\b(?:can|could|am|is|are|started|start|starting|back\s+to|allowed\s+to)|'m|'s|'re)\s+"
    r"(?:(?:finally|now|actually)\s+)?(?P<v>drink|drinking|drive|driving|fly|flying|lift|lifting|jump|jumping|"
    r"run|running|swim|swimming|cycle|cycling|train|training|lunge|lunges|squat|squats|climb|climbing)"
    r"\s+again\b", _I)
# Cleared by whoever had ruled it out: "the physio cleared me to run again" (the rule "must avoid
# running" stayed active, and came first for "Plan a run for Tomás").
_CLEARED = re.compile(
    r"\b(?:cleared|allowed|okayed|ok'd|signed\s+off)\s+(?P<whom>me|him|her)\s+(?:to|for)\s+"
    r"(?P<v>drink|drive|fly|lift|jump|run|swim|cycle|train|climb|squat|lunge|play|exercise|work\s+out|running|"
    r"training|lifting|driving|"
    r"flying|swimming|cycling|climbing|jumping)\b", _I)
# A plan called off: "we cancelled our trip to Tokyo", "the Lisbon trip is off", "I'm not going
# to Lisbon after all". Postponed is not over: the new date comes as a plan of its own.
_CALLED_OFF = re.compile(
    r"\b(?:cancell?ed|called\s+off|scrapped|pulled\s+out\s+of|bailed\s+on)\s+(?P<x>(?:(?i:my|our|the|his|her|"
    r"their|this|that)\s+|(?=[A-Z]))[^.;:!?(),]+?)"  # what was called off, not "at the last minute",
    r"(?=\s*(?:[.;:!?(),]|$|\band\s+(?:(?:have|has|then|also|instead)\s+)?[a-z]+ed\b))")  # nor "and entered X"
_IS_OFF = re.compile(
    r"\b(?:my|our|the|his|her|their)\s+(?P<x>[^.;:!?(),]{1,60}?)\s+(?:is|was|has\s+been|got|'s)\s+"
    r"(?:off|cancell?ed|called\s+off|scrapped)\b", _I)
# Someone who was to start, or to come, and no longer will: "Sam Okafor withdrew, he took a counter
# offer" ends "Sam Okafor starts on 2026-10-19".
_WITHDREW = re.compile(r"(?:^|(?<=[.,;:!]\s)|(?<=\bso\s))(?P<who>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?|she|he)"
                       r"\s+(?:has\s+|just\s+)*(?:withdrawn|withdrew|pulled\s+out|dropped\s+out|backed\s+out)\b", _I)
_STARTING = ("starts", "start", "starting", "joins", "joining", "begins")
# ... or said to be called off: "mum and dad have to cancel tomorrow", "mum wanted to come 21 November
# but she's cancelled" (each had been a plan of its day).
# (... and what may now be: "So we can cancel the dentist on the 10th", its reason gone)
_MUST_CANCEL = re.compile(r"\b(?:(?:ha(?:ve|s|d)|need|needs|needed)\s+to|can|could|should)\s+(?:now\s+)?(?:cancel|call\s+off)\s+"
                          r"(?P<x>[^.;:!?(),]+)", _I)
_BUT_CANCELLED = re.compile(r"(?P<x>[^.;!?]{3,80}?)\s*,?\s+but\s+(?:she|he|they|we|it)(?:['’]s|['’]ve|\s+has|\s+have|"
                            r"\s+had)?\s+(?:now\s+)?(?:cancell?ed|called\s+(?:it\s+)?off)\b", _I)


def called_off(sent: _Sentence) -> bool:
    """Whether `sent` calls off what its days are of: "The 9 December review is cancelled, Mr
    Hughes says he doesn't need to see him" plans nothing for 9 December; "the Friday match is
    cancelled, we play Saturday instead" still plans Saturday."""
    spans = [m.span("x") for rx in (_CALLED_OFF, _IS_OFF, _MUST_CANCEL, _BUT_CANCELLED) for m in rx.finditer(sent.text)]
    return bool(spans) and all(any(d.pos < b and d.pos + len(d.phrase) > a or _SET_OFF.fullmatch(sent.text, b, d.pos)
                                   for a, b in spans) for d in sent.dates)


# A called-off thing's days said after it ("The Barretts have cancelled their Heron booking, 2-9
# October": read ahead, they had become a plan of those days).
_SET_OFF = re.compile(r"\s*,\s*(?:(?:from|between|on|for)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?",
                      re.IGNORECASE)


# Eating again what a diet leaves out ends that diet: "I'm back to eating fish" ends "is vegan"
# (and vegetarian); "started eating meat again" ends pescatarian too.
_BACK_TO_EATING = re.compile(
    r"\b(?:back\s+to\s+eating|started\s+eating|eating|eat|eats)\s+(?:some\s+)?(?P<food>meat|fish|seafood|chicken|"
    r"beef|pork|dairy|eggs|cheese|milk)\b(?:\s+again)?", _I)
_DIETS_WITHOUT = {"meat": ["vegan", "vegetarian", "pescatarian"], "chicken": ["vegan", "vegetarian", "pescatarian"],
                  "beef": ["vegan", "vegetarian", "pescatarian"], "pork": ["vegan", "vegetarian", "pescatarian"],
                  "fish": ["vegan", "vegetarian"], "seafood": ["vegan", "vegetarian"],
                  "dairy": ["vegan"], "eggs": ["vegan"], "cheese": ["vegan"], "milk": ["vegan"]}
# A plan dropped: "dropping the marathon, doing the Krakow 10k instead", "I've ditched the trip".
# (Not "dropping the kids off at school": a plan given up has nowhere it is taken.)
_DROPPED = re.compile(
    r"\b(?:dropping|ditching|giving\s+up\s+on|gave\s+up\s+on|not\s+doing)\s+"
    r"(?P<x>(?:(?i:my|our|the|this|that)\s+)(?:(?!\b(?:off|at|to|from|into)\b)[^.;:!?(),])+)"
    r"(?![\w\s]*\b(?:off|at)\b)",
    _I)
# Allowed again: "overhead pressing is fine again", "running is ok again".
_FINE_AGAIN = re.compile(r"(?:^|[,;:]\s+|\b(?:says|said|so)\s+)"
                         r"(?:(?P<x>[\w -]{3,30}?)\s+(?:is|are)\s+(?:fine|ok|okay|"
                         r"allowed|good\s+to\s+go|back\s+on)(?:\s+[\w-]+){0,4}?|"
                         r"it(?:'s|\s+is)\s+(?:fine|ok|okay)\s+to\s+(?P<x2>[\w -]{3,40}?))\s+(?:again|now)\b", _I)
# ("so visits before noon are fine now", "cats are fine at Harbour View now too", "it's fine to ring them again")
_CLEARED_BY = re.compile(r"\s+(?:says|said|told|thinks|reckons|confirmed)\b", _I)
# A plan given up for another: "I switched to a half marathon in April instead of the 10k".
_INSTEAD = re.compile(
    r"\b(?:switched|switching|changed|changing|moved|going|gone|went|doing|opted|decided|signed\s+up)\b"
    r"[^.;:!?]{0,60}?\binstead\s+of\s+(?P<x>[^.;:!?(),]+)", _I)
# A plan taken back by the one who made it, in the imperative: "Forget booking Luigi's, we'll
# eat at home", "never mind the Porto trip", "don't bother with the hotel", "cancel the table at
# Nopi". ("Forget what I said about ..." takes back a rule: _TAKEN_BACK.)
_NEVER_MIND = re.compile(
    r"(?:^|[,;:]\s+|\b(?:so|but|and)\s+)(?:(?:actually|ok|okay|oh|please|just)[,]?\s+)*"
    r"(?:forget(?:\s+about)?|never\s*mind(?:\s+about)?|don't\s+bother(?:\s+with)?|cancel)\s+"
    r"(?!(?:what|it|that|this|about|everything|all)\b)(?P<x>[^.;:!?(),]+)", _I)
_NOT_AFTER_ALL = re.compile(
    rf"{_NO}(?:going|flying|moving|travell?ing|heading|driving)\s+(?:back\s+)?(?:to\s+)?"
    r"(?P<x>[^.;:!?(),]+?)\s+(?:after\s+all|any\s*more)\b", _I)
# A to-do done: "I renewed my passport", "we finally booked the flights". The doing in its
# plain form, which the plan must name too.
_DONE_VERBS = {"booked": "book", "submitted": "submit", "finished": "finish", "sent": "send", "paid": "pay",
               "renewed": "renew", "bought": "buy", "filed": "file", "signed": "sign", "returned": "return",
               "completed": "complete", "posted": "post", "ordered": "order", "fixed": "fix",
               "registered": "register", "applied": "apply", "scheduled": "schedule", "protected": "protect",
               "chased": "chase", "emailed": "email", "called": "call", "rang": "ring", "cancelled": "cancel",
               "canceled": "cancel", "confirmed": "confirm", "arranged": "arrange", "collected": "collect",
               "replaced": "replace", "uploaded": "upload", "contacted": "contact", "wrote": "write",
               "written": "write", "updated": "update", "printed": "print", "shared": "share",
               "delivered": "deliver", "handed in": "hand", "published": "publish", "redid": "redo",
               "redone": "redo", "reran": "rerun", "rerun": "rerun", "tightened": "tighten", "drafted": "draft",
               "reviewed": "review", "tested": "test", "done": "do"}
_DONE = re.compile(
    r"(?<![\w'])(?:I|we)(?:'ve|\s+have)?\s+(?:(?:just|finally|already|now|actually|officially|eventually)\s+)*"
    rf"(?P<v>{'|'.join(v for v in _DONE_VERBS if v not in ('done', 'redone', 'rerun'))})\s+(?P<x>[^.;:!?(),]+)", _I)
# ... or said of the thing: "figure 3 is redone with the Hydra runs", "the invoices are all sent".
_NOT_DONE_THINGS = frozenset({"that", "this", "it", "everything", "all"})
_IS_DONE = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?P<x>(?:(?:the|my|our|his|her|their)\s+)?[\w-]+(?:\s+[\w-]+){0,3}?)\s+"
    r"(?:is|are|has\s+been|have\s+been|'s)\s+(?:(?:now|all|finally|already)\s+)?"
    r"(?P<v>redone|done|finished|sent|submitted|booked|paid|fixed|completed|uploaded|updated|rerun|drafted)\b"
    r"(?!\s+(?:with\s+(?:it|that|them)|for\s+the\s+day))", _I)
# A standing instruction taken back by the one who gave it (local/instructions.py): "forget what
# I said about aisle seats", "no need to book aisle seats any more", "you can schedule meetings
# before 9am again". Imperative: no subject before it, so whose is the speaker's.
_TAKEN_BACK = re.compile(
    r"(?:\b(?:forget|ignore|disregard|scrap|drop)\s+(?:what\s+I\s+(?:said|told\s+you)\s+about|"
    r"(?:my|the)\s+(?:rule|request|instruction|thing)\s+about)"
    r"|\bno\s+need\s+to\s+(?:always\s+)?(?=[^.;:!?]*\b(?:any\s*more|now)\b)"
    r"|\byou\s+can\s+(?:now\s+)?(?=[^.;:!?]*\bagain\b))\s*(?P<x>[^.;:!?(),]+)", _I)
_ERRAND_WORDS = frozenset(ERRANDS.split("|"))

# An event moved to another day ("launch slipped to November 2nd", "The Globex demo was moved
# to Friday"): its plan for the old day is over (the new day comes as a plan of its own,
# local/foresight.py). Said of the event, as its plan's text begins ("Launch is on ...").
_MOVED = re.compile(
    r"(?:^|[,;:]\s+|\band\s+|\bso\s+)(?P<x>(?:(?i:the|our|this|next)\s+)?(?:[\w'-]+\s+){0,3}?"
    rf"(?i:{lx.SCHEDULED_ALT}|renewal|deadline|due\s+date)){lx.EVENT_PARTY}"
    rf"\s+(?:(?:was|has\s+been|has|have|got|is\s+being|'s\s+been|is|'s)\s+)?(?:{lx.MOVED_VERBS})\s+"
    r"(?:(?:back\s+|out\s+|forward\s+)?(?:to|until|till)\b|again\s*(?:[,;]\s+it(?:'s|\s+is)\s+now\b|[.!]*$))", _I)
_MOVED_OURS = re.compile(
    r"(?:(?<![\w'])(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+)?|^"  # ("Rescheduled Kim's final to the 19th")
    # ... or moved for us ("Niall moved my appointment to ...", "The clinic had to move my ...")
    r"|(?:^|[,;:]\s+)(?:(?i:the|our|my)\s+[\w'-]+|(?-i:[A-Z][\w'-]*|they|he|she)(?:\s+(?-i:[A-Z][\w'-]*))?)"
    r"(?:\s+(?:has|have|had\s+to|needed\s+to|had|asked\s+to|asked\s+us\s+to|wants?\s+to|needs?\s+to))?\s+"
    r"(?:just\s+)?)"
    rf"(?:{lx.MOVED_VERBS}|move|reschedule|push|postpone)\s+"
    r"(?:the|our|my|[A-Z][\w-]*['’]s)\s+(?P<x>(?:[\w'-]+\s+){0,3}?"
    rf"(?i:{lx.SCHEDULED_ALT}))\s+(?:back\s+|out\s+|forward\s+)?(?:to|until|till)\b", _I)

# Someone's own time away moved ("I moved my PTO to December 28", "My leave got pushed to
# March"): their plan for the old days is over (the new days are a plan of their own). Not an
# event of the team's (_MOVED): one person's PTO is not another's.
_AWAY = r"pto|vacation|holidays?|leave|annual\s+leave|time\s+off|days?\s+off"
_MOVED_MINE = re.compile(
    rf"(?:(?<![\w'])(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:{lx.MOVED_VERBS})\s+(?:my|our)\s+(?P<x>{_AWAY})"
    rf"|(?:^|[,;:]\s+|\b(?:and|so)\s+)(?:my|our)\s+(?P<y>{_AWAY})\s+(?:(?:has|have|was|got)\s+(?:been\s+)?)?"
    rf"(?:{lx.MOVED_VERBS}))\s+(?:back\s+|out\s+|forward\s+)?(?:to|until|till)\b", _I)

# A dated thing's new day ("With Enterprise their renewal date is now November 12, 2027", "the
# launch is now on the 9th"): its plan or deadline for the old day is over, as a moved event's.
_NOW_ON = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so|their|our|my|the|its)\s+)(?P<x>(?:[\w'-]+\s+){0,2}?"
    rf"(?i:{lx.SCHEDULED_ALT}|renewal|deadline|due\s+date))(?:\s+date)?\s+(?:is|'s)\s+now\b", _I)

# Said by the team ("we", "our"), just before what is called off: "we called off the offsite",
# "We're not doing the Kafka migration", "our Lisbon offsite is off".
_BY_US = re.compile(r"(?:\b(?:we|we've|we're|we\s+have|we\s+are|we\s+had|we\s+decided\s+to)\s+(?:\w+\s+){0,2}"
                    r"|\bour\s+(?:\w+\s+){0,2})$", _I)
# ... or a doing given up: "We decided not to migrate to Kafka after all", "we won't be moving
# the billing service to AWS".
_NOT_ANY_MORE_US = re.compile(
    r"\bwe(?:'ve|\s+have)?\s+(?:(?:decided|agreed|chose)\s+not\s+to|(?:are|'re)\s+not\s+going\s+to|won't|"
    r"will\s+not)\s+(?:be\s+)?(?P<v>migrate|migrating|move|moving|switch|switching|launch|launching|hire|hiring|"
    r"build|building|go|going|run|running|hold|holding|do|doing)\s+(?P<x>[^.;:!?(),]+)", _I)
# ... or a thing no longer needed: "so we dont need the trestle after all" (the plan "Aisha will need the
# extra trestle table then" stayed active).
_NOT_NEEDED_US = re.compile(r"\bwe\s+(?:don'?t|do\s+not|won'?t|will\s+not)\s+need\s+(?:the\s+|that\s+|those\s+|any\s+)?"
                            r"(?P<x>[^.;:!?(),]+?)\s+(?:after\s+all|any\s*more|now)\b", _I)
_VERB_WORDS = {"migrating": "migration", "migrate": "migration", "moving": "move", "switching": "switch",
               "launching": "launch", "hiring": "hire", "building": "build", "going": "go", "running": "run",
               "holding": "hold", "doing": "do"}
# Words of a plan that say what it was, not which one: alone, they end nothing.
_GENERIC = frozenset("""trip trips plan plans flight flights visit holiday holidays vacation booking
reservation thing things going travel""".split())

# Words that every constraint of a kind holds, or that say when: they tell none apart.
_SAID_OF_EVERY = frozenset("allergy allergies allergic diet fear any more anymore now again either".split())


def foresight_ends(sent: _Sentence, reg: _Registry, recent: str | None) -> list[ForesightEndDraft]:
    text = sent.text
    out: list[ForesightEndDraft] = []

    def add(pos: int, words: list[str], kind: str, done: str | None = None) -> None:
        # A constraint wrongly ended is worse than one kept: its end needs someone said before it
        # ("I", "Tom", "she" with a "she"); "the Tokyo trip is off" is the speaker's plan.
        who = _subject_at(sent, reg, recent, pos, said_only=kind == "constraint")
        words = list(dict.fromkeys(w for w in words if w.lower() not in lx.STOPWORDS | _SAID_OF_EVERY))
        if who and words:
            out.append(ForesightEndDraft(who=who, words=words, kind=kind, turn_ids=[sent.t.turn.id], done=done))

    def by_us(which: list[str], doing: str | None = None) -> None:
        # The team's, whoever of it planned it: every word of what was called off (the words
        # themselves, not "trip"), and the doing given up, must be in the plan's text.
        named = [w for w in which if w.lower() not in lx.STOPWORDS | _SAID_OF_EVERY | _GENERIC]
        if named and not sent.t.assistant:
            needs = named + ([doing] if doing else [])
            out.append(ForesightEndDraft(who=sent.t.speaker, words=needs, kind="plan",
                                         turn_ids=[sent.t.turn.id], needs=needs, anyone=True))

    def content(x: str) -> list[str]:
        words = _WORD.findall(_chunk(x, _LIST_END, 6).lower())
        # "peanuts any more, I outgrew it": what ended stops where someone is said to do more
        cut = next((i for i, w in enumerate(words) if w in lx.PRONOUNS), len(words))
        return words[:cut]

    for m in _ALLERGY_NOT.finditer(text):
        add(m.start(), content(m.group("x")), "constraint")
    for m in ALLERGY_GONE.finditer(text):
        add(m.start(), _WORD.findall(m.group("x").lower()), "constraint")  # "my allergy": which?
    for m in _DIET_NOT.finditer(text):
        add(m.start(), [m.group("d").lower()], "constraint")
    for m in _FEAR_NOT.finditer(text):
        add(m.start(), content(m.group("x")), "constraint")
    for m in _EATS_AGAIN.finditer(text):
        add(m.start(), content(m.group("x")), "constraint")
    for m in _DOING_AGAIN.finditer(text):
        add(m.start(), [m.group("v").lower()], "constraint")
    for m in _CLEARED.finditer(text):  # "the physio cleared me to run again": whom it cleared
        whom = m.group("whom").lower()
        who = sent.t.speaker if whom == "me" else (recent if whom in ("him", "her") else None)
        if who and not sent.t.assistant:
            out.append(ForesightEndDraft(who=who, words=[m.group("v").lower()], kind="constraint",
                                         turn_ids=[sent.t.turn.id]))
    for m in _WITHDREW.finditer(text):  # "Sam Okafor withdrew": his start on 19 October is off
        said = m.group("who")
        if said.lower() in ("she", "he"):
            who = recent
        else:
            ent = reg.get(said)
            who = ent.name if ent is not None and ent.type == "person" else None
        if who:
            out.append(ForesightEndDraft(who=who, words=list(_STARTING), kind="plan", turn_ids=[sent.t.turn.id]))
    for m in _BACK_TO_EATING.finditer(text):
        if m.group(0).lower().startswith(("back", "started")) or m.group(0).lower().endswith("again"):
            add(m.start(), _DIETS_WITHOUT[m.group("food").lower()], "constraint")
    for m in _FINE_AGAIN.finditer(text):  # the speaker's, whoever cleared it ("the doctor says ...")
        words = [w for w in _WORD.findall((m.group("x") or m.group("x2")).lower())
                 if w not in lx.STOPWORDS | _SAID_OF_EVERY | lx.PRONOUNS]
        if words and not sent.t.assistant:
            out.append(ForesightEndDraft(who=sent.t.speaker, words=words, kind="constraint",
                                         turn_ids=[sent.t.turn.id]))
            # ... and of whom the sentence opens with: "Tomasz has moved to day shifts, so visits
            # before noon are fine now" ends "Tomasz Nowak's rule: ..." (instructions._rules)
            first = sent.opens_with(reg)
            if (first is not None and first.type == "person" and not first.speaker
                    and not _CLEARED_BY.match(sent.text, sent.mentions[0].end)):  # ("Diane says it's fine ...")
                out.append(ForesightEndDraft(who=first.name, words=words, kind="constraint",
                                             turn_ids=[sent.t.turn.id]))
    for rx in (_CALLED_OFF, _IS_OFF, _NOT_AFTER_ALL, _INSTEAD, _DROPPED, _MUST_CANCEL):
        for m in rx.finditer(text):
            which = _which(m.group("x"))
            add(m.start(), which, "plan")
            # (and "the farewell lunch at the Wykeham is off", said by Maggie of the lunch Gerry told: an event of
            # theirs, by every word that names it, when two or more do: "the Lisbon trip is off" is the speaker's)
            if _BY_US.search(text, 0, m.start()) or rx is _IS_OFF and m.group(0).lower().startswith(("the ", "our ")) \
                    and len([w for w in which if w.lower() not in lx.STOPWORDS | _SAID_OF_EVERY | _GENERIC]) >= 2:
                by_us(which)
            # Called off by its day, whoever said so: "The 9 December review is cancelled" ends
            # "Mr Hughes wants a 12-week review on 9 December", told by another.
            a, b = m.span("x")
            for d in sent.dates:
                if d.granularity == "day" and d.pos < b and d.pos + len(d.phrase) > a:
                    words = [w for w in which if w.lower() not in lx.DATE_WORDS and not w.isdigit()]
                    if words:
                        out.append(ForesightEndDraft(who=sent.t.speaker, words=words, kind="plan",
                                                     turn_ids=[sent.t.turn.id], day=d.start.isoformat()))
    for m in _NOT_ANY_MORE_US.finditer(text):  # "We decided not to migrate to Kafka after all"
        by_us(_which(m.group("x")), _VERB_WORDS.get(m.group("v").lower(), m.group("v").lower()))
    for m in _NOT_NEEDED_US.finditer(text):
        by_us(_which(m.group("x")))
    for m in _NEVER_MIND.finditer(text):
        # by its names when it has some: "cancel the table at Nopi" is not every table booked
        which = _which(m.group("x"))
        add(m.start(), [w for w in which if w[:1].isupper()] or which, "plan")
    for m in _TAKEN_BACK.finditer(text):
        # what the errand was about, not the errand ("book" is in every booking rule); whose it
        # is, when said, its foresight must name too ("no need to chase Tom's references any
        # more" ends the reminder about Tom's, not "don't contact Ana's employer for references"),
        # and a reminder asked for is a plan it ends as well.
        names = re.findall(r"\b([A-Z][\w-]+)['’]s\b", m.group("x"))
        words = [w for w in content(m.group("x")) if w not in lx.STOPWORDS | _SAID_OF_EVERY | _ERRAND_WORDS
                 and w.rstrip("'’s") not in {n.lower() for n in names}]
        if words:
            for kind in ("constraint", "plan") if names else ("constraint",):
                out.append(ForesightEndDraft(who=sent.t.speaker, words=words, kind=kind,
                                             turn_ids=[sent.t.turn.id], needs=names))
    if (moved := _day_moved(sent)) is not None:
        out.append(moved)
    m = _MOVED.search(text) or _NOW_ON.search(text)
    mine = None if m else _MOVED_OURS.search(text)
    if m or mine:
        # Said of the event, its plan's text begins with it ("Launch is on ..."); moved by "we",
        # it is the speaker's plan ("Sam booked a demo with Globex on ...").
        # ("The gas safety check ... moved": "gas", as "The gas safety check is on ..." begins)
        first = re.sub(r"^(?i:so\s+|and\s+)?(?i:the|our|this|next)\s+", "", m.group("x")).split()[0] if m \
            else sent.t.speaker
        events = [w for w in _WORD.findall((m or mine).group("x").lower())
                  if w in lx.SCHEDULED_EVENTS or w in ("renewal", "deadline", "due")]
        # Where it is, said after its name or before, its plan's text must hold ("the gas check at
        # Flat 5 has moved" is not Flat 6's); and "The Oak Street inspection has moved" ends "The
        # inspection at 22 Oak Street is on ..." too (begun by the event, holding the place).
        party = (m.groupdict().get("party") or "") if m else ""
        place = [w for w in re.findall(r"\b(?:[A-Z][\w-]*|\d{1,4}[A-Za-z]?)\b", f"{(m or mine).group('x')} {party}")
                 if w.lower() not in lx.STOPWORDS | lx.SCHEDULED_EVENTS]
        if re.match(r"\d{1,4}[A-Za-z]?\s+[A-Z]", party):
            place.remove(party.split()[0])  # a house's number, said or not ("22 Oak Street")
        out.append(ForesightEndDraft(who=first[:1].upper() + first[1:], words=events, kind="plan",
                                     turn_ids=[sent.t.turn.id], needs=place))
        named = [w for w in _WORD.findall(m.group("x")) if w.lower() not in _MOVED_WORDS | {"deadline", "due"}
                 and w.lower() not in lx.STOPWORDS] if m else []
        if len(named) > 1:
            # whoever in the group gave its day, by every word of its name ("The licence renewal
            # deadline has been moved" ends "Carla's alcohol licence renewal is due by ...")
            by_us(named)
        if place and events and events[-1] != first.lower():
            out.append(ForesightEndDraft(who=events[-1].capitalize(), words=events, kind="plan",
                                         turn_ids=[sent.t.turn.id], needs=place))
    for m in _MOVED_MINE.finditer(text):
        away = (m.group("x") or m.group("y")).lower().split()
        # The plan of taking it ("I'm taking PTO from December 21"), not one made before it ("I'll
        # write the runbook before my PTO", which ended with it): taking is the doing it needs.
        out.append(ForesightEndDraft(who=sent.t.speaker, words=[w for w in away if w not in ("off", "annual")],
                                     kind="plan", turn_ids=[sent.t.turn.id], done="take"))
    for m in _DONE.finditer(text):
        # the thing done, by any word: "the flights" is enough once the plan also books
        add(m.start(), _which(m.group("x"), keep_generic=True), "plan", _DONE_VERBS[m.group("v").lower()])
    for m in _IS_DONE.finditer(text):  # (the speaker's, who did it or says it is done)
        words = [w for w in _which(m.group("x"), keep_generic=True)
                 if w.lower() not in lx.STOPWORDS | _SAID_OF_EVERY]
        if words and m.group("x").split()[0].lower() not in lx.PRONOUNS | _NOT_DONE_THINGS:
            out.append(ForesightEndDraft(who=sent.t.speaker, words=words, kind="plan", turn_ids=[sent.t.turn.id],
                                         done=_DONE_VERBS[m.group("v").lower()]))
    return out


# A day moved from another ("the oven service is moved from 9 December to Friday 11 December") or
# corrected ("the Okafor booking is on Sunday 13 December, not Saturday 12", "exchange is 10
# December, not 11"): the plans of the group that gave the old day, and hold a word of what moved.
_FROM_DAY = re.compile(rf"\b(?:{lx.MOVED_VERBS}|changed|brought\s+forward|switched)\s+(?:back\s+)?from\s+$", _I)
_FROM_NUMBER = re.compile(rf"\b(?:{lx.MOVED_VERBS}|changed|brought\s+forward)\s+"
                          r"(?:(?:the|our|my|their|its)\s+(?:[\w'-]+\s+){0,3}?)?"  # ("extended the deadline from")
                          r"from\s+(?:the\s+)?(?P<d>\d{1,2})"
                          r"(?:st|nd|rd|th)?\s+to\s+(?:the\s+)?$", _I)
_NOT = r"\s*,?\s+(?:(?:and\s+)?not|instead\s+of|rather\s+than)\s+(?:on\s+)?"
_NOT_DAY = re.compile(rf"{_NOT}(?:the\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?"
                      r"(?P<d>\d{1,2})(?:st|nd|rd|th)?\b(?!\s*(?:[:.]\d|%|am\b|pm\b|[a-z]))", _I)
_MOVED_WORDS = frozenset({"sorry", "correction", "got", "wrong", "earlier", "moved", "now", "again", "date", "day",
                          "ill", "sick", "same", "time"} | set(lx.MOVED_VERBS.split("|")))


def _day_moved(sent: _Sentence) -> ForesightEndDraft | None:
    text = sent.text
    days = [d for d in sent.dates if d.granularity == "day"]
    old = new = None
    for i, d in enumerate(days):
        if _FROM_DAY.search(text, 0, d.pos) and i + 1 < len(days):
            old, new = d, days[i + 1]
            break
        if (bare := _FROM_NUMBER.search(text, 0, d.pos)) is not None:  # "moved from 14 to 21 December"
            try:
                old, new = d.start.replace(day=int(bare.group("d"))), d
            except ValueError:
                return None
            break
        said = _NOT_DAY.match(text, d.pos + len(d.phrase))
        if said is not None:
            try:
                old, new = d.start.replace(day=int(said.group("d"))), d
            except ValueError:
                return None
            break
        if i + 1 < len(days) and re.fullmatch(_NOT, text[d.pos + len(d.phrase):days[i + 1].pos], _I):
            old, new = days[i + 1], d
            break
    if old is None:
        return None
    old_day = old if isinstance(old, date) else old.start
    # what moved: the words before the new day, but who said so and why
    words = [w for w in _WORD.findall(text[:new.pos].lower())
             if len(w) > 2 and w not in lx.STOPWORDS | lx.DATE_WORDS | _MOVED_WORDS | _SAID_OF_EVERY
             and not w.isdigit()]
    if not words or old_day == new.start:
        return None
    return ForesightEndDraft(who=sent.t.speaker, words=words[-4:], kind="plan", turn_ids=[sent.t.turn.id],
                             day=old_day.isoformat())


def redated(sent: _Sentence, thing: str, old: str, new: str, plans: list[ForesightDraft]
            ) -> tuple[ForesightEndDraft, ForesightDraft | None, ForesightDraft | None]:
    """A day corrected in a sentence of its own ("Sorry, I mean 28 January", measures.corrected_day):
    the group's plans of `thing` on the `old` day end; this episode's one (of `plans`), if any, and
    itself on the `new` day, which replaces it (else nothing said that day would stay ahead)."""
    words = [w for w in _WORD.findall(thing.lower()) if len(w) > 2 and w not in lx.STOPWORDS | lx.DATE_WORDS][-4:]
    end = ForesightEndDraft(who=sent.t.speaker, words=words or [thing], kind="plan", turn_ids=[sent.t.turn.id],
                            day=old)
    said = next((d for d in sent.dates if d.granularity == "day"), None)
    was = next((f for f in reversed(plans) if f.kind in ("plan", "deadline") and old in f.text
                and any(w in f.text.lower() for w in end.words)), None)
    if was is None or said is None or was.valid_from is None:
        return end, None, None
    text = re.sub(rf"(?:\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:on\s+)?)?{old}(?: \([^)]*\))?",
                  f"{new} ({said.phrase.strip()})", was.text, count=1, flags=re.I)
    return end, was, replace(was, text=text, turn_ids=[*was.turn_ids, sent.t.turn.id],
                             trigger=was.trigger.replace(old, new),
                             valid_to=datetime.combine(date.fromisoformat(new) + timedelta(days=1), time(0, 0),
                                                       tzinfo=was.valid_from.tzinfo))


# A day corrected after a plan of the episode, no value's: "Gareth is coming back on Monday 23
# November at 9am" then "sorry no, he said Tuesday 24th, Monday he's in Bradford" (the Monday plan
# stayed, and came first for "When is the oven engineer coming back?").
_REPLANNED = re.compile(r"^(?:(?:sorry|oops|correction|my\s+mistake|my\s+bad|no|wait)\b[\s,:;!.-]*)+"
                        r"(?:i\s+meant?\s+|make\s+(?:that|it)\s+|it'?s\s+|it\s+is\s+|"
                        r"(?:he|she|they)\s+(?:said|says|meant)\s+)?"
                        r"(?:on\s+)?(?P<day>[^,;]+?)\s*(?:[,;.!]|$)", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_WEEKDAY_BEFORE = re.compile(rf"^(?:{lx.WEEKDAY_ALT})\s+(?=(?:the\s+)?\d)")


def replanned(sent: _Sentence, plans: list[ForesightDraft]
              ) -> tuple[ForesightEndDraft, ForesightDraft | None, ForesightDraft | None] | None:
    """The episode's last plan of a day (of `plans`) on the day a correction says instead (as
    `redated`), for a sentence whose first clause is only "sorry ..." and a day."""
    m = _REPLANNED.match(sent.raw.strip())
    days = [d for d in sent.dates if d.granularity == "day"]
    # (its weekday before the day's phrase: "sorry, I meant Friday 11th December, not Thursday")
    said = m.group("day").strip().lower() if m is not None else ""
    if m is None or len(days) < 1 or days[0].phrase.strip().lower() not in (said, _WEEKDAY_BEFORE.sub("", said)):
        return None
    was = next((f for f in reversed(plans) if f.kind in ("plan", "deadline") and _ISO.search(f.text)), None)
    if was is None:
        return None
    # the plan's day said last ("the clinic on the 19th is cancelled, they've rebooked Isla for Thursday
    # 10th December": the 10th, not the 19th)
    old, new = _ISO.findall(was.text)[-1], days[0].start.isoformat()
    thing = " ".join(w for w in _WORD.findall(_ISO.sub(" ", was.text))[:6])
    return redated(sent, thing, old, new, plans) if old != new else None


# A time corrected in a sentence of its own: "The market stall opens at 5pm on Saturday", then
# "sorry, I meant 5:30" (the plan had kept 5pm, and "Zoe meant 5" was a fact). A time is one with
# its minutes or its am/pm ("sorry, I meant 5" says no time).
_TIME = r"\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\d{1,2}:\d{2}\b"
_RETIMED = re.compile(r"^(?:(?:sorry|oops|correction|my\s+mistake|my\s+bad|no|wait|actually)\b[\s,:;!.-]*)+"
                      r"(?:i\s+meant?\s+|make\s+(?:that|it)\s+|it'?s\s+|it\s+is\s+|should\s+be\s+)?(?:at\s+)?"
                      rf"(?P<new>{_TIME})(?:\s*,?\s*(?:not|instead\s+of)\s+(?P<old>\d{{1,2}}(?::\d{{2}})?)"
                      r"\s*(?:am|pm)?)?[\s.!]*$", re.I)
_TIME_IN = re.compile(rf"(?<![\d:])(?:{_TIME})", re.I)


def retimed(sent: _Sentence, plans: list[ForesightDraft]) -> tuple[ForesightDraft, ForesightDraft, str, str] | None:
    """The episode's last plan told with a time (of `plans`), at the time a sentence of only
    "sorry ..." and a time says instead: (the plan, itself at the new time, the old time, the new)."""
    m = _RETIMED.match(sent.raw.strip())
    if m is None:
        return None
    was = next((f for f in reversed(plans) if f.kind in ("plan", "deadline") and _TIME_IN.search(f.text)), None)
    if was is None:
        return None
    old = _TIME_IN.search(was.text).group()
    if m.group("old") and not re.match(rf"{re.escape(m.group('old'))}(?!\d)", old):
        return None  # ("sorry, 4:15 not 3:45" of a plan at 5pm: another time's)
    new = " ".join(m.group("new").split())
    half = re.search(r"[ap]m", old, re.I)
    if half and not re.search(r"[ap]m", new, re.I):
        new += half.group().lower()  # ("5pm", then "5:30": 5:30pm)
    if new.replace(" ", "").lower() == old.replace(" ", "").lower():
        return None
    text = _TIME_IN.sub(new, was.text, count=1)
    return was, replace(was, text=text, turn_ids=[*was.turn_ids, sent.t.turn.id]), old, new


def _which(x: str, keep_generic: bool = False) -> list[str]:
    """The words of a plan's object that say which plan it is, not when: "the October trip to
    Shrewsbury" is Shrewsbury's."""
    skip = lx.DATE_WORDS | lx.COMMON_WORDS | {"my", "our", "the", "his", "her", "their", "this", "that"}
    return [w for w in re.findall(rf"(?:{LETTER}|\d)[\w'-]*", _chunk(x, _LIST_END, 6))  # "the 10k"
            if len(w) > 2 and not w.isdigit() and w.lower() not in skip
            and (keep_generic or w.lower() not in _GENERIC)]

