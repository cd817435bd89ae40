"""Fusion on hand-made rankings: the depth tiers, determinism, evidence credit."""
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
