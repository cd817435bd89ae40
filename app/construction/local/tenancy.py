"""A let's values, one at a time (readers of local/measures.py, each given the sentence's values,
`_Values`): who lives in which flat, the rent agreed at a move-in, and where a deposit is held."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.construction import lexicon as lx
from app.construction.local.fact_patterns import NAME as _NAME

if TYPE_CHECKING:  # (measures.py reads with these: no import back at run time)
    from app.construction.local.measures import _Values


# Who lives in a flat: "Flat A is Mei Chen", "Flat B is Rafael Souza, the student" (it had been
# a fact "Tom said flat A is Mei Chen", and "Flat B | is | Rafael Souza, the student").
_UNIT = r"(?P<unit>(?:Flat|Apartment|Unit|Room|Studio)\s+(?:\d{1,4}[A-Za-z]?|[A-Z]\b))"
_UNIT_IS = re.compile(rf"(?:^|[,;:]\s+|\b(?:and|so)\s+){_UNIT}\s+(?:is|'s)\s+(?:now\s+)?(?P<who>{_NAME})\b"
                      r"(?!\s+(?:and|&)\s+[A-Z])")
# ... a let named by its place, with its rent: "Quarry Lane is Dan Okafor at £720" (the rent said with
# a flat too: "Flat 2 is Tom Becker at £790").
_PLACE_LET = re.compile(rf"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?P<unit>{_NAME})\s+(?:is|'s)\s+(?:now\s+)?"
                        rf"(?P<who>{_NAME})\s+(?:at|on|paying)\s+(?P<num>[£$€]\d[\d,]*(?:\.\d+)?)\b")
# ... or by a move into it: "Sofia got her keys today, she's moved into Flat 2" (Tom, gone, had stayed its tenant).
_MOVED_INTO = re.compile(rf"(?P<who>{_NAME}|(?i:she|he))(?:['’]s|\s+has)?\s+(?:just\s+)?moved\s+into\s+"
                         rf"(?:(?P<flat>{_UNIT.replace('?P<unit>', '?:')})|(?P<place>{_NAME}))")
# The rent said with a move-in: "Hannah moves in on 8 December at 975 a month" (so that "It's 995
# not 975" has a value to correct).
_MONEY = r"(?P<num>[£$€]?\d[\d,]*(?:\.\d+)?)"
_MOVES_IN_AT = re.compile(rf"(?P<who>{_NAME}|(?i:she|he))\s+(?:moves|is\s+moving|will\s+move|moved)\s+in\b"
                          rf"[^.;!?]{{0,40}}?\bat\s+{_MONEY}\s+(?:a|per)\s+(?:month|week|calendar\s+month)\b")
# ... or paid, said of a let: "Flat A is Mei Chen. She pays 1,150 a month" (then "Mei's rent goes
# up ... to 1,200 from 1 January"); not a dental patient's payment plan ("she pays £80 a month").
_LET_WORDS = re.compile(r"\b(?:rent|flat|tenant|tenancy|lease|landlord|room|apartment|moves?\s+in)\b", re.I)
_PAYS = re.compile(rf"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?P<who>{_NAME}|(?i:she|he))\s+"
                   rf"(?:pays|is\s+paying|will\s+pay)\s+{_MONEY}\s+(?:a|per)\s+(?:month|calendar\s+month)\b")
# Where a deposit is held: "Mei's deposit is with mydeposits", then "I moved Mei's deposit to the DPS".
_WHOSE = rf"(?P<whose>{_NAME}['’]s|(?i:my|our|his|her|their))"
_SCHEME = r"(?P<scheme>(?:the\s+)?[A-Za-z][\w-]*(?:\s+[A-Z][\w-]*){0,3})"
_DEPOSIT = (
    re.compile(rf"{_WHOSE}\s+(?i:deposit)\s+(?i:is|'s|sits)\s+(?:(?i:now|still)\s+)?"
               rf"(?:(?i:held|protected|registered|lodged)\s+)?(?i:with|in)\s+{_SCHEME}"),
    re.compile(rf"\b(?i:moved|transferred|switched|put|registered|protected|lodged)\s+{_WHOSE}\s+(?i:deposit)\s+"
               rf"(?i:to|with|in|into)\s+{_SCHEME}"),
)


def _person(v: _Values, name: str, pos: int = 0) -> str | None:
    if name.lower() in ("she", "he"):  # "She moves in on 8 December at 975 a month": whom the turn named
        return v.named_first(pos) or v.recent
    ent = v.reg.get(name)
    if name.split()[0].lower() in lx.STOPWORDS | lx.PRONOUNS:
        return None
    return ent.name if ent is not None and ent.type == "person" else None


def _tenancy(v: _Values) -> None:
    for m in _UNIT_IS.finditer(v.text):
        if (who := _person(v, m.group("who"))) is not None:
            v.add(" ".join(m.group("unit").split()), "tenant", who, m.start("unit"), end=m.end())
    for m in _PLACE_LET.finditer(v.text):
        place = v.reg.get(m.group("unit"))
        unit = re.match(_UNIT + r"$", m.group("unit"))
        if (who := _person(v, m.group("who"))) is None or not (unit or place is not None and place.type == "place"):
            continue
        if not unit:
            v.add(place.name, "tenant", who, m.start("unit"), end=m.end("who"))
        v.add(who, "rent", m.group("num"), m.end("who"), end=m.end(), text=f"{who}'s rent is {m.group('num')} a month.")
    for m in _MOVED_INTO.finditer(v.text):
        unit = m.group("flat") or ((p := v.reg.get(m.group("place"))) is not None and p.type == "place" and p.name)
        if unit and (who := _person(v, m.group("who"), m.start())) is not None:
            v.add(" ".join(unit.split()), "tenant", who, m.start(), end=m.end())
    let = _LET_WORDS.search(v.sent.t.turn.content or "") is not None
    for m in [*_MOVES_IN_AT.finditer(v.text), *(_PAYS.finditer(v.text) if let else ())]:
        if (who := _person(v, m.group("who"), m.start())) is not None:
            pronoun = m.group("who").lower() in ("she", "he")  # ("She pays 1,150 a month": whose, said)
            v.add(who, "rent", m.group("num"), m.start(), end=m.end(),
                  text=f"{who}'s rent is {m.group('num')} a month." if pronoun else None)
    for rx in _DEPOSIT:
        for m in rx.finditer(v.text):
            said = m.group("whose")
            whose = v.owner(re.sub(r"['’]s$", "", said), m.start())
            scheme = re.sub(r"^(?i:the)\s+", "", m.group("scheme")).rstrip(" .")
            if whose and scheme.split()[0].lower() not in lx.STOPWORDS | lx.DATE_WORDS:
                v.add(whose, "deposit scheme", scheme, m.start(), end=m.end())


TENANCY_READERS = (_tenancy,)
