"""Small embedding requests made together share a batch; query vectors reach Neo4j intact."""
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
