"""Keyword channel: BM25 over the fulltext indexes, with user text made safe for Lucene."""
from __future__ import annotations

import asyncio

from app.recollection import filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, candidates, interleave
from app.recollection.lucene import safe_query

INDEX = {
    "turn": ("turn_text", ["content", "speaker"]),
    "fact": ("fact_text", ["text"]),
    "memcell": ("memcell_text", ["title", "summary", "keywordText"]),
}


def _query(kind: str) -> str:
    index, _ = INDEX[kind]
    return (
        f"CALL db.index.fulltext.queryNodes('{index}', $lucene, {{limit: $fetch}}) "
        "YIELD node AS n, score "
        f"WHERE n.tenant = $tenant AND {filters.BY_KIND[kind]} "
        f"RETURN elementId(n) AS key, score, {EVIDENCE[kind]} AS evidence "
        "ORDER BY score DESC LIMIT $limit"
    )


QUERIES = {kind: _query(kind) for kind in INDEX}


def lucene_for(kind: str, terms: str, tenant: str) -> str:
    """Terms OR-ed within the kind's text fields, and the tenant required (one exact token)."""
    _, fields = INDEX[kind]
    text = " OR ".join(f"{f}:({terms})" for f in fields)
    return f"+({text}) +tenant:{tenant}"


class KeywordChannel:
    name = "keyword"

    async def search_kind(self, ctx: SearchContext, kind: str, terms: str) -> list[Candidate]:
        rows = await ctx.graph.read_rows(QUERIES[kind], ("key", "score", "evidence"),
                                         lucene=lucene_for(kind, terms, ctx.graph.tenant),
                                         fetch=ctx.depth * 3, limit=ctx.depth,
                                         vector=await ctx.vector() if kind == "memcell" else None,
                                         **ctx.filters)
        return candidates(kind, rows, lambda r: f"bm25 {r['score']:.2f}")

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        terms = safe_query(ctx.request.query)
        if not terms:
            return []
        kinds = [k for k in INDEX if k in ctx.request.kinds]
        results = await asyncio.gather(*(self.search_kind(ctx, k, terms) for k in kinds))
        return interleave(list(results), ctx.depth)
