"""The channel interface and what channels return."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Awaitable, Callable, Protocol, TypeVar

import numpy as np

from app.recollection.channels import nearest
from app.recollection.lucene import safe_terms
from app.construction.dates import find_dates
from app.recollection.named_dates import RELATIVE, Period, asks_ahead, named_period
from app.recollection.query_adapter import QueryAdapter
from app.recollection.request import SearchRequest
from app.store import term_stats
from app.store.graph import TenantGraph
from app.store.vector import VectorQuery, as_floats

T = TypeVar("T")


@dataclass(frozen=True)
class Candidate:
    kind: str  # memcell | fact | turn | foresight
    key: str  # the node's elementId: stable while the node lives, cheap to look up
    score: float
    note: str = ""  # why, in a few words (e.g. "2 hops from Caroline")
    evidence: tuple[str, ...] = ()  # elementIds of the source turns, most relevant first
    # A turn's reply (the next turn, when it passes the request's filters), for fusion's reply
    # boost: the channels that rank turns read it in the same query (fusion.py, replies).
    reply: str | None = None
    # Who said its evidence turns and its reply, as (turn, speaker) pairs: the ranker weighs
    # whether the query names a turn's speaker (ranker.py, SPEAKER).
    speakers: tuple[tuple[str, str], ...] = ()
    # Which of the query's words (SearchContext.words) a ranked turn and its reply hold, as
    # (turn, words) pairs for those that hold any: the ranker's coverage column (ranker.py).
    # Only the channels that rank turns read them (keyword, vector, day), in the same query.
    holds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Pinned among the first hits (fusion.ranked) besides its channel's first candidate: a
    # second person's standing constraint ("a restaurant for Ines, booked by Callum").
    pin: bool = False
    # ... and first: the current value of the one thing the query asks after ("Where does Jun
    # work?", "What are we using for the event bus?"; channels/graph.py), which is the answer.
    answer: bool = False
    # Found below its channel's bar (a named person's constraint, channels/foresight.py): ranked
    # after those that clear it, never pinned, and no rank the learned ranker reads (ranker.py,
    # source_lists): a hit for what the other channels make of its turn.
    weak: bool = False
    # Ranked only as the reply of a turn that matched (the keyword channel's prior): the rank is
    # that turn's, read again. The ranker reads it for this turn, not for the turn after it
    # (ranker.py, features: the block of the turn before).
    second_hand: bool = False
    # Never pinned, ranked as any hit by its turns: foresight for a question after a fact
    # ("Who is Raj's doctor?" is no situation where "Raj has diabetes", whose trigger lists
    # doctors, must surface; channels/foresight.py, situation).
    free: bool = False


@dataclass(frozen=True)
class VectorPart:
    """Work on the query vector, sent with the search's other parts in one query
    (channels/nearest.py). `query` ends in one column, RETURN ... AS <column>; `params` are
    the part's own parameters, by their names in `query` (the vector, the words and the
    request's filters are shared by every part), or a coroutine function giving them once the
    part can be planned (None: the part is left out). `uses`: columns of other parts the
    query reads (imported into its subquery)."""
    column: str
    query: VectorQuery
    params: dict | Callable[[], Awaitable[dict | None]] = field(default_factory=dict)
    uses: tuple[str, ...] = ()


@dataclass
class SearchContext:
    graph: TenantGraph
    request: SearchRequest
    vector_task: Awaitable[np.ndarray]  # the query's embedding, computed while lexical work starts
    depth: int  # how many candidates of each kind a channel returns
    filters: dict = field(default_factory=dict)
    # The form a vector is sent to Neo4j in (Services.vector_param).
    vector_param: Callable[[Any], Any] = as_floats
    # The vector parts of the channels that run, by column (SearchService fills it).
    parts: dict[str, VectorPart] = field(default_factory=dict)
    # The map of the query vector for comparing it with turns, facts and episodes
    # (query_adapter.py); None: the model's own vector.
    adapter: QueryAdapter | None = None
    # The query's words' idf over the tenant's turns (keyword channel, when it runs): how much
    # each word a turn holds counts in the ranker's coverage column.
    word_idf: dict[str, float] = field(default_factory=dict)
    # The query with the user's first person as their name (first_person.py), for what reads a
    # query's names and words; "" when it says no "I" or names no user.
    named_query: str = ""
    _vector: Any = None
    _adapted: Any = None
    _shared: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The query as its names and words are read: "Where does Jun work?" for Jun's "Where
        do I work?" (named_query)."""
        return self.named_query or self.request.query

    @cached_property
    def lucene_terms(self) -> list[str]:
        """The query's words as safe Lucene terms (lucene.safe_terms), once per search."""
        return safe_terms(self.text)

    @cached_property
    def named_period(self) -> Period | None:
        """The days the query names (named_dates.named_period), relative ones counted from the
        day the question is asked about; once per search."""
        query = self.request.query
        return named_period(query, self.request.day, prefer="future" if asks_ahead(query) else "past")

    @cached_property
    def keyword_terms(self) -> tuple[list[str], list[str]]:
        """(lucene_terms, words) for matching texts by their words. Asked what is ahead, without
        the words of a relative period the query names ("What is coming up next week?"): the
        foresight channel lists the plans of those days by date, and in a text "next week" is
        the week after its saying ("Marco takes on-call next week", said a week ago, ranked
        first). Asked about the past, the words stay: "What event did John volunteer at last
        weekend?" is answered by "I volunteered at ... last weekend" (LoCoMo dev: two questions
        lost without them)."""
        query = self.text
        if self.named_period is None or not asks_ahead(query):
            return self.lucene_terms, self.words
        cut = query
        for m in sorted(find_dates(query, self.request.day), key=lambda m: -m.pos):
            if m.relative and m.granularity in RELATIVE:
                cut = cut[:m.pos] + " " + cut[m.end_pos:]
        terms, words = safe_terms(cut), term_stats.query_terms(cut)
        return (terms, words) if terms and words else (self.lucene_terms, self.words)

    @cached_property
    def words(self) -> list[str]:
        """The query's words that BM25 scores (term_stats.query_terms), once per search."""
        return term_stats.query_terms(self.text)

    async def vector(self) -> Any:
        """The query's embedding, as a query parameter."""
        if self._vector is None:
            self._vector = self.vector_param(await self.vector_task)
        return self._vector

    async def adapted(self) -> Any:
        """The query vector turns, facts and episodes are compared with (`$adapted`), as a
        query parameter."""
        if self._adapted is None:
            self._adapted = (self.vector_param(self.adapter.apply(await self.vector_task))
                             if self.adapter else await self.vector())
        return self._adapted

    async def nearest(self, column: str) -> Any:
        """One column of the search's vector query (all the parts, one round trip, run once);
        None for a part left out."""
        return (await self.shared("nearest", lambda: nearest.run(self))).get(column)

    def shared(self, name: str, make: Callable[[], Awaitable[T]]) -> Awaitable[T]:
        """One run of a query several channels need (the first caller starts it)."""
        if name not in self._shared:
            self._shared[name] = asyncio.ensure_future(make())
        return self._shared[name]


# The query's words (`$terms`, SearchContext.words) a turn `t` holds, read from the words its
# keyword statistics keep (term_stats.node_terms). The channels that rank turns return them as
# `holds` (and `replyHolds` for the reply they read); not read for the evidence turns of facts
# and episodes, whose own text is what matched: the ranker's coverage column measured the same
# without them (LoCoMo dev, held out: R@10 0.8091, against 0.8078 with them), and they were
# most of what the words cost Neo4j.
def holds(t: str) -> str:
    return f"[w IN $terms WHERE w IN {t}.terms]"


# Evidence of a hit `n`, as [elementId, speaker] of turns: a MemCell's few turns closest to the
# query, the source turns of a fact or foresight, a turn itself. Appended to each channel's RETURN.
# An episode is kept when it overlaps the time asked about or holds the user's turns; its
# evidence is only the turns that do (a turn said after asOf, or another speaker's, proves
# nothing asked), as the queries using it filter episodes by filters.MEMCELL (same parameters).
EVIDENCE = {
    "turn": "[[elementId(n), n.speaker]]",
    "fact": "[(n)-[:EVIDENCED_BY]->(t:Turn) | [elementId(t), t.speaker]]",
    "foresight": "[(n)-[:EVIDENCED_BY]->(t:Turn) | [elementId(t), t.speaker]]",
    "memcell": ("COLLECT { MATCH (n)-[:EVIDENCED_BY]->(t:Turn) "
                "WHERE ($from IS NULL OR t.at >= $from) AND ($to IS NULL OR t.at <= $to) "
                "AND ($asOf IS NULL OR t.at <= $asOf) AND ($userId IS NULL OR t.userId = $userId) "
                "WITH t ORDER BY vector.similarity.cosine(t.embedding, $adapted) DESC, t.seq LIMIT 3 "
                "RETURN [elementId(t), t.speaker] }"),
}


def evidence_of(row: dict) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...],
                                    tuple[tuple[str, tuple[str, ...]], ...]]:
    """A row's evidence turns (EVIDENCE's pairs), who said them and its reply (`replyBy`), and
    the query's words a turn row and its reply hold (`holds`, `replyHolds`)."""
    pairs = row.get("evidence") or ()
    said = tuple((t, s) for t, s in pairs if s)
    held = ((row["key"], tuple(row["holds"])),) if row.get("holds") else ()
    if row.get("reply"):
        if row.get("replyBy"):
            said += ((row["reply"], row["replyBy"]),)
        if row.get("replyHolds"):
            held += ((row["reply"], tuple(row["replyHolds"])),)
    return tuple(t for t, _ in pairs), said, held


def candidate(kind: str, row: dict, score: float, note: str) -> Candidate:
    evidence, said, held = evidence_of(row)
    return Candidate(kind, row["key"], score, note, evidence, row.get("reply"), said, held,
                     second_hand=bool(row.get("secondHand")))


def candidates(kind: str, rows: list[dict], note) -> list[Candidate]:
    return [candidate(kind, r, float(r["score"]), note(r)) for r in rows]


class Channel(Protocol):
    name: str

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        """This channel's parts of the search's vector query, read through ctx.nearest()."""
        ...

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        """Candidates in rank order (best first), up to ctx.depth of each kind: fusion ranks each
        kind on its own (fusion.py, ranker.py), so a kind is not cut short by the others."""
        ...


def interleave(lists: list[list[Candidate]]) -> list[Candidate]:
    """Round-robin merge of rankings whose scores are not comparable (e.g. BM25 per index)."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for i in range(max((len(x) for x in lists), default=0)):
        for lst in lists:
            if i < len(lst) and lst[i].key not in seen:
                seen.add(lst[i].key)
                out.append(lst[i])
    return out
