"""Graph channel: entities named in the query, expanded over the graph to the facts and episodes
around them, ranked by closeness to the query and by path length.

  link    entities whose name or alias matches the query's words (fulltext on entity_text);
  hood    entities within hops-1 RELATED steps of them (current relations, or as of a moment),
          each with its distance; a hub seed is not expanded, so hubs cannot blow the work up;
          (link and hood are one query, which needs no vector: it runs while the query is
          embedded)
  facts   facts ABOUT an entity of the hood, from two sources: every fact of the small entities
          (a rare name's few facts, whatever their wording), and the facts nearest the query by
          vector among those of all hood entities (a hub such as a speaker has thousands);
          score = cos(fact, query) * decay^distance * confidence;
  cells   episodes that MENTION a linked entity, scored by closeness to the query.
          (the small entities' facts and the episodes are one query, once the vector is there)
"""
from __future__ import annotations

import asyncio

from app.recollection import bm25, filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, VectorPart, candidates
from app.recollection.channels.vector import facts_part, near_facts, near_turns, turns_part

DECAY = 0.7
SMALL_DEGREE = 40  # an entity with at most this many facts is expanded exhaustively
MAX_HOOD = 500
MAX_SMALL_FACTS = 400
HUB_DEGREE = 300  # an entity mentioned by more episodes than this is a hub
HUB_RELATIONS = 500  # ... or related to more entities than this (a LoCoMo speaker: ~150)

# A hub seed (a speaker related to thousands of things) is not expanded: walking all its RELATED
# edges costs as much as the tenant is large, and "everything Maya ever mentioned" is no
# neighbourhood. It stays in the hood itself (its facts are found by vector, below). The seeds
# mentioned by more episodes than $hubDegree come back as `hubs` (their episodes are not scanned).
# The seeds are ranked by BM25 from the tenant's own statistics (app/recollection/bm25.py), not
# by Lucene's, which count every tenant's entity names.
NEIGHBOURHOOD = bm25.statistics("entity") + """
CALL db.index.fulltext.queryNodes('entity_text', $lucene, {limit: 50}) YIELD node AS s, score
WHERE s.tenant = $tenant
""" + bm25.score("entity", node="s", carry="entity_idf, entity_avglen") + """
WITH s, bm25 ORDER BY bm25 DESC, s.name, elementId(s) LIMIT $maxEntities
WITH collect(s) AS seeds
CALL (seeds) {
  UNWIND seeds AS s
  CALL (s) {
    WITH s WHERE COUNT { (s)-[:RELATED]-() } <= $hubRelations
    MATCH p = (s)-[rels:RELATED*0..{hops}]-(e:Entity)
    WHERE e.tenant = $tenant
      AND all(r IN rels WHERE r.tenant = $tenant AND coalesce(r.forgotten, false) = false
          AND ($includeSuperseded OR
          (CASE WHEN $asOf IS NULL THEN r.validTo IS NULL
                ELSE r.validFrom <= $asOf AND (r.validTo IS NULL OR r.validTo > $asOf) END)))
    RETURN e, length(p) AS len
    UNION
    WITH s WHERE COUNT { (s)-[:RELATED]-() } > $hubRelations
    RETURN s AS e, 0 AS len
  }
  WITH e, min(len) AS dist, collect(DISTINCT s.name)[0] AS via
  ORDER BY dist LIMIT $maxHood
  // The degree comes from the relationship count store: no traversal of a hub's facts.
  RETURN collect({key: elementId(e), dist: dist, via: via, degree: COUNT { (e)<-[:ABOUT]-() }}) AS hood
}
RETURN [s IN seeds WHERE COUNT { (s)<-[:MENTIONS]-() } <= $hubDegree | elementId(s)] AS small,
       [s IN seeds WHERE COUNT { (s)<-[:MENTIONS]-() } > $hubDegree | elementId(s)] AS hubs, hood
"""

# Every fact of the small entities of the hood (a rare name's few facts, whatever their
# wording), and the episodes that mention a seed that is not a hub (a speaker mentioned by every
# episode, thousands at scale, is not scanned: see HUB_CELLS), both scored against the query.
AROUND = f"""
CALL () {{
  UNWIND $smallEntities AS k
  MATCH (e:Entity) WHERE elementId(e) = k AND e.tenant = $tenant
  MATCH (n:Fact)-[:ABOUT]->(e)
  WHERE n.tenant = $tenant AND {filters.FACT}
  WITH DISTINCT n LIMIT $maxFacts
  RETURN collect({{key: elementId(n), sim: vector.similarity.cosine(n.embedding, $vector),
                   about: [(n)-[:ABOUT]->(x:Entity) | elementId(x)], confidence: n.confidence,
                   evidence: {EVIDENCE["fact"]}}}) AS facts
}}
CALL () {{
  UNWIND $seeds AS seed
  MATCH (s:Entity) WHERE elementId(s) = seed AND s.tenant = $tenant
  MATCH (s)<-[:MENTIONS]-(n:MemCell)
  WHERE n.tenant = $tenant AND {filters.MEMCELL}
  WITH n, vector.similarity.cosine(n.embedding, $vector) AS sim, collect(s.name)[0] AS via
  WITH n, sim * $decay AS score, via ORDER BY score DESC, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), score: score, via: via, evidence: {EVIDENCE["memcell"]}}}) AS cells
}}
RETURN facts, cells
"""

# A hub's episodes: those of the turns nearest the query (the vector channel's search) that
# mention the hub, scored by their best turn. The work is bounded by that search's fetch size,
# not by the hub's degree.
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
        self._neighbourhood = {r: NEIGHBOURHOOD.replace("{hops}", str(r)) for r in range(0, 8)}

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        """The facts nearest the query (a hood's facts) and the turns nearest it (a hub's
        episodes). Asked for whenever the graph channel could use them: with other channels
        (HYBRID) they are searched anyway; alone, a query naming no hub searches turns in vain."""
        if not self._applies(ctx):
            return []
        kinds = ctx.request.kinds
        return ([facts_part(ctx)] if "fact" in kinds else []) + ([turns_part(ctx)] if "memcell" in kinds else [])

    @staticmethod
    def _applies(ctx: SearchContext) -> bool:
        return bool(ctx.lucene_terms and ctx.words and {"fact", "memcell"} & set(ctx.request.kinds))

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        terms, words = ctx.lucene_terms, ctx.words
        kinds = ctx.request.kinds
        if not self._applies(ctx):
            return []
        rels = min(max(0, ctx.request.hops - 1), 7)  # hop 1 is the fact itself
        lucene = f"+(name:({terms}) OR aliasText:({terms})) +tenant:{ctx.graph.tenant}"
        found = await ctx.graph.read_one(
            self._neighbourhood[rels], lucene=lucene, terms=words, maxEntities=self.max_entities,
            maxHood=MAX_HOOD if "fact" in kinds else 0, hubRelations=HUB_RELATIONS,
            hubDegree=HUB_DEGREE, **ctx.filters)
        if not found or not (found["small"] or found["hubs"]):
            return []
        hood = found["hood"]
        small = [h["key"] for h in hood if h["degree"] <= SMALL_DEGREE]
        vector = await ctx.vector()
        around = ctx.graph.read_one(AROUND, smallEntities=small, maxFacts=MAX_SMALL_FACTS,
                                    seeds=found["small"] if "memcell" in kinds else [],
                                    vector=vector, decay=DECAY, limit=ctx.depth, **ctx.filters)
        near = near_facts(ctx) if "fact" in kinds and hood else _nothing()
        hub_cells = (self.hub_cells(ctx, found["hubs"]) if "memcell" in kinds and found["hubs"]
                     else _nothing())
        around, near, hub_cells = await asyncio.gather(around, near, hub_cells)
        out = self.facts(ctx, hood, near + around["facts"]) + self.cells(ctx, around["cells"] + hub_cells)
        out.sort(key=lambda c: (-c.score, c.key))
        return out[:ctx.depth]

    async def hub_cells(self, ctx: SearchContext, hubs: list[str]) -> list[dict]:
        turns = [{"cell": t["cell"], "score": t["score"]} for t in await near_turns(ctx) if t["cell"]]
        return await ctx.graph.read_rows(HUB_CELLS, ("key", "score", "via", "evidence"), turns=turns,
                                         vector=await ctx.vector(), hubs=hubs, decay=DECAY,
                                         limit=ctx.depth, **ctx.filters)

    @staticmethod
    def facts(ctx: SearchContext, hood: list[dict], found: list[dict]) -> list[Candidate]:
        """Facts about the hood, scored cos(fact, query) x decay^distance x confidence."""
        dist = {h["key"]: h["dist"] for h in hood}
        via = {h["key"]: h["via"] for h in hood}
        rows: dict[str, dict] = {}
        for r in found:
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

    @staticmethod
    def cells(ctx: SearchContext, rows: list[dict]) -> list[Candidate]:
        best: dict[str, dict] = {}
        for r in rows:
            if r["key"] not in best or r["score"] > best[r["key"]]["score"]:
                best[r["key"]] = r
        ranked = sorted(best.values(), key=lambda r: (-r["score"], r["key"]))[:ctx.depth]
        return candidates("memcell", ranked, lambda r: f"mentions {r['via']}")


async def _nothing() -> list:
    return []
