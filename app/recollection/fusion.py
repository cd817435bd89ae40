"""Reciprocal Rank Fusion: score(d) = sum over channels c of w_c / (k + rank_c(d)).

Ranks start at 1. Ties are broken by the best single rank, then kind, then key, so the same
inputs always give the same order.
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
    channels: list[ChannelScore] = field(default_factory=list)

    @property
    def best_rank(self) -> int:
        return min(c.rank for c in self.channels)


def rrf(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int = 60) -> list[Fused]:
    fused: dict[str, Fused] = {}
    for channel, cands in rankings.items():
        w = weights.get(channel, 1.0)
        for rank, c in enumerate(cands, start=1):
            item = fused.setdefault(c.key, Fused(c.kind, c.key))
            contribution = w / (k + rank)
            item.score += contribution
            item.channels.append(ChannelScore(channel, rank, c.score, contribution, c.note))
    return sorted(fused.values(),
                  key=lambda f: (-f.score, f.best_rank, KIND_ORDER.get(f.kind, 9), f.key))
