"""Reciprocal Rank Fusion over evidence.

Channels rank different things (turns, facts, episodes, foresight) that are proved by the same
source turns. Fusing items directly would let a fact and the turn it came from compete for two
slots while neither gets credit for the other's channel. So RRF runs on the turns:

  turn score   T(t) = sum over channels c of w_c / (k + rank of t in c's hits expanded to turns)
  hit score    the best T over the hit's evidence; its evidence sorted by T
  packaging    hits in score order; a hit whose evidence is all proved by a better hit is folded
               into that hit (its channels listed there), so every hit brings new proof.

Ties are broken by the hit's own RRF score, then kind, then key: the same inputs always give
the same order. Ranks start at 1; k = 60 by default.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.recollection.channels.base import Candidate

KIND_ORDER = {"fact": 0, "foresight": 1, "memcell": 2, "turn": 3}


@dataclass
class ChannelScore:
    channel: str
    rank: int
    score: float
    contribution: float
    note: str = ""


@dataclass
class Fused:
    kind: str
    key: str
    score: float = 0.0
    own: float = 0.0  # the hit's own RRF score (tie-breaker)
    channels: list[ChannelScore] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)

    @property
    def best_rank(self) -> int:
        return min(c.rank for c in self.channels)


def turn_scores(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int) -> dict[str, float]:
    scores: dict[str, float] = {}
    for channel, cands in rankings.items():
        w = weights.get(channel, 1.0)
        seen: set[str] = set()
        rank = 0
        for c in cands:
            for t in c.evidence:
                if t in seen:
                    continue
                seen.add(t)
                rank += 1
                scores[t] = scores.get(t, 0.0) + w / (k + rank)
    return scores


def rrf(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int = 60) -> list[Fused]:
    items: dict[str, Fused] = {}
    for channel, cands in rankings.items():
        w = weights.get(channel, 1.0)
        for rank, c in enumerate(cands, start=1):
            item = items.setdefault(c.key, Fused(c.kind, c.key))
            contribution = w / (k + rank)
            item.own += contribution
            item.channels.append(ChannelScore(channel, rank, c.score, contribution, c.note))
            for t in c.evidence:
                if t not in item.evidence:
                    item.evidence.append(t)
    T = turn_scores(rankings, weights, k)
    for item in items.values():
        item.evidence.sort(key=lambda t: -T.get(t, 0.0))
        item.score = max((T.get(t, 0.0) for t in item.evidence), default=item.own)
    ordered = sorted(items.values(), key=lambda f: (-f.score, -f.own, KIND_ORDER.get(f.kind, 9), f.key))
    out: list[Fused] = []
    owner: dict[str, Fused] = {}
    for item in ordered:
        fresh = [t for t in item.evidence if t not in owner]
        if item.evidence and not fresh:
            into = owner[item.evidence[0]]
            into.channels.extend(c for c in item.channels
                                 if all((c.channel, c.rank) != (x.channel, x.rank) for x in into.channels))
            continue
        out.append(item)
        for t in item.evidence:
            owner.setdefault(t, item)
    return out
