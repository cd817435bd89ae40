"""The learned turn ranker on hand-made rankings: its features, its fitting, its file."""
import json

import numpy as np
import pytest
from pydantic import ValidationError

from app.recollection import ranker
from app.recollection.channels.base import Candidate, candidates
from app.recollection.channels.keyword import with_priors
from app.recollection.ranker import (COVERAGE_AT, DEPTH, KS, OWN, PER_SOURCE, SOURCES, SPEAKER_AT, Ranker,
                                    RankerFileError)
from app.settings import Settings


def _col(source: tuple[str, str], feature: int, before: bool = False) -> int:
    return (OWN if before else 0) + SOURCES.index(source) * PER_SOURCE + feature


def _turns(prefix: str, n: int, channel_reply: bool = False) -> list[Candidate]:
    return [Candidate("turn", f"{prefix}{i}", 10.0 - i, evidence=(f"{prefix}{i}",),
                      reply=f"{prefix}{i}-reply" if channel_reply else None) for i in range(n)]


def test_features_follow_each_sources_ranks_and_scores():
    rankings = {
        "keyword": _turns("t", 3) + [Candidate("memcell", "m", 4.0, evidence=("t2", "x", "y"))],
        "vector": [Candidate("fact", "f", 0.9, evidence=("t1", "z"))],
    }
    turns, X = ranker.features(rankings, {})
    row = {t: X[i] for i, t in enumerate(turns)}
    kt = ("keyword", "turn")
    assert row["t0"][_col(kt, 0)] == pytest.approx(1.0) and row["t0"][_col(kt, len(KS))] == 1.0
    assert row["t1"][_col(kt, 0)] == pytest.approx((KS[0] + 1) / (KS[0] + 2))
    assert row["t1"][_col(kt, len(KS))] == pytest.approx(9.0 / 10.0)  # behind the leader
    # An episode counts by its best turn only; a fact by each of its sources.
    assert row["t2"][_col(("keyword", "memcell"), 0)] == pytest.approx(1.0)
    assert "x" not in row and "y" not in row
    vf = ("vector", "fact")
    assert row["t1"][_col(vf, 0)] == pytest.approx(1.0)
    assert row["z"][_col(vf, 0)] == pytest.approx((KS[0] + 1) / (KS[0] + 2)) and row["z"][_col(vf, len(KS))] == 1.0
    assert all(X[:, -1] == 1.0)  # the bias column


def test_each_source_counts_its_first_depth_turns_only():
    turns, X = ranker.features({"keyword": _turns("t", DEPTH + 5)}, {})
    assert len(turns) == DEPTH and f"t{DEPTH}" not in turns


def test_a_read_reply_carries_the_features_of_the_turn_before_it():
    rankings = {"keyword": _turns("t", 2, channel_reply=True)}
    reply_of = {c.key: c.reply for c in rankings["keyword"]}
    turns, X = ranker.features(rankings, reply_of)
    row = {t: X[i] for i, t in enumerate(turns)}
    assert np.allclose(row["t0-reply"][OWN:2 * OWN], row["t0"][:OWN])
    assert not row["t0-reply"][:OWN].any()  # no channel ranked the reply itself
    assert not row["t0"][OWN:2 * OWN].any()  # t0's own predecessor was never read


def test_a_ranked_turn_whose_reply_is_ranked_too_carries_the_replys_features():
    rankings = {"keyword": [Candidate("turn", "q", 5.0, evidence=("q",), reply="a"),
                            Candidate("turn", "a", 3.0, evidence=("a",))]}
    turns, X = ranker.features(rankings, {"q": "a"})
    row = {t: X[i] for i, t in enumerate(turns)}
    assert np.allclose(row["q"][2 * OWN:3 * OWN], row["a"][:OWN])  # q's answer is ranked
    assert np.allclose(row["a"][OWN:2 * OWN], row["q"][:OWN])  # a follows a ranked question
    assert not row["a"][2 * OWN:3 * OWN].any()


def _said(key: str, speaker: str, reply: tuple[str, str] | None = None) -> Candidate:
    speakers = ((key, speaker),) + ((reply,) if reply else ())
    return Candidate("turn", key, 1.0, evidence=(key,), reply=reply[0] if reply else None, speakers=speakers)


def test_a_rank_held_only_as_a_reply_is_not_read_again_for_the_turn_after_it():
    # "I live in Leeds" (q) matched; the assistant's "That sounds lovely" (a) is ranked by the
    # keyword channel only as its reply; the allergy turn after it (b) must not inherit q's match.
    rankings = {"keyword": [Candidate("turn", "q", 5.0, evidence=("q",), reply="a"),
                            Candidate("turn", "a", 2.5, evidence=("a",), second_hand=True)],
                "vector": [Candidate("turn", "a", 0.4, evidence=("a",), reply="b")]}
    turns, X = ranker.features(rankings, {"q": "a", "a": "b"})
    row = {t: X[i] for i, t in enumerate(turns)}
    kt, vt = ("keyword", "turn"), ("vector", "turn")
    assert row["a"][_col(kt, 0)] > 0  # its own rank stays its own
    assert row["a"][_col(kt, 0, before=True)] == row["q"][_col(kt, 0)]  # and q's is read for it
    assert not row["b"][_col(kt, 0, before=True):_col(kt, PER_SOURCE, before=True)].any()
    assert row["b"][_col(vt, 0, before=True)] == row["a"][_col(vt, 0)]  # a's first-hand rank is


def test_a_turn_the_same_speaker_says_next_is_no_reply():
    def rows(next_by: str):
        q = Candidate("turn", "q", 5.0, evidence=("q",), reply="n", speakers=(("q", "Daniel"), ("n", next_by)))
        n = Candidate("turn", "n", 1.0, evidence=("n",), speakers=(("n", next_by),))
        turns, X = ranker.features({"vector": [q, n]}, {"q": "n"})
        return {t: X[i] for i, t in enumerate(turns)}
    # "I live in a flat in Hackney" and, from Daniel again, "I'm lactose intolerant".
    same = rows("Daniel")
    assert not same["n"][OWN:2 * OWN].any() and not same["q"][2 * OWN:3 * OWN].any()
    answered = rows("Assistant")
    assert np.allclose(answered["n"][OWN:2 * OWN], answered["q"][:OWN])
    assert np.allclose(answered["q"][2 * OWN:3 * OWN], answered["n"][:OWN])


def test_the_keyword_channel_marks_a_turn_it_ranks_only_as_a_reply():
    rows = [{"key": "q", "score": 4.0, "by": "Maya", "holds": ["live"], "reply": "a", "replyBy": "Assistant",
             "replyHolds": None},
            {"key": "c", "score": 1.0, "by": "Maya", "holds": ["live"], "reply": "d", "replyBy": "Maya",
             "replyHolds": None},
            {"key": "d", "score": 0.8, "by": "Maya", "holds": ["live"], "reply": None, "replyBy": None,
             "replyHolds": None}]
    cands = {c.key: c for c in candidates("turn", with_priors(rows, 10), lambda r: r["note"])}
    assert cands["a"].second_hand and not cands["q"].second_hand
    assert not cands["d"].second_hand  # matched itself, and lifted by the turn before too


def test_speaker_columns_follow_the_speaker_the_query_names():
    rankings = {"keyword": [_said("m", "Maya", reply=("s", "Sam")), _said("j", "Jo Lee")],
                "vector": [Candidate("fact", "f", 0.9, evidence=("x",))]}  # x: speaker not read
    named, other = SPEAKER_AT, SPEAKER_AT + 1

    def cols(query):
        turns, X = ranker.features(rankings, {"m": "s"}, query)
        return {t: (X[i, named], X[i, other]) for i, t in enumerate(turns)}

    # the reply's speaker is known from the channel that read it; a name matches by any word,
    # as BM25 reads words (case, plural)
    assert cols("What did maya say?") == {"m": (1, 0), "j": (0, 1), "x": (0, 0), "s": (0, 1)}
    assert cols("Where did the Lees go?") == {"m": (0, 1), "j": (1, 0), "x": (0, 0), "s": (0, 1)}
    # no speaker named (or no query): both columns stay 0
    assert set(cols("What was said about the trip?").values()) == {(0, 0)} == set(cols("").values())


def test_the_coverage_column_weighs_the_query_words_a_turn_and_its_reply_hold():
    rankings = {"keyword": [Candidate("turn", "q", 2.0, evidence=("q",), reply="a",
                                      holds=(("q", ("zorblax",)), ("a", ("robot", "zorblax")))),
                            Candidate("turn", "m", 1.0, evidence=("m",), holds=(("m", ("maya",)),))],
                "vector": [Candidate("fact", "f", 0.9, evidence=("x",))]}  # x holds none
    idf = {"maya": 0.5, "robot": 1.5, "zorblax": 3.0}

    def coverage(word_idf):
        turns, X = ranker.features(rankings, {"q": "a"}, "", word_idf)
        return {t: X[i, COVERAGE_AT] for i, t in enumerate(turns)}

    # q with its reply holds robot and zorblax (4.5 of 5), a word held twice counts once; the
    # reply a alone the same; m only the common name
    assert coverage(idf) == pytest.approx({"q": 0.9, "a": 0.9, "m": 0.1, "x": 0.0})
    # without the words' idf (no keyword query ran) the column stays 0
    assert set(coverage(None).values()) == {0.0} == set(coverage({}).values())


def test_fitting_learns_which_source_proves_and_is_deterministic():
    # The proving turn is always the vector channel's first turn, never the keyword channel's.
    rows = []
    rng = np.random.default_rng(7)
    for q in range(40):
        kw, vec = _turns(f"k{q}-", 5), _turns(f"v{q}-", 5)
        rng.shuffle(kw)
        turns, X = ranker.features({"keyword": kw, "vector": vec}, {})
        rows.append((X, np.array([t == f"v{q}-0" for t in turns], dtype=float)))
    w = ranker.fit(rows)
    assert np.array_equal(w, ranker.fit(rows))
    model = Ranker(w)
    scores = model.scores({"keyword": _turns("a", 5), "vector": _turns("b", 5)}, {})
    assert max(scores, key=scores.get) == "b0"
    assert w[_col(("vector", "turn"), 0)] > w[_col(("keyword", "turn"), 0)]


def test_fitted_scores_are_probabilities_that_rank_each_questions_proof_first():
    # Mostly the vector channel's first turn proves the answer, sometimes the keyword channel's
    # second: fitted pairwise (within each question), then calibrated.
    rows = []
    rng = np.random.default_rng(3)
    for q in range(60):
        kw, vec = _turns(f"k{q}-", 5), _turns(f"v{q}-", 5)
        proof = f"v{q}-0" if rng.random() < 0.7 else f"k{q}-1"
        turns, X = ranker.features({"keyword": kw, "vector": vec}, {})
        rows.append((X, np.array([t == proof for t in turns], dtype=float)))
    w = ranker.fit(rows)
    p = [1.0 / (1.0 + np.exp(-(X @ w))) for X, _ in rows]
    # Calibrated: the probabilities add up to the proving turns there are (Platt scaling's fit).
    assert sum(x.sum() for x in p) == pytest.approx(sum(y.sum() for _, y in rows), rel=1e-4)
    # Ranked within each question: the vector channel's first turn leads in every one.
    turns, _ = ranker.features({"keyword": _turns("k", 5), "vector": _turns("v", 5)}, {})
    assert all(turns[int(np.argmax(px))] == "v0" for px in p)


def test_a_turns_score_splits_by_channel_and_the_bias_is_the_rest():
    model = Ranker(np.linspace(-0.5, 1.0, ranker.WIDTH))
    rankings = {"keyword": _turns("t", 4, channel_reply=True), "vector": _turns("t", 2)}
    reply_of = {c.key: c.reply for c in rankings["keyword"]}
    scores, shares = model.explain(rankings, reply_of)
    assert scores == model.scores(rankings, reply_of)
    for t, p in scores.items():
        assert sum(shares[t].values()) + model.weights[-1] == pytest.approx(np.log(p / (1 - p)))
    assert set(shares["t0"]) == {"keyword", "vector"} and set(shares["t3"]) == {"keyword"}


def test_fitting_without_a_proving_turn_is_refused():
    turns, X = ranker.features({"keyword": _turns("t", 3)}, {})
    with pytest.raises(ValueError, match="prove"):
        ranker.fit([(X, np.zeros(len(turns)))])


def test_weights_survive_the_file_and_a_file_for_other_features_is_refused(tmp_path):
    w = np.linspace(-1, 1, ranker.WIDTH)
    path = tmp_path / "r.json"
    Ranker(w, {"fitted_on": "test"}).save(path)
    back = Ranker.load(path)
    assert np.allclose(back.weights, w, atol=1e-6) and back.meta["fitted_on"] == "test"
    assert json.loads(path.read_text())["speaker"]["named"] == pytest.approx(w[SPEAKER_AT], abs=1e-6)
    assert json.loads(path.read_text())["coverage"] == pytest.approx(w[COVERAGE_AT], abs=1e-6)
    data = json.loads(path.read_text())
    for change in ({"ks": [1, 2]}, {"speaker": {"named": 1.0}}):  # a file fitted for other features
        path.write_text(json.dumps({**data, **change}))
        with pytest.raises(RankerFileError, match="fit them again"):
            Ranker.load(path)
    for column in ("speaker", "coverage"):  # or before them
        path.write_text(json.dumps({k: v for k, v in data.items() if k != column}))
        with pytest.raises(RankerFileError, match=column):
            Ranker.load(path)
    path.write_text("{not json")
    with pytest.raises(RankerFileError):
        Ranker.load(path)


def test_the_shipped_weights_load():
    model = Ranker.load()
    assert model.weights.shape == (ranker.WIDTH,) and "fitted_on" in model.meta


def test_an_unknown_fusion_is_refused():
    with pytest.raises(ValidationError):
        Settings(fusion="magic")


def test_a_weak_candidate_ranks_nothing_for_the_ranker():
    # A constraint brought only because the query names its person was the foresight channel's
    # first: "Where does Maya live?" ranked her shellfish allergy over the answer.
    allergy = Candidate("foresight", "fs", 0.2, evidence=("t4",), weak=True)
    turns, X = ranker.features({"foresight": [allergy], "vector": _turns("t", 2)}, {})
    assert "t4" not in turns
    strong = Candidate("foresight", "fs2", 0.6, evidence=("t9",))
    turns, X = ranker.features({"foresight": [strong, allergy]}, {})
    assert turns == ["t9"] and X[0][_col(("foresight", "foresight"), 0)] == pytest.approx(1.0)
