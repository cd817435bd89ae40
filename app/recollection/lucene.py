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


def safe_terms(text: str, max_terms: int = 32) -> list[str]:
    """The words of `text`, each a plain Lucene term (escaped); empty when no word is left."""
    return [_SPECIAL.sub(r"\\\1", t) for t in terms(text, max_terms)]


def word_queries(words: list[str], fields: list[str], tenant: str) -> list[str]:
    """One query per word (bm25.proposals), the word in any of `fields`, the tenant required
    (one exact token)."""
    return [f"+({' OR '.join(f'{f}:({w})' for f in fields)}) +tenant:{tenant}" for w in words]
