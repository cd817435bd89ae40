"""The search service: one query, embedded once, all channels concurrently, fused (the learned
ranker for HYBRID, RRF otherwise), hydrated with evidence, explained per channel, rendered as a
context block."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from datetime import datetime
from dataclasses import dataclass, field

from app.recollection import filters
from app.recollection.channels.base import Candidate, Channel, SearchContext
from app.recollection.channels.day import DayChannel
from app.recollection.channels.foresight import ForesightChannel
from app.recollection.channels.graph import GraphChannel
from app.recollection.channels.keyword import KeywordChannel
from app.recollection.channels.scene import SceneChannel
from app.recollection.channels.vector import VectorChannel
from app.recollection.newer_values import asked_kinds, later_values
from app.recollection.context import build_context
from app.recollection.fusion import ChannelScore, Fused, fuse, ranked, replies, turn_scores
from app.recollection.access_log import AccessLog
from app.recollection.first_person import FIRST_PERSON, UserNames, as_named
from app.recollection.hydrate import hydrate
from app.recollection.query_adapter import DEFAULT_PATH as ADAPTER_PATH, QueryAdapter
from app.recollection.ranker import DEFAULT_PATH, Ranker
from app.recollection.request import METHOD_CHANNELS, Method, SearchInputError, SearchRequest
from app.runtime.services import Services
from app.settings import Settings
from app.store.admin import warm_up_sample
from app.store.graph import TenantGraph

log = logging.getLogger("engram.search")


@dataclass
class Hit:
    rank: int
    score: float
    kind: str
    node: dict
    evidence: list[dict]
    channels: list[ChannelScore]
    # A later hit giving another amount of the same thing (newer_values.py): this one's value may
    # be out of date.
    revised_by: Hit | None = None


# A question after a cause or a past state: its old turns are the answer ("Why did the budget go up
# to £97,000?" had its answer turn, whose value was replaced since, put fifth).
_ASKS_BEFORE = re.compile(r"^\W*(?:why|how\s+come|what\s+(?:made|caused|happened|was|were)|when\s+(?:did|was|were)|who\s+was|"
                          r"where\s+(?:was|were|did))\b", re.IGNORECASE)


def asks_before(query: str) -> bool:
    """Whether a question asks after a cause or a past state, whose answer may be a turn whose
    values were replaced since (it keeps its place: _now_first)."""
    return _ASKS_BEFORE.match(query) is not None or asks_earlier(query)


# A question after a value held before the one of now, by no date: "How much were the subs at the start
# of the season?" (the £25 replaced since was dropped with every value no longer true).
_ASKS_EARLIER = re.compile(
    # ("What was the budget at the very start?")
    r"\b(?:at\s+(?:the\s+)?(?:very\s+)?(?:start|beginning|outset)\b(?:\s+of)?|at\s+first|originally|initially|"
    r"to\s+begin\s+with|"
    # ("What was Nadia's original target pace?", "her old shoes")
    r"used\s+to\s+(?:be|cost|charge|pay|earn|live|work|play|take|weigh)|"
    r"(?:the|his|her|their|my|our|\w+['’]s)\s+(?:original|old|former)|(?:the\s+)?previous(?:ly)?|"
    # ("What shifts was Chloe on before she went onto lates?")
    r"before\s+(?:it|they|he|she|we|i|you|the\s+\w+|\w+['’]s\s+\w+|(?-i:[A-Z])\w+)\s+"
    r"(?:went|changed|rose|dropped|moved|was|were|switched|started|got)|"
    r"(?:the\s+)?first\s+(?:price|fee|rate|dose|amount|value|budget|salary|rent|goal))\b", re.IGNORECASE)


def asks_earlier(query: str) -> bool:
    """Whether a question asks after a value held earlier, naming no date: facts held at any time
    until now are candidates (filters.FACT's period), not only those true now."""
    return _ASKS_EARLIER.search(query) is not None


def _now_first(hits: list[Hit]) -> list[Hit]:
    """A question about now has its turns whose every value was replaced since after the other
    hits ("What's our budget?": "Our budget is £18,000" ranked above "the tools budget went up to
    £21,500"); they stay, for what else they say. Asked about a moment or a period, the order stays."""
    return _last(hits, lambda h: h.kind == "turn" and h.node.get("replaced"))


def _slips_last(hits: list[Hit]) -> list[Hit]:
    """Turns whose values were taken back at once come after the other hits, whatever is asked: they
    were never true ("What was his dose before the last change?" had the slip's 15 shown as the value
    before, hydrate.TURNS' `slip`)."""
    return _last(hits, lambda h: h.kind == "turn" and h.node.get("slip"))


def _last(hits: list[Hit], stale) -> list[Hit]:
    """`hits` with those `stale` says after the others, each part in its order, ranked anew."""
    if not any(stale(h) for h in hits):
        return hits
    ordered = [h for h in hits if not stale(h)] + [h for h in hits if stale(h)]
    for i, h in enumerate(ordered, 1):
        h.rank = i
    return ordered


@dataclass
class SearchResult:
    hits: list[Hit]
    context: str
    took_ms: float
    channel_ms: dict[str, float] = field(default_factory=dict)
    # What fusion read (each channel's candidates, the replies they read): for the evaluation,
    # which fuses the same rankings again with other weights.
    rankings: dict[str, list[Candidate]] = field(default_factory=dict, repr=False)
    word_idf: dict[str, float] = field(default_factory=dict, repr=False)  # SearchContext.word_idf


class SearchTimeout(Exception):
    """A search outlived Settings.search_timeout_s and was stopped."""


# The learned ranker's proof: a hit keeps as evidence its turns among the search's best this many
# (fusion.ranked explains why and what it measured).
PROOF_TURNS = 20


def fuse_channels(rankings: dict[str, list[Candidate]], method: Method, settings: Settings,
                  ranker: Ranker | None, depth: int, query: str = "",
                  word_idf: dict[str, float] | None = None) -> list[Fused]:
    """The channels' candidates as hits, best first (`query`, `word_idf`: the ranker's speaker
    and coverage columns)."""
    # The replies of ranked turns, as the channels that ranked those turns read them (a query of
    # its own for them, after the channels, cost a round trip on every search's critical path;
    # the evidence turns of other kinds never changed a result without it: LoCoMo dev replayed,
    # R@10 0.713 either way).
    reply_of = replies(rankings)
    weights, k = settings.channel_weights, settings.rrf_k
    if ranker is not None and method is Method.HYBRID:
        # The ranker weighs channels by what it learned; a channel weighted 0 is left out.
        kept = {ch: cands for ch, cands in rankings.items() if weights.get(ch, 1.0) > 0}
        T, shares = ranker.explain(kept, reply_of, query, word_idf)
        return ranked(kept, weights, k, T, PROOF_TURNS, pinned=("foresight",), shares=shares)
    T = turn_scores(rankings, weights, k)
    best = sorted(T, key=lambda t: -T[t])[: 2 * depth]
    next_of = {t: reply_of[t] for t in best if t in reply_of}
    return fuse(rankings, weights, k, next_of, settings.fusion_depth, T)


# Warming up writes nothing (its hits are not counted as uses). It runs in a conversation that
# has episodes (admin.warm_up_sample), else in a tenant of its own: a query's first run with
# rows cost ~1.5-2.5 s more than its first run on no data (measured after a Neo4j restart: the
# warm-up on an empty tenant left every user's first search of each scope that cost), whatever
# the tenant. The queries take the shapes a search can take: with a name, with stop words only,
# with words, with a date (the day channel's query), a value asked after, what is ahead.
WARM_UP_TENANT = "engram_warm_up"
WARM_UP_QUERIES = ("What did Maya say about Lisbon?", "the", "When is the next trip planned?",
                   "What did Maya say on 4 March 2024?", "Where does Maya live?", "What is coming up next week?")
# ... and in each scope (each has its own query texts: filters inside the indexes), after
# start-up, in the background.
WARM_UP_SCOPED = ("When is the next trip planned?", "Where does Maya live?")


# Rounds of hydration a search makes at most to fill its topK (a hit deleted meanwhile, or one
# that restates a hit before it, leaves a place for the next candidate).
HYDRATE_ROUNDS = 3


async def _hits(graph: TenantGraph, fused: list[Fused], top_k: int, user_id: str | None = None,
                as_of: datetime | None = None) -> list[Hit]:
    """The first `top_k` fused candidates as hits, read from the graph. A fact or foresight that
    says what a hit before it says (the same text, the same status) joins that hit as more
    evidence: a user who said "I'm vegetarian" in eight conversations had eight facts fill the
    first eight places, each proving the same thing."""
    hits: list[Hit] = []
    said: dict[tuple, Hit] = {}
    rest = fused
    for _ in range(HYDRATE_ROUNDS):
        if len(hits) >= top_k or not rest:
            break
        batch, rest = rest[: top_k - len(hits)], rest[top_k - len(hits):]
        keys: dict[str, list[str]] = {}
        for f in batch:
            keys.setdefault(f.kind, []).append(f.key)
        turns = keys.get("turn", [])
        keys["turn"] = turns + sorted({t for f in batch for t in f.evidence} - set(turns))
        found = await hydrate(graph, keys, user_id, as_of)
        for f in batch:
            if f.key not in found:  # deleted between retrieval and hydration
                continue
            evidence = [found[t] for t in f.evidence if t in found]
            statement = _statement(f.kind, found[f.key])
            if statement in said:
                first = said[statement]
                known = {e["id"] for e in first.evidence}
                first.evidence += [e for e in evidence if e["id"] not in known]
                continue
            hits.append(Hit(len(hits) + 1, f.score, f.kind, found[f.key], evidence, f.channels))
            if statement is not None:
                said[statement] = hits[-1]
    return hits


def _statement(kind: str, node: dict) -> tuple | None:
    """What a fact or foresight says, as one restating it says it; None for other kinds."""
    if kind not in ("fact", "foresight") or not node.get("text"):
        return None
    return kind, " ".join(node["text"].casefold().split()), node.get("status")


class SearchService:
    def __init__(self, services: Services):
        self.services = services
        self.settings = services.settings
        self.channels: dict[str, Channel] = {
            c.name: c for c in (VectorChannel(), KeywordChannel(), GraphChannel(), ForesightChannel(),
                                   SceneChannel(), DayChannel())
        }
        self.access = AccessLog()
        self.user_names = UserNames()
        self._warm_sample: dict | None = None  # where the warm-up runs (admin.warm_up_sample)
        self._agentic = None
        self.ranker = (Ranker.load(self.settings.ranker_path or DEFAULT_PATH)
                       if self.settings.fusion == "learned" else None)
        self.adapter = (QueryAdapter.load(self.settings.query_adapter_path or ADAPTER_PATH)
                        if self.settings.query_adapter == "learned" else None)
        n = self.settings.search_concurrency
        self._slots = asyncio.Semaphore(n) if n else contextlib.nullcontext()

    async def search(self, tenant: str, req: SearchRequest, record_access: bool = True) -> SearchResult:
        """`record_access`: count the hits as uses (for forgetting); off only for warm_up."""
        t0 = time.perf_counter()
        req = req.validated(self.settings.max_top_k, self.settings.max_hops)
        if req.method is Method.AGENTIC:
            if not (self.settings.llm_base_url and self.settings.llm_model):
                raise SearchInputError("AGENTIC search needs an LLM (set ENGRAM_LLM_BASE_URL and "
                                       "ENGRAM_LLM_MODEL); use HYBRID otherwise", "method")
            if self._agentic is None:
                from app.recollection.agentic import AgenticSearch

                self._agentic = AgenticSearch(self, self.settings)
            return await self._agentic.search(tenant, req)
        # Waiting for a slot (settings.search_concurrency) counts in took_ms, as "queued", and
        # against the deadline.
        deadline = asyncio.timeout(self.settings.search_timeout_s)
        try:
            async with deadline:
                async with self._slots:
                    return await self._search(tenant, req, t0, (time.perf_counter() - t0) * 1000,
                                              record_access)
        except TimeoutError:
            if not deadline.expired():  # a timeout of something else inside: not this deadline's
                raise
            raise SearchTimeout(f"the search did not finish within {self.settings.search_timeout_s:g} s "
                                "(ENGRAM_SEARCH_TIMEOUT_S): Neo4j is overloaded or not answering; "
                                "nothing was changed, try again") from None

    async def _search(self, tenant: str, req: SearchRequest, t0: float, queued_ms: float,
                      record_access: bool) -> SearchResult:
        graph = TenantGraph(self.services.driver, tenant, self.settings.neo4j_database)
        embedder = self.services.require_embedder()

        ctx_embed_ms = [0.0]

        async def embed_query():
            s = time.perf_counter()
            v = (await embedder.aembed_queries([req.query]))[0]
            ctx_embed_ms[0] = (time.perf_counter() - s) * 1000
            return v

        # Entity linking (lexical) starts while the query is being embedded; the keyword query
        # waits for the vector only when episodes are asked for (their evidence turns).
        vector_task = asyncio.ensure_future(embed_query())
        named = ""
        if req.user_id is not None and FIRST_PERSON.search(req.query):
            name = await self.user_names.of(graph, req.user_id)
            named = as_named(req.query, name) if name else ""
        ctx = self.context(graph, req, vector_task, named)
        names = METHOD_CHANNELS[req.method]
        timings: dict[str, float] = {"queued": queued_ms}

        async def timed(name: str) -> list[Candidate]:
            s = time.perf_counter()
            try:
                return await self.channels[name].search(ctx)
            finally:
                timings[name] = (time.perf_counter() - s) * 1000

        results = await asyncio.gather(*(timed(n) for n in names))
        timings["embed"] = ctx_embed_ms[0]
        rankings = dict(zip(names, results))
        s = time.perf_counter()
        fused = fuse_channels(rankings, req.method, self.settings, self.ranker, ctx.depth, ctx.text,
                              ctx.word_idf)
        timings["fuse"] = (time.perf_counter() - s) * 1000
        if "turn" not in req.kinds:
            # Fusion gives an episode's or a fact's further turns places of their own as turn
            # hits; a request without turns gets its kinds only (each hit keeps its best turns).
            fused = [f for f in fused if f.kind in req.kinds]
        s = time.perf_counter()
        hits = await _hits(graph, fused, req.top_k, req.user_id, req.as_of)
        moment = not req.include_superseded and ctx.named_period is None
        now = moment and req.as_of is None and not asks_before(req.query)
        hits = _now_first(hits) if now else _slips_last(hits)
        # Asked as of a moment, the hits are what was said by then: the later of two sayings of a
        # value is the value then, however the question is put ("When was the follow-up booked
        # for?" asOf 10 October); asked about a period or what came first, the order is kept.
        hits = later_values(hits, reorder=now or moment and req.as_of is not None and not asks_earlier(req.query),
                            asked=asked_kinds(req.query))
        timings["hydrate"] = (time.perf_counter() - s) * 1000
        if record_access:
            self._record_access(graph, hits)
        return SearchResult(hits, build_context(hits, req.token_budget),
                            (time.perf_counter() - t0) * 1000, timings, rankings, ctx.word_idf)

    def context(self, graph: TenantGraph, req: SearchRequest, vector_task,
                named_query: str = "") -> SearchContext:
        """A search's context, with the vector parts of its method's channels (`named_query`:
        the query with the user's first person as their name, first_person.py)."""
        ctx = SearchContext(graph, req, vector_task, depth=max(2 * req.top_k, 20),
                            filters=filters.params(req), vector_param=self.services.vector_param,
                            adapter=self.adapter, named_query=named_query)
        ctx.filters.update(filters.held_params(ctx.named_period))
        if ctx.named_period is None and req.as_of is None and asks_earlier(req.query):
            ctx.filters.update(filters.held_until_now())  # ("at the start of the season")
        for name in METHOD_CHANNELS[req.method]:
            for part in self.channels[name].vector_parts(ctx):
                ctx.parts.setdefault(part.column, part)
        return ctx

    def _record_access(self, graph: TenantGraph, hits: list[Hit]) -> None:
        """Access counts feed forgetting; they are written after the answer, off the hot path."""
        self.access.record(graph, sorted({h.node["id"] for h in hits if h.kind == "memcell"}
                                         | {h.node.get("memCellId") for h in hits
                                            if h.kind != "memcell"} - {None}))

    async def warm_up(self) -> None:
        """Searches before the first request, which would otherwise pay for Neo4j planning and
        first running a search's queries, the model's first run and new connections. Measured
        after a Neo4j start: the first search took 4.6 s; after a warm-up on no data, the first
        user's search of each scope took 1.4-2.8 s (the same query texts, run with rows for
        the first time) and the next ones 40-130 ms; warmed up on data, ~70 ms."""
        sample = self._warm_sample = await warm_up_sample(self.services.driver, self.settings.neo4j_database)
        tenant = sample["tenant"] if sample else WARM_UP_TENANT
        for query in WARM_UP_QUERIES:
            await self._warm(tenant, SearchRequest(query=query))

    async def warm_up_when_stored(self, poll_s: float = 10.0) -> None:
        """The scoped warm-up (warm_up_scopes); and when start-up found nothing stored to warm up
        on (a new install: the warm-up ran in a tenant of its own, on no data), the whole warm-up
        again on the first conversation stored, looked for every `poll_s` seconds. Without it, a
        new user's first searches of each kind took 1.3-4.2 s (two walkthroughs from a fresh
        clone: the queries' first run with rows), the next ones 20-130 ms."""
        if self._warm_sample is None:
            while (sample := await warm_up_sample(self.services.driver, self.settings.neo4j_database)) is None:
                await asyncio.sleep(poll_s)
            self._warm_sample = sample
            for query in WARM_UP_QUERIES:
                await self._warm(sample["tenant"], SearchRequest(query=query))
        await self.warm_up_scopes()

    async def warm_up_scopes(self) -> None:
        """The warm-up's searches scoped to a conversation, a group, a user, a group's user
        (each its own query texts), in warm_up's conversation: run after it, in the background."""
        sample = self._warm_sample  # (warm_up's: read once)
        if sample is None:
            return
        scopes = [{"conversation_id": sample["conversationId"]}]
        if sample["groupId"] is not None:
            scopes.append({"group_id": sample["groupId"]})
        if sample["userId"] is not None:
            scopes.append({"user_id": sample["userId"]})
            if sample["groupId"] is not None:
                scopes.append({"group_id": sample["groupId"], "user_id": sample["userId"]})
        for scope in scopes:
            for query in WARM_UP_SCOPED:
                await self._warm(sample["tenant"], SearchRequest(query=query, **scope))

    async def _warm(self, tenant: str, req: SearchRequest) -> None:
        try:
            await self.search(tenant, req, record_access=False)
        except SearchTimeout as e:  # a slow first search is what warming up is for
            log.warning("warm-up: %s", e)

    async def settle(self) -> None:
        """Wait for pending access-count writes (tests, shutdown)."""
        await self.access.settle()
