"""Keyword scores come from the tenant's own text: another tenant's writes move nothing, the
statistics follow every write and delete, and the scores are BM25 over the tenant's nodes."""
import asyncio
import math
import uuid
from collections import Counter
from datetime import timedelta

import pytest

from app.construction.ingest import Ingestor
from app.lifecycle.forget import ForgetSelection, forget
from app.recollection import filters
from app.recollection.bm25 import B, K1
from app.recollection.channels import keyword
from app.recollection.lucene import safe_terms
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from app.store import term_stats
from app.store.graph import TenantGraph
from tests.conversation import DAY1 as DAY, maya_and_sam

TEXTS = {"turn": "MATCH (n:Turn {tenant: $tenant}) RETURN elementId(n) AS key, n.speaker AS speaker, "
                 "n.content AS content",
         "memcell": "MATCH (n:MemCell {tenant: $tenant}) RETURN elementId(n) AS key, n.title AS title, "
                    "n.summary AS summary, n.keywordText AS keywordText",
         "fact": "MATCH (n:Fact {tenant: $tenant}) RETURN elementId(n) AS key, n.text AS text",
         "foresight": "MATCH (n:Foresight {tenant: $tenant}) RETURN elementId(n) AS key, n.text AS text, "
                      "n.trigger AS trigger",
         "entity": "MATCH (n:Entity {tenant: $tenant}) RETURN elementId(n) AS key, n.name AS name, "
                   "n.aliasText AS aliasText"}


async def _expected_stats(graph) -> dict:
    """The statistics counted from the nodes' text itself, kind by kind."""
    out = {}
    for kind, query in TEXTS.items():
        nodes = [term_stats.node_terms(kind, r) for r in await graph.read(query)]
        if nodes:
            out[kind] = {"docs": len(nodes), "tokens": sum(n["termCount"] for n in nodes),
                         "df": dict(Counter(t for n in nodes for t in n["terms"]))}
    return out


async def _stored_stats(graph) -> dict:
    out = {}
    for r in await graph.read("MATCH (c:CorpusStat {tenant: $tenant}) RETURN c.kind AS kind, "
                              "c.docs AS docs, c.tokens AS tokens"):
        out[r["kind"]] = {"docs": r["docs"], "tokens": r["tokens"], "df": {}}
    for r in await graph.read("MATCH (s:TermStat {tenant: $tenant}) RETURN s.kind AS kind, "
                              "s.term AS term, s.df AS df"):
        out.setdefault(r["kind"], {"docs": None, "tokens": None, "df": {}})["df"][r["term"]] = r["df"]
    return {k: v for k, v in out.items() if v["docs"] or v["df"]}


async def _keyword(services, tenant: str, query: str) -> list[tuple[str, float]]:
    res = await SearchService(services).search(tenant, SearchRequest(query=query, method=Method.KEYWORD,
                                                                     top_k=20))
    return [(h.node["id"], [(c.channel, round(c.score, 9)) for c in h.channels]) for h in res.hits]


def test_words_are_cut_like_lucene_and_possessives_dropped():
    assert term_stats.words("Caroline's dog, don't ASK: e-mail 3.5") == [
        "caroline", "dog", "don't", "ask", "e", "mail", "3", "5"]
    t = term_stats.node_terms("turn", {"speaker": "Maya", "content": "The dog and the dog's ball"})
    assert t == {"terms": ["ball", "dog", "maya"], "termFreqs": [1, 2, 1], "termCount": 7}


def test_words_count_by_their_stem_in_nodes_and_queries():
    # Porter's stems, as Lucene's english analyzer cuts the indexed text.
    assert term_stats.query_terms("Which paintings has Caroline's friend painted? She paints.") == [
        "paint", "carolin", "friend"]
    t = term_stats.node_terms("turn", {"speaker": "Mel", "content": "Painting, painted, paints: running"})
    assert t == {"terms": ["mel", "paint", "run"], "termFreqs": [1, 3, 1], "termCount": 5}


def test_changes_count_a_new_node_once_and_a_renamed_one_by_difference():
    old = term_stats.node_terms("entity", {"name": "Melanie Hart", "aliasText": ""})
    new = term_stats.node_terms("entity", {"name": "Melanie Hart", "aliasText": " Mel"})
    assert term_stats.changes("entity", [None], [old]) == {
        "kind": "entity", "docs": 1, "tokens": 2, "termDf": [{"term": "hart", "n": 1}, {"term": "melani", "n": 1}]}
    assert term_stats.changes("entity", [old], [new]) == {
        "kind": "entity", "docs": 0, "tokens": 1, "termDf": [{"term": "mel", "n": 1}]}
    assert term_stats.changes("entity", [new], [old])["termDf"] == [{"term": "mel", "n": -1}]


async def test_statistics_follow_ingest_and_forget(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    await Ingestor(services).memorize(graph.tenant, "c2", [
        {"id": "x1", "speaker": "Maya", "content": "My zymurgy course starts next week.",
         "timestamp": "2024-06-01T10:00:00Z"}], flush=True)
    expected = await _expected_stats(graph)
    assert expected["turn"]["df"][term_stats.stem("zymurgy")] == 1
    assert await _stored_stats(graph) == expected

    memory = ("MATCH (n) WHERE n.tenant = $tenant AND NOT n:TermStat AND NOT n:CorpusStat "
              "RETURN count(n) AS n")
    before = (await graph.read(memory))[0]["n"]
    deleted = await forget(graph, ForgetSelection(conversation_id="c2"))
    # The count a client is told is of its memory, not of the statistics that went with it.
    assert deleted == before - (await graph.read(memory))[0]["n"] > 0
    after = await _stored_stats(graph)
    assert after == await _expected_stats(graph)
    # A forgotten word leaves no trace in any statistic.
    assert all(term_stats.stem("zymurgy") not in s["df"] for s in after.values())

    await forget(graph, ForgetSelection(everything=True))
    assert await graph.read("MATCH (s) WHERE (s:TermStat OR s:CorpusStat) AND s.tenant = $tenant "
                            "RETURN s") == []


async def test_statistics_stay_exact_when_forget_and_ingest_run_at_once(services, graph):
    ingest = Ingestor(services)
    await ingest.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    await ingest.memorize(graph.tenant, "c2", maya_and_sam(), flush=True)
    # Forgetting c1 while c3 (same words: the same statistics) and more of c2 are written.
    later = [{**m, "id": f"{m['id']}b", "timestamp": m["timestamp"] + timedelta(days=200)}
             for m in maya_and_sam()]
    await asyncio.gather(forget(graph, ForgetSelection(conversation_id="c1")),
                         ingest.memorize(graph.tenant, "c3", maya_and_sam(), flush=True),
                         ingest.memorize(graph.tenant, "c2", later, flush=True))
    assert await _stored_stats(graph) == await _expected_stats(graph)


async def test_one_conversation_forgotten_thrice_at_once_is_taken_back_once(services, graph):
    # A client resending a forget that seemed to time out: both calls find the same nodes.
    ingest = Ingestor(services)
    await ingest.memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    await ingest.memorize(graph.tenant, "c2", maya_and_sam()[:4], flush=True)
    memory = "MATCH (n {tenant: $tenant}) WHERE NOT n:TermStat AND NOT n:CorpusStat RETURN count(n) AS n"
    nodes = (await graph.read(memory))[0]["n"]
    counts = await asyncio.gather(*(forget(graph, ForgetSelection(conversation_id="c1")) for _ in range(3)))
    assert await _stored_stats(graph) == await _expected_stats(graph)
    left = (await graph.read(memory))[0]["n"]
    assert sum(counts) == nodes - left  # each node counted once
    assert await _keyword(services, graph.tenant, "Maya")  # c2's episodes still score


async def test_another_tenants_text_moves_no_score(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    query = "Maya moved to Berlin for work"
    before = await _keyword(services, graph.tenant, query)
    assert before
    # Another tenant writes the query's words many times over, in texts of every length.
    other = TenantGraph(services.driver, f"t_{uuid.uuid4().hex[:12]}", services.settings.neo4j_database)
    noise = [{"id": f"n{i}", "speaker": "Maya" if i % 2 else "Sam",
              "content": " ".join(["Berlin work moved"] * (1 + i % 4) + ["filler"] * (i % 7)),
              "timestamp": f"2024-07-{1 + i % 28:02d}T10:00:00Z"} for i in range(60)]
    try:
        await Ingestor(services).memorize(other.tenant, "n", noise, flush=True)
        assert await _keyword(services, graph.tenant, query) == before
    finally:
        await forget(other, ForgetSelection(everything=True))


async def test_another_tenants_text_does_not_choose_the_candidates(services, graph):
    # One Lucene search OR-ing the words kept the texts its whole-index statistics ranked first:
    # another tenant writing "zebra" 200 times made all of this tenant's zebra turns fall out
    # of its results (and told it how often others wrote the word).
    def said(prefix, word, n, day):
        return [{"id": f"{prefix}{i}", "speaker": "Maya", "content": f"{word} {i}",
                 "timestamp": f"2024-07-{day:02d}T10:{i // 60:02d}:{i % 60:02d}Z"} for i in range(n)]

    ingest = Ingestor(services)
    await ingest.memorize(graph.tenant, "z", said("z", "zebra", 10, 1), flush=True)
    await ingest.memorize(graph.tenant, "y", said("y", "yak", 60, 2), flush=True)

    async def found() -> list[str]:
        res = await SearchService(services).search(graph.tenant, SearchRequest(
            query="zebra yak", method=Method.KEYWORD, top_k=10, kinds=("turn",)), record_access=False)
        return [h.node["id"] for h in res.hits]

    before = await found()
    assert any(i.startswith("z") for i in before), before
    other = TenantGraph(services.driver, f"t_{uuid.uuid4().hex[:12]}", services.settings.neo4j_database)
    try:
        await ingest.memorize(other.tenant, "n", said("n", "zebra", 200, 3), flush=True)
        assert await found() == before
    finally:
        await forget(other, ForgetSelection(everything=True))


async def test_keyword_scores_are_bm25_over_the_tenants_own_nodes(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    query = "Maya Berlin peanuts allergy Lisbon"
    words = term_stats.query_terms(query)
    kinds = ("turn", "fact", "memcell")
    vector = [float(x) for x in services.embedder.embed([query])[0]]
    record = await graph.read_one(
        keyword.query_for(kinds), perWord=100, limit=50, terms=words, adapted=vector,
        **{f"lucene_{k}": keyword.lucene_for(k, safe_terms(query), graph.tenant) for k in kinds},
        **filters.params(SearchRequest(query=query)))
    for kind in kinds:
        nodes = {r["key"]: term_stats.node_terms(kind, r) for r in await graph.read(TEXTS[kind])}
        docs, avglen = len(nodes), sum(t["termCount"] for t in nodes.values()) / len(nodes)

        def bm25(t) -> float:
            total = 0.0
            for w in words:
                if w in t["terms"]:
                    df = sum(1 for x in nodes.values() if w in x["terms"])
                    tf = t["termFreqs"][t["terms"].index(w)]
                    idf = math.log(1 + (docs - df + 0.5) / (df + 0.5))
                    total += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * t["termCount"] / avglen))
            return total

        assert record[kind], kind
        for row in record[kind]:
            assert row["score"] == pytest.approx(bm25(nodes[row["key"]]), rel=1e-9), kind
        scores = [row["score"] for row in record[kind]]
        if kind != "turn":  # turns are ranked in Python, with the turn before them
            assert scores == sorted(scores, reverse=True)


async def test_a_query_finds_other_forms_of_its_words(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", [
        {"id": "p1", "speaker": "Maya", "content": "I spent the whole Sunday painting the old barn.",
         "timestamp": "2024-06-01T10:00:00Z"},
        {"id": "p2", "speaker": "Sam", "content": "Lovely, send me a photo when it is dry.",
         "timestamp": "2024-06-01T10:01:00Z"}], flush=True)
    # "paintings" shares no word with the turn: only their stem (Lucene's and the statistics').
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="paintings?", method=Method.KEYWORD, kinds=("turn",)))
    own = {h.node["id"]: c.score for h in res.hits for c in h.channels
           if c.channel == "keyword" and "before matched" not in c.note}
    assert list(own) == ["p1"] and own["p1"] > 0


async def test_rebuild_gives_text_written_before_the_statistics_its_terms(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    expected = await _expected_stats(graph)
    # As a database from before the statistics existed: no terms on nodes, no statistics.
    await graph.write("MATCH (n) WHERE n.tenant = $tenant REMOVE n.terms, n.termFreqs, n.termCount")
    for query in term_stats.PURGE.values():
        await graph.auto_commit(query)
    assert await _keyword(services, graph.tenant, "Berlin") == []
    filled = await term_stats.rebuild(graph)
    assert filled == sum(s["docs"] for s in expected.values())
    assert await _stored_stats(graph) == expected
    assert await _keyword(services, graph.tenant, "Berlin") != []

    # Terms counted by an older version (plain words) are cut again when asked to.
    await graph.write("MATCH (n:Turn) WHERE n.tenant = $tenant SET n.terms = ['stale'], n.termFreqs = [1]")
    assert await term_stats.rebuild(graph, recount_terms=True) == filled
    assert await _stored_stats(graph) == expected


@pytest.fixture
async def remembered(services, graph) -> str:
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    return graph.tenant


def test_engram_recount_repairs_a_tenants_statistics(remembered, settings, monkeypatch):
    """The command as a user types it (typer's runner, in this process), on statistics left as
    the double deletion left them: an episode too few, the token count gone, a word dropped."""
    from typer.testing import CliRunner

    from app.cli import app
    from app.settings import get_settings
    from app.store.driver import make_driver

    async def with_graph(fn):
        driver = make_driver(settings)
        try:
            return await fn(TenantGraph(driver, remembered, settings.neo4j_database))
        finally:
            await driver.close()

    async def damage(g):
        await g.write("MATCH (c:CorpusStat {tenant: $tenant, kind: 'memcell'}) SET c.docs = c.docs - 1 "
                      "REMOVE c.tokens")
        await g.write("MATCH (s:TermStat {tenant: $tenant, kind: 'turn', term: 'berlin'}) DELETE s")
        return await _stored_stats(g) != await _expected_stats(g)

    async def exact(g):
        return await _stored_stats(g) == await _expected_stats(g)

    assert asyncio.run(with_graph(damage))
    for name in ("neo4j_uri", "neo4j_user", "neo4j_password", "neo4j_database"):
        monkeypatch.setenv(f"ENGRAM_{name.upper()}", str(getattr(settings, name)))
    get_settings.cache_clear()
    try:
        res = CliRunner().invoke(app, ["recount", "--tenant", remembered])
    finally:
        get_settings.cache_clear()
    assert res.exit_code == 0, res.output
    assert "counted again" in " ".join(res.output.split())
    assert asyncio.run(with_graph(exact))


async def test_a_word_longer_than_any_index_key_is_stored_and_found_in_pieces(services, graph):
    # A pasted firmware dump or base64 blob: one "word" of thousands of characters. Its keyword
    # statistics (a TermStat per word, in a unique index whose keys hold at most ~8 KB) failed
    # the whole write; Lucene cuts such a word into pieces of 255 characters, and so do we.
    blob = "".join("0123456789abcdef"[(i * 7) % 16] for i in range(9200))
    said = [{"id": "w1", "speaker": "Ana", "content": f"the firmware dump is {blob}", "timestamp": DAY},
            {"id": "w2", "speaker": "Ana", "content": "Q" + blob.upper() + " was the key, Zed said.",
             "timestamp": DAY + timedelta(minutes=1)}]
    rep = await Ingestor(services).memorize(graph.tenant, "c1", said, flush=True)
    assert rep.accepted == 2 and not rep.process.errors and rep.process.failed_cells == 0
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.status AS s, t.terms AS terms")
    assert [r["s"] for r in rows] == ["done", "done"]
    assert max(len(w) for r in rows for w in r["terms"]) <= term_stats.MAX_WORD
    assert term_stats.words(blob) == [blob[i:i + 255] for i in range(0, 9200, 255)]
    res = await SearchService(services).search(graph.tenant, SearchRequest(query="firmware dump",
                                                                           method=Method.KEYWORD))
    assert any("firmware" in t["content"] for h in res.hits for t in h.evidence)
