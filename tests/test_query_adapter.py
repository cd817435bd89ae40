"""The query adapter: what it maps, where a search uses it (against the real Neo4j: turns and
facts, not foresight), and that fitting it moves questions toward the turns that prove them."""
import numpy as np
import pytest

from app.evaluation.adapter_fit import Proved, fit, held_out
from app.recollection.query_adapter import DEFAULT_PATH, QueryAdapter
from app.recollection.request import Method, SearchRequest
from tests.test_recollection import DAY2, memory, search  # noqa: F401 (the fixture)


def test_a_mapped_vector_is_a_unit_vector_and_the_identity_maps_nothing():
    v = np.random.default_rng(1).standard_normal(8).astype(np.float32)
    v /= np.linalg.norm(v)
    assert np.allclose(QueryAdapter(np.eye(8, dtype=np.float32)).apply(v), v)
    mapped = QueryAdapter(np.diag(np.arange(1, 9)).astype(np.float32)).apply(v)
    assert np.isclose(np.linalg.norm(mapped), 1.0) and not np.allclose(mapped, v)


def test_the_shipped_adapter_fits_the_model(services, tmp_path):
    shipped = QueryAdapter.load(DEFAULT_PATH)
    assert shipped.matrix.shape == (services.embedder.dimensions,) * 2
    # A correction of the model's vector, not a new one: a question keeps most of its direction.
    q = services.embedder.embed_queries(["Where does Maya work?"])[0]
    assert 0.5 < float(shipped.apply(q) @ q) < 1.0
    np.save(tmp_path / "bad.npy", np.zeros((3, 4)))
    with pytest.raises(ValueError, match="square"):
        QueryAdapter.load(tmp_path / "bad.npy")


async def test_turns_and_facts_are_searched_with_the_mapped_vector_foresight_with_the_models_own(memory, searcher):
    query = "Can you suggest a good place for dinner tonight?"
    searcher.adapter = None
    plain = await search(searcher, memory, query, top_k=10, now=DAY2)
    # A map that turns the query around: the turn and fact indexes now bring the farthest first,
    # each scored (1 + cosine) / 2 against the opposite vector.
    searcher.adapter = QueryAdapter(-np.eye(searcher.services.embedder.dimensions, dtype=np.float32))
    turned = await search(searcher, memory, query, top_k=10, now=DAY2)
    for kind in ("turn", "fact"):
        before = {c.key: c.score for c in plain.rankings["vector"] if c.kind == kind}
        after = {c.key: c.score for c in turned.rankings["vector"] if c.kind == kind}
        both = before.keys() & after.keys()
        assert both and all(abs(before[k] + after[k] - 1.0) < 1e-3 for k in both), kind
        assert next(iter(before)) != next(iter(after)), kind
    # Foresight keeps the model's own vector (its threshold was set on it): the constraint stays.
    assert plain.rankings["foresight"] == turned.rankings["foresight"] != []
    assert any(h.kind == "foresight" for h in turned.hits)
    vector_only = await search(searcher, memory, query, Method.VECTOR, top_k=5, now=DAY2)
    assert {c.kind for c in vector_only.rankings["vector"]} <= {"turn", "fact"}


def _toy(seed: int, questions: int = 60, dim: int = 16) -> Proved:
    """Questions whose proving turn is a fixed rotation of them: raw cosine misses it."""
    rng = np.random.default_rng(seed)
    rotation = np.linalg.qr(np.random.default_rng(0).standard_normal((dim, dim)))[0].astype(np.float32)
    q = rng.standard_normal((questions, dim)).astype(np.float32)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    proof = q @ rotation.T
    decoys = rng.standard_normal((questions, dim)).astype(np.float32)
    turns = np.concatenate([proof, decoys / np.linalg.norm(decoys, axis=1, keepdims=True)])
    return Proved(f"c{seed}", q, turns, [[i] for i in range(questions)])


def _first_is_proof(adapter: QueryAdapter | None, data: Proved) -> float:
    q = data.queries if adapter is None else np.stack([adapter.apply(x) for x in data.queries])
    return float(np.mean([int(np.argmax(data.turns @ x)) in p for x, p in zip(q, data.proof)]))


def test_fitting_moves_questions_toward_their_proof_on_conversations_it_never_saw():
    train, unseen = [_toy(1), _toy(2)], _toy(3)
    fitted = fit(train, l2=1e-4, steps=150)
    assert _first_is_proof(None, unseen) < 0.3
    assert _first_is_proof(fitted, unseen) > 0.8
    assert fit(train, l2=1e-4, steps=150).matrix.tobytes() == fitted.matrix.tobytes()  # deterministic
    folds = held_out([*train, unseen])
    assert set(folds) == {"c1", "c2", "c3"} and held_out(train[:1]) == {}
    with pytest.raises(ValueError, match="no question"):
        fit([Proved("c", unseen.queries, unseen.turns, [[] for _ in unseen.proof])])
