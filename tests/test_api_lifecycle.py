"""Forgetting over HTTP: after gc an episode is gone from search, and memCell(id) brings it back."""
import asyncio
import uuid
from datetime import datetime, timedelta, timezone

from app.lifecycle.retention import gc_everywhere
from app.store.driver import make_driver
from tests.test_api import MEMORIZE, SEARCH, _messages, _new_key, data


def _gc(settings, tenant: str, now: datetime) -> list:
    async def run():
        driver = make_driver(settings)
        try:
            return await gc_everywhere(driver, settings, now, tenants=[tenant])
        finally:
            await driver.close()

    return asyncio.run(run())


def _cell_of_turn(settings, tenant: str, turn_id: str) -> str:
    async def run():
        driver = make_driver(settings)
        try:
            async with driver.session() as s:
                r = await (await s.run("MATCH (t:Turn {tenant: $tenant, id: $id}) RETURN t.memCellId AS id",
                                       tenant=tenant, id=turn_id)).single()
                return r["id"]
        finally:
            await driver.close()

    return asyncio.run(run())


def _statuses(settings, tenant: str) -> dict[str, str]:
    """Each of the tenant's MemCells' status, read from Neo4j (a read through the API is a use)."""
    async def run():
        driver = make_driver(settings)
        try:
            async with driver.session() as s:
                rows = await (await s.run("MATCH (m:MemCell {tenant: $tenant}) RETURN m.id AS id, m.status AS status",
                                          tenant=tenant)).data()
                return {r["id"]: r["status"] for r in rows}
        finally:
            await driver.close()

    return asyncio.run(run())


def _evidence(api, key: str, query: str) -> set[str]:
    out = data(api.gql(SEARCH, {"input": {"query": query, "topK": 20}}, key=key))["search"]["hits"]
    return {e["id"] for h in out for e in h["evidence"]}


def test_a_forgotten_episode_leaves_search_and_comes_back_by_id(api):
    tenant = f"api_gc_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)
    data(api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": _messages(), "flush": True}}, key=key))
    lisbon = _cell_of_turn(api.settings, tenant, "m7")
    berlin = _cell_of_turn(api.settings, tenant, "m1")
    assert lisbon != berlin

    # Years later, never used (no search before: a search is a use): the Lisbon episode
    # (importance < 0.8) fades, the Berlin one (a move, an allergy: important) stays.
    [report] = _gc(api.settings, tenant, datetime.now(timezone.utc) + timedelta(days=1000))
    after = _statuses(api.settings, tenant)
    assert after[lisbon] == "forgotten" and after[berlin] == "active"
    assert report.forgotten_cells == sum(1 for st in after.values() if st == "forgotten")

    assert "m7" not in _evidence(api, key, "Where does Maya live now? Lisbon")
    cell = data(api.gql('query($id: ID!) { memCell(id: $id) { id status lastAccessedAt turns { id } } }',
                        {"id": lisbon}, key=key))["memCell"]
    assert cell["status"] == "active" and "m7" in {t["id"] for t in cell["turns"]}
    assert cell["lastAccessedAt"] is not None
    # The same search now finds it: only the revival changed in between.
    assert "m7" in _evidence(api, key, "Where does Maya live now? Lisbon")
