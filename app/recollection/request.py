"""What a search asks for, validated once at the edge of the read path."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from enum import Enum

from app.domain.models import ID_RULE, names_something, plain_text


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


def as_utc(v: datetime | None, name: str) -> datetime | None:
    """A moment of a request in UTC; one given without an offset is UTC (Neo4j compares a local
    time with the stored zoned ones as null, which would match nothing). In UTC the offset
    cannot be one Neo4j refuses (Python allows up to 24 h, Neo4j 18 h), and a moment whose UTC
    day falls outside the calendar (9999-12-31T23:00-05:00) is a clear error, not the driver's."""
    if v is None:
        return None
    try:
        return (v if v.tzinfo else v.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
    except (OverflowError, ValueError):
        raise SearchInputError(f"{name} is outside the calendar once in UTC", name) from None


def moment(v: datetime | None, name: str = "asOf") -> datetime:
    """The moment a question is asked about: `v` in UTC, else now (what is true now)."""
    return as_utc(v, name) or datetime.now(timezone.utc)


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
    # The calendar day of asOf where the client is (its offset), before asOf is taken in UTC:
    # "yesterday" asked at 20:00-07:00 on the 5th is the 4th, though it is the 6th in UTC.
    as_of_day: date | None = None

    def validated(self, max_top_k: int, max_hops: int) -> "SearchRequest":
        q = plain_text(self.query or "").strip()
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
        for name, v in (("groupId", self.group_id), ("userId", self.user_id),
                        ("conversationId", self.conversation_id)):
            if v is not None and not names_something(v):  # as memorize takes them
                raise SearchInputError(f"{name} must be {ID_RULE}", name)
        bad = [k for k in self.kinds if k not in KINDS]
        if not self.kinds:  # as the API names them: the enum's values
            raise SearchInputError(f"kinds is empty: name at least one of {', '.join(KINDS).upper()}, "
                                   "or leave it out for all", "kinds")
        if bad:
            raise SearchInputError(f"kinds must be among {', '.join(KINDS).upper()}", "kinds")
        self.query = q
        self.time_from, self.time_to = as_utc(self.time_from, "from"), as_utc(self.time_to, "to")
        if self.as_of is not None and self.as_of_day is None:
            self.as_of_day = self.as_of.date()
        self.as_of = as_utc(self.as_of, "asOf")
        if self.time_from and self.time_to and self.time_from > self.time_to:
            raise SearchInputError("from is after to", "from")
        return self

    @property
    def at(self) -> datetime:
        """The moment the question is asked about: asOf, else now."""
        return self.as_of or self.now

    @property
    def day(self) -> date:
        """The day the question is asked about, as the client counts days."""
        return self.as_of_day or self.at.date()
