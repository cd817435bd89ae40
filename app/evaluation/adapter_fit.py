"""Fitting the query adapter (app/recollection/query_adapter.py) on questions with known proof.

For each question, a softmax over its conversation's turns (cosine of the mapped query to each
stored turn vector, over a temperature TAU) should put its weight on the turns that prove it:
the loss is minus the log of the proving turns' share, averaged over questions, plus L2 x the
squared distance of W from the identity (the map stays a small correction of the model's own
vector). Full-batch Adam from W = I for STEPS steps: the same data gives the same map.

Chosen offline on LoCoMo dev, dense search over the stored turn vectors alone, each conversation
with a map fitted on the other four (R@10 0.566 without): L2 0.01 0.579, 0.1 0.617, 0.3 0.606,
1.0 0.586; TAU 0.03 / 0.05 / 0.1 at L2 0.1: 0.617 / 0.617 / 0.613; 400 steps 0.616; a map of
rank 32 (W = I + U V^T) 0.487. README, Evaluation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from app.recollection.query_adapter import QueryAdapter

L2 = 0.1
TAU = 0.05
STEPS = 200
LEARNING_RATE = 0.01


@dataclass
class Proved:
    """One conversation's questions with known proof: their vectors as a search embeds them,
    the stored vectors of the conversation's turns, and for each question its proving turns
    (rows of `turns`)."""
    conversation: str
    queries: np.ndarray  # [questions, dimensions]
    turns: np.ndarray  # [turns, dimensions]
    proof: list[list[int]]


def fit(examples: Sequence[Proved], l2: float = L2, tau: float = TAU, steps: int = STEPS) -> QueryAdapter:
    import torch  # only here: fitting is an evaluation's work, searching needs numpy alone

    examples = [e for e in examples if any(e.proof)]
    if not examples:
        raise ValueError("no question with a proving turn to fit the query adapter on")
    dim = examples[0].queries.shape[1]
    batches = []
    for e in examples:
        rows = [i for i, p in enumerate(e.proof) if p]
        target = torch.zeros(len(rows), len(e.turns), dtype=torch.bool)
        for r, i in enumerate(rows):
            target[r, e.proof[i]] = True
        batches.append((torch.from_numpy(e.queries[rows]).float(), torch.from_numpy(e.turns).float(), target))
    questions = sum(len(q) for q, _, _ in batches)
    shift = torch.zeros(dim, dim, requires_grad=True)  # A in W = I + A
    eye = torch.eye(dim)
    opt = torch.optim.Adam([shift], lr=LEARNING_RATE)
    for _ in range(steps):
        opt.zero_grad()
        w = eye + shift
        loss = torch.zeros(())
        for q, t, target in batches:
            logits = torch.nn.functional.normalize(q @ w.T, dim=1) @ t.T / tau
            proved = torch.logsumexp(logits.masked_fill(~target, float("-inf")), dim=1)
            loss = loss + (torch.logsumexp(logits, dim=1) - proved).sum()
        (loss / questions + l2 * (shift ** 2).sum()).backward()
        opt.step()
    return QueryAdapter((eye + shift).detach().numpy().astype(np.float32))


def held_out(examples: Sequence[Proved]) -> dict[str, QueryAdapter]:
    """For each conversation, a map fitted on the others only (none with fewer than two)."""
    if len(examples) < 2:
        return {}
    return {e.conversation: fit([o for o in examples if o is not e]) for e in examples}
