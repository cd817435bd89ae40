"""Correcting entity resolution against the real Neo4j: an alias split off, two entities merged."""
import json
from datetime import timedelta

import pytest

from app.construction import pipeline
from app.construction.entity_edits import EntityEditError
from app.construction.entity_merge import merge_entities
from app.construction.entity_split import split_entity
from app.construction.ingest import Ingestor
from app.construction.writer import write_batch
from app.lifecycle.forget import ForgetSelection, forget
from app.recollection.related import RelatedService
from tests.conversation import DAY1

# "Mel", a colleague of Sam's, is taken for Melanie (a prefix of a known person's name), and
# her new job closes Melanie's.
MELANIE = [("s1", "Melanie", "I work at Northwind as a nurse.", 0),
           ("s2", "Sam", "Nice, how is it going?", 0),
           ("s3", "Sam", "My colleague Mel works at Brightleaf now.", 3),
           ("s4", "Melanie", "Mel is great, say hi to him.", 3)]


@pytest.fixture
def ingestor(services):
    return Ingestor(services)


async def _tell(ingestor, tenant, turns):
    for tid, speaker, content, day in turns:
        at = DAY1 + timedelta(days=day, minutes=int(tid[1:]))
        await ingestor.memorize(tenant, f"c{day}", [{"id": tid, "speaker": speaker, "content": content,
                                                     "timestamp": at}], flush=True)


async def _facts(graph) -> dict[str, dict]:
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant})
        OPTIONAL MATCH (f)-[a:ABOUT]->(e:Entity)
        OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(n:Fact)
        RETURN f.object AS object, f.status AS status, f.validTo AS validTo, f.subjectKey AS subjectKey,
               collect(DISTINCT [e.key, a.role]) AS about, collect(DISTINCT n.object) AS next""")
    return {r["object"]: {**r, "about": sorted(r["about"]), "next": sorted(r["next"])} for r in rows}


async def _state(graph) -> dict:
    """Everything a split may change, to compare before and after a refused one."""
    ents = await graph.read("MATCH (e:Entity {tenant: $tenant}) RETURN e.key AS key, e.aliases AS aliases, "
                            "e.merges AS merges ORDER BY key")
    edges = await graph.read("""
        MATCH (a {tenant: $tenant})-[r:ABOUT|RELATED|MENTIONS|SUPERSEDED_BY]->(b {tenant: $tenant})
        RETURN coalesce(a.key, a.id) AS a, type(r) AS t, coalesce(b.key, b.id) AS b, r.validTo AS until
        ORDER BY a, t, b""")
    return {"entities": ents, "edges": edges, "facts": await _facts(graph)}


async def test_a_wrongly_merged_alias_becomes_its_own_entity_and_reopens_what_it_closed(graph, ingestor):
    await _tell(ingestor, graph.tenant, MELANIE)
    before = await _facts(graph)
    # The wrong merge this undoes: Mel's job closed Melanie's.
    assert before["Brightleaf"]["subjectKey"] == "melanie"
    assert before["Northwind"]["status"] == "superseded" and before["Northwind"]["next"] == ["Brightleaf"]

    rep = await split_entity(graph, ingestor.services.require_embedder(), "Melanie", "Mel")
    assert (rep.facts, rep.reopened) == (1, 1)

    after = await _facts(graph)
    assert after["Northwind"]["status"] == "current" and after["Northwind"]["validTo"] is None
    assert after["Northwind"]["next"] == [] and ["melanie", "subject"] in after["Northwind"]["about"]
    bright = after["Brightleaf"]
    assert bright["subjectKey"] == "mel" and bright["status"] == "current"
    assert ["mel", "subject"] in bright["about"] and not any(k == "melanie" for k, _ in bright["about"])

    [mel] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'mel'}) RETURN e.name AS name, "
                             "e.type AS type, e.aliases AS aliases, e.embedding IS NOT NULL AS vector")
    assert mel == {"name": "Mel", "type": "person", "aliases": [], "vector": True}
    [melanie] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'melanie'}) "
                                 "RETURN e.aliases AS aliases, e.aliasKeys AS keys, e.merges AS merges")
    assert melanie["aliases"] == [] and melanie["keys"] == []
    records = [json.loads(m) for m in melanie["merges"]]
    # Mel first met as a nickname (prefix), then, in the next episode, known by that alias (key).
    assert [(r["method"], r["into"]) for r in records] == [("prefix", "melanie"), ("key", "melanie"),
                                                           ("split", "mel")]

    related = await graph.read("""
        MATCH (a:Entity {tenant: $tenant})-[r:RELATED]->(b:Entity) RETURN a.key AS a, b.key AS b,
        r.validTo AS until ORDER BY a, b""")
    assert [(r["a"], r["b"], r["until"]) for r in related] == [
        ("mel", "brightleaf", None), ("mel", "sam", None), ("melanie", "northwind", None)]

    mentions = await graph.read("""
        MATCH (m:MemCell {tenant: $tenant})-[:MENTIONS]->(e:Entity {tenant: $tenant})
        WHERE e.key IN ['mel', 'melanie']
        MATCH (m)-[:EVIDENCED_BY]->(t:Turn) RETURN t.id AS turn, collect(e.key) AS keys""")
    by_turn = {r["turn"]: sorted(r["keys"]) for r in mentions}
    counts = await graph.read("""
        MATCH (m:MemCell {tenant: $tenant})-[x:MENTIONS]->(e:Entity {tenant: $tenant})
        WHERE e.key IN ['mel', 'melanie'] MATCH (m)-[:EVIDENCED_BY]->(t:Turn)
        RETURN t.id + ' ' + e.key AS mention, x.count AS n ORDER BY mention""")
    # Melanie's own episode untouched; Mel's counts the fact moved to him.
    assert {r["mention"]: r["n"] for r in counts} == {"s1 melanie": 1, "s3 mel": 1, "s4 mel": 1, "s4 melanie": 1}
    # Sam's turn names only Mel; Melanie's own turn about Mel names both.
    assert by_turn == {"s1": ["melanie"], "s3": ["mel"], "s4": ["mel", "melanie"]}

    # The split stays: the name said again is the new entity's, not an alias of Melanie's.
    await _tell(ingestor, graph.tenant, [("s5", "Sam", "My colleague Mel works at Harbor Labs now.", 5)])
    facts = await _facts(graph)
    assert facts["Harbor Labs"]["subjectKey"] == "mel"
    assert facts["Brightleaf"]["status"] == "superseded" and facts["Northwind"]["status"] == "current"
    [row] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'melanie'}) RETURN e.aliasKeys AS keys")
    assert row["keys"] == []


async def test_a_split_closes_anew_a_value_whose_successor_moved_away(graph, ingestor):
    # Melanie moves Northwind -> (Mel's Brightleaf, wrongly hers) -> Harbor: after the split,
    # Northwind is closed by Harbor, not by Mel's job.
    await _tell(ingestor, graph.tenant, MELANIE + [("s6", "Melanie", "I work at Harbor Clinic now.", 6)])
    assert (await _facts(graph))["Northwind"]["next"] == ["Brightleaf"]
    rep = await split_entity(graph, ingestor.services.require_embedder(), "Melanie", "Mel")
    assert rep.resuperseded == 1 and rep.reopened == 1  # Northwind closed anew; Brightleaf open again
    facts = await _facts(graph)
    northwind, harbor = facts["Northwind"], facts["Harbor Clinic"]
    assert northwind["status"] == "superseded" and northwind["next"] == ["Harbor Clinic"]
    assert harbor["status"] == "current" and harbor["subjectKey"] == "melanie"
    assert northwind["validTo"] == (await graph.read(
        "MATCH (f:Fact {tenant: $tenant, object: 'Harbor Clinic'}) RETURN f.validFrom AS v"))[0]["v"]
    assert facts["Brightleaf"]["status"] == "current" and facts["Brightleaf"]["next"] == []


@pytest.mark.parametrize("entity, surface, field, missing", [
    ("Melanie", "Melanie", "surface", False),  # its own name: nothing to split off
    ("Melanie", "Sam", "surface", False),  # a name, but not one of hers
    ("Nobody", "Mel", "entity", True),
    ("Melanie", "  ", "surface", False),
    ("Melanie", "!!", "surface", False),
    ("Melanie", "M" * 257, "surface", False),
])
async def test_a_split_that_cannot_be_done_is_refused_and_changes_nothing(graph, ingestor, entity, surface,
                                                                           field, missing):
    await _tell(ingestor, graph.tenant, MELANIE)
    before = await _state(graph)
    with pytest.raises(EntityEditError) as err:
        await split_entity(graph, ingestor.services.require_embedder(), entity, surface)
    assert (err.value.field, err.value.missing) == (field, missing)
    assert await _state(graph) == before


async def test_splitting_again_is_refused_as_the_name_is_no_longer_an_alias(graph, ingestor):
    await _tell(ingestor, graph.tenant, MELANIE)
    embedder = ingestor.services.require_embedder()
    await split_entity(graph, embedder, "Melanie", "Mel")
    before = await _state(graph)
    with pytest.raises(EntityEditError, match="not an alias"):
        await split_entity(graph, embedder, "Melanie", "Mel")
    assert await _state(graph) == before


async def test_a_split_keeps_the_keyword_statistics_of_entity_names_exact(graph, ingestor):
    await _tell(ingestor, graph.tenant, MELANIE)
    await split_entity(graph, ingestor.services.require_embedder(), "Melanie", "Mel")
    kept = await graph.read("""
        MATCH (s:TermStat {tenant: $tenant, kind: 'entity'}) RETURN s.term AS term, s.df AS df ORDER BY term""")
    counted = await graph.read("""
        MATCH (n:Entity {tenant: $tenant}) UNWIND n.terms AS term
        RETURN term, count(*) AS df ORDER BY term""")
    assert kept == counted and {"term": "mel", "df": 1} in kept


# Two names of one colleague that resolution kept apart (neither starts the other's key in the
# way a nickname does): his old city and his new one were both current.
ALEX = [("a1", "Sam", "My colleague Alex lives in Boston.", 0),
        ("a2", "Sam", "My colleague Alexander lives in Denver now.", 3)]


async def test_merging_two_entities_makes_one_timeline_and_a_split_undoes_it(graph, ingestor):
    await _tell(ingestor, graph.tenant, ALEX)
    before = await _state(graph)
    assert {f["status"] for f in before["facts"].values()} == {"current"}
    assert [e["key"] for e in before["entities"] if e["key"].startswith("alex")] == ["alex", "alexander"]

    rep = await merge_entities(graph, "Alex", "Alexander")
    assert (rep.facts, rep.episodes, rep.resuperseded) == (1, 1, 1)
    facts = await _facts(graph)
    assert facts["Boston"]["subjectKey"] == "alexander" and facts["Boston"]["status"] == "superseded"
    assert facts["Boston"]["next"] == ["Denver"] and facts["Denver"]["status"] == "current"
    [kept] = await graph.read("MATCH (e:Entity {tenant: $tenant}) WHERE e.key STARTS WITH 'alex' "
                              "RETURN e.key AS key, e.aliases AS aliases, e.aliasKeys AS keys, e.merges AS merges")
    assert (kept["key"], kept["aliases"], kept["keys"]) == ("alexander", ["Alex"], ["alex"])
    assert json.loads(kept["merges"][-1])["method"] == "manual"
    related = await graph.read("MATCH (a:Entity {tenant: $tenant})-[r:RELATED]->(b:Entity {key: 'boston'}) "
                               "RETURN a.key AS a, r.validTo IS NOT NULL AS ended")
    assert related == [{"a": "alexander", "ended": True}]

    [kept] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'alexander'}) RETURN e.splitKeys AS keys")
    assert kept["keys"] in (None, [])

    # Undone: what names Alex goes back, Boston current again; the audit trail keeps both records.
    rep = await split_entity(graph, ingestor.services.require_embedder(), "Alexander", "Alex")
    assert (rep.facts, rep.reopened) == (1, 1)
    after = await _state(graph)
    assert after["facts"] == before["facts"] and after["edges"] == before["edges"]
    methods = {e["key"]: [json.loads(m)["method"] for m in e["merges"]] for e in after["entities"]}
    assert methods["alexander"] == ["manual", "split"] and methods["alex"] == []
    # and merged by hand again, the name is no longer kept apart from Alexander
    await merge_entities(graph, "Alex", "Alexander")
    [kept] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'alexander'}) RETURN e.splitKeys AS keys")
    assert kept["keys"] == []


@pytest.mark.parametrize("entity, into, field, missing", [
    ("Alex", "Alex", "into", False),  # one entity
    ("Alex", "Nobody", "into", True),
    ("Nobody", "Alex", "entity", True),
    ("", "Alex", "entity", False),
])
async def test_a_merge_that_cannot_be_done_is_refused_and_changes_nothing(graph, ingestor, entity, into,
                                                                           field, missing):
    await _tell(ingestor, graph.tenant, ALEX)
    before = await _state(graph)
    with pytest.raises(EntityEditError) as err:
        await merge_entities(graph, entity, into)
    assert (err.value.field, err.value.missing) == (field, missing)
    assert await _state(graph) == before


async def test_a_name_split_off_is_not_guessed_back_once_its_entity_is_forgotten(graph, ingestor):
    await _tell(ingestor, graph.tenant, MELANIE)
    await split_entity(graph, ingestor.services.require_embedder(), "Melanie", "Mel")
    await forget(graph, ForgetSelection(conversation_id="c3"))  # all that was said of Mel
    assert await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'mel'}) RETURN e") == []
    # Mel named again: still not a nickname of Melanie's, though the only person "Mel" starts.
    await _tell(ingestor, graph.tenant, [("s7", "Sam", "My colleague Mel works at Harbor Labs now.", 7)])
    facts = await _facts(graph)
    assert facts["Harbor Labs"]["subjectKey"] == "mel" and facts["Northwind"]["status"] == "current"
    [row] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'melanie'}) RETURN e.aliasKeys AS keys")
    assert row["keys"] == []


async def test_a_name_split_off_an_entity_stays_split_off_what_it_is_merged_into(graph, ingestor):
    await _tell(ingestor, graph.tenant, MELANIE)
    await split_entity(graph, ingestor.services.require_embedder(), "Melanie", "Mel")
    await merge_entities(graph, "Melanie", "Sam")  # whatever the reason, Mel was not Melanie
    [sam] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'sam'}) "
                             "RETURN e.splitKeys AS keys, e.aliasKeys AS aliases")
    assert sam == {"keys": ["mel"], "aliases": ["melanie"]}


async def _edit_before_writing(monkeypatch, *edits):
    """Runs the i-th of `edits` between an episode's resolution and its i-th write: the race of an
    entity edit with ingestion, made certain."""
    done = []

    async def edit_first(graph, batch):
        if len(done) < len(edits):
            done.append(await edits[len(done)]())
        await write_batch(graph, batch)

    monkeypatch.setattr(pipeline, "write_batch", edit_first)
    return done


async def test_an_episode_resolved_before_a_merge_is_written_against_the_merged_entity(graph, ingestor,
                                                                                        monkeypatch):
    await _tell(ingestor, graph.tenant, ALEX)
    done = await _edit_before_writing(monkeypatch, lambda: merge_entities(graph, "Alex", "Alexander"))
    await _tell(ingestor, graph.tenant, [("a3", "Sam", "My colleague Alex lives in Chicago now.", 6)])
    assert len(done) == 1
    facts = await _facts(graph)
    # not an entity "alex" made again with the new city as its own
    assert await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'alex'}) RETURN e") == []
    assert facts["Chicago"]["subjectKey"] == "alexander" and facts["Chicago"]["status"] == "current"
    assert ["alexander", "subject"] in facts["Chicago"]["about"]
    assert facts["Denver"]["status"] == "superseded" and facts["Denver"]["next"] == ["Chicago"]


async def test_an_episode_resolved_before_a_split_is_written_against_the_entity_split_off(graph, ingestor,
                                                                                           monkeypatch):
    await _tell(ingestor, graph.tenant, MELANIE)
    embedder = ingestor.services.require_embedder()
    done = await _edit_before_writing(monkeypatch, lambda: split_entity(graph, embedder, "Melanie", "Mel"))
    await _tell(ingestor, graph.tenant, [("s5", "Sam", "My colleague Mel lives in Glasgow.", 5)])
    assert len(done) == 1
    facts = await _facts(graph)
    assert facts["Glasgow"]["subjectKey"] == "mel" and ["mel", "subject"] in facts["Glasgow"]["about"]
    assert not any(k == "melanie" for k, _ in facts["Glasgow"]["about"])
    # the name not given back to the entity it was split off
    [melanie] = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'melanie'}) "
                                 "RETURN e.aliases AS aliases, e.aliasKeys AS keys")
    assert melanie == {"aliases": [], "keys": []}


async def test_an_episode_whose_names_keep_changing_waits_and_is_written_by_the_retry(graph, ingestor,
                                                                                      monkeypatch):
    await _tell(ingestor, graph.tenant, ALEX)
    embedder = ingestor.services.require_embedder()
    merge = lambda: merge_entities(graph, "Alex", "Alexander")  # noqa: E731
    split = lambda: split_entity(graph, embedder, "Alexander", "Alex")  # noqa: E731
    done = await _edit_before_writing(monkeypatch, merge, split, merge, split)
    report = await ingestor.memorize(graph.tenant, "c6", [{
        "id": "a3", "speaker": "Sam", "content": "My colleague Alex lives in Chicago now.",
        "timestamp": DAY1 + timedelta(days=6)}], flush=True)
    assert len(done) == 3  # each resolution undone by the next edit: given up after three
    assert report.process.failed_cells == 1 and "resolved again" in report.process.errors[0]
    assert "Chicago" not in await _facts(graph)
    [turn] = await graph.read("MATCH (t:Turn {tenant: $tenant, id: 'a3'}) RETURN t.status AS s, t.error AS e")
    assert turn["s"] == "pending" and "resolved again" in turn["e"]

    monkeypatch.setattr(pipeline, "write_batch", write_batch)
    await ingestor.retry(graph.tenant)
    facts = await _facts(graph)
    assert facts["Chicago"]["subjectKey"] == "alexander" and facts["Chicago"]["status"] == "current"
    assert await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'alex'}) RETURN e") == []


async def test_related_to_starts_from_the_entity_of_that_name_before_one_with_it_as_an_alias(graph, ingestor):
    await _tell(ingestor, graph.tenant, ALEX)
    # One entity's name another's alias: resolution does not make it, an import or an edit
    # racing an older server could. Alex, made first, is found first by a scan.
    await graph.write("MATCH (e:Entity {tenant: $tenant, key: 'alex'}) "
                      "SET e.aliases = ['Alexander'], e.aliasKeys = ['alexander']")
    related = await RelatedService().related_to(graph, "Alexander", hops=1)
    assert "Denver" in {r.entity["name"] for r in related}
    assert "Boston" not in {r.entity["name"] for r in related}
