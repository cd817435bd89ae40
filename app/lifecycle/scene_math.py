"""Clustering MemCells into scenes, in-process (numpy), for servers without GDS.

Why centred vectors: a MemCell's vector is the mean of its turns', and every turn of one
conversation shares speakers, tone and small talk, so raw cosines between cells of one group sit
at 0.85-0.95 whatever they are about (measured on LoCoMo). Subtracting the group's mean cell
vector removes that shared part; what is left is the topic. Cosine on centred vectors ranges
about -0.3..0.6 between cells, and same-topic neighbours score 0.3-0.6.
A small group's own mean is a poor estimate of what its cells share (with three cells it is
pulled a third of the way to each), so the centre is shrunk towards the origin as if `prior`
more cells sat there: centre = sum / (n + prior). Measured: with three cells, two on one topic
(raw cosine 0.82) and one on another (0.45), full centring gives 0.12 between the two that
belong together; shrunk (prior 4) it gives 0.63 against -0.02.

The algorithm (deterministic; cells are processed in time order):
  assign   a cell joins the scene whose centred centroid is closest if the similarity reaches
           `join`; else it starts a scene (leader clustering, the incremental path uses it too);
  refine   a few passes moving cells to a clearly better scene (k-means steps from there);
  merge    scenes whose centroids are closer than `merge` become one (the larger keeps its id);
  split    a large scene whose members are far from its centroid (cohesion below `split`) is
           cut in two by 2-means when both halves are clearly tighter.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class SceneRules:
    join: float = 0.30  # centred cosine to a scene's centroid to join it
    merge: float = 0.60  # centred cosine between two scene centroids to merge them
    split: float = 0.20  # a scene with mean member-centroid similarity below this may split
    min_split: int = 6  # only scenes at least this large are considered for a split
    margin: float = 0.05  # a move in refinement must gain at least this much similarity
    passes: int = 3
    prior: int = 4  # shrinkage of the group centre, in cells (see the module docstring)


@dataclass
class Plan:
    """Scene label per cell (index into `scenes`); a scene is an existing id or None (new)."""
    labels: np.ndarray
    scenes: list[str | None]
    merged: int = 0
    split: int = 0
    moved: int = 0
    created: int = 0
    dropped: list[str] = field(default_factory=list)  # existing ids left without members


def unit_rows(m: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(n == 0, 1.0, n)


def group_centre(total: np.ndarray, n: int, prior: int) -> np.ndarray:
    """The shrunk centre of a group whose unit cell vectors sum to `total`."""
    return total / (n + prior)


def centred(x: np.ndarray, centre: np.ndarray) -> np.ndarray:
    return unit_rows(np.atleast_2d(x) - centre)


def _centroids(z: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    sums = np.zeros((k, z.shape[1]), dtype=np.float64)
    np.add.at(sums, labels, z)
    return unit_rows(sums)


def _leader(z: np.ndarray, labels: np.ndarray, k: int, rules: SceneRules) -> tuple[np.ndarray, int]:
    """Give every unlabelled cell (-1) a scene, in order: the nearest one or a new one."""
    sums = np.zeros((k + len(z), z.shape[1]), dtype=np.float64)
    labelled = labels >= 0
    np.add.at(sums, labels[labelled], z[labelled])
    for i in np.flatnonzero(~labelled):
        if k:
            cents = unit_rows(sums[:k])
            sims = cents @ z[i]
            best = int(np.argmax(sims))
            if sims[best] >= rules.join:
                labels[i] = best
                sums[best] += z[i]
                continue
        labels[i] = k
        sums[k] = z[i]
        k += 1
    return labels, k


def _refine(z: np.ndarray, labels: np.ndarray, k: int, rules: SceneRules) -> int:
    moved = 0
    for _ in range(rules.passes):
        cents = _centroids(z, labels, k)
        sims = z @ cents.T
        best = sims.argmax(axis=1)
        own = sims[np.arange(len(z)), labels]
        gain = sims[np.arange(len(z)), best] - own
        move = (best != labels) & (gain >= rules.margin) & (sims[np.arange(len(z)), best] >= rules.join)
        if not move.any():
            break
        labels[move] = best[move]
        moved += int(move.sum())
    return moved


def _merge(z: np.ndarray, labels: np.ndarray, k: int, rules: SceneRules) -> int:
    merged = 0
    while True:
        sizes = np.bincount(labels, minlength=k)
        alive = np.flatnonzero(sizes)
        if len(alive) < 2:
            return merged
        cents = _centroids(z, labels, k)[alive]
        sims = cents @ cents.T
        np.fill_diagonal(sims, -np.inf)
        a, b = np.unravel_index(int(np.argmax(sims)), sims.shape)
        if sims[a, b] < rules.merge:
            return merged
        keep, gone = alive[a], alive[b]
        if (sizes[gone], -gone) > (sizes[keep], -keep):
            keep, gone = gone, keep
        labels[labels == gone] = keep
        merged += 1


def _two_means(z: np.ndarray) -> np.ndarray:
    """Split rows in two: seeded with the member farthest from the centroid and the member
    farthest from that one, then a few assignment steps."""
    c = unit_rows(z.sum(axis=0, keepdims=True))[0]
    a = int(np.argmin(z @ c))
    b = int(np.argmin(z @ z[a]))
    seeds = np.stack([z[a], z[b]])
    side = np.zeros(len(z), dtype=int)
    for _ in range(5):
        side = (z @ seeds.T).argmax(axis=1)
        if side.min() == side.max():
            break
        seeds = unit_rows(np.stack([z[side == 0].sum(0), z[side == 1].sum(0)]))
    return side


def _cohesion(z: np.ndarray) -> float:
    c = unit_rows(z.sum(axis=0, keepdims=True))[0]
    return float((z @ c).mean())


def _split(z: np.ndarray, labels: np.ndarray, k: int, rules: SceneRules) -> tuple[int, int]:
    splits = 0
    for s in range(k):
        members = np.flatnonzero(labels == s)
        if len(members) < rules.min_split:
            continue
        before = _cohesion(z[members])
        if before >= rules.split:
            continue
        side = _two_means(z[members])
        halves = [members[side == 0], members[side == 1]]
        if min(len(h) for h in halves) < 2:
            continue
        after = min(_cohesion(z[h]) for h in halves)
        if after < before + 0.1:
            continue
        labels[halves[1]] = k
        k += 1
        splits += 1
    return k, splits


def plan_scenes(vectors: np.ndarray, prior: list[str | None], rules: SceneRules = SceneRules(),
                mean: np.ndarray | None = None) -> Plan:
    """Scenes for cells (rows of `vectors`, time order) given the scene each was in before."""
    n = len(vectors)
    if n == 0:
        return Plan(np.zeros(0, dtype=int), [], dropped=sorted({p for p in prior if p}))
    x = unit_rows(np.asarray(vectors, dtype=np.float64))
    z = centred(x, group_centre(x.sum(axis=0), n, rules.prior) if mean is None else mean)
    ids = sorted({p for p in prior if p})
    index = {sid: i for i, sid in enumerate(ids)}
    labels = np.array([index[p] if p else -1 for p in prior], dtype=int)
    k = len(ids)
    labels, k = _leader(z, labels, k, rules)
    scene_ids: list[str | None] = ids + [None] * (k - len(ids))
    moved = _refine(z, labels, k, rules)
    merged = _merge(z, labels, k, rules)
    k2, splits = _split(z, labels, k, rules)
    scene_ids += [None] * (k2 - k)
    # Renumber to the scenes that kept members, in order of their first cell (time order).
    order: dict[int, int] = {}
    for lab in labels:
        order.setdefault(int(lab), len(order))
    final = np.array([order[int(l)] for l in labels], dtype=int)
    scenes = [scene_ids[old] for old in sorted(order, key=order.get)]
    kept = {s for s in scenes if s}
    return Plan(final, scenes, merged=merged, split=splits, moved=moved,
                created=sum(1 for s in scenes if s is None),
                dropped=[s for s in ids if s not in kept])
