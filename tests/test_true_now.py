"""What is true now: a value that begins later ("I start at Globex on 1 March") does not replace
the current one until then, in search, entity lookup, relatedTo and the context; as of a moment
after it begins, it does. Messages stamped in the future are refused (they would hide)."""
from datetime import datetime, timedelta, timezone

import pytest

from app.construction.extract_llm import LLMExtractor
from app.construction.ingest import Ingestor
from app.construction.pipeline import Pipeline
from app.construction.turns import InputError
from app.recollection.lookup import entity_by_name
from app.recollection.related import RelatedService
from app.recollection.request import SearchRequest
from tests.llm_stub import OpenAIStub, default_extraction

NOW = datetime.now(timezone.utc).replace(microsecond=0)
STARTS = (NOW + timedelta(days=30)).replace(hour=0, minute=0, second=0)


def _scheduling(request):
    """The stub's extraction, with the Globex turn's fact beginning on STARTS (as a model reads
    "I start at Globex on <date>")."""
    out = default_extraction(request)
    for f in out["facts"]:
        if "Globex" in f["object"]:
            f.update(predicate="works at", object="Globex", single_valued=True,
                     text="Maya works at Globex.", valid_from=STARTS.date().isoformat(),
                     entities=[{"name": "Maya", "role": "subject"}, {"name": "Globex", "role": "object"}])
            out["entities"].append({"name": "Globex", "type": "organization", "aliases": []})
    return out


@pytest.fixture
async def memory(services, graph):
    with OpenAIStub() as stub:
        stub.default = _scheduling
        settings = services.settings.model_copy(update=stub.llm_settings())
        ing = Ingestor(services, Pipeline(settings, services.require_embedder(), LLMExtractor(settings)))
        said = [("m1", "I work at Acme as an engineer.", NOW - timedelta(days=3)),
                ("m2", f"Big news: I start at Globex on {STARTS:%d %B}.", NOW - timedelta(days=1))]
        for i, text, at in said:  # two episodes, two days apart
            await ing.memorize(graph.tenant, "c1", [{"id": i, "speaker": "Maya", "content": text,
                                                     "timestamp": at}], flush=True)
    return graph


def _works_at(result) -> set[str]:
    return {h.node["object"] for h in result.hits if h.kind == "fact" and h.node.get("predicate") == "works at"}


async def test_the_stored_timeline_places_the_new_job_at_its_start(memory):
    rows = await memory.read("""MATCH (f:Fact {tenant: $tenant, predicate: 'works at'})
                                RETURN f.object AS o, f.status AS s, f.validTo AS until""")
    by = {r["o"]: r for r in rows}
    assert by["Acme"]["s"] == "superseded" and by["Acme"]["until"].to_native() == STARTS
    assert by["Globex"]["s"] == "current"


async def test_search_answers_with_the_job_held_now_and_the_next_one_as_of_its_start(memory, searcher):
    ask = dict(query="Where does Maya work?", top_k=20, kinds=("fact",))
    now = await searcher.search(memory.tenant, SearchRequest(**ask))
    assert _works_at(now) == {"Acme"}
    assert "valid " + (NOW - timedelta(days=3)).date().isoformat() in now.context
    later = await searcher.search(memory.tenant, SearchRequest(**ask, as_of=STARTS + timedelta(days=1)))
    assert _works_at(later) == {"Globex"}
    both = await searcher.search(memory.tenant, SearchRequest(**ask, include_superseded=True))
    assert _works_at(both) == {"Acme", "Globex"}


async def test_entity_lookup_lists_the_facts_true_at_the_moment_asked(memory):
    now = await entity_by_name(memory, "Maya", datetime.now(timezone.utc))
    assert {f["object"] for f in now["facts"] if f["predicate"] == "works at"} == {"Acme"}
    later = await entity_by_name(memory, "Maya", STARTS + timedelta(hours=1))
    assert {f["object"] for f in later["facts"] if f["predicate"] == "works at"} == {"Globex"}


async def test_related_to_walks_the_relations_true_at_the_moment_asked(memory):
    related = RelatedService()
    now = {r.entity["name"] for r in await related.related_to(memory, "Maya", hops=1)}
    assert "Acme" in now and "Globex" not in now
    later = {r.entity["name"] for r in await related.related_to(memory, "Maya", hops=1,
                                                                 as_of=STARTS + timedelta(days=1))}
    assert "Globex" in later and "Acme" not in later


async def test_a_message_stamped_in_the_future_is_refused_and_nothing_is_stored(services, graph):
    ahead = datetime.now(timezone.utc) + timedelta(hours=2)
    with pytest.raises(InputError, match="in the future") as refused:
        await Ingestor(services).memorize(graph.tenant, "c1", [
            {"id": "ok", "speaker": "Maya", "content": "hello", "timestamp": NOW - timedelta(minutes=1)},
            {"id": "late", "speaker": "Maya", "content": "from tomorrow", "timestamp": ahead}])
    # Its offset was given: no hint about local times, which would mislead.
    assert "UTC offset" not in str(refused.value)
    with pytest.raises(InputError, match="in the future.*UTC offset"):  # a naive one gets it
        await Ingestor(services).memorize(graph.tenant, "c1", [
            {"id": "late", "speaker": "Maya", "content": "from tomorrow", "timestamp": ahead.replace(tzinfo=None)}])
    assert await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id") == []
    # a clock a little ahead is not an error
    rep = await Ingestor(services).memorize(graph.tenant, "c1", [
        {"id": "skew", "speaker": "Maya", "content": "hello", "timestamp": datetime.now(timezone.utc)
         + timedelta(minutes=1)}], wait=False)
    assert rep.accepted == 1


async def test_the_local_extractor_dates_a_job_starting_next_week_and_the_old_one_holds_until_then(services, graph):
    # No LLM: "I'm starting at Volta Labs next Monday" begins on that Monday (before, it began
    # when said, and replaced Siemens at once).
    ing = Ingestor(services)
    await ing.memorize(graph.tenant, "c1", [
        {"id": "s1", "speaker": "Maya", "content": "I work at Siemens as an engineer.",
         "timestamp": NOW - timedelta(days=3)}], flush=True)
    await ing.memorize(graph.tenant, "c1", [
        {"id": "s2", "speaker": "Maya", "content": "Big news: I'm starting at Volta Labs next Monday!",
         "timestamp": NOW - timedelta(minutes=1)}], flush=True)
    rows = await graph.read("""MATCH (f:Fact {tenant: $tenant, predicate: 'works at'})
                               RETURN f.object AS o, f.validFrom AS since""")
    since = {r["o"]: r["since"].to_native() for r in rows}
    assert set(since) == {"Siemens", "Volta Labs"} and since["Volta Labs"] > NOW
    now = await entity_by_name(graph, "Maya", datetime.now(timezone.utc))
    assert {f["object"] for f in now["facts"] if f["predicate"] == "works at"} == {"Siemens"}
    later = await entity_by_name(graph, "Maya", since["Volta Labs"] + timedelta(hours=1))
    assert {f["object"] for f in later["facts"] if f["predicate"] == "works at"} == {"Volta Labs"}


async def test_the_api_labels_a_value_replaced_from_a_day_ahead_as_it_stands_now(memory):
    # Stored, Acme is superseded from the day Globex begins; until then the API says Acme is
    # current and Globex upcoming (the walkthrough's client read "superseded" for the job held).
    from app.api.types import Fact

    rows = await memory.read("""MATCH (f:Fact {tenant: $tenant, predicate: 'works at'})
                                RETURN f {.id, .object, .status, .validFrom, .validTo} AS f""")
    labels = {r["f"]["object"]: Fact.of(r["f"]).status for r in rows}
    assert labels == {"Acme": "current", "Globex": "upcoming"}


async def test_the_api_labels_each_value_as_it_stood_at_the_moment_asked(memory):
    # As of a moment after Globex begins, Acme was replaced and Globex current; as of a moment
    # before either was said, Acme would have been upcoming. (A search with asOf labelled the
    # value it found by today's status.)
    from app.api.types import Fact

    rows = await memory.read("""MATCH (f:Fact {tenant: $tenant, predicate: 'works at'})
                                RETURN f {.id, .object, .status, .validFrom, .validTo} AS f""")
    after = STARTS + timedelta(days=2)
    assert {r["f"]["object"]: Fact.of(r["f"], at=after).status for r in rows} == {
        "Acme": "superseded", "Globex": "current"}
    before = NOW - timedelta(days=2)  # Acme said, Globex not yet
    assert Fact.of(next(r["f"] for r in rows if r["f"]["object"] == "Acme"), at=before).status == "current"
