"""What a search asks for, validated once at the edge of the read path."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum


class Method(str, Enum):
    KEYWORD = "KEYWORD"
    VECTOR = "VECTOR"
    GRAPH = "GRAPH"
    HYBRID = "HYBRID"
    AGENTIC = "AGENTIC"


# Which channels each method runs.
METHOD_CHANNELS: dict[Method, tuple[str, ...]] = {
    Method.KEYWORD: ("keyword",),
    Method.VECTOR: ("vector",),
    Method.GRAPH: ("graph",),
    Method.HYBRID: ("vector", "keyword", "graph", "foresight", "scene", "day"),
    # AGENTIC runs HYBRID rounds (app/recollection/agentic.py).
    Method.AGENTIC: ("vector", "keyword", "graph", "foresight", "day"),
}

KINDS = ("memcell", "fact", "turn", "foresight", "scene")
MAX_QUERY_CHARS = 4000


class SearchInputError(ValueError):
    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def utc_if_naive(v: datetime | None) -> datetime | None:
    """A moment given without an offset is UTC (Neo4j compares a local time with the stored
    zoned ones as null, which would match nothing)."""
    if v is None:
        return None
    return v if v.tzinfo else v.replace(tzinfo=timezone.utc)


@dataclass
class SearchRequest:
    query: str
    method: Method = Method.HYBRID
    top_k: int = 10
    group_id: str | None = None
    user_id: str | None = None
    time_from: datetime | None = None
    time_to: datetime | None = None
    as_of: datetime | None = None
    include_superseded: bool = False
    token_budget: int | None = None
    kinds: tuple[str, ...] = KINDS
    hops: int = 2
    conversation_id: str | None = None
    now: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    def validated(self, max_top_k: int, max_hops: int) -> "SearchRequest":
        q = (self.query or "").strip()
        if not q:
            raise SearchInputError("query is empty", "query")
        if len(q) > MAX_QUERY_CHARS:
            raise SearchInputError(f"query is longer than {MAX_QUERY_CHARS} characters", "query")
        if "\x00" in q:
            raise SearchInputError("query contains a NUL character", "query")
        if not 1 <= self.top_k <= max_top_k:
            raise SearchInputError(f"topK must be between 1 and {max_top_k}", "topK")
        if not 1 <= self.hops <= max_hops:
            raise SearchInputError(f"hops must be between 1 and {max_hops}", "hops")
        if self.token_budget is not None and not 16 <= self.token_budget <= 32000:
            raise SearchInputError("tokenBudget must be between 16 and 32000", "tokenBudget")
        bad = [k for k in self.kinds if k not in KINDS]
        if bad or not self.kinds:
            raise SearchInputError(f"kinds must be among {', '.join(KINDS)}", "kinds")
        self.query = q
        self.time_from, self.time_to = utc_if_naive(self.time_from), utc_if_naive(self.time_to)
        self.as_of = utc_if_naive(self.as_of)
        if self.time_from and self.time_to and self.time_from > self.time_to:
            raise SearchInputError("from is after to", "from")
        return self

    @property
    def at(self) -> datetime:
        """The moment the question is asked about: asOf, else now."""
        return self.as_of or self.now
