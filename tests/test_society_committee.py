"""A society's committee in a group chat (walk-through 110 of session 60): a bill's amount said after
the bill came, then said again after "sorry"; a meeting moved "again, to" a day. Each had been a
"said" fact, so the first value stayed current. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timezone

from tests.conversation import extracted

OCT = datetime(2026, 10, 12, 18, 46, tzinfo=timezone.utc)


def test_a_bills_amount_said_after_it_came_is_its_value_and_one_said_again_after_sorry_replaces_it():
    ex = extracted([("Dev", "hi all. First thing, the water bill came in today. £312.40 for the half year"),
                    ("Dev", "sorry, £321.40, I misread it. Its due by 6 November")], OCT)
    assert [(f.object, f.retracted) for f in ex.facts if f.subject == "water bill" and f.predicate == "is"] == [
        ("£312.40", True), ("£321.40", False)]
    # (an amount alone after no bill nor offer is no one's)
    ex = extracted([("Dev", "the shed roof is leaking again. £45 for the felt")], OCT)
    assert not [f for f in ex.facts if f.single_valued and "£45" in f.object]


def test_a_meeting_moved_again_to_a_day_is_its_new_day():
    ex = extracted([("Helen", "So the AGM moves to Sunday 13 December, same time, 2pm, same place"),
                    ("Helen", "So we're moving the AGM again, to Saturday 9 January, 11am, scout hut still")], OCT)
    assert [f.object for f in ex.facts if f.predicate == "date is" and f.subject.lower() == "agm"] == [
        "2026-12-13", "2027-01-09"]


def test_one_who_agreed_to_be_co_opted_to_a_post_holds_it():
    # "Nadia Kowalski on plot 22 has agreed to be co-opted as secretary until the AGM" had been Helen's words,
    # no secretary held ("Brian's been secretary for 8 years" the top answer).
    ex = extracted([("Helen", "Good news though, Nadia Kowalski on plot 22 has agreed to be co-opted as secretary "
                              "until the AGM. She'll take the minutes from now on"),
                    ("Helen", "Ray Dunn has agreed to be treasurer")], OCT)
    assert [(f.subject, f.object) for f in ex.facts if f.single_valued and f.predicate == "is"] == [
        ("secretary", "Nadia Kowalski"), ("treasurer", "Ray Dunn")]


def test_a_hosepipe_ban_is_found_by_a_sprinkler():
    # "No hosepipes on site in July and August" was not in the top 50 for "Ray wants to set up a sprinkler in
    # August": its triggers said nothing of watering.
    ex = extracted([("Helen", "1. No hosepipes on site in July and August, watering cans and water butts only.")], OCT)
    [rule] = [fs for fs in ex.foresights if fs.kind == "constraint"]
    assert "sprinkler" in rule.trigger and "watering" in rule.trigger


async def test_a_bill_said_paid_keeps_its_sum(services, graph):
    # Walk-through 110's re-run: "(water bill | is | paid)" closed "(water bill | is | £298.60)", so no current
    # fact held the bill's sum.
    from tests.conversation import tell_days
    await tell_days(services, graph, [
        (0, "Dev", "the water bill came in today. £312.40 for the half year"),
        (5, "Dev", "one more thing, the water bill is paid, £312.40 went out today"),
        (9, "Dev", "the water bill is overdue again, they want £40 more")], group="plots", start=OCT)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant, subject: 'water bill', predicate: 'is'}) "
                            "RETURN f.object AS v, f.status AS s ORDER BY f.validFrom")
    assert [(r["v"], r["s"]) for r in rows] == [("£312.40", "current"), ("paid", "superseded"),
                                                ("overdue", "current")], rows


async def test_the_rule_a_query_names_a_word_of_comes_before_one_whose_clause_shares_a_verb(services, graph):
    # Walk-through 110's third run: "Ray wants to set up a sprinkler" brought "No bonfires before 6pm, and never on a
    # Sunday" first (its clause before "never" was read as whom it is about, and "set" named it), the hosepipe ban
    # folded under it.
    from app.recollection.request import Method, SearchRequest
    from app.recollection.search import SearchService
    from tests.conversation import tell_days
    await tell_days(services, graph, [
        (0, "Helen", "Site rules for the noticeboard: 1. No hosepipes on site in July and August, watering cans and "
                     "water butts only. 2. No bonfires before 6pm, and never on a Sunday."),
        (1, "Dev", "Ray on plot 9 asked about the shed")], group="plots", start=OCT)
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="Ray on plot 9 wants to set up a sprinkler on his plot in August, is that ok?", method=Method.HYBRID,
        top_k=5, group_id="plots"), record_access=False)
    rules = [h.node.get("text", "") for h in res.hits if h.kind == "foresight"]
    assert rules and "hosepipes" in rules[0], rules
