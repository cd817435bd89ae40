"""memorize with wait: false: the turns are stored at once, the conversation's worker processes
them in the background, in order, and nothing differs from waiting for each call."""
import asyncio

from app.construction.ingest import Ingestor
from app.construction.status import conversation_status
from tests.conversation import maya_and_sam


async def _shape(graph):
    rows = await graph.read("""
        MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
        WITH m, t ORDER BY t.seq
        WITH m, collect(t.id) AS turns
        RETURN turns, COUNT { (m)-[:HAS_FACT]->() } AS facts ORDER BY turns[0]""")
    return [(r["turns"], r["facts"]) for r in rows]


async def test_streamed_calls_give_the_same_memories_as_waiting_for_each(services, tenant):
    from app.store.graph import TenantGraph

    msgs = maya_and_sam()
    calls = [msgs[:3], msgs[3:6], msgs[6:8], msgs[8:]]
    waited = TenantGraph(services.driver, tenant + "_w")
    streamed = TenantGraph(services.driver, tenant + "_s")
    ingestor = Ingestor(services)
    for i, part in enumerate(calls):
        await ingestor.memorize(waited.tenant, "c1", part, flush=i == len(calls) - 1)
    reports = []
    for i, part in enumerate(calls):
        rep = await ingestor.memorize(streamed.tenant, "c1", part, flush=i == len(calls) - 1, wait=False)
        reports.append(rep)
    # answered once stored: the turns are there, pending, before any processing is waited for
    assert all(r.process.queued and r.process.pending == len(p) for r, p in zip(reports, calls))
    stored = await streamed.read("MATCH (t:Turn {tenant: $tenant}) RETURN count(t) AS n")
    assert stored[0]["n"] == len(msgs)
    await ingestor.drain()
    assert ingestor.queue.depth == 0
    assert await _shape(streamed) == await _shape(waited) != []
    pending = await streamed.read("MATCH (t:Turn {tenant: $tenant, status: 'pending'}) RETURN count(t) AS n")
    assert pending[0]["n"] == 0
    scenes = await streamed.read("""
        MATCH (m:MemCell {tenant: $tenant}) WHERE NOT EXISTS { (:MemScene)-[:INCLUDES]->(m) }
        RETURN count(m) AS n""")
    assert scenes[0]["n"] == 0  # every cell was placed in a scene once the stream ended


async def test_a_waiting_call_behind_streamed_ones_gets_the_report_that_covers_its_turns(services, graph):
    ingestor = Ingestor(services)
    msgs = maya_and_sam()
    await ingestor.memorize(graph.tenant, "c1", msgs[:4], wait=False)
    await ingestor.memorize(graph.tenant, "c1", msgs[4:8], wait=False)
    rep = await ingestor.memorize(graph.tenant, "c1", msgs[8:], flush=True)
    assert not rep.process.queued and rep.process.pending == 0
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant}) WHERE t.status = 'done' RETURN count(t) AS n")
    assert rows[0]["n"] == len(msgs)  # its report came after its own turns were processed
    assert ingestor.queue.depth == 0


async def test_a_failure_in_the_background_loses_nothing(services, graph):
    from app.construction.extractor import ExtractionError
    from app.construction.pipeline import Pipeline

    class Broken:
        name = "broken"

        async def extract(self, turns, known=()):
            raise ExtractionError("endpoint down")

    ingestor = Ingestor(services, Pipeline(services.settings, services.require_embedder(), Broken()))
    rep = await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True, wait=False)
    assert rep.accepted == 9
    await ingestor.drain()
    rows = await graph.read("""
        MATCH (t:Turn {tenant: $tenant}) RETURN count(t) AS n,
               count(CASE WHEN t.status = 'pending' AND t.error CONTAINS 'endpoint down' THEN 1 END) AS failed""")
    assert rows[0]["n"] == 9 and rows[0]["failed"] >= 1
    assert (await graph.read("MATCH (m:MemCell {tenant: $tenant}) RETURN count(m) AS n"))[0]["n"] == 0
    # What a client polling the conversation sees (Query.conversation): waiting, with the error.
    status = await conversation_status(graph, "c1")
    assert (status["turns"], status["pending"], status["memCells"]) == (9, 9, 0)
    assert status["failed"] == rows[0]["failed"] and "endpoint down" in status["lastError"]
    # The error said is the latest one, whichever turn it is on.
    failed = [r["id"] for r in await graph.read(
        "MATCH (t:Turn {tenant: $tenant}) WHERE t.error IS NOT NULL RETURN t.id AS id ORDER BY t.seq")]
    assert len(failed) >= 3  # the latest one in the middle, neither end of any order
    await graph.write("""MATCH (t:Turn {tenant: $tenant, id: $id})
                         SET t.error = 'rate limited', t.failedAt = datetime() + duration('PT1M')""",
                      id=failed[len(failed) // 2])
    assert (await conversation_status(graph, "c1"))["lastError"] == "rate limited"
    # a working retry completes them
    done = await Ingestor(services).retry(graph.tenant, flush=True)
    assert sum(r.cells for r in done.values()) >= 2
    status = await conversation_status(graph, "c1")
    assert (status["pending"], status["failed"], status["lastError"]) == (0, 0, None) and status["memCells"] >= 2


async def test_the_queue_forgets_a_conversation_once_it_is_processed(services, graph):
    ingestor = Ingestor(services)
    await asyncio.gather(*(ingestor.memorize(graph.tenant, f"c{i}", maya_and_sam()[:2], wait=False)
                           for i in range(3)))
    await ingestor.drain()
    assert ingestor.queue.depth == 0 and not ingestor.queue._busy
