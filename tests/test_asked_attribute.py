"""A question after one thing of someone's ("Who is Raj's doctor?", "Where does Dad live?") has
that thing's value true now among the first hits, pinned by the graph channel, though other
facts about the person match the question's words better. On the real Neo4j."""
from datetime import datetime, timedelta, timezone

import pytest

from app.construction.ingest import Ingestor
from app.recollection.asked_attribute import asked_predicates, asked_work
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService


@pytest.mark.parametrize("query, predicates", [
    ("Who is Raj's doctor?", ("doctor is",)), ("Who's Maya's new boss?", ("boss is",)),
    ("Where does Dad live now?", ("lives in",)), ("Who does Tom work for?", ("works at",)),
    ("What medication does Raj take now?", ("takes",)), ("What is Priya's job?", ("job is", "works at")),
    ("How much insulin does Dad take?", ("insulin dose is",)),
    ("Where does Jun work now?", ("works at", "office is")), ("Which office is Jun in?", ("office is",)),
    ("What's Ana's address?", ("address is",)), ("Where should Ana's parcel go?", ("address is",)),
    ("What's Mum's dose of statins?", ("statin dose is",)), ("Who is Acme's CFO now?", ("cfo is",)),
    # Not one thing's value: a sister may be one of several; a past event; a thing taken along.
    ("Who is Raj's sister?", ()), ("Where did Caroline go on holiday?", ()),
    ("What did Maya take to the party?", ()),
])
def test_which_questions_ask_after_one_thing(query, predicates):
    assert asked_predicates(query) == predicates


async def test_the_value_asked_after_is_among_the_first_hits(services, graph):
    first = datetime(2026, 10, 20, 19, 0, tzinfo=timezone.utc)
    said = [(0, "I look after my father Raj, he lives with me in Edison."),
            (0, "He has type 2 diabetes. Dr. Lee has him on metformin, 500 mg twice a day."),
            (0, "Raj's doctor is Dr. Lee, at the Maple Street clinic."),
            (8, "Dr. Lee switched Dad from metformin to insulin yesterday, his doctor says the sugar is too high."),
            (8, "Dr. Lee is retiring, so Dr. Okafor is Dad's doctor from now on."),
            (8, "He's on 10 units of insulin every night for now."),
            (30, "Dad is settled in at Sunrise Gardens now, he has his own room."),
            (30, "The doctor at Sunrise Gardens says Dad's sugar levels are better."),
            (30, "Dr. Okafor bumped his insulin up to 14 units last week.")]
    msgs = [{"id": f"p{i}", "speaker": "Priya", "role": "user", "content": text,
             "timestamp": first + timedelta(days=d, minutes=i)} for i, (d, text) in enumerate(said)]
    ingestor = Ingestor(services)
    for day in sorted({d for d, _ in said}):
        await ingestor.memorize(graph.tenant, "c1", [m for m, (d, _) in zip(msgs, said) if d == day], flush=True)

    async def first_three(query: str) -> list[str]:
        res = await SearchService(services).search(graph.tenant, SearchRequest(
            query=query, method=Method.HYBRID, top_k=5), record_access=False)
        return [h.node.get("text", "") for h in res.hits[:3] if h.kind == "fact"]

    assert any("Okafor" in t for t in await first_three("Who is Raj's doctor?"))
    assert any("Sunrise Gardens" in t and "settled" in t for t in await first_three("Where does Raj live?"))
    assert any("insulin" in t for t in await first_three("What medication does Raj take now?"))
    # A dose is a one-value thing of its medication's: 14 units ended 10 units.
    assert any("14 units" in t for t in await first_three("How much insulin does Dad take?"))
    doses = await graph.read("MATCH (f:Fact {tenant: $tenant, predicate: 'insulin dose is'}) "
                             "RETURN f.object AS dose, f.status AS status ORDER BY f.validFrom")
    assert [(d["dose"], d["status"]) for d in doses] == [("10 units", "superseded"), ("14 units", "current")]


@pytest.mark.parametrize("query, work", [
    ("Who owns billing?", ("billing", ("owner is",))),
    ("Who's on the mobile app now?", ("mobile app", ("owner is",))),
    ("Who owns the billing migration", ("billing", ("owner is",))),
    ("What database are we using for billing?", ("billing", ("uses",))),
    ("When is launch?", ("launch", ("date is",))), ("When's the Globex demo now?", ("globex demo", ("date is",))),
    ("When is the QBR with Brightwave?", ("qbr", ("date is",))),
    ("When is Maya's birthday?", None),
    # A person's thing, or no thing at all.
    ("Who is Raj's doctor?", None), ("What did we do for her birthday?", None)])
def test_which_questions_ask_after_a_piece_of_work(query, work):
    assert asked_work(query) == work


async def test_an_office_is_where_someone_works_one_at_a_time_and_no_home(services, graph):
    # "I moved to the Berlin office" was "Jun lives in Berlin": a home, which "Where does Jun
    # work?" never found, and which would have ended where Jun lives.
    first = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
    said = [(0, "Jun", "I live in Leeds, and I work at Acme."),
            (0, "Jun", "I'm in the London office most days."),
            (0, "Marco", "I work out of the Lisbon office."),
            (14, "Jun", "Also, I moved to the Berlin office last week, so I'm on CET now.")]
    ingestor = Ingestor(services)
    for day in (0, 14):
        await ingestor.memorize(graph.tenant, "c1", [
            {"id": f"p{i}", "speaker": who, "content": text, "timestamp": first + timedelta(days=d, minutes=i)}
            for i, (d, who, text) in enumerate(said) if d == day], flush=True)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.subject = 'Jun' "
                            "RETURN f.predicate AS p, f.object AS o, f.status AS s ORDER BY f.validFrom")
    jun = {(r["p"], r["o"], r["s"]) for r in rows}
    assert {("office is", "London office", "superseded"), ("office is", "Berlin office", "current"),
            ("lives in", "Leeds", "current"), ("works at", "Acme", "current")} <= jun, jun
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="Where does Jun work now?", top_k=5), record_access=False)
    assert any("Berlin office" in h.node.get("text", "") for h in res.hits[:3] if h.kind == "fact"), \
        [h.node.get("text") for h in res.hits]


async def test_the_current_value_asked_after_is_the_first_hit(services, graph):
    first = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)
    said = [(0, "Priya", "Let's talk about the event bus, it keeps falling over under load."),
            (0, "Marco", "Kafka handled 5x the throughput in my event bus benchmark."),
            (1, "Priya", "Decision: we're going with Kafka for the event bus."),
            (1, "Marco", "I'll have the Kafka migration plan for the event bus ready by Wednesday."),
            (10, "Priya", "Scratch that on Kafka: finance won't approve the budget, so we're staying on "
                          "RabbitMQ for the event bus.")]
    ingestor = Ingestor(services)
    for day in (0, 1, 10):
        await ingestor.memorize(graph.tenant, "c1", [
            {"id": f"p{i}", "speaker": who, "content": text, "timestamp": first + timedelta(days=d, minutes=i)}
            for i, (d, who, text) in enumerate(said) if d == day], flush=True)
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="What are we using for the event bus?", top_k=5), record_access=False)
    assert res.hits[0].kind == "fact" and "RabbitMQ" in res.hits[0].node["text"], \
        [(h.kind, h.node.get("text") or h.node.get("content")) for h in res.hits]


async def test_a_users_own_question_is_asked_of_them_by_name(services, graph):
    # "Where do I live now?", asked with Jun's userId, is "Where does Jun live now?": his home
    # of now first (before, his turn "I live in Leeds" came first and the move was not pinned).
    first = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
    said = [(0, "Jun", "jun", "I live in Leeds, it's cheap and I like it."),
            (0, "Marco", "marco", "I live in York with my partner."),
            (0, "Marco", "marco", "I'm allergic to shellfish by the way."),
            (9, "Jun", "jun", "Big news: I moved to Berlin last week, new flat in Kreuzberg.")]
    ingestor = Ingestor(services)
    for day in (0, 9):
        await ingestor.memorize(graph.tenant, "team", [
            {"id": f"p{i}", "speaker": who, "user_id": uid, "content": text,
             "timestamp": first + timedelta(days=d, minutes=i)}
            for i, (d, who, uid, text) in enumerate(said) if d == day], flush=True)

    async def first_hit(query: str, user: str) -> str:
        res = await SearchService(services).search(graph.tenant, SearchRequest(
            query=query, user_id=user, top_k=5), record_access=False)
        return res.hits[0].kind + ": " + (res.hits[0].node.get("text") or res.hits[0].node.get("content") or "")

    assert "Berlin" in await first_hit("Where do I live now?", "jun")
    assert "York" in await first_hit("Where do I live now?", "marco")
    assert "shellfish" in await first_hit("What am I allergic to?", "marco")
