"""Foresight channel: prospective memories active at the moment asked about whose trigger (the
situations where they matter) is close to the query, even when no word is shared with it."""
from __future__ import annotations

from app.recollection import bm25, filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext
from app.store.vector import vector_query

MIN_SIMILARITY = 0.25  # below this a trigger is unrelated to the query

# Triggers near the query by vector and, when the query has words, those sharing its words:
# one round trip, each part collected into a column.
NEAR = f"""
WITH n, score WHERE score >= $minScore AND {filters.FORESIGHT}
WITH n, score ORDER BY score DESC LIMIT $limit
WITH collect({{key: elementId(n), score: score, evidence: {EVIDENCE["foresight"]}}}) AS byVector
"""

# Ranked by BM25 from the tenant's own statistics (app/recollection/bm25.py), not Lucene's.
WORDS = f"""
CALL () {{
  {bm25.statistics("foresight")}
  CALL db.index.fulltext.queryNodes('foresight_text', $lucene, {{limit: $fetch}}) YIELD node AS n, score
  WHERE n.tenant = $tenant AND {filters.FORESIGHT}
  {bm25.score("foresight", carry="foresight_idf, foresight_avglen")}
  WITH n, bm25 ORDER BY bm25 DESC, n.trigger, n.text, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), evidence: {EVIDENCE["foresight"]}}}) AS byWords
}}
"""

BY_VECTOR = vector_query("Foresight", "foresight_embedding", NEAR + "RETURN byVector")
BOTH = vector_query("Foresight", "foresight_embedding", NEAR + WORDS + "RETURN byVector, byWords")


class ForesightChannel:
    name = "foresight"

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        if "foresight" not in ctx.request.kinds:
            return []
        # Cosine of a score: the index reports (1 + cos) / 2 for cosine indexes.
        min_score = (1 + MIN_SIMILARITY) / 2
        terms, words = ctx.lucene_terms, ctx.words
        params = dict(vector=await ctx.vector(), fetch=ctx.depth * 3, limit=ctx.depth,
                      minScore=min_score, terms=words, **ctx.filters)
        if terms and words:
            lucene = f"+(text:({terms}) OR trigger:({terms})) +tenant:{ctx.graph.tenant}"
            record = await ctx.graph.read_vector_one(BOTH, lucene=lucene, **params)
        else:
            record = await ctx.graph.read_vector_one(BY_VECTOR, **params)
        seen: dict[str, Candidate] = {}
        for r in record["byVector"]:
            seen[r["key"]] = Candidate("foresight", r["key"], float(r["score"]), "trigger matches",
                                       tuple(r["evidence"]))
        for rank, r in enumerate(record.get("byWords") or []):
            if r["key"] not in seen:
                seen[r["key"]] = Candidate("foresight", r["key"], 0.5 - rank * 1e-3, "words match",
                                           tuple(r["evidence"]))
        return sorted(seen.values(), key=lambda c: (-c.score, c.key))[:ctx.depth]
