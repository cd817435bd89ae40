"""Fusion on hand-made rankings: the depth tiers, determinism, evidence credit, the learned order."""
from app.recollection.channels.base import Candidate
from app.recollection.fusion import fuse, rrf

W = {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0, "e": 1.0}


def _ranking(prefix: str, n: int, at: dict[int, str] | None = None) -> list[Candidate]:
    """n turn candidates; `at` puts a named turn at a 1-based rank."""
    out = [Candidate("turn", f"{prefix}{i}", 1.0, evidence=(f"{prefix}{i}",)) for i in range(n)]
    for rank, key in (at or {}).items():
        out[rank - 1] = Candidate("turn", key, 1.0, evidence=(key,))
    return out


def test_a_channels_first_hit_beats_a_turn_found_deep_by_many():
    # "deep" sits at rank 60 in five rankings; "top" is first in one of them.
    rankings = {ch: _ranking(ch, 80, {60: "deep"}) for ch in W}
    rankings["a"][0] = Candidate("turn", "top", 1.0, evidence=("top",))
    flat = [f.key for f in rrf(rankings, W, 60)]
    assert flat.index("deep") < flat.index("top")  # plain RRF over 80: agreement in the tail wins
    tiered = [f.key for f in fuse(rankings, W, 60, None, top=20)]
    assert tiered.index("top") < tiered.index("deep")
    assert "deep" in tiered  # deeper candidates still come, after the first tier


def test_the_second_tier_adds_only_new_proof_and_the_order_is_stable():
    rankings = {"a": _ranking("x", 30), "b": _ranking("y", 30, {25: "x0"})}
    out = fuse(rankings, W, 60, None, top=20)
    keys = [f.key for f in out]
    assert len(keys) == len(set(keys))  # x0 is in the first tier; its deep duplicate is not repeated
    assert keys[:2] in (["x0", "y0"], ["y0", "x0"]) and keys.index("x25") > keys.index("y19")
    assert [f.key for f in fuse(rankings, W, 60, None, top=20)] == keys


def test_short_rankings_fuse_as_plain_rrf():
    rankings = {"a": _ranking("x", 5), "b": _ranking("y", 5, {2: "x0"})}
    assert [f.key for f in fuse(rankings, W, 60, None, top=20)] == [f.key for f in rrf(rankings, W, 60)]


def test_learned_scores_order_hits_and_only_the_best_turns_are_proof():
    from app.recollection.fusion import ranked

    rankings = {"a": [Candidate("memcell", "m", 1.0, evidence=("t1", "t2", "t3")),
                      Candidate("turn", "t4", 1.0, evidence=("t4",))]}
    T = {"t1": 0.2, "t2": 0.9, "t3": 0.1, "t4": 0.5}
    out = ranked(rankings, W, 60, T, proof_size=2)
    assert [f.key for f in out] == ["m", "t4"]
    assert out[0].evidence == ["t2"] and out[0].score == 0.9  # t1 and t3 are not among the best 2
    # A turn outside the proof keeps a hit's place by its best turn.
    out = ranked(rankings, W, 60, {"t1": 0.2, "t2": 0.3, "t3": 0.1, "t4": 0.5}, proof_size=1)
    assert [(f.key, f.evidence) for f in out] == [("t4", ["t4"]), ("m", ["t2"])]


def test_a_reply_among_the_best_turns_is_a_hit_of_its_own():
    from app.recollection.fusion import ranked

    rankings = {"a": [Candidate("turn", "q", 1.0, evidence=("q",), reply="r")]}
    out = ranked(rankings, W, 60, {"q": 0.4, "r": 0.6}, proof_size=5)
    assert [f.key for f in out] == ["r", "q"]
    assert out[0].channels[0].channel == "context"


def test_a_pinned_channels_first_candidate_ranks_no_lower_than_the_slot():
    from app.recollection.fusion import PINNED_SLOT, ranked

    turns = [Candidate("turn", f"t{i}", 1.0, evidence=(f"t{i}",)) for i in range(10)]
    rankings = {"keyword": turns, "foresight": [Candidate("foresight", "plan", 0.9, evidence=("src",))]}
    T = {f"t{i}": 1.0 - i / 20 for i in range(10)} | {"src": 0.01}
    keys = [f.key for f in ranked(rankings, W, 60, T, proof_size=20)]
    assert keys.index("plan") == len(keys) - 1  # what the scores alone say
    keys = [f.key for f in ranked(rankings, W, 60, T, proof_size=20, pinned=("foresight",))]
    assert keys.index("plan") == PINNED_SLOT - 1
    assert keys[:PINNED_SLOT - 1] == [f"t{i}" for i in range(PINNED_SLOT - 1)]
    # A turn split off its episode does not push the pinned hit down.
    rankings = {"keyword": [Candidate("memcell", "m", 1.0, evidence=("t1", "t9")),
                            Candidate("turn", "t3", 1.0, evidence=("t3",)), Candidate("turn", "t4", 1.0, evidence=("t4",))],
                "foresight": [Candidate("foresight", "plan", 0.9, evidence=("src",))]}
    T = {"t1": 0.9, "t3": 0.8, "t9": 0.75, "t4": 0.7, "src": 0.01}
    out = ranked(rankings, W, 60, T, proof_size=20, pinned=("foresight",))
    assert [f.key for f in out] == ["m", "t3", "plan", "t9", "t4"]


def test_a_weak_candidate_of_a_pinned_channel_comes_after_the_answers_within_its_own_slot():
    from dataclasses import replace

    from app.recollection.fusion import PINNED_SLOT, WEAK_SLOT, ranked

    # A named person's constraint found below the trigger's bar (channels/foresight.py): it
    # surfaces (it was left last, where its score put it), but after the best answers.
    turns = [Candidate("turn", f"t{i}", 1.0, evidence=(f"t{i}",)) for i in range(10)]
    weak = Candidate("foresight", "rule", 0.55, evidence=("src",), weak=True)
    T = {f"t{i}": 1.0 - i / 20 for i in range(10)} | {"src": 0.01}
    keys = [f.key for f in ranked({"keyword": turns, "foresight": [weak]}, W, 60, T, proof_size=20,
                                  pinned=("foresight",))]
    assert keys.index("rule") == WEAK_SLOT - 1 and keys[:WEAK_SLOT - 1] == ["t0", "t1", "t2", "t3"]
    keys = [f.key for f in ranked({"keyword": turns, "foresight": [replace(weak, weak=False)]}, W, 60, T,
                                  proof_size=20, pinned=("foresight",))]
    assert keys.index("rule") == PINNED_SLOT - 1
    # A better hit that holds its turn already brings it: folded into that hit, not repeated.
    said = [Candidate("fact", "f", 1.0, evidence=("src",))] + turns
    out = ranked({"keyword": said, "foresight": [weak]}, W, 60, T | {"src": 0.99}, proof_size=20,
                 pinned=("foresight",))
    assert "rule" not in [f.key for f in out]
    [fact] = [f for f in out if f.key == "f"]
    assert [(c.channel, c.folded) for c in fact.channels if c.channel == "foresight"] == [("foresight", True)]


def test_a_pinned_hit_whose_proof_an_earlier_hit_brings_is_not_folded_into_it():
    from app.recollection.fusion import ranked

    # A turn hit two channels found is the constraint's source; a foresight hit that is not
    # pinned is folded into it (its line joins the turn's), the pinned one stays a hit of its own.
    src = Candidate("turn", "src", 1.0, evidence=("src",))
    rankings = {"vector": [src], "keyword": [src, Candidate("turn", "t1", 0.5, evidence=("t1",))],
                "foresight": [Candidate("foresight", "allergy", 0.7, evidence=("src",))]}
    T = {"src": 0.9, "t1": 0.5}
    folded = ranked(rankings, W, 60, T, proof_size=20)
    assert [(f.key, f.evidence) for f in folded] == [("src", ["src"]), ("t1", ["t1"])]
    assert "foresight" in {c.channel for c in folded[0].channels}
    kept = ranked(rankings, W, 60, T, proof_size=20, pinned=("foresight",))
    assert [(f.key, f.evidence) for f in kept][0] == ("allergy", ["src"]) and "t1" in [f.key for f in kept]


def test_a_hits_best_turn_is_its_own_not_a_further_turn_of_an_episode_above():
    from app.recollection.fusion import ranked

    # "Maya moved to Berlin" is the second turn of the day's episode, whose best turn is another:
    # it stays the fact's proof, a hit of its own, not a turn of the episode the fact folds into.
    rankings = {"vector": [Candidate("memcell", "m", 0.6, evidence=("t0", "src"))],
                "graph": [Candidate("fact", "berlin", 0.7, evidence=("src",))],
                "keyword": [Candidate("turn", "t1", 1.0, evidence=("t1",))]}
    T = {"t0": 0.9, "src": 0.8, "t1": 0.5}
    out = ranked(rankings, W, 60, T, proof_size=20)
    assert [(f.key, f.evidence) for f in out] == [("m", ["t0"]), ("berlin", ["src"]), ("t1", ["t1"])]
    # The turns come in the same order as before: only which hit shows the second changed.
    assert [t for f in out for t in f.evidence] == ["t0", "src", "t1"]


def test_with_the_rankers_shares_a_hits_lines_give_each_channels_share_of_its_best_turn():
    from app.recollection.fusion import ranked

    rankings = {"a": [Candidate("fact", "f", 1.0, evidence=("t1", "t2"))],
                "b": [Candidate("turn", "t2", 1.0, evidence=("t2",))]}
    T = {"t1": 0.3, "t2": 0.8}
    shares = {"t1": {"a": 0.4}, "t2": {"a": -0.2, "b": 1.1}}
    out = ranked(rankings, W, 60, T, proof_size=5, shares=shares)
    assert [f.key for f in out] == ["f"]  # the turn hit folds into the fact that brings it first
    assert {c.channel: c.contribution for c in out[0].channels} == {"a": -0.2, "b": 1.1}


def test_evidence_reads_in_turn_score_order_across_hits():
    from app.recollection.fusion import ranked

    # The episode's second turn scores below the turn another channel found: it comes after it,
    # as a hit of its own that says where it came from, not as the episode's second proof.
    rankings = {"a": [Candidate("memcell", "m", 1.0, evidence=("t1", "t3"))],
                "b": [Candidate("turn", "t2", 1.0, evidence=("t2",))]}
    out = ranked(rankings, W, 60, {"t1": 0.9, "t2": 0.5, "t3": 0.2}, proof_size=5)
    assert [(f.key, f.evidence) for f in out] == [("m", ["t1"]), ("t2", ["t2"]), ("t3", ["t3"])]
    assert out[2].kind == "turn" and "memcell ranked above" in out[2].channels[0].note
    # Scoring above every later hit, it stays with its episode.
    out = ranked(rankings, W, 60, {"t1": 0.9, "t2": 0.5, "t3": 0.6}, proof_size=5)
    assert [(f.key, f.evidence) for f in out] == [("m", ["t1", "t3"]), ("t2", ["t2"])]


def test_a_split_turn_that_a_channel_ranked_keeps_its_own_hit_and_lines():
    from app.recollection.fusion import ranked

    rankings = {"a": [Candidate("memcell", "m", 1.0, evidence=("t1", "t3"))],
                "b": [Candidate("turn", "t2", 1.0, evidence=("t2",)), Candidate("turn", "t3", 1.0, evidence=("t3",))]}
    out = ranked(rankings, W, 60, {"t1": 0.9, "t2": 0.5, "t3": 0.2}, proof_size=5)
    assert [(f.key, f.evidence) for f in out] == [("m", ["t1"]), ("t2", ["t2"]), ("t3", ["t3"])]
    assert [c.channel for c in out[2].channels] == ["b"]


def test_rrf_keeps_an_episodes_turns_together():
    # RRF gives an episode's further turn nothing for the episode, so its score says little: the
    # episode keeps it, though another turn outscores it.
    rankings = {"a": [Candidate("memcell", "m", 1.0, evidence=("t1", "t9"))],
                "b": _ranking("x", 2, {1: "t1", 2: "t2"}), "c": _ranking("y", 2, {1: "t1", 2: "t2"}),
                "d": [Candidate("turn", "t9", 1.0, evidence=("t9",))]}
    stream = list(dict.fromkeys(t for f in rrf(rankings, W, 60) for t in f.evidence))
    assert stream == ["t1", "t9", "t2"]


def _fact_and_its_source_turn() -> dict[str, list[Candidate]]:
    """A fact and the turn it came from, both ranked by two channels (the same note: a folded
    line must not hide behind the hit's own), a scene whose best turn it is, and another turn."""
    fact, source = Candidate("fact", "f", 0.8, evidence=("t1",)), Candidate("turn", "t1", 0.7, evidence=("t1",))
    return {"vector": [fact, source],
            "keyword": [fact, source, Candidate("turn", "t9", 1.0, evidence=("t9",))],
            "scene": [Candidate("scene", "s", 0.6, evidence=("t1", "t5"))]}


def _lines(hit) -> list[tuple]:
    return [(c.channel, c.rank, c.ranked, c.folded) for c in hit.channels]


def _no_line_is_shared(hits) -> None:
    # ranked() writes each hit's lines' contributions: one object in two hits would get both.
    ids = [id(c) for h in hits for c in h.channels]
    assert len(ids) == len(set(ids))


def test_a_hits_lines_say_what_each_channel_ranked_and_which_were_folded_into_it():
    from app.recollection.fusion import ranked

    rankings = _fact_and_its_source_turn()
    # The fact's own lines first; then the source turn's and the scene's, folded into it.
    expected = [("vector", 1, "fact", False), ("keyword", 1, "fact", False),
                ("vector", 2, "turn", True), ("keyword", 2, "turn", True), ("scene", 1, "scene", True)]
    out = fuse(rankings, W, 60, None, top=20)
    assert [f.key for f in out] == ["f", "t9"]
    assert _lines(out[0]) == expected and _lines(out[1]) == [("keyword", 3, "turn", False)]
    assert [c.contribution for c in out[0].channels] == [1 / 61, 1 / 61, 1 / 62, 1 / 62, 1 / 61]
    _no_line_is_shared(out)

    shares = {"t1": {"vector": 0.7, "keyword": 0.2, "scene": 0.1}, "t9": {"keyword": 0.3}}
    out = ranked(rankings, W, 60, {"t1": 0.9, "t9": 0.4}, proof_size=5, shares=shares)
    assert [f.key for f in out] == ["f", "t9"]
    assert _lines(out[0]) == expected and _lines(out[1]) == [("keyword", 3, "turn", False)]
    # A folded line gives its channel's share of the hit's best turn, as an own line does.
    assert [c.contribution for c in out[0].channels] == [0.7, 0.2, 0.7, 0.2, 0.1]
    assert [c.contribution for c in out[1].channels] == [0.3]
    _no_line_is_shared(out)


def test_a_reply_folded_into_a_hit_keeps_its_context_line_as_a_folded_turn():
    # The reply no channel ranked comes as a context hit, a turn; the episode holding it and
    # the question brings both first, so both fold into it, and their lines say what they were.
    rankings = {"a": [Candidate("memcell", "m", 1.0, evidence=("q", "r")),
                      Candidate("turn", "q", 1.0, evidence=("q",))]}
    out = rrf(rankings, W, 60, next_of={"q": "r"})
    assert [(f.key, f.evidence) for f in out] == [("m", ["q", "r"])]
    assert _lines(out[0]) == [("a", 1, "memcell", False), ("a", 2, "turn", True),
                              ("context", 1, "turn", True)]
