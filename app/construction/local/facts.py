"""One fact per informative sentence, in the third person, dated when it began."""
from __future__ import annotations

import re
from datetime import date, datetime, time

from app.construction import lexicon as lx
from app.construction.dates import FUTURE, PAST
from app.domain.models import FactDraft
from app.construction.local.bounds import (
    CONF_ASSISTANT, CONF_HEDGED, CONF_PLAIN, CONF_REPORTED, MAX_OBJECT_CHARS, MAX_TEXT_CHARS, ROLE_MENTIONED,
    ROLE_OBJECT, ROLE_SUBJECT)
from app.construction.local.text import _clip
from app.construction.local.voice import OBJECT_PRONOUN, US_ALL, _Voice, rewrite
from app.construction.local.inline_dates import ISO_DAY, _fill, tense_of
from app.construction.local.entities import _Registry
from app.construction.local.sentence import _Parse, _Sentence
from app.construction.local.fact_patterns import _ENDS, _THIRD, RENEWED
from app.construction.local.parse import pronoun_aux
from app.construction.local.foresight import _MARK
from app.construction.local.turn_sentences import _LIFE, _WE

_HIS_HER = re.compile(r"(?i:his|her)\s+")


_TITLES = lx.TITLES - lx.KIN  # (a title before a name, as entities.py reads one)
_SELF_NAMED = re.compile(r"^([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}) is \1(?:,\s+|\s+(?=\1\s))")
_CLAUSE_OPEN = re.compile(r"^\s*(?:and|but|also|plus)\s+", re.IGNORECASE)
_CLAUSE_JOIN = re.compile(r"(?:\s*[,;]\s*|\s+)(?:(?:and|but|while|so)\s*)?$", re.IGNORECASE)


# A role's holder said as "she": "she's our second shooter from now on".
_SHE_HOLDS = re.compile(r"^(?:she|he)(?:'s|’s|\s+is)\s+(?=(?:our|my|the|their|your)\s)", re.I)
# ... or starting in it: "She starts as head of department on Monday 2 November" (the fact had kept "She")
_SHE_STARTS = re.compile(r"^(?:she|he)\s+(?=(?:starts|is\s+starting|will\s+start)\s+as\s)", re.I)


def _fact(sent: _Sentence, parse: _Parse, reg: _Registry) -> FactDraft:
    t = sent.t
    voice = _Voice(t.speaker, t.other, sent.companion, keep_we=bool(parse.lead and parse.lead.endswith(" said")))
    said = sent.s1[parse.clause:parse.until]
    if parse.clause:  # ("..., and the balance is £1,210": the clause, not its "and")
        said = _CLAUSE_OPEN.sub("", said)
    if parse.until is not None:  # "Ben owns billing, and Chloe owns checkout": Ben's clause alone
        said = _CLAUSE_JOIN.sub("", said)
    text = _fill(rewrite(said, voice), sent.rendered).strip()
    held = reg.get(parse.obj) if parse.predicate == "is" and parse.kind != "reported" else None
    if held is not None and held.type == "person" and (she := _SHE_HOLDS.match(text)) is not None:
        # ("she's our second shooter from now on", of Priya Mistry: "Priya Mistry is our second shooter ...", not
        # "Callum said she's ...", which no search for her found)
        text = f"{held.name} is {text[she.end():]}"
    elif (held := reg.get(parse.obj)) is not None and held.type == "person" and (
            she := _SHE_STARTS.match(text)) is not None:
        text = f"{held.name} {text[she.end():]}"
    elif parse.lead:  # "Squat 5RM is 80 kg", the lifter's: "Nadia's squat 5RM is 80 kg"
        first = re.sub(r"['’]s$", "", text.split(" ", 1)[0].strip(",.:;!?"))  # ("Jonas's budget")
        two = " ".join(text.split(" ", 2)[:2]).strip(",.:;!?")  # ("Priya Desai is ...": a full name)
        named = (text[:2].isupper() and text[1:2].isalpha()) or first[:1].isupper() and (
            reg.get(first) is not None or reg.get(two) is not None
            or first.rstrip(".").lower() in _TITLES)  # ("Ms Joanna Patel is ...": a name's capital, kept)
        text = f"{parse.lead} {text if named else text[:1].lower() + text[1:]}"
    if parse.text:
        text = parse.text
    if parse.clause or parse.lead:
        text = text[:1].upper() + text[1:]
    # ... and a clause of a value told alone names whom its "she" is ("Jess Taylor is our baker, she
    # works Tuesday to Saturday": "Jess Taylor works ...", not "She works ...")
    told_alone = parse.clause > 0 and not parse.text and (e := reg.get(parse.subject)) is not None \
        and e.type == "person"
    if parse.kind == "pronoun" or told_alone:
        m = _THIRD.match(text)
        if m:
            rest = text[m.end():]
            verb = ""
            if m.group(1).endswith(chr(39) + "s"):  # "he's been promoted": has; "he's been our drummer": is
                verb = f"{pronoun_aux(rest)} "
                rest = re.sub(r"^been\s+(?=(?:our|my|the|a|an|his|her|their)\s)", "", rest)
            text = f"{parse.subject} {verb}{rest}"
    if parse.kind == "kin" and "'s " in parse.subject and (m := _HIS_HER.match(text)):
        text = f"{parse.subject.rsplit(chr(39) + 's ', 1)[0]}'s {text[m.end():]}"  # "Her boss is": Martha Kiel's
    elif parse.kind == "name" and parse.predicate.endswith(" is") and (m := _HIS_HER.match(text)) and (
            e := reg.get(parse.subject)) is not None and e.type == "person" and not e.speaker:
        text = f"{e.name}'s {text[m.end():]}"  # ("his last day is wednesday 30 sept": Kyle's, said of him)
    if parse.kind == "reported":
        first = text.split(" ", 1)[0]
        w0 = sent.text.split(" ", 1)[0]
        # A sentence's capital, not a name's or a day's ("Saturday on 2023-06-08" keeps it).
        # (nor "I"'s, nor an acronym's: "RSVPs are mostly in"; "A few can't make it" is a sentence's)
        if (first == w0 and w0 != "I" and not (len(w0) > 1 and w0[:2].isupper() and w0[:2].isalpha())
                and not any(m.start == 0 for m in sent.mentions)
                and w0.lower().strip(",.") not in lx.WEEKDAYS | lx.WEEKDAYS_SHORT | lx.MONTHS):
            text = text[0].lower() + text[1:]
        text = f"{t.speaker} said {text}"
    if (same := _SELF_NAMED.match(text)) is not None:  # "I'm Ollie Brennan, Nadia's coach": not "is Ollie Brennan, ..."
        rest = text[same.end():]  # ... and "I'm Gail Pritchard, I run Oakfield Livery": "Gail Pritchard runs ..."
        text = rest if rest.startswith(f"{same.group(1)} ") else f"{same.group(1)} is {rest}"
    text = _clip(text.rstrip(" .!?\u2026"), MAX_TEXT_CHARS) + "."
    if sent.hedged:
        conf = CONF_HEDGED
    elif parse.kind == "reported":
        conf = CONF_REPORTED
    else:
        conf = CONF_PLAIN
    if t.assistant:
        conf = min(conf, CONF_ASSISTANT)
    ents: list[tuple[str, str]] = []

    def add(name: str, role: str) -> None:
        ent = reg.get(name)
        if ent and all(n != ent.name for n, _ in ents) and len(ents) < 10:
            ents.append((ent.name, role))

    if parse.kind == "possession":
        add(parse.subject.rsplit("'s ", 1)[0], ROLE_SUBJECT)
    else:
        add(parse.subject, ROLE_SUBJECT)
    if parse.predicate in ("takes", "stopped taking"):  # the medication (medication.py)
        add(parse.obj, ROLE_OBJECT)
    elif parse.predicate.endswith(" dose is"):
        add(parse.predicate[:-len(" dose is")], ROLE_OBJECT)
    obj_low = parse.obj.casefold()
    own_words = parse.text.casefold() if parse.text else None
    # a clause told alone links the names of its words only ("plot 7 is Irene Walsh, plot 9 is Gwen
    # Price": each plot its holder, not all four)
    end = parse.until if parse.until is not None else len(sent.s1)
    clause_only = (parse.clause > 0 or parse.until is not None) and not parse.text
    for mm in sent.mentions:
        ent = reg.get(mm.key)
        if ent is None:
            continue
        if clause_only and not parse.clause <= sent.s1_pos(mm.start) < end:
            continue
        if own_words is not None and all(n not in own_words for n in (ent.name.casefold(), mm.surface.casefold())):
            continue  # told in words of its own: not every name of the sentence ("Oscar Reid plays in midfield")
        role = ROLE_OBJECT if parse.kind != "reported" and ent.name.casefold() in obj_low else ROLE_MENTIONED
        add(ent.name, role)
    for m in _MARK.finditer(sent.text):
        base = m.group(1).lower().split("'")[0]
        if base in ("i", "me", "my", "we", "our"):
            add(t.speaker, ROLE_MENTIONED)
        elif base in ("you", "your") and t.other:
            add(t.other, ROLE_MENTIONED)
    # A value of a timeline begins when its sentence says ("switched Dad from metformin to
    # insulin yesterday": insulin since yesterday, as metformin ended then); not the day a thing
    # is scheduled for ("launch is on November 2nd" holds from its saying).
    # (nor a value that is a day: "agreed to extend the coursework deadline to Friday 20 November" holds from then)
    began = None if parse.predicate in ("date is", "end date is") or ISO_DAY.fullmatch(parse.obj) else _began(
        parse.single or parse.predicate in _ENDS or parse.predicate in _ENDS.values(), sent, t.at)
    if parse.from_day and sent.dates:
        began = _span(sent.dates[0], t.at)
        if began[0] < t.at <= began[1]:
            began = None  # "so I'm on 1pm to 9:30pm from this week", said on its Sunday: from then, not its Monday
    if began and parse.said_now and began[0] > t.at:
        began = None  # "LUM-4821 is reopened, the fix is due by December 10": reopened now
    return FactDraft(
        subject=parse.subject,
        predicate=RENEWED.sub("", parse.predicate),
        object=_clip(parse.obj, MAX_OBJECT_CHARS),
        text=text,
        turn_ids=[t.turn.id],
        confidence=conf,
        valid_from=began[0] if began else t.at,
        valid_from_until=began[1] if began else None,
        # (an event's day is its value: "moved from 8 Oct to 15 Oct" is on the 15th)
        event_date=(date.fromisoformat(parse.obj) if parse.predicate == "date is" and ISO_DAY.fullmatch(parse.obj)
                    else sent.dates[0].start if sent.dates else None),
        entities=ents,
        single_valued=parse.single,
        ends=_ENDS.get(parse.predicate),
    )


def _began(single: bool, sent: _Sentence, at: datetime) -> tuple[datetime, datetime] | None:
    """When a single-valued fact (or the end of one) began, if its sentence names a past date
    ("In 2015 I moved to Paris"): the span's first and last moments in the turn's time zone.
    Stamped with the turn's time instead, a move of years ago said today would replace where
    the speaker lives now. Or a date to come ("I'm starting at Volta Labs on Monday"): the old
    value stays what is true until that day, as an LLM's dated fact does."""
    if not single or not sent.dates or sent.dates[0].direction not in (PAST, FUTURE) or _PUT_RIGHT.match(sent.raw):
        # (a value put right holds as the slip was to: "sorry, £11.84 — I was looking at last year's sheet" had
        # held from last year; a day it holds from is read with it, measures.py)
        return None
    if sent.dates[0].direction == FUTURE and (sent.hedged or tense_of(sent.text) != FUTURE):
        # "I might start at Volta in May": nothing begins; "I quit in June, I work at Wise
        # now": the date is another clause's, the fact is the present's.
        return None
    head = _FIRST_CLAUSE.split(sent.text[:sent.dates[0].pos])[0]
    if sent.dates[0].direction == FUTURE and head != sent.text[:sent.dates[0].pos] and tense_of(head) != FUTURE:
        return None  # "we just got engaged and we want to get married next June": engaged now
    return _span(sent.dates[0], at)


_PUT_RIGHT = re.compile(r"^\W*(?:sorry|oops|correction|typo|no\s+wait|wait\s+no|my\s+bad)\b", re.I)
# (... or a comma before one: "our health visitor is Karen Holt, she's doing the first home visit on
# Tuesday 8th" is Karen's from its saying, not from the visit)
_FIRST_CLAUSE = re.compile(r"\s*(?:,\s*|\s)(?:and|but|so)\s+(?=(?:we|I|he|she|they|you)\b)|"
                           r"\s*,\s*(?=(?:we|I|he|she|they)(?:'s|'re|'ll|\s+(?:is|are|will)\b))", re.I)


def _span(d, at: datetime) -> tuple[datetime, datetime]:
    """A date's first and last moments in the turn's time zone."""
    return (datetime.combine(d.start, time(0, 0), tzinfo=at.tzinfo),
            datetime.combine(d.end, time(23, 59, 59), tzinfo=at.tzinfo))


def _companion(sent: _Sentence, reg: _Registry) -> str | None:
    wm = _WE.search(sent.text)
    if not wm or _WE_OF_ANOTHER_CLAUSE.search(sent.text, 0, wm.start()) or _FACE_BEFORE_WE.search(sent.raw):
        return None  # ("Linda has said she'll have Biscuit while we're away": not Linda and I)
    for mm in sent.mentions:
        ent = reg.get(mm.key)
        if mm.start < wm.start() and ent and ent.type == "person" and not ent.speaker \
                and ent.name != sent.t.speaker:
            after = sent.text[wm.end():]
            if _OBJECT_BEFORE.search(sent.text, 0, mm.start) or OBJECT_PRONOUN.search(after) or re.search(
                    rf"\b{re.escape(sent.text[mm.start:mm.end].split()[0])}\b", after):
                continue  # "For Priya we're going with 125k", "... any room we book for him", "we moved Tom's"
            if wm.group(0).lower() == "us" and _ACTS_ON_US.match(sent.text, mm.end, wm.start()) and not (
                    US_ALL.match(sent.text, wm.end()) and _MY_PARTNER.search(sent.text, 0, mm.start)):
                continue  # "Dr. Lee also told us he is retiring": whom he told, not who with
            if wm.group(0).lower() == "us" and _SHE_HE.search(sent.text, mm.end, wm.start()):
                continue  # "Lucy loved the cake, she's left us a review": Lucy did it to us
            if wm.group(0).lower() == "us" and not sent.text[:mm.start].strip(" ,") and not re.match(
                    r"\s*(?:and|&)\s", sent.text[mm.end:]):
                continue  # "Jenny is giving up cleaning for us": what she does, to us (not "Helen and Jenny")
            if _SAYS_WE.fullmatch(sent.text, mm.end, wm.start()):
                continue  # "Priya says we're in Steam Next Fest": the speaker's "we", told by Priya
            if _DIED.search(sent.text, mm.end, wm.start()):
                continue  # "Dad passed away on the 28th of August and we're trying to ...": not with us
            if _CHOSE_WITH.search(sent.text, 0, mm.start) and ent.name.split()[0].lower() not in lx.GIVEN_NAMES:
                continue  # "Gone with AllClear instead, £395 for both of us": chosen, not company
            return ent.name
    return None


# One gone with as a choice ("Gone with AllClear instead"), or as company ("I went with Tom"): a firm's name, no
# person's, is the choice.
_CHOSE_WITH = re.compile(r"\b(?:gone|went|going|go|opted|opting)\s+(?:with|for)\s+$", re.I)
# "we" in a clause of its own, whose time, condition or reason it is: the one named in the clause
# before is not with us ("Brenda will do the school pick-ups while we're away", "Hannah emailed
# asking if we want more sessions", "Ms Patel pushed the deadline so we have more time").
# (not "when we": "when we were kids", told of a brother, is his and mine; "so we" is: "ABC cancelled so we
# moved it" was "Ann and ABC", false, where "Tom is coeliac so we need ..." as the speaker's is only short)
_WE_OF_ANOTHER_CLAUSE = re.compile(r"\b(?:while|whilst|if|unless|until|till|so|because|cos|though|although|whether|"
                                   r"asking|asked)\s+$", re.I)
# ... nor after a face typed in letters, which ends what was said of the one before ("Zofia is leaving at half
# term :( we've found someone new": not Lucy and Zofia)
_FACE_BEFORE_WE = re.compile(r"(?<!\w)[:;=]-?[()DPp/\\|]+\s+(?:we|we're|we've|we'll|we'd|us)\b", re.I)
_SAYS_WE = re.compile(r"\s+(?:\w+\s+)?(?:says|said|thinks|reckons|told\s+me|mentioned|confirmed|emailed|texted|"
                      r"wrote|messaged)\s+(?:that\s+)?", re.I)
_SHE_HE = re.compile(r"\b(?:she|he)(?:'s|'d|'ll)?\b", re.I)
_DIED = re.compile(r"\b(?:died|passed\s+away|passed\s+on|lost\s+(?:him|her))\b", re.I)
# A person who is no one "we" is with: named after a preposition ("For Priya we're going with
# 125k"), or named again or as "him"/"her" after "we" ("we moved Tom's onsite", "any onsite room
# we book for him").
_OBJECT_BEFORE = re.compile(r"\b(?:for|about|from|of|on|by|than|against|re|regarding|tell|ask|call|email|"
                            r"text|send|reject|hire|offer|offered|interview|interviewed)\s+$", re.I)

# Between a person and "us", a few words: the person does something to us ("told us", "will
# visit us"), where "Tom and I ... us" has Tom with us.
_ACTS_ON_US = re.compile(r"\s+(?:[\w'-]+\s+){1,3}$")
# ... unless "us" is all of them and the person one of the speaker's household: "My partner Mei
# signed us both up" has Mei among "us".
_MY_PARTNER = re.compile(r"\bmy\s+(?:partner|wife|husband|boyfriend|girlfriend|fianc[ée]e?|spouse)\s+$", re.I)


def _fact_score(f: FactDraft, constrained: bool) -> float:
    s = 1.0
    if _LIFE.search(f.text):
        s += 3.0
    if f.single_valued:
        s += 2.0
    if constrained:
        s += 2.0
    if f.event_date:
        s += 1.0
    s += 0.5 * min(len(f.entities), 3)
    if f.predicate == "said":
        s -= 1.5
    return s + min(len(f.object), 80) / 80 + f.confidence
