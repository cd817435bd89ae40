"""Graph channel: entities named in the query, expanded over the graph to the facts and episodes
around them, ranked by closeness to the query and by path length.

  link    entities whose name or alias matches the query's words (fulltext on entity_text);
  hood    entities within hops-1 RELATED steps of them (current relations, or as of a moment),
          each with its distance; a hub, as seed or met on the way, is not expanded (a path may
          end at one), so hubs cannot blow the work up;
          (link and hood are one query, which needs no vector: it runs while the query is
          embedded)
  facts   facts ABOUT an entity of the hood, from two sources: every fact of the small entities
          (a rare name's few facts, whatever their wording), and the facts nearest the query by
          vector among those of all hood entities (a hub such as a speaker has thousands);
          score = cos(fact, query) * decay^distance * confidence;
  meaning entities whose embedding (of their name) is near the query's, for a query that names
          a thing in other words ("a Japanese city" and the entity "Tokyo"): the facts about
          the closest few small ones, scored like a seed's (a part of the search's vector query);
  cells   episodes that MENTION a linked entity, scored by closeness to the query.
          (the small entities' facts and the episodes, and a hub's episodes, are parts of the
          search's vector query: channels/nearest.py)
"""
from __future__ import annotations

from dataclasses import replace
from typing import Awaitable

from app.construction.entity_resolution import timeline_of
from app.recollection import bm25, filters
from app.recollection.asked_attribute import asked_predicates, asked_value, asked_work
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, VectorPart, candidates
from app.recollection.channels.vector import facts_part, near_facts, turns_part
from app.recollection.lucene import word_queries
from app.store.vector import VectorQuery, vector_query

DECAY = 0.7
ASKED_PINS = 2  # facts answering an asked attribute pinned among the first hits (asked_attribute.py)
SMALL_DEGREE = 40  # an entity with at most this many facts is expanded exhaustively
MAX_HOOD = 500
MAX_SMALL_FACTS = 400
HUB_DEGREE = 300  # an entity mentioned by more episodes than this is a hub
HUB_RELATIONS = 500  # ... or related to more entities than this (a LoCoMo speaker: ~150)
ENTITY_PROPOSALS = 50  # entities the name search proposes (at most per word; bm25.per_word)

# A hub seed (a speaker related to thousands of things) is not expanded: walking all its RELATED
# edges costs as much as the tenant is large, and "everything Maya ever mentioned" is no
# neighbourhood. It stays in the hood itself (its facts are found by vector, below). The seeds
# mentioned by more episodes than $hubDegree come back as `hubs` (their episodes are not scanned).
# The seeds are ranked by BM25 from the tenant's own statistics (app/recollection/bm25.py), not
# by Lucene's, which count every tenant's entity names.
NEIGHBOURHOOD = bm25.statistics("entity") + """
""" + bm25.proposals("entity_text", "lucene", node="s", carry="entity_idf, entity_avglen") + """
WHERE s.tenant = $tenant AND ($groupId IS NULL OR s.groupId = $groupId)  // entities are a group's
""" + bm25.score("entity", node="s", carry="entity_idf, entity_avglen") + """
WITH s, bm25 ORDER BY bm25 DESC, s.name, elementId(s) LIMIT $maxEntities
WITH collect(s) AS seeds
CALL (seeds) {
  UNWIND seeds AS s
  CALL (s) {
    WITH s WHERE COUNT { (s)-[:RELATED]-() } <= $hubRelations
    {paths}
    RETURN e, length(p) AS len
    UNION
    WITH s WHERE COUNT { (s)-[:RELATED]-() } > $hubRelations
    RETURN s AS e, 0 AS len
  }
  WITH e, min(len) AS dist, collect(DISTINCT s.name)[0] AS via
  ORDER BY dist LIMIT $maxHood
  // The degree comes from the relationship count store: no traversal of a hub's facts.
  RETURN collect({key: elementId(e), entity: e.key, dist: dist, via: via,
                  degree: COUNT { (e)<-[:ABOUT]-() }}) AS hood
}
RETURN [s IN seeds WHERE COUNT { (s)<-[:MENTIONS]-() } <= $hubDegree | elementId(s)] AS small,
       [s IN seeds WHERE COUNT { (s)<-[:MENTIONS]-() } > $hubDegree | elementId(s)] AS hubs, hood
"""

_RELATION_HOLDS = f"""r.tenant = $tenant AND coalesce(r.forgotten, false) = false
          AND ($includeSuperseded OR {filters.holds("r")} OR {filters.held_during("r")})"""


def hood_paths(rels: int) -> str:
    """The seed's paths of up to `rels` RELATED steps. Past one step a path passes through
    entities on its way, and a hub among them (a speaker a step from the seed) would be walked
    in full, as the seed would: each step leaves only an entity that is no hub (it may end at
    one)."""
    if rels <= 1:
        return f"""MATCH p = (s)-[rels:RELATED*0..{rels}]-(e:Entity)
    WHERE e.tenant = $tenant AND all(r IN rels WHERE {_RELATION_HOLDS})"""
    return f"""MATCH p = (s) ((a:Entity)-[r:RELATED]-(b:Entity)
        WHERE {_RELATION_HOLDS} AND COUNT {{ (a)-[:RELATED]-() }} <= $hubRelations){{0,{rels}}} (e:Entity)
    WHERE e.tenant = $tenant"""


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
  RETURN collect({{key: elementId(n), sim: vector.similarity.cosine(n.embedding, $adapted),
                   about: [(n)-[:ABOUT]->(x:Entity) | elementId(x)], confidence: n.confidence,
                   predicate: n.predicate, subjectKey: n.subjectKey, evidence: {EVIDENCE["fact"]}}}) AS facts
}}
CALL () {{
  UNWIND $seeds AS seed
  MATCH (s:Entity) WHERE elementId(s) = seed AND s.tenant = $tenant
  MATCH (s)<-[:MENTIONS]-(n:MemCell)
  WHERE n.tenant = $tenant AND {filters.MEMCELL}
  WITH n, vector.similarity.cosine(n.embedding, $adapted) AS sim, collect(s.name)[0] AS via
  WITH n, sim * $decay AS score, via ORDER BY score DESC, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), score: score, via: via, evidence: {EVIDENCE["memcell"]}}}) AS cells
}}
RETURN {{facts: facts, cells: cells}} AS around
"""

# A hub's episodes: those of the turns nearest the query (the `turns` part of the search's
# vector query, which this part reads) that mention the hub, scored by their best turn. The
# work is bounded by that search's fetch size, not by the hub's degree.
HUB_CELLS = f"""
UNWIND turns AS t
MATCH (n:MemCell) WHERE elementId(n) = t.cell AND n.tenant = $tenant AND {filters.MEMCELL}
// Expanded from the episode (a few MENTIONS), never from the hub (thousands).
WITH n, t, [(n)-[:MENTIONS]->(s:Entity) WHERE elementId(s) IN $hubs | s.name] AS hubNames
WHERE size(hubNames) > 0
WITH n, max(t.score) AS score, head(collect(hubNames[0])) AS via
WITH n, score * $decay AS score, via ORDER BY score DESC, elementId(n) LIMIT $limit
RETURN collect({{key: elementId(n), score: score, via: via, evidence: {EVIDENCE["memcell"]}}}) AS hubCells
"""
# Neither reads a vector index: the fallback for Neo4j's filtered-search bug is the same text.
AROUND_PART, HUB_CELLS_PART = VectorQuery(AROUND, AROUND), VectorQuery(HUB_CELLS, HUB_CELLS)

# Entities linked by meaning: the few whose name's embedding is nearest the query's, above
# MEANING_SCORE, and only small ones (a hub's thousands of facts would be a scan; a hub is
# found when it is named, and its facts by vector among the hood's: NEAR_FACTS); their facts
# are scored against the query like those of a seed. The index is asked for 4x as many, room for
# the hubs left out. `score` is the index's, cosine mapped to [0, 1]. Questions against the
# names of tests/conversation.py (and "cello"): "What Japanese city is she flying to?" gave
# Tokyo 0.81, "What instrument does she play?" cello 0.78, while "Which company does she work
# for?" gave Siemens only 0.64 (a category word lies far from a name: missed), every name a
# question did not mean scored 0.70 at most, and a question meaning none 0.58 at most. (On
# LoCoMo the questions name their people and places: no measurable recall moved, README
# Evaluation.)
MEANING_ENTITIES = 3
MEANING_SCORE = 0.74
BY_MEANING = vector_query("Entity", "entity_embedding", f"""
WITH e, score WHERE score >= $minScore AND COUNT {{ (e)<-[:ABOUT]-() }} <= $small
WITH e, score ORDER BY score DESC, elementId(e) LIMIT $entities
MATCH (n:Fact)-[:ABOUT]->(e) WHERE n.tenant = $tenant AND {filters.FACT}
WITH n, collect(e.name)[0] AS via
WITH n, via, vector.similarity.cosine(n.embedding, $adapted) AS sim
ORDER BY sim DESC, elementId(n) LIMIT $limit
RETURN collect({{key: elementId(n), sim: sim, via: via, confidence: n.confidence,
                 evidence: {EVIDENCE["fact"]}}}) AS byMeaning
""", limit="$fetch", var="e")

# A piece of work's value asked after ("Who owns billing?": asked_attribute.asked_work), or a
# value that changes ("What plan is Harbor on?": asked_value): its timeline's facts, by the
# (tenant, subjectKey, predicate) index, newest first (those of a period the query names first).
# A thing's or an entity's timeline is its group's (entity_resolution.timeline_key): "billing@atlas",
# or any group's when none is asked.
# A person asked by a given name alone ("What stage is Priya at?") is the one person whose full
# name begins with it ("Priya Sharma"), as entity resolution reads it (PERSON_PREFIX).
WORK_FACTS = f"""
UNWIND $pairs AS p
CALL (p) {{
  OPTIONAL MATCH (e:Entity {{tenant: $tenant}}) WHERE e.key STARTS WITH p.work + ' ' AND e.type = 'person'
    AND ($groupId IS NULL OR e.groupId = $groupId)
  WITH collect(DISTINCT e.key)[..2] AS full
  RETURN CASE WHEN size(full) = 1 THEN full[0] ELSE p.work END AS whole
}}
MATCH (n:Fact {{tenant: $tenant}})
WHERE (n.subjectKey IN [p.work, whole] OR n.subjectKey STARTS WITH p.work + '@'
       OR n.subjectKey STARTS WITH whole + '@')
  AND n.predicate = p.predicate
  AND {filters.FACT}
// "What did Nadia weigh in early November?": the values of that time before the value of now
WITH n ORDER BY CASE WHEN {filters.held_during("n")} THEN 0 ELSE 1 END, n.validFrom DESC, elementId(n)
LIMIT $pins
RETURN elementId(n) AS key, 1.0 AS score, {EVIDENCE["fact"]} AS evidence
"""


class GraphChannel:
    name = "graph"

    def __init__(self, max_entities: int = 5):
        self.max_entities = max_entities
        # One query text per RELATED path length (Cypher cannot take a bound as a parameter).
        self._neighbourhood = {r: NEIGHBOURHOOD.replace("{paths}", hood_paths(r)) for r in range(0, 8)}

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        """The facts nearest the query (a hood's facts) and the turns nearest it (a hub's
        episodes), and the work around the linked entities, planned once they are known.
        The index searches are asked for whenever the graph channel could use them: with other
        channels (HYBRID) they run anyway; alone, a query naming no hub searches turns in vain."""
        if not self._applies(ctx):
            return []
        kinds = ctx.request.kinds
        self._linked(ctx)  # starts the entity lookup now: it needs no vector
        parts = [VectorPart("around", AROUND_PART, lambda: self._around_params(ctx))]
        if "fact" in kinds:
            parts += [facts_part(ctx),
                      VectorPart("byMeaning", BY_MEANING, {
                          "fetch": MEANING_ENTITIES * 4, "entities": MEANING_ENTITIES,
                          "minScore": MEANING_SCORE, "small": SMALL_DEGREE, "limit": ctx.depth})]
        if "memcell" in kinds:
            parts += [turns_part(ctx),
                      VectorPart("hubCells", HUB_CELLS_PART, lambda: self._hub_params(ctx), uses=("turns",))]
        return parts

    @staticmethod
    def _applies(ctx: SearchContext) -> bool:
        return bool(ctx.lucene_terms and ctx.words and {"fact", "memcell"} & set(ctx.request.kinds))

    def _linked(self, ctx: SearchContext) -> Awaitable[dict | None]:
        """The entities the query names and their neighbourhood (one run per search), or None."""
        async def run() -> dict | None:
            kinds = ctx.request.kinds
            rels = min(max(0, ctx.request.hops - 1), 7)  # hop 1 is the fact itself
            terms = ctx.lucene_terms
            lucene = word_queries(terms, ["name", "aliasText"], ctx.graph.tenant)
            found = await ctx.graph.read_one(
                self._neighbourhood[rels], lucene=lucene, perWord=bm25.per_word(ENTITY_PROPOSALS, len(terms)),
                terms=ctx.words, maxEntities=self.max_entities,
                maxHood=MAX_HOOD if "fact" in kinds else 0, hubRelations=HUB_RELATIONS,
                hubDegree=HUB_DEGREE, **ctx.filters)
            return found if found and (found["small"] or found["hubs"]) else None

        return ctx.shared("graph_linked", run)

    async def _around_params(self, ctx: SearchContext) -> dict | None:
        found = await self._linked(ctx)
        if not found:
            return None
        small = [h["key"] for h in found["hood"] if h["degree"] <= SMALL_DEGREE]
        return dict(smallEntities=small, maxFacts=MAX_SMALL_FACTS,
                    seeds=found["small"] if "memcell" in ctx.request.kinds else [],
                    decay=DECAY, limit=ctx.depth)

    async def _hub_params(self, ctx: SearchContext) -> dict | None:
        found = await self._linked(ctx)
        if not found or not found["hubs"]:
            return None
        return dict(hubs=found["hubs"], decay=DECAY, limit=ctx.depth)

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        if not self._applies(ctx):
            return []
        pairs = []
        if "fact" in ctx.request.kinds:
            work = asked_work(ctx.text)
            pairs = ([(work[0], p) for p in work[1]] if work else
                     asked_value(ctx.text, in_group=ctx.request.group_id is not None))
        if not pairs:
            return await self._search(ctx)
        # Its values true now first, pinned; the graph's own finds after them.
        rows = await ctx.graph.read(WORK_FACTS, pairs=[{"work": w, "predicate": p} for w, p in pairs],
                                    pins=ASKED_PINS, **ctx.filters)
        pinned = [replace(c, pin=True, answer=True)
                  for c in candidates("fact", rows, lambda r: f"{pairs[0][0]}: what was asked")]
        return pinned + [c for c in await self._search(ctx) if c.key not in {p.key for p in pinned}]

    async def _search(self, ctx: SearchContext) -> list[Candidate]:
        found = await self._linked(ctx)
        by_meaning = await ctx.nearest("byMeaning") or []
        if not found and not by_meaning:
            return []
        hood = found["hood"] if found else []
        around = (await ctx.nearest("around") if found else None) or {"facts": [], "cells": []}
        near = await near_facts(ctx) if "fact" in ctx.request.kinds and hood else []
        hub_cells = await ctx.nearest("hubCells") or []
        out = (self.facts(ctx, hood, near + around["facts"], by_meaning)
               + self.cells(ctx, around["cells"] + hub_cells))
        out.sort(key=lambda c: (-c.score, c.key))
        return out

    @staticmethod
    def facts(ctx: SearchContext, hood: list[dict], found: list[dict],
              by_meaning: list[dict] = ()) -> list[Candidate]:
        """Facts about the hood, scored cos(fact, query) x decay^distance x confidence, and
        facts about entities linked by meaning, scored as a seed's (distance 0)."""
        dist = {h["key"]: h["dist"] for h in hood}
        via = {h["key"]: h["via"] for h in hood}
        rows: dict[str, dict] = {}
        for r in found:
            row = rows.setdefault(r["key"], {**r, "sim": r.get("sim", r.get("score"))})
            for field in ("predicate", "subjectKey"):  # read by AROUND only
                row[field] = row.get(field) or r.get(field)
        scored: dict[str, dict] = {}

        def keep(r: dict, score: float, note: str) -> None:
            if r["key"] not in scored or score > scored[r["key"]]["score"]:
                scored[r["key"]] = {"key": r["key"], "score": score, "evidence": r["evidence"], "note": note}

        for r in rows.values():
            about = [a for a in r["about"] if a in dist]
            if not about:
                continue
            d = min(dist[a] for a in about)
            nearest = min(about, key=lambda a: dist[a])
            keep(r, float(r["sim"]) * (DECAY ** d) * float(r["confidence"] or 0.7),
                 f"{d + 1} hop(s) from {via[nearest]}")
        for r in by_meaning:
            keep(r, float(r["sim"]) * float(r["confidence"] or 0.7), f"about {r['via']} (by meaning)")
        ranked = sorted(scored.values(), key=lambda x: (-x["score"], x["key"]))
        out = candidates("fact", ranked[:ctx.depth], lambda r: r["note"])
        # Asked after one thing of a person the query names ("Who is Raj's doctor?"): its
        # values true now are pinned among the first hits, the best ASKED_PINS (asked_attribute.py).
        asked = asked_predicates(ctx.text)
        named = {h["entity"] for h in hood if h["dist"] == 0}
        answers = [c.key for c in out if rows.get(c.key, {}).get("predicate") in asked
                   and timeline_of(rows[c.key].get("subjectKey") or "") in named][:ASKED_PINS] if asked else []
        return [replace(c, pin=True, answer=True, note=f"{c.note}; what was asked") if c.key in answers else c
                for c in out]

    @staticmethod
    def cells(ctx: SearchContext, rows: list[dict]) -> list[Candidate]:
        best: dict[str, dict] = {}
        for r in rows:
            if r["key"] not in best or r["score"] > best[r["key"]]["score"]:
                best[r["key"]] = r
        ranked = sorted(best.values(), key=lambda r: (-r["score"], r["key"]))[:ctx.depth]
        return candidates("memcell", ranked, lambda r: f"mentions {r['via']}")

