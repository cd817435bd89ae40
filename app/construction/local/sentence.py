"""One turn, one sentence of it, and the parse of a sentence."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from app.construction.dates import DateMention
from app.domain.models import TurnRecord
from app.construction.local.entities import _Mention


@dataclass
class _Turn:
    turn: TurnRecord
    index: int
    speaker: str
    other: str | None
    at: datetime
    assistant: bool


@dataclass
class _Sentence:
    t: _Turn
    order: int
    text: str                       # cleaned: no emoji, no opener
    raw: str                        # before the opener was stripped (for greetings)
    question: bool
    hedged: bool
    lowercase: bool                 # texting style: no capital to begin with, names may lack one
    dates: list[DateMention]
    mentions: list[_Mention] = field(default_factory=list)
    s1: str = ""                    # text with date placeholders
    rendered: list[str] = field(default_factory=list)
    shifts: list[tuple[int, int]] = field(default_factory=list)
    companion: str | None = None    # with "we": the other person named before it

    def s1_pos(self, pos: int) -> int:
        """A position in `text` as a position in `s1`."""
        return pos + sum(d for end, d in self.shifts if end <= pos)

    def opens_with(self, reg):
        """The entity (`reg`'s) the sentence's first word names ("Mei works nights, so ..."), or None."""
        return reg.get(self.mentions[0].key) if self.mentions and self.mentions[0].start == 0 else None

    def named_before(self, reg, pos: int | None, types: tuple[str, ...]) -> list:
        """The entities of `types` (`reg`'s) the sentence names before `pos` in s1 (None: all),
        in order; no speaker."""
        return [e for mm in self.mentions if (pos is None or self.s1_pos(mm.start) < pos)
                and (e := reg.get(mm.key)) is not None and e.type in types and not e.speaker]


@dataclass
class _Parse:
    subject: str
    kind: str              # speaker | other | kin | name | possession | pronoun | reported
    predicate: str
    obj: str
    single: bool = False
    first_person: bool = False
    clause: int = 0        # where in s1 the words it is told from begin (a later clause's own)
    until: int | None = None  # and where they end, when another clause follows with a fact of its own
    lead: str | None = None  # said before those words: whose they are ("Nadia's" squat 5RM is 80 kg)
    text: str | None = None  # the fact's words, when no clause says them (a correction's value)
    said_now: bool = False  # true from its saying when the day the sentence names lies ahead (a value)
    from_day: bool = False  # true from the day the sentence names, said as such ("... from December")
