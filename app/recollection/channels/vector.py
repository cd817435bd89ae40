"""Vector channel: the native vector indexes, filtered to the tenant inside the index."""
from __future__ import annotations

import asyncio
from typing import Awaitable

from app.recollection import filters
from app.store.vector import VectorQuery, vector_query
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, candidates

# MemCells are not searched by vector: an episode's vector is the mean of its turns', too
# blurred to rank well (evidence recall@10 0.06 alone on LoCoMo dev, against 0.52 for turns
# and 0.62 for facts), and its evidence costs a scan of the episode's turns. Episodes come
# from the keyword and graph channels.
INDEX = {"turn": ("Turn", "turn_embedding"), "fact": ("Fact", "fact_embedding")}


def _query(kind: str) -> VectorQuery:
    label, index = INDEX[kind]
    # The index filters on the tenant; the other filters run on what it returns, so it fetches
    # more than it keeps ($fetch).
    return vector_query(label, index, (
        f"WITH n, score WHERE {filters.BY_KIND[kind]} "
        f"RETURN elementId(n) AS key, score, {EVIDENCE[kind]} AS evidence "
        "ORDER BY score DESC LIMIT $limit"))


QUERIES = {kind: _query(kind) for kind in INDEX}

# The facts nearest the query, with the entities they are about: the vector channel ranks them,
# the graph channel keeps those about its neighbourhood. One index search serves both (it is the
# most expensive query of a search, and its cost grows with how many it fetches).
NEAR_FACTS = vector_query("Fact", "fact_embedding", f"""
WITH n, score WHERE {filters.FACT}
RETURN elementId(n) AS key, score, n.confidence AS confidence,
       [(n)-[:ABOUT]->(x:Entity) | elementId(x)] AS about, {EVIDENCE["fact"]} AS evidence
ORDER BY score DESC LIMIT $limit
""")


def near_facts(ctx: SearchContext) -> Awaitable[list[dict]]:
    fetch = max(100, ctx.depth * 5)

    async def run() -> list[dict]:
        return await ctx.graph.read_vector(NEAR_FACTS, vector=await ctx.vector(), fetch=fetch,
                                           limit=fetch, **ctx.filters)

    return ctx.shared("near_facts", run)


class VectorChannel:
    name = "vector"

    async def search_kind(self, ctx: SearchContext, kind: str) -> list[Candidate]:
        if kind == "fact":
            rows = (await near_facts(ctx))[:ctx.depth]
        else:
            rows = await ctx.graph.read_vector(QUERIES[kind], vector=await ctx.vector(),
                                               fetch=ctx.depth * 2, limit=ctx.depth, **ctx.filters)
        return candidates(kind, rows, lambda r: f"cosine {r['score']:.3f}")

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        kinds = [k for k in INDEX if k in ctx.request.kinds]
        results = await asyncio.gather(*(self.search_kind(ctx, k) for k in kinds))
        # One model embeds every kind, so cosines are comparable across indexes.
        merged = sorted((c for r in results for c in r), key=lambda c: (-c.score, c.key))
        return merged[:ctx.depth]
