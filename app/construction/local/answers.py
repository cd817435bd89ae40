"""Constraints said as the answer to a question: "Any allergies I should know about?" "Yes,
tree nuts." The answer alone names no allergy, so the sentence rules (foresight.py) read it as
nothing, or as the fact "Ana said tree nuts": an assistant taking a user's order, a friend
planning a dinner ask exactly so, and the allergy was lost."""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.construction import lexicon as lx
from app.construction.local.bounds import LETTER
from app.construction.local.entities import _Registry
from app.construction.local.fact_patterns import _I
from app.construction.local.sentence import _Sentence

_ASKS_ALLERGY = re.compile(r"\ballerg(?:y|ies|ic)\b", _I)
# The whole sentence is the answer: a few words naming what, after a yes or a softener
# ("Yes, tree nuts." "Just shellfish, sadly." "peanuts and sesame"). A longer sentence says
# more than an answer, and the sentence rules read it.
_WORDS = rf"(?:{LETTER}|-)+(?:\s+(?:{LETTER}|-)+){{0,2}}"
# Said after the answer, not part of it: "shellfish, sadly", "Brazil nuts only".
_SOFT = ("only", "though", "unfortunately", "sadly", "i'm afraid", "haha", "lol")
_SOFT_ALT = "|".join(re.escape(w) for w in _SOFT)
_ANSWER = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|yea|sadly|unfortunately|only|just|mostly|actually|well)[,!.]*\s+)*"
    rf"(?P<x>{_WORDS}(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+|\s+or\s+){_WORDS}){{0,3}})"
    rf"(?:\s*,?\s*(?:{_SOFT_ALT}))?\s*[.!]*$", _I)
_ITEM_SEP = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|or)\s+", _I)
_TRAILING_SOFT = re.compile(rf"(?:\s+(?:{_SOFT_ALT}))+$", _I)
_ALLERGENS = lx.FOODS | lx.PET_ALLERGENS | lx.OUTDOOR_ALLERGENS | lx.MEDICINES


@dataclass(frozen=True)
class Asked:
    """A question about allergies: who asked, in which turn, and of whom (a person it names,
    else whoever answers)."""
    asker: str
    turn: int
    about: str | None


def asked_allergy(sent: _Sentence, reg: _Registry) -> Asked | None:
    """The question `sent` asks about allergies, if it does."""
    if not (sent.question and _ASKS_ALLERGY.search(sent.text)):
        return None
    # A name asked about has allergies: a person, even one not yet known to be ("Does Jonas have
    # any allergies?"; a place or an organisation has none).
    named = [e.name for m in sent.mentions
             if (e := reg.get(m.key)) and e.type in ("person", "thing") and not e.speaker]
    return Asked(sent.t.speaker, sent.t.index, named[0] if len(set(named)) == 1 else None)


def answered_allergy(sent: _Sentence, asked: Asked | None) -> tuple[str, str] | None:
    """(whose, what) when `sent` answers `asked` by naming allergens: said in the next turn, by
    someone else, and nothing but the answer."""
    if asked is None or sent.question or sent.t.index != asked.turn + 1 or sent.t.speaker == asked.asker:
        return None
    m = _ANSWER.match(sent.text.strip())
    if not m:
        return None
    items = [i.strip() for i in _ITEM_SEP.split(m.group("x")) if i.strip()]
    while items and items[-1].lower() in _SOFT:  # "shellfish, sadly"
        items.pop()
    if items:  # "Brazil nuts only"
        items[-1] = _TRAILING_SOFT.sub("", items[-1])
    if not items:
        return None
    x = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    first = x.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower() and first.lower() not in lx.PLACES | lx.DEMONYMS:
        x = x[0].lower() + x[1:]  # the sentence's capital, not a name's ("Brazil nuts" keeps it)
    words = re.findall(rf"(?:{LETTER}|-)+", x.lower())
    # One word at least a known allergen ("tree nuts"), none a stop word but the joins: "no",
    # "none", "not really", "the red one" are no allergy.
    if not any(w in _ALLERGENS for w in words) or any(w in lx.STOPWORDS and w not in ("and", "or")
                                                      for w in words):
        return None
    return asked.about or sent.t.speaker, x
