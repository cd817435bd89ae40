"""A value said again later, in other words. Extraction reads a changed value as one timeline only
in the phrasings it knows; said otherwise ("the hall costs us £60 an evening", weeks later "I
negotiated the hall down to £70 an evening"), both stay current and the older, often the wordier,
ranked first. Here two hits that say an amount of the same kind (money, a share, a count of the
same things) about the same words, with different amounts, are read as two sayings of one value:
the older is marked with the later (`Hit.revised_by`: the context block and the API say so, so a
reader is never shown the older as the last word), and for a question about now they are put in
the order they were said, the later first. Only a mark and a reordering: the older stays in the
results (a question about a moment or a period keeps the fused order: search.py)."""
from __future__ import annotations

import re
from datetime import datetime

from app.construction import lexicon as lx

# How many hits are read: an older saying below these is out of the answer's view already.
LOOKED_AT = 10
_MONEY = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?k?")
_SHARE = re.compile(r"\b\d{1,3}(?:\.\d+)?%")
_COUNT = re.compile(r"\b(\d{1,5})\s+(?:[a-z]+\s+)?([a-z]{3,}s)\b")
_WORD = re.compile(r"[a-z][a-z'-]{2,}")
# Words that say nothing of what a value is of.
_FILLER = frozenset("""now still just also really new old btw lol haha yes yeah yep okay
said says think going got get news good great""".split())


def _values(text: str) -> dict[str, set[str]]:
    """The amounts `text` says, by kind."""
    found: dict[str, set[str]] = {}
    for m in _MONEY.finditer(text):
        found.setdefault("money", set()).add(m.group().replace(" ", "").rstrip(".,"))
    for m in _SHARE.finditer(text):
        found.setdefault("share", set()).add(m.group())
    for m in _COUNT.finditer(text.lower()):
        if m.group(2) not in lx.STOPWORDS:
            found.setdefault(f"count of {m.group(2)}", set()).add(m.group(1))
    return found


# Who said it, told first: "Lena said the Full Day package is $4,200" (two sayings of one speaker
# share that word, not what they are about).
_SAID_BY = re.compile(r"^\s*\S+(?:\s+[A-Z]\S*)?\s+(?:said|says|thinks|wants|reckons|mentioned)\s+")


def _words(text: str) -> set[str]:
    text = _SAID_BY.sub("", text)
    return {w for w in _WORD.findall(text.lower()) if w not in lx.STOPWORDS and w not in _FILLER}


# A word of a sentence, with its owner's "'s" ("Priya's deposit came in").
_TOKEN = re.compile(r"[A-Za-z]+(?:['’]s\b)?")
_SENTENCES = re.compile(r"(?<=[.!?:])\s+|\n+")


def _names(text: str) -> set[str]:
    """The names `text` gives: a capitalised word inside a sentence, one owning something wherever
    it stands, or a sentence's first word before another name ("Pennine Dairy price rise"); a
    sentence's first word alone may be any word ("Gas went up again"). Not days, months or "I"."""
    found: set[str] = set()
    for sentence in _SENTENCES.split(text):
        words = [(tok[:-2], True) if tok[-2:] in ("'s", "’s") else (tok, False) for tok in _TOKEN.findall(sentence)]
        named = [len(w) > 1 and w[0].isupper() and w[1:].islower() and w.lower() not in lx.DATE_WORDS
                 for w, _ in words]
        for i, ((word, owner), name) in enumerate(zip(words, named)):
            if name and (i or owner or len(named) > 1 and named[1]):
                found.add(word)
    return found


def _said(hit) -> tuple[str, datetime | None]:
    node = hit.node
    text = node.get("content") if hit.kind == "turn" else node.get("text") if hit.kind == "fact" else None
    when = node.get("at") if hit.kind == "turn" else node.get("statedAt") or node.get("validFrom")
    when = when.to_native() if hasattr(when, "to_native") else when
    return (text or "", when if isinstance(when, datetime) else None)


def _same_thing(a: tuple, b: tuple) -> bool:
    """Whether two sayings (amounts, words, names) give amounts of one kind, different ones, about
    the same words, and, for sums of money and shares, do not each name others: "Priya's deposit
    came in, $1,000" and "Chloe and Ben paid their deposit, $1,200" are two couples' deposits."""
    (va, wa, na), (vb, wb, nb) = a, b
    changed = {k for k in set(va) & set(vb) if not va[k] & vb[k]}
    if not changed:
        return False  # (no kind in common, or each said again: no change)
    if na and nb and not na & nb and not any(k.startswith("count") for k in changed):
        # (whom a count names are often its members: "Bake stall now has 5 volunteers, Nina joined")
        return False
    shared = wa & wb
    return len(shared) >= 2 and len(shared) >= 0.15 * len(wa | wb)


def later_values(hits: list, reorder: bool) -> list:
    """`hits`, each older saying of a value marked with the latest later one among the first
    hits; with `reorder` (a question about now), an older saying and its later one changing
    places when the later ranked lower (the others keep theirs: a later saying from far below
    displaces no answer between)."""
    top = hits[:LOOKED_AT]
    read = []
    for h in top:
        text, when = _said(h)
        read.append((_values(text), _words(text), _names(text), when) if text and when else None)
    later: dict[int, int] = {}  # an older saying's place -> its latest later saying's
    for j in range(1, len(top)):
        if read[j] is None or not read[j][0]:
            continue
        for k in range(len(top)):
            if k != j and read[k] is not None and read[k][3] < read[j][3] \
                    and _same_thing(read[k][:3], read[j][:3]) \
                    and (k not in later or read[later[k]][3] < read[j][3]):
                later[k] = j
    for k, j in later.items():
        top[k].revised_by = top[j]
    if not reorder or not later:
        return hits
    order = list(range(len(top)))
    for j in range(1, len(top)):
        if read[j] is None or not read[j][0]:
            continue
        pos = order.index(j)
        # the highest-ranked older saying of the same thing it says anew
        older = next((k for k in order[:pos] if read[k] is not None and read[k][3] < read[j][3]
                      and _same_thing(read[k][:3], read[j][:3])), None)
        if older is not None:  # the two change places, the rest keep theirs
            i = order.index(older)
            order[i], order[pos] = j, older
    if order == list(range(len(top))):
        return hits
    ordered = [top[i] for i in order] + hits[LOOKED_AT:]
    for i, h in enumerate(ordered, 1):
        h.rank = i
    return ordered
