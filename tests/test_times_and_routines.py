"""A plan's time corrected in a sentence of its own ("sorry, I meant 5:30"), and days of a
fortnight's routine ("every other Monday"): read by the local extractor, kept by the writer,
found by the search (the "left alone" of session 55's walk-throughs)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import extracted, tell_days

DAY1 = datetime(2026, 10, 1, 10, tzinfo=timezone.utc)  # a Thursday


def _plans(ex) -> list[str]:
    return [f.text for f in ex.foresights if f.kind == "plan"]


def test_a_time_said_instead_moves_the_plan_and_its_fact_to_it():
    # "sorry, I meant 5:30" had left the plan at 5pm, and made the fact "Zoe meant 5".
    ex = extracted([("Zoe", "The market stall opens at 5pm on Saturday"), ("Zoe", "sorry, I meant 5:30")], DAY1)
    assert _plans(ex) == ["The market stall opens at 5:30pm on 2026-10-03 (Saturday)."]
    [old, new] = [f for f in ex.facts if "market stall" in f.text]
    assert "5pm" in old.text and old.valid_to == DAY1 + timedelta(minutes=1)
    assert "5:30pm" in new.text and new.valid_to is None and new.turn_ids == ["t1"]
    assert not [f for f in ex.facts if f.predicate == "meant"]
    # ... "make that", and a correction that names the time it replaces
    ex = extracted([("Zoe", "Physio is at 3:45 on Tuesday"), ("Zoe", "oops, make that 4:15")], DAY1)
    assert _plans(ex) == ["Physio is at 4:15 on 2026-10-06 (Tuesday)."]
    ex = extracted([("Zoe", "Dentist on Friday at 9am"), ("Zoe", "sorry, 9:30 not 9")], DAY1)
    assert _plans(ex) == ["Dentist on 2026-10-02 (Friday) at 9:30am."]


def test_a_correction_of_another_time_or_of_no_time_leaves_the_plan():
    ex = extracted([("Zoe", "Dentist on Friday at 9am"), ("Zoe", "sorry, 4:15 not 3:45")], DAY1)
    assert _plans(ex) == ["Dentist on 2026-10-02 (Friday) at 9am."]
    # a bare number is no time ("sorry, I meant 5" of what? a count, a table...)
    ex = extracted([("Zoe", "The market stall opens at 5pm on Saturday"), ("Zoe", "sorry, I meant 6")], DAY1)
    assert _plans(ex) == ["The market stall opens at 5pm on 2026-10-03 (Saturday)."]


async def test_the_time_said_instead_is_the_one_found(services, graph):
    await tell_days(services, graph, [
        (0, "Zoe", "The market stall opens at 5pm on Saturday"), (0, "Zoe", "sorry, I meant 5:30"),
        (0, "Zoe", "Ben is bringing the gazebo")], "shop", DAY1)
    current = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS 'market stall' "
                               "AND f.validTo IS NULL RETURN f.text AS text")
    assert [r["text"] for r in current] == ["Zoe said the market stall opens at 5:30pm on 2026-10-03 (Saturday)."]
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="What time does the market stall open on Saturday?", method=Method.HYBRID, top_k=5,
        now=DAY1 + timedelta(hours=2)))
    texts = [h.node.get("text") or "" for h in res.hits if h.kind in ("fact", "foresight")]
    assert any("5:30pm" in t for t in texts) and not any("5pm" in t for t in texts), texts


def test_a_fortnights_day_is_a_routine_not_the_coming_one():
    # "Recycling goes out every other Monday" was "... every other on 2026-10-05 (Monday)": a plan
    # for the coming Monday, the weekday lost.
    ex = extracted([("Zoe", "Recycling goes out every other Monday"),
                    ("Zoe", "We meet every second Friday at the pub")], DAY1)
    assert not ex.foresights
    texts = [f.text for f in ex.facts]
    assert "Zoe said recycling goes out every other Monday." in texts, texts
    assert all(f.event_date is None for f in ex.facts)


def test_a_day_moved_by_a_span_is_the_new_day_ahead():
    # "launch slipped a week, now 10 November" was a "said" fact, 3 November the launch's day and
    # plan; "pushed back by two weeks to 24 November" a day of the year before.
    ex = extracted([("Leo", "The launch is on 3 November"), ("Priya", "launch slipped a week, now 10 November"),
                    ("Priya", "the offsite got pushed back by two weeks to 24 November")], DAY1)
    days = [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"]
    assert days == [("launch", "2026-11-03"), ("launch", "2026-11-10"), ("offsite", "2026-11-24")], days


async def test_a_day_moved_by_a_span_ends_the_plan_of_the_old_day(services, graph):
    await tell_days(services, graph, [(0, "Leo", "The launch is on 3 November"),
                                      (3, "Priya", "launch slipped a week, now 10 November")], "team", DAY1)
    rows = await graph.read("MATCH (f:Foresight {tenant: $tenant}) RETURN f.text AS text, f.endedAt AS ended")
    ahead = [r["text"] for r in rows if r["ended"] is None]
    assert len(rows) == 2 and len(ahead) == 1 and "2026-11-10" in ahead[0], rows


def test_a_weekday_before_a_routines_plural_is_each_weeks():
    # "Saturday long runs work fine" was "said on 2026-09-12 (Saturday) long runs work fine".
    ex = extracted([("Nadia", "Saturday long runs work fine"), ("Ann", "Tuesday classes are full")], DAY1)
    assert all(f.event_date is None for f in ex.facts) and not ex.foresights


def test_a_rate_agreed_from_a_month_is_from_the_next_one():
    # "we agreed $750 a month from January", said on 24 November, was January of the year ending.
    ex = extracted([("Raj", "we agreed $750 a month from January")], datetime(2026, 11, 24, 10, tzinfo=timezone.utc))
    assert [f.event_date.isoformat() for f in ex.facts] == ["2027-01-01"]


def test_a_booking_with_someone_and_its_day_said_anew_are_one_days_timeline_no_weekly_slot():
    # Walk-through 92: "booked the physio with Grace for Tuesday 6 October" was a "said" fact, and
    # "physio is now Friday 9 October at 8am" also a weekly slot "Fridays".
    ex = extracted([("Nadia", "booked the physio with Grace for Tuesday 6 October at 4pm"),
                    ("Nadia", "the clinic moved me AGAIN. physio is now Friday 9 October at 8am")], DAY1)
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [
        ("physio", "2026-10-06"), ("physio", "2026-10-09")]
    assert not [f for f in ex.facts if f.predicate.endswith("schedule is")]
