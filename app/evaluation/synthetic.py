"""A synthetic memory graph for the benchmarks (search, gc, consolidate, http): tenants of
MemCells, each with its Turn, a Fact and the entities they mention, written in bulk without the
ingestion pipeline (which would take hours at 100k cells).

Cell i is about topic WORDS[i % len(WORDS)] and spoken by a name of NAMES; its vectors lie
around its topic's centre, like real episodes (not uniform noise), and its keywords are the
topic, the speaker and a few words of the topic's neighbourhood (plus, sometimes, an unrelated
word), as the extractor gives 5-8 keywords mostly on one subject. Neighbourhoods of nearby
topics overlap, so scenes have near neighbours to tell apart.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import numpy as np

from app.lifecycle.forget import purge_tenant
from app.runtime.services import Services
from app.store import term_stats
from app.store.graph import TenantGraph, TenantTx

WORDS = ("garden hiking piano robot chess coffee museum painting soccer novel camping recipe guitar "
         "paris tokyo berlin lisbon doctor teacher startup exam wedding birthday puppy kitten bakery "
         "marathon yoga concert theatre physics poetry sailing skiing volunteer charity podcast").split()
NAMES = ("Ava Ben Cleo Dan Eli Faye Gus Hana Ivan Jade Kai Lena Milo Nora Omar Pia Quin Rosa Sami "
         "Tara Uma Vic Wren Xena Yuri Zoe").split()
# Offsets (in WORDS) of a topic's neighbourhood: the words its episodes also mention.
NEIGHBOURHOOD = (1, 2, 4, 7, 11, 16)

SEED_CELLS = """
UNWIND $rows AS r
CREATE (m:MemCell {id: r.id, tenant: $tenant, title: r.title, summary: r.summary,
                   keywordText: r.title, keywords: r.keywords, importance: 0.5, startedAt: r.at,
                   endedAt: r.at, embedding: r.cellVec, status: 'active', accessCount: 0,
                   conversationId: $conversationId, userIds: []})
CREATE (t:Turn {tenant: $tenant, conversationId: $conversationId, id: r.id + ':t', speaker: r.speaker,
                content: r.summary, at: r.at, seq: r.seq, status: 'done', memCellId: r.id,
                embedding: r.cellVec})
CREATE (m)-[:EVIDENCED_BY]->(t)
CREATE (f:Fact {id: r.id + ':f', tenant: $tenant, subject: r.speaker, predicate: 'likes',
                object: r.topic, text: r.fact, subjectKey: toLower(r.speaker), objectKey: r.topic,
                singleValued: false, confidence: 0.9, validFrom: r.at, status: 'current',
                embedding: r.factVec, conversationId: $conversationId})
CREATE (m)-[:HAS_FACT]->(f)
CREATE (f)-[:EVIDENCED_BY]->(t)
SET m += r.cellTerms, t += r.turnTerms, f += r.factTerms
WITH m, f, r
MATCH (e:Entity {tenant: $tenant, groupKey: '', key: toLower(r.speaker)})
MATCH (o:Entity {tenant: $tenant, groupKey: '', key: r.topic})
CREATE (f)-[:ABOUT {role: 'subject'}]->(e)
CREATE (f)-[:ABOUT {role: 'object'}]->(o)
CREATE (m)-[:MENTIONS]->(e)
CREATE (e)-[:RELATED {predicate: 'likes', factId: f.id, validFrom: r.at, weight: 0.9, tenant: $tenant}]->(o)
"""

SEED_ENTITIES = """
UNWIND $rows AS r
MERGE (e:Entity {tenant: $tenant, groupKey: '', key: r.key})  // conversations of no group
ON CREATE SET e.id = r.id, e.name = r.name, e.type = r.type, e.aliases = [], e.aliasKeys = [],
              e.aliasText = '', e.merges = [], e.embedding = r.vec
WITH e AS n
RETURN """ + term_stats.RECOUNT_COLUMNS["entity"]

COUNT_CELLS = "MATCH (m:MemCell {tenant: $tenant}) RETURN count(m) AS n"


def unit_rows_around(rng: np.random.Generator, n: int, dim: int, centers: np.ndarray) -> np.ndarray:
    # Vectors clustered around topic centres, like real episodes, not uniform noise.
    idx = rng.integers(0, len(centers), n)
    v = centers[idx] + 0.6 * rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def cell_keywords(i: int, rng: np.random.Generator) -> list[str]:
    """5-8 keywords of cell i: its topic and speaker first (the extractor's most salient),
    3-5 words of the topic's neighbourhood, and half the time one unrelated word."""
    t = i % len(WORDS)
    near = [WORDS[(t + d) % len(WORDS)] for d in NEIGHBOURHOOD]
    words = [WORDS[t], NAMES[(i * 7) % len(NAMES)]]
    words += [near[j] for j in rng.choice(len(near), int(rng.integers(3, 6)), replace=False)]
    if rng.random() < 0.5:
        stray = WORDS[int(rng.integers(0, len(WORDS)))]
        if stray not in words:
            words.append(stray)
    return words


def entity_rows(vectors: np.ndarray) -> list[dict]:
    """Rows for SEED_ENTITIES: NAMES (people) then WORDS (things), with one vector each (in
    that order); ids are made per tenant by `seed_entities`."""
    rows = [{"key": n.lower(), "id": f"ent_{n.lower()}", "name": n, "type": "person"} for n in NAMES]
    rows += [{"key": w, "id": f"ent_{w}", "name": w, "type": "thing"} for w in WORDS]
    for r, v in zip(rows, vectors):
        r["vec"] = [float(x) for x in v]
    return rows


async def seed_entities(graph: TenantGraph, rows: list[dict]) -> None:
    rows = [{**r, "id": f"{r['id']}_{graph.tenant}"} for r in rows]

    async def work(tx: TenantTx) -> None:
        written = await tx.run(SEED_ENTITIES, rows=rows)
        await term_stats.recount_nodes(tx, "entity", written)

    await graph.write_tx(work)


# Cell i is said at START + i minutes: 1,440 a day.
START = datetime(2024, 1, 1, tzinfo=timezone.utc)


async def grow(graph: TenantGraph, start: int, target: int, dim: int, centers: np.ndarray,
               rng: np.random.Generator, progress=lambda *_: None, conversation: str = "bench") -> None:
    """Add cells start..target-1 to the tenant (its entities must be seeded first)."""
    base = START
    batch = 2000
    for lo in range(start, target, batch):
        hi = min(target, lo + batch)
        cv = unit_rows_around(rng, hi - lo, dim, centers)
        fv = unit_rows_around(rng, hi - lo, dim, centers)
        # Keywords from their own generator, so the vectors stay those of earlier runs.
        kw_rng = np.random.default_rng(lo)
        rows = []
        for i in range(lo, hi):
            topic = WORDS[i % len(WORDS)]
            who = NAMES[(i * 7) % len(NAMES)]
            rows.append({
                "id": f"{graph.tenant}:{i}", "title": f"{who} and {topic}",
                "summary": f"{who} talked about {topic} and {WORDS[(i * 13) % len(WORDS)]} on day {i}.",
                "fact": f"{who} likes {topic}.", "topic": topic, "speaker": who,
                "keywords": cell_keywords(i, kw_rng),
                "at": base + timedelta(minutes=i), "seq": i,
                "cellVec": [float(x) for x in cv[i - lo]], "factVec": [float(x) for x in fv[i - lo]],
            })
            r = rows[-1]
            r["cellTerms"] = term_stats.node_terms("memcell", {**r, "keywordText": r["title"]})
            r["turnTerms"] = term_stats.node_terms("turn", {"speaker": who, "content": r["summary"]})
            r["factTerms"] = term_stats.node_terms("fact", {"text": r["fact"]})
        await graph.write_tx(lambda tx, rows=rows: _seed(tx, rows, conversation))
        progress(graph.tenant, hi, target)


async def _seed(tx: TenantTx, rows: list[dict], conversation: str) -> None:
    """The rows' cells, turns and facts, and their words in the tenant's keyword statistics."""
    await tx.run(SEED_CELLS, rows=rows, conversationId=conversation)
    for kind, key in (("memcell", "cellTerms"), ("turn", "turnTerms"), ("fact", "factTerms")):
        await tx.run(term_stats.ADD, **term_stats.additions(kind, [r[key] for r in rows]))


@dataclass
class TenantMix:
    """One big tenant grown step by step among small ones (>= 20 tenants in all, as a shared
    server holds): the big one is measured, the others make the indexes tenant-mixed."""
    big: TenantGraph
    others: list[TenantGraph]
    dim: int
    centers: np.ndarray
    rng: np.random.Generator
    grown: int = 0

    async def grow_big(self, size: int, progress=lambda *_: None) -> None:
        await grow(self.big, self.grown, size, self.dim, self.centers, self.rng, progress)
        self.grown = max(self.grown, size)

    async def purge(self) -> None:
        for g in [self.big, *self.others]:
            await purge_tenant(g)


async def tenant_mix(services: Services, prefix: str, tenants: int = 20, small_cells: int = 500,
                     seed: int = 7, progress=lambda *_: None) -> TenantMix:
    """The tenants `{prefix}_big_{run}` (empty, grow it with `grow_big`) and
    `{prefix}_t{i}_{run}` (`small_cells` cells each), with their entities."""
    embedder = services.require_embedder()
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((len(WORDS), embedder.dimensions)).astype(np.float32)
    run = uuid.uuid4().hex[:6]
    mix = TenantMix(TenantGraph(services.driver, f"{prefix}_big_{run}", services.settings.neo4j_database),
                    [TenantGraph(services.driver, f"{prefix}_t{i}_{run}", services.settings.neo4j_database)
                     for i in range(tenants - 1)], embedder.dimensions, centers, rng)
    try:
        rows = entity_rows(embedder.embed(NAMES + WORDS))
        for g in [mix.big, *mix.others]:
            await seed_entities(g, rows)
        for g in mix.others:
            await grow(g, 0, small_cells, mix.dim, centers, rng, progress)
    except BaseException:
        await mix.purge()
        raise
    return mix
