"""A thing or an attribute named shorter than before is the same one (construction/short_names.py):
"New shed code: 9032" and "the code ... 1188 now" after "The shed lock code is 4471" end the
values before; "my goal" after "my savings goal" too. Local extractor, the real Neo4j."""
from datetime import datetime, timedelta, timezone

from app.construction.ingest import Ingestor
from app.construction.short_names import _shortens
from app.store.migrations import load_migrations
from tests.conversation import DAY1, tell_days

NOV = datetime(2026, 11, 2, 10, 0, tzinfo=timezone.utc)  # a Monday


async def _tell(services, graph, said, group="allotment"):
    ingestor = Ingestor(services)
    for day in sorted({d for d, _, _ in said}):
        await ingestor.memorize(graph.tenant, f"c{day}", [
            {"id": f"m{i}", "speaker": who, "content": text, "timestamp": DAY1 + timedelta(days=d, minutes=i)}
            for i, (d, who, text) in enumerate(said) if d == day], group_id=group, flush=True)


async def _values(graph, where: str, **params) -> list[tuple[str, str, str]]:
    rows = await graph.read(f"MATCH (f:Fact {{tenant: $tenant}}) WHERE {where} "
                            "RETURN f.subjectKey AS k, f.object AS v, f.status AS s ORDER BY f.validFrom", **params)
    return [(r["k"], r["v"], r["s"]) for r in rows]


async def test_a_thing_named_shorter_each_time_is_one_timeline(services, graph):
    await _tell(services, graph, [
        (0, "Dev", "The shed lock code is 4471."),
        (10, "Dev", "New shed code: 9032"),
        (20, "Dev", "changed the code again, it's 1188 now")])
    assert await _values(graph, "f.predicate = 'is' AND f.object IN ['4471', '9032', '1188']") == [
        ("shed lock code@allotment", "4471", "superseded"), ("shed lock code@allotment", "9032", "superseded"),
        ("shed lock code@allotment", "1188", "current")]


async def test_a_short_name_two_things_end_in_is_neither_and_another_group_is_apart(services, graph):
    await _tell(services, graph, [
        (0, "Dev", "The shed code is 4471. The gate code is 2020."),
        (3, "Margaret", "The shed code is 5555.")])
    await _tell(services, graph, [(1, "Ana", "The wifi code is 7777.")], group="other-site")
    await _tell(services, graph, [(5, "Dev", "The code is 1111 now.")])
    await _tell(services, graph, [(6, "Ana", "The code is 3333 now.")], group="other-site")
    assert await _values(graph, "f.object IN ['1111', '3333']") == [
        ("code@allotment", "1111", "current"), ("wifi code@other-site", "3333", "current")]
    assert await _values(graph, "f.subjectKey = 'gate code@allotment'") == [
        ("gate code@allotment", "2020", "current")]
    assert await _values(graph, "f.subjectKey = 'shed code@allotment'") == [
        ("shed code@allotment", "4471", "superseded"), ("shed code@allotment", "5555", "current")]


async def test_a_things_day_said_by_a_shorter_name_moves_it(services, graph):
    await _tell(services, graph, [
        (0, "Margaret", "I booked the Hedges Farm manure delivery for Saturday 10 October."),
        (20, "Dev", "The manure delivery is moved to Saturday 17 October.")])
    days = await _values(graph, "f.predicate = 'date is'")
    assert [(v, s) for _, v, s in days] == [("2024-10-10", "superseded"), ("2024-10-17", "current")], days
    assert {k for k, _, _ in days} == {"hedges farm manure delivery@allotment"}


async def test_a_short_name_with_a_value_of_another_kind_is_not_the_long_ones(services, graph):
    await _tell(services, graph, [
        (0, "Kofi", "The pitch fee is £35 a time."),
        (5, "Hannah", "I rang SumUp and they've dropped our fee to 1.69%")])
    assert await _values(graph, "f.predicate = 'is' AND f.singleValued") == [
        ("pitch fee@allotment", "£35", "current"), ("fee@allotment", "1.69%", "current")]


async def test_an_attribute_named_shorter_is_the_one_said_before(services, graph):
    await _tell(services, graph, [
        (0, "Dana", "My savings goal is £6,000 by Christmas. My monthly rent is £1,210."),
        (9, "Dana", "My goal is £4,500 now, after the boiler.")], group=None)
    goals = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.object STARTS WITH '£' "
                             "AND f.predicate ENDS WITH 'goal is' RETURN f.predicate AS p, f.status AS s "
                             "ORDER BY f.validFrom")
    assert [(r["p"], r["s"]) for r in goals] == [("savings goal is", "superseded"), ("savings goal is", "current")]
    # what one sentence says twice, short and long ("monthly rent is", "rent is"), stays two timelines
    rents = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate ENDS WITH 'rent is' "
                             "RETURN f.predicate AS p, f.status AS s ORDER BY p")
    assert [(r["p"], r["s"]) for r in rents] == [("monthly rent is", "current"), ("rent is", "current")]


async def test_the_migrations_give_a_value_or_a_day_written_before_them_its_head(services, graph):
    await _tell(services, graph, [(0, "Dev", "The shed lock code is 4471."),
                                  (0, "Dev", "The manure delivery is on Saturday 12 October.")])
    await graph.write("MATCH (f:Fact {tenant: $tenant}) REMOVE f.subjectHead")
    async with services.driver.session() as s:
        for mig in [m for m in load_migrations() if m.name.startswith(("0020_", "0021_"))]:
            for stmt in mig.statements():
                await (await s.run(stmt, tenant=graph.tenant)).consume()
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued "
                            "RETURN f.predicate AS p, f.subjectHead AS h ORDER BY p")
    assert [(r["p"], r["h"]) for r in rows] == [("date is", "delivery@allotment"), ("is", "code@allotment")]


async def test_a_release_date_moved_in_a_later_episode_ends_the_plan_of_the_first(services, graph):
    await _tell(services, graph, [
        (0, "Ines", "we're on Godot 4.3, release target is March 12 2027 on Steam."),
        (20, "Ines", "Brightmoss wants the release moved. new date is April 23 2027")])
    dates = await _values(graph, "f.predicate = 'date is'")
    assert [(v, s) for _, v, s in dates] == [("2027-03-12", "superseded"), ("2027-04-23", "current")]
    [old] = await graph.read("MATCH (x:Foresight {tenant: $tenant}) WHERE x.text CONTAINS '2027-03-12' "
                             "RETURN x.validTo AS validTo")
    assert old["validTo"].to_native() == DAY1 + timedelta(days=20, minutes=1)  # over when the new day was said


def test_a_qualified_name_is_another_value_not_a_longer_name():
    assert _shortens(("code",), ("shed", "lock", "code")) and _shortens(("goal",), ("savings", "goal"))
    assert not _shortens(("weight",), ("target", "weight"))
    assert not _shortens(("heart", "rate"), ("max", "heart", "rate"))
    assert not _shortens(("code",), ("door", "codes"))  # not the same last word


async def test_a_things_day_moved_twice_said_with_its_owners_possessive_or_without_is_one_timeline(services, graph):
    await _tell(services, graph, [
        (0, "Dev", "Booked the Luton's MOT for Friday 11 October at Dalston Motors, 8am drop off"),
        (8, "Dev", "oh and the Luton MOT moved, Dalston Motors have a ramp problem. its now friday 18 october"),
        (14, "Dev", "Dalston Motors rang AGAIN, the tester is off sick. Luton MOT is now Wednesday 23 October")],
        group="removals")
    days = await _values(graph, "f.predicate = 'date is'")
    assert [(v, s) for _, v, s in days] == [
        ("2024-10-11", "superseded"), ("2024-10-18", "superseded"), ("2024-10-23", "current")], days
    chain = await graph.read("MATCH (a:Fact {tenant: $tenant, predicate: 'date is'})-[:SUPERSEDED_BY]->(b) "
                             "RETURN a.object AS a, b.object AS b ORDER BY a")
    assert [(r["a"], r["b"]) for r in chain] == [("2024-10-11", "2024-10-18"), ("2024-10-18", "2024-10-23")]


async def test_what_someone_wants_by_an_earlier_day_ends_the_deadline_before(services, graph):
    await _tell(services, graph, [
        (0, "Marta", "Fiona Gallagher is our accountant. and she wants all the receipts by 15 December"),
        (14, "Marta", "also Fiona wants the receipts earlier now, by 8 December")], group="removals")
    days = await _values(graph, "f.predicate = 'is' AND f.subjectKey = 'receipts due date@removals'")
    assert [(v, s) for _, v, s in days] == [("2024-12-15", "superseded"), ("2024-12-08", "current")], days
    active = await graph.read("MATCH (fs:Foresight {tenant: $tenant, kind: 'deadline'}) "
                              "WHERE fs.endedAt IS NULL RETURN fs.text AS text")
    assert [r["text"] for r in active] == [
        "Fiona wants the receipts earlier now, by 2024-12-08 (8 December)."], active  # (the first ended)


async def test_a_replacement_found_and_named_next_takes_over_the_post(services, graph):
    await _tell(services, graph, [
        (0, "Ruth", "And our accompanist is Jonathan Pike, he's been with us 6 years"),
        (30, "Elena", "Found Jonathan's replacement! Priya Nair, she accompanies the Bellfield Operatic Society. "
                      "She starts on Thursday 5 November")], group="choir")
    held = await _values(graph, "f.subjectKey = 'accompanist@choir'")
    assert [(v, s) for _, v, s in held] == [("Jonathan Pike", "superseded"), ("Priya Nair", "current")], held


async def test_an_install_said_with_its_firm_then_moved_by_its_name_alone_is_one_day(services, graph):
    # Walk-through 118: "the Wildanet install is Wednesday the 4th of November", then "Wildanet rang, they need
    # to move the install to Monday the 9th": an install was no event, its day no event day, and both stayed
    await _tell(services, graph, [
        (0, "Helen", "Broadband is booked by the way, the Wildanet install is Wednesday the 4th of November"),
        (12, "Helen", "Wildanet rang, they need to move the install to Monday 9th November, the engineer's off sick")])
    days = await _values(graph, "f.predicate = 'date is'")
    assert [(k, v, s) for k, v, s in days] == [("wildanet install@allotment", "2024-11-04", "superseded"),
                                               ("wildanet install@allotment", "2024-11-09", "current")], days


async def test_an_event_said_without_its_tail_is_the_one_with_it(services, graph):
    """"Let's move the recce to Sunday 15 November" after "The recce ride is on Saturday 14
    November" had been a day of its own, the ride's staying current (session 63); "the kit fitting" is
    the kit fitting session; a ride of another name is not the recce's."""
    await tell_days(services, graph, [
        (0, "Jo", "The recce ride is on Saturday 14 November 2026."),
        (0, "Jo", "The kit fitting session is on Friday 20 November 2026."),
        (0, "Jo", "The charity ride is on Sunday 29 November 2026."),
        (1, "Jo", "Let's move the recce to Sunday 15 November 2026, the forecast is awful."),
        (1, "Jo", "The kit fitting has been moved to Friday 27 November 2026.")], group="allotment", start=NOV)
    days = await _values(graph, "f.predicate = 'date is'")
    assert days == [("recce ride@allotment", "2026-11-14", "superseded"),
                    ("kit fitting session@allotment", "2026-11-20", "superseded"),
                    ("charity ride@allotment", "2026-11-29", "current"),
                    ("recce ride@allotment", "2026-11-15", "current"),
                    ("kit fitting session@allotment", "2026-11-27", "current")], days


def test_a_tail_is_left_out_only_of_an_events_day():
    assert _shortens(("recce",), ("recce", "ride"), day=True)
    assert not _shortens(("recce",), ("recce", "ride"))
    assert not _shortens(("ride",), ("recce",), day=True)


async def test_a_booking_named_with_its_day_after_a_comma_is_moved_by_its_short_name(services, graph):
    # walk-through 120: "Sophie Lin's 40th birthday party, two weeks today at The Granary, £500", then "The party's
    # moved to the 19th" (both "said" facts; the plan of the 12th stayed)
    await tell_days(services, graph, [
        (0, "Tom", "New booking came in this morning too. Sophie Lin's 40th birthday party, two weeks today at The "
                   "Granary, £500"),
        (4, "Tom", "Sophie's been on. The party's moved to the 19th, her sister can't do the 12th")],
        group="band", start=datetime(2026, 11, 28, 11, 0, tzinfo=timezone.utc))
    days = await _values(graph, "f.predicate = 'date is'")
    assert days == [("sophie lin's 40th birthday party@band", "2026-12-12", "superseded"),
                    ("sophie lin's 40th birthday party@band", "2026-12-19", "current")], days
    plans = await graph.read("MATCH (x:Foresight {tenant: $tenant, kind: 'plan'}) WHERE x.text CONTAINS '2026-12-12' "
                             "RETURN x.validTo AS validTo")
    assert [p["validTo"].to_native().date().isoformat() for p in plans] == ["2026-12-02"], plans
