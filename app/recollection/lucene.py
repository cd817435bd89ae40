"""Turn user text into a safe Lucene query: every word a plain term, nothing an operator.

Escaping special characters is not enough (AND/OR/NOT and a trailing backslash still change
meaning), so the text is tokenised and only word tokens are kept, each quoted-free and escaped.
"""
from __future__ import annotations

import re

_WORD = re.compile(r"[\w][\w'’-]*", re.UNICODE)
_OPERATORS = {"and", "or", "not", "to"}
STOP = {
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "do", "does", "did", "of", "in",
    "on", "at", "for", "with", "by", "from", "what", "when", "where", "who", "whom", "which", "why",
    "how", "it", "its", "that", "this", "these", "those", "as", "into", "about", "has", "have", "had",
    "i", "you", "he", "she", "they", "we", "me", "my", "your", "his", "her", "their", "our", "them",
    "would", "could", "should", "can", "will", "may", "might", "s", "t", "any", "some", "there",
}
_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


def terms(text: str, max_terms: int = 32) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        w = w.strip("'’-")
        if not w or w in STOP or w in _OPERATORS:
            continue
        if w not in out:
            out.append(w)
        if len(out) >= max_terms:
            break
    return out


def safe_query(text: str, max_terms: int = 32) -> str | None:
    """A Lucene query OR-ing the words of `text`; None when no word is left."""
    ts = terms(text, max_terms)
    return " ".join(_SPECIAL.sub(r"\\\1", t) for t in ts) or None
