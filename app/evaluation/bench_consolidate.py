"""bench consolidate: MemScene clustering of one tenant group of N MemCells (the synthetic
builder of synthetic.py, cells with 5-8 keywords about their topic), timed in three phases:

  first        consolidate a group whose cells have no topic vector yet: every cell's keywords
               are embedded (the `embed` time, measured around the model) before read, cluster,
               write and summarise (SceneService's own stage seconds);
  again        consolidate the same group with nothing changed (the periodic task's cost when a
               group changed a little: it re-clusters the whole group);
  incremental  new cells placed by SceneService.assign_new as ingestion does: one conversation
               of `new_cells` at once, then `new_cells` conversations of one cell each.

Between sizes the big tenant's scenes and topic vectors are removed, so each size's first
consolidation is a real first one. Written to bench/results/consolidate.json.
"""
from __future__ import annotations

import os
import resource
import statistics
import time
from datetime import datetime, timezone

import numpy as np

from app.evaluation.bench import machine, shared_cpu_note, write_result
from app.evaluation.metrics import percentiles
from app.evaluation.synthetic import COUNT_CELLS, WORDS, grow, tenant_mix
from app.lifecycle.scenes import SceneService
from app.runtime.services import Services
from app.store.graph import TenantGraph

RESET_SCENES = """
MATCH (s:MemScene {tenant: $tenant})
CALL (s) { DETACH DELETE s } IN TRANSACTIONS OF 1000 ROWS
"""
RESET_CENTRES = "MATCH (c:SceneCentre {tenant: $tenant}) DELETE c"
RESET_TOPIC_VECTORS = """
MATCH (m:MemCell {tenant: $tenant}) WHERE m.topicVector IS NOT NULL
CALL (m) { REMOVE m.topicVector } IN TRANSACTIONS OF 5000 ROWS
"""
# The incremental phase's cells (ids past the size just measured) with their turns, facts and
# the entity edges of those facts, so the tenant holds exactly the seeded cells again.
DROP_NEW_RELATED = """
MATCH (m:MemCell {tenant: $tenant})-[:HAS_FACT]->(f:Fact) WHERE toInteger(split(m.id, ':')[1]) >= $first
MATCH (:Entity {tenant: $tenant})-[r:RELATED {factId: f.id}]->(:Entity {tenant: $tenant})
DELETE r
"""
DROP_NEW = """
MATCH (m:MemCell {tenant: $tenant}) WHERE toInteger(split(m.id, ':')[1]) >= $first
OPTIONAL MATCH (m)-[:EVIDENCED_BY]->(t:Turn)
OPTIONAL MATCH (m)-[:HAS_FACT]->(f:Fact)
DETACH DELETE m, t, f
"""
SCENE_SIZES = "MATCH (s:MemScene {tenant: $tenant}) RETURN s.cells AS cells, s.status AS status"
SCENE_TOPICS = """
MATCH (s:MemScene {tenant: $tenant}) RETURN s.topic AS topic, s.cells AS cells
ORDER BY cells DESC, topic LIMIT 10
"""


class TimedEmbedder:
    """The service's real embedder, with the time spent embedding (and texts embedded) added up,
    to tell topic-vector computation apart from the rest of the read stage."""

    def __init__(self, inner):
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def aembed(self, texts: list[str]) -> np.ndarray:
        t0 = time.perf_counter()
        try:
            return await self.inner.aembed(texts)
        finally:
            self.seconds += time.perf_counter() - t0
            self.texts += len(texts)


def _peak_rss_mb() -> float:
    # ru_maxrss is in KiB on Linux: the process's peak so far (it never goes down).
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _report(rep, embed_s: float | None = None) -> dict:
    out = {"seconds": round(sum(rep.seconds.values()), 2),
           "stage_seconds": {k: round(v, 2) for k, v in rep.seconds.items()},
           "cells": rep.cells, "scenes": rep.scenes, "created": rep.created, "merged": rep.merged,
           "split": rep.split, "moved": rep.moved, "dropped": rep.dropped, "archived": rep.archived}
    if embed_s is not None:
        out["embed_seconds"] = round(embed_s, 2)
        # The read stage includes embedding the keywords and storing the vectors.
        out["read_without_embed_seconds"] = round(rep.seconds.get("read", 0.0) - embed_s, 2)
    return out


async def _scene_stats(graph: TenantGraph) -> dict:
    rows = await graph.read(SCENE_SIZES)
    sizes = sorted(int(r["cells"] or 0) for r in rows)
    if not sizes:
        return {"scenes": 0}
    return {"scenes": len(sizes), "active": sum(r["status"] == "active" for r in rows),
            "size_min": sizes[0], "size_median": statistics.median(sizes), "size_max": sizes[-1],
            "singletons": sum(s == 1 for s in sizes),
            "largest_topics": [f"{r['topic']} ({r['cells']})" for r in await graph.read(SCENE_TOPICS)]}


async def _reset(graph: TenantGraph) -> None:
    await graph.auto_commit(RESET_SCENES)
    await graph.write(RESET_CENTRES)
    await graph.auto_commit(RESET_TOPIC_VECTORS)


async def _incremental(graph: TenantGraph, scenes: SceneService, mix, size: int, n: int,
                       progress) -> dict:
    """`n` cells in one conversation, then `n` conversations of one cell: new cells past the
    big tenant's last one, placed as ingestion places them (assign_new per conversation)."""
    conv = "bench-new-batch"
    await grow(graph, size, size + n, mix.dim, mix.centers, mix.rng, progress, conversation=conv)
    t0 = time.perf_counter()
    placed = await scenes.assign_new(graph, conv)
    batch_s = time.perf_counter() - t0
    singles = []
    for j in range(n):
        conv = f"bench-new-{j}"
        at = size + n + j
        await grow(graph, at, at + 1, mix.dim, mix.centers, mix.rng, conversation=conv)
        t0 = time.perf_counter()
        placed += await scenes.assign_new(graph, conv)
        singles.append((time.perf_counter() - t0) * 1000)
    return {"cells_placed": placed,
            "batch": {"cells": n, "seconds": round(batch_s, 2), "ms_per_cell": round(batch_s * 1000 / n, 1)},
            "one_cell_calls": {"calls": n, "ms": {k: round(v, 1) for k, v in percentiles(singles).items()},
                               "mean_ms": round(sum(singles) / n, 1)}}


async def bench_consolidate(services: Services, sizes: list[int], new_cells: int = 100,
                            keep: bool = False, progress=lambda *_: None) -> dict:
    load_before = os.getloadavg()
    # One tenant, one group: the other tenants of the search benchmark's mix add nothing here
    # (consolidation reads one group), so none are made.
    mix = await tenant_mix(services, "bench_scene", tenants=1, seed=13, progress=progress)
    graph = mix.big
    out: dict = {"benchmark": "consolidate", "date": datetime.now(timezone.utc).isoformat(),
                 "machine": machine(), "topics": len(WORDS), "new_cells": new_cells,
                 "rules": {"join": services.settings.scene_join, "merge": services.settings.scene_merge,
                           "split": services.settings.scene_split,
                           "full_below": services.settings.scene_full_below},
                 "sizes": {}}
    try:
        for size in sizes:
            await mix.grow_big(size, progress)
            await _reset(graph)
            n = (await graph.read(COUNT_CELLS))[0]["n"]
            embedder = TimedEmbedder(services.require_embedder())
            scenes = SceneService(services.settings, embedder)
            rss0 = _peak_rss_mb()
            first = await scenes.consolidate(graph, "")
            first_out = {**_report(first, embedder.seconds), "topic_vectors": embedder.texts,
                         "peak_rss_mb": _peak_rss_mb()}
            stats = await _scene_stats(graph)
            again = await scenes.consolidate(graph, "")
            embedder.seconds = 0.0
            inc = await _incremental(graph, scenes, mix, size, new_cells, progress)
            inc["embed_seconds"] = round(embedder.seconds, 2)
            out["sizes"][str(size)] = {"memcells": n, "first": first_out, "scenes": stats,
                                       "again": _report(again), "incremental": inc,
                                       "peak_rss_mb_before": rss0, "peak_rss_mb_after": _peak_rss_mb(),
                                       "load_average_after": [round(x, 2) for x in os.getloadavg()]}
            # The next size grows from the seeded cells only.
            await graph.write(DROP_NEW_RELATED, first=size)
            await graph.write(DROP_NEW, first=size)
            mix.grown = size
    finally:
        if not keep:
            await mix.purge()
    out["load_average"] = {"before": [round(x, 2) for x in load_before],
                           "after": [round(x, 2) for x in os.getloadavg()]}
    out["notes"] = shared_cpu_note([load_before[0], out["load_average"]["after"][0],
                                    *(x["load_average_after"][0] for x in out["sizes"].values())])
    out["path"] = str(write_result("consolidate", out))
    return out

