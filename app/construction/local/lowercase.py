"""Texting in lower case: names the episode spells elsewhere, names found by their cues."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.bounds import LETTER
from app.construction.local.entities import _DROP, _KIN_ADJ, _KIN_ALT, _Mention, _Registry, _key
from app.construction.local.sentence import _Sentence
from app.construction.local.fact_patterns import _I


# Words that end a name written in lower case ("i work at wise now").
_NOT_NAME = (lx.STOPWORDS | lx.ADVERBS | lx.DATE_WORDS | lx.COMMON_WORDS | lx.PRONOUNS | lx.INTERJECTIONS
             | frozenset("""now tho though lol btw too again anymore already yet haha lmao home work school uni college
    office night weekends weekend there here""".split()))
# "the coast" is no name
_LOWER_NAME = re.compile(rf"([a-z](?:{LETTER}|['&-])*(?:\s+[a-z](?:{LETTER}|['&-])*){{0,2}})")


# Cues that the lower-case word after them is someone's name: "how's priya", "tell dev",
# "my sister lena" (the words people are asked after, told, met or related by).
_LOWER_PERSON_CUE = re.compile(
    rf"(?<![\w'])(?:hows|how's|how\s+is|tell|told|ask|asked|texted|text|call|called|met|meet|"
    rf"(?:my|our|your)\s+(?:(?:{_KIN_ADJ})\s+)?(?:{_KIN_ALT}))\s+([a-z](?:{LETTER}|-){{2,}})(?![\w'])(?!\s+\d)",
    _I)
_NOT_PERSON = _NOT_NAME | lx.KIN | lx.PETS | frozenset(
    "life things stuff everyone family job uni mum mom dad about him her them us up back".split()) | frozenset(
    # what a relative does ("my mum turns 60", "my dad says"): a verb, not a name
    """turns says thinks wants lives works loves hates needs gets goes comes makes takes keeps feels
    looks seems sounds reckons knows calls texts rang""".split())


def _discover_lowercase(sent: _Sentence, reg: _Registry) -> None:
    """Persons named in lower case where a cue says the word is a name; found in every sentence
    of the episode afterwards (_known_names)."""
    for m in _LOWER_PERSON_CUE.finditer(sent.text):
        w = m.group(1).lower()
        if w in _NOT_PERSON or w in _DROP or w.endswith(("ing", "ly", "ed")):
            continue
        reg.add(w[:1].upper() + w[1:], {"person": 4.0})


def _known_names(reg: _Registry) -> re.Pattern | None:
    """The episode's names (a speaker's, one capitalised somewhere), to find where a sentence
    in lower case writes them: texting in lower case is common and names carry the graph."""
    keys = [k for k, e in reg.by_key.items()
            if len(k) >= 3 and not e.kin_unnamed and e.type != "thing"
            and not any(w in _NOT_NAME or w in _DROP for w in k.split())]
    # a titled name by its title and surname ("dr green", of Dr. Paul Green: "Dr" had done "green")
    keys += [f"{w[0]} {w[-1]}" for k, e in reg.by_key.items() if e.type == "person"
             and len(w := k.replace(".", "").split()) >= 3 and w[0] in lx.TITLES and w[-1] not in _NOT_NAME]
    if not keys:
        return None
    return re.compile(r"(?<![\w'])(" + "|".join(re.escape(k).replace(r"\ ", r"\.?\s+")
                                                 for k in sorted(set(keys), key=len, reverse=True))
                      + r")(?![\w-])", _I)


def _titled(reg: _Registry, said: str) -> str:
    """The name `said` stands for: its own, or the titled one whose title and surname it is."""
    key = _key(said)
    if key in reg.by_key:
        return reg.by_key[key].name
    words = said.lower().replace(".", "").split()
    return next((e.name for k, e in reg.by_key.items() if e.type == "person"
                 and (w := k.replace(".", "").split())[0] == words[0] and w[-1] == words[-1] and len(w) >= 3), said)


def _known_in_lowercase(sent: _Sentence, known: re.Pattern, reg: _Registry) -> list[_Mention]:
    out = list(sent.mentions)
    taken = [(m.start, m.end) for m in out]
    for m in known.finditer(sent.text):
        if any(m.start() < e and b < m.end() for b, e in taken):
            continue
        key = reg.add(_titled(reg, m.group(1)))
        if key:
            out.append(_Mention(m.start(), m.end(), m.group(1), key))
    return sorted(out, key=lambda x: (x.start, -x.end))


_THE_END = re.compile(r"\bthe\s*$", _I)  # "moved to the coast": a noun, not a name


def _lowercase_name(after: str, sent: _Sentence, reg: _Registry, etype: str) -> tuple[str, str] | None:
    """In a sentence written in lower case, the name a rule expects where it expects it ("we
    moved to clapham", "i work at wise now"): registered as an entity of the rule's type."""
    m = _LOWER_NAME.match(after.lstrip())
    if not m:
        return None
    words = []
    for w in m.group(1).split():
        if w in _NOT_NAME or w.endswith(("ing", "ly")):
            break
        words.append(w)
    if not words or len("".join(words)) < 3:
        return None
    surface = " ".join(words)
    name = " ".join(w[:1].upper() + w[1:] for w in words)
    key = reg.add(name, {etype: 5.0})
    if not key:
        return None
    start = sent.text.lower().find(surface)
    if start >= 0:
        sent.mentions = sorted([*sent.mentions, _Mention(start, start + len(surface), surface, key)],
                               key=lambda x: (x.start, -x.end))
    ent = reg.get(key)
    return ent.name, ent.type


def _entity_at(s: str, sent: _Sentence, reg: _Registry) -> tuple[str, str] | None:
    """The (canonical name, type) of the entity mentioned at the start of `s`."""
    found = _entity_and_rest(s, sent, reg)
    return found[:2] if found else None


def _entity_and_rest(s: str, sent: _Sentence, reg: _Registry) -> tuple[str, str, str] | None:
    """(canonical name, type, the text after the name as said) of the entity mentioned at the
    start of `s`, past spaces and "the" ("The Hobbit is ...": the rest is " is ...")."""
    s = s.lstrip()
    if s[:4].lower() == "the ":
        s = s[4:]
    best = None
    for m in sent.mentions:
        if s.startswith(m.surface) and (best is None or len(m.surface) > len(best.surface)):
            best = m
    if best is None:
        return None
    ent = reg.get(best.key)
    return (ent.name, ent.type, s[len(best.surface):]) if ent else None


def _entity_in(s: str, sent: _Sentence, reg: _Registry) -> tuple[str, str] | None:
    """The first non-person entity mentioned within `s`."""
    for m in sent.mentions:
        if m.surface in s:
            ent = reg.get(m.key)
            if ent and ent.type != "person":
                return ent.name, ent.type
    return None
