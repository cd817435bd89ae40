"""Sentence boundaries, as character spans, shared by the local extractor (which parses each
sentence) and the pipeline (which gives each sentence a vector from its turn's pass of the model).
"""
from __future__ import annotations

import re

EMOJI_CLASS = (
    "\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2300-\u23FF\uFE0F\u200D\u20E3"
    "\U000E0000-\U000E007F"
)
_BOUNDARY = re.compile(
    rf"[.!?\u2026]+[\"')\]]*(?=\s|$)|[\u3002\uff01\uff1f]+|\n+|[{EMOJI_CLASS}]+(?=\s+[A-Z]|\s*$)"
)
_ABBREVIATIONS = frozenset("""
mr mrs ms mx dr prof st jr sr vs etc e.g i.e eg ie inc ltd co corp mt no approx dept est fig
a.m p.m u.s u.k jan feb mar apr jun jul aug sep sept oct nov dec ave av blvd rd gen col lt sgt rev
apt ste dra sra srta mme mlle incl excl tel
""".split())
_LAST_WORD = re.compile(r"([\w.]+)[.]+[\"')\]]*$")
_WORD = re.compile(r"\w+")


def sentence_spans(text: str, limit: int = 48, offset: int = 0) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, in order, whitespace trimmed, shifted by `offset`;
    abbreviations, initials and decimals do not end one."""
    out: list[tuple[int, int]] = []

    def add(a: int, z: int) -> None:
        piece = text[a:z]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece) - len(piece.rstrip())
        if z - trail > a + lead:
            out.append((offset + a + lead, offset + z - trail))

    start = 0
    for m in _BOUNDARY.finditer(text):
        mark = m.group()
        if "." in mark and not any(c in mark for c in "!?\u2026"):
            lw = _LAST_WORD.search(text[start:m.end()])
            word = lw.group(1).lower() if lw else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        add(start, m.end())
        if len(out) >= limit:
            return out
        start = m.end()
    if len(out) < limit:
        add(start, len(text))
    return out


def split_sentences(text: str, limit: int = 48) -> list[str]:
    return [text[a:z] for a, z in sentence_spans(text, limit)]


def best_span(text: str, spans: list[tuple[int, int]], claim: str, offset: int = 0) -> int:
    """The index of the span of `text` sharing the most words with `claim` (a fact restated from
    one of its sentences: "I work at X" -> "Maya works at X"); the first on a tie. Spans are
    shifted by `offset`, as sentence_spans(text, offset=...) gives them."""
    if len(spans) <= 1:
        return 0
    want = {w.lower() for w in _WORD.findall(claim)}
    scores = [len(want & {w.lower() for w in _WORD.findall(text[a - offset:z - offset])}) for a, z in spans]
    return max(range(len(spans)), key=lambda i: (scores[i], -i))
