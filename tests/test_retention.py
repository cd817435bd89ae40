"""Forgetting by retention against the real Neo4j: decay hides, use and importance keep, asking
by id revives, purge after grace leaves nothing in any index, an interrupted purge completes,
expired foresight retires. gc takes `now`, so the data ages without any waiting."""
from datetime import datetime, timedelta, timezone

import pytest

from app.construction.ingest import Ingestor
from app.construction.status import conversation_status
from app.lifecycle.retention import RetentionPolicy, gc, gc_everywhere
from app.recollection.foresight_lookup import active_foresights
from app.recollection.lookup import entity_by_name, memcell_by_id
from app.recollection.related import RelatedService
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from app.store.admin import tenants_with_memory
from app.store.graph import TenantError, TenantGraph
from app.store.vector import vector_query
from tests.test_recollection import conversation

POLICY = RetentionPolicy()  # the defaults of app/settings.py
DAY3_TURNS = {"n1", "n2", "n3", "n4"}  # cello, the robot Zorblax, Melanie at Acme Labs in Porto
METHODS = (Method.KEYWORD, Method.VECTOR, Method.GRAPH, Method.HYBRID)
LABELS = ("Turn", "MemCell", "Fact", "Entity", "Foresight", "Conversation")


def later(days: float = 400) -> datetime:
    return datetime.now(timezone.utc) + timedelta(days=days)


@pytest.fixture
async def memory(services, graph):
    """Three episodes: day 1 (importance 1.0: Berlin, peanuts, the Tokyo trip), day 2 (0.68:
    Lisbon), day 3 (0.45: cello, Zorblax, Acme Labs)."""
    await Ingestor(services).memorize(graph.tenant, "c1", conversation(), flush=True)
    rows = await graph.read("""MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
                               RETURN m.id AS id, collect(t.id) AS turns, m.importance AS importance""")
    cells = {}
    for r in rows:
        day = "day1" if "m1" in r["turns"] else "day2" if "m7" in r["turns"] else "day3"
        cells[day] = r
    assert set(cells) == {"day1", "day2", "day3"} and set(cells["day3"]["turns"]) == DAY3_TURNS
    assert cells["day1"]["importance"] >= 0.8 > cells["day2"]["importance"] > cells["day3"]["importance"]
    return graph, {day: r["id"] for day, r in cells.items()}


async def statuses(graph) -> dict[str, str]:
    rows = await graph.read("MATCH (m:MemCell {tenant: $tenant}) RETURN m.id AS id, m.status AS status")
    return {r["id"]: r["status"] for r in rows}


async def seen(services, graph, query: str) -> set[str]:
    """Everything any method returns for the query: hit ids, their cells, their evidence turns."""
    searcher = SearchService(services)
    out: set[str] = set()
    for method in METHODS:
        res = await searcher.search(graph.tenant, SearchRequest(query=query, method=method, top_k=50))
        for h in res.hits:
            out |= {h.node.get("id"), h.node.get("memCellId")} | {e["id"] for e in h.evidence}
    await searcher.settle()
    return out - {None}


async def related_names(graph) -> set[str]:
    return {r.entity["name"] for r in await RelatedService().related_to(graph, "Melanie Hart", hops=2)}


async def consensus(graph) -> str:
    """What the tenant's scenes say (topics and consensus), as one lower-case text."""
    rows = await graph.read("MATCH (s:MemScene {tenant: $tenant}) RETURN s.topic AS t, s.consensus AS c")
    return " ".join(f"{r['t']} {r['c']}" for r in rows).lower()


DAY3_QUERIES = ("What is the robot called? Zorblax", "Who practises the cello every evening?",
                "Where does Melanie Hart work? Acme Labs Porto chemist")


async def test_decay_hides_an_old_unused_cell_and_keeps_a_used_and_an_important_one(services, memory):
    graph, cell = memory
    before = set().union(*[await seen(services, graph, q) for q in DAY3_QUERIES])
    assert DAY3_TURNS & before and cell["day3"] in before
    assert {"Acme Labs", "Porto"} & await related_names(graph)
    assert (await entity_by_name(graph, "Acme Labs", datetime.now(timezone.utc)))["facts"]
    assert "zorblax" in await consensus(graph)
    # Those searches were uses; start from unused episodes, then use day 2 three times.
    await graph.write("MATCH (m:MemCell {tenant: $tenant}) SET m.accessCount = 0, m.lastAccessedAt = null")
    searcher = SearchService(services)
    for _ in range(3):
        await searcher.search(graph.tenant, SearchRequest(query="Lisbon", method=Method.KEYWORD, top_k=1))
    await searcher.settle()
    use = {r["id"]: r["n"] for r in await graph.read(
        "MATCH (m:MemCell {tenant: $tenant}) RETURN m.id AS id, m.accessCount AS n")}
    assert use[cell["day2"]] >= 3 and use[cell["day1"]] == use[cell["day3"]] == 0

    when = later(600)  # unused, day 2 would fade by then; day 3 fades anyway
    importance = {r["id"]: r["imp"] for r in await graph.read(
        "MATCH (m:MemCell {tenant: $tenant}) RETURN m.id AS id, m.importance AS imp")}
    assert POLICY.score(600, 0, importance[cell["day2"]]) < POLICY.threshold
    report = await gc(graph, POLICY, when)

    assert (report.forgotten_cells, report.purged_cells, report.deleted_nodes) == (1, 0, 0)
    assert await statuses(graph) == {cell["day1"]: "active", cell["day2"]: "active",
                                     cell["day3"]: "forgotten"}
    # Hidden from every method, with its facts and turns...
    for q in DAY3_QUERIES:
        found = await seen(services, graph, q)
        assert not found & (DAY3_TURNS | {cell["day3"]}), (q, found)
    assert not {"Acme Labs", "Porto"} & await related_names(graph)
    assert (await entity_by_name(graph, "Acme Labs", datetime.now(timezone.utc)))["facts"] == []
    assert not {"zorblax", "cello", "acme"} & set((await consensus(graph)).replace(",", " ").split())
    # ...and from the conversation's status, though it waits for its purge,
    status = await conversation_status(graph, "c1")
    assert (status["memCells"], status["turns"]) == (2, len(conversation()) - len(DAY3_TURNS))
    # ...while the other episodes are still found,
    assert "m4" in await seen(services, graph, "Is Maya allergic to anything? peanuts")
    assert "m7" in await seen(services, graph, "Where does Maya live? Lisbon")
    # and it is kept in the graph with its evidence, its score the documented formula.
    kept = (await graph.read("""MATCH (m:MemCell {tenant: $tenant, id: $id})
        RETURN m.forgottenAt AS at, m.retention AS score, m.importance AS imp, m.createdAt AS created,
               [(m)-[:EVIDENCED_BY]->(t:Turn) WHERE t.forgotten | t.id] AS turns,
               [(m)-[:HAS_FACT]->(f:Fact) WHERE f.forgotten | f.id] AS facts""", id=cell["day3"]))[0]
    assert set(kept["turns"]) == DAY3_TURNS and len(kept["facts"]) == 3
    assert kept["at"].to_native() == when
    days = (when - kept["created"].to_native()).total_seconds() / 86400
    assert kept["score"] == pytest.approx(POLICY.score(days, 0, kept["imp"]), abs=1e-6)
    # A second pass at the same moment has nothing left to do.
    again = await gc(graph, POLICY, when)
    assert (again.forgotten_cells, again.purged_cells, again.retired_foresights) == (0, 0, 0)


async def test_a_forgotten_cell_comes_back_when_asked_for_by_id(services, memory):
    graph, cell = memory
    await gc(graph, POLICY, later(400))
    assert (await statuses(graph))[cell["day3"]] == "forgotten"

    row = await memcell_by_id(graph, cell["day3"])

    assert row["cell"]["status"] == "active"
    assert {t["id"] for t in row["turns"]} == DAY3_TURNS and len(row["facts"]) == 3
    accessed = row["cell"]["lastAccessedAt"].to_native()
    assert abs((accessed - datetime.now(timezone.utc)).total_seconds()) < 120
    assert row["cell"]["accessCount"] == 1
    # Its facts, turns and relations are visible again.
    flagged = await graph.read("""MATCH (n {tenant: $tenant}) WHERE n.forgotten IS NOT NULL
                                  RETURN count(n) AS n""")
    assert flagged[0]["n"] == 0
    assert DAY3_TURNS & await seen(services, graph, DAY3_QUERIES[0])
    assert {"Acme Labs", "Porto"} & await related_names(graph)
    assert await memcell_by_id(graph, "mc_no_such_cell") is None


async def _index_ids(services, graph, texts: list[str]) -> set[str]:
    """Ids of the tenant's nodes that the fulltext and vector indexes return for these texts."""
    ids: set[str] = set()
    lucene = " OR ".join(w for t in texts for w in t.replace("?", "").split() if len(w) > 3)
    for index in ("turn_text", "memcell_text", "fact_text", "entity_text", "foresight_text"):
        rows = await graph.read(
            f"CALL db.index.fulltext.queryNodes('{index}', $q) YIELD node "
            "WHERE node.tenant = $tenant RETURN node.id AS id", q=f"({lucene}) AND tenant:{graph.tenant}")
        ids |= {r["id"] for r in rows}
    for text in texts:
        v = [float(x) for x in services.embedder.embed([text])[0]]
        for label, index in (("Turn", "turn_embedding"), ("Fact", "fact_embedding"),
                             ("MemCell", "memcell_embedding"), ("Entity", "entity_embedding"),
                             ("Foresight", "foresight_embedding")):
            rows = await graph.read_vector(vector_query(label, index, "RETURN n.id AS id", limit="100"),
                                           vector=v)
            ids |= {r["id"] for r in rows}
    return ids


async def _day3_nodes(graph, cell_id: str) -> dict[str, set[str]]:
    rows = await graph.read("""MATCH (m:MemCell {tenant: $tenant, id: $id})
        OPTIONAL MATCH (m)-[:HAS_FACT]->(f:Fact)
        OPTIONAL MATCH (f)-[:ABOUT]->(e:Entity)
        RETURN collect(DISTINCT f.id) AS facts, collect(DISTINCT e.name) AS entities""", id=cell_id)
    return {"facts": set(rows[0]["facts"]), "entities": set(rows[0]["entities"])}


async def _tenant_ids(graph) -> dict[str, set[str]]:
    out = {}
    for label in LABELS:
        rows = await graph.read(f"MATCH (n:{label} {{tenant: $tenant}}) RETURN n.id AS id, n.name AS name")
        out[label] = {r["name"] if label == "Entity" else r["id"] for r in rows}
    return out


async def test_purge_after_the_grace_period_leaves_nothing_in_graph_or_indexes(services, memory):
    graph, cell = memory
    parts = await _day3_nodes(graph, cell["day3"])
    gone_entities = {"Acme Labs", "Porto", "Zorblax"} & parts["entities"]
    assert parts["facts"] and gone_entities
    texts = ["practising the cello every evening after work", "we called the robot Zorblax, after a comic",
             "Melanie Hart works at Acme Labs in Porto as a chemist"]
    assert DAY3_TURNS <= await _index_ids(services, graph, texts)
    forgotten_at = later(400)
    await gc(graph, POLICY, forgotten_at)

    early = await gc(graph, POLICY, forgotten_at + timedelta(days=POLICY.grace_days - 1))
    assert early.purged_cells == 0 and (await statuses(graph))[cell["day3"]] == "forgotten"
    report = await gc(graph, POLICY, forgotten_at + timedelta(days=POLICY.grace_days + 1))

    assert report.purged_cells == 1 and report.deleted_nodes >= 1 + 4 + len(parts["facts"])
    left = await _tenant_ids(graph)
    assert cell["day3"] not in left["MemCell"] and {cell["day1"], cell["day2"]} <= left["MemCell"]
    assert not left["Turn"] & DAY3_TURNS and {"m1", "m7"} <= left["Turn"]
    assert not left["Fact"] & parts["facts"]
    assert not left["Entity"] & gone_entities and {"Maya", "Melanie Hart"} <= left["Entity"]
    assert left["Conversation"] == {"c1"}
    in_indexes = await _index_ids(services, graph, texts)
    assert not in_indexes & (DAY3_TURNS | parts["facts"] | {cell["day3"]})
    dangling = await graph.read("""MATCH (:Entity {tenant: $tenant})-[r:RELATED]->()
        WHERE NOT EXISTS { MATCH (f:Fact {tenant: $tenant}) WHERE f.id = r.factId } RETURN count(r) AS n""")
    assert dangling[0]["n"] == 0


async def test_an_interrupted_purge_completes_on_the_next_gc(services, memory):
    graph, cell = memory
    parts = await _day3_nodes(graph, cell["day3"])
    forgotten_at = later(400)
    await gc(graph, POLICY, forgotten_at)
    # Half a purge: the cell marked, its turns and one fact deleted, then the process died.
    one_fact = sorted(parts["facts"])[0]
    await graph.write("""MATCH (m:MemCell {tenant: $tenant, id: $id}) SET m.status = 'purging'
                         WITH m MATCH (m)-[:EVIDENCED_BY]->(t:Turn) DETACH DELETE t""", id=cell["day3"])
    await graph.write("MATCH (f:Fact {tenant: $tenant, id: $id}) DETACH DELETE f", id=one_fact)
    # Meanwhile it is neither shown nor revived by id.
    assert await memcell_by_id(graph, cell["day3"]) is None

    report = await gc(graph, POLICY, forgotten_at + timedelta(days=POLICY.grace_days + 1))

    assert report.purged_cells == 1
    left = await _tenant_ids(graph)
    assert cell["day3"] not in left["MemCell"] and not left["Fact"] & parts["facts"]
    assert not left["Entity"] & ({"Acme Labs", "Porto", "Zorblax"} & parts["entities"])
    orphans = await graph.read("""MATCH (f:Fact {tenant: $tenant}) WHERE NOT EXISTS { (:MemCell)-[:HAS_FACT]->(f) }
                                  RETURN count(f) AS n""")
    assert orphans[0]["n"] == 0


async def test_expired_foresight_is_retired_and_kept_for_questions_about_its_time(services, memory):
    graph, _ = memory
    now = datetime.now(timezone.utc)
    trip_window = datetime(2024, 4, 1, tzinfo=timezone.utc)
    during = {f["foresight"]["text"]: f["foresight"]["status"] for f in await active_foresights(graph, trip_window, None)}
    trip = next(t for t in during if "Tokyo" in t)
    assert during[trip] == "active"

    report = await gc(graph, POLICY, now)

    assert (report.retired_foresights, report.forgotten_cells) == (1, 0)
    rows = await graph.read("MATCH (n:Foresight {tenant: $tenant}) RETURN n.text AS text, n.status AS status")
    assert {r["text"]: r["status"] for r in rows}[trip] == "retired"
    assert "retired" not in {r["status"] for r in rows if r["text"] != trip}  # the allergy stays
    assert trip not in {f["foresight"]["text"] for f in await active_foresights(graph, now, None)}
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="Is Maya travelling to Japan for a conference?", kinds=("foresight",), top_k=20))
    assert trip not in {h.node.get("text") for h in res.hits}
    # Asked as of a moment inside its window, it is still there, marked retired.
    then = {f["foresight"]["text"]: f["foresight"]["status"] for f in await active_foresights(graph, trip_window, None)}
    assert then[trip] == "retired"
    assert (await gc(graph, POLICY, now)).retired_foresights == 0


async def test_gc_of_a_tenant_without_data_is_a_clean_no_op(services, tenant, memory):
    empty = TenantGraph(services.driver, tenant + "_none")
    report = await gc(empty, POLICY, later(1000))
    assert (report.retired_foresights, report.forgotten_cells, report.purged_cells,
            report.deleted_nodes) == (0, 0, 0, 0)
    [again] = await gc_everywhere(services.driver, services.settings, later(1000), tenants=[empty.tenant])
    assert again.forgotten_cells == again.purged_cells == 0
    left = await empty.read("MATCH (n {tenant: $tenant}) RETURN count(n) AS n")
    assert left[0]["n"] == 0
    with pytest.raises(TenantError):
        await gc_everywhere(services.driver, services.settings, later(1), tenants=["Not A Tenant!"])
    # The all-tenants pass would find the tenant with memory (listing only: gc of every tenant
    # of a shared test database would age other tests' data).
    names = await tenants_with_memory(services.driver, services.settings.neo4j_database)
    assert memory[0].tenant in names and empty.tenant not in names


@pytest.mark.parametrize("days, uses, importance, kept", [
    (150, 0, 0.1, True), (200, 0, 0.1, False),  # small talk fades after about half a year
    (300, 0, 0.5, True), (365, 0, 0.5, False),  # an ordinary episode after about a year
    (3650, 0, 0.8, True),  # life events and commitments do not fade by age
    (3650, 3, 0.5, True),  # three uses keep an ordinary episode
    (200, 3, 0.1, True), (400, 3, 0.1, False),  # use keeps small talk longer, not for ever
])
def test_the_default_policy_fades_what_a_user_would_expect(days, uses, importance, kept):
    assert (POLICY.score(days, uses, importance) >= POLICY.threshold) is kept


def test_a_bad_policy_is_a_clear_error():
    with pytest.raises(ValueError):
        RetentionPolicy(half_life_days=0)
    with pytest.raises(ValueError):
        RetentionPolicy(grace_days=-1)
