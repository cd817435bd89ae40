"""A foresight's vector is its trigger's, for new foresight and, once per database, for foresight
written by a version that embedded its text and trigger together (real Neo4j, real model)."""
import numpy as np

from app.construction.ingest import Ingestor
from app.lifecycle import foresight_vectors
from tests.conversation import maya_and_sam

READ = """
MATCH (f:Foresight {tenant: $tenant})
RETURN elementId(f) AS k, f.text AS text, f.trigger AS trigger, f.embedding AS v,
       f.importReembed AS flagged ORDER BY f.text
"""
SET_OLD = """
UNWIND $rows AS r MATCH (f:Foresight {tenant: $tenant}) WHERE elementId(f) = r.k SET f.embedding = r.v
"""
FORGET_MIGRATION = "MATCH (m:DataMigration {name: $name}) DELETE m"


def cosines(stored: list[list[float]], made: np.ndarray) -> list[float]:
    a = np.asarray(stored, dtype=np.float64)
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b = made / np.linalg.norm(made, axis=1, keepdims=True)
    return [float(x) for x in (a * b).sum(axis=1)]


async def test_old_foresight_vectors_are_made_again_from_the_trigger_once(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    rows = await graph.read(READ)
    assert rows and all(r["trigger"] for r in rows)
    by_trigger = services.embedder.embed([r["trigger"] for r in rows])
    assert min(cosines([r["v"] for r in rows], by_trigger)) > 0.999  # ingestion: the trigger's

    # As the version before wrote them: text and trigger together.
    old = services.embedder.embed([f"{r['text']}. {r['trigger']}" for r in rows])
    await graph.write(SET_OLD, rows=[{"k": r["k"], "v": v.tolist()} for r, v in zip(rows, old)])
    assert max(cosines([r["v"] for r in await graph.read(READ)], by_trigger)) < 0.99
    async with services.driver.session(database=services.settings.neo4j_database) as s:
        await (await s.run(FORGET_MIGRATION, name=foresight_vectors.MIGRATION)).consume()

    made = await foresight_vectors.migrate(services.driver, services.embedder, services.settings)
    assert made >= len(rows)  # other tests' tenants are migrated too
    after = await graph.read(READ)
    assert min(cosines([r["v"] for r in after], by_trigger)) > 0.999
    assert not any(r["flagged"] for r in after)
    # Recorded: a second start does nothing.
    assert await foresight_vectors.migrate(services.driver, services.embedder, services.settings) == 0
