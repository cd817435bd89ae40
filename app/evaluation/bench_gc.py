"""bench gc: one pass of gc over a synthetic tenant of N episodes (the benchmarks' builder in
app/evaluation/synthetic.py: a cell, its turn and its fact per row, entities shared), timed in
three phases:

  forget  old episodes (2024, never used) fall below the threshold; `keep_share` of them were
          used just now and stay;
  idle    the same moment again: nothing to do, the steady-state cost of a periodic run;
  purge   past the grace period: the forgotten episodes are deleted with all they own.

Written to bench/results/gc.json.
"""
from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta, timezone

import numpy as np

from app.evaluation.bench import machine, write_result
from app.evaluation.synthetic import NAMES, WORDS, entity_rows, grow, seed_entities
from app.lifecycle.forget import purge_tenant
from app.lifecycle.retention import RetentionPolicy, gc
from app.runtime.services import Services
from app.store.graph import TenantGraph

USE_SOME = """
MATCH (m:MemCell {tenant: $tenant})
WITH m WHERE toInteger(split(m.id, ':')[1]) % 100 < $percent
CALL (m) { SET m.lastAccessedAt = $now, m.accessCount = 1 } IN TRANSACTIONS OF 5000 ROWS
"""

COUNT = "MATCH (n {tenant: $tenant}) RETURN count(n) AS n"


async def bench_gc(services: Services, sizes: list[int], keep_share: float = 0.5,
                   progress=lambda *_: None) -> dict:
    dim = services.require_embedder().dimensions
    rng = np.random.default_rng(11)
    centers = rng.standard_normal((len(WORDS), dim)).astype(np.float32)
    policy = RetentionPolicy.from_settings(services.settings)
    out: dict = {"benchmark": "gc", "date": datetime.now(timezone.utc).isoformat(), "machine": machine(),
                 "keep_share": keep_share, "policy": policy.__dict__, "sizes": {}}
    for size in sizes:
        graph = TenantGraph(services.driver, f"bench_gc_{uuid.uuid4().hex[:6]}")
        try:
            vecs = rng.standard_normal((len(NAMES) + len(WORDS), dim))
            await seed_entities(graph, entity_rows(vecs / np.linalg.norm(vecs, axis=1, keepdims=True)))
            t0 = time.perf_counter()
            await grow(graph, 0, size, dim, centers, rng, progress)
            seed_s = time.perf_counter() - t0
            now = datetime.now(timezone.utc)
            await graph.auto_commit(USE_SOME, now=now, percent=int(round(keep_share * 100)))
            nodes = (await graph.read(COUNT))[0]["n"]
            forget = await gc(graph, policy, now)
            idle = await gc(graph, policy, now)
            purge = await gc(graph, policy, now + timedelta(days=policy.grace_days + 1))
            left = (await graph.read(COUNT))[0]["n"]
            out["sizes"][str(size)] = {
                "nodes": nodes, "seed_seconds": round(seed_s, 2),
                "forget": {"cells": forget.forgotten_cells, "seconds": round(forget.seconds, 2)},
                "idle": {"seconds": round(idle.seconds, 2)},
                "purge": {"cells": purge.purged_cells, "nodes_deleted": purge.deleted_nodes,
                          "seconds": round(purge.seconds, 2)},
                "nodes_left": left,
            }
        finally:
            await purge_tenant(graph)
    out["path"] = str(write_result("gc", out))
    return out
