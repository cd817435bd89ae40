"""MemScenes against the real Neo4j: topics gathered, state taken over, incremental placement,
interrupted consolidation repaired, deletion leaving nothing in a scene."""
import json
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from app.construction.ingest import Ingestor
from app.lifecycle.forget import ForgetSelection, forget
from app.lifecycle.scene_math import SceneRules, plan_scenes
from app.lifecycle.scenes import SceneService
from app.recollection.request import Method, SearchRequest
from app.recollection.scene_lookup import scene_conflicts, scenes_page
from app.recollection.search import SearchService
from tests.conversation import _msgs
from tests.scene_conversation import ATHENA_1, ATHENA_2, GARDEN, NEW_JOB

SCENE_OF_TURN = """
MATCH (s:MemScene {tenant: $tenant})-[:INCLUDES]->(:MemCell)-[:EVIDENCED_BY]->(t:Turn {id: $id})
RETURN collect(s.id) AS ids
"""

MEMBERSHIP = """
MATCH (m:MemCell {tenant: $tenant, status: 'active'})
OPTIONAL MATCH (s:MemScene)-[:INCLUDES]->(m)
RETURN m.id AS cell, count(s) AS scenes
"""


async def _scene_of(graph, turn_id: str) -> str:
    ids = (await graph.read(SCENE_OF_TURN, id=turn_id))[0]["ids"]
    assert len(ids) == 1, f"turn {turn_id} is in {len(ids)} scenes"
    return ids[0]


async def _memorize(services, tenant, *days, conversation="c1", ingestor=None):
    ing = ingestor or Ingestor(services)
    for i, day in enumerate(days):
        await ing.memorize(tenant, conversation, day, flush=i == len(days) - 1)
    return ing


async def _scenes(graph) -> list[dict]:
    rows, _, _ = await scenes_page(graph, None, None, 100, None)
    return rows


async def test_two_topics_give_two_scenes(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    athena, garden, athena_again = [await _scene_of(graph, t) for t in ("a3", "g3", "b3")]
    assert athena == athena_again and athena != garden
    scenes = {s["id"]: s for s in await _scenes(graph)}
    assert set(scenes) == {athena, garden}
    assert scenes[athena]["status"] == scenes[garden]["status"] == "active"
    # Topics come from the scene's own words, not the words every episode shares.
    assert any(w in scenes[garden]["topic"] for w in ("basil", "tomatoes", "balcony", "plants", "pots"))
    assert "Northwind" in scenes[athena]["consensus"]
    assert scenes[athena]["cells"] >= 2 and scenes[athena]["startedAt"] < scenes[garden]["startedAt"]


async def test_consolidate_is_stable_and_keeps_scene_ids(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    before = {s["id"] for s in await _scenes(graph)}
    rep = await SceneService(services.settings, services.embedder).consolidate(graph)
    assert rep.scenes == len(before) and rep.created == 0 and rep.moved == 0 and rep.dropped == 0
    assert {s["id"] for s in await _scenes(graph)} == before


async def test_a_replaced_state_archives_its_scene_with_the_conflict_inside(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, NEW_JOB)
    old, new = await _scene_of(graph, "a1"), await _scene_of(graph, "n1")
    assert old != new
    status = {s["id"]: s["status"] for s in await _scenes(graph)}
    assert status[old] == "archived" and status[new] == "active" and len(status) == 3
    conflicts = await scene_conflicts(graph, old, 10)
    assert any("Northwind" in c["text"] and "Brightleaf" in (c["replacedBy"] or "") for c in conflicts)
    assert await scene_conflicts(graph, new, 10) == []
    # Archived scenes stay out of the present, and come back when asking about the past.
    search = SearchService(services)
    now = await search.search(graph.tenant, SearchRequest(query="Northwind Bank ledger project",
                                                          method=Method.HYBRID, kinds=("scene",)))
    assert all(h.node["id"] != old for h in now.hits)
    past = await search.search(graph.tenant, SearchRequest(query="Northwind Bank ledger project",
                                                           method=Method.HYBRID, kinds=("scene",),
                                                           include_superseded=True))
    assert old in [h.node["id"] for h in past.hits if h.kind == "scene"]


async def test_as_of_a_moment_a_scene_holding_later_episodes_stays_out(services, graph):
    # Its consensus is written from what its facts say now: one holding episodes said after the
    # moment asked about would answer the past with what came later.
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    athena = await _scene_of(graph, "a1")
    assert athena == await _scene_of(graph, "b1")
    search = SearchService(services)
    for as_of, seen in ((ATHENA_2[0]["timestamp"] - timedelta(days=1), False),
                        (ATHENA_2[-1]["timestamp"], True), (None, True)):
        res = await search.search(graph.tenant, SearchRequest(
            query="Athena ledger migration at Northwind Bank", method=Method.HYBRID, kinds=("scene",),
            as_of=as_of))
        assert (athena in {h.node["id"] for h in res.hits}) is seen, as_of


async def test_as_of_a_moment_a_scenes_consensus_holds_what_was_true_then(services, graph):
    # Walk-through 53: the consensus, written from what is true now, answered the past with
    # today's values. As of the spring, Maya worked at Northwind Bank; Brightleaf came later.
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, NEW_JOB)
    old = await _scene_of(graph, "a1")
    stored = (await graph.read("MATCH (s:MemScene {tenant: $tenant, id: $id}) RETURN s.consensus AS c",
                               id=old))[0]["c"]
    assert "works at Northwind Bank" not in stored, stored  # (superseded: not true now)
    search = SearchService(services)
    res = await search.search(graph.tenant, SearchRequest(
        query="Northwind Bank ledger project", method=Method.HYBRID, kinds=("scene",),
        as_of=datetime(2024, 4, 1, tzinfo=timezone.utc)))
    [then] = [h.node["consensus"] for h in res.hits if h.kind == "scene" and h.node["id"] == old]
    assert "Northwind Bank" in then and "Brightleaf" not in then, then


async def test_a_scene_shows_no_conflict_of_a_forgotten_episode(services, graph):
    from datetime import datetime, timedelta, timezone

    from app.lifecycle.retention import RetentionPolicy, gc

    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2, NEW_JOB)
    old = await _scene_of(graph, "a1")
    assert old == await _scene_of(graph, "b1")  # the scene keeps a member when a1's goes
    conflicts = await scene_conflicts(graph, old, 10)
    assert any("Northwind" in c["text"] for c in conflicts), conflicts
    # Retention fades the first Athena episode only (nothing else is unimportant enough).
    await graph.write("MATCH (m:MemCell {tenant: $tenant}) SET m.importance = 1.0")
    await graph.write("""MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(:Turn {id: 'a1'})
                         SET m.importance = 0.1""")
    await gc(graph, RetentionPolicy(), datetime.now(timezone.utc) + timedelta(days=400))
    [gone] = await graph.read("""MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(:Turn {id: 'a1'})
                                 RETURN m.id AS id, m.status AS status""")
    assert gone["status"] == "forgotten"
    assert [s["id"] for s in await _scenes(graph) if s["id"] == old] == [old]
    assert all(c["memCellId"] != gone["id"] for c in await scene_conflicts(graph, old, 10))


async def test_scene_channel_brings_the_topic_and_its_consensus(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="how is the balcony garden growing", method=Method.HYBRID))
    scene_hits = [h for h in res.hits if h.kind == "scene"]
    folded = [c for h in res.hits for c in h.channels if c.channel == "scene"]
    assert scene_hits or folded, "the scene channel found nothing"
    garden = await _scene_of(graph, "g1")
    stored = (await graph.read("MATCH (s:MemScene {tenant: $tenant, id: $id}) "
                               "RETURN elementId(s) AS key, s.consensus AS consensus", id=garden))[0]
    # The garden's scene is the one nearest the query, and comes as a hit of its own: its topic
    # in the channel's note, its consensus in the hit.
    assert res.rankings["scene"][0].key == stored["key"]
    best = [c for c in folded if c.rank == 1] + [c for h in scene_hits for c in h.channels if c.rank == 1]
    assert best and any("basil" in c.note or "tomatoes" in c.note or "plants" in c.note or "pots" in c.note
                        or "balcony" in c.note for c in best), best
    assert [h.node["id"] for h in scene_hits] == [garden]
    assert stored["consensus"] and scene_hits[0].node.get("consensus") == stored["consensus"]


async def test_large_groups_place_new_cells_incrementally(services, graph):
    settings = services.settings.model_copy(update={"scene_full_below": 0})
    ing = Ingestor(services)
    ing.scenes = SceneService(settings, services.embedder)
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ingestor=ing)
    first = {s["id"] for s in await _scenes(graph)}
    # Three cells after two: below the doubling that triggers a full re-clustering.
    await ing.memorize(graph.tenant, "c1", ATHENA_2, flush=True)
    assert await _scene_of(graph, "b3") == await _scene_of(graph, "a3")
    assert {s["id"] for s in await _scenes(graph)} == first


async def test_interrupted_consolidation_is_completed_by_the_next_run(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    # What a killed run can leave: a cell taken out of its scene, an empty new scene.
    await graph.write("""
        MATCH (s:MemScene {tenant: $tenant})-[r:INCLUDES]->(:MemCell)-[:EVIDENCED_BY]->(:Turn {id: 'g1'})
        DELETE r""")
    await graph.write("CREATE (:MemScene {tenant: $tenant, id: 'half-written', groupKey: '', status: 'active'})")
    await SceneService(services.settings, services.embedder).consolidate(graph)
    rows = await graph.read(MEMBERSHIP)
    assert rows and all(r["scenes"] == 1 for r in rows)
    assert "half-written" not in {s["id"] for s in await _scenes(graph)}
    assert len(await _scenes(graph)) == 2


async def test_forgetting_cells_rewrites_scenes_without_them(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    garden = await _scene_of(graph, "g1")
    cell = (await graph.read("MATCH (t:Turn {tenant: $tenant, id: 'g1'}) RETURN t.memCellId AS id"))[0]["id"]
    await forget(graph, ForgetSelection(cell_ids=[cell]))
    left = {s["id"]: s for s in await _scenes(graph)}
    assert garden not in left and len(left) == 1
    text = " ".join(s["consensus"] + " " + s["topic"] for s in left.values()).lower()
    assert "basil" not in text and "tomatoes" not in text
    centre = await graph.read("MATCH (c:SceneCentre {tenant: $tenant}) RETURN c.keywords AS k")
    assert centre and not {"basil", "tomatoes"} & set(centre[0]["k"])
    await forget(graph, ForgetSelection(everything=True))
    assert await graph.read("MATCH (n {tenant: $tenant}) WHERE n:MemScene OR n:SceneCentre RETURN n") == []


async def test_a_forget_of_cells_killed_before_the_scenes_were_redone_redoes_them_when_run_again(
        services, graph, monkeypatch):
    from app.lifecycle.forget import DELETE_KEYS
    from tests.interrupt import Killed, kill_at

    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    garden = await _scene_of(graph, "g1")
    cell = (await graph.read("MATCH (t:Turn {tenant: $tenant, id: 'g1'}) RETURN t.memCellId AS id"))[0]["id"]
    kill_at(monkeypatch, graph, "auto_commit", DELETE_KEYS, nth=2)  # the cell went, its turns not
    with pytest.raises(Killed):
        await forget(graph, ForgetSelection(cell_ids=[cell]))
    assert garden in {s["id"] for s in await _scenes(graph)}
    await forget(graph, ForgetSelection(cell_ids=[cell]))
    left = {s["id"]: s for s in await _scenes(graph)}
    assert garden not in left and len(left) == 1
    text = " ".join(s["consensus"] + " " + s["topic"] for s in left.values()).lower()
    assert "basil" not in text and "tomatoes" not in text


async def test_scene_pages_follow_the_cursor(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2, NEW_JOB)
    seen, after = [], None
    while True:
        rows, more, total = await scenes_page(graph, None, None, 1, after)
        seen += [r["id"] for r in rows]
        if not more:
            break
        after = rows[-1]["cursor"]
    assert len(seen) == len(set(seen)) == total >= 3


def test_plan_merges_close_scenes_and_splits_incoherent_ones():
    rng = np.random.default_rng(7)
    base = rng.normal(size=(3, 32))
    a = base[0] + 0.05 * rng.normal(size=(6, 32))
    b = base[1] + 0.05 * rng.normal(size=(6, 32))
    c = base[2] + 0.05 * rng.normal(size=(6, 32))
    x = np.vstack([a, b, c])
    # Two prior scenes over the same topic a (should merge), b and c forced together (should split).
    prior = ["s1"] * 3 + ["s2"] * 3 + ["s3"] * 12
    plan = plan_scenes(x, prior, SceneRules(passes=0, split=0.6))
    labels = plan.labels
    assert len(set(labels[:6])) == 1 and len(set(labels[6:12])) == 1 and len(set(labels[12:])) == 1
    assert len(set(labels)) == 3 and plan.merged == 1 and plan.split == 1
    assert plan.dropped in (["s1"], ["s2"])


async def test_the_periodic_task_reclusters_only_groups_that_changed(services, graph):
    settings = services.settings.model_copy(update={"scene_full_below": 0})
    ing = Ingestor(services)
    ing.scenes = SceneService(settings, services.embedder)
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ingestor=ing)
    assert (await ing.scenes.consolidate_changed(graph)).groups == 0
    await ing.memorize(graph.tenant, "c1", ATHENA_2, flush=True)  # placed incrementally
    assert (await ing.scenes.consolidate_changed(graph)).groups == 1
    assert (await ing.scenes.consolidate_changed(graph)).groups == 0


async def test_with_an_llm_the_consensus_is_written_from_the_facts_and_survives_its_failure(services, graph):
    from tests.llm_stub import OpenAIStub

    await _memorize(services, graph.tenant, ATHENA_1, GARDEN, ATHENA_2)
    with OpenAIStub() as stub:
        settings = services.settings.model_copy(update=stub.llm_settings())
        scenes = SceneService(settings, services.embedder)
        stub.respond_with(lambda req: {"consensus": "LLM: " + json.loads(req.user_text)["topic"]}, times=2)
        await scenes.consolidate(graph)
        written = {s["consensus"] for s in await _scenes(graph)}
        assert all(c.startswith("LLM: ") for c in written), written
        prompt = json.loads(stub.requests[0].user_text)
        assert prompt["facts"] and all(not f.startswith("- ") for f in prompt["facts"])
        stub.fail_next(10, status=500)
        await scenes.consolidate(graph)
        kept = {s["id"]: s["consensus"] for s in await _scenes(graph)}
        assert all(c.startswith("- ") for c in kept.values()), kept  # the extractive one


async def test_a_scene_without_current_facts_is_still_summarised(services, graph):
    await _memorize(services, graph.tenant, ATHENA_1, GARDEN)
    garden = await _scene_of(graph, "g1")
    await graph.write("""
        MATCH (:MemScene {tenant: $tenant, id: $id})-[:INCLUDES]->(:MemCell)-[:HAS_FACT]->(f:Fact)
        SET f.status = 'superseded'""", id=garden)
    await SceneService(services.settings, services.embedder).consolidate(graph)
    scene = {s["id"]: s for s in await _scenes(graph)}[garden]
    assert scene["consensus"] == "" and scene["topic"]


TEAM = _msgs(datetime(2024, 3, 4, 9, 0, tzinfo=timezone.utc), [
    ("p1", "Jun", "Quick personal update: I moved to the Berlin office last week."),
    ("p2", "Marco", "I work at the Lisbon office, for anyone wondering about timezones."),
    ("p3", "Jun", "I work on the payments service now."),
    ("p4", "Priya", "I'm still in the London office, and I lead the platform team."),
])


async def test_a_scene_asked_for_by_one_user_holds_that_users_facts_only(services, graph):
    # A team channel: one conversation, one scene, three people. Jun's search must not answer
    # with Marco's office and Priya's team in the scene's consensus.
    team = [dict(m, user_id=m["speaker"].lower()) for m in TEAM]
    await Ingestor(services).memorize(graph.tenant, "platform", team, flush=True)
    stored = (await graph.read("MATCH (s:MemScene {tenant: $tenant}) "
                               "RETURN s.consensus AS consensus, elementId(s) AS key"))
    assert len(stored) == 1 and "Lisbon" in stored[0]["consensus"] and "Berlin" in stored[0]["consensus"]
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="which office do I work in", user_id="jun", kinds=("scene",)))
    assert [h.node["id"] for h in res.hits if h.kind == "scene"], res.rankings
    mine = res.hits[0].node["consensus"]
    assert "Berlin" in mine and "payments" in mine, mine
    assert "Lisbon" not in mine and "London" not in mine, mine
    # Unscoped, the stored consensus, everyone's.
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="which office do I work in", kinds=("scene",)))
    assert res.hits[0].node["consensus"] == stored[0]["consensus"]
