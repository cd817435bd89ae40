"""Deletion leaves nothing behind: not in the graph, not in any fulltext or vector index."""
import asyncio
from datetime import timedelta

import pytest

from app.construction.ingest import Ingestor
from app.construction.status import conversation_status
from app.construction.turns import InputError
from app.lifecycle.forget import (
    DELETE_KEYS, ORPHAN_ENTITIES, PURGE_LABEL, STALE_RELATED, ForgetSelection, forget,
)
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from app.store.vector import vector_query
from tests.conversation import DAY1, maya_and_sam
from tests.interrupt import Killed, kill_at

LABELS = ("Turn", "MemCell", "Fact", "Entity", "Foresight", "Conversation")


async def _counts(graph) -> dict[str, int]:
    out = {}
    for label in LABELS:
        rows = await graph.read(f"MATCH (n:{label} {{tenant: $tenant}}) RETURN count(n) AS n")
        out[label] = rows[0]["n"]
    return out


async def _index_hits(graph, services) -> int:
    """Hits for the tenant in every fulltext and vector index, straight from the indexes."""
    v = [float(x) for x in services.embedder.embed(["Maya Berlin peanuts Tokyo"])[0]]
    n = 0
    for index in ("turn_text", "memcell_text", "fact_text", "entity_text", "foresight_text"):
        rows = await graph.read(
            f"CALL db.index.fulltext.queryNodes('{index}', $q) YIELD node "
            "WHERE node.tenant = $tenant RETURN count(node) AS n", q=f"tenant:{graph.tenant}")
        n += rows[0]["n"]
    for label, index in (("Turn", "turn_embedding"), ("Fact", "fact_embedding"),
                         ("MemCell", "memcell_embedding"), ("Entity", "entity_embedding"),
                         ("Foresight", "foresight_embedding")):
        rows = await graph.read_vector(vector_query(label, index, "RETURN count(n) AS n", limit="50"),
                                       vector=v)
        n += rows[0]["n"]
    return n


async def test_forgetting_a_conversation_leaves_nothing_in_graph_or_indexes(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    assert (await _counts(graph))["Fact"] > 0 and await _index_hits(graph, services) > 0
    deleted = await forget(graph, ForgetSelection(conversation_id="c1"))
    assert deleted > 0
    assert await _counts(graph) == {label: 0 for label in LABELS}
    assert await _index_hits(graph, services) == 0
    res = await SearchService(services).search(graph.tenant, SearchRequest(query="Maya", method=Method.HYBRID))
    assert res.hits == []


# Each fact and foresight: the cell that owns it and the turns that prove it.
DERIVED_FROM = """
MATCH (d {tenant: $tenant}) WHERE d:Fact OR d:Foresight
OPTIONAL MATCH (m:MemCell)-[:HAS_FACT|PREDICTS]->(d)
OPTIONAL MATCH (d)-[:EVIDENCED_BY]->(t:Turn)
RETURN CASE WHEN d:Fact THEN 'Fact' ELSE 'Foresight' END AS label, d.id AS id, m.id AS cell, collect(t.id) AS turns"""


async def test_forgetting_cells_removes_what_was_derived_from_them_only(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    cells = await graph.read("""MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
                                WITH m, collect(t.id) AS turns RETURN m.id AS id, turns""")
    day2 = [c for c in cells if "m7" in c["turns"]][0]
    before = await graph.read(DERIVED_FROM)
    await forget(graph, ForgetSelection(cell_ids=[day2["id"]]))
    turns = {r["id"] for r in await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id")}
    assert turns == {f"m{i}" for i in range(1, 7)}
    lisbon = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.object = 'Lisbon' RETURN f")
    assert lisbon == []
    # What day 1's cells made stays: the cells, and every fact and foresight neither owned by
    # the forgotten cell nor proved by one of its turns.
    left = {r["id"] for r in await graph.read("MATCH (m:MemCell {tenant: $tenant}) RETURN m.id AS id")}
    assert left == {c["id"] for c in cells} - {day2["id"]} and left
    kept = {(r["label"], r["id"]) for r in before
            if r["cell"] != day2["id"] and not set(r["turns"]) & set(day2["turns"])}
    assert {(r["label"], r["id"]) for r in await graph.read(DERIVED_FROM)} == kept
    berlin = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.object = 'Berlin' RETURN f.id AS id")
    assert berlin and {("Fact", r["id"]) for r in berlin} <= kept
    assert any(label == "Foresight" for label, _ in kept)  # the allergy and the Tokyo trip
    # the Berlin fact stays, and no RELATED edge points at a deleted fact
    dangling = await graph.read("""
        MATCH (:Entity {tenant: $tenant})-[r:RELATED]->() WHERE NOT EXISTS {
          MATCH (f:Fact {tenant: $tenant}) WHERE f.id = r.factId } RETURN count(r) AS n""")
    assert dangling[0]["n"] == 0


async def test_forgetting_a_user_and_a_missing_selection(services, graph):
    msgs = [{**m, "user_id": "u-maya" if m["speaker"] == "Maya" else "u-sam"} for m in maya_and_sam()]
    await Ingestor(services).memorize(graph.tenant, "c1", msgs, flush=True)
    await forget(graph, ForgetSelection(user_id="u-maya"))
    left = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN collect(DISTINCT t.userId) AS u")
    assert left[0]["u"] == ["u-sam"]
    # Only Maya's turns went: every one of Sam's is still there.
    sams = {r["id"] for r in await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id")}
    assert sams == {m["id"] for m in msgs if m["user_id"] == "u-sam"} == {"m2", "m5", "m8"}
    facts = await graph.read("""MATCH (f:Fact {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
                                RETURN collect(DISTINCT t.userId) AS u""")
    assert "u-maya" not in facts[0]["u"]
    assert await forget(graph, ForgetSelection(conversation_id="no-such-conversation")) == 0
    with pytest.raises(ValueError):
        await forget(graph, ForgetSelection())


async def test_forgetting_everything_of_an_unknown_tenant_is_a_no_op(services, tenant):
    from app.store.graph import TenantGraph

    assert await forget(TenantGraph(services.driver, tenant), ForgetSelection(everything=True)) == 0


async def test_vector_search_keeps_working_after_deletions(services, graph):
    """Neo4j 2026.08.1's filtered vector search can fail after deletions; the data layer falls
    back to the unfiltered index procedure, so search and ingestion keep working."""
    ing = Ingestor(services)
    await ing.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    await forget(graph, ForgetSelection(conversation_id="c1"))
    await ing.memorize(graph.tenant, "c2", maya_and_sam(), flush=True)
    res = await SearchService(services).search(graph.tenant, SearchRequest(query="Where does Maya live?",
                                                                           method=Method.VECTOR))
    assert res.hits and {e["id"] for h in res.hits for e in h.evidence} <= {f"m{i}" for i in range(1, 10)}


class _ForgetsWhileExtracting:
    """An extractor that forgets the conversation (or marks its turns done, as another run
    would) while the first episode is being extracted: the race of a forget, or of a second
    run, with a slow extraction."""

    def __init__(self, inner, graph, what: str):
        self.inner, self.graph, self.what, self.done = inner, graph, what, False
        self.name = inner.name

    async def extract(self, turns, known=()):
        if not self.done:
            self.done = True
            if self.what == "forget":
                await forget(self.graph, ForgetSelection(conversation_id="c1"))
            else:
                await self.graph.write("MATCH (t:Turn {tenant: $tenant}) SET t.status = 'done'")
        return await self.inner.extract(turns, known)


@pytest.mark.parametrize("what", ["forget", "processed elsewhere"])
async def test_a_run_whose_turns_went_while_it_extracted_writes_nothing(services, graph, what):
    ingestor = Ingestor(services)
    ingestor.pipeline.extractor = _ForgetsWhileExtracting(ingestor.pipeline.extractor, graph, what)
    report = await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    assert any("forgotten or processed elsewhere" in e for e in report.process.errors), report.process.errors
    counts = await _counts(graph)
    assert counts["MemCell"] == counts["Fact"] == counts["Foresight"] == 0, counts
    if what == "forget":  # and nothing of what was said comes back through an index
        assert counts["Turn"] == 0 and await _index_hits(graph, services) == 0


async def test_an_episode_committed_while_its_turns_were_forgotten_goes_with_them(services, graph):
    # What a run that claimed its turns while a forget was deleting them leaves: the episode
    # and its facts, its turns gone (the forget waited for the run, then deleted them).
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    await graph.write("MATCH (t:Turn {tenant: $tenant}) WHERE t.id IN ['m7', 'm8', 'm9'] DETACH DELETE t")
    await forget(graph, ForgetSelection(conversation_id="c1"))
    counts = await _counts(graph)
    assert counts == {label: 0 for label in LABELS}, counts


async def test_an_interrupted_forget_of_cells_is_finished_by_running_it_again(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    [day2] = await graph.read("MATCH (t:Turn {tenant: $tenant, id: 'm7'}) RETURN t.memCellId AS id")
    # Interrupted after the cell and what it made went, before its turns did.
    await graph.write("""MATCH (m:MemCell {tenant: $tenant, id: $id}) OPTIONAL MATCH (m)-[:HAS_FACT|PREDICTS]->(x)
                         DETACH DELETE m, x""", id=day2["id"])
    await forget(graph, ForgetSelection(cell_ids=[day2["id"]]))
    left = {r["id"] for r in await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id")}
    assert left == {f"m{i}" for i in range(1, 7)}


async def test_forgetting_a_user_forgets_what_the_assistant_said_to_them(services, graph, searcher):
    """A tutor's replies carry no userId: each is the user's whom it answers (the last user who
    spoke before it in the conversation), so a search of that user has them and forgetting the
    user forgets them; a reply to another user in the same conversation is that user's."""
    said = [("s1", "Sofia", "u-sofia", "user", "Just so you know, I'm allergic to nuts."),
            ("t1", "Tutor", None, "assistant", "Thanks for telling me, I'll note your nut allergy for the trip."),
            ("p1", "Maria", "u-maria", "user", "Sofia's mum here, can we move Thursday's session?"),
            ("t2", "Tutor", None, "assistant", "Of course, Thursday's session moves to Friday at 4pm.")]
    msgs = [{"id": i, "speaker": who, "user_id": user, "role": role, "content": text,
             "timestamp": DAY1 + timedelta(minutes=k)} for k, (i, who, user, role, text) in enumerate(said)]
    ingestor = Ingestor(services)
    await ingestor.memorize(graph.tenant, "c1", msgs[:1], flush=False)  # the user said first, in another call
    await ingestor.memorize(graph.tenant, "c1", msgs[1:], flush=True)
    users = {r["id"]: r["u"]
             for r in await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id, t.userId AS u")}
    assert users == {"s1": "u-sofia", "t1": "u-sofia", "p1": "u-maria", "t2": "u-maria"}
    res = await searcher.search(graph.tenant, SearchRequest(query="note the allergy for the trip",
                                                            user_id="u-sofia", kinds=("turn",)))
    assert "t1" in [e["id"] for h in res.hits for e in h.evidence]
    await forget(graph, ForgetSelection(user_id="u-sofia"))
    left = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN collect(t.id) AS ids")
    assert sorted(left[0]["ids"]) == ["p1", "t2"]
    await ingestor.retry_failed_everywhere()
    texts = await graph.read("MATCH (n {tenant: $tenant}) WHERE n:Fact OR n:Foresight OR n:MemCell "
                             "RETURN collect(coalesce(n.text, n.summary, '')) AS t")
    assert not [t for t in texts[0]["t"] if "nut" in t.lower()], texts


async def test_an_entity_named_in_passing_is_mentioned_and_outlives_a_forget_of_something_else(services, graph):
    said = [("Tutor", "How are things at Lincoln High so far?"), ("Sofia", "Fine, I guess.")]
    await Ingestor(services).memorize(graph.tenant, "c1", [
        {"id": f"m{k}", "speaker": who, "content": text, "timestamp": DAY1 + timedelta(minutes=k)}
        for k, (who, text) in enumerate(said)], flush=True)
    rows = await graph.read("MATCH (e:Entity {tenant: $tenant, name: 'Lincoln High'}) "
                            "RETURN COUNT { (e)<-[:MENTIONS]-(:MemCell) } AS cells")
    assert rows == [{"cells": 1}]
    await forget(graph, ForgetSelection(user_id="no-such-user"))
    assert await graph.read("MATCH (e:Entity {tenant: $tenant, name: 'Lincoln High'}) RETURN e.id AS id")


async def test_the_other_speakers_turns_of_a_forgotten_users_episodes_are_made_again(services, graph):
    msgs = [{**m, "user_id": "u-maya" if m["speaker"] == "Maya" else "u-sam"} for m in maya_and_sam()]
    ingestor = Ingestor(services)
    await ingestor.memorize(graph.tenant, "c1", msgs, flush=True)
    await forget(graph, ForgetSelection(user_id="u-maya"))
    # Sam's turns lost the episodes they shared with Maya's, and wait to be made again.
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id, t.status AS status, "
                            "t.memCellId AS cell, t.error AS error")
    assert {r["id"] for r in rows} == {"m2", "m5", "m8"}
    assert all(r["status"] == "pending" and r["cell"] is None and r["error"] for r in rows), rows
    # They wait; none failed (a client polling the conversation was told 3 failed).
    status = await conversation_status(graph, "c1")
    assert (status["pending"], status["failed"], status["lastError"]) == (3, 0, None)
    await ingestor.retry_failed_everywhere()
    made = await graph.read("""MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
                               RETURN m.id AS cell, collect(t.id) AS turns""")
    # Sam's turns of each day are an episode again (the call flushed, and so does its retry),
    # made of Sam's turns only, its facts proved by them.
    assert sorted(sorted(r["turns"]) for r in made) == [["m2", "m5"], ["m8"]]
    facts = await graph.read("""MATCH (m:MemCell {tenant: $tenant})-[:HAS_FACT]->(f:Fact)-[:EVIDENCED_BY]->(t:Turn)
                                RETURN collect(DISTINCT t.id) AS turns""")
    assert set(facts[0]["turns"]) <= {"m2", "m5", "m8"}


async def test_a_user_forget_run_again_leaves_the_turns_remade_meanwhile_alone(services, graph, monkeypatch):
    msgs = [{**m, "user_id": "u-maya" if m["speaker"] == "Maya" else "u-sam"} for m in maya_and_sam()]
    ingestor = Ingestor(services)
    await ingestor.memorize(graph.tenant, "c1", msgs, flush=True)
    # Killed after Sam's turns were reopened, before the old episodes went; the retry makes
    # Sam's first-day turns an episode again meanwhile.
    kill_at(monkeypatch, graph, "auto_commit", DELETE_KEYS)
    with pytest.raises(Killed):
        await forget(graph, ForgetSelection(user_id="u-maya"))
    await ingestor.retry_failed_everywhere()
    remade = await graph.read("""MATCH (t:Turn {tenant: $tenant}) WHERE t.id IN ['m2', 'm5']
                                 RETURN collect(DISTINCT t.memCellId) AS cells, collect(DISTINCT t.status) AS status""")
    assert remade[0]["status"] == ["done"] and len(remade[0]["cells"]) == 1, remade
    await forget(graph, ForgetSelection(user_id="u-maya"))
    rows = {r["id"]: r for r in await graph.read(
        "MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id, t.status AS status, t.memCellId AS cell")}
    assert set(rows) == {"m2", "m5", "m8"}
    # The new episode keeps its turns: not reopened, not made a second time.
    assert [rows[i]["cell"] for i in ("m2", "m5")] == remade[0]["cells"] * 2
    assert rows["m2"]["status"] == rows["m5"]["status"] == "done"
    cells = await graph.read("""MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
                                RETURN m.id AS id, collect(t.id) AS turns""")
    # Sam's second-day turn too is an episode of its own (made by the retry, which flushes as
    # the call did), kept as well.
    assert sorted((r["id"] == remade[0]["cells"][0], sorted(r["turns"])) for r in cells) == [
        (False, ["m8"]), (True, ["m2", "m5"])]


async def test_a_forget_killed_after_the_turns_went_is_finished_by_running_it_again(services, graph,
                                                                                    monkeypatch):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    kill_at(monkeypatch, graph, "auto_commit", ORPHAN_ENTITIES)
    with pytest.raises(Killed):
        await forget(graph, ForgetSelection(conversation_id="c1"))
    left = await _counts(graph)
    assert left["Turn"] == left["MemCell"] == 0 and left["Entity"] and left["Conversation"], left
    # Run again, it finds no turns of its own, and still removes the entities and the
    # conversation nothing refers to any more.
    await forget(graph, ForgetSelection(conversation_id="c1"))
    assert await _counts(graph) == {label: 0 for label in LABELS}


async def test_an_episode_without_turns_asked_for_by_id_goes_with_what_it_made(services, graph):
    # What the race of a run's claim with a forget can leave: an episode whose turns are gone.
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    [day2] = await graph.read("MATCH (t:Turn {tenant: $tenant, id: 'm7'}) RETURN t.memCellId AS id")
    await graph.write("MATCH (t:Turn {tenant: $tenant}) WHERE t.id IN ['m7', 'm8', 'm9'] DETACH DELETE t")
    made = await graph.read("""MATCH (m:MemCell {tenant: $tenant, id: $id})-[:HAS_FACT|PREDICTS]->(x)
                               RETURN count(x) AS n""", id=day2["id"])
    assert made[0]["n"] > 0
    await forget(graph, ForgetSelection(cell_ids=[day2["id"]]))
    left = await graph.read("""MATCH (x {tenant: $tenant}) WHERE (x:Fact OR x:Foresight OR x:MemCell)
                               AND (x.id = $id OR x.memCellId = $id OR EXISTS { (:MemCell {id: $id})-->(x) })
                               RETURN count(x) AS n""", id=day2["id"])
    assert left[0]["n"] == 0
    lisbon = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS 'Lisbon' RETURN f")
    assert lisbon == []


def _hold_purge_after(graph, label: str) -> tuple[asyncio.Event, asyncio.Event]:
    """Makes `forget everything` on `graph` wait after deleting `label` until the second event is
    set; the first is set when it waits there (what lands meanwhile races the purge)."""
    reached, go_on = asyncio.Event(), asyncio.Event()
    run = graph.auto_commit

    async def pausing(query, **params):
        n = await run(query, **params)
        if query == PURGE_LABEL[label]:
            reached.set()
            await go_on.wait()
        return n

    graph.auto_commit = pausing
    return reached, go_on


async def test_a_message_sent_while_everything_is_forgotten_is_refused_not_stranded(services, graph):
    ing = Ingestor(services)
    await ing.memorize(graph.tenant, "c1", maya_and_sam()[:3], flush=True)
    turns_gone, go_on = _hold_purge_after(graph, "Turn")  # before its Conversation step
    purge = asyncio.create_task(forget(graph, ForgetSelection(everything=True)))
    await turns_gone.wait()
    late = [{"id": "late", "speaker": "Maya", "content": "My locker code is 4711.",
             "timestamp": "2024-03-05T10:00:00Z"}]
    try:
        with pytest.raises(InputError, match="being deleted"):
            await ing.memorize(graph.tenant, "c1", late, wait=False)
        with pytest.raises(InputError, match="being deleted"):
            await ing.memorize(graph.tenant, "c2", late, wait=False)  # a new conversation too
    finally:
        go_on.set()
        await purge
    assert await graph.read("MATCH (n {tenant: $tenant}) RETURN labels(n) AS l") == []
    rep = await ing.memorize(graph.tenant, "c1", late, flush=True)  # once done, it is stored
    assert rep.accepted == 1 and rep.process.cells == 1


async def test_a_consolidation_that_read_the_cells_before_everything_went_writes_no_scene(services, graph):
    from app.lifecycle import scene_store

    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam()[:3], flush=True)
    # What a consolidation had read before the purge began: a scene and its group's centre.
    [seen] = await graph.read("MATCH (s:MemScene {tenant: $tenant}) "
                              "RETURN s.id AS id, s.groupKey AS groupKey, s.embedding AS embedding LIMIT 1")
    scenes_gone, go_on = _hold_purge_after(graph, "SceneCentre")  # its scene and centre steps done
    purge = asyncio.create_task(forget(graph, ForgetSelection(everything=True)))
    await scenes_gone.wait()
    try:  # its writes land now
        await scene_store.write_memberships(graph, [{
            "id": seen["id"], "groupId": None, "groupKey": seen["groupKey"], "vectorSum": seen["embedding"],
            "cells": 1, "embedding": seen["embedding"], "members": []}])
        await scene_store.save_centre(graph, groupKey=seen["groupKey"], vectorSum=seen["embedding"], cells=1,
                                      keywords=["locker"], counts=[1])
    finally:
        go_on.set()
        await purge
    # Before: the scene and the centre (the forgotten episodes' vector sum) outlived the purge.
    assert await graph.read("MATCH (n {tenant: $tenant}) RETURN labels(n) AS l") == []


async def test_a_message_racing_the_deletion_of_its_empty_conversation_is_stored(services, graph):
    ing = Ingestor(services)
    said = {"speaker": "Maya", "timestamp": "2024-03-04T10:00:00Z"}
    await ing.memorize(graph.tenant, "c1", [{**said, "id": "m1", "content": "I like tea."}], flush=True)
    async with services.driver.session(database=services.settings.neo4j_database) as s:
        tx = await s.begin_transaction()  # what forget's last steps do to c1, not yet committed
        await (await tx.run("MATCH (c:Conversation {tenant: $t, id: 'c1'}) OPTIONAL MATCH (c)-[:HAS_TURN]->(x) "
                            "DETACH DELETE x, c", t=graph.tenant)).consume()
        sent = asyncio.create_task(ing.memorize(graph.tenant, "c1", [
            {**said, "id": "m2", "content": "I also like coffee."}], flush=True))
        await asyncio.sleep(1.0)
        assert not sent.done()  # waits for the conversation's lock
        await tx.commit()
    rep = await sent
    assert rep.accepted == 1
    rows = await graph.read("MATCH (c:Conversation {tenant: $tenant})-[:HAS_TURN]->(t:Turn) "
                            "RETURN c.id AS c, t.id AS t, c.lastSeq AS last")
    assert rows == [{"c": "c1", "t": "m2", "last": 0}]


async def _lives_in(graph) -> dict[str, dict]:
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant, predicate: 'lives in'}) WHERE f.subjectKey = 'maya'
        OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(n:Fact)
        OPTIONAL MATCH (:Entity {tenant: $tenant})-[r:RELATED {factId: f.id}]->(:Entity {tenant: $tenant})
        RETURN f.object AS object, f.status AS status, f.validTo AS validTo,
               collect(DISTINCT n.object) AS next, collect(r.validTo) AS relationEnds""")
    return {r["object"]: r for r in rows}


async def test_forgetting_the_statement_of_a_new_value_makes_the_old_one_current_again(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    before = await _lives_in(graph)
    assert before["Berlin"]["status"] == "superseded" and before["Berlin"]["next"] == ["Lisbon"]
    await forget(graph, ForgetSelection(cell_ids=await _cells_with(graph, "m7")))
    after = await _lives_in(graph)
    assert "Lisbon" not in after
    berlin = after["Berlin"]
    assert (berlin["status"], berlin["validTo"], berlin["next"]) == ("current", None, [])
    assert berlin["relationEnds"] == [] or set(berlin["relationEnds"]) == {None}
    # what is true now is Berlin again, for search as for the graph
    res = await SearchService(services).search(graph.tenant, SearchRequest(query="Where does Maya live?",
                                                                           method=Method.HYBRID))
    assert "Berlin" in {h.node.get("object") for h in res.hits if h.kind == "fact"}


async def test_forgetting_a_value_between_two_others_leaves_the_first_closed_by_the_last(services, graph):
    ingestor = Ingestor(services)
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    later = maya_and_sam()[0] | {"id": "m9", "content": "I live in Porto now, moved last month.",
                                 "timestamp": maya_and_sam()[-1]["timestamp"].replace(year=2025)}
    await ingestor.memorize(graph.tenant, "c2", [later], flush=True)
    assert (await _lives_in(graph))["Lisbon"]["next"] == ["Porto"]
    await forget(graph, ForgetSelection(cell_ids=await _cells_with(graph, "m7")))
    after = await _lives_in(graph)
    assert after["Berlin"]["status"] == "superseded" and after["Berlin"]["next"] == ["Porto"]
    assert after["Berlin"]["validTo"] is not None and after["Porto"]["status"] == "current"


async def test_a_forget_killed_after_the_old_value_came_back_is_finished_by_running_it_again(
        services, graph, monkeypatch):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    cells = await _cells_with(graph, "m7")
    kill_at(monkeypatch, graph, "auto_commit", STALE_RELATED)
    with pytest.raises(Killed):
        await forget(graph, ForgetSelection(cell_ids=cells))
    # planned before anything went: Berlin current beside the Lisbon fact still there
    assert (await _lives_in(graph))["Berlin"]["status"] == "current"
    await forget(graph, ForgetSelection(cell_ids=cells))
    after = await _lives_in(graph)
    assert "Lisbon" not in after and (after["Berlin"]["status"], after["Berlin"]["validTo"]) == ("current", None)


async def _cells_with(graph, turn_id: str) -> list[str]:
    rows = await graph.read("MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn {id: $id}) "
                            "RETURN m.id AS id", id=turn_id)
    return [r["id"] for r in rows]
