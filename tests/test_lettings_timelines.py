"""A landlord's values across sessions (walk-through 87 of session 54, third run): a sum a tenant
accepted on renewal is her new rent; an applicant's offer stays when only her move-in day moves."""
from __future__ import annotations

from datetime import datetime, timezone

from tests.conversation import tell_days

DAY1 = datetime(2026, 9, 1, 10, tzinfo=timezone.utc)


async def _tell(services, graph, said, group="lets"):
    await tell_days(services, graph, said, group, DAY1)


async def _facts(graph) -> list[dict]:
    return await graph.read("MATCH (f:Fact {tenant: $tenant}) RETURN f.subjectKey AS key, f.predicate AS p, "
                            "f.object AS o, f.status AS status, f.text AS text ORDER BY f.validFrom")


async def test_a_sum_accepted_on_renewal_is_the_tenants_new_rent(services, graph):
    # "She accepted £880 from 1 October" was an act (Priya | accepted | £880 , 12 month term):
    # her £850 stayed current, the answer to "What rent does Priya pay now?".
    await _tell(services, graph, [
        (0, "Helen", "Flat 2 is Tom Becker at £790, Flat 1 is Priya Nair at £850"),
        (20, "Marcus", "Priya came back on the renewal. She accepted £880 from 1 October, 12 month term. "
                       "Signing Wednesday")])
    rents = [(f["o"], f["status"]) for f in await _facts(graph) if f["key"].startswith("priya nair")
             and f["p"] == "rent is"]
    assert rents == [("£850", "superseded"), ("£880", "current")]
    # Tom's rent, another timeline, is not touched.
    assert [(f["o"], f["status"]) for f in await _facts(graph) if f["key"].startswith("tom becker")] == [
        ("£790", "current")]


async def test_a_sum_accepted_by_someone_holding_two_sums_says_not_which_and_stays_an_act(services, graph):
    await _tell(services, graph, [
        (0, "Helen", "Priya Nair's rent is £850. Priya Nair's deposit is £980."),
        (20, "Marcus", "Priya came back on the renewal. She accepted £880 from 1 October, 12 month term.")])
    facts = {(f["p"], f["o"], f["status"]) for f in await _facts(graph) if f["key"].startswith("priya nair")}
    assert {("rent is", "£850", "current"), ("deposit is", "£980", "current")} <= facts, facts
    assert [p for p, o, _ in facts if o.startswith("£880")] == ["accepted"], facts


async def test_an_offer_stays_when_only_the_day_it_was_told_with_moves(services, graph):
    # The day moved ended the move-in plan and, with it, the offer told with that day: Sofia's
    # £835 was nowhere current.
    await _tell(services, graph, [
        (0, "Marcus", "Sofia has offered £835 rather than £850 if she can move in on 8 November"),
        (2, "Marcus", "Sofia's asked to move in earlier, Sunday 1 November instead of the 8th")])
    offers = [f for f in await _facts(graph) if "£835" in f["o"]]
    assert offers and all(f["status"] == "current" for f in offers), offers
