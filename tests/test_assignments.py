"""A team's memory as it is now: who owns a piece of work and what a thing is built on, each one
value at a time, whoever says it ("Ben owns the billing migration", then "Dev is taking over
billing from Ben"). Local extractor; the timelines and a search on the real Neo4j."""
from datetime import timedelta

import pytest

from app.construction.ingest import Ingestor
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import DAY1
from tests.test_extract_local import episode, extract, turn


def _facts(*said: tuple[str, str]) -> set[tuple[str, str, str]]:
    ex = extract([turn(text, speaker=who, i=i) for i, (who, text) in enumerate(said)])
    return {(f.subject, f.predicate, f.object) for f in ex.facts}


def test_owners_and_what_a_thing_uses_are_read_clause_by_clause():
    facts = _facts(("Ana", "Ben owns the billing migration, Chloe owns the new checkout design, and Ellie is on "
                           "the mobile app."),
                   ("Ben", "We're going with Postgres for billing."),
                   ("Ellie", "I'm handing the mobile app over to Chloe."),
                   ("Ana", "Search indexing is Ben's now."),
                   ("Ana", "Ellie is on holiday this week, and Dev is on the team now."))
    assert {("billing", "owner is", "Ben"), ("checkout design", "owner is", "Chloe"),
            ("mobile app", "owner is", "Ellie"), ("mobile app", "owner is", "Chloe"),
            ("search indexing", "owner is", "Ben"), ("billing", "uses", "Postgres")} <= facts
    # Being on holiday, or on a team, is no piece of work; "Ben owns" is no fact of Ben's beside it.
    assert not [f for f in facts if f[1] == "owner is" and f[0] in ("holiday", "team")]
    assert not [f for f in facts if f[0] == "Ben" and f[1] == "owns"]


def test_a_handover_said_other_ways_and_each_clause_told_alone():
    ex = extract([turn(t, speaker="Ana", i=i) for i, t in enumerate([
        "Priya will own onboarding from now on.", "OK so onboarding moves to Priya.",
        "I'm passing the search project to Dev.", "Kai took over payments last week.",
        "We moved billing off Postgres onto DynamoDB.", "Search indexing is mine now.",
        "Ben owns the analytics pipeline and Chloe owns the marketing site.",
        # Not work: a relative moved, a person moving, a medication, a waiting list.
        "We moved Dad to Sunrise Gardens.", "Ben moves to Berlin next month.", "Dad is on insulin now.",
        "Raj is on the waiting list for a hip."])])
    facts = {(f.subject, f.predicate, f.object): f.text for f in ex.facts}
    assert {("onboarding", "owner is", "Priya"), ("search", "owner is", "Dev"), ("payments", "owner is", "Kai"),
            ("billing", "uses", "DynamoDB"), ("search indexing", "owner is", "Ana"),
            ("analytics pipeline", "owner is", "Ben"), ("marketing site", "owner is", "Chloe")} <= set(facts)
    assert facts[("analytics pipeline", "owner is", "Ben")] == "Ben owns the analytics pipeline."
    assert not [k for k in facts if k[1] in ("owner is", "uses") and k[2] in ("Sunrise Gardens", "Berlin")]
    assert not [k for k in facts if k[1] == "owner is" and ("insulin" in k[0] or "list" in k[0])]


def test_whom_a_thing_has_in_a_post_is_one_at_a_time():
    """"Raj Mehta is the hiring manager for the backend role", "Jess Byrne is going to be the new
    tenant for Flat 3", "Oliver Grant replaces Lena Fischer as hiring manager for ...": the
    thing's post holder (a person's "is the hiring manager for ..." held no one value)."""
    ex = extract([turn(t, speaker="Hannah", i=i) for i, t in enumerate([
        "Raj Mehta is the hiring manager for the backend role.",
        "Lena is going on leave, so Oliver Grant is now the hiring manager for the designer role.",
        "Jess Byrne is going to be the new tenant for Flat 3.",
        "Oliver Grant replaces Lena Fischer as hiring manager for the product designer role.",
        # a person's relation is a person's, not a thing's post
        "Maya is the mother of Tom."])])
    facts = {(f.subject, f.predicate, f.object): f.text for f in ex.facts}
    assert {("backend role", "hiring manager is", "Raj Mehta"), ("designer role", "hiring manager is", "Oliver Grant"),
            ("Flat 3", "tenant is", "Jess Byrne"),
            ("product designer role", "hiring manager is", "Oliver Grant")} <= set(facts), facts
    # "there": the place named before it, in the sentence or the one before it in the turn
    ex2 = extract([turn("Rent for Flat 2 is £1,050 a month. Daniel Mensah is the tenant there.", speaker="Owen"),
                   turn("The inspection at 22 Oak Street is on 8 October. The tenants there are Ruth and Sam Adeyemi.",
                        speaker="Owen", i=1),
                   turn("I like it there.", speaker="Owen", i=2)])
    held = {(f.subject, f.predicate, f.object) for f in ex2.facts if f.predicate == "tenant is"}
    assert held == {("Flat 2", "tenant is", "Daniel Mensah"), ("22 Oak Street", "tenant is", "Ruth and Sam Adeyemi")}
    # someone's event, booked and moved by whoever speaks: its day, the one of now the last said
    ex3 = extract([turn("Let's lock in Kim's final for Thursday the 11th at 2pm.", speaker="Grace"),
                   turn("Rescheduled Kim's final to the 18th, Stefan is travelling.", speaker="Grace", i=1)])
    assert [(f.subject, f.object[5:]) for f in ex3.facts if f.predicate == "date is"] == [
        ("kim's final", "05-11"), ("kim's final", "05-18")]
    # the sentence told whole: what it says before the post is kept with it
    assert "going on leave" in facts[("designer role", "hiring manager is", "Oliver Grant")]
    assert ("Tom", "mother is", "Maya") in facts


@pytest.fixture
def ingestor(services):
    return Ingestor(services)


async def test_a_handover_and_a_switch_end_the_old_values_whoever_said_them(graph, ingestor, services):
    said = [("m1", "Ana", "Ben owns the billing migration, Chloe owns the new checkout design.", 0),
            ("m2", "Ben", "We're going with Postgres for billing, we all know it well.", 0),
            ("m3", "Ana", "Welcome Dev! He joins us from Stripe.", 14),
            ("m4", "Ana", "Dev is taking over billing from Ben.", 14),
            ("m5", "Ben", "After the load tests we switched to DynamoDB for billing.", 21)]
    for day in (0, 14, 21):
        await ingestor.memorize(graph.tenant, "team", [
            {"id": i, "speaker": who, "content": text, "timestamp": DAY1 + timedelta(days=d, minutes=int(i[1:]))}
            for i, who, text, d in said if d == day], group_id="atlas", flush=True)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate IN ['owner is', 'uses'] "
                            "RETURN f.subjectKey AS thing, f.predicate AS p, f.object AS value, f.status AS status")
    status = {(r["thing"], r["p"], r["value"]): r["status"] for r in rows}
    # A piece of work is its group's: the keys say which.
    assert status == {("billing@atlas", "owner is", "Ben"): "superseded",
                      ("billing@atlas", "owner is", "Dev"): "current",
                      ("checkout design@atlas", "owner is", "Chloe"): "current",
                      ("billing@atlas", "uses", "Postgres"): "superseded",
                      ("billing@atlas", "uses", "DynamoDB"): "current"}
    # Another team's billing is another thing: its owner ends nothing of atlas's.
    report = await ingestor.memorize(graph.tenant, "other-team", [
        {"id": "o1", "speaker": "Omar", "content": "On our team, Chloe owns billing.",
         "timestamp": DAY1 + timedelta(days=30)}], group_id="orion", flush=True)
    assert report.process.superseded == 0
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="Who owns billing?", method=Method.HYBRID, top_k=5, kinds=("fact",), group_id="atlas"))
    texts = [h.node["text"] for h in res.hits]
    assert texts[0] == "Dev is taking over billing from Ben." and not any("Ben owns" in t for t in texts), texts
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="Who owns billing?", method=Method.HYBRID, top_k=5, kinds=("fact",), group_id="orion"))
    assert [h.node["text"] for h in res.hits][:1] == ["Chloe owns billing."]


def test_a_clause_of_the_speakers_own_before_an_owner_is_a_fact_of_its_own():
    # "I work on payments now, Marco owns billing": the first clause was dropped with the
    # owner's beside it (Jun's work lost), or kept whole with Marco's words in Jun's object.
    ex = extract([turn("I work on the payments service now, Marco owns the billing service.", speaker="Jun"),
                  turn("I love the new office but Dev is taking over search.", speaker="Ana", i=1)])
    texts = {f.text: (f.subject, f.object) for f in ex.facts}
    assert texts["Jun works on the payments service now."] == ("Jun", "the payments service now")
    assert texts["Marco owns the billing service."] == ("billing", "Marco")
    assert texts["Ana loves the new office."] == ("Ana", "the new office")
    assert ("search", "Dev") in texts.values()


def test_where_everything_runs_and_where_we_deploy_are_one_value():
    # Walk-through 57: "Everything runs on Heroku" and "we deploy to Fly.io" were "said" facts.
    ex = extract(episode(("Ravi", "Everything runs on Heroku at the moment."),
                         ("Ravi", "Decision made: from now on we deploy to Fly.io.")))
    assert [(f.subject, f.predicate, f.object) for f in ex.facts if f.predicate == "uses"] == [
        ("hosting", "uses", "Heroku"), ("hosting", "uses", "Fly.io")]


def test_a_thing_moved_to_a_day_is_that_things_day():
    # Walk-throughs 79, 81: "move the skip to monday 12th", "skip is now Wednesday 14 October", "Inspection
    # moved AGAIN. ..., new date Wednesday 4 November" were "said" facts, the first day current.
    assert ("skip", "date is", "2023-05-15") in _facts(("Callum", "and move the skip to monday 15th too"))
    assert ("skip", "date is", "2023-05-17") in _facts(("Callum", "skip is now Wednesday 17 May, on the road"))
    assert ("pour", "date is", "2023-05-19") in _facts(("Callum", "we pushed the pour back to Friday 19 May"))
    assert ("inspection", "date is", "2023-05-24") in _facts(
        ("Marco", "Inspection moved AGAIN. Inspector is off sick, new date Wednesday 24 May"))
    # (no thing moved: pushed forward, a person, the weather)
    for said in ("I started to push the biz forward on 9 May", "Tom is now 14 May", "the weather is now better"):
        assert not {f for f in _facts(("Callum", said)) if f[1] == "date is"}, said


async def test_a_things_day_moved_twice_ends_the_day_before(graph, ingestor):
    said = [("k1", "and move the skip to monday 11th too", 0), ("k2", "skip is now Wednesday 13 March", 2)]
    for i, text, d in said:
        await ingestor.memorize(graph.tenant, "site", [
            {"id": i, "speaker": "Callum", "content": text, "timestamp": DAY1 + timedelta(days=d)}],
            group_id="crew", flush=True)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant, predicate: 'date is'}) "
                            "RETURN f.object AS day, f.status AS status")
    assert {r["day"]: r["status"] for r in rows} == {"2024-03-11": "superseded", "2024-03-13": "current"}


def test_a_day_moved_from_one_to_another_is_the_new_one_only():
    # Walk-through 80: "my appointment moved from 8 Oct to 15 Oct" also kept "Karin's appointment is
    # 8 October", current beside the new day, and the moved fact was dated the 8th.
    ex = extract([turn("Riverside called, Dr Berger is sick that day so my appointment moved from 8 Jun to 15 Jun",
                       speaker="Karin")])
    dated = [(f.predicate, f.object, f.event_date.isoformat()) for f in ex.facts if f.object.startswith("2023")]
    assert dated == [("date is", "2023-06-15", "2023-06-15")], dated
