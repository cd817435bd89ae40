"""The episode: facts, foresight, entities, then title, summary, keywords and importance."""
from __future__ import annotations

import logging
import re
from datetime import date, datetime, timezone
from dataclasses import replace
from typing import Sequence

from app.construction import lexicon as lx
from app.store.term_stats import stem
from app.domain.models import EntityDraft, Extraction, FactDraft, ForesightDraft, ForesightEndDraft, TurnRecord
from app.construction.local.bounds import (
    MAX_FACTS, MAX_FACTS_PER_TURN, MAX_FORESIGHTS, MAX_FORESIGHTS_PER_TURN, MAX_KEYWORDS, MAX_SUMMARY_CHARS,
    MAX_TITLE_CHARS)
from app.construction.local.text import _WORD, _clip, _content_score, held_number, put_instead, said_meridiem
from app.construction.local.voice import OBJECT_PRONOUN, _Voice
from app.construction.local.inline_dates import ISO_DAY, _unplace, _with_placeholders
from app.construction.local.entities import (
    _APPOS, _Registry, _caps_after_first, find_entities, kin_gender, known_words, vote_known)
from app.construction.local.sentence import _Sentence, _Turn
from app.construction.local.fact_patterns import _FIRST
from app.construction.local.nicknames import find_nicknames
from app.construction.local.lowercase import _discover_lowercase, _known_in_lowercase, _known_names
from app.construction.local.assignments import assignments, it_moved, tells_move
from app.construction.local.measures import (
    SLIP_LEAD, SUM, attribute_key, corrected_day, correction_of, day_said_alone, measures, number_said_again,
    renamed_value, sum_said_again, time_said_again,
)
from app.construction.local.medication import CLINICIAN, medication, names_a_dose
from app.construction.local.parse import each_slot, employer, later_single, parse_sentence
from app.construction.local.foresight import _constraint, _plan, allergy_of, day_plan, draft, suggested_day_plan
from app.construction.local.instructions import always_with, contact_by, forbids_given, instructions, preferences, rules
from app.construction.local.reminders import reminder
from app.construction.local.slips import retract_slips
from app.construction.local.switches import switched_to
from app.construction.local.answers import answered_allergy, asked_allergy
from app.construction.local.foresight_end import called_off, foresight_ends, redated, replanned, retimed
from app.construction.local.turn_sentences import (
    _ASSISTANT_ROLES, _GREETING, _LIFE, _REACTION, SMALL_TALK, _aware, _sentences, _without_mentions,
    assistant_chatter)
from app.construction.local.facts import _CLAUSE_JOIN, _companion, _fact, _fact_score

# "My manager is ", "Our landlord was ": a role of the speaker's, then (a mention) who holds it.
_ROLE_IS = re.compile(r"(?:(?i:my|our)|[A-Z][\w-]*['’]s)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+"
                      # (where the holder is: "My rep at Edmundson's is Dave Morgan")
                      r"(?:(?i:at|from|with)\s+[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,2}\s+)?(?i:is|was)\s+")

log = logging.getLogger(__name__)


def _keywords(sents: list[_Sentence], reg: _Registry) -> list[str]:
    ent_count: dict[str, int] = {}
    ent_first: dict[str, int] = {}
    name_words: set[str] = set()
    for e in reg.by_key.values():
        name_words.update(_WORD.findall(e.name.lower()))
    speakers = {e.name.lower() for e in reg.by_key.values() if e.speaker}
    word_count: dict[str, int] = {}
    word_first: dict[str, int] = {}
    pos = 0
    for s in sents:
        for mm in s.mentions:
            ent = reg.get(mm.key)
            if ent and not ent.speaker and "'s " not in ent.name:
                ent_count[ent.name] = ent_count.get(ent.name, 0) + 1
                ent_first.setdefault(ent.name, pos)
                pos += 1
        for w in _WORD.findall(_unplace(s.s1).lower()):
            w = w.strip("'-")
            if (len(w) < 3 or w in lx.STOPWORDS or w in lx.COMMON_WORDS or w in lx.INTERJECTIONS
                    or w in lx.PRONOUNS or w in lx.DATE_WORDS or w in name_words or w in speakers
                    or w.endswith("'s") or w.endswith("n't")):
                continue
            word_count[w] = word_count.get(w, 0) + 1
            word_first.setdefault(w, pos)
            pos += 1
    ents = sorted(ent_count, key=lambda n: (-ent_count[n], ent_first[n]))
    words = sorted(word_count, key=lambda w: (-word_count[w], word_first[w]))
    out: list[str] = []
    for n in ents[:5]:
        out.append(n.lower())
    for w in words:
        if len(out) >= MAX_KEYWORDS:
            break
        if w not in out:
            out.append(w)
    for n in ents[5:]:
        if len(out) >= MAX_KEYWORDS:
            break
        out.append(n.lower())
    return out[:MAX_KEYWORDS]


_WORDS = re.compile(r"[a-z0-9][a-z0-9'-]+")
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")


def _content_words(text: str) -> frozenset[str]:
    words = _WORDS.findall(_ORDINAL.sub(r"\1", text.lower()))  # "October 14th" as "October 14"
    return frozenset(w for w in words if w not in lx.STOPWORDS and w not in lx.INTERJECTIONS)


_MONTH_AND_DAY_WORDS = lx.MONTHS | lx.WEEKDAYS | lx.WEEKDAYS_SHORT
_MOVED_FROM_DAY = re.compile(rf"\b(?:{lx.MOVED_VERBS}|changed|moving)\b[^.;!?]*?\bfrom\s+(?:(?:{lx.WEEKDAY_ALT}),?\s+)?(?:the\s+)?$",
                             re.I)
# A list the assistant draws up under a label ("Nursery bag for Finn: nappies and wipes, two changes of clothes,
# his comforter, ..."): its suggestion, no one's memory (it had been the top hit for the nursery's address).
_LABELLED_LIST = re.compile(r"^[A-Z][\w' -]{2,40}:\s*[^.:;]+,[^.:;]+,[^.:;]+")


# How far back an assistant's summary is read: the turns since it last spoke, six at most.
_SUMMARISED_TURNS = 6


def _restates(s: _Sentence, told: dict[int, tuple[bool, frozenset[str], frozenset]]) -> bool:
    """An assistant's sentence whose words (three or more, no number) are, three in four, the
    users' since it last spoke: a confirmation, whose memory is the users' own sentences. With a day, the
    same day the user named and half its other words ("QBR with Brightwave on Thursday November
    12 at 3pm CET, noted." after "QBR with Brightwave is scheduled for next Thursday at 3pm")."""
    if _DEED_DONE.search(s.text):
        return False  # "I cancelled your Premium subscription" after "I want to cancel it": done now
    mine = _content_words(s.text) - _ACKNOWLEDGED
    # What the users said since the assistant last spoke (in a group, its summary gathers several:
    # "64 guests and a final RSVP deadline of 21 October." after "fine. 21 October, final", "guest
    # count right now is 64 confirmed", "wow ok"), else the last user turn.
    since: list[tuple[frozenset[str], frozenset]] = []
    for i in range(s.t.index - 1, max(-1, s.t.index - 1 - _SUMMARISED_TURNS), -1):
        if i not in told:
            continue
        assistant, words, days = told[i]
        if assistant:
            if since:
                break
            continue
        since.append((words, days))
    before = (frozenset().union(*(w for w, _ in since)), frozenset().union(*(d for _, d in since))) if since else None
    if len(mine) < 3 or before is None:
        return False
    # One word in two forms is one ("a peanut allergy" after "allergic to peanuts"): stemmed as
    # the keyword channel stems them.
    mine, before = {stem(w) for w in mine}, ({stem(w) for w in before[0]}, before[1])
    if any(w[0].isdigit() for w in mine):
        # A number or a day ("= £835", "the demo is on October 21"): what it worked out, or
        # says more plainly than the user did ("It's now the 21st instead"), is kept; the
        # user's own numbers echoed ("Updated: Northwind deal at $150k.") are not: under a
        # predicate of its own, the echo stayed current once the value changed.
        words = {w for w in mine if not w[0].isdigit()} - _MONTH_AND_DAY_WORDS
        if s.dates:
            # (not the day a thing moved from, which it recalls: "Updated: tech rehearsal moved from Sunday 29
            # November to Saturday 5 December" after "can we do Saturday 5 December 10-6?")
            same = {d.start for d in s.dates if not _MOVED_FROM_DAY.search(s.text, max(0, d.pos - 40), d.pos)} \
                <= before[1]
        else:
            same = {w for w in mine if w[0].isdigit()} <= before[0]
        return same and len(words) >= 2 and len(words & before[0]) >= 0.5 * len(words)
    # Marked as a confirmation ("Got it, ...", "..., noted."), half the user's words will do.
    return len(mine & before[0]) >= (0.5 if _CONFIRMS.search(s.text) else 0.75) * len(mine)


# An answer brought back, no reaction: "ok she says thursday 22nd at 6pm works" (it had been nothing).
_OK_SHE_SAYS = re.compile(r"^(?:ok|okay|right|so|oh)[,!]?\s+(?:she|he|they|(?-i:[A-Z])[\w'-]+)\s+(?:says?|said)\b", re.I)
# What an assistant's confirmation says besides the user's words ("Got it, a peanut allergy
# with an EpiPen", "Noted: ..."): no content of its own.
_ACKNOWLEDGED = frozenset("got it noted noting understood done sure okay ok perfect great thanks will do "
                          "keep mind updated".split())


# What the assistant did that the user asked for, told as done: the wish was the user's words, the
# deed is news ("I want to cancel my Snack Box Premium subscription." "I cancelled your Snack Box
# Premium subscription"; it was taken for a confirmation and nothing said it was cancelled).
_DEED_DONE = re.compile(
    r"(?:^|[,.;:!]\s+)(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|now\s+|already\s+)?(?:cancell?ed|upgraded|downgraded|"
    r"refunded|booked|reserved|rebooked|ordered|reordered|shipped|dispatched|sent|resent|scheduled|rescheduled|"
    r"closed|reopened|paused|renewed|applied|issued|escalated|processed|returned|moved|changed|unsubscribed|"
    r"credited|replaced|waived)\b", re.I)
_CONFIRMS = re.compile(r"^(?:got\s+it|noted|understood|okay|ok|sure|perfect|will\s+do)\b|\bnoted[.!]*$", re.I)


# An assistant's sentence that opens by confirming: what follows is what it was told ("Noted:
# Sofia is vegetarian and Marco doesn't drink"), whose memory is the users' turns, unless it says
# what it did ("Done, I booked Nopi for 8pm", "Done, your subscription is cancelled": "done"
# announces a deed, never confirms) or names a day, which it may have worked out
# ("Updated: the Globex demo is on May 21" after "It's now the 21st instead"; _restates).
_CONFIRMED = re.compile(
    r"^(?:got\s+it|noted|understood|will\s+do|okay|ok|perfect)(?:\s*[,.:;!\-]+\s*|\s+(?=(?:for\s+|on\s+)?(?:\d|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)))(?=\S)"
    r"(?!(?:I|I've|I\s+have|we|we've)\s+(?:just\s+|also\s+)?(?:booked|found|sent|made|set\s+up|added|scheduled|"
    r"cancell?ed|moved|ordered|paid|reserved|created|emailed|called|rebooked|changed)\b)", re.I)


# What follows an assistant's "Okay," with no verb is a summary of what it was told: "Okay,
# ceremony at 1:30pm on 12 June at Hartley Manor" (its day said in an earlier episode).
_VERBLESS = re.compile(r"(?<![\w'])(?:is|are|was|were|be|been|has|have|had|will|would|can|could|should|must|"
                       r"do|does|did|i|we|you|he|she|they|it)(?![\w])|'(?:s|re|ll|ve|d|m)\b|\w{3,}ed\b", re.I)
# ... and one that ends so, or reminds the user of it: "Thursdays for Hana, got it", "Remember
# Tom is in Lisbon, an hour behind" (not "Remember to bring your passport": a reminder).
_CONFIRMED_LAST = re.compile(r"[,;:\-\u2013\u2014]\s*(?:got\s+it|noted|understood|will\s+do)\s*[.!]*$|"
                             # ("Thursday at 5:45pm it is.": what it was told, agreed)
                             r"^[^.!?]{1,40}\s(?:it\s+is|it\s+shall\s+be|that\s+is)\s*[.!]*$", re.I)
_REMINDED = re.compile(r"^(?:and\s+|also\s+|just\s+)?(?:remember|don't\s+forget|do\s+not\s+forget)\s*,?\s+"
                       r"(?:that\s+)?(?!to\b)", re.I)


# An assistant's promise: "I'll follow up by Friday", "We will send the refund on Monday"
# (not "I'll keep that in mind", "I'll let you know if ...": no day of its own; nor "I will
# remind you about the dentist tomorrow": the user's appointment, the user's plan).
_PROMISED = re.compile(r"^(?:(?:and|also|so|then)\s+)?(?:I'll|I\s+will|I'm\s+going\s+to|we'll|we\s+will)\s+"
                       r"(?!(?:keep|note|remember|bear|remind|let\s+you\s+know\s+if)\b)", re.I)


# A wish a user tells the assistant it is there to carry out, now: "I'd like to file a complaint",
# "I want to speak to a supervisor", "I want to cancel my Premium box". No plan to remind of
# (they stayed open for weeks and filled every "what is coming up").
_ASKED_OF_HELP = re.compile(
    r"\b(?:I['’]d|I\s+would|I)\s+(?:really\s+)?(?:like|want|wish|need)\s+to\s+"
    r"(?:(?:file|make|lodge|raise|submit)\s+a\s+(?:formal\s+)?complaint|complain|speak\s+to|talk\s+to|cancel|"
    r"return|get\s+a\s+refund|upgrade|downgrade|unsubscribe|close\s+my)\b", re.I)


# A user's errand for the assistant ("Find me a hotel near the venue", "Pip, suggest a restaurant
# for Friday", "Please cancel the hotel search too"): a task, no memory of them (its plan or rule,
# when it has one, is foresight, found before). "Maya said suggest a restaurant ..." ranked first.
_ERRAND = re.compile(
    r"^(?:(?i:hey|hi|ok|okay|so|and|also|oh|ugh|um|hmm)[,!]?\s+)*(?:[A-Z][\w-]*,\s+)?(?:(?i:please|pls|plz)\s+)?"
    r"(?:(?i:can|could|would|will)\s+(?i:you|u|ya)\s+(?:(?i:please|pls|plz)\s+)?)?"
    r"(?i:find|book|suggest|recommend|search|look\s+up|look\s+for|check|cancel|show|send|order|get|"
    r"reserve|compare|plan|draft|write(?!\s+(?:to\s+)?(?:me|us)\b)|translate|summari[sz]e|upgrade|downgrade|renew|"
    r"resend|refund|track)\b")  # ("please write to me in Portuguese": how to be written to, no errand)
# A meeting the user asks the assistant to book, whose day a later short reply agrees ("can you book
# a call with Martha to go through the cover sketches?", "What time suits you?", "thursday 11am"):
# a plan of that day, which had been "Ines said on 2026-12-03 (Thursday) 11am".
_BOOK_ME = re.compile(
    r"\b(?i:book|set\s+up|schedule|arrange|organi[sz]e)\s+(?:(?i:me|us)\s+)?"
    r"(?P<x>(?i:a|an)\s+(?:[\w'-]+\s+){0,2}?(?i:call|meeting|catch-up|catchup|chat|appointment|session|lunch|"
    r"dinner|coffee|visit|review|demo|viewing|table|interview)"
    r"(?:\s+(?i:with)\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)?)")
_CLOCK_AT = re.compile(r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\b\d{1,2}:\d\d\b", re.I)


def _agreed_plan(s: _Sentence, reg: _Registry, what: str, asked: int) -> ForesightDraft | None:
    """The meeting asked for, on the day a short reply agrees ("thursday 11am"): a plan."""
    days = [d for d in s.dates if d.granularity == "day" and d.direction in ("future", "present")]
    if len(days) != 1 or len(s.text.split()) > 10:
        return None
    at = _CLOCK_AT.search(s.text)
    day = days[0].start.isoformat()
    text = f"{s.t.speaker} has {what[:1].lower()}{what[1:]} on {day} ({days[0].phrase.strip()})"
    return day_plan(s, reg, f"{text} at {at.group()}." if at else f"{text}.", day)


# An assistant's sympathy or cheer ("Sorry to hear that, a grey Monday", "Sounds like you deserve
# a rest this evening"): no memory of anyone's.
# ("Oh no, he's coached you for ages.", "Have a great gig tonight!": no one's memory either)
_SYMPATHY = re.compile(r"^(?:oh[,!]?\s+(?:no|dear)\b|(?:oh[,!]?\s+)?(?:(?:i'm\s+)?sorry\s+to\s+hear|sounds\s+like|glad\s+to\s+hear|"
                       r"that\s+sounds|what\s+a|good\s+luck|best\s+of\s+luck|enjoy|congrat|"
                       r"have\s+an?\s+(?:great|good|lovely|fab|fantastic|brilliant|amazing|wonderful|fun|safe)\b))", re.I)
# An assistant hailing whom it speaks to, a word or two and the name: "Sunday check-in, Mei!"
# (it was the fact "Vita said on <next Sunday> check-in, Mei").
_SALUTE = re.compile(r"^[\w'-]+(?:\s+[\w'-]+)?,\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s*!+$")
# Weather and tiredness, said in passing ("It's cold again this morning, I need more coffee",
# "Weather's finally nice today", "So tired today, long day"): no memory, unless more is said.
_PASSING = re.compile(
    r"^(?:(?:ugh|oh|well|so|and|wow|man)[,!]?\s+)*(?:(?:the\s+)?weather(?:'s|\s+is)|it's\s+(?:so\s+|really\s+|"
    r"freezing|boiling|pouring|raining|snowing|cold|hot|warm|grey|gray|sunny|windy|chilly|muggy|humid)|"
    r"(?:i'm|i\s+am|so)\s+(?:so\s+|really\s+|totally\s+)?(?:tired|exhausted|knackered|sleepy|wiped))", re.I)
# A sentence that only announces news to come: "More news on the house.", "Bit of a change with the carer.",
# "Quick update on the van".
_NEWS_OPENER = re.compile(r"^(?:(?:also|and|so|ok|okay|right|oh)[,!]?\s+)*(?:some\s+|more\s+|big\s+|good\s+|bad\s+|quick\s+|"
                          r"another\s+|an\s+|a\s+|bit\s+of\s+(?:an?\s+)?)?(?:news|update|change|development)s?\s+"
                          r"(?:on|about|with|re|from|regarding)\s+[^.!?,:]{1,40}[.!:]*$|"
                          # ... or named first: "gas check news too." (it had stood for its turn in search)
                          # (not how it is taken: "Great news!", "That's amazing news", "Cool news")
                          r"^(?:(?:also|and|so|oh)[,!]?\s+)*(?!(?:that'?s|it'?s|what|such|some|any|no|the|great|good|bad|"
                          r"amazing|big|fantastic|wonderful|awesome|exciting|sad|terrible|brilliant|lovely|best|worst|"
                          r"interesting|huge|cool|nice|happy|sad|excellent|incredible|super|really|very|so)\b)"
                          r"(?:[a-z][\w'-]*\s+){1,3}(?:news|update)s?"
                          r"(?:\s+(?:too|as\s+well|also))?[.!:]*$", re.I)
_PASSING_WORDS = frozenset("""weather grim nice lovely finally cold hot warm grey gray sunny rain raining rained
stopped since today morning tonight evening afternoon again need needs more coffee tea tired exhausted knackered
sleepy long day week monday tuesday wednesday thursday friday saturday sunday snow snowing windy freezing
boiling pouring chilly really so wiped""".split())


# A speaker giving their full name: "Hi, this is Marta Silva from Harbor", said by "Marta".
# "Hello, Elena Ruiz from Tidewater", "Elena Ruiz here", "It's Elena Ruiz".
_FULL = r"(?P<full>[A-Z][\w-]+(?:\s+[A-Z][\w-]+)+)"
_SELF_INTRO = (re.compile(rf"\b(?:[Tt]his\s+is|I'm|I\s+am|[Mm]y\s+name\s+is|[Ii]t's)\s+{_FULL}(?!['’\w])"),
               re.compile(rf"^(?:(?i:hi|hello|hey|morning|good\s+morning)[,!]?\s+)?{_FULL}"
                          r"(?=\s+(?:from|at|here)\b)"))


def _full_names(records: list[TurnRecord]) -> dict[str, str]:
    """Each speaker who says their full name in the episode, and that name: who says what is that
    person, not another of the first name ("Marta", once Marta Kowalski left, is Marta Silva)."""
    out: dict[str, str] = {}
    for r in records:
        name = " ".join(str(r.speaker or "").split())[:80]
        said = str(r.content or "")[:400]
        m = next((m for rx in _SELF_INTRO if (m := rx.search(said))), None) if name and " " not in name else None
        if m and m.group("full").split()[0] == name and len(m.group("full")) <= 80:
            out.setdefault(name, m.group("full"))
    return out


def _said_before(v, before: list) -> bool:
    """Whether value `v` was told already: the same subject and value, its attribute's first
    word the same ("goal is 7" after "goal grade is 7")."""
    head = v.predicate.split()[0]
    return any(p.subject == v.subject and p.obj == v.obj and p.predicate.split()[0] == head for p in before)


# What a user asks of the assistant: "I want you to ...", "can you ...", "whenever you help with a menu".
_TO_THE_ASSISTANT = re.compile(r"\b(?:want|need|like)\s+you\s+to\b|\bwhenever\s+you\b|"
                               r"^(?:\w+[,!]?\s+)?(?:can|could|would|will)\s+you\b", re.I)
_QUESTION_END = re.compile(r"\?\s*$")


def _to_the_assistant(content: str, helpers: set[str], before: _Turn | None) -> bool:
    """Whether a user's turn speaks to the assistant, so its "you" is no other user: the assistant called by name
    ("Morning Ada. Beth and I want you to keep track"), asked of ("One thing I want you to ALWAYS do though:
    whenever you help with a menu ..., label sesame"), or answered (its question the turn before)."""
    return (any(re.search(rf"\b{re.escape(h)}\b", content) for h in helpers) or bool(_TO_THE_ASSISTANT.search(content))
            or (before is not None and before.assistant and bool(_QUESTION_END.search(str(before.turn.content or "")))))


def _extract(records: list[TurnRecord], known: Sequence[EntityDraft] = ()) -> Extraction:
    full = _full_names(records)
    speakers: list[str] = []
    for r in records:
        name = " ".join(str(r.speaker or "").split())[:80] or "someone"
        name = full.get(name, name)
        if name not in speakers:
            speakers.append(name)
    helpers = {full.get(n, n) for r in records if str(r.role or "").lower() in _ASSISTANT_ROLES
               for n in [" ".join(str(r.speaker or "").split())[:80] or "someone"]}
    turns: list[_Turn] = []
    for i, r in enumerate(records):
        name = " ".join(str(r.speaker or "").split())[:80] or "someone"
        name = full.get(name, name)
        assistant = str(r.role or "").lower() in _ASSISTANT_ROLES
        others = [s for s in speakers if s != name]
        # (a user's "your" among two users and an assistant is the other user's: "Ollie is bumping your
        # weekly mileage to 55 km", said to Nadia)
        people = others if assistant else [s for s in others if s not in helpers]
        if not assistant and helpers and _to_the_assistant(str(r.content or ""), helpers, turns[-1] if turns else None):
            people = []
        other = people[0] if len(people) == 1 else None
        if other is None and assistant and turns and not turns[-1].assistant and turns[-1].speaker != name:
            other = turns[-1].speaker  # among several users, "your" is the one it answers
        turns.append(_Turn(turn=r, index=i, speaker=name, other=other, at=_aware(r.at), assistant=assistant))
    sents = _sentences(turns)
    known_caps: set[str] = set()
    for s in sents:
        known_caps |= _caps_after_first(s.text)
    known_caps |= known_words(known)
    reg = _Registry()
    speaker_set = set(speakers)
    for name in speakers:
        reg.add(name, {"person": 20.0}, speaker=True)
    before: _Sentence | None = None
    for s in sents:
        # the one person the turn's sentence before named ("Maya Patel joined. Her dad Raj ...")
        named = {e.name for mm in before.mentions if (e := reg.get(mm.key)) is not None
                 and e.type == "person" and not e.speaker} if before is not None and before.t is s.t else ()
        # (texted in lower case, its first letter is no name's: "flour's costing us more now" had made a person
        # "Flour", and "us" Tom and Flour)
        s.mentions = find_entities(s.text[:1].lower() + s.text[1:] if s.lowercase and _a_word(s) else s.text,
                                   _Voice(s.t.speaker, s.t.other), reg, known_caps, speaker_set,
                                   next(iter(named)) if len(named) == 1 else None)
        s.s1, s.rendered = _with_placeholders(s.text, s.dates, s.shifts)
        before = s
    lowercase = [s for s in sents if s.lowercase]  # most episodes have none: nothing to build
    for s in lowercase:
        _discover_lowercase(s, reg)
    in_lowercase = _known_names(reg) if lowercase else None
    # What each turn said, by its words: an assistant's "Demo with Globex on October 14 at
    # 2pm, noted." only says again what the user just said (_restates).
    told: dict[int, tuple[bool, frozenset[str], frozenset]] = {}
    for s in sents if any(s.t.assistant for s in sents) else ():  # (nothing to compare without one)
        if not s.t.assistant and _ERRAND.match(s.raw):
            continue  # "cancel that gamer pass": no memory, so "Done, your subscription is cancelled" is one
        was = told.get(s.t.index, (False, frozenset(), frozenset()))
        told[s.t.index] = (s.t.assistant, was[1] | _content_words(s.text), was[2] | {d.start for d in s.dates})
    for s in lowercase:
        if in_lowercase:
            s.mentions = _known_in_lowercase(s, in_lowercase, reg)
    vote_known(reg, known)
    reg.nicknames = find_nicknames(sents, reg)
    reg.merge()

    facts: list[FactDraft] = []
    scores: list[float] = []
    foresights: list[ForesightDraft] = []
    ends: list[ForesightEndDraft] = []
    seen_facts: set[str] = set()
    seen_fs: set[tuple[str, str]] = set()
    per_turn: dict[int, int] = {}
    fs_turn: dict[int, int] = {}
    recent: str | None = None
    # Whom the episode's last medication fact was for (not the speaker), and who was named last then.
    patient: tuple[str, str | None] | None = None
    asked = None  # the last question about allergies (answers.py)
    measured: list = []  # the values said so far (measures.py), which a correction may give anew
    held: list = []  # the single values parsed so far, whose name a correction may give anew
    last_org = org_named = None  # the organisation named last before the sentence, and in it
    # ... and the firm: an organisation or a name not yet known as one when said ("from the County Music
    # Library", an organisation once "our contact there" is read), whose post "the new contact" is
    last_firm = firm_named = None
    # An assistant takes part: what the user tells it always or never to do is a standing rule
    # (instructions.py); between people "don't tell Josh" is a secret of the moment, or a joke.
    helped = any(t.assistant for t in turns)
    told_of: tuple[int, str] | None = None  # (turn, user) the turn tells the assistant of as "he" or "she"
    held_by_thing: tuple[str, int] | None = None  # the thing (a pet) a constraint was said of last, and its turn
    users = sorted({t.speaker for t in turns if not t.assistant and t.speaker})
    assistants = {t.speaker for t in turns if t.assistant}  # (never a user's "she": "Wren you'll hear about her")

    def keep(fs: ForesightDraft, turn: int) -> bool:
        """`fs` kept, unless said already or its turn has said enough."""
        key = (fs.kind, fs.text.casefold())
        if key in seen_fs or fs_turn.get(turn, 0) >= MAX_FORESIGHTS_PER_TURN:
            return False
        seen_fs.add(key)
        fs_turn[turn] = fs_turn.get(turn, 0) + 1
        foresights.append(fs)
        return True

    errand = None  # (what, turn): the last meeting the user asked the assistant to book
    previous = None  # the sentence before, whatever came of it
    lately: list[str] = []  # the last few sentences' words (what a correction's old number was said of)
    measured_mark = 0
    people: list[str] = []  # persons named, the last first
    # (who did something to a "him"/"her" the episode never named, and when: "Dr Kowalski wants to see him", and
    # the next turn's "he's on Metacam for pain" is not the vet)
    did_to_unnamed: tuple[str, int, str] | None = None  # (doer, turn, "f"/"m" of the object)
    user_days: set = set()  # (month, day) the users' sentences said, which an assistant's confirmation may repeat
    marks = (0, 0, 0)  # how many facts, scores and foresights there were before the sentence before
    took_back = False  # whether the sentence before took back the one before it
    by_speaker: dict[str, set[str]] = {}  # each speaker's turns' ids (whose fact a correction may be)
    for t in turns:
        by_speaker.setdefault(t.speaker, set()).add(t.turn.id)
    takers: dict[str, str] = {}  # who takes each medication said (by its name in lower case)
    for s in sents:
        s_before, previous = previous, s
        lately = [*lately[-5:], s_before.text] if s_before is not None else lately
        measured_was, measured_mark = measured_mark, len(measured)  # (values before the sentence before)
        marks, was = (len(facts), len(scores), len(foresights)), marks
        taken_back, took_back = took_back, False
        if s_before is not None and s_before.t is s.t and not s.t.assistant and _RETRACTED.match(s.raw.strip()):
            # "our landlord is selling?? no just a rumour, ignore": what the sentence before said, unsaid
            # (unless it took back the one before it: "Manchester rejected him... no wait, Manchester
            # hasn't replied yet. ignore that" is the rejection's "ignore")
            if not taken_back:
                del facts[was[0]:], scores[was[1]:], foresights[was[2]:]
            marks = (len(facts), len(scores), len(foresights))
            continue
        in_turn = s_before is not None and s_before.t is s.t and not s.t.assistant
        meant = in_turn and _MEANT_AFTER_DOTS.match(s.raw.strip()) is not None and s_before.raw.rstrip().endswith(
            ("...", "…"))
        if in_turn and (_TAKEN_BACK.match(s.raw.strip()) or meant) and sum_said_again(s.raw) is None:
            # "I'll image them Monday before I leave... no wait I'm off Monday": the sentence before, unsaid,
            # and this one said in its place
            _unsay(facts, scores, foresights, was, s, whole=meant)
            marks, took_back = (len(facts), len(scores), len(foresights)), True
        try:
            # Whom "she" or "he" in this sentence can be: the person named last whom the pronoun
            # fits ("Ola Adeyemi is strong. Daniel Ferreira too. She's hard of hearing": Ola).
            # (never the one speaking: "she" is someone else)
            others = [p for p in people if p != s.t.speaker]
            if did_to_unnamed is not None and s.t.index - did_to_unnamed[1] <= 2 \
                    and _SUBJECT_PRONOUN[did_to_unnamed[2]].search(s.text):  # (his "he", not her "she")
                others = [p for p in others if p != did_to_unnamed[0]]
            if told_of is not None and told_of[0] == s.t.index:
                others = [told_of[1], *(p for p in others if p != told_of[1])]  # (the turn's "he" goes on: "... he
                # checks before every trip" had been Dr Okafor, named the turn before)
            if _TREATED.search(s.text):
                # ("She's been prescribed an EpiPen Jr": the patient, not the consultant; "his new consultant is
                # Dr Helen Strachan", "he is NOT allowed to drive if his sugar is under 5", after "his consultant
                # is Dr Martin Okafor": the other user, of whom the two tell the assistant, when no one else is)
                others = [p for p in others if not CLINICIAN.match(p)] or (
                    [u for u in users if u != s.t.speaker] if helped and len(users) == 2 else [])
                if others and others[0] in users:
                    told_of = (s.t.index, others[0])
            recent_before = _fitting(others, s.text) if others else None
            named_here = []
            for mm in s.mentions:
                ent = reg.get(mm.key)
                # (one who speaks in the group too, named by another, not called to: "Tomasz does
                # the art, he's in this chat too. he lives in Kraków" is Tomasz, not the man before)
                if ent and ent.type == "person" and ent.name not in assistants and not _a_family(s.text, mm.start, ent.name) \
                        and (not ent.speaker or (
                        ent.name != s.t.speaker and not _called(s.text, mm.start, mm.end))):
                    recent = ent.name
                    people = [ent.name, *[p for p in people if p != ent.name]][:8]
                    named_here.append((mm.end, ent.name))
                elif ent and ent.type == "thing":
                    named_here.append((mm.end, None))  # ("a lurcher called Dulse, Priya named her": the dog)
            people, did_to = _object_first(people, named_here, s.text)
            if did_to is not None:
                did_to_unnamed = (did_to[0], s.t.index, did_to[1])
            elif any(who for _, who in named_here):
                did_to_unnamed = None
            if (apposed := _APPOSED.match(s.text)) is not None and apposed["kin"].lower() in lx.KIN and (
                    head := next((who for end, who in named_here if end == apposed.end("head") and who), None)):
                # "Rob Hale, Zac's dad. He's got his FA emergency aid badge": he is Rob, whom the sentence
                # names, not Zac, named to say whose dad he is
                people = [head, *[p for p in people if p != head]]
            if recent_before in people and _pronoun_before_names(s.text, recent_before, named_here) \
                    and not _INTRODUCED.search(s.text):
                # "Kemi is moving in!" "Is she taking Jess's room?" "yep. she's a nurse": she whom the
                # question's "she" was, said before the name it holds, is still the one talked of
                people = [recent_before, *[p for p in people if p != recent_before]]
            if recent_before in people and _HIS_ROLE_IS.match(s.text):
                # "His neurologist is Dr Okafor at ...": "his" next is still the one the sentence was
                # about ("his medication must go in our hand luggage" is Leo's, not Dr Okafor's)
                people = [recent_before, *[p for p in people if p != recent_before]]
            last_org = org_named or last_org
            last_firm = firm_named or last_firm
            firms = [e for mm in reversed(s.mentions) if (e := reg.get(mm.key)) is not None
                     and e.type in ("organization", "thing", "place")]  # the last named first
            org_named = next((e.name for e in firms if e.type == "organization"), None)
            firm_named = org_named or (firms[0].name if firms else None)
            # A reminder asked for is a plan, often asked as a question ("Can you remind me to
            # call Mum on Sunday?"); the rules below skip questions.
            reminded = reminder(s) if not s.t.assistant and len(foresights) < MAX_FORESIGHTS else None
            foresaw = reminded is not None and keep(reminded, s.t.index)
            if helped and not s.t.assistant and (booked := _BOOK_ME.search(s.text)) is not None:
                errand = (booked.group("x"), s.t.index)  # "can you book a call with Martha ...?"
            elif helped and not s.t.assistant and not foresaw and not s.question and errand \
                    and 0 < s.t.index - errand[1] <= 3:
                # ... its day agreed in a short reply ("thursday 11am", "yes thursday works, 11am")
                agreed = _agreed_plan(s, reg, *errand)
                foresaw = agreed is not None and keep(agreed, s.t.index)
                errand = None if foresaw else errand
            if not s.t.assistant:
                user_days.update((d.start.month, d.start.day) for d in s.dates)  # (its year may be read otherwise)
            if s.question:
                asked = asked_allergy(s, reg) or asked
                continue
            constrained = False
            constraint: ForesightDraft | None = None
            answer = None
            if not s.t.assistant and len(foresights) < MAX_FORESIGHTS:
                ends.extend(foresight_ends(s, reg, recent_before))
                # "Mochi must NOT be given any sedatives ..." "she can't have anything with chicken in it": the cat a
                # rule was just said of, not the vet named before ("Fiona can't have chicken")
                pet = held_by_thing[0] if held_by_thing is not None and s.t.index - held_by_thing[1] <= 2 and (
                    _SHE.search(s.text) or _HE.search(s.text)) else None
                found = _constraint(s, reg, recent_before, pet)
                answer = None if found else answered_allergy(s, asked)
                if answer is not None:
                    found.append(allergy_of(s, *answer))
                if helped and not found:  # "Always book aisle seats for me", to an assistant
                    found.extend(draft(s, *told) for told in instructions(s, recent_before, reg) + preferences(s))
                elif helped or not found:  # "Mrs Patel is hard of hearing, text don't call": how to reach
                    # her too; and between people ("Rafael wants texts only, never call him before 10am")
                    found.extend(draft(s, *told) for told in contact_by(s, recent_before, reg))
                    if not helped and not found:  # a house rule told between people ("No dusty work at
                        # the house while he's home, so no sanding ... at weekends")
                        found.extend(draft(s, *told) for told in rules(s, reg, recent_before) or always_with(s, recent_before, reg))
                if (constrained_by := [f for f in found if f.kind == "constraint"]) and (
                        given := forbids_given(s)) and not any(w.rstrip("s") in f.text.lower() for f in found
                                                               for w in given) and not (
                        given <= lx.FOODS and any("food" in f.trigger.split(", ") for f in constrained_by)):
                    # ... and what is not to be given, beside why, unless said with it ("NO ibuprofen for Poppy, it
                    # sets off her asthma" had been only "Poppy has asthma."; not "Mia has a peanut allergy" twice,
                    # nor "I'm vegan, so no cheese": a food a diet or an allergy keeps out)
                    found.extend(draft(s, *told) for told in rules(s, reg, recent_before))
                # What a constraint holds until is no plan ("Dad is not allowed to drive until 14
                # December": the constraint ends then).
                plan = (_plan(s, reg, recent_before) if reminded is None and not called_off(s)
                        and not any(f.kind == "constraint" for f in found) else None)
                if plan is not None and helped and _ASKED_OF_HELP.search(s.text):
                    plan = None  # "I'd like to file a complaint": asked of the assistant, done there
                if plan is None and not found:
                    plan = suggested_day_plan(s, s_before, reg)
                if plan is not None:
                    found.append(plan)
                for fs in found:
                    if not keep(fs, s.t.index):
                        continue
                    foresaw = True
                    if fs.kind == "constraint":
                        constrained, constraint = True, constraint or fs
                        # (not "held", the values parsed so far: it had been clobbered, and a later sentence's
                        # held.append raised)
                        if (holder := reg.get(fs.text.split(" ", 1)[0])) is not None and holder.type == "thing":
                            held_by_thing = (holder.name, s.t.index)
                foresights = foresights[:MAX_FORESIGHTS]
            elif (s.t.assistant and len(foresights) < MAX_FORESIGHTS and _PROMISED.match(s.text)
                  and any(d.direction == "future" for d in s.dates)):
                # What the assistant promised for a day ("I'll follow up by Friday with the
                # tracking number"): its own plan, which the user will hold it to.
                plan = _plan(s, reg, recent_before)
                foresaw = plan is not None and keep(plan, s.t.index)
            if len(facts) >= MAX_FACTS or per_turn.get(s.t.index, 0) >= MAX_FACTS_PER_TURN:
                continue
            # "Squat 5RM is 80 kg", "sorry, 85 not 87": values that change, whatever else is said.
            fix = correction_of(s)
            # ("I'll order 50 red scarves" "sorry, 55 not 50": the scarves', which no value holds,
            # not the subs' £50 said before them)
            valued = measures(s, reg, measured, last_org, recent_before, firm=last_firm, correctable=not (
                fix is not None and s_before is not None and _said_number(fix[0], s_before.text)
                and len(measured) == measured_was))
            if not valued and not s.t.assistant and (renamed := renamed_value(s, held)) is not None:
                valued = [renamed]  # "sorry, Whitlock not Whitmore": the accountant said before, anew
            if s.t.assistant and valued and all(_said_before(v, measured) for v in valued):
                continue  # "Amir's target is now a 7", after "I've raised his target grade to 7": an echo
            if valued and fix is not None and not s.t.assistant and (said_last := _told_once(
                    facts, by_speaker[s.t.speaker], held_number(fix[0]))) is not None \
                    and not facts[said_last].single_valued:
                # "£285 in total, deposit of £40 due by 20 November" "sorry, deposit is £45 not £40": the value
                # is read anew, and the speaker's words just before, which held the old number, are said again
                _plans_said_instead(foresights, facts[said_last].turn_ids, fix[0], fix[1])
                _said_instead(facts, scores, said_last, fix[0], fix[1], s.t)
            # (a day said again is a value measures() read: only then is it looked for again)
            if valued and not s.t.assistant and (fixed := corrected_day(s, measured)) is not None:
                end, was, again = redated(s, fixed[0].subject, fixed[1], fixed[0].obj, foresights)
                ends.append(end)  # "Sorry, I mean 28 January": the plan of the day said before moves
                if was is not None and again is not None:
                    foresights[foresights.index(was)] = again
            elif not valued and not s.t.assistant and (again := replanned(s, foresights)) is not None:
                end, was, moved = again  # "sorry no, he said Tuesday 24th": the plan said before, that day
                if was is not None and (day := day_said_alone(s)) is not None and _day_said_already(
                        facts, set(was.turn_ids), day.start):
                    # "Wednesday the 19th" "Sorry I mean Thursday 19th": the day said, its weekday put right
                    _weekday_put_right(facts, foresights, set(was.turn_ids), day)
                    continue
                ends.append(end)
                if was is not None and moved is not None:
                    foresights[foresights.index(was)] = moved
                    _day_said_instead(facts, scores, s, set(was.turn_ids))  # (and its fact)
            elif not valued and not s.t.assistant and (timed := retimed(s, foresights)) is not None:
                was, moved, old, new = timed  # "sorry, I meant 5:30": the plan said before, at that time
                foresights[foresights.index(was)] = moved
                said_last = next((i for i in range(len(facts) - 1, -1, -1)
                             if facts[i].turn_ids[0] in was.turn_ids and old in facts[i].text), None)
                if said_last is not None:  # ... and its fact, told anew ("Zoe meant 5" was one)
                    _said_instead(facts, scores, said_last, old, new, s.t)
                continue
            elif not valued and not s.t.assistant and fix is not None and (
                    said_last := _told_once(facts, by_speaker[s.t.speaker] | _addressed(s, by_speaker),
                                            held_number(fix[0]))) is not None:
                # "Tom Reyes asked for 6 Dell Latitude 5450s" "sorry, not 6, he wants 8 of them": the
                # speaker's fact said last with that number (no value's), with the number said instead; or the
                # fact of the one the correction names ("advert can say 45k" "£32k Tom not 45 lol": Tom's)
                _said_instead(facts, scores, said_last, fix[0], fix[1], s.t)
                continue
            elif not valued and not s.t.assistant and (again := _said_again(s.raw)) is not None and (
                    said_last := _told_once(facts, by_speaker[s.t.speaker], again[1],
                                            latest=again[0][:1] in "£$€")) is not None:  # (a sum's slip: the last)
                # "Sent Pinewood invoice #1042 ..., $2,340" "wait no, it's $2,430."; "she's dropped my Tresiba to
                # 15 units from tonight" "no wait, 16.": the same, of a sum or a count
                resaid, other = again
                old = other.search(facts[said_last].text).group()
                if re.fullmatch(r"\d{1,2}:\d\d", resaid) and (half := re.search(r"[ap]m$", old, re.I)):
                    resaid += half.group()  # ("6pm", then "no wait, it's 6:30": 6:30pm)
                _plans_said_instead(foresights, facts[said_last].turn_ids, old, resaid)
                # (a sum decided on is said so, not a thought anew: "I was thinking £300" "actually let's make it
                # £400" had made "Tom was thinking £400")
                decided = {}
                if _LETS_MAKE.match(s.raw):
                    words = s.text.rstrip(" .")
                    decided = dict(subject=s.t.speaker, predicate="said", object=words,
                                   text=f"{s.t.speaker} said {words[:1].lower()}{words[1:]}.")
                _said_instead(facts, scores, said_last, old, resaid, s.t, **decided)
                continue
            elif not valued and not s.t.assistant and (code := _CODE_SAID_AGAIN.match(s.raw)) is not None and (
                    said_last := _told_once(facts, by_speaker[s.t.speaker] | _user_turn_before(s, s_before),
                                            like := _same_shape(code["new"]))) is not None:
                # "planning reference is 26/01873/HOUS" "no wait, it's 26/01837/HOUS - you swapped the 3 and the
                # 7": the code of that shape the fact said last holds, said again (by either user)
                old = like.search(facts[said_last].text).group()
                _plans_said_instead(foresights, facts[said_last].turn_ids, old, code["new"])
                _said_instead(facts, scores, said_last, old, code["new"], s.t)
                continue
            elif not valued and not s.t.assistant and (days := _DAYS_SAID_AGAIN.match(s.raw)) is not None and (
                    said_last := _told_once(facts, by_speaker[s.t.speaker], _DAY_LIST_SAID)) is not None:
                old = _DAY_LIST_SAID.search(facts[said_last].text).group()
                _plans_said_instead(foresights, facts[said_last].turn_ids, old, days["new"])
                _said_instead(facts, scores, said_last, old, days["new"], s.t)
                continue
            elif not valued and not s.t.assistant and (named := _NAME_NOT_THE_OLD.match(s.raw)) is not None and (
                    said_last := _told_once(facts, by_speaker[s.t.speaker],
                                            re.compile(rf"\b{re.escape(named['old'])}\b"))) is not None:
                # "Visa appointment booked! London consulate, ..." "no wait it's the VFS centre in Manchester, not
                # London.": the speaker's fact said last with the name, with the name said instead
                _plans_said_instead(foresights, facts[said_last].turn_ids, named["old"], named["new"])
                _said_instead(facts, scores, said_last, named["old"], named["new"], s.t)
                continue
            elif not valued and not s.t.assistant and _day_said_instead(
                    facts, scores, s, by_speaker[s.t.speaker] | _user_turn_before(s, s_before)):
                continue  # (a fact of no value's, no plan's: those moved above)
            elif not valued and not s.t.assistant and (place := _NAME_SAID_AGAIN.match(s.raw)) is not None and (
                    said_last := _told_once(facts, by_speaker[s.t.speaker],
                                            like := _name_like(place["new"]))) is not None:
                # "We've booked it ... at St Anne's church" "No wait, it's St Mary's, on Station Road": the
                # speaker's fact said last with a name of that kind, and its plan, with the name said instead
                old = like.search(facts[said_last].text).group()
                _plans_said_instead(foresights, facts[said_last].turn_ids, old, place["new"])
                _said_instead(facts, scores, said_last, old, place["new"], s.t)
                continue
            measured += valued
            # (the sentence before in the turn, or the speaker's turn just before: "the inspection has moved AGAIN",
            # then "Now it's Wednesday 9th December at 2pm")
            assigned = assignments(s, reg, before=s_before if s_before and (
                s_before.t is s.t or (s_before.t.speaker == s.t.speaker and s_before.t.index == s.t.index - 1
                                      and not s.t.assistant)) else None)
            measured += [a for a in assigned if a.predicate == "date is"]  # (a day a correction may give anew)
            if not foresaw and not s.t.assistant and not s.question and len(foresights) < MAX_FORESIGHTS:
                # a day ahead said as a thing's value and read as no plan: its plan ("It's 23 January now")
                dated = next((p for p in [*valued, *assigned] if p.predicate == "date is"), None)
                plan = day_plan(s, reg, _fact(s, dated, reg).text, dated.obj) if dated is not None else None
                foresaw = plan is not None and keep(plan, s.t.index)
            # "It's 995 not 975" of no value this episode said: the writer looks for the group's
            # value that holds 975 (construction/corrections.py)
            # (a value the sentence says itself: only the sayings that held the old number)
            fixes = None if s.t.assistant or fix is None else (*fix, "sayings") if valued else fix
            if fixes is not None and any(_said_number(fixes[0], said) for said in lately):
                # "I'll order 50 red scarves" "sorry, 55 not 50": the scarves', said just before, not a
                # stored value that holds 50 (the subs had become £55)
                fixes = None
            # "it's been moved again, now to Tuesday 1 December": the writer finds what it is
            moved_to = None if valued or assigned or s.t.assistant else it_moved(
                s, s_before if s_before is not None and s_before.t is s.t else None)
            # "I'm switching to Tomasz Nowak, Karen's too far away now": the writer finds whose value it is
            switch = None if valued or assigned or moved_to or s.t.assistant else switched_to(s, reg)
            valued_or_assigned = valued or assigned or fixes
            content = _content_score(_without_mentions(s.text, s.mentions))
            if (_GREETING.match(s.raw) and content < 2.0 or SMALL_TALK.match(s.text)) and not valued_or_assigned:
                continue
            if s.t.assistant and not foresaw and not valued_or_assigned and (
                    _SYMPATHY.match(s.raw) or _SALUTE.match(s.raw.strip())):
                continue  # "Sorry to hear that, a grey Monday", "Sunday check-in, Mei!": courtesy
            if s.t.assistant and (ok := _CONFIRMED.match(s.raw)) and (
                    not s.dates or ":" in ok.group(0) or all((d.start.month, d.start.day) in user_days
                                                              for d in s.dates)
                    or not _VERBLESS.search(s.raw, ok.end())):
                # "Got it, aisle seats from now on", "Noted: Sofia is vegetarian and ...": told again;
                # a summary after a colon with its days too ("Understood: €520 from November,
                # Brightwave stays at €450" was a fact "brightwave is €450"); its days the user's
                # ("Okay, a cake for the Okafor table on 12 December")
                continue
            if s.t.assistant and not foresaw and (_CONFIRMED_LAST.search(s.raw) or _REMINDED.match(s.raw)):
                continue
            if helped and not s.t.assistant and not foresaw and not valued_or_assigned and _ERRAND.match(s.raw):
                continue  # an errand for the assistant: a task, no memory
            if not foresaw and not valued_or_assigned and _PASSING.match(s.raw) and not (
                    {w for w in _content_words(s.raw) if not w[0].isdigit()} - _PASSING_WORDS):
                continue  # the weather, a long day
            if not foresaw and not valued_or_assigned and _NEWS_OPENER.match(s.raw):
                continue  # "More news on the house.": what the news is follows (it had been the top hit, empty)
            # (a medication with its dose names a thing: "Felodipine, 5mg every morning.")
            named = any(not (reg.get(m.key) and reg.get(m.key).speaker) for m in s.mentions) or names_a_dose(s.text)
            bonus = (1.0 if (named or s.dates) else 0.0) + (0.5 if _FIRST.match(s.text) else 0.0)
            if SUM.search(s.text):
                bonus += 0.5  # a sum says what it is ("The Patels agreed £281,500!" had been too short to keep)
            if len({reg.root(m.key) for m in s.mentions if not (reg.get(m.key) and reg.get(m.key).speaker)}) > 1:
                bonus += 0.5  # "Luna and Oliver!" (their pets' names, asked): names said together say who
            if any(_APPOS.match(s.text, m.end) for m in s.mentions):
                bonus += 1.0  # "Priya is my sister.": who someone is, though every word is a mention
            elif (role := _ROLE_IS.match(s.text)) and any(m.start == role.end() for m in s.mentions):
                bonus += 1.0  # "My manager is Carlos Ruiz.": the same, said the other way round
            if content + bonus < 1.5 and not foresaw and not valued_or_assigned:
                continue
            s.companion = _companion(s, reg)
            parse = parse_sentence(s, reg, recent_before)
            if parse.single and not s.t.assistant:
                held.append(parse)
            if parse.kind == "reported" and not foresaw and not valued_or_assigned and (
                    _greeting_alone(s.raw)
                    or (_REACTION.match(s.text) and content < 3.0 and not _OK_SHE_SAYS.match(s.text))
                    or (not (named or s.dates) and content < 2.0)
                    # two words of no one's ("Florist sorted!": the top hit for "Who is our florist?")
                    or (not (named or s.dates) and len(s.text.split()) <= 2)):
                continue
            # (an assistant setting someone's value, "Our sessions are Tuesdays at 5pm" to Samuel,
            # is no chatter; a sum it suggests, "venue and catering: £8,500", no one's, is)
            if s.t.assistant and not foresaw and (not _owned(valued, assigned) and assistant_chatter(
                    parse.kind, parse.predicate, named or bool(s.dates), f"{parse.predicate} {parse.obj}")
                    or _restates(s, told) or _LABELLED_LIST.match(s.raw)):
                continue
            parses = each_slot(parse, s, reg)  # ("Lily is tuesdays at 4pm, Oscar mondays 5pm, ...")
            # "I used to live in Chicago but now I'm based in Austin"; "we moved to Bristol and I
            # now work at Harbourline": the later clause's value is a fact of its own, else the
            # old job would stay current.
            extra = later_single(s, reg, 1)
            if extra is not None and (not parse.single or extra.predicate != parse.predicate):
                parses.append(extra)
            post = employer(s, reg, parse)
            if post is not None and all(p.predicate != post.predicate for p in parses):
                parses.append(post)
            # "Dr. Lee has him on metformin. He takes ...": he is whom that medication was for,
            # while no one else has been named since.
            taken = medication(s, reg, patient[0] if patient and patient[1] == recent_before else recent_before, takers)
            takers.update((t.obj.lower(), t.subject) for t in taken if t.predicate == "takes")
            if taken:  # "Raj takes 10 units of Lantus every night": "Raj | takes | Lantus"
                whom = {t.subject for t in taken}
                for_whom = next((t.subject for t in reversed(taken) if t.subject != s.t.speaker), None)
                patient = (for_whom, recent) if for_whom else patient
                said = {t.predicate for t in taken}  # "He takes ...": told of whom medication says
                # (a dose said is the sentence's fact: "Dr Helen Okafor said to drop the warfarin to 4mg" had also
                # stayed a current fact of the doctor's, its 4mg beside the new dose)
                dosed = any(t.predicate.endswith(" dose is") for t in taken)
                parses = [p for p in parses if p.subject not in whom and p.predicate not in said
                          and p.kind != "reported" and not p.subject.startswith(tuple(f"{w}'s " for w in whom))
                          and not (dosed and not p.single)] + taken
                measured += [t for t in taken if t.single]  # (a dose a correction may give anew: "sorry, 10mg not 15")
            if assigned:  # "Dev is taking over billing from Ben": billing's owner, not a fact of Dev's;
                # a person's one-value thing said beside it stays ("..., and I live in Leeds now").
                kept = [p for p in parses if p.single and p.kind != "reported"
                        and p.subject not in {a.obj for a in assigned}]
                # ... and a clause of the speaker's own before every assignment ("I work on the
                # payments service now, Marco owns billing"), told up to where they begin.
                first = min(a.clause for a in assigned)
                if (first > 0 and parse.clause == 0
                        and parse.kind in ("speaker", "other", "name", "kin", "possession")
                        and parse not in kept and parse.subject not in {a.obj for a in assigned}):
                    obj = parse.obj
                    head = " ".join(s.s1[first:].split()[:2])
                    if head and obj.find(head) > 0:
                        obj = _CLAUSE_JOIN.sub("", obj[:obj.find(head)])
                    kept.insert(0, replace(parse, until=first, obj=obj))
                parses = kept + assigned
            if valued:  # the values, and what else the sentence says of one value at a time
                # (an appointment's slot told with whom, "Physio is every Tuesday at 18:00 with Ana
                # Sousa": the sentence stays a fact of its own, or Ana went with the old slot)
                with_whom = any(v.predicate.endswith(" schedule is") for v in valued) and any(
                    (e := reg.get(mm.key)) is not None and e.type == "person" and not e.speaker
                    for mm in s.mentions)
                # ("Our budget is £420,000": the group's "budget | is", not also the speaker's)
                parses = [p for p in parses if (p.single and p.kind != "reported" or with_whom)
                          and all(p.predicate not in (v.predicate, f"{v.subject} is")
                                  and (v.predicate != "is" or p.subject != v.subject)
                                  and v.predicate != f"{p.subject} is"
                                  # ("our total budget ... is £25,000": the budget's, not also a "total budget")
                                  and not (p.predicate.endswith(" is") and v.predicate == "is"
                                           and attribute_key(p.predicate[:-3]) == attribute_key(v.subject))
                                  # ("We switched caterers to Harvest & Vine Catering": one fact)
                                  and not (p.predicate == "uses" and v.obj.startswith(p.obj))
                                  for v in valued)] + valued
            for p in parses:
                f = _fact(s, p, reg)
                if fixes is not None and p is (valued[0] if valued else parses[0]):
                    f = replace(f, corrects=fixes)
                if switch is not None and p is parses[0]:
                    f = replace(f, switches_to=switch)
                if moved_to is not None and p is parses[0]:
                    f = replace(f, moves_to=moved_to)
                    if s_before is not None and s_before.t is s.t and tells_move(s_before.text):
                        # the move told in the sentence before ("NICEIC moved."): its words name the event
                        f = replace(f, text=f"{s_before.text.rstrip(' .!')}: {f.text}")
                elif p is parses[0] and s_before is not None and s_before.t is s.t and not s_before.t.assistant \
                        and _NEWS_OPENER.match(s_before.raw) and not f.text.startswith(s_before.text.rstrip(" .!:")):
                    # ... or the news its turn opened with, said of nothing else ("gas check news too. Gary's retiring
                    # ... so he passed us to Marek Kowalski"): its words say what the news is of
                    f = replace(f, text=f"{s_before.text.rstrip(' .!:')}: {f.text}")
                if valued and with_whom and not p.predicate.endswith(" schedule is"):
                    # ... told without the slot, which its own timeline holds ("Tomás said physio is
                    # with Ana Sousa at the clinic in Boavista": no Tuesday current beside Thursday)
                    for v in valued:
                        if v.predicate.endswith(" schedule is"):
                            slot = re.compile(rf"\s*(?:(?:every|each|on)\s+)?{re.escape(v.obj)}", re.I)
                            f = replace(f, text=slot.sub("", f.text), object=slot.sub("", f.object))
                if constraint is not None and (answer or (p.kind == "reported" and len(s.text.split()) <= 2)):
                    # A constraint said alone ("vegetarian." in a request) was the fact "Agata
                    # said vegetarian.": the constraint says it better ("Agata is vegetarian."),
                    # as for an answer ("Yes, tree nuts." was "Ana said tree nuts.").
                    f = replace(f, text=constraint.text, predicate="is")
                elif reminded is not None and p.kind == "reported":  # "Lea said remind Lea to ..."
                    f = replace(f, text=reminded.text, predicate="asked to be reminded")
                key = f"{f.text}\x00{f.predicate}\x00{f.object}".casefold()
                if key in seen_facts or per_turn.get(s.t.index, 0) >= MAX_FACTS_PER_TURN:
                    continue
                seen_facts.add(key)
                per_turn[s.t.index] = per_turn.get(s.t.index, 0) + 1
                facts.append(f)
                scores.append(_fact_score(f, constrained))
        except Exception:  # noqa: BLE001 - one odd sentence must not cost the whole cell
            log.warning("local extractor skipped a sentence of turn %s", s.t.turn.id, exc_info=True)

    facts = retract_slips(facts, turns) + _last_days(facts, reg)
    # (the episode's title and summary say what held, not a value taken back)
    told = [(f, sc) for f, sc in zip(facts, scores) if not f.retracted]
    held, held_scores = [f for f, _ in told], [sc for _, sc in told]
    used = {reg.root(mm.key) for s in sents for mm in s.mentions}
    # and what a fact names besides ("Tomás takes lisinopril": the medication, said in lower case)
    used |= {e.key for f in facts for name, _ in f.entities if (e := reg.get(name)) is not None}
    entities = reg.drafts(used)
    keywords = _keywords(sents, reg)
    return Extraction(
        title=_title(held, held_scores, keywords, turns, sents),
        summary=_summary(held, held_scores, sents, turns),
        keywords=keywords,
        importance=_importance(facts, foresights, turns),
        facts=facts,
        entities=entities,
        foresights=foresights,
        foresight_ends=ends[:MAX_FORESIGHTS],
        tokens_used=0,
    )


_LETS_MAKE = re.compile(r"^(?:(?:actually|ok|okay|no|so)[\s,!.-]+)*let'?s\s+make\s+(?:it|that)\b", re.I)


# One brought in by name after what they are: "He's sorted us a dep though, Kieran Walsh, played with him in ..."
# (the "his" of "what's his number?" next is Kieran's, not the sorter's).
_INTRODUCED = re.compile(r"\b(?:a|an|our|my)\s+(?:new\s+)?[a-z]+(?:\s+(?:though|too|now))?,\s+[A-Z][a-z]+\s+[A-Z][a-z]+")


def _last_days(facts: list[FactDraft], reg: _Registry) -> list[FactDraft]:
    """A person's last day said is their leaving the group that day: "Jamie Fletcher is our sous chef ... His last
    day is Friday 30th October" (the post had stayed his after it; the writer ends the post a leaving ends:
    replacements.py)."""
    out = []
    for f in facts:
        if (f.predicate == "last day is" and f.single_valued and not f.retracted and ISO_DAY.fullmatch(f.object)
                and (e := reg.get(f.subject)) is not None and e.type == "person"):
            day = datetime.fromisoformat(f.object).replace(tzinfo=timezone.utc)
            out.append(replace(f, predicate="is leaving", object="us", single_valued=False, valid_from=day,
                               valid_from_until=None, text=f"{f.subject} is leaving: the last day is {f.object}."))
    return out


def _said_instead(facts: list[FactDraft], scores: list[float], told: int, old: str, new: str, t: _Turn,
                  **changed) -> None:
    """facts[told] with `new` said instead of `old` in turn `t` (and the fields `changed`): in its place when
    `t` said it (it was never so), else after it, the old one held until `t`."""
    f = facts[told]
    # (a time with its half of the day for one without: "kick off 10:30am", "10am not 10:30")
    swap = (lambda said: put_instead(said, old, new)) if said_meridiem(new) else (lambda said: said.replace(old, new, 1))
    again = replace(replace(f, text=swap(f.text), object=swap(f.object), subject=f.subject.replace(old, new, 1),
                            entities=[(new if name == old else name, role) for name, role in f.entities]), **changed)
    if f.predicate == "said" and f.subject != t.speaker and again.text.startswith(f"{f.subject} said "):
        # said right by the other ("no wait, it's 26/01837/HOUS - you swapped the 3 and the 7"): theirs, not
        # "Hannah said planning reference is 26/01837/HOUS"
        again = replace(again, subject=t.speaker, text=f"{t.speaker} said {again.text[len(f.subject) + 6:]}",
                        entities=[(t.speaker if name == f.subject else name, role) for name, role in again.entities])
    if f.turn_ids == [t.turn.id]:
        facts[told] = again
        return
    facts[told] = replace(f, valid_to=t.at)
    facts.append(replace(again, turn_ids=[t.turn.id], valid_from=t.at, valid_from_until=None))
    scores.append(scores[told])


# A place's name said again after a slip: "No wait, it's St Mary's, on Station Road."
_NAME_SAID_AGAIN = re.compile(r"^(?:(?i:no|wait|sorry|oops|actually)[\s,!.-]+)+(?i:it'?s|it\s+is)\s+"
                              r"(?P<new>(?:St\.?|Saint|The|Mount)\s+[A-Z][\w'’-]+|[A-Z][\w'’-]+\s+(?=[A-Z])"
                              rf"(?i:{lx.BUILDING_ALT}|{lx.STREET_ALT}))\b")


def _name_like(new: str) -> re.Pattern:
    """Another name of the kind of `new`: its first word the same ("St Anne's" for "St Mary's"), or its last
    ("Grand Hotel" for "Park Hotel"); a street's, either ("Quarry Road" for "Quarry Lane")."""
    first, last = new.split()[0], new.split()[-1]
    if first in ("St", "St.", "Saint", "The", "Mount"):
        return re.compile(rf"\b{re.escape(first)}\s+(?!{re.escape(new.split()[1])}\b)[A-Z][\w'’-]+")
    other_first = rf"\b(?!{re.escape(first)}\b)[A-Z][\w'’-]+\s+{re.escape(last)}\b"
    if last.lower() in lx.STREETS:
        return re.compile(rf"{other_first}|\b{re.escape(first)}\s+(?!{re.escape(last)}\b)(?=[A-Z])(?i:{lx.STREET_ALT})\b")
    return re.compile(other_first)


def _addressed(s: _Sentence, by_speaker: dict[str, set[str]]) -> set[str]:
    """The turns' ids of another speaker the sentence names by first name ("£32k Tom not 45 lol"), else none."""
    return {i for who, ids in by_speaker.items() if who != s.t.speaker and who.split()
            and re.search(rf"(?<![\w'-]){re.escape(who.split()[0])}(?![\w'-])", s.text) for i in ids}


def _told_once(facts: list[FactDraft], own: set[str], said: re.Pattern, several: bool = False,
               latest: bool = False) -> int | None:
    """The index of the one fact among the last few of the speaker's (`own`: their turns' ids)
    that `said` finds once (`several`: at least once); None when none or several facts do. With `latest`, of the
    latest turn that has any ("We're with PetGuard at £38.50 a month" "renewal is 1 November and they want £46.80
    a month" "no wait, £48.60": the second)."""
    told = [i for i in range(len(facts) - 1, max(-1, len(facts) - 9), -1)
            if facts[i].turn_ids[0] in own and (n := len(said.findall(facts[i].text))) and (n == 1 or several)]
    if latest and told:
        told = [i for i in told if facts[i].turn_ids[0] == facts[told[0]].turn_ids[0]]
    return told[0] if len(told) == 1 else None


def _another_day(said: date) -> re.Pattern:
    """A day written in a fact other than `said`, with its weekday before it and its words after it
    ("Tuesday 2026-12-08 (8th December)")."""
    return re.compile(rf"(?:\b(?i:{lx.WEEKDAY_ALT})\s+)?(?!{said.isoformat()})\b\d{{4}}-\d\d-\d\d(?:\s\([^)]*\))?")


def _day_said_instead(facts: list[FactDraft], scores: list[float], s: _Sentence, own: set[str]) -> bool:
    """Whether `s` says only a day, said instead of the day of the one fact among the last few of the
    turns `own` that has one, and that fact is told again with it: "put him in for Tuesday 8th December"
    "no wait, wednesday 9th"; "flying out on Friday 18th December" "no, it's the 19th, Saturday"."""
    day = day_said_alone(s)
    if day is None:
        return False
    if _day_said_already(facts, own, day.start):
        _weekday_put_right(facts, [], own, day)
        return True  # ("Wednesday the 19th" "Sorry I mean Thursday 19th")
    said_last = _told_once(facts, own, other := _another_day(day.start), several=True)
    if said_last is None:
        return False
    # (of a fact of two days, the one said last, but for the one it replaced: "the clinic on the 19th is cancelled,
    # they've rebooked Isla for Thursday 10th December" then "sorry, I meant Friday 11th December, not Thursday")
    text = facts[said_last].text
    days = [m for m in other.finditer(text) if not _REPLACED_DAY.search(text, 0, m.start())] or [*other.finditer(text)]
    _said_instead(facts, scores, said_last, days[-1].group(),
                  f"{day.start.isoformat()} ({day.phrase.strip()})", s.t, event_date=day.start)
    return True


def _as_new_day(day: date) -> re.Pattern:
    """`day` written in a fact as the day it is, not as one replaced ("instead of 2026-11-12"), with the words
    it was said in after it."""
    return re.compile(rf"(?<!instead of )(?<!rather than )(?<!not ){day.isoformat()}(?: \([^)]*\))?")


def _day_said_already(facts: list[FactDraft], own: set[str], day: date) -> bool:
    """Whether the last of the turns `own` that said a day said `day` as the new one."""
    return _told_once(facts, own, _as_new_day(day), several=True, latest=True) is not None


def _weekday_put_right(facts: list[FactDraft], foresights: list[ForesightDraft], own: set[str], day) -> None:
    """The day as said again (`day`, a DateMention) in place of the words the last of the turns `own` wrote it with:
    "The neutering is now on 2026-11-19 (on Wednesday the 19th)" told right, "(Thursday 19th)"."""
    said = _as_new_day(day.start)
    phrase = f"{day.start.isoformat()} ({day.phrase.strip()})"
    for i in range(len(facts) - 1, max(-1, len(facts) - 9), -1):
        if facts[i].turn_ids[0] in own and said.search(facts[i].text):
            facts[i] = replace(facts[i], text=said.sub(phrase, facts[i].text, count=1))
            break
    for i, fs in enumerate(foresights):
        if fs.turn_ids and fs.turn_ids[0] in own and said.search(fs.text):
            foresights[i] = replace(fs, text=said.sub(phrase, fs.text, count=1))


_REPLACED_DAY = re.compile(r"\b(?:instead\s+of|rather\s+than|not)\s+$")


def _a_word(s: _Sentence) -> bool:
    """Whether `s` opens with an English word no one is called, texted in lower case ("flour's", not
    "priya's", nor "Manchester" capitalised by its writer)."""
    first = re.match(r"[A-Za-z]+", s.text)
    w = first.group().lower() if first is not None else ""
    return bool(w) and w in lx.ENGLISH_WORDS and w not in lx.GIVEN_NAMES and re.search(rf"\b{w}\b", s.raw) is not None


def _user_turn_before(s: _Sentence, before: _Sentence | None) -> set[str]:
    """The id of the turn just before `s`'s, a user's, when `s` opens its turn."""
    return {before.t.turn.id} if before is not None and before.t is not s.t and not before.t.assistant \
        and before.t.index == s.t.index - 1 else set()


def _plans_said_instead(foresights: list[ForesightDraft], turn_ids: list[str], old: str, new: str) -> None:
    """The plans of the turns `turn_ids` that hold `old`, with `new` said instead."""
    for k, fs in enumerate(foresights):
        if fs.turn_ids == turn_ids and old in fs.text:
            foresights[k] = replace(fs, text=fs.text.replace(old, new, 1))


def _said_again(raw: str) -> tuple[str, re.Pattern] | None:
    """A sum or a count a sentence says alone after a word taken back, and what finds another of its kind."""
    if (resaid := sum_said_again(raw)) is not None:
        return resaid, _sum_other_than(resaid)
    if (resaid := number_said_again(raw)) is not None:
        # (a number of a code's length is a code's: "sorry no, 22047751", after "it's 22047715"; "sorry
        # typo, it's 4127" after "bib number is 4172")
        return resaid, _same_shape(resaid) if len(resaid) >= 4 and resaid.isdigit() else _count_other_than(resaid)
    if (resaid := time_said_again(raw)) is not None:
        return resaid, _time_other_than(resaid)
    return None


# A reference or code said again after a slip: "no wait, it's 26/01837/HOUS - you swapped the 3 and the 7".
_CODE_SAID_AGAIN = re.compile(SLIP_LEAD +
                              r"(?:(?i:it'?s|it\s+is|that'?s|should\s+be)\s+)?(?P<new>(?=[\w/-]*\d[\w/-]*\d[\w/-]*\d)"
                              r"[A-Za-z0-9]+(?:[/-][A-Za-z0-9]+)+)\b")


def _same_shape(code: str) -> re.Pattern:
    """Another code of `code`'s shape: its letters and digits in the same places, its separators the same."""
    shape = "".join(r"\d" if c.isdigit() else "[A-Za-z]" if c.isalpha() else re.escape(c) for c in code)
    # (not a year: "sorry, 4127" finds no 2026)
    return re.compile(rf"(?<![\w/-])(?!{re.escape(code)}(?![\w/-])|(?:19|20)\d\d(?![\w/-])){shape}(?![\w/-])")


def _time_other_than(said: str) -> re.Pattern:
    """A time of day other than `said` ("6pm" for "6:30"; not "6:30pm", nor a sum's or a date's number)."""
    return re.compile(rf"(?<![\d.,:/£$€#-])(?!{re.escape(said)}(?![\d:]))(?:\d{{1,2}}(?::\d\d)?\s?(?:am|pm)\b|"
                      r"\d{1,2}:\d\d\b)", re.I)


def _count_other_than(said: str) -> re.Pattern:
    """A number other than `said` that counts something ("15 units"; no day, hour, sum or code)."""
    return re.compile(rf"(?<![\d.,:/£$€#-])(?!{re.escape(said)}(?![\d.]))\d+(?:\.\d+)?(?![\d.,:/-])"
                      r"(?=\s*(?!(?:am|pm)\b)[a-z%])")


# A name said instead of another, both said: "no wait it's the VFS centre in Manchester, not London."
# (not a day's or a month's name: "sorry, I meant Friday 11th December, not Thursday" is a day said
# again, its "December" had taken the place of "Thursday")
# Weekdays said again ("Walks on Mondays and Thursdays" "no wait, Mondays and Fridays, she works from home on
# Thursdays"): the speaker's fact said last with a list of weekdays, with the list said instead.
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_DAY_LIST = rf"(?i:{_DAYS}(?:\s*(?:,|and|&|/|or)\s*{_DAYS})+)"
_DAYS_SAID_AGAIN = re.compile(SLIP_LEAD + rf"(?:(?i:it'?s|it\s+is|I\s+meant?|should\s+be)\s+)?(?P<new>{_DAY_LIST})\b")
_DAY_LIST_SAID = re.compile(rf"\b{_DAY_LIST}\b")

_NAME_NOT_THE_OLD = re.compile(r"^(?:(?i:no|wait|sorry|oops|actually)[\s,!.-]+)+(?:(?i:it'?s|it\s+is|I\s+meant?)\s+)?"
                               rf"[^.!?]*?\b(?!(?i:{lx.WEEKDAY_ALT}|{lx.MONTH_ALT})\b)(?P<new>(?-i:[A-Z])[\w'’-]+),?\s+"
                               rf"(?i:not)\s+(?!(?i:{lx.WEEKDAY_ALT}|{lx.MONTH_ALT})\b)(?P<old>(?-i:[A-Z])[\w'’-]+)\b")


def _sum_other_than(said: str) -> re.Pattern:
    """A sum of the currency `said` is in, another than it, and not one it went from ("from £45 to £50": the £50)."""
    return re.compile(rf"(?<!\bfrom\s)(?!{re.escape(said)}(?![\d,.]))(?={re.escape(said[0])}){SUM.pattern}")


def _greeting_alone(raw: str) -> bool:
    """A greeting with at most a name after it: "Welcome to Berlin Jun!", "Thanks for the
    advice" (no one's news), not "Hey Caroline, that roadtrip last weekend was insane", nor
    congratulations, which say what happened to whom ("congrats on Nate's win")."""
    return (bool(_GREETING.match(raw)) and not raw.lower().startswith("congrat")
            and len(raw.partition(",")[2].split()) <= 2)


def _owned(valued: list, assigned: list) -> bool:
    """Whether a sentence gives someone's or something's value (not only one said of no one)."""
    return bool(assigned) or any(p.predicate != "is" for p in valued)


def _best(facts: list[FactDraft], scores: list[float], n: int) -> list[int]:
    ranked = sorted(range(len(facts)), key=lambda i: (-scores[i], i))[:n]
    return sorted(ranked)


def _title(facts, scores, keywords, turns, sents) -> str:
    if facts:
        i = _best(facts, scores, 1)[0]
        text = facts[i].text.rstrip(".")
        if len(text) > MAX_TITLE_CHARS:
            for sep in ("; ", ", ", " (", " - "):
                cut = text.find(sep, 20)
                if 0 < cut <= MAX_TITLE_CHARS:
                    text = text[:cut]
                    break
        return _clip(text, MAX_TITLE_CHARS)
    if keywords:
        return _clip(", ".join(keywords[:4]).capitalize(), MAX_TITLE_CHARS)
    if sents:
        return _clip(sents[0].text, MAX_TITLE_CHARS)
    when = turns[0].at.date().isoformat() if turns else "an unknown date"
    return f"Conversation on {when}"


def _summary(facts, scores, sents, turns) -> str:
    if facts:
        parts: list[str] = []
        total = 0
        for i in _best(facts, scores, 4):
            text = facts[i].text
            if parts and total + len(text) + 1 > MAX_SUMMARY_CHARS:
                continue
            parts.append(text)
            total += len(text) + 1
        return _clip(" ".join(parts), MAX_SUMMARY_CHARS)
    lines = [f"{s.t.speaker}: {s.text}" for s in sents[:3]]
    if lines:
        return _clip(" ".join(lines), MAX_SUMMARY_CHARS)
    return ""


def _importance(facts, foresights, turns) -> float:
    if not facts and not foresights:
        return 0.1
    imp = 0.3
    if any(f.kind == "constraint" for f in foresights):
        imp += 0.25
    if any(f.kind in ("plan", "deadline") for f in foresights):
        imp += 0.15
    if any(_LIFE.search(f.text) for f in facts):
        imp += 0.25
    if any(f.single_valued for f in facts):
        imp += 0.1
    imp += min(0.15, 0.015 * len(facts))
    if all(t.assistant for t in turns):
        imp *= 0.7
    return round(min(1.0, max(0.05, imp)), 2)


# A sentence that takes back the one before it, in the same turn: "no just a rumour, ignore",
# "scratch that", "never mind".
_RETRACTED = re.compile(
    r"^(?:(?:no|nah|nope|oh|wait|sorry|actually|lol)\b[\s,!.?-]*)*(?:(?:it's|it\s+is|it\s+was|that's|was)\s+)?"
    r"(?:(?:just|only)\s+)?(?:a\s+rumou?r|ignore(?:\s+(?:that|this|me|it))?|never\s*mind|scratch\s+that|"
    r"forget\s+(?:that|it|I\s+said\s+(?:that|anything))|not\s+true|false\s+alarm)\b"
    r"(?:[\s,;:!.?-]*(?:ignore(?:\s+(?:that|this|me|it))?|sorry|lol|my\s+bad|never\s*mind))*[\s.!?]*$", re.I)


# ... or taken back by what is said in its place: "no wait, Manchester hasn't replied yet", "wait no,
# it's AAB", "actually no, Thursday's better".
_TAKE_BACK_WORDS = frozenset("no wait nah oh sorry actually".split())
# One named, then whose kin they are: "Rob Hale, Zac's dad".
_APPOSED = re.compile(r"^(?P<head>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?),\s+(?:[A-Z][\w'’-]+)['’]s\s+(?P<kin>[\w-]+)")
# ... or trailed off and said right: "Lost 2-2... I mean drew 2-2 with Pinner Park" (both had been facts).
_MEANT_AFTER_DOTS = re.compile(r"^(?:sorry[\s,]+)?I\s+mean(?:t)?\b[\s,:-]*\w", re.I)
_TAKEN_BACK = re.compile(r"^(?:(?:no+|nah|oh|sorry|actually)[\s,!.-]+wait|wait[\s,!.-]+(?:no+|nah|sorry|actually)|"
                         r"actually[\s,!.-]+no)\b[\s,!.:-]*\w", re.I)


def _unsay(facts: list[FactDraft], scores: list[float], foresights: list[ForesightDraft],
           since: tuple[int, int, int], taking_back: _Sentence, whole: bool = False) -> None:
    """What the sentence before `taking_back` said (its facts, scores and foresight from `since` on) of
    what that names, unsaid, a clause before it kept ("Pinewood laptops arrive tomorrow, I'll image them
    Monday ... no wait I'm off Monday": the arrival stays); all it said when it names none of it."""
    named = {w for w in _content_words(taking_back.raw) if not w[0].isdigit()} - _TAKE_BACK_WORDS
    gone = [i for i in range(since[0], len(facts)) if named & _content_words(facts[i].text)]
    gone_fs = [i for i in range(since[2], len(foresights)) if named & _content_words(foresights[i].text)]
    if not gone and not gone_fs:
        gone, gone_fs = list(range(since[0], len(facts))), list(range(since[2], len(foresights)))
    for i in gone:  # (the clause kept is said, as its verb was the other clause's)
        if (kept := _clause_before(facts[i].text, named)) is not None:
            facts[i] = replace(facts[i], subject=taking_back.t.speaker, predicate="said", object=kept.rstrip("."),
                               text=kept, single_valued=False)
    # (a fact of it that names none of it stays, for a day said instead to correct: "put him in for Tuesday 8th
    # December. no wait, wednesday 9th, ..."; all of it, trailed off and said right: "Lost 2-2... I mean drew 2-2")
    gone = [i for i in gone if whole or _content_words(facts[i].text) & named]
    facts[:] = [f for i, f in enumerate(facts) if i not in gone]
    scores[:] = [x for i, x in enumerate(scores) if i not in gone]
    foresights[:] = [f for i, f in enumerate(foresights) if i not in gone_fs]


def _clause_before(text: str, words: frozenset[str]) -> str | None:
    """`text` up to the clause that first names one of `words` (a clause of three words at least
    before it), ended as a sentence; None when it has none such."""
    hit = min((m.start() for w in words for m in [re.search(rf"\b{re.escape(w)}\b", text, re.I)] if m), default=None)
    cut = max((m.start() for m in re.finditer(r"[,;]\s", text[:hit])), default=-1) if hit is not None else -1
    return f"{text[:cut].rstrip()}." if cut > 0 and len(text[:cut].split()) >= 3 else None


class LocalExtractor:
    """Rule-based extraction: no model, no network, deterministic, well under a millisecond a turn."""

    name = "local"

    async def extract(self, turns: list[TurnRecord], known: Sequence[EntityDraft] = ()) -> Extraction:
        return self.extract_sync(turns, known)

    def extract_sync(self, turns: list[TurnRecord], known: Sequence[EntityDraft] = ()) -> Extraction:
        records = [t for t in (turns or []) if t is not None]
        try:
            return _extract(records, known)
        except Exception:  # noqa: BLE001 - never fail a cell over odd text; keep what is certain
            log.exception("local extractor failed; falling back to a bare extraction")
            first = records[0] if records else None
            when = _aware(first.at).date().isoformat() if first else "an unknown date"
            return Extraction(title=f"Conversation on {when}", summary="", keywords=[], importance=0.1)


# A pronoun treated, not treating: whom "she" is in "She's been prescribed an EpiPen Jr" after "The consultant is
# Dr Nkechi Okafor" (it had been the consultant).
# ... or told of as a patient: "his consultant", "her sugar", "not allowed to drive".
_TREATED = re.compile(r"\b(?:she|he)(?:'s|\s+(?:has|had|was|is|got))\s+(?:been\s+|just\s+|now\s+)*(?:prescribed|referred|"
                      r"diagnosed|given|put\s+on|admitted|discharged|vaccinated|seen\s+by)\b|"
                      r"\b(?:give|gives|giving|gave)\s+(?:her|him)\s+(?:the\s+|a\s+|some\s+)?[a-z]|"
                      r"\b(?:his|her)\s+(?:new\s+|old\s+|usual\s+)?(?:consultant|gp|doctor|diabetes\s+nurse|practice\s+nurse|"
                      r"dentist|physio|surgeon|specialist|dietitian|dietician|blood\s+sugars?|sugars?|glucose|levels|"
                      r"readings|bloods|insulin|dose|hypos?|meds|medication|tablets|inhaler|blood\s+pressure)\b|"
                      r"\ballowed\s+to\s+drive\b|"
                      # ("Dr Anand has upped the brown inhaler to 2 puffs twice a day, and wants to see her again": hers)
                      r"\b(?:upped|increased|raised|lowered|reduced|changed|adjusted|doubled|halved)\s+(?:the|her|his)\s+"
                      r"(?:[a-z]+\s+)?(?:inhaler|dose|insulin|tablets|meds|medication)\b|\bsee\s+(?:her|him)\s+again\b", re.I)
_SHE = re.compile(r"\b(?:she|her|hers|herself)\b", re.I)
_HE = re.compile(r"\b(?:he|him|his|himself)\b", re.I)


_CALLED_BEFORE = re.compile(r"(?:^|[,!]|\b(?:hey|hi|hello|thanks|thank\s+you|wow|oh|yes|yeah|no|ok|okay))\s*$",
                            re.I)
_CALLED_AFTER = re.compile(r"\s*(?:[,!?:.]|$)|\s+(?=(?:you|you'll|you're|you've|can\s+you|could\s+you|please)\b)", re.I)


def _a_family(text: str, start: int, name: str) -> bool:
    """Whether a name is a family's, said "the Patels": never a "he" or a "she" ("The Patels asked if they can keep the
    dining table" then "He's asked for his radio" had been "Patels is asked for his radio")."""
    return name.endswith("s") and " " not in name and text[max(0, start - 4):start].lower() == "the "


def _called(text: str, start: int, end: int) -> bool:
    """Whether the name at `start`..`end` is said to its holder ("Caroline, you're so brave!",
    "Your support means a lot, Maria.", "thanks Mel!"), not of them."""
    return bool(_CALLED_BEFORE.search(text, 0, start)) and bool(_CALLED_AFTER.match(text, end))


def _fitting(people: list[str], text: str) -> str | None:
    """The person named last (`people`, the last first) whom the sentence's "she" or "he" fits
    (none when every one named is of the other); with both said, the one said first, whom the
    sentence is about ("He's a smoker, she says he only smokes outside": her boyfriend, not
    Priya, named last); with neither, the last one."""
    she, he = _SHE.search(text), _HE.search(text)
    if not she and not he:
        return people[0]
    if she and he:
        first_she = she.start() < he.start()
        found = next((p for p in people if kin_gender(p) == ("f" if first_she else "m")), None)
        return found or people[0]
    want = "f" if she else "m"
    return next((p for p in people if kin_gender(p) in (None, want)), None)




# A subject "she" or "he", by the gender of whom it is (None: either).
_SUBJECT_PRONOUN = {"f": re.compile(r"\bshe\b", re.I), "m": re.compile(r"\bhe\b", re.I),
                    None: re.compile(r"\b(?:she|he)\b", re.I)}


def _pronoun_before_names(text: str, who: str, named_here: list[tuple[int, str | None]]) -> bool:
    """Whether the sentence's subject "she"/"he", fitting `who`, comes before every other person it
    names ("Is she taking Jess's room?": she is not Jess)."""
    m = _SUBJECT_PRONOUN[kin_gender(who)].search(text)
    others = [end for end, name in named_here if name is not None and name != who]
    return m is not None and bool(others) and all(m.start() < end for end in others)


# Between a person and "her"/"him", a few words of one clause: the person does it to them.
_DOES_TO = re.compile(r"\s+(?:[\w'-]+\s+){0,4}")


def _object_first(people: list[str], named_here: list[tuple[int, str]],
                  text: str) -> tuple[list[str], tuple[str, str] | None]:
    """`people` with the one an object "her"/"him" of the sentence is put first: not the person
    named just before it, who does something to them ("For QA lead I like Mira Jovanovic, Petra
    Lindqvist referred her": Mira, whom the next sentence's "email her" is); and that doer, with the
    object's "f" or "m", when no one else named fits (the object is someone unnamed: "Dr Kowalski
    wants to see him", of the dog)."""
    m = OBJECT_PRONOUN.search(text)
    before = [(end, name) for end, name in named_here if m is not None and end <= m.start()]
    if m is None or not before or None in (name for _, name in before):
        return people, None
    end, doer = before[-1]
    if not _DOES_TO.fullmatch(text, end, m.start()):
        return people, None  # "Dad says hi - the Southmead lot have him on ...": another did it
    want = "f" if m.group().lower() == "her" else "m"
    whom = next((p for p in people if p != doer and kin_gender(p) in (None, want)), None)
    if whom:
        return [whom, *[p for p in people if p != whom]], None
    # (the doer the sentence's subject, said first, and no "a pic of him", which is of the one named)
    return people, (doer, want) if _SUBJECT_FIRST.fullmatch(text, 0, end) and " of " not in text[end:m.start()] else None


_SUBJECT_FIRST = re.compile(r"\s*(?:(?i:and|so|also|oh)\s+)?(?:(?i:dr|mr|mrs|ms|prof)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?")


_HIS_ROLE_IS = re.compile(r"(?:and\s+)?(?:his|her)\s+(?:new\s+|current\s+|usual\s+)?[a-z]+(?:\s+[a-z]+)?\s+"
                          r"(?:is|was)\s+(?:now\s+)?(?-i:[A-Z])", re.I)


def _said_number(number: str, text: str) -> bool:
    """Whether `text` says `number` as a number of its own ("50 red scarves", not "150" or "£50.99")."""
    # (not a time's minutes: "1pm to 9:30pm" says no 30, and "instead of £30" had corrected nothing)
    return re.search(rf"(?<![\d.,:]){re.escape(number)}(?![\d]|[.,:]\d)", text) is not None
