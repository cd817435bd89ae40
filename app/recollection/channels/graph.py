"""Graph channel: entities named in the query, expanded over the graph to the facts and episodes
around them, ranked by closeness to the query and by path length.

  link    entities whose name or alias matches the query's words (fulltext on entity_text);
  hood    entities within hops-1 RELATED steps of them (current relations, or as of a moment),
          each with its distance; a hub seed is not expanded, so hubs cannot blow the work up;
  facts   facts ABOUT an entity of the hood, from two sources: every fact of the small entities
          (a rare name's few facts, whatever their wording), and the facts nearest the query by
          vector among those of all hood entities (a hub such as a speaker has thousands);
          score = cos(fact, query) * decay^distance * confidence;
  cells   episodes that MENTION a linked entity, scored by closeness to the query.
"""
from __future__ import annotations

import asyncio

from app.recollection import filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, candidates
from app.recollection.channels.vector import near_facts, near_turns
from app.recollection.lucene import safe_query

DECAY = 0.7
SMALL_DEGREE = 40  # an entity with at most this many facts is expanded exhaustively
MAX_HOOD = 500
MAX_SMALL_FACTS = 400
HUB_DEGREE = 300  # an entity mentioned by more episodes than this is a hub
HUB_RELATIONS = 500  # ... or related to more entities than this (a LoCoMo speaker: ~150)

LINK = """
CALL db.index.fulltext.queryNodes('entity_text', $lucene, {limit: 50}) YIELD node AS e, score
WHERE e.tenant = $tenant
RETURN elementId(e) AS key, e.name AS name, score ORDER BY score DESC LIMIT $maxEntities
"""

# A hub seed (a speaker related to thousands of things) is not expanded: walking all its RELATED
# edges costs as much as the tenant is large, and "everything Maya ever mentioned" is no
# neighbourhood. It stays in the hood itself (its facts are found by vector, below).
HOOD = """
UNWIND $seeds AS seed
MATCH (s:Entity) WHERE elementId(s) = seed AND s.tenant = $tenant
CALL (s) {
  WITH s WHERE COUNT { (s)-[:RELATED]-() } <= $hubDegree
  MATCH p = (s)-[rels:RELATED*0..{hops}]-(e:Entity)
  WHERE e.tenant = $tenant
    AND all(r IN rels WHERE r.tenant = $tenant AND coalesce(r.forgotten, false) = false
        AND ($includeSuperseded OR
        (CASE WHEN $asOf IS NULL THEN r.validTo IS NULL
              ELSE r.validFrom <= $asOf AND (r.validTo IS NULL OR r.validTo > $asOf) END)))
  RETURN e, length(p) AS len
  UNION
  WITH s WHERE COUNT { (s)-[:RELATED]-() } > $hubDegree
  RETURN s AS e, 0 AS len
}
WITH e, min(len) AS dist, collect(DISTINCT s.name)[0] AS via
ORDER BY dist LIMIT $maxHood
// The degree comes from the relationship count store: no traversal of a hub's facts.
RETURN elementId(e) AS key, dist, via, COUNT { (e)<-[:ABOUT]-() } AS degree
"""

SMALL_FACTS = f"""
UNWIND $keys AS k
MATCH (e:Entity) WHERE elementId(e) = k AND e.tenant = $tenant
MATCH (n:Fact)-[:ABOUT]->(e)
WHERE n.tenant = $tenant AND {filters.FACT}
WITH DISTINCT n LIMIT $maxFacts
RETURN elementId(n) AS key, vector.similarity.cosine(n.embedding, $vector) AS sim,
       [(n)-[:ABOUT]->(x:Entity) | elementId(x)] AS about, n.confidence AS confidence,
       {EVIDENCE["fact"]} AS evidence
"""

# Episodes that mention a linked entity. A rare entity's few episodes are all scored; a hub's
# (a speaker mentioned by every episode: thousands at scale) are not scanned: the episodes of
# the turns nearest the query are kept if they mention the hub, so the work is bounded by the
# vector search's fetch size, not by the hub's degree.
CELLS = f"""
UNWIND $seeds AS seed
MATCH (s:Entity) WHERE elementId(s) = seed AND s.tenant = $tenant
  AND COUNT {{ (s)<-[:MENTIONS]-() }} <= $hubDegree
MATCH (s)<-[:MENTIONS]-(n:MemCell)
WHERE n.tenant = $tenant AND {filters.MEMCELL}
WITH n, vector.similarity.cosine(n.embedding, $vector) AS sim, collect(s.name)[0] AS via
WITH n, sim * $decay AS score, via ORDER BY score DESC, elementId(n) LIMIT $limit
RETURN elementId(n) AS key, score, via, {EVIDENCE["memcell"]} AS evidence
"""

HUBS = """
UNWIND $seeds AS seed
MATCH (s:Entity) WHERE elementId(s) = seed AND s.tenant = $tenant
  AND COUNT { (s)<-[:MENTIONS]-() } > $hubDegree
RETURN elementId(s) AS key
"""

# A hub's episodes: those of the turns nearest the query (the vector channel's search) that
# mention the hub, scored by their best turn.
HUB_CELLS = f"""
UNWIND $turns AS t
MATCH (n:MemCell) WHERE elementId(n) = t.cell AND n.tenant = $tenant AND {filters.MEMCELL}
// Expanded from the episode (a few MENTIONS), never from the hub (thousands).
WITH n, t, [(n)-[:MENTIONS]->(s:Entity) WHERE elementId(s) IN $hubs | s.name] AS hubNames
WHERE size(hubNames) > 0
WITH n, max(t.score) AS score, head(collect(hubNames[0])) AS via
WITH n, score * $decay AS score, via ORDER BY score DESC, elementId(n) LIMIT $limit
RETURN elementId(n) AS key, score, via, {EVIDENCE["memcell"]} AS evidence
"""


class GraphChannel:
    name = "graph"

    def __init__(self, max_entities: int = 5):
        self.max_entities = max_entities
        # One query text per RELATED path length (Cypher cannot take a bound as a parameter).
        self._hood = {r: HOOD.replace("{hops}", str(r)) for r in range(0, 8)}

    async def link(self, ctx: SearchContext) -> list[dict]:
        terms = safe_query(ctx.request.query)
        if not terms:
            return []
        lucene = f"+(name:({terms}) OR aliasText:({terms})) +tenant:{ctx.graph.tenant}"
        return await ctx.graph.read(LINK, lucene=lucene, maxEntities=self.max_entities)

    async def facts(self, ctx: SearchContext, seeds: list[str]) -> list[Candidate]:
        rels = min(max(0, ctx.request.hops - 1), 7)  # hop 1 is the fact itself
        hood = await ctx.graph.read_rows(self._hood[rels], ("key", "dist", "via", "degree"), seeds=seeds,
                                         maxHood=MAX_HOOD, hubDegree=HUB_RELATIONS, **ctx.filters)
        if not hood:
            return []
        dist = {h["key"]: h["dist"] for h in hood}
        via = {h["key"]: h["via"] for h in hood}
        small = [h["key"] for h in hood if h["degree"] <= SMALL_DEGREE]
        jobs = [near_facts(ctx)]
        if small:
            jobs.append(ctx.graph.read_rows(SMALL_FACTS, ("key", "sim", "about", "confidence", "evidence"),
                                            keys=small, vector=await ctx.vector(),
                                            maxFacts=MAX_SMALL_FACTS, **ctx.filters))
        rows: dict[str, dict] = {}
        for result in await asyncio.gather(*jobs):
            for r in result:
                rows.setdefault(r["key"], {**r, "sim": r.get("sim", r.get("score"))})
        scored = []
        for r in rows.values():
            about = [a for a in r["about"] if a in dist]
            if not about:
                continue
            d = min(dist[a] for a in about)
            nearest = min(about, key=lambda a: dist[a])
            score = float(r["sim"]) * (DECAY ** d) * float(r["confidence"] or 0.7)
            scored.append({"key": r["key"], "score": score, "evidence": r["evidence"],
                           "note": f"{d + 1} hop(s) from {via[nearest]}"})
        scored.sort(key=lambda x: (-x["score"], x["key"]))
        return candidates("fact", scored[:ctx.depth], lambda r: r["note"])

    async def cells(self, ctx: SearchContext, seeds: list[str]) -> list[Candidate]:
        vector = await ctx.vector()
        common = dict(seeds=seeds, vector=vector, decay=DECAY, limit=ctx.depth,
                      hubDegree=HUB_DEGREE, **ctx.filters)
        small, hubs = await asyncio.gather(ctx.graph.read_rows(CELLS, ("key", "score", "via", "evidence"),
                                                               **common),
                                           ctx.graph.read(HUBS, **common))
        rows = list(small)
        if hubs:
            turns = [{"cell": t["cell"], "score": t["score"]} for t in await near_turns(ctx) if t["cell"]]
            rows += await ctx.graph.read_rows(HUB_CELLS, ("key", "score", "via", "evidence"), turns=turns,
                                              vector=vector, hubs=[h["key"] for h in hubs],
                                              decay=DECAY, limit=ctx.depth, **ctx.filters)
        best: dict[str, dict] = {}
        for r in rows:
            if r["key"] not in best or r["score"] > best[r["key"]]["score"]:
                best[r["key"]] = r
        ranked = sorted(best.values(), key=lambda r: (-r["score"], r["key"]))[:ctx.depth]
        return candidates("memcell", ranked, lambda r: f"mentions {r['via']}")

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        seeds = await self.link(ctx)
        if not seeds:
            return []
        keys = [s["key"] for s in seeds]
        jobs = []
        if "fact" in ctx.request.kinds:
            jobs.append(self.facts(ctx, keys))
        if "memcell" in ctx.request.kinds:
            jobs.append(self.cells(ctx, keys))
        out = [c for result in await asyncio.gather(*jobs) for c in result]
        out.sort(key=lambda c: (-c.score, c.key))
        return out[:ctx.depth]
