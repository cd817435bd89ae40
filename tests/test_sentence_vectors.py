"""Late chunking: a fact's vector is its sentence's, read from its turn's one pass of the model."""
import numpy as np
import pytest

from app.construction.ingest import Ingestor
from app.construction.sentences import best_span, sentence_spans
from tests.conversation import DAY1

TWO_TOPICS = ("I started a new job at Northwind as a data engineer. "
              "I'm also allergic to peanuts, so no satay for me.")


@pytest.fixture
def ingestor(services):
    return Ingestor(services)


def test_sentence_spans_are_offsets_into_the_text():
    text = "Dr. Smith said hi.  It costs 3.5 euros! Really?"
    spans = sentence_spans(text, offset=10)
    assert [text[a - 10:z - 10] for a, z in spans] == ["Dr. Smith said hi.", "It costs 3.5 euros!", "Really?"]
    assert sentence_spans("   ") == []


def test_a_claim_is_matched_to_the_sentence_it_restates():
    spans = sentence_spans(TWO_TOPICS)
    assert best_span(TWO_TOPICS, spans, "Maya is allergic to peanuts.") == 1
    assert best_span(TWO_TOPICS, spans, "Maya started a new job at Northwind.") == 0


def test_span_vectors_come_from_the_same_pass_as_the_text_vector(services):
    emb = services.require_embedder()
    head = "Maya (04 March 2024): "
    text = head + TWO_TOPICS
    spans = sentence_spans(TWO_TOPICS, offset=len(head))
    vecs, span_vecs = emb.embed_spans([text, "Sam (04 March 2024): Cool."], [spans, []], [len(head), 0])
    assert np.allclose(vecs, emb.embed([text, "Sam (04 March 2024): Cool."]), atol=1e-5)
    allergy, job = emb.embed(["Who is allergic to peanuts?", "Where does Maya work?"])
    first, second = span_vecs[0]
    # each sentence's vector answers its own question better than the other sentence's does
    assert allergy @ second > allergy @ first and job @ first > job @ second
    # and better than the whole turn's vector does
    assert allergy @ second > allergy @ vecs[0]


async def test_facts_of_one_turn_get_their_own_sentence_vectors(graph, ingestor, services):
    assert services.settings.fact_vectors == "sentence"
    msgs = [{"id": "t1", "speaker": "Maya", "content": TWO_TOPICS, "timestamp": DAY1}]
    await ingestor.memorize(graph.tenant, "c1", msgs, flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn {id: 't1'})
        RETURN f.text AS text, f.embedding AS v, t.embedding AS turn,
               t.sentenceVectors AS kept""")
    assert len(rows) >= 2
    allergy = services.require_embedder().embed(["Who is allergic to peanuts?"])[0]
    by_text = {r["text"]: np.asarray(r["v"]) for r in rows}
    peanut = next(v for t, v in by_text.items() if "peanut" in t)
    job = next(v for t, v in by_text.items() if "Northwind" in t)
    assert not np.allclose(peanut, job)  # two facts, two vectors, no extra model call
    assert allergy @ peanut > allergy @ job
    assert all(r["kept"] is None for r in rows)  # sentence vectors are dropped once the cell is written


async def test_a_pending_turn_keeps_its_sentence_vectors_until_its_cell_closes(graph, ingestor):
    first = [{"id": "t1", "speaker": "Maya", "content": TWO_TOPICS, "timestamp": DAY1}]
    rep = await ingestor.memorize(graph.tenant, "c1", first)
    assert rep.process.pending == 1
    kept = await graph.read("""
        MATCH (t:Turn {tenant: $tenant, id: 't1'})
        RETURN t.sentenceSpans AS spans, size(t.sentenceVectors) AS n, size(t.embedding) AS d""")
    assert len(kept[0]["spans"]) == 4 and kept[0]["n"] == 2 * kept[0]["d"]
    await ingestor.memorize(graph.tenant, "c1", [], flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant})-[:EVIDENCED_BY]->(t:Turn {id: 't1'})
        RETURN f.text AS text, f.embedding AS v, t.sentenceVectors AS kept""")
    vecs = [np.asarray(r["v"]) for r in rows]
    assert len(rows) >= 2 and not np.allclose(vecs[0], vecs[1])
    assert all(r["kept"] is None for r in rows)
