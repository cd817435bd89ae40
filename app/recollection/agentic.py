"""AGENTIC search: HYBRID, then an LLM judges whether the context answers the query and, if not,
writes 2-3 sub-queries; their HYBRID results are fused with the first by RRF. At most two rounds.
Needs an LLM (ENGRAM_LLM_BASE_URL / ENGRAM_LLM_MODEL); if it fails mid-way, the hits found so far
are returned, never an error."""
from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace

from openai import AsyncOpenAI
from pydantic import BaseModel, Field, ValidationError

from app.recollection.context import build_context
from app.recollection.request import Method, SearchInputError, SearchRequest

log = logging.getLogger("engram.agentic")
MAX_ROUNDS = 2

SUFFICIENCY_PROMPT = """You check whether retrieved memories are enough to answer a question.
Question: {query}

Memories:
{context}

Reply with JSON only: {{"sufficient": true|false, "queries": ["...", "..."]}}.
If the memories are not enough, give 2 or 3 short search queries that would find what is missing
(other names for things, the parts of a multi-part question, the earlier event it depends on).
If they are enough, give an empty list."""


class Verdict(BaseModel):
    sufficient: bool
    queries: list[str] = Field(default_factory=list)


class AgenticSearch:
    def __init__(self, searcher, settings, client: AsyncOpenAI | None = None):
        self.searcher = searcher
        self.settings = settings
        self.client = client or AsyncOpenAI(base_url=settings.llm_base_url,
                                            api_key=settings.llm_api_key or "none",
                                            timeout=settings.llm_timeout_s, max_retries=1)

    async def verdict(self, query: str, context: str) -> Verdict | None:
        try:
            resp = await self.client.chat.completions.create(
                model=self.settings.llm_model, temperature=0,
                response_format={"type": "json_object"},
                messages=[{"role": "user", "content": SUFFICIENCY_PROMPT.format(
                    query=query, context=context[:12000] or "(nothing found)")}],
            )
            text = resp.choices[0].message.content or ""
            v = Verdict.model_validate(json.loads(text[text.find("{"): text.rfind("}") + 1]))
            v.queries = [q.strip()[:500] for q in v.queries if q and q.strip()][:3]
            return v
        except (ValidationError, ValueError, IndexError, AttributeError) as e:
            log.warning("agentic: unreadable verdict (%s)", type(e).__name__)
        except Exception as e:  # the endpoint failed: keep what we have
            log.warning("agentic: LLM call failed (%s)", type(e).__name__)
        return None

    async def search(self, tenant: str, req: SearchRequest):
        t0 = time.perf_counter()
        base = replace(req, method=Method.HYBRID)
        first = await self.searcher.search(tenant, base)
        rounds = [("query", first)]
        asked: set[str] = {req.query.lower()}
        query_context = first.context
        # The whole search within ENGRAM_SEARCH_TIMEOUT_S: an LLM that does not answer ends the
        # rounds with what was found (a hung endpoint held a search for 120 s: two attempts of
        # ENGRAM_LLM_TIMEOUT_S each).
        deadline = t0 + self.settings.search_timeout_s
        for _ in range(MAX_ROUNDS):
            left = deadline - time.perf_counter()
            try:
                v = await asyncio.wait_for(self.verdict(req.query, query_context), max(left, 0.0))
            except TimeoutError:
                log.warning("agentic: the LLM did not answer within the search's time; keeping what was found")
                break
            if v is None or v.sufficient or not v.queries:
                break
            new = [q for q in v.queries if q.lower() not in asked]
            if not new:
                break
            for q in new:
                asked.add(q.lower())
                try:
                    rounds.append((q, await self.searcher.search(tenant, replace(base, query=q))))
                except SearchInputError as e:
                    # The LLM's query, not the client's: an error there is no bad input of theirs.
                    log.warning("agentic: sub-query refused (%s)", e)
            query_context = build_context(fuse(rounds, req.top_k, self.settings.rrf_k), None)
        hits = fuse(rounds, req.top_k, self.settings.rrf_k)
        # The search's own time, the LLM's included (the sub-searches' alone said 27 ms of 120 s).
        took = (time.perf_counter() - t0) * 1000
        return type(first)(hits, build_context(hits, req.token_budget), took,
                           {"rounds": float(len(rounds))})


def fuse(rounds, top_k: int, k: int):
    """RRF over the rounds' hit lists; a hit is identified by kind and node id."""
    from app.recollection.fusion import ChannelScore

    scores: dict[tuple[str, str], float] = {}
    first_seen: dict[tuple[str, str], object] = {}
    for label, result in rounds:
        for h in result.hits:
            key = (h.kind, h.node.get("id"))
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + h.rank)
            if key not in first_seen:
                # A copy: fuse runs after each round and at the end, and wrote its sub-query
                # lines into the rounds' own hits each time (each line came twice).
                first_seen[key] = replace(h, channels=list(h.channels))
            if label != "query":
                # The sub-query ranked the hit itself: its line goes with the hit's own, before
                # those of candidates folded into it.
                lines = first_seen[key].channels
                at = next((i for i, c in enumerate(lines) if c.folded), len(lines))
                lines.insert(at, ChannelScore("agentic", h.rank, h.score, 1.0 / (k + h.rank),
                                              f"sub-query: {label}", ranked=h.kind))
    order = sorted(scores, key=lambda key: (-scores[key], key))[:top_k]
    hits = []
    for i, key in enumerate(order, start=1):
        h = first_seen[key]
        h.rank, h.score = i, scores[key]
        hits.append(h)
    return hits
