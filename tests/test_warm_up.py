"""The search warm-up against the real Neo4j: it runs on stored memory, in each scope, and
writes nothing (its hits are no uses)."""
from datetime import timedelta

from app.construction.ingest import Ingestor
from app.recollection.search import SearchService
from app.store.admin import warm_up_sample
from tests.conversation import DAY1

USES = "MATCH (m:MemCell {tenant: $tenant}) RETURN sum(coalesce(m.accessCount, 0)) AS n"


async def test_the_warm_up_runs_on_a_stored_conversation_in_each_scope_and_counts_no_use(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", [
        {"id": f"m{i}", "speaker": who, "user_id": who.lower(), "content": text,
         "timestamp": DAY1 + timedelta(minutes=i)}
        for i, (who, text) in enumerate([("Maya", "I live in Leeds and I'm planning a trip to Lisbon."),
                                         ("Ben", "Ben owns billing, we're going with Postgres.")])],
        group_id="g1", flush=True)
    sample = await warm_up_sample(services.driver, services.settings.neo4j_database)
    # some stored conversation with episodes, a group and a user (whichever tenant's)
    assert sample is not None and sample["groupId"] is not None and sample["userId"] is not None
    row = await graph.driver.execute_query(
        "MATCH (t:Turn {tenant: $tenant, conversationId: $c, userId: $u, groupId: $g}) "
        "WHERE t.memCellId IS NOT NULL RETURN count(t) AS n",
        tenant=sample["tenant"], c=sample["conversationId"], u=sample["userId"], g=sample["groupId"])
    assert row.records[0]["n"] > 0
    before = (await graph.driver.execute_query(USES, tenant=sample["tenant"])).records[0]["n"]
    searcher = SearchService(services)
    searched = []
    search = searcher.search

    async def counted(tenant, req, record_access=True):
        searched.append((tenant, req.conversation_id, req.group_id, req.user_id, record_access))
        return await search(tenant, req, record_access)

    searcher.search = counted
    await searcher.warm_up()
    await searcher.warm_up_scopes()
    await searcher.settle()
    scopes = {s[1:4] for s in searched}
    assert {(None, None, None), (sample["conversationId"], None, None), (None, sample["groupId"], None),
            (None, None, sample["userId"]), (None, sample["groupId"], sample["userId"])} == scopes
    assert {s[0] for s in searched} == {sample["tenant"]} and not any(s[4] for s in searched)
    assert (await graph.driver.execute_query(USES, tenant=sample["tenant"])).records[0]["n"] == before


async def test_a_server_that_started_on_nothing_stored_warms_up_once_a_conversation_is(services, graph,
                                                                                       monkeypatch):
    from app.recollection import search as search_module

    await Ingestor(services).memorize(graph.tenant, "c1", [
        {"id": "m1", "speaker": "Maya", "user_id": "maya", "content": "I live in Leeds and I'm planning a trip.",
         "timestamp": DAY1}], group_id="g1", flush=True)
    looked = []

    async def nothing_yet_then_stored(driver, database="neo4j"):
        looked.append(1)
        return None if len(looked) < 3 else await warm_up_sample(driver, database)

    monkeypatch.setattr(search_module, "warm_up_sample", nothing_yet_then_stored)
    searcher = SearchService(services)
    searched = []
    search = searcher.search

    async def counted(tenant, req, record_access=True):
        searched.append((tenant, req.group_id, req.user_id))
        return await search(tenant, req, record_access)

    searcher.search = counted
    await searcher.warm_up()  # start-up: nothing stored, in the warm-up's own tenant
    assert {s[0] for s in searched} == {search_module.WARM_UP_TENANT}
    searched.clear()
    await searcher.warm_up_when_stored(poll_s=0.01)  # looks again until something is stored
    await searcher.settle()
    assert len(looked) == 3
    sample = await warm_up_sample(services.driver, services.settings.neo4j_database)
    assert {s[0] for s in searched} == {sample["tenant"]}
    # the unscoped queries, then each scope's
    assert (None, None) in {s[1:] for s in searched} and len({s[1:] for s in searched}) > 1
