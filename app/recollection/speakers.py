"""Which speakers a query names: read by the ranker's speaker columns (a question about a person
is mostly proved by what that person said) and by the foresight channel (a constraint of the
person asked about comes before another's)."""
from __future__ import annotations

from functools import lru_cache

from app.store import term_stats


@lru_cache(maxsize=1024)
def _name_terms(speaker: str) -> frozenset[str]:
    return frozenset(term_stats.query_terms(speaker))


def named_speakers(said: dict[str, str], query: str) -> set[str]:
    """The speakers (of the turns in `said`) that the query names."""
    return names_in(set(said.values()), query)


def names_in(names: set[str], query: str) -> set[str]:
    """The names the query names: a word of the name, as BM25 reads words (stemmed, stop words
    left out), is a word of the query."""
    asked = set(term_stats.query_terms(query)) if query else set()
    return {s for s in names if _name_terms(s) & asked} if asked else set()
