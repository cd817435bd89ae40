"""An entity is its group's, against the real Neo4j: one name said in two groups (two families'
"Anna") is two entities, each with its own facts, aliases, timelines and relations; and the
migration that made the tenant's entities their groups' (0018) splits one named in two groups."""
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.construction.entity_edits import EntityEditError
from app.construction.entity_merge import merge_entities
from app.construction.ingest import Ingestor
from app.recollection.lookup import entity_by_name
from app.recollection.related import RelatedService
from app.store.migrations import tenant_statements

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.fixture
def ingestor(services):
    return Ingestor(services)


async def _say(ingestor, tenant, conversation, group, lines, day):
    msgs = [{"id": f"{conversation}-{day}-{i}", "speaker": who, "content": text,
             "timestamp": T0 + timedelta(days=day, minutes=i)} for i, (who, text) in enumerate(lines)]
    await ingestor.memorize(tenant, conversation, msgs, group_id=group, flush=True)


async def _two_annas(ingestor, tenant):
    await _say(ingestor, tenant, "okafor-1", "okafor", [
        ("Anna", "Hi! I moved to Leeds last month, my brother Tom helped me move."),
        ("David", "Glad to hear it. How is the new flat?")], 0)
    await _say(ingestor, tenant, "silva-1", "silva", [
        ("Anna", "I moved to York, it is lovely here. My friend Priya visits on Sundays."),
        ("Marco", "Sounds great!")], 10)


def _objects(entity) -> dict[str, str]:
    return {f["object"]: f["status"] for f in entity["facts"]}


async def test_one_name_in_two_groups_is_two_entities_each_with_its_own_facts(graph, ingestor):
    await _two_annas(ingestor, graph.tenant)
    okafor = await entity_by_name(graph, "Anna", NOW, group_id="okafor")
    silva = await entity_by_name(graph, "Anna", NOW, group_id="silva")
    assert okafor and silva and okafor["id"] != silva["id"]
    assert (okafor["groupId"], silva["groupId"]) == ("okafor", "silva")
    # York, said later in another family, closes nothing of this Anna's: Leeds is current.
    assert _objects(okafor).get("Leeds") == "current" and "York" not in _objects(okafor)
    assert _objects(silva).get("York") == "current" and "Leeds" not in _objects(silva)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.object IN ['Leeds', 'York'] "
                            "RETURN f.object AS object, f.subjectKey AS key, f.status AS status")
    assert {r["object"]: (r["key"], r["status"]) for r in rows} == {
        "Leeds": ("anna@okafor", "current"), "York": ("anna@silva", "current")}


async def test_relations_of_one_groups_entity_never_reach_another_group(graph, ingestor):
    await _two_annas(ingestor, graph.tenant)
    related = RelatedService()
    okafor = {r.entity["name"] for r in await related.related_to(graph, "Anna", 2, NOW, group_id="okafor")}
    silva = {r.entity["name"] for r in await related.related_to(graph, "Anna", 2, NOW, group_id="silva")}
    assert "Leeds" in okafor and not okafor & {"York", "Priya"}
    assert "York" in silva and not silva & {"Leeds", "Tom"}
    # Without a group, one Anna is picked (NAMED_ENTITY's order), and her relations stay hers.
    either = {r.entity["name"] for r in await related.related_to(graph, "Anna", 2, NOW)}
    assert either in (okafor, silva)
    rows = await graph.read("MATCH (a:Entity {tenant: $tenant})-[:RELATED]-(b:Entity) "
                            "WHERE a.groupKey <> b.groupKey RETURN count(*) AS n")
    assert rows[0]["n"] == 0


async def test_the_saved_browser_queries_read_one_entity_as_the_api_does(graph, ingestor):
    # Without a group, entity_timeline.cypher listed both Annas' facts interleaved as one timeline.
    await _two_annas(ingestor, graph.tenant)
    explore = Path(__file__).resolve().parents[1] / "cypher" / "explore"
    timeline = (explore / "entity_timeline.cypher").read_text().strip().rstrip(";")
    for group in ("okafor", "silva", None):
        rows = await graph.read(timeline, name="Anna", group=group)
        assert rows and len({r["group"] for r in rows}) == 1, rows
        picked = await entity_by_name(graph, "Anna", NOW, group_id=group)
        assert rows[0]["group"] == picked["groupId"] and (group is None or rows[0]["group"] == group)
    related = (explore / "related_to.cypher").read_text().strip().rstrip(";")
    starts = {await _start_group(graph, related, group) for group in ("okafor", "silva", None)}
    assert starts == {"okafor", "silva"}  # each group's own Anna; without a group, one of them


async def _start_group(graph, query: str, group) -> str:
    """The group of the entity a related_to.cypher run starts from (every path's first node)."""
    rows = await graph.read(f"CALL () {{ {query} }} RETURN DISTINCT nodes(p)[0].groupId AS g", name="Anna",
                            group=group)
    assert len(rows) == 1, rows
    return rows[0]["g"]


async def test_two_groups_entities_are_never_merged_by_hand(graph, ingestor):
    await _two_annas(ingestor, graph.tenant)
    # "Tom" is known only to the Okafors, "Priya" only to the Silvas.
    with pytest.raises(EntityEditError, match="two groups .group 'okafor' and group 'silva'"):
        await merge_entities(graph, "Tom", "Priya")
    assert await entity_by_name(graph, "Tom", NOW, group_id="okafor")
    assert await entity_by_name(graph, "Tom", NOW, group_id="silva") is None


# The migration, on entities written before it: one entity of the tenant named in two groups.
OLD_SHAPE = """
CREATE (a:Entity {id: 'ent_' + $tenant + '_anna', tenant: $tenant, key: 'anna', name: 'Anna', type: 'person',
                  aliases: ['Annie'], aliasKeys: ['annie'], aliasText: ' Annie', merges: [],
                  terms: ['anna', 'anni'], termFreqs: [1, 1], termCount: 2})
CREATE (l:Entity {id: 'ent_' + $tenant + '_leeds', tenant: $tenant, key: 'leeds', name: 'Leeds', type: 'place',
                  aliases: [], aliasKeys: [], merges: [], terms: ['leed'], termFreqs: [1], termCount: 1})
CREATE (y:Entity {id: 'ent_' + $tenant + '_york', tenant: $tenant, key: 'york', name: 'York', type: 'place',
                  aliases: [], aliasKeys: [], merges: [], terms: ['york'], termFreqs: [1], termCount: 1})
MERGE (c:CorpusStat {tenant: $tenant, kind: 'entity'}) SET c.docs = 3, c.tokens = 4
WITH a, l, y
UNWIND [['okafor', l, 'Leeds'], ['silva', y, 'York']] AS g
WITH a, g, g[1] AS place
CREATE (m:MemCell {id: $tenant + '_m_' + g[0], tenant: $tenant, groupId: g[0]})
CREATE (f:Fact {id: $tenant + '_f_' + g[0], tenant: $tenant, groupId: g[0], subject: 'Anna', predicate: 'lives in',
                object: g[2], subjectKey: 'anna', singleValued: true, status: 'current'})
CREATE (m)-[:MENTIONS {count: 1}]->(a), (m)-[:MENTIONS {count: 1}]->(place), (m)-[:HAS_FACT]->(f)
CREATE (f)-[:ABOUT {role: 'subject'}]->(a), (f)-[:ABOUT {role: 'object'}]->(place)
CREATE (a)-[:RELATED {predicate: 'lives in', factId: f.id, tenant: $tenant, groupId: g[0]}]->(place)
"""


async def test_the_migration_makes_an_entity_named_in_two_groups_one_of_each(graph):
    await graph.write(OLD_SHAPE)
    # A second, silva-only mention makes the Silvas' Anna the one that keeps the id.
    await graph.write("MATCH (a:Entity {tenant: $tenant, key: 'anna'}) "
                      "CREATE (:MemCell {id: $tenant + '_m2', tenant: $tenant, groupId: 'silva'})-[:MENTIONS]->(a)")
    for stmt in tenant_statements("0018_"):
        await graph.auto_commit(stmt)
    rows = await graph.read("""
        MATCH (e:Entity {tenant: $tenant, key: 'anna'})
        RETURN e.id AS id, e.groupKey AS group, e.groupId AS groupId, e.aliases AS aliases, e.otherGroups AS other,
               COLLECT { MATCH (e)<-[:ABOUT]-(f:Fact) RETURN f.object } AS facts,
               COLLECT { MATCH (e)<-[:MENTIONS]-(m:MemCell) RETURN m.groupId } AS mentions,
               COLLECT { MATCH (e)-[:RELATED]->(o) RETURN o.name } AS related ORDER BY e.groupKey""")
    assert [(r["group"], r["groupId"], r["facts"], sorted(r["mentions"]), r["related"], r["aliases"], r["other"])
            for r in rows] == [("okafor", "okafor", ["Leeds"], ["okafor"], ["Leeds"], ["Annie"], None),
                               ("silva", "silva", ["York"], ["silva", "silva"], ["York"], ["Annie"], None)]
    assert rows[1]["id"] == f"ent_{graph.tenant}_anna"  # the group naming her most keeps her id
    keys = await graph.read("MATCH (f:Fact {tenant: $tenant}) RETURN f.subjectKey AS k ORDER BY k")
    assert [r["k"] for r in keys] == ["anna@okafor", "anna@silva"]
    # The copy is counted in the keyword statistics, as ingestion would have counted it.
    [stat] = await graph.read("MATCH (c:CorpusStat {tenant: $tenant, kind: 'entity'}) RETURN c.docs AS docs, "
                              "c.tokens AS tokens")
    assert (stat["docs"], stat["tokens"]) == (4, 6)
    [df] = await graph.read("MATCH (s:TermStat {tenant: $tenant, kind: 'entity', term: 'anni'}) RETURN s.df AS df")
    assert df["df"] == 1  # none before: made by the copy (the original was counted by hand above, not here)
    # Run again (an import runs it after every load): nothing changes.
    for stmt in tenant_statements("0018_"):
        await graph.auto_commit(stmt)
    assert len(await graph.read("MATCH (e:Entity {tenant: $tenant}) RETURN e.id")) == 4
