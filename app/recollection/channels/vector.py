"""Vector channel: the native vector indexes, filtered to the tenant inside the index."""
from __future__ import annotations

import asyncio

from app.recollection import filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, VectorPart, candidates, holds
from app.store.vector import vector_query

# MemCells are not searched by vector: an episode's vector is the mean of its turns', too
# blurred to rank well (evidence recall@10 0.06 alone on LoCoMo dev, against 0.52 for turns
# and 0.62 for facts), and its evidence costs a scan of the episode's turns. Episodes come
# from the keyword and graph channels.
INDEX = {"turn": ("Turn", "turn_embedding"), "fact": ("Fact", "fact_embedding")}


# Queries that return many rows return them as one list: the async driver pays a few socket
# reads and event-loop tasks per record, which cost more than the query itself (profiled).

# The facts nearest the query, with the entities they are about: the vector channel ranks them,
# the graph channel keeps those about its neighbourhood. One index search serves both (it is the
# most expensive query of a search, and its cost grows with how many it fetches).
# Both search with the mapped query vector, $adapted (app/recollection/query_adapter.py).
NEAR_FACTS = vector_query("Fact", "fact_embedding", f"""
WITH n, score WHERE {filters.FACT}
WITH n, score ORDER BY score DESC LIMIT $limit
RETURN collect({{key: elementId(n), score: score, confidence: n.confidence,
                 about: [(n)-[:ABOUT]->(x:Entity) | elementId(x)], evidence: {EVIDENCE["fact"]}}}) AS facts
""", probe="$adapted")


# The turns nearest the query, with their episode and their reply: the vector channel ranks the
# first $rank turns, the graph channel takes the episodes of a hub from all $limit (instead of a
# third index search), fusion boosts the replies. Only the ranked turns read their reply, their
# speaker and the query's words they and the reply hold: the deeper ones serve only for their
# episode.
NEAR_TURNS = vector_query("Turn", "turn_embedding", f"""
WITH n, score WHERE {filters.TURN}
WITH n AS t, score ORDER BY score DESC, elementId(n) LIMIT $limit
WITH collect({{t: t, score: score, cell: [(t)<-[:EVIDENCED_BY]-(m:MemCell) | elementId(m)][0]}}) AS found
CALL (found) {{
  UNWIND found[..$rank] AS f
  WITH f.t AS t, f.score AS score, f.cell AS cell
  OPTIONAL MATCH (t)-[:NEXT]->(n:Turn) WHERE n.tenant = $tenant AND {filters.TURN}
  WITH t AS n, score, cell, elementId(n) AS reply, n.speaker AS replyBy, {holds('n')} AS replyHolds
  ORDER BY score DESC, elementId(t)
  RETURN collect({{key: elementId(n), score: score, evidence: {EVIDENCE["turn"]}, holds: {holds('n')},
                   reply: reply, replyBy: replyBy, replyHolds: replyHolds, cell: cell}}) AS ranked
}}
RETURN ranked + [f IN found[$rank..] | {{key: elementId(f.t), score: f.score, cell: f.cell}}] AS turns
""", probe="$adapted")


def nearest_fetch(ctx: SearchContext) -> int:
    """How many turns, and facts, the vector parts fetch: twice the depth, 40 at least (room
    for the filters applied after the index, and for the graph channel, which keeps the facts
    about its entities and takes a hub's episodes from the turns). The index search's cost
    grows with it. At the default topK (depth 20), 40 against 60: LoCoMo dev (engram eval locomo
    --k 5,10) HYBRID R@10 0.763 / 0.764, hybrid_cv 0.758 / 0.759, VECTOR 0.606 and GRAPH 0.491
    either way; in process on a 100k-episode tenant, two runs each, Neo4j CPU per search 8.8 /
    8.4 against 9.1 / 9.4 ms, 8 at once 114.3 / 116.5 against 104.4 / 106.0 searches/s. (Facts
    fetched 100 before that: 0.5-1.4 ms more, nothing more found.)"""
    return max(40, ctx.depth * 2)


def turns_part(ctx: SearchContext) -> VectorPart:
    fetch = nearest_fetch(ctx)
    return VectorPart("turns", NEAR_TURNS, {"fetch": fetch, "limit": fetch, "rank": ctx.depth})


def facts_part(ctx: SearchContext) -> VectorPart:
    fetch = nearest_fetch(ctx)
    return VectorPart("facts", NEAR_FACTS, {"fetch": fetch, "limit": fetch})


async def near_turns(ctx: SearchContext) -> list[dict]:
    return await ctx.nearest("turns")


async def near_facts(ctx: SearchContext) -> list[dict]:
    return await ctx.nearest("facts")


class VectorChannel:
    name = "vector"

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        kinds = ctx.request.kinds
        return ([turns_part(ctx)] if "turn" in kinds else []) + ([facts_part(ctx)] if "fact" in kinds else [])

    async def search_kind(self, ctx: SearchContext, kind: str) -> list[Candidate]:
        rows = (await (near_facts(ctx) if kind == "fact" else near_turns(ctx)))[:ctx.depth]
        return candidates(kind, rows, lambda r: f"cosine {r['score']:.3f}")

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        kinds = [k for k in INDEX if k in ctx.request.kinds]
        results = await asyncio.gather(*(self.search_kind(ctx, k) for k in kinds))
        # One model embeds every kind, so cosines are comparable across indexes.
        merged = sorted((c for r in results for c in r), key=lambda c: (-c.score, c.key))
        return merged
