"""Foresight channel: prospective memories active at the moment asked about whose trigger (the
situations where they matter) is close to the query, even when no word is shared with it."""
from __future__ import annotations

import asyncio

from app.recollection import filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext
from app.recollection.lucene import safe_query
from app.store.vector import vector_query

MIN_SIMILARITY = 0.25  # below this a trigger is unrelated to the query

BY_VECTOR = vector_query("Foresight", "foresight_embedding", f"""
WITH n, score WHERE score >= $minScore AND {filters.FORESIGHT}
RETURN elementId(n) AS key, score, {EVIDENCE["foresight"]} AS evidence
ORDER BY score DESC LIMIT $limit
""")

BY_WORDS = f"""
CALL db.index.fulltext.queryNodes('foresight_text', $lucene, {{limit: $fetch}}) YIELD node AS n, score
WHERE n.tenant = $tenant AND {filters.FORESIGHT}
RETURN elementId(n) AS key, score, {EVIDENCE["foresight"]} AS evidence
ORDER BY score DESC LIMIT $limit
"""


class ForesightChannel:
    name = "foresight"

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        if "foresight" not in ctx.request.kinds:
            return []
        # Cosine of a score: the index reports (1 + cos) / 2 for cosine indexes.
        min_score = (1 + MIN_SIMILARITY) / 2
        jobs = [ctx.graph.read_vector(BY_VECTOR, vector=await ctx.vector(), fetch=ctx.depth * 3,
                               limit=ctx.depth, minScore=min_score, **ctx.filters)]
        terms = safe_query(ctx.request.query)
        if terms:
            lucene = f"+(text:({terms}) OR trigger:({terms})) +tenant:{ctx.graph.tenant}"
            jobs.append(ctx.graph.read(BY_WORDS, lucene=lucene, fetch=ctx.depth * 3,
                                       limit=ctx.depth, **ctx.filters))
        results = await asyncio.gather(*jobs)
        seen: dict[str, Candidate] = {}
        for r in results[0]:
            seen[r["key"]] = Candidate("foresight", r["key"], float(r["score"]), "trigger matches",
                                       tuple(r["evidence"]))
        for rank, r in enumerate(results[1] if len(results) > 1 else []):
            if r["key"] not in seen:
                seen[r["key"]] = Candidate("foresight", r["key"], 0.5 - rank * 1e-3, "words match",
                                           tuple(r["evidence"]))
        return sorted(seen.values(), key=lambda c: (-c.score, c.key))[:ctx.depth]
