"""The write path against the real Neo4j: turns -> MemCells -> facts, entities, foresight."""
import asyncio
import contextlib
from datetime import date, datetime, timedelta, timezone

import pytest

from app.construction import ingest
from app.construction.entity_resolution import NAMED_ENTITY, normalize_key
from app.construction.ingest import LEASE, Ingestor
from app.construction.status import conversation_status
from app.construction.role_aliases import canonical_role, role_keys
from app.construction.turns import EXISTING, InputError, parse_messages, write_turns
from app.domain.models import new_id
from tests.conversation import DAY1, maya_and_sam


@pytest.fixture
async def ingestor(services):
    ing = Ingestor(services)
    yield ing
    await ing.drain()  # nothing of a test's left running into the next


async def _count(graph, label: str) -> int:
    rows = await graph.read(f"MATCH (n:{label} {{tenant: $tenant}}) RETURN count(n) AS n")
    return rows[0]["n"]


async def _cells(graph):
    return await graph.read("""
        MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
        WITH m, t ORDER BY t.seq
        RETURN m.id AS id, m.title AS title, m.summary AS summary, m.boundary AS boundary,
               collect(t.id) AS turns ORDER BY turns[0]""")


async def test_turns_become_cells_cut_at_the_day_boundary(graph, ingestor):
    rep = await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    assert rep.accepted == 9 and rep.process.pending == 0
    cells = await _cells(graph)
    covered = [t for c in cells for t in c["turns"]]
    assert covered == [f"m{i}" for i in range(1, 10)]  # every turn in exactly one cell, in order
    day2 = [c for c in cells if "m7" in c["turns"]]
    assert day2[0]["turns"] == ["m7", "m8", "m9"]  # a new calendar day starts a new cell
    assert all(c["title"] and c["summary"] for c in cells)
    pending = await graph.read("MATCH (t:Turn {tenant: $tenant, status: 'pending'}) RETURN count(t) AS n")
    assert pending[0]["n"] == 0


async def test_without_flush_the_open_cell_stays_pending_until_flushed(graph, ingestor):
    msgs = maya_and_sam()
    rep = await ingestor.memorize(graph.tenant, "c1", msgs[:8])
    assert rep.process.pending >= 1  # the day-2 tail is still open
    assert await _count(graph, "Turn") == 8
    rep = await ingestor.memorize(graph.tenant, "c1", msgs[8:], flush=True)
    assert rep.process.pending == 0
    cells = await _cells(graph)
    assert [t for c in cells for t in c["turns"]] == [f"m{i}" for i in range(1, 10)]


async def test_turns_are_chained_in_order(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam()[:4])
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam()[4:], flush=True)
    rows = await graph.read("""
        MATCH p = (a:Turn {tenant: $tenant, id: 'm1'})-[:NEXT*]->(b:Turn {tenant: $tenant, id: 'm9'})
        RETURN [n IN nodes(p) | n.id] AS ids""")
    assert rows[0]["ids"] == [f"m{i}" for i in range(1, 10)]


async def test_facts_resolve_the_speaker_and_relative_dates(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn {id: 'm3'})
        RETURN f.subject AS subject, f.text AS text, f.eventDate AS eventDate""")
    assert rows, "the turn about yesterday's visit produced no fact"
    yesterday = (DAY1 - timedelta(days=1)).date()
    dated = [r for r in rows if r["eventDate"] is not None]
    assert dated and dated[0]["eventDate"].to_native() == yesterday
    assert any(yesterday.isoformat() in r["text"] for r in rows)
    assert any(r["subject"] == "Melanie Hart" and "visited Maya" in r["text"] for r in rows)
    assert not any(" I " in f" {r['text']} " or " me " in f" {r['text']} " for r in rows)


async def test_a_replaced_fact_is_superseded_and_the_new_one_is_current(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant, subjectKey: 'maya', predicate: 'lives in'})
        OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(g:Fact)
        RETURN f.object AS object, f.status AS status, f.validTo AS validTo, g.object AS by
        ORDER BY f.validFrom""")
    by_object = {r["object"]: r for r in rows}
    assert by_object["Berlin"]["status"] == "superseded"
    assert by_object["Berlin"]["by"] == "Lisbon"
    assert by_object["Berlin"]["validTo"] is not None
    assert by_object["Lisbon"]["status"] == "current" and by_object["Lisbon"]["validTo"] is None


async def test_a_later_session_keeps_its_names_and_ends_the_old_home_and_job(graph, ingestor):
    # An assistant's user, a month apart, in two calls: the second session names Tom only first
    # in a sentence, says the move and the new job in one sentence, and a new manager.
    first = datetime(2026, 10, 5, 9, 0, tzinfo=timezone.utc)
    said = [("u1", "Maya", "user", "I just started a new job at Fernwood Analytics as a data engineer.", first),
            ("u2", "Maya", "user", "I live in Leeds with my partner Tom, he is a nurse.", first),
            ("u3", "Assistant", "assistant", "Lovely, I can look for restaurants in Leeds.", first),
            ("u3b", "Maya", "user", "My boss is Jonas Weber.", first),
            ("u4", "Maya", "user", "Update: we moved to Bristol last month and I now work at Harbourline.",
             first + timedelta(days=28)),
            ("u5", "Maya", "user", "Rainy but great. Tom found a job at Southmead Hospital.",
             first + timedelta(days=28)),
            ("u6", "Maya", "user", "My new manager is Sofia Rossi.", first + timedelta(days=28))]
    msgs = [{"id": i, "speaker": who, "role": role, "content": text, "timestamp": at + timedelta(minutes=k)}
            for k, (i, who, role, text, at) in enumerate(said)]
    await ingestor.memorize(graph.tenant, "c1", msgs[:4], flush=True)
    await ingestor.memorize(graph.tenant, "c1", msgs[4:], flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate IN ['lives in', 'works at', 'boss is']
        RETURN f.subject AS who, f.predicate AS p, f.object AS what, f.status AS status ORDER BY f.validFrom""")
    assert {(r["who"], r["p"], r["what"], r["status"]) for r in rows} == {
        ("Maya", "works at", "Fernwood Analytics", "superseded"), ("Maya", "lives in", "Leeds", "superseded"),
        ("Maya", "lives in", "Bristol", "current"), ("Maya", "works at", "Harbourline", "current"),
        ("Tom", "works at", "Southmead Hospital", "current"),
        ("Maya", "boss is", "Jonas Weber", "superseded"), ("Maya", "boss is", "Sofia Rossi", "current")}
    # The second session's Tom is the first one's: one entity, mentioned by both cells.
    tom = await graph.read("""
        MATCH (e:Entity {tenant: $tenant, key: 'tom'})<-[:MENTIONS]-(m:MemCell)-[:EVIDENCED_BY]->(t:Turn)
        RETURN e.type AS type, collect(DISTINCT t.id) AS turns""")
    assert len(tom) == 1 and tom[0]["type"] == "person" and {"u2", "u5"} <= set(tom[0]["turns"])
    # The assistant's offer is no fact.
    assert not await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.subject = 'Assistant' RETURN f")


async def _role_holders(graph) -> dict[str, list[str]]:
    rows = await graph.read("""
        MATCH (e:Entity {tenant: $tenant}) WHERE e.key IN ['jonas weber', 'sofia rossi']
        RETURN e.name AS name, e.aliases AS aliases, e.aliasKeys AS keys, e.aliasText AS text""")
    # The fulltext index reads aliasText: it must say what the aliases say.
    assert all(r["text"].split() == " ".join(r["aliases"]).split() for r in rows)
    return {r["name"]: sorted(r["keys"]) for r in rows}


async def _named(graph, name: str) -> str | None:
    rows = await graph.read(NAMED_ENTITY + " RETURN e.name AS name", key=normalize_key(name), groupId=None)
    return rows[0]["name"] if rows else None


async def test_a_role_one_person_holds_moves_its_alias_to_the_newest_holder(graph, ingestor):
    first = datetime(2026, 10, 5, 9, 0, tzinfo=timezone.utc)
    said = [("u1", "My boss Jonas Weber is strict but fair.", first),
            ("u2", "My new manager is Sofia Rossi.", first + timedelta(days=28)),
            ("u3", "My boss Sofia Rossi asked me to lead the audit.", first + timedelta(days=29))]
    msgs = [{"id": i, "speaker": "Maya", "role": "user", "content": text, "timestamp": at}
            for i, text, at in said]
    await ingestor.memorize(graph.tenant, "c1", msgs[:1], flush=True)
    assert await _role_holders(graph) == {"Jonas Weber": ["maya's boss"]}
    assert await _named(graph, "Maya's boss") == "Jonas Weber"
    # A new manager is the new boss: every word for the role goes to her, none stays on him.
    await ingestor.memorize(graph.tenant, "c1", msgs[1:2], flush=True)
    assert await _role_holders(graph) == {"Jonas Weber": [], "Sofia Rossi": ["maya's boss", "maya's manager"]}
    assert await _named(graph, "Maya's boss") == "Sofia Rossi"
    assert await _named(graph, "Maya's supervisor") is None
    # Named as the boss she already is: written (not taken for a stale resolution), nothing moves.
    await ingestor.memorize(graph.tenant, "c1", msgs[2:], flush=True)
    assert await _role_holders(graph) == {"Jonas Weber": [], "Sofia Rossi": ["maya's boss", "maya's manager"]}
    assert await _count(graph, "MemCell") == 3 and not await graph.read(
        "MATCH (t:Turn {tenant: $tenant}) WHERE t.status <> 'done' RETURN t.id")
    # Jonas is still the person he was, under his own name.
    assert await _named(graph, "Jonas Weber") == "Jonas Weber"


async def test_an_entity_under_two_surface_forms_is_one_node_with_an_audited_merge(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    rows = await graph.read("""
        MATCH (e:Entity {tenant: $tenant}) WHERE e.key STARTS WITH 'mel'
        RETURN e.name AS name, e.aliases AS aliases, e.merges AS merges, e.type AS type""")
    assert len(rows) == 1, rows
    assert rows[0]["name"] == "Melanie Hart" and rows[0]["type"] == "person"
    assert "Mel" in rows[0]["aliases"]
    assert rows[0]["merges"], "the merge of 'Mel' was not recorded"
    # the day-2 cell that only says "Mel" mentions the same node
    cells = await graph.read("""
        MATCH (m:MemCell {tenant: $tenant})-[:EVIDENCED_BY]->(:Turn {id: 'm9'})
        MATCH (m)-[:MENTIONS]->(e:Entity {name: 'Melanie Hart'}) RETURN count(*) AS n""")
    assert cells[0]["n"] == 1


async def test_a_speaker_is_the_person_of_that_name_not_a_look_alike(graph, ingestor):
    # "Dan" speaks for the first time where "Dana" is known: a nickname rule ("Mel" -> Melanie)
    # or a near vector made Dan Dana, and Dan's new city replaced hers.
    said = [("d1", "Dana", "I moved to Berlin last year."), ("d2", "Dan", "I moved to Paris last month.")]
    for k, (i, who, text) in enumerate(said):
        await ingestor.memorize(graph.tenant, f"c{k}", [{"id": i, "speaker": who, "content": text,
                                                       "timestamp": DAY1 + timedelta(days=k)}], flush=True)
    people = await graph.read("MATCH (e:Entity {tenant: $tenant, type: 'person'}) "
                              "RETURN e.key AS key, e.aliases AS aliases ORDER BY key")
    assert [(r["key"], r["aliases"]) for r in people] == [("dan", []), ("dana", [])]
    facts = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued "
                             "RETURN f.subjectKey AS who, f.objectKey AS city, f.status AS status ORDER BY who")
    assert [(r["who"], r["city"], r["status"]) for r in facts] == [("dan", "paris", "current"),
                                                                   ("dana", "berlin", "current")], facts


async def test_a_speaker_who_says_her_full_name_is_that_person_not_another_of_her_first_name(graph, ingestor):
    # "Marta" of one account is Marta Kowalski; weeks later another Marta speaks for another
    # account, saying who she is: what she says is Marta Silva's.
    said = [("c1", "Dana", "Their admin is Marta Kowalski, she's the main contact."),
            ("c1", "Marta", "Hi, Marta here. Please send me the invoice."),
            ("c2", "Marta", "Hi, this is Marta Silva from Harbor. Please email me, not Priya, she's on leave.")]
    for k, (conv, who, text) in enumerate(said):
        await ingestor.memorize(graph.tenant, conv, [{"id": f"m{k}", "speaker": who, "content": text,
                                                      "timestamp": DAY1 + timedelta(days=k)}], flush=True)
    rows = await graph.read("""MATCH (f:Fact {tenant: $tenant})-[:EVIDENCED_BY]->(:Turn {id: 'm2'})
                               MATCH (f)-[:ABOUT]->(e:Entity) RETURN DISTINCT e.name AS name""")
    names = {r["name"] for r in rows}
    assert "Marta Silva" in names and "Marta Kowalski" not in names, names


async def test_two_runs_writing_new_values_at_once_leave_one_current(graph, ingestor, monkeypatch):
    # Maya's city is stored; two conversations, processed side by side (two replicas), each
    # give a newer one, and both have their episode ready before either writes it.
    from app.store.graph import TenantGraph

    def said(i, text, day):
        return [{"id": i, "speaker": "Maya", "content": text, "timestamp": DAY1 + timedelta(days=day)}]

    await ingestor.memorize(graph.tenant, "c0", said("a", "I moved to Berlin last year.", 0), flush=True)
    real, ready, both = TenantGraph.write_tx, [], asyncio.Event()

    async def together(self, work):
        if work.__qualname__.startswith("write_batch"):
            ready.append(work)
            if len(ready) == 2:
                both.set()
            await both.wait()
        return await real(self, work)

    monkeypatch.setattr(TenantGraph, "write_tx", together)
    await asyncio.gather(
        ingestor.memorize(graph.tenant, "c1", said("b", "I moved to Paris last month.", 30), flush=True),
        ingestor.memorize(graph.tenant, "c2", said("c", "I moved to Rome last week.", 60), flush=True))
    facts = await graph.read("""MATCH (f:Fact {tenant: $tenant, subjectKey: 'maya'}) WHERE f.singleValued
                                RETURN f.objectKey AS city, f.status AS status ORDER BY f.validFrom""")
    assert [(r["city"], r["status"]) for r in facts] == [
        ("berlin", "superseded"), ("paris", "superseded"), ("rome", "current")], facts


async def test_supersession_of_one_moment_follows_the_conversation_not_the_ids(graph):
    from app.construction.supersession import plan_supersession

    for _ in range(20):  # ids are random: the order they would give changes from run to run
        facts = [{"id": new_id("f"), "singleValued": True, "subjectKey": "maya", "predicate": "lives in",
                  "objectKey": city, "validFrom": DAY1, "status": "current", "validTo": None}
                 for city in ("berlin", "paris")]
        plan = await plan_supersession(graph.read, facts)  # an empty tenant: nothing stored before
        assert [f["status"] for f in facts] == ["superseded", "current"]
        assert plan == [{"oldId": facts[0]["id"], "newId": facts[1]["id"], "at": DAY1}]


async def _timeline(graph, who="maya"):
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant, subjectKey: $who}) WHERE f.singleValued
        OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(g:Fact)
        RETURN f.objectKey AS value, f.status AS status, f.validFrom AS since, f.validTo AS until,
               collect(g.objectKey) AS by ORDER BY f.validFrom""", who=who)
    return [(r["value"], r["status"], r["since"] and r["since"].to_native(),
             r["until"] and r["until"].to_native(), r["by"]) for r in rows]


def _said(i, text, at):
    return [{"id": i, "speaker": "Maya", "content": text, "timestamp": at}]


async def test_a_value_said_twice_is_closed_whole_by_the_next_one(graph, ingestor):
    # Paris said twice was two current facts, and Berlin closed only the newer: Maya lived in
    # Paris and Berlin at once, ever after.
    for k, (text, day) in enumerate((("I live in Paris.", 0), ("I live in Paris.", 30),
                                     ("I moved to Berlin.", 60))):
        await ingestor.memorize(graph.tenant, f"c{k}", _said(f"m{k}", text, DAY1 + timedelta(days=day)),
                                flush=True)
    berlin_at = DAY1 + timedelta(days=60)
    assert await _timeline(graph) == [
        ("paris", "superseded", DAY1, berlin_at, ["berlin"]),
        ("paris", "superseded", DAY1 + timedelta(days=30), berlin_at, ["berlin"]),
        ("berlin", "current", berlin_at, None, [])]


async def test_a_late_statement_about_the_past_splits_the_interval_it_falls_into(graph, ingestor):
    # Rome, heard after Berlin but said to be from before it, overlapped Paris: asOf between
    # them gave both cities.
    for k, (text, day) in enumerate((("I live in Paris.", 0), ("I moved to Berlin.", 60),
                                     ("I moved to Rome.", 30))):
        await ingestor.memorize(graph.tenant, f"c{k}", _said(f"m{k}", text, DAY1 + timedelta(days=day)),
                                flush=True)
    rome_at, berlin_at = DAY1 + timedelta(days=30), DAY1 + timedelta(days=60)
    assert await _timeline(graph) == [
        ("paris", "superseded", DAY1, rome_at, ["rome"]),
        ("rome", "superseded", rome_at, berlin_at, ["berlin"]),
        ("berlin", "current", berlin_at, None, [])]
    rows = await graph.read("""MATCH (:Entity {tenant: $tenant, key: 'maya'})-[r:RELATED]->(e:Entity)
                               WHERE r.validFrom <= $at AND (r.validTo IS NULL OR r.validTo > $at)
                               RETURN e.key AS city""", at=DAY1 + timedelta(days=45))
    assert [r["city"] for r in rows] == ["rome"]


async def test_a_move_dated_years_ago_does_not_replace_where_one_lives_now(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c0", _said("m0", "I live in Berlin.", DAY1), flush=True)
    await ingestor.memorize(graph.tenant, "c1", _said("m1", "In 2015 I moved to Paris.",
                                                      DAY1 + timedelta(days=1)), flush=True)
    [(paris, *_), (berlin, status, *_)] = await _timeline(graph)
    assert (paris, berlin, status) == ("paris", "berlin", "current")


async def test_a_job_quit_ends_with_no_new_value_and_the_next_one_starts_clean(graph, ingestor):
    # "I quit my job" closed nothing: Acme stayed where Maya works, now and as of any later day.
    said = (("I work at Acme Corp.", 0), ("I live in Paris.", 1), ("I quit my job.", 10),
            ("I work at Globex.", 20))
    for k, (text, day) in enumerate(said):
        await ingestor.memorize(graph.tenant, f"c{k}", _said(f"m{k}", text, DAY1 + timedelta(days=day)),
                                flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant, subjectKey: 'maya'}) WHERE f.singleValued OR f.ends IS NOT NULL
        OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(g:Fact)
        RETURN f.predicate AS p, f.objectKey AS value, f.status AS status, f.validTo AS until,
               f.validFrom AS since, collect(g.predicate) AS by ORDER BY since""")
    quit_at = DAY1 + timedelta(days=10)
    assert [(r["p"], r["value"], r["status"], r["until"] and r["until"].to_native(), r["by"]) for r in rows] == [
        ("works at", "acme corp", "superseded", quit_at, ["left job at"]),
        ("lives in", "paris", "current", None, []),  # a job's end is no move
        ("left job at", "job", "current", None, []),  # that it ended stays true
        ("works at", "globex", "current", None, [])]
    related = await graph.read("""MATCH (:Entity {tenant: $tenant, key: 'maya'})-[r:RELATED]->(e:Entity)
                                  WHERE r.validFrom <= $at AND (r.validTo IS NULL OR r.validTo > $at)
                                  RETURN e.key AS key ORDER BY key""", at=quit_at + timedelta(days=5))
    assert "acme corp" not in [r["key"] for r in related]


async def test_leaving_something_else_than_the_value_ends_nothing(graph, ingestor):
    # The club was typed a place: its leaving was read as a move out of the home.
    said = (("I live in Walthamstow now.", 0), ("My coach is at Riverside Runners, a place I love.", 1),
            ("I left Riverside Runners because it's too far from Walthamstow now.", 5),
            ("I moved out of Walthamstow.", 9))
    for k, (text, day) in enumerate(said):
        await ingestor.memorize(graph.tenant, "c1", _said(f"m{k}", text, DAY1 + timedelta(days=day)), flush=True)
    rows = await graph.read("""MATCH (f:Fact {tenant: $tenant, subjectKey: 'maya', predicate: 'lives in'})
                               RETURN f.objectKey AS value, f.validTo AS until""")
    assert [(r["value"], r["until"] and r["until"].to_native()) for r in rows] == [
        ("walthamstow", DAY1 + timedelta(days=9))]  # ended by the move out of it, not by the club


async def test_a_fact_dated_by_its_day_follows_a_value_stated_that_day(graph):
    # Acme stated at 09:00; Globex "since 2024-03-04" (an LLM's bare date, 00:00) was taken for an
    # older statement arriving late and stored superseded under Acme.
    from app.construction.supersession import plan_supersession

    nine = datetime(2024, 3, 4, 9, 0, tzinfo=timezone.utc)
    await graph.write("""CREATE (:Fact {tenant: $tenant, id: $id, subjectKey: 'maya', predicate: 'works at',
                                        objectKey: 'acme', singleValued: true, status: 'current',
                                        validFrom: $at})""", id=new_id("f"), at=nine)
    day = datetime(2024, 3, 4, tzinfo=timezone.utc)
    fact = {"id": new_id("f"), "singleValued": True, "subjectKey": "maya", "predicate": "works at",
            "objectKey": "globex", "validFrom": day, "validFromUntil": day + timedelta(hours=23, minutes=59),
            "status": "current", "validTo": None}
    plan = await plan_supersession(graph.read, [fact])
    assert fact["status"] == "current" and fact["validFrom"] == nine
    assert [(p["newId"], p["at"]) for p in plan] == [(fact["id"], nine)]
    # A day before Acme's is history all the same.
    old = {**fact, "id": new_id("f"), "validFrom": day - timedelta(days=1),
           "validFromUntil": day - timedelta(minutes=1)}
    plan = await plan_supersession(graph.read, [old])
    assert old["status"] == "superseded" and old["validTo"] == nine


async def test_values_of_one_moment_keep_their_order_when_a_later_value_comes(graph):
    # Berlin then Paris, said at one moment and stored; the ids are random, and Paris's may sort
    # first: Rome, later, must end Paris only, not make Berlin end Paris.
    from app.construction.supersession import plan_supersession

    paris, berlin = f"f-a{new_id('x')}", f"f-b{new_id('x')}"
    await graph.write("""
        CREATE (b:Fact {tenant: $tenant, id: $berlin, subjectKey: 'maya', predicate: 'lives in',
                        objectKey: 'berlin', singleValued: true, status: 'superseded', validFrom: $t0,
                        validTo: $t0})
        CREATE (p:Fact {tenant: $tenant, id: $paris, subjectKey: 'maya', predicate: 'lives in',
                        objectKey: 'paris', singleValued: true, status: 'current', validFrom: $t0})
        CREATE (b)-[:SUPERSEDED_BY]->(p)""", berlin=berlin, paris=paris, t0=DAY1)
    rome = {"id": new_id("f"), "singleValued": True, "subjectKey": "maya", "predicate": "lives in",
            "objectKey": "rome", "validFrom": DAY1 + timedelta(days=1), "status": "current", "validTo": None}
    plan = await plan_supersession(graph.read, [rome])
    assert plan == [{"oldId": paris, "newId": rome["id"], "at": DAY1 + timedelta(days=1)}]


async def _prices(graph):
    rows = await graph.read("""MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued AND f.object STARTS WITH '£'
                               RETURN f.object AS value, f.status AS status ORDER BY f.statedAt""")
    return [(r["value"], r["status"]) for r in rows]


async def _say_prices(graph, ingestor, last: str, on: datetime) -> None:
    """Swallow's £120 (1 September), £95 "from 1 November" (said 8 October), then `last` `on`."""
    said = (("Swallow is £120 a night.", datetime(2026, 9, 1, 19, tzinfo=timezone.utc)),
            ("From 1 November Swallow goes down to £95 a night.", datetime(2026, 10, 8, 20, tzinfo=timezone.utc)),
            (last, on))
    for k, (text, at) in enumerate(said):
        await ingestor.memorize(graph.tenant, f"c{k}", _said(f"m{k}", text, at), flush=True)


async def test_a_value_said_for_a_day_ahead_is_revised_by_a_new_value_said_before_that_day(graph, ingestor):
    # £95 "from 1 November" (said 8 October) ended the £110 said on 29 October on 1 November:
    # timelines order values by when they hold, and the later word was lost.
    await _say_prices(graph, ingestor, "Done, Swallow is £110 a night for the winter now.",
                      datetime(2026, 10, 29, 20, tzinfo=timezone.utc))
    assert await _prices(graph) == [("£120", "superseded"), ("£95", "superseded"), ("£110", "current")]
    rows = await graph.read("""MATCH (f:Fact {tenant: $tenant, object: '£95'})-[:SUPERSEDED_BY]->(n:Fact)
                               RETURN f.validFrom.epochMillis = f.validTo.epochMillis AS never, n.object AS by""")
    assert rows == [{"never": True, "by": "£110"}]  # it never held


async def test_the_old_value_said_again_before_a_day_ahead_leaves_the_new_one_to_come(graph, ingestor):
    await _say_prices(graph, ingestor, "Swallow is £120 a night.", datetime(2026, 10, 20, 20, tzinfo=timezone.utc))
    assert await _prices(graph) == [("£120", "superseded"), ("£95", "current"), ("£120", "superseded")]


async def test_foresight_for_a_standing_constraint_and_a_dated_plan(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    rows = await graph.read("""
        MATCH (m:MemCell)-[:PREDICTS]->(f:Foresight {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn)
        RETURN f.kind AS kind, f.text AS text, f.trigger AS trigger, f.validFrom AS validFrom,
               f.validTo AS validTo, t.id AS turn""")
    allergy = [r for r in rows if r["turn"] == "m4"]
    assert allergy and allergy[0]["kind"] == "constraint" and allergy[0]["validTo"] is None
    assert "peanut" in allergy[0]["text"].lower()
    trip = [r for r in rows if r["turn"] == "m6"]
    assert trip, "no foresight for the trip next month"
    until = trip[0]["validTo"].to_native()
    assert date(2024, 4, 30) <= until.date() <= date(2024, 5, 2)  # end of April, plus grace


async def test_resending_the_same_messages_changes_nothing(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    before = {label: await _count(graph, label) for label in ("Turn", "MemCell", "Fact", "Entity", "Foresight")}
    rep = await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    after = {label: await _count(graph, label) for label in before}
    assert rep.accepted == 0 and rep.duplicates == 9
    assert after == before


async def test_the_same_message_ids_in_another_tenant_are_independent(services, ingestor, graph):
    from app.store.graph import TenantGraph

    other = TenantGraph(services.driver, graph.tenant + "_b")
    await ingestor.memorize(graph.tenant, "c1", maya_and_sam()[:3], flush=True)
    rep = await ingestor.memorize(other.tenant, "c1", maya_and_sam()[:3], flush=True)
    assert rep.accepted == 3
    assert await _count(other, "Turn") == 3 and await _count(graph, "Turn") == 3


GOOD = {"id": "x1", "speaker": "Maya", "content": "hello there", "timestamp": DAY1}


@pytest.mark.parametrize("bad, complaint", [
    ({**GOOD, "id": "x2", "content": "   "}, "content is empty"),
    ({**GOOD, "id": "x2", "content": "a" * (33 * 1024)}, "32 KB"),
    ({**GOOD, "id": "x2", "timestamp": "last tuesday-ish"}, "timestamp"),
    ({**GOOD, "id": "x2", "role": "overlord"}, "role"),
    ({**GOOD, "id": "x2", "speaker": ""}, "speaker"),
    # Spaces name no one: a forget (which refuses a blank id) could never take such a turn back.
    ({**GOOD, "id": "x2", "speaker": "   "}, "speaker"),
    ({**GOOD, "id": "x2", "user_id": " "}, "user"),
])
async def test_bad_input_names_the_message_and_writes_nothing(graph, ingestor, bad, complaint):
    with pytest.raises(InputError) as e:
        await ingestor.memorize(graph.tenant, "c1", [GOOD, bad])
    assert "messages[1]" in str(e.value) and "x2" in str(e.value)
    assert complaint in str(e.value)
    assert await _count(graph, "Turn") == 0 and await _count(graph, "Conversation") == 0


async def test_a_blank_message_id_or_conversation_id_is_refused_and_writes_nothing(graph, ingestor):
    with pytest.raises(InputError, match="blank"):
        await ingestor.memorize(graph.tenant, "c1", [GOOD, {**GOOD, "id": "  "}])
    with pytest.raises(InputError, match="conversationId must be"):
        await ingestor.memorize(graph.tenant, "  ", [GOOD])
    assert await _count(graph, "Turn") == 0 and await _count(graph, "Conversation") == 0


async def test_a_duplicate_id_with_different_content_is_refused(graph, ingestor):
    await ingestor.memorize(graph.tenant, "c1", [GOOD])
    with pytest.raises(InputError, match="already stored with different content"):
        await ingestor.memorize(graph.tenant, "c1", [{**GOOD, "content": "changed"},
                                                     {**GOOD, "id": "x3"}])
    assert await _count(graph, "Turn") == 1
    with pytest.raises(InputError, match="repeated in the batch"):
        await ingestor.memorize(graph.tenant, "c2", [GOOD, {**GOOD, "content": "other"}])



@pytest.mark.parametrize("change", [{"timestamp": GOOD["timestamp"] + timedelta(hours=1)}, {"role": "assistant"},
                                    {"user_id": "u-other"}])
async def test_a_duplicate_id_with_another_time_role_or_user_is_refused(graph, ingestor, change):
    # It was counted a duplicate and the stored one kept, silently.
    await ingestor.memorize(graph.tenant, "c1", [{**GOOD, "user_id": "u-1"}])
    with pytest.raises(InputError, match="different timestamp, role or userId"):
        await ingestor.memorize(graph.tenant, "c1", [{**GOOD, "user_id": "u-1", **change}])
    # The same message again, or without its user, is the duplicate it is.
    for same in ({**GOOD, "user_id": "u-1"}, GOOD):
        assert (await ingestor.memorize(graph.tenant, "c1", [same])).duplicates == 1


@pytest.mark.parametrize("first_group", [None, "g1"])
async def test_a_conversation_keeps_its_group_and_a_call_naming_another_writes_nothing(graph, ingestor,
                                                                                       first_group):
    await ingestor.memorize(graph.tenant, "c1", [GOOD], group_id=first_group)
    with pytest.raises(InputError, match="without a group" if first_group is None else "another group") as e:
        await ingestor.memorize(graph.tenant, "c1", [{**GOOD, "id": "x3"}], group_id="g2")
    assert e.value.field == "groupId"
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id, t.groupId AS g")
    assert rows == [{"id": GOOD["id"], "g": first_group}]
    # Naming no group, or its own, is fine.
    await ingestor.memorize(graph.tenant, "c1", [{**GOOD, "id": "x4"}], group_id=first_group)
    assert await _count(graph, "Turn") == 2


async def test_a_call_that_looked_before_another_group_was_stored_writes_nothing(graph, services):
    # Two first calls naming different groups both look before either writes; the second to
    # write (write_turns, past memorize's look) must be refused under the conversation's lock.
    parse = lambda ms: parse_messages(ms, services.settings.max_message_bytes)  # noqa: E731
    await write_turns(graph, "c1", "g1", parse([GOOD]), services.settings.ingest_chunk)
    with pytest.raises(InputError, match="another group") as e:
        await write_turns(graph, "c1", "g2", parse([{**GOOD, "id": "x3"}]), services.settings.ingest_chunk)
    assert e.value.field == "groupId"
    rows = await graph.read("""
        MATCH (c:Conversation {tenant: $tenant})-[:HAS_TURN]->(t:Turn)
        RETURN c.groupId AS c, collect(t.id) AS turns, collect(DISTINCT t.groupId) AS groups""")
    assert rows == [{"c": "g1", "turns": [GOOD["id"]], "groups": ["g1"]}]


async def test_flushing_a_conversation_that_has_no_turns_is_a_clear_error(graph, ingestor):
    with pytest.raises(InputError, match="nothing to flush") as e:
        await ingestor.memorize(graph.tenant, "never-seen", [], flush=True)
    assert e.value.field == "conversationId"
    assert await _count(graph, "Conversation") == 0


async def test_messages_stored_meanwhile_by_another_call_are_a_clear_error(graph, ingestor, services,
                                                                           monkeypatch):
    await ingestor.memorize(graph.tenant, "c1", [GOOD])
    # Another call's write lands between this call's look at the stored ids and its own write.
    real = graph.read

    async def before_the_other(query, **params):
        return [] if query is EXISTING else await real(query, **params)

    monkeypatch.setattr(graph, "read", before_the_other)
    parsed = parse_messages([GOOD, {**GOOD, "id": "x5"}], services.settings.max_message_bytes)
    with pytest.raises(InputError, match="stored meanwhile by another call") as e:
        await write_turns(graph, "c1", None, parsed, services.settings.ingest_chunk)
    assert e.value.field == "messages"
    monkeypatch.undo()
    assert await _count(graph, "Turn") == 1  # the chunk went back whole: no x5 without x1


async def test_too_many_messages_in_one_call_is_a_clear_error(graph, ingestor, services):
    limit = services.settings.max_messages_per_call
    msgs = [{**GOOD, "id": f"b{i}", "timestamp": DAY1 + timedelta(seconds=i)} for i in range(limit + 1)]
    with pytest.raises(InputError, match=f"limit is {limit}"):
        await ingestor.memorize(graph.tenant, "c1", msgs)
    assert await _count(graph, "Turn") == 0


async def test_a_large_batch_is_written_in_bounded_chunks(graph, services):
    from app.construction.turns import parse_messages, write_turns

    msgs = parse_messages([{**GOOD, "id": f"b{i}", "timestamp": DAY1 + timedelta(seconds=i)}
                           for i in range(1200)], 32 * 1024)
    written = await write_turns(graph, "c1", None, msgs, chunk=500)
    assert len(written.new) == 1200
    rows = await graph.read("""
        MATCH (c:Conversation {tenant: $tenant, id: 'c1'})-[:HAS_TURN]->(t:Turn)
        RETURN count(t) AS n, max(t.seq) AS last, c.lastSeq AS lastSeq""")
    assert rows[0]["n"] == 1200 and rows[0]["last"] == 1199 == rows[0]["lastSeq"]
    chain = await graph.read("MATCH (:Turn {tenant: $tenant})-[r:NEXT]->() RETURN count(r) AS n")
    assert chain[0]["n"] == 1199  # chained across chunk borders


async def test_turns_stored_but_never_processed_are_taken_up_by_the_retry(graph, ingestor, services):
    # A crash right after the turns were stored (a call with wait: false, the server stopped
    # before its run): no run looked at them, none recorded an error.
    parsed = parse_messages(maya_and_sam(), services.settings.max_message_bytes)
    await write_turns(graph, "c1", None, parsed, services.settings.ingest_chunk)
    await ingestor.retry_failed_everywhere()
    # Just stored: their own run may still be on its way; the retry leaves them.
    assert await _count(graph, "MemCell") == 0
    await graph.write("MATCH (t:Turn {tenant: $tenant}) SET t.receivedAt = datetime() - duration('PT1H')")
    await ingestor.retry_failed_everywhere()
    status = {r["id"]: r["status"] for r in await graph.read(
        "MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id, t.status AS status")}
    # The first day became its episode; the second waits for more turns (no flush), as it would.
    assert {i for i, s in status.items() if s == "done"} == {f"m{i}" for i in range(1, 7)}
    assert {i for i, s in status.items() if s == "pending"} == {"m7", "m8", "m9"}
    assert await _count(graph, "MemCell") == 1


async def test_a_shutdown_past_its_deadline_leaves_the_rest_to_the_next_start(graph, services):
    # A long backlog took 50 s to drain at shutdown, past an orchestrator's grace period; cut
    # short, the turns only stored would have waited for the retry until 10 minutes old.
    from app.store.admin import conversations_with_failed_turns

    ing = Ingestor(services)
    for c in ("c1", "c2"):
        msgs = [{**GOOD, "id": f"{c}-{k}", "content": f"I moved to Porto in {2000 + k}.",
                 "timestamp": GOOD["timestamp"] + timedelta(minutes=k)} for k in range(5)]
        await ing.memorize(graph.tenant, c, msgs, flush=True, wait=False)
    await ing.shut_down(0)
    assert not ing.queue.conversations() and not ing._later
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant, status: 'pending'}) "
                            "RETURN DISTINCT t.conversationId AS c")
    left = {r["c"] for r in rows}
    assert "c2" in left  # its run had not begun
    found = {c for t, c, _ in await conversations_with_failed_turns(services.driver, ingest.UNSEEN_S)
             if t == graph.tenant}
    assert left <= found
    # The next start's retry (the same query) takes them up: here, that tenant's.
    for c in sorted(left):
        await Ingestor(services).process(graph.tenant, c, flush=True)
    assert not await graph.read("MATCH (t:Turn {tenant: $tenant, status: 'pending'}) RETURN t.id")


async def test_a_conversation_idle_for_its_time_has_its_pending_turns_flushed(graph, ingestor, services):
    # An agent sending each turn alone, without flush: the rest of a session waited for a next
    # turn that never came, and nothing of it became a fact or a constraint.
    from app.store.admin import conversations_with_failed_turns

    said = [{**GOOD, "id": f"i{k}", "content": text, "timestamp": GOOD["timestamp"] + timedelta(minutes=k)}
            for k, text in enumerate(["I'm allergic to peanuts.", "Never book me flights before 9am."])]
    for m in said:
        await ingestor.memorize(graph.tenant, "idle", [m])  # one turn a call, no flush
    await ingestor.memorize(graph.tenant, "busy", [{**GOOD, "id": "b1", "content": "I moved to Leeds."}])
    assert await _count(graph, "MemCell") == 0
    await graph.write("MATCH (t:Turn {tenant: $tenant, conversationId: 'idle'}) "
                      "SET t.receivedAt = datetime() - duration('PT1H')")
    found = {c: upto for t, c, upto in await conversations_with_failed_turns(
        services.driver, ingest.UNSEEN_S, idle_for_s=1800) if t == graph.tenant}
    assert found == {"idle": 1}  # flushed to its last turn; "busy" had a turn a moment ago
    assert not [c for t, c, _ in await conversations_with_failed_turns(services.driver, ingest.UNSEEN_S)
                if t == graph.tenant]  # idle_for_s 0: no idle flush
    await ingestor.process(graph.tenant, "idle", flush=True, upto_seq=found["idle"])
    assert await _count(graph, "MemCell") == 1
    kinds = {r["k"] for r in await graph.read("MATCH (f:Foresight {tenant: $tenant}) RETURN f.kind AS k")}
    assert "constraint" in kinds


async def test_the_retry_takes_tenants_in_turn_and_past_a_conversation_that_fails(services, ingestor):
    from app.store.admin import conversations_with_failed_turns
    from app.store.graph import TenantGraph

    a, b = (TenantGraph(services.driver, f"t_{new_id('x')[-12:].lower()}") for _ in range(2))
    for graph, convs in ((a, ("a1", "a2", "a3")), (b, ("b1",))):
        for c in convs:
            parsed = parse_messages([{**GOOD, "id": f"{c}-1"}], services.settings.max_message_bytes)
            await write_turns(graph, c, None, parsed, services.settings.ingest_chunk)
        await graph.write("MATCH (t:Turn {tenant: $tenant}) SET t.receivedAt = datetime() - duration('PT1H')")
        # as flush calls whose runs died would leave them: the retry closes their episodes
        await graph.write("MATCH (c:Conversation {tenant: $tenant}) SET c.flushUpto = c.lastSeq")
    order = [(t, c) for t, c, _ in await conversations_with_failed_turns(services.driver, 60)]
    # One tenant's many conversations do not all come before another's first.
    assert order.index((b.tenant, "b1")) < order.index((a.tenant, "a2"))

    real = ingestor.process

    async def broken_for_a1(tenant, conversation_id, *args, **kw):
        if (tenant, conversation_id) == (a.tenant, "a1"):
            raise RuntimeError("Neo4j went away for a moment")
        return await real(tenant, conversation_id, *args, **kw)

    ingestor.process = broken_for_a1
    await ingestor.retry_failed_everywhere()
    pending = {(r["c"], r["s"]) for g in (a, b) for r in await g.read(
        "MATCH (t:Turn {tenant: $tenant}) RETURN t.conversationId AS c, t.status AS s")}
    assert ("a1", "pending") in pending and ("b1", "pending") not in pending, pending


class _TriesTheLeaseLate:
    """A slow extraction (an LLM's, of a long backlog): while the first episode is extracted,
    longer than the run's lease, another run tries to take the conversation."""

    def __init__(self, inner, graph, wait_s: float):
        self.inner, self.graph, self.wait_s, self.taken = inner, graph, wait_s, None
        self.name = inner.name

    async def extract(self, turns, known=()):
        if self.taken is None:
            await asyncio.sleep(self.wait_s)
            self.taken = bool(await self.graph.write(LEASE, conversationId="c1", token="another run",
                                                     seconds=60))
        return await self.inner.extract(turns, known)


async def test_a_run_keeps_its_conversation_while_it_works_longer_than_its_lease(graph, ingestor,
                                                                                 monkeypatch):
    monkeypatch.setattr(ingest, "RUN_LEASE_S", 2)
    slow = _TriesTheLeaseLate(ingestor.pipeline.extractor, graph, wait_s=3.5)
    ingestor.pipeline.extractor = slow
    report = await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    assert slow.taken is False
    assert report.process.cells == 2 and not report.process.errors, report.process
    # Released when the run ended: the next one takes it.
    assert await graph.write(LEASE, conversationId="c1", token="next run", seconds=60)


class _FailsOnce:
    """An extractor that fails unexpectedly once (not an ExtractionError: a bug, a reply it
    could not take apart), then works."""

    def __init__(self, inner):
        self.inner, self.failed = inner, False
        self.name = inner.name

    async def extract(self, turns, known=()):
        if not self.failed:
            self.failed = True
            raise ValueError("year 0 is out of range")
        return await self.inner.extract(turns, known)


@pytest.mark.parametrize("retry", ["periodic", "engram retry"])
async def test_an_unexpected_extraction_error_is_recorded_and_retried(graph, ingestor, retry):
    ingestor.pipeline.extractor = _FailsOnce(ingestor.pipeline.extractor)
    report = await ingestor.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    assert report.process.failed_cells == 1 and "ValueError: year 0" in report.process.errors[0]
    errors = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.status AS s, t.error AS e")
    assert {r["s"] for r in errors} == {"pending"} and all("year 0" in r["e"] for r in errors)
    if retry == "periodic":
        await ingestor.retry_failed_everywhere()
    else:
        await ingestor.retry(graph.tenant)  # without --flush
    # Both days are episodes now: the retry flushes what the call asked to flush.
    assert await _count(graph, "MemCell") == 2
    status = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN collect(DISTINCT t.status) AS s")
    assert status[0]["s"] == ["done"]


async def test_the_turns_of_a_run_that_died_are_taken_up_by_the_retry(graph, ingestor, services):
    day1 = [m for m in maya_and_sam() if m["timestamp"].date() == DAY1.date()]
    day2 = [m for m in maya_and_sam() if m["timestamp"].date() != DAY1.date()]
    await ingestor.memorize(graph.tenant, "c1", day1)  # day one waits for more, its vectors saved
    # The next call's run was killed while it extracted day one (now closed by day two): its
    # turns stored, its lease never released, nothing recorded.
    await write_turns(graph, "c1", None, parse_messages(day2, services.settings.max_message_bytes),
                      services.settings.ingest_chunk)
    await graph.write(LEASE, conversationId="c1", token="a run that died", seconds=60)
    await ingestor.retry_failed_everywhere()
    assert await _count(graph, "MemCell") == 0  # its lease still runs: the run may be alive
    await graph.write("MATCH (c:Conversation {tenant: $tenant}) SET c.leaseUntil = datetime() - duration('PT1M')")
    await ingestor.retry_failed_everywhere()
    status = {r["id"]: r["status"] for r in await graph.read(
        "MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id, t.status AS status")}
    assert {i for i, s in status.items() if s == "done"} == {m["id"] for m in day1}
    assert {i for i, s in status.items() if s == "pending"} == {m["id"] for m in day2}  # waits, as it would


async def test_an_episode_of_turns_sent_out_of_order_spans_their_earliest_to_latest(graph, ingestor):
    said = [("o1", 5, "We should plan the garden this weekend."), ("o2", 0, "Tomatoes need sun all day."),
            ("o3", 10, "Then the south bed gets the tomatoes.")]
    await ingestor.memorize(graph.tenant, "c1", [
        {"id": i, "speaker": "Maya", "content": c, "timestamp": DAY1 + timedelta(minutes=m)} for i, m, c in said],
        flush=True)
    rows = await graph.read("MATCH (m:MemCell {tenant: $tenant}) RETURN m.startedAt AS s, m.endedAt AS e")
    assert [(r["s"].to_native(), r["e"].to_native()) for r in rows] == [(DAY1, DAY1 + timedelta(minutes=10))]


async def test_two_roles_changing_hands_in_one_episode_each_move_alone(graph, ingestor):
    first = datetime(2026, 10, 5, 9, 0, tzinfo=timezone.utc)
    said = [("u1", "Maya", "My boss Jonas Weber is strict.", first),
            ("u2", "Tom", "My boss Sofia Rossi is kind.", first + timedelta(minutes=1)),
            ("u3", "Maya", "My new manager is Sofia Rossi.", first + timedelta(days=28)),
            ("u4", "Tom", "My new manager is Jonas Weber.", first + timedelta(days=28, minutes=1))]
    msgs = [{"id": i, "speaker": who, "role": "user", "content": text, "timestamp": at}
            for i, who, text, at in said]
    await ingestor.memorize(graph.tenant, "c1", msgs[:2], flush=True)
    assert await _role_holders(graph) == {"Jonas Weber": ["maya's boss"], "Sofia Rossi": ["tom's boss"]}
    # Each takes the other's: what one takes is not taken back by the other's move.
    await ingestor.memorize(graph.tenant, "c1", msgs[2:], flush=True)
    assert await _role_holders(graph) == {"Jonas Weber": ["tom's boss", "tom's manager"],
                                          "Sofia Rossi": ["maya's boss", "maya's manager"]}


def test_only_a_role_one_person_holds_names_its_other_words():
    assert role_keys("maya's manager") == {"maya's boss", "maya's manager", "maya's supervisor"}
    assert role_keys("tom's mum") >= {"tom's mother", "tom's mum", "tom's mom"}
    assert canonical_role("tom's mum") == "tom's mother"
    # Several may be someone's sister, dog or friend at once; a name is no role.
    assert role_keys("maya's sister") == role_keys("maya's dog") == role_keys("jonas weber") == frozenset()


async def test_a_post_held_at_a_named_place_is_a_job_there_and_a_new_one_begins_on_its_day(graph, ingestor):
    # A caregiver's session (36): "I work as a nurse at St. Mary's" was a job and no workplace, so
    # her notice there ended nothing; the new job "on January 4th" began the day it was said.
    first = datetime(2026, 10, 20, 19, 0, tzinfo=timezone.utc)
    said = [("p1", "I work as a nurse at St. Mary's Hospital, mostly night shifts.", first),
            ("p2", "I start at Edison Family Clinic as a day-shift nurse manager on January 4th.",
             first + timedelta(days=31)),
            ("p3", "I handed in my notice at St. Mary's Hospital today.", first + timedelta(days=31, minutes=1))]
    msgs = [{"id": i, "speaker": "Priya", "role": "user", "content": text, "timestamp": at} for i, text, at in said]
    await ingestor.memorize(graph.tenant, "c1", msgs[:1], flush=True)
    await ingestor.memorize(graph.tenant, "c2", msgs[1:], flush=True)
    rows = {r["what"]: r for r in await graph.read("""
        MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate IN ['works at', 'job is']
        RETURN f.object AS what, f.predicate AS p, f.validFrom AS since, f.validTo AS until""")}
    assert rows["nurse"]["p"] == "job is" and rows["nurse"]["until"] is None  # still a nurse
    assert rows["St. Mary's Hospital"]["until"] is not None  # ended by the notice
    assert rows["Edison Family Clinic"]["since"].to_native().date() == datetime(2027, 1, 4).date()


async def test_a_conversation_a_dead_run_holds_is_taken_over_when_its_lease_runs_out(graph, ingestor):
    # A server killed mid-run leaves its lease: the conversation waits until it runs out (it
    # waited for the next periodic retry after that, 5 minutes), and says a run holds it.
    said = maya_and_sam()
    await ingestor.memorize(graph.tenant, "c1", said[:1])  # waits for more
    await graph.write(LEASE, conversationId="c1", token="a run that died", seconds=3)
    report = await ingestor.memorize(graph.tenant, "c1", said[1:], flush=True)
    assert report.accepted == len(said) - 1 and report.process.cells == 0
    assert any("processed elsewhere" in e for e in report.process.errors)
    held = await conversation_status(graph, "c1")
    assert held["pending"] == len(said) and held["processingUntil"] is not None
    for _ in range(40):
        await asyncio.sleep(0.5)
        # (the run writes its cells, then lets its lease go: both, or a loaded machine fails it)
        if (s := await conversation_status(graph, "c1"))["pending"] == 0 and s["processingUntil"] is None:
            break
    now = await conversation_status(graph, "c1")
    assert (now["pending"], now["memCells"], now["processingUntil"]) == (0, 2, None)


async def test_text_is_stored_in_one_spelling_so_a_name_with_a_combining_mark_is_that_name(graph, ingestor):
    # "Zoe" and a combining diaeresis, or "Zoë" and a zero-width space, is Zoë: the allergy went
    # to the speaker, José, when the name was not read as one.
    await ingestor.memorize(graph.tenant, "c1", [
        {"id": "z1", "speaker": "Jose\u0301", "content": "Zoe\u0308 is allergic to peanuts.", "timestamp": DAY1},
        {"id": "z2", "speaker": "José", "content": "Zoë\u200b is vegan too.",
         "timestamp": DAY1 + timedelta(minutes=1)},
    ], flush=True)
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.speaker AS s, t.content AS c ORDER BY t.id")
    assert [(r["s"], r["c"]) for r in rows] == [("José", "Zoë is allergic to peanuts."),
                                                ("José", "Zoë is vegan too.")]
    concerns = await graph.read("MATCH (f:Foresight {tenant: $tenant})-[:CONCERNS]->(e:Entity) "
                                "RETURN f.text AS text, e.name AS who")
    assert concerns and all(r["who"] == "Zoë" for r in concerns), concerns
    with pytest.raises(InputError):
        await ingestor.memorize(graph.tenant, "c1", [{"id": "z3", "speaker": "\u200b", "content": "hi",
                                                       "timestamp": DAY1 + timedelta(minutes=2)}])


async def test_a_run_cancelled_midway_leaves_its_conversation_to_the_retry_at_once(graph, services):
    # Cancelled (a shutdown's drain cut short), the run removed its lease as a finished run does:
    # its turns then waited UNSEEN_S (10 minutes) for the retry, when the shutdown's own marking
    # of the conversation came first.
    from app.store.admin import conversations_with_failed_turns

    ing = Ingestor(services)
    msgs = [{**GOOD, "id": f"x-{k}", "content": f"I moved to Porto in {2000 + k}.",
             "timestamp": GOOD["timestamp"] + timedelta(minutes=k)} for k in range(5)]
    await ing.memorize(graph.tenant, "cx", msgs, wait=False)
    await ing.drain()  # stored and maybe processed up to the open end; the flush is what runs now
    run = asyncio.create_task(ing.process(graph.tenant, "cx", flush=True))
    # until the run holds its lease (a deadline, not a count of tries: on a loaded machine two seconds had
    # passed before it took it, and the run was cancelled before it began)
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline and not run.done():
        if await graph.read("MATCH (c:Conversation {tenant: $tenant, id: 'cx'}) WHERE c.leaseUntil > datetime() "
                            "RETURN c.id"):
            break
        await asyncio.sleep(0.005)
    run.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await run
    pending = await graph.read(
        "MATCH (t:Turn {tenant: $tenant, conversationId: 'cx', status: 'pending'}) RETURN t.id")
    found = {c for t, c, _ in await conversations_with_failed_turns(services.driver, ingest.UNSEEN_S)
             if t == graph.tenant}
    assert not pending or "cx" in found, (pending, found)
