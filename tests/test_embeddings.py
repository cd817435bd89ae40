"""Small embedding requests made together share a batch; search queries go through the int8
graph, alone; query vectors reach Neo4j intact."""
import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from neo4j.vector import Vector

from app.embeddings import Coalescer


def test_requests_made_while_a_batch_runs_go_together_in_the_next():
    batches: list[list[str]] = []
    first_started, release = threading.Event(), threading.Event()

    def embed(texts):
        batches.append(list(texts))
        if len(batches) == 1:
            first_started.set()
            release.wait(5)
        if "boom" in texts:
            raise RuntimeError("model failed")
        return np.array([[float(len(t)), float(i)] for i, t in enumerate(texts)])

    c = Coalescer(embed, ThreadPoolExecutor(max_workers=1))
    first = c.submit(["a"])
    assert first_started.wait(5)
    queued = [c.submit(["bb", "ccc"]), c.submit(["dddd"]), c.submit(["e"])]
    release.set()
    assert first.result(5).tolist() == [[1.0, 0.0]]
    # one batch for the three waiting requests, each given back its own rows in order
    assert batches[1] == ["bb", "ccc", "dddd", "e"]
    assert [f.result(5)[:, 0].tolist() for f in queued] == [[2.0, 3.0], [4.0], [1.0]]
    # a failing batch fails each of its callers, and the next batch works again
    failing = c.submit(["boom"])
    with pytest.raises(RuntimeError, match="model failed"):
        failing.result(5)
    assert c.submit(["ok"]).result(5)[:, 0].tolist() == [2.0]



def test_a_request_its_caller_gave_up_stops_none_after_it():
    # A caller's task cancelled (a shutdown, a timeout) cancelled its future; setting it raised
    # in the drain thread, which ended marked as draining: every later request waited forever.
    started, release = threading.Event(), threading.Event()

    def embed(texts):
        started.set()
        release.wait(5)
        return np.array([[float(len(t))] for t in texts])

    c = Coalescer(embed, ThreadPoolExecutor(max_workers=1))
    first = c.submit(["a"])
    assert started.wait(5)
    gone = c.submit(["bb"])
    assert gone.cancel()
    release.set()
    assert first.result(5).tolist() == [[1.0]]
    assert c.submit(["ccc"]).result(5).tolist() == [[3.0]]


async def test_concurrent_queries_get_the_vectors_they_would_get_alone(services):
    emb = services.require_embedder()
    queries = [f"What did Maya say about topic number {i}?" for i in range(12)] + ["peanuts"]
    together = await asyncio.gather(*(emb.aembed([q]) for q in queries))
    alone = emb.embed(queries)
    for got, want in zip(together, alone):
        assert np.allclose(got[0], want, atol=1e-5)


async def test_a_query_vector_sent_as_a_cypher_vector_scores_like_a_list(services):
    v = services.require_embedder().embed(["Where does Maya work?"])[0]
    w = services.require_embedder().embed(["Maya started at Northwind."])[0]
    param = services.vector_param(v)
    assert isinstance(param, Vector)  # the server the tests run is Bolt 6
    async with services.driver.session() as s:
        row = await (await s.run("RETURN vector.similarity.cosine($w, $p) AS a, vector.similarity.cosine($w, $l) AS b",
                                 w=[float(x) for x in w], p=param, l=[float(x) for x in v])).single()
    assert row["a"] == pytest.approx(row["b"], abs=1e-6)
    assert row["a"] == pytest.approx((1 + float(np.dot(v, w))) / 2, abs=1e-5)


def test_onnx_runtime_gives_pytorchs_vectors(services, tmp_path):
    from app.construction.sentences import sentence_spans
    from app.embeddings import Embedder

    onnx = services.require_embedder()
    assert onnx.runtime == "onnx"  # the default, with onnxruntime installed
    torch = Embedder(services.settings.embedding_model, onnx.batch_size, runtime="torch")
    head = "Maya (04 March 2024): "
    body = "I started a new job at Northwind. I'm also allergic to peanuts, so no satay for me."
    texts = ["peanuts?", head + body, "word " * 400]  # short, two sentences, cut at the model's limit
    assert np.allclose(onnx.embed(texts), torch.embed(texts), atol=1e-5)
    assert np.allclose(torch.embed(texts), torch.model.encode(texts, normalize_embeddings=True), atol=1e-5)
    spans = sentence_spans(body, offset=len(head))
    (_, a), (_, b) = (e.embed_spans([head + body], [spans], [len(head)]) for e in (onnx, torch))
    assert len(a[0]) == len(b[0]) == 2
    assert all(np.allclose(x, y, atol=1e-5) for x, y in zip(a[0], b[0]))


TURNS = ["Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
         "Melanie: I painted a lake sunrise last year, it's one of my favourites.",
         "Caroline: I'm researching adoption agencies, I want to give a kid a loving home.",
         "Melanie: We went camping in the mountains with the kids last weekend.",
         "Caroline: My friends gave me a necklace from my grandma's country, Sweden.",
         "Melanie: I signed up for a pottery class, clay is so calming.",
         "Maya: I'm allergic to peanuts, so I always check the menu first.",
         "Maya: I started at Northwind as a data engineer in March."]


async def test_search_queries_go_through_the_int8_graph_and_find_what_the_float_one_finds(services):
    emb = services.require_embedder()
    assert emb.query_precision == "int8"  # the default (Settings.query_embedding)
    stored = emb.embed(TURNS)
    asked = emb.embed_queries(TURNS)
    # Not the float vectors (so the int8 graph ran), but close to them...
    cos = (stored * asked).sum(axis=1)
    assert not np.allclose(stored, asked, atol=1e-4)
    assert cos.min() > 0.98
    # ...close enough that each text, asked through it, finds its own stored vector first, and
    # questions find the turn that answers them.
    assert ((asked @ stored.T).argmax(axis=1) == np.arange(len(TURNS))).all()
    questions = ["What is Maya allergic to?", "Where did Melanie go camping?", "What did Melanie paint?"]
    assert ((emb.embed_queries(questions) @ stored.T).argmax(axis=1) == [6, 3, 1]).all()
    assert ((emb.embed(questions) @ stored.T).argmax(axis=1) == [6, 3, 1]).all()


async def test_a_query_vector_does_not_depend_on_what_else_is_asked_at_the_same_time(services):
    emb = services.require_embedder()
    queries = [f"What did Maya say about topic number {i}?" + " and more" * (i % 5) for i in range(12)]
    together = await asyncio.gather(*(emb.aembed_queries([q]) for q in queries))
    in_one_call = await emb.aembed_queries(queries)
    alone = [emb.embed_queries([q])[0] for q in queries]
    for a, b, c in zip(together, in_one_call, alone):
        assert np.array_equal(a[0], c) and np.array_equal(b, c)


def test_the_int8_graph_is_written_once_beside_the_float_one(services):
    from app.embedding_onnx import quantized

    emb = services.require_embedder()
    path = quantized(emb.onnx_path)
    assert path.parent == emb.onnx_path.parent and path.name.endswith("-int8.onnx")
    before = path.stat().st_mtime_ns
    assert quantized(emb.onnx_path) == path and path.stat().st_mtime_ns == before
    assert not list(path.parent.glob("*.tmp"))  # no half-written file left behind


def test_query_embedding_float32_embeds_queries_like_stored_texts(services):
    from app.embeddings import Embedder

    emb = Embedder(services.settings.embedding_model, 8, "onnx", services.require_embedder().onnx_path.parent,
                   query_precision="float32")
    assert emb.query_precision == "float32"
    assert np.array_equal(emb.embed_queries(TURNS[:3]), emb.embed(TURNS[:3]))


def test_an_unknown_query_embedding_is_refused():
    from pydantic import ValidationError

    from app.settings import Settings

    with pytest.raises(ValidationError, match="query_embedding"):
        Settings(query_embedding="int4")


async def test_loading_the_model_sets_how_long_a_thread_may_hold_the_gil(services):
    import sys

    from app.runtime.services import open_services

    # The session's services loaded the model with the default setting.
    assert sys.getswitchinterval() == pytest.approx(services.settings.gil_switch_interval_ms / 1000)
    before = sys.getswitchinterval()
    try:
        async with open_services(services.settings.model_copy(update={"gil_switch_interval_ms": 2.0})):
            assert sys.getswitchinterval() == pytest.approx(0.002)
        sys.setswitchinterval(0.005)
        async with open_services(services.settings, load_model=False):
            assert sys.getswitchinterval() == pytest.approx(0.005)  # no model, no threads of its own
    finally:
        sys.setswitchinterval(before)


def test_a_gil_switch_interval_out_of_range_is_refused():
    from pydantic import ValidationError

    from app.settings import Settings

    for bad in (0, -1, 1000):
        with pytest.raises(ValidationError, match="gil_switch_interval_ms"):
            Settings(gil_switch_interval_ms=bad)


async def test_a_fill_waiting_for_another_can_be_cancelled_without_breaking_it(services):
    # Cancelling a fill that waited for another's texts cancelled the other's future too, whose
    # own end then failed ("InvalidStateError: invalid state"), losing its vectors' hand-over.
    from app.construction.vectors import TextVectors

    vectors = TextVectors(services.embedder)
    texts = [f"Maya said thing number {k} about the garden and the bikes." for k in range(64)]
    owner = vectors.start(texts, bulk=True)
    await asyncio.sleep(0)  # the owner has registered its texts as in flight
    waiter = asyncio.create_task(vectors.fill(texts))
    await asyncio.sleep(0.01)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await owner  # raised InvalidStateError before
    assert all(t in vectors for t in texts)
