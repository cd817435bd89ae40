"""The day channel against the real Neo4j: a query that names a date brings that day's turns."""
from datetime import datetime, timedelta, timezone

import pytest

from app.construction.ingest import Ingestor
from app.recollection.channels.day import ON_DAY
from app.recollection.request import Method, SearchRequest
from app.store.graph import TenantGraph
from tests.conversation import DAY1, DAY2, maya_and_sam

# Said at 23:30 on 19 June where the speaker lives (UTC-5): 04:30 on 20 June in UTC.
LATE = datetime(2024, 6, 19, 23, 30, tzinfo=timezone(timedelta(hours=-5)))


def conversation() -> list[dict]:
    return maya_and_sam() + [
        {"id": "late", "speaker": "Sam", "content": "Still awake, the storm knocked the power out.",
         "timestamp": LATE}]


@pytest.fixture
async def memory(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", conversation(), flush=True)
    return graph


async def day_turns(searcher, graph, query, **kw) -> list[str]:
    """The dataset ids of the turns the day channel ranked, in its order."""
    res = await searcher.search(graph.tenant, SearchRequest(query=query, **kw))
    keys = [c.key for c in res.rankings["day"]]
    ids = {r["k"]: r["id"] for r in await graph.read(
        "MATCH (t:Turn) WHERE t.tenant = $tenant AND elementId(t) IN $keys RETURN elementId(t) AS k, t.id AS id",
        keys=keys)}
    assert all(c.kind == "turn" for c in res.rankings["day"])
    return [ids[k] for k in keys]


def said_on(day: datetime) -> set[str]:
    return {m["id"] for m in maya_and_sam() if m["timestamp"].date() == day.date()}


async def test_a_named_day_brings_the_turns_of_that_day_and_no_other(memory, searcher):
    found = await day_turns(searcher, memory, "What did they talk about on 10 June 2024?")
    assert set(found) == said_on(DAY2)
    found = await day_turns(searcher, memory, "What did Maya say on March 4, 2024?")
    assert set(found) == said_on(DAY1)


async def test_the_days_turns_come_nearest_to_the_query_first(memory, searcher):
    found = await day_turns(searcher, memory, "Which food is Maya allergic to? Asked on 4 March 2024")
    assert found[0] == "m4"


async def test_a_named_month_brings_its_turns(memory, searcher):
    assert set(await day_turns(searcher, memory, "What happened in March 2024?")) == said_on(DAY1)
    assert set(await day_turns(searcher, memory, "What happened in June 2024?")) == said_on(DAY2) | {"late"}


async def test_a_turn_counts_on_the_day_where_it_was_said(memory, searcher):
    # The local day of its timestamp, not the day in UTC.
    assert await day_turns(searcher, memory, "Who was awake on 19 June 2024?") == ["late"]
    assert await day_turns(searcher, memory, "Who was awake on 20 June 2024?") == []


async def test_the_requests_filters_hold(memory, searcher):
    assert await day_turns(searcher, memory, "on 10 June 2024", time_to=DAY2 - timedelta(days=1)) == []
    assert await day_turns(searcher, memory, "on 10 June 2024", conversation_id="c2") == []
    assert set(await day_turns(searcher, memory, "on 10 June 2024", conversation_id="c1")) == said_on(DAY2)
    assert await day_turns(searcher, memory, "on 10 June 2024", kinds=("fact", "memcell")) == []


async def test_a_query_naming_no_date_sends_nothing(memory, searcher, monkeypatch):
    sent = []
    real = TenantGraph.read_one

    async def read_one(self, query, **params):
        sent.append(query)
        return await real(self, query, **params)

    monkeypatch.setattr(TenantGraph, "read_one", read_one)
    res = await searcher.search(memory.tenant, SearchRequest(query="What did Maya say about Lisbon?"))
    assert res.rankings["day"] == [] and sent and ON_DAY not in sent
    await searcher.search(memory.tenant, SearchRequest(query="What did Maya say on 4 March 2024?"))
    assert sent.count(ON_DAY) == 1


async def test_a_day_named_brings_its_answer_into_hybrid_hits(memory, searcher):
    # No word of the answer ("Mel helped me pack") is in the question.
    res = await searcher.search(memory.tenant, SearchRequest(
        query="Who gave a hand on 10 June 2024?", method=Method.HYBRID, top_k=5))
    ids = [e["id"] for h in res.hits for e in h.evidence]
    assert "m9" in ids
    assert any(c.channel == "day" for h in res.hits for c in h.channels)


async def test_a_busy_period_is_cut_at_its_first_turns(memory, searcher, monkeypatch):
    from app.recollection.channels import day

    monkeypatch.setattr(day, "SCAN", 2)
    found = await day_turns(searcher, memory, "Which food is Maya allergic to? Asked on 4 March 2024")
    assert set(found) == {"m1", "m2"}  # the first said that day, not the nearest (m4)


async def test_yesterday_is_the_day_before_the_one_asked_about(memory, searcher):
    assert set(await day_turns(searcher, memory, "What did Maya tell me yesterday?",
                               now=DAY2 + timedelta(days=1))) == said_on(DAY2)
    assert set(await day_turns(searcher, memory, "What did Maya tell me yesterday?",
                               as_of=DAY1 + timedelta(days=1))) == said_on(DAY1)
    assert await day_turns(searcher, memory, "What did Maya tell me yesterday?") == []  # today: nothing


async def test_yesterday_is_counted_where_the_client_is(memory, searcher):
    # Asked at 20:00 on the day after DAY2 where the client lives (UTC-7): 03:00 two days after
    # in UTC, where "yesterday" is the day after DAY2, which holds nothing.
    west = timezone(timedelta(hours=-7))
    asked = datetime.combine(DAY2.date() + timedelta(days=1), datetime.min.time(), west).replace(hour=20)
    assert asked.astimezone(timezone.utc).date() == DAY2.date() + timedelta(days=2)
    assert set(await day_turns(searcher, memory, "What did Maya tell me yesterday?", as_of=asked)) \
        == said_on(DAY2)


async def test_words_that_name_a_relative_period_match_no_text_by_its_words(services, graph, searcher):
    # "next week" in a text said two weeks ago is another week: the keyword channel ranked
    # "Yep, I'm on call next week." first for "What is coming up next week?".
    start = datetime(2026, 11, 23, 10, 0, tzinfo=timezone.utc)
    said = [(0, "Sofia", "Yep, I'm on call next week."), (0, "Jun", "The billing migration starts next week."),
            (12, "Priya", "The retro is on Tuesday December 8 at 11am.")]
    await Ingestor(services).memorize(graph.tenant, "c1", [
        {"id": f"m{i}", "speaker": who, "content": text, "timestamp": start + timedelta(days=d, minutes=i)}
        for i, (d, who, text) in enumerate(said)], flush=True)
    now = datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc)

    async def keyword_texts(query: str) -> list[str]:
        res = await searcher.search(graph.tenant, SearchRequest(query=query, now=now, method=Method.KEYWORD))
        return [h.node.get("content") or h.node.get("text") or "" for h in res.hits]

    assert not [t for t in await keyword_texts("What is coming up next week?") if "next week" in t]
    # the query's other words still match ("billing"); asked about the past, the period's words
    # stay: a turn may answer in them ("What did Sofia say last week?" ... "next week")
    assert any("billing" in t for t in await keyword_texts("What is coming up for billing next week?"))
    ctx = searcher.context(graph, SearchRequest(query="Who was on call last week?", now=now), None)
    assert "week" in ctx.keyword_terms[1]
