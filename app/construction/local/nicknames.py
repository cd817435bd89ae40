"""Another name someone is told to go by: "My contact is Elizabeth Moreno. Everyone calls her Liz",
"Robert, aka Bob", "she goes by Sam", "call me Jo". The two are one entity, the nickname its
alias: "Liz" had been a person of her own, with her own facts."""
from __future__ import annotations

import re
from typing import Sequence

from app.construction.local.entities import _Registry
from app.construction.local.sentence import _Sentence

_NICK = r"(?P<nick>[A-Z][\w'-]*)(?![\w'-])"
# "her"/"him", "she"/"he": the person named last before it.
_CALLED_BY_PRONOUN = (
    re.compile(r"\b(?i:everyone|everybody|people|they|we|most\s+people|the\s+team|I|you\s+can)\s+"
               r"(?i:calls?|call)\s+(?i:her|him)\s+" + _NICK),
    re.compile(r"\b(?i:she|he)\s+(?i:goes|went|prefers\s+to\s+go)\s+by\s+" + _NICK))
# Right after a name: "Robert Jones, aka Bob", "Elizabeth (Liz)", "Catherine, known as Kate".
_AFTER_NAME = (
    re.compile(r"\s*\(\s*(?:(?i:aka|a\.k\.a\.?)\s+)?" + _NICK + r"\s*\)"),
    re.compile(r"\s*,?\s*(?i:aka|a\.k\.a\.?|known\s+as|nicknamed|who\s+goes\s+by)\s+" + _NICK))
_CALL_ME = re.compile(r"\b(?i:call\s+me|I\s+go\s+by)\s+" + _NICK)


def find_nicknames(sents: Sequence[_Sentence], reg: _Registry) -> list[tuple[str, str]]:
    """(nickname key, key of the person it names), in the order said."""
    out: list[tuple[str, str]] = []
    last_person: str | None = None
    for s in sents:
        by_start = {mm.start: mm for mm in s.mentions}

        def person_before(pos: int) -> str | None:
            named = [mm for mm in s.mentions if mm.end <= pos and _is_person(reg, mm.key)]
            return named[-1].key if named else last_person

        for m in (m for p in _CALLED_BY_PRONOUN for m in p.finditer(s.text)):
            full = person_before(m.start())
            nick = by_start.get(m.start("nick"))
            if full and nick:
                out.append((nick.key, full))
        for mm in s.mentions:
            after = next((a for p in _AFTER_NAME if (a := p.match(s.text, mm.end))), None)
            if after and _is_person(reg, mm.key):
                nick = by_start.get(after.start("nick"))
                if nick and nick.key != mm.key:
                    out.append((nick.key, mm.key))
        for m in _CALL_ME.finditer(s.text):
            nick = by_start.get(m.start("nick"))
            speaker = reg.get(s.t.speaker)
            if nick and speaker is not None:
                out.append((nick.key, speaker.key))
        people = [mm.key for mm in s.mentions if _is_person(reg, mm.key)]
        last_person = people[-1] if people else last_person
    return out


def _is_person(reg: _Registry, key: str) -> bool:
    ent = reg.get(key)
    return ent is not None and not ent.speaker and ent.type in ("person", "thing")
