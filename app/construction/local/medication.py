"""Medication: what someone takes, and when it changes. "Dr. Lee has him on metformin",
"He takes 10 units of Lantus", "Dr. Lee switched Dad from metformin to insulin", "She came off
the statins": facts "takes" (a thing of several values at once: insulin beside a statin) and
"stopped taking", which ends the value it names (supersession.py), for whom the sentence says."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.bounds import _alt
from app.construction.local.entities import _Registry
from app.construction.local.fact_patterns import _I
from app.construction.local.sentence import _Parse, _Sentence

_MED = rf"(?:(?:his|her|my|their|the|a)\s+)?(?:new\s+)?({_alt(lx.MEDICATIONS)})(?![\w'-])"
_DOSE = (r"(?:(?:[\d.]+|one|two|three|four|a|an)\s*(?:mg|milligrams?|units?|ml|mcg|tablets?|pills?|puffs?|doses?)"
         r"\s+(?:of\s+)?)?")
# Whom it is for, as the sentence says it: a pronoun, "me", or a name ("Dad", "Raj").
_WHOM = r"(me|him|her|us|them|[A-Z][\w'-]*)"
_WHO = rf"(?<![\w'])((?i:my|our)\s+(?i:{_alt(lx.KIN)})|I|he|she|we|they|[A-Z][\w'-]*)"

# (pattern, its groups: whom, taken, stopped)
_SWITCHED = re.compile(rf"\b(?:switched|changed|moved|swapped|put)\s+{_WHOM}\s+(?:over\s+)?from\s+{_MED}\s+"
                       rf"(?:on)?to\s+{_DOSE}{_MED}", _I)
_SWITCHED_SELF = re.compile(rf"{_WHO}\s+(?:have\s+|has\s+|'ve\s+|'s\s+)?(?:switched|changed|moved)\s+"
                            rf"(?:over\s+)?from\s+{_MED}\s+(?:on)?to\s+{_DOSE}{_MED}", _I)
_PUT_ON = re.compile(rf"\b(?:has|had|have|put|puts|started|starts|keeps?|kept)\s+{_WHOM}\s+on\s+{_DOSE}{_MED}", _I)
_TAKES = re.compile(rf"{_WHO}(?:\s+(?:is|am|are)|'s|'m|'re)?\s+(?:now\s+|still\s+)?(?:takes|take|taking|on|"
                    rf"started\s+taking|started\s+on|uses|using)\s+{_DOSE}{_MED}", _I)
_TOOK_OFF = re.compile(rf"\b(?:took|taken|takes|taking)\s+{_WHOM}\s+off\s+{_MED}", _I)
_STOPPED = re.compile(rf"{_WHO}(?:\s+(?:is|am|are|has|have)|'s|'m|'re|'ve)?\s+(?:stopped\s+taking|stopped|"
                      rf"came\s+off|come\s+off|off|no\s+longer\s+(?:on|taking|takes))\s+{_MED}", _I)

_SPEAKER = frozenset({"i", "me", "we", "us"})
_PRONOUN = frozenset({"he", "she", "him", "her", "they", "them"})


def medication(sent: _Sentence, reg: _Registry, recent: str | None) -> list[_Parse]:
    """The "takes" and "stopped taking" facts a sentence states, for whom it says."""
    text = sent.text
    if not any(w in lx.MEDICATIONS for w in re.findall(r"[a-z]+", text.lower())):
        return []
    out: list[_Parse] = []

    def add(m: re.Match, predicate: str, med: str) -> None:
        who = _whom(m.group(1), m.start(1), sent, reg, recent)
        med = med[:-1] if med.lower().endswith("s") and med[:-1].lower() in lx.MEDICATIONS else med
        kind = "pronoun" if m.group(1).lower() in _PRONOUN else "name"  # "He takes": "Raj takes"
        if who and all((p.subject, p.predicate, p.obj.lower()) != (who, predicate, med.lower()) for p in out):
            out.append(_Parse(who, kind, predicate, med, False, False))

    for rx in (_SWITCHED, _SWITCHED_SELF):
        for m in rx.finditer(text):
            add(m, "stopped taking", m.group(2))
            add(m, "takes", m.group(3))
    if out:
        return out
    for rx, predicate in ((_PUT_ON, "takes"), (_TOOK_OFF, "stopped taking"), (_STOPPED, "stopped taking"),
                          (_TAKES, "takes")):
        for m in rx.finditer(text):
            add(m, predicate, m.group(2))
    return out


def _whom(word: str, at: int, sent: _Sentence, reg: _Registry, recent: str | None) -> str | None:
    """The person `word` (at `at` in the sentence) stands for: the speaker, the person named
    before it in the sentence (but the one acting on "him") or else the one named last before
    the sentence (`recent`), or a person's name."""
    w = word.lower()
    if w in _SPEAKER:
        return sent.t.speaker
    if w in _PRONOUN:
        named = [e for mm in sent.mentions if mm.end <= at
                 and (e := reg.get(mm.key)) is not None and e.type == "person" and not e.speaker]
        if w in ("him", "her", "them"):
            named = named[:-1]  # "Dr. Lee has him on metformin": not whoever has him on it
        return named[-1].name if named else recent
    mine = w.startswith(("my ", "our "))  # "My mother takes lisinopril", as "Mum takes" is
    ent = reg.get(f"{sent.t.speaker}'s {w.split(' ', 1)[1] if mine else w}" if mine or w in lx.KIN_AS_NAME
                  else word)
    return ent.name if ent is not None and ent.type == "person" else None
