"""Someone's injury, one state at a time (a reader of local/measures.py, given the sentence's
values, `_Values`): "Leo sprained his ankle, he's out for three weeks", then "Leo is back in full
training tonight" (both stayed current, and "Who is injured?" brought Leo, fit again)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.construction import lexicon as lx
from app.construction.local.inline_dates import _fill

if TYPE_CHECKING:  # (measures.py reads with these: no import back at run time)
    from app.construction.local.measures import _Values


_WHO = r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?|(?i:he|she|I))"
_HURT = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+){_WHO}\s+(?:(?i:has|'s|have|'ve)\s+)?(?:(?i:just)\s+)?"
    r"(?P<how>(?i:sprained|twisted|broke|broken|pulled|tore|torn|hurt|injured|bruised|strained|fractured|"
    r"dislocated))"
    # (a body's part, not "pulled out of Waterford", "hurt by what she said")
    r"\s+(?!(?i:out|off|over|up|in|by|through|back|away|it|that|this|me|him|her|them|us)\b)"
    r"(?:(?i:his|her|my|their|a)\s+)?(?P<part>(?i:left\s+|right\s+)?[a-z][\w-]*)")
_OUT = re.compile(rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+){_WHO}(?:'s|\s+is|\s+will\s+be|'ll\s+be)\s+(?:(?i:now)\s+)?"
                  r"(?i:out|off|sidelined|injured)\s+"
                  r"(?P<how_long>(?i:for\s+(?:\w+\s+){1,2}(?:days?|weeks?|months?)|"
                  r"injured|with\s+(?:a|an|his|her)\s+[\w -]{3,30}?))(?=\s*(?:[,;.!?\x00]|$))")
_BACK = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+){_WHO}(?:'s|\s+is|\s+are|'m|\s+am)\s+(?:(?i:now|finally|fully)\s+)?"
    r"(?i:back\s+(?:in|to)\s+(?:full\s+)?(?:training|playing|the\s+(?:team|squad|side)|goal|action)|back\s+playing|"
    r"fit\s+again|fully\s+fit|recovered|over\s+(?:his|her|the)\s+injury|cleared\s+to\s+play)\b")
# ... or the hurt part healed: "Noah's wrist is healed, Mark cleared him" (the injury had stayed).
_HEALED = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+){_WHO}'s\s+(?:(?i:left|right)\s+)?[a-z][\w-]*\s+(?i:is|has|'s)\s+"
    r"(?:(?i:now|finally|fully|completely|all)\s+)?(?i:healed|mended|better\s+now|fine\s+now|recovered)\b")


def _whom(v: _Values, said: str, pos: int) -> str | None:
    low = said.lower()
    if low == "i":
        return v.speaker
    if low in ("he", "she"):
        return v.named_first(pos) or v.recent
    ent = v.reg.get(said)
    if ent is None or ent.speaker or said.split()[0].lower() in lx.STOPWORDS | lx.PRONOUNS:
        return None
    if ent.type in ("thing", "place"):
        ent.settle("person")  # ("Leo Park sprained his ankle": a body's, a person's)
    return ent.name if ent.type == "person" else None


def _said(v: _Values, who: str) -> str | None:
    """The fact's words, saying "injured" ("Who is injured?" shares no word with "Leo sprained his
    ankle"), of someone other than the speaker (whose "I" the fact's own rewriting reads)."""
    if who == v.speaker:
        return None
    said = _fill(v.text, v.sent.rendered).strip().rstrip(".!")
    if re.match(r"(?:he|she)\b", said, re.IGNORECASE):
        said = said[:1].lower() + said[1:]  # ("Leo is injured: he's out for three weeks")
    return f"{who} is injured: {said}."


def _injuries(v: _Values) -> None:
    for m in _HURT.finditer(v.text):
        if (who := _whom(v, m.group("who"), m.start())) is not None:
            part = " ".join(m.group("part").lower().split())
            v.add(who, "injury", f"{m.group('how').lower()} {part}", m.start(), end=m.end(),
                  text=_said(v, who))
    if not any(p.predicate == "injury is" for p in v.out):
        for m in _OUT.finditer(v.text):
            if (who := _whom(v, m.group("who"), m.start())) is not None:
                how_long = " ".join(m.group("how_long").lower().split())
                v.add(who, "injury", f"out {how_long}", m.start(), end=m.end(), text=_said(v, who))
    for m in (*_BACK.finditer(v.text), *_HEALED.finditer(v.text)):
        if (who := _whom(v, m.group("who"), m.start())) is not None:
            v.add(who, "injury", "recovered", m.start(), end=m.end())


INJURY_READERS = (_injuries,)
