"""Graph channel: entities named in the query, expanded over the graph to the facts and episodes
around them, ranked by closeness to the query and by path length.

  link    entities whose name or alias matches the query's words (fulltext on entity_text);
  expand  facts ABOUT a linked entity (1 hop), facts ABOUT entities RELATED to it (2 hops), ...
          up to `hops`; each fact scored cos(fact, query) * decay^(hops-1) * edge weight;
  cells   episodes that MENTION a linked entity, scored the same way at 1 hop.
"""
from __future__ import annotations

from app.recollection import filters
from app.recollection.channels.base import Candidate, SearchContext
from app.recollection.lucene import safe_query

DECAY = 0.7
LINK = """
CALL db.index.fulltext.queryNodes('entity_text', $lucene, {limit: 50}) YIELD node AS e, score
WHERE e.tenant = $tenant
RETURN elementId(e) AS key, e.name AS name, score ORDER BY score DESC LIMIT $maxEntities
"""

# Paths over current relations only (asOf: relations valid then). Relationship filters use the
# same validity rule as facts.
EXPAND = f"""
UNWIND $seeds AS seed
MATCH (s:Entity) WHERE elementId(s) = seed AND s.tenant = $tenant
MATCH p = (s)-[rels:RELATED*0..{{hops}}]-(e:Entity)
WHERE e.tenant = $tenant
  AND all(r IN rels WHERE r.tenant = $tenant AND ($includeSuperseded OR
      (CASE WHEN $asOf IS NULL THEN r.validTo IS NULL
            ELSE r.validFrom <= $asOf AND (r.validTo IS NULL OR r.validTo > $asOf) END)))
WITH e, min(length(p)) AS dist, s.name AS seedName
MATCH (n:Fact)-[:ABOUT]->(e)
WHERE n.tenant = $tenant AND {filters.FACT}
WITH n, min(dist) AS dist, collect(DISTINCT seedName)[0] AS via,
     vector.similarity.cosine(n.embedding, $vector) AS sim
WITH n, dist, via, sim * ($decay ^ dist) * coalesce(n.confidence, 0.7) AS score
RETURN elementId(n) AS key, score, dist, via ORDER BY score DESC, key LIMIT $limit
"""

CELLS = f"""
UNWIND $seeds AS seed
MATCH (s:Entity)<-[:MENTIONS]-(n:MemCell)
WHERE elementId(s) = seed AND s.tenant = $tenant AND n.tenant = $tenant AND {filters.MEMCELL}
WITH n, vector.similarity.cosine(n.embedding, $vector) AS sim, collect(s.name)[0] AS via
RETURN elementId(n) AS key, sim * $decay AS score, via ORDER BY score DESC, key LIMIT $limit
"""


class GraphChannel:
    name = "graph"

    def __init__(self, max_entities: int = 5):
        self.max_entities = max_entities
        # One query text per RELATED path length (Cypher cannot take a bound as a parameter).
        self._expand = {r: EXPAND.replace("{hops}", str(r)) for r in range(0, 8)}

    async def link(self, ctx: SearchContext) -> list[dict]:
        terms = safe_query(ctx.request.query)
        if not terms:
            return []
        lucene = f"+(name:({terms}) OR aliasText:({terms})) +tenant:{ctx.graph.tenant}"
        return await ctx.graph.read(LINK, lucene=lucene, maxEntities=self.max_entities)

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        seeds = await self.link(ctx)
        if not seeds:
            return []
        keys = [s["key"] for s in seeds]
        hops = max(0, ctx.request.hops - 1)  # hop 1 is the fact itself; the rest are RELATED edges
        out: list[Candidate] = []
        if "fact" in ctx.request.kinds:
            rows = await ctx.graph.read(self._expand[min(hops, 7)], seeds=keys, vector=ctx.vector_param, decay=DECAY,
                                        limit=ctx.depth, **ctx.filters)
            out += [Candidate("fact", r["key"], float(r["score"]),
                              f"{r['dist'] + 1} hop(s) from {r['via']}") for r in rows]
        if "memcell" in ctx.request.kinds:
            rows = await ctx.graph.read(CELLS, seeds=keys, vector=ctx.vector_param, decay=DECAY,
                                        limit=ctx.depth, **ctx.filters)
            out += [Candidate("memcell", r["key"], float(r["score"]), f"mentions {r['via']}")
                    for r in rows]
        out.sort(key=lambda c: (-c.score, c.key))
        return out[:ctx.depth]
