"""AGENTIC search against a stub OpenAI-compatible server: sub-queries are asked when the LLM
finds the context insufficient, their hits fused in; without an LLM it is a clear error."""
import pytest

from app.construction.ingest import Ingestor
from app.recollection.request import Method, SearchInputError, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import maya_and_sam
from tests.llm_stub import OpenAIStub


@pytest.fixture
def stub():
    with OpenAIStub() as s:
        yield s


async def test_insufficient_context_leads_to_sub_queries_whose_hits_are_fused(services, graph, stub):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    settings = services.settings.model_copy(update={"llm_base_url": stub.base_url, "llm_model": stub.model,
                                                    "llm_api_key": "k"})
    searcher = SearchService(services)
    searcher.settings = settings
    stub.respond_with({"sufficient": False, "queries": ["Zzyzx unrelated words", "peanut allergy"]})
    stub.respond_with({"sufficient": True, "queries": []})
    # topK 20: up to 10 hits can appear in two rounds and outscore any hit of one round, so with
    # topK 10 whether the allergy made the cut depended on ties between random ids.
    res = await searcher.search(graph.tenant, SearchRequest(query="What should Sam cook for Maya?",
                                                            method=Method.AGENTIC, top_k=20))
    assert len(stub.requests) == 2  # one verdict per round, the second said "enough"
    assert "What should Sam cook for Maya?" in stub.requests[0].user_text
    notes = [c.note for h in res.hits for c in h.channels if c.channel == "agentic"]
    assert any("peanut allergy" in n for n in notes)
    assert any("m4" == e["id"] for h in res.hits for e in h.evidence)
    for h in res.hits:  # a sub-query ranked the hit itself: its line is one of the hit's own, first
        assert all(c.ranked == h.kind and not c.folded for c in h.channels if c.channel == "agentic")
        assert [c.folded for c in h.channels] == sorted(c.folded for c in h.channels)
    assert [h.rank for h in res.hits] == list(range(1, len(res.hits) + 1))


async def test_a_sub_query_the_search_refuses_is_skipped_not_the_clients_error(services, graph, stub):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    searcher = SearchService(services)
    searcher.settings = services.settings.model_copy(update={"llm_base_url": stub.base_url,
                                                             "llm_model": stub.model, "llm_api_key": "k"})
    # One sub-query of the LLM's holds a NUL (refused as a client's query would be), the other
    # is fine.
    stub.respond_with({"sufficient": False, "queries": ["nuts\u0000 allergy", "peanut allergy"]})
    stub.respond_with({"sufficient": True, "queries": []})
    res = await searcher.search(graph.tenant, SearchRequest(query="What should Sam cook for Maya?",
                                                            method=Method.AGENTIC, top_k=20))
    notes = [c.note for h in res.hits for c in h.channels if c.channel == "agentic"]
    assert any("peanut allergy" in n for n in notes)
    assert res.channel_ms == {"rounds": 2.0}  # the query, and the one sub-query searched


async def test_a_failing_llm_returns_the_first_round(services, graph, stub):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    searcher = SearchService(services)
    searcher.settings = services.settings.model_copy(update={"llm_base_url": stub.base_url,
                                                             "llm_model": stub.model})
    stub.fail_next(5, status=500)
    res = await searcher.search(graph.tenant, SearchRequest(query="Where does Maya live?",
                                                            method=Method.AGENTIC, top_k=5))
    # The LLM was asked for its verdict on the first round (once, and once more by the client's
    # own retry: max_retries=1), failed, and no second round was searched.
    assert len(stub.requests) == 2
    assert all("Where does Maya live?" in r.user_text for r in stub.requests)
    assert res.channel_ms == {"rounds": 1.0}
    # What comes back is the first round: the HYBRID search of the same query, hit for hit.
    plain = await searcher.search(graph.tenant, SearchRequest(query="Where does Maya live?",
                                                              method=Method.HYBRID, top_k=5))
    assert plain.hits

    def shown(hits):
        return [(h.rank, h.kind, h.node["id"], [e["id"] for e in h.evidence]) for h in hits]

    assert shown(res.hits) == shown(plain.hits)


async def test_agentic_without_an_llm_is_a_clear_error(services, tenant):
    with pytest.raises(SearchInputError, match="needs an LLM"):
        await SearchService(services).search(tenant, SearchRequest(query="x", method=Method.AGENTIC))


async def test_an_llm_that_does_not_answer_ends_the_rounds_within_the_search_time(services, graph, stub):
    # A hung endpoint held a search for 120 s (two attempts of the LLM timeout) and said 27 ms.
    import time

    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    searcher = SearchService(services)
    searcher.settings = services.settings.model_copy(update={
        "llm_base_url": stub.base_url, "llm_model": stub.model, "llm_api_key": "k", "search_timeout_s": 2.0})
    stub.delay_next(3, seconds=30)
    t0 = time.perf_counter()
    res = await searcher.search(graph.tenant, SearchRequest(query="Where does Maya live?",
                                                            method=Method.AGENTIC, top_k=5))
    took = (time.perf_counter() - t0) * 1000
    assert took < 6000 and res.took_ms >= 1900 and abs(res.took_ms - took) < 500, (took, res.took_ms)
    assert res.hits and res.channel_ms == {"rounds": 1.0}  # the first round, kept


async def test_each_sub_query_line_is_given_once(services, graph, stub):
    # fuse() ran after each round and at the end, writing its lines into the same hits each time.
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    searcher = SearchService(services)
    searcher.settings = services.settings.model_copy(update={"llm_base_url": stub.base_url,
                                                             "llm_model": stub.model, "llm_api_key": "k"})
    stub.respond_with({"sufficient": False, "queries": ["peanut allergy"]})
    stub.respond_with({"sufficient": True, "queries": []})
    res = await searcher.search(graph.tenant, SearchRequest(query="What should Sam cook for Maya?",
                                                            method=Method.AGENTIC, top_k=20))
    for h in res.hits:
        notes = [c.note for c in h.channels if c.channel == "agentic"]
        assert len(notes) == len(set(notes)), notes
    assert any(c.channel == "agentic" for h in res.hits for c in h.channels)
