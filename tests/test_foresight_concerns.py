"""Foresight is about someone: (:Foresight)-[:CONCERNS]->(:Entity), the entity its text begins
with. Ingestion links it, entity edits carry it, the migration links foresight written before,
and the API lists a person's plans and constraints. Against the real Neo4j, and over HTTP."""
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from app.construction.entity_merge import merge_entities
from app.construction.entity_split import split_entity
from app.construction.ingest import Ingestor
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from app.store.migrations import load_migrations
from tests.conversation import DAY1
from tests.test_api import MEMORIZE, _new_key, data


def _messages(said):
    return [{"id": i, "speaker": s, "content": c, "timestamp": DAY1 + timedelta(days=d, minutes=n)}
            for n, (i, s, c, d) in enumerate(said)]


async def _tell(services, graph, said, conversation="c1"):
    await Ingestor(services).memorize(graph.tenant, conversation, _messages(said), flush=True)


def foresight_finder(services, graph):
    """A search of `graph`'s tenant that gives the texts of the foresight among a HYBRID search's
    first five hits, in rank order."""
    async def found(query: str) -> list[str]:
        res = await SearchService(services).search(graph.tenant, SearchRequest(
            query=query, method=Method.HYBRID, top_k=5), record_access=False)
        return [h.node["text"] for h in res.hits if h.kind == "foresight"]
    return found


async def _concerns(graph) -> dict[str, str | None]:
    """Each foresight's text -> the name of the entity it concerns."""
    rows = await graph.read("""
        MATCH (f:Foresight {tenant: $tenant})
        RETURN f.text AS text, COLLECT { MATCH (f)-[:CONCERNS]->(e:Entity) RETURN e.name } AS whom""")
    return {r["text"]: (r["whom"][0] if r["whom"] else None) for r in rows}


async def test_each_foresight_concerns_the_entity_its_text_begins_with(services, graph):
    await _tell(services, graph, [
        ("m1", "Maya", "I'm allergic to peanuts, so no satay for me.", 0),
        ("m2", "Sam", "I'm vegan these days.", 0),
        ("m3", "Maya", "My son Leo has asthma.", 0),
        ("m4", "Maya", "We're flying to Tokyo in May for the cherry blossoms!", 0),
        ("m5", "Leo", "My IELTS exam is on 14 June, at the British Council.", 1)])
    concerns = await _concerns(graph)
    # A thing of his ("Leo's IELTS exam is on ...") is his; a person of hers is not hers.
    assert [w for t, w in concerns.items() if "IELTS" in t] == ["Leo"]
    assert concerns["Maya is allergic to peanuts."] == "Maya"
    assert concerns["Sam is vegan."] == "Sam"
    assert concerns["Leo has asthma."] == "Leo"  # her son's, not hers
    assert [w for t, w in concerns.items() if "Tokyo" in t] == ["Maya"]
    # One edge each, to an entity of the tenant's own.
    rows = await graph.read("""MATCH (f:Foresight {tenant: $tenant})-[:CONCERNS]->(e:Entity)
                               RETURN count(*) AS n, count(DISTINCT f) AS f,
                                      collect(DISTINCT e.tenant) AS t""")
    assert rows[0]["n"] == rows[0]["f"] == 5 and rows[0]["t"] == [graph.tenant]


async def test_a_merge_carries_the_foresight_and_a_split_takes_it_back(services, graph):
    # Two episodes days apart: Alex and Alexander kept apart, Mel taken for Melanie.
    await _tell(services, graph, [("a1", "Sam", "My colleague Alex is allergic to shellfish.", 0),
                                  ("a2", "Sam", "My colleague Alexander is vegan.", 3),
                                  ("a3", "Melanie", "I can't eat gluten.", 6),
                                  ("a4", "Sam", "My colleague Mel is allergic to shellfish.", 9)])
    before = await _concerns(graph)
    assert before["Alex is allergic to shellfish."] == "Alex"
    assert before["Mel is allergic to shellfish."] == "Melanie"  # by the alias the merge gave

    await merge_entities(graph, "Alex", "Alexander")
    assert (await _concerns(graph))["Alex is allergic to shellfish."] == "Alexander"
    await split_entity(graph, services.embedder, "Alexander", "Alex")
    after = await _concerns(graph)
    assert after["Alex is allergic to shellfish."] == "Alex"
    assert after["Alexander is vegan."] == "Alexander"

    await split_entity(graph, services.embedder, "Melanie", "Mel")
    after = await _concerns(graph)
    assert after["Mel is allergic to shellfish."] == "Mel"
    assert after["Melanie can't eat gluten."] == "Melanie"


async def test_the_migration_links_foresight_written_before_the_edge(services, graph):
    await _tell(services, graph, [("m1", "Maya", "I'm allergic to peanuts, so no satay for me.", 0),
                                  ("m2", "Maya", "My son Leo has asthma.", 0),
                                  ("m3", "Sam", "I'm vegan these days.", 0)])
    linked = await _concerns(graph)
    # As an older version wrote it: no edges, the migration not yet run.
    await graph.write("MATCH (:Foresight {tenant: $tenant})-[c:CONCERNS]->() DELETE c")
    assert set((await _concerns(graph)).values()) == {None}
    [migration] = [m for m in load_migrations() if m.name.startswith("0014")]
    async with services.driver.session(database=services.settings.neo4j_database) as s:
        for stmt in migration.statements():
            await (await s.run(stmt)).consume()
    assert await _concerns(graph) == linked


ENTITY = """query($name: String!, $asOf: DateTime) {
  entity(name: $name, asOf: $asOf) { name foresights { text kind concerns { name } } } }"""
SEARCH = """query($q: String!) { search(input: {query: $q, topK: 20}) {
  hits { kind foresight { text concerns { name } } } } }"""


def test_the_api_lists_a_persons_foresight_and_whom_each_concerns(api):
    key = _new_key(api.settings, f"concerns_{uuid.uuid4().hex[:8]}")
    said = [("m1", "Maya", "I'm allergic to peanuts, so no satay for me.", 0),
            ("m2", "Sam", "I'm allergic to shellfish.", 0),
            ("m3", "Maya", "Big news: I'm not allergic to peanuts anymore, I outgrew it.", 20)]
    msgs = [{**m, "timestamp": m["timestamp"].isoformat()} for m in _messages(said)]
    data(api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": msgs, "flush": True}}, key=key))

    then = (DAY1 + timedelta(days=10)).isoformat()
    maya = data(api.gql(ENTITY, {"name": "Maya", "asOf": then}, key=key))["entity"]
    assert maya["foresights"] == [{"text": "Maya is allergic to peanuts.", "kind": "constraint",
                                   "concerns": {"name": "Maya"}}]
    # Whom it concerns is read at the moment asked: then, her allergy was still a fact about her.
    listed = data(api.gql("""query($at: DateTime) { foresights(activeAt: $at) {
                               text concerns { name facts { text } } } }""",
                          {"at": then}, key=key))["foresights"]
    [allergy] = [f for f in listed if f["text"] == "Maya is allergic to peanuts."]
    assert any("allergic to peanuts" in f["text"] and "not" not in f["text"]
               for f in allergy["concerns"]["facts"])
    # Ended since: not hers now. Sam's is his alone.
    assert data(api.gql(ENTITY, {"name": "Maya"}, key=key))["entity"]["foresights"] == []
    sam = data(api.gql(ENTITY, {"name": "Sam"}, key=key))["entity"]
    assert [f["text"] for f in sam["foresights"]] == ["Sam is allergic to shellfish."]
    hits = data(api.gql(SEARCH, {"q": "a seafood restaurant for Sam"}, key=key))["search"]["hits"]
    assert {"text": "Sam is allergic to shellfish.", "concerns": {"name": "Sam"}} in [
        h["foresight"] for h in hits if h["kind"] == "FORESIGHT"]
    # Another tenant's key sees no such person.
    other = _new_key(api.settings, f"concerns_{uuid.uuid4().hex[:8]}")
    assert data(api.gql(ENTITY, {"name": "Sam"}, key=other))["entity"] is None


async def test_a_question_naming_someone_brings_their_nearest_constraint_below_the_trigger_bar(
        services, graph):
    await _tell(services, graph, [
        ("w1", "Walter", "The optician says no driving after dark for me now.", 0),
        ("w2", "Walter", "I'm diabetic, so I watch the sugar.", 0),
        ("w3", "Ros", "I'm scared of heights.", 0)])
    texts = {r["key"]: r["text"] for r in await graph.read(
        "MATCH (f:Foresight {tenant: $tenant}) RETURN elementId(f) AS key, f.text AS text")}

    async def foresight(query: str) -> list[tuple[str, str, bool]]:
        res = await SearchService(services).search(graph.tenant, SearchRequest(
            query=query, method=Method.HYBRID, top_k=10), record_access=False)
        return [(texts[c.key], c.note, c.weak) for c in res.rankings["foresight"]]

    # No trigger near enough (nor a word of one), so only because Walter is named: his nearest.
    assert await foresight("A carol service at 7pm in December: can Walter come along by himself?") == [
        ("Walter must not drive after dark.", "a constraint of whom the query names", True)]
    assert await foresight("A carol service at 7pm in December: can anyone come along by themselves?") == []
    # Ros is named, Walter is not: hers alone.
    assert [t for t, _, _ in await foresight("A carol service at 7pm in December: can Ros come along?")] == [
        "Ros is afraid of heights."]
    # Beside one that clears the bar: after it.
    both = await foresight("A treetop high-ropes course with Ros and Walter next weekend?")
    assert [(t.split()[0], weak) for t, _, weak in both] == [("Ros", False), ("Walter", True)]
    # A question after a fact of his is no situation where his constraints matter.
    assert await foresight("Where does Walter live these days?") == []
    assert await foresight("Is Walter allowed to drive to the carol service?") != []
    # A trigger that clears the bar comes first, as before; his other one is not added.
    assert [(t, weak) for t, _, weak in await foresight("Which desserts can Walter have?")] == [
        ("Walter is diabetic.", False)]


async def test_an_end_said_of_someone_by_an_alias_ends_the_foresight_that_concerns_them(services, graph):
    # Mel is taken for Melanie (by prefix, as in test_a_merge_carries_...): her end is Melanie's.
    await _tell(services, graph, [("m1", "Melanie", "I'm vegan, so no cheese for me.", 0),
                                  ("m2", "Sam", "Sam here. I'm vegan too.", 0)])
    await _tell(services, graph, [("m3", "Sam", "My colleague Mel isn't vegan anymore, she eats fish again.",
                                   9)], conversation="c2")
    rows = await graph.read("""MATCH (f:Foresight {tenant: $tenant})
                               RETURN f.text AS text, f.endedAt IS NOT NULL AS ended,
                                      COLLECT { MATCH (f)-[:ENDED_BY]->(t) RETURN t.id } AS by""")
    assert {r["text"]: (r["ended"], r["by"]) for r in rows} == {
        "Melanie is vegan.": (True, ["m3"]), "Sam is vegan.": (False, [])}
    facts = await graph.read("""MATCH (f:Fact {tenant: $tenant}) WHERE f.text STARTS WITH 'Melanie is vegan'
                                RETURN f.status AS status, COLLECT { MATCH (f)-[:SUPERSEDED_BY]->(n)
                                                                     RETURN n.subject } AS by""")
    assert [(r["status"], r["by"]) for r in facts] == [("superseded", ["Mel"])]


async def test_the_browser_query_of_foresight_active_today_draws_whom_each_concerns(services, graph):
    await _tell(services, graph, [("m1", "Maya", "I'm allergic to peanuts, so no satay for me.", 0),
                                  ("m2", "Maya", "My son Leo has asthma.", 0)])
    query = (Path(__file__).resolve().parents[1] / "cypher" / "explore" / "foresight_active_today.cypher")
    rows = await graph.read(query.read_text().strip().rstrip(";"), at=None)
    assert {r["text"]: (r["concerns"], r["who"]["name"] if r["who"] else None) for r in rows} == {
        "Maya is allergic to peanuts.": ("Maya", "Maya"), "Leo has asthma.": ("Leo", "Leo")}


def test_a_querys_names_are_looked_up_as_keys_capitalised_first():
    from app.recollection.channels.foresight import MAX_PEOPLE, named_keys

    assert named_keys("Can Walter's sister Auntie Ros come?")[:4] == ["can", "walter", "auntie", "ros"]
    assert "auntie ros" in named_keys("Can Walter's sister Auntie Ros come?")
    # A name late in a long question still makes the cut.
    long = " ".join(["word"] * 5 + [f"filler{i}" for i in range(40)]) + " with Ines"
    keys = named_keys(long)
    assert len([k for k in keys if not k.startswith(("mr ", "mrs ", "ms ", "dr "))]) == MAX_PEOPLE
    assert "ines" in keys
    # a surname is also whom a title names, after the words
    assert named_keys("Plan the menu for the Okafor table")[-4:] == [
        "mr okafor", "mrs okafor", "ms okafor", "dr okafor"]


@pytest.mark.parametrize("query, expected", [
    ("Where does Maya live?", False), ("What does Maya practise every evening?", False),
    ("Tell me about Walter", False), ("When did Ros move?", False), ("Is Maya married?", False),
    ("Is Walter allowed to drive at night?", True),
    ("Which desserts can Walter have?", True), ("Should we invite Ros to the climbing day?", True),
    ("Book a table for Maya on Friday", True),
    ("A carol service at 7pm in December: can Walter come along?", True),
    ("Hannah's friends invite her to the slopes in January.", True),
])
def test_a_question_after_someones_fact_is_no_situation_for_their_constraints(query, expected):
    from app.recollection.channels.foresight import situation

    assert situation(query) is expected


async def test_an_instruction_about_someone_concerns_them_not_who_gave_it(services, graph):
    """"Please don't contact Ana's current employer for references", said by Hannah to her
    assistant: Ana's (it was Hannah's, and a question naming Ana did not pin it)."""
    msgs = [{"id": i, "speaker": s, "role": r, "content": c, "timestamp": DAY1 + timedelta(minutes=n)}
            for n, (i, s, r, c) in enumerate([
                ("a1", "Hannah", "user", "Ana Costa applied for the designer role."),
                ("a2", "Assistant", "assistant", "Noted."),
                ("a3", "Hannah", "user", "Please don't contact Ana's current employer for references."),
                ("a4", "Assistant", "assistant", "Understood."),
                ("a5", "Hannah", "user", "Always book aisle seats for me."),
                ("a6", "Hannah", "user", "Can you remind me to book the Porto flights on Friday?"),
                ("a7", "Hannah", "user",
                 "Please don't book anything for us on 24 December, we'll be at my parents' in Hamburg.")])]
    await Ingestor(services).memorize(graph.tenant, "c1", msgs, flush=True)
    concerns = await _concerns(graph)
    assert [w for t, w in concerns.items() if "employer" in t] == ["Ana Costa"], concerns
    assert [w for t, w in concerns.items() if "aisle" in t] == ["Hannah"]
    # a reminder is the asker's, whatever it names (it concerned Porto)
    assert [w for t, w in concerns.items() if "Porto" in t] == ["Hannah"], concerns
    # where the asker will be is no one the instruction is about (walk-through 47: it concerned Hamburg)
    assert [w for t, w in concerns.items() if "Hamburg" in t] == ["Hannah"], concerns
