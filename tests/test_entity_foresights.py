"""Entity.foresights for many entities at once: under relatedTo each entity lists its own plans
and constraints, read in one query per request however many entities there are (a per-request
loader over entities_foresights). Against the real Neo4j, over HTTP and in process."""
import uuid
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from app.api.context import Auth, EngramContext
from app.api.schema import build_schema
from app.recollection.foresight_lookup import active_foresights, entities_foresights
from app.recollection.related import RelatedService
from app.store.graph import TenantGraph
from tests.conversation import DAY1
from tests.test_api import MEMORIZE, _new_key, data
from tests.test_foresight_concerns import _messages, _tell

# Maya and Sam each have a constraint; Sam also a trip, over by the end of March; Pixel and
# Siemens have none. Maya's allergy ends on day 20. From Pixel: Maya one hop away, Sam and
# Siemens two.
SAID = [("m1", "Maya", "I'm allergic to peanuts, so no satay for me.", 0),
        ("m2", "Sam", "I'm allergic to shellfish.", 0),
        ("m3", "Maya", "Sam and I adopted a cat called Pixel.", 0),
        ("m4", "Maya", "I work at Siemens with Sam.", 0),
        ("m5", "Sam", "I'm flying to Tokyo next week for a conference.", 0),
        ("m6", "Maya", "Big news: I'm not allergic to peanuts anymore, I outgrew it.", 20)]
THEN = DAY1 + timedelta(days=10)  # the trip ahead, the allergy not yet outgrown
TRIP = "Sam is flying to Tokyo in the week of 2024-03-11 for a conference."

RELATED = """query($at: DateTime) { relatedTo(entity: "Pixel", hops: 2, asOf: $at) {
  entity { name foresights { text concerns { name } } } } }"""
ENTITY = """query($name: String!, $at: DateTime) {
  entity(name: $name, asOf: $at) { foresights { text concerns { name } } } }"""


def test_under_related_to_each_entity_lists_its_own_active_foresight(api):
    key = _new_key(api.settings, f"ef_{uuid.uuid4().hex[:8]}")
    msgs = [{**m, "timestamp": m["timestamp"].isoformat()} for m in _messages(SAID)]
    data(api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": msgs, "flush": True}}, key=key))

    def listed(at: str | None) -> dict[str, list[tuple[str, str]]]:
        rel = data(api.gql(RELATED, {"at": at}, key=key))["relatedTo"]
        out = {r["entity"]["name"]: [(f["text"], f["concerns"]["name"]) for f in r["entity"]["foresights"]]
               for r in rel}
        # The same as each entity's own lookup lists.
        for name, fs in out.items():
            own = data(api.gql(ENTITY, {"name": name, "at": at}, key=key))["entity"]["foresights"]
            assert fs == [(f["text"], f["concerns"]["name"]) for f in own], name
        return out

    # Then: the trip ends sooner than the allergy that never does.
    assert listed(THEN.isoformat()) == {
        "Maya": [("Maya is allergic to peanuts.", "Maya")],
        "Sam": [(TRIP, "Sam"), ("Sam is allergic to shellfish.", "Sam")],
        "Siemens": []}
    # Now: her allergy ended, his trip is over.
    assert listed(None) == {"Maya": [], "Sam": [("Sam is allergic to shellfish.", "Sam")], "Siemens": []}


async def test_a_relation_list_reads_foresight_in_one_query_however_many_entities(services, graph,
                                                                                   monkeypatch):
    await _tell(services, graph, SAID)
    # Every query the request sends goes through TenantGraph.read: counted there, in process.
    sent: list[str] = []
    read = TenantGraph.read

    async def counted(self, query, **params):
        sent.append(query)
        return await read(self, query, **params)

    monkeypatch.setattr(TenantGraph, "read", counted)
    schema = build_schema()
    state = SimpleNamespace(related=RelatedService(services.settings.max_hops))

    async def ask(hops: int) -> tuple[dict, int]:
        sent.clear()
        result = await schema.execute(
            '{ relatedTo(entity: "Pixel", hops: %d) { entity { name foresights { text } } } }' % hops,
            context_value=EngramContext(services, Auth(graph.tenant), state))
        assert not result.errors, result.errors
        counts = {r["entity"]["name"]: len(r["entity"]["foresights"]) for r in result.data["relatedTo"]}
        return counts, len(sent)

    one, queries_one = await ask(1)
    three, queries_three = await ask(2)
    assert one == {"Maya": 0} and three == {"Maya": 0, "Sam": 1, "Siemens": 0}
    # One entity or three: the same queries (the relations, their facts, all their foresight).
    assert queries_three == queries_one


async def test_entities_foresights_lists_each_entitys_own_in_the_order_asked(services, graph):
    await _tell(services, graph, SAID)
    ids = {r["name"]: r["id"] for r in await graph.read(
        "MATCH (e:Entity {tenant: $tenant}) RETURN e.name AS name, e.id AS id")}
    maya, sam, siemens = ids["Maya"], ids["Sam"], ids["Siemens"]

    def texts(lists: list[list[dict]]) -> list[list[str]]:
        return [[f["foresight"]["text"] for f in fs] for fs in lists]

    lists = await entities_foresights(graph, [sam, "e_nobody", maya, siemens, sam], THEN)
    assert texts(lists) == [
        [TRIP, "Sam is allergic to shellfish."], [], ["Maya is allergic to peanuts."], [],
        [TRIP, "Sam is allergic to shellfish."]]
    # The very rows the tenant's whole list holds of each, in its order (the soonest to end first).
    every = await active_foresights(graph, THEN, None)
    assert lists[0] == [r for r in every if r["foresight"]["concerns"]["id"] == sam]
    assert lists[2] == [r for r in every if r["foresight"]["concerns"]["id"] == maya]
    assert lists[0][0]["evidence"][0]["id"] == "m5"
    # At most `limit` each; the ended and the past are not active now.
    assert texts(await entities_foresights(graph, [sam, maya], THEN, limit=1)) == [
        [TRIP], ["Maya is allergic to peanuts."]]
    now = datetime.now(timezone.utc)
    assert texts(await entities_foresights(graph, [sam, maya], now)) == [
        ["Sam is allergic to shellfish."], []]
    # Another tenant, asking by these ids, finds nothing.
    other = TenantGraph(services.driver, f"t_{uuid.uuid4().hex[:12]}", services.settings.neo4j_database)
    assert await entities_foresights(other, [sam, maya], THEN) == [[], []]
