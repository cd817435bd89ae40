"""MemScenes: related episodes gathered per tenant and group, each with a topic, a consensus of
what is currently true and a status.

Two ways in:
  assign_new   after an ingestion: a conversation's cells not yet in a scene join the nearest
               scene of their group or start one (small groups are simply re-clustered whole);
  consolidate  re-clusters a group from scratch (`consolidate` mutation, `engram consolidate`,
               the periodic task): cells move, scenes merge and split, ids of surviving scenes stay.

Where the server has GDS, community detection (Leiden) could do the clustering; the local server
installs no GDS (README: Graph algorithms), so the in-process path (scene_math.py) is the one
Engram runs and tests.

Interrupted work is safe: memberships are written in batches that each leave every cell in at
most one scene, summaries last; a re-run recomputes everything from the cells.
"""
from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from app.lifecycle import scene_store as q
from app.lifecycle.scene_consensus_llm import LLMConsensus, make_consensus_writer
from app.lifecycle.scene_math import SceneRules, centred, group_centre, plan_scenes, unit_rows
from app.lifecycle.scene_summary import SceneFacts, consensus, status, topic
from app.embeddings import Embedder
from app.settings import Settings
from app.store.graph import TenantGraph
from app.store.moments import rewritable

BATCH = 500  # scenes per membership transaction
# ... and at most this many cells moved per transaction: a 100k-cell group of a few dozen scenes
# would otherwise move every cell in one transaction (heap on a small server).
MEMBERS_PER_TX = 5000
SUMMARY_BATCH = 200
CANDIDATES = 20  # nearest scenes (raw cosine) re-scored on centred vectors
SUMMARY_FACTS = 40
SUMMARY_RECENT_CELLS = 30  # episodes of a scene whose facts make its consensus (plus state facts)
TOPIC_BATCH = 256
LLM_CONCURRENCY = 4
TOPIC_WORDS = 10  # keywords of a cell that make its topic vector
MAX_KEYWORDS = 5000


@dataclass
class ConsolidateReport:
    groups: int = 0
    cells: int = 0
    scenes: int = 0
    created: int = 0
    merged: int = 0
    split: int = 0
    moved: int = 0
    dropped: int = 0
    archived: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, other: "ConsolidateReport") -> None:
        for k in ("groups", "cells", "scenes", "created", "merged", "split", "moved", "dropped", "archived"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for k, v in other.seconds.items():
            self.seconds[k] = self.seconds.get(k, 0.0) + v


def _rules(settings: Settings) -> SceneRules:
    return SceneRules(join=settings.scene_join, merge=settings.scene_merge, split=settings.scene_split)


def _group_id(key: str) -> str | None:
    return key or None


def topic_text(cell: dict) -> str:
    words = [k for k in cell.get("keywords") or [] if k.strip()][:TOPIC_WORDS]
    return ", ".join(words) if words else (cell.get("title") or "")


class SceneService:
    def __init__(self, settings: Settings, embedder: Embedder):
        self.settings = settings
        self.embedder = embedder
        self.rules = _rules(settings)
        self.writer = make_consensus_writer(settings)

    async def with_topic_vectors(self, graph: TenantGraph, rows: list[dict]) -> list[dict]:
        """Fill in the topic vectors of cells placed for the first time (and store them)."""
        missing = [r for r in rows if r["embedding"] is None and topic_text(r)]
        for i in range(0, len(missing), TOPIC_BATCH):
            chunk = missing[i:i + TOPIC_BATCH]
            vectors = await self.embedder.aembed([topic_text(r) for r in chunk])
            for r, v in zip(chunk, vectors):
                r["embedding"] = v
            await graph.write(q.SET_TOPIC_VECTORS, rows=[{"id": r["id"], "vector": [float(x) for x in r["embedding"]]}
                                                         for r in chunk])
        return [r for r in rows if r["embedding"] is not None]

    # ------------------------------------------------------------------ consolidation

    async def consolidate(self, graph: TenantGraph, group_id: str | None = None) -> ConsolidateReport:
        """Re-cluster one group (or every group of the tenant when `group_id` is None)."""
        key = None if group_id is None else group_id
        groups = [r["groupKey"] for r in await graph.read(q.GROUP_KEYS, groupKey=key)]
        # Groups whose cells were all deleted still have scenes to drop; a group that never had
        # any is none (consolidate(groupId: "nope") answered groups: 1).
        if key is not None and key not in groups and await graph.read(q.SCENE_IDS_OF_GROUP, groupKey=key):
            groups.append(key)
        report = ConsolidateReport()
        for g in groups:
            report.add(await self._consolidate_group(graph, g))
        return report

    async def consolidate_changed(self, graph: TenantGraph) -> ConsolidateReport:
        """The periodic task: re-cluster only groups whose cells changed since their last run."""
        report = ConsolidateReport()
        for g in [r["groupKey"] for r in await graph.read(q.GROUP_KEYS, groupKey=None)]:
            size = (await graph.read(q.GROUP_SIZE, groupKey=g))[0]["n"]
            centre = await graph.read(q.CENTRE, groupKey=g)
            if not centre or centre[0]["consolidatedCells"] != size:
                report.add(await self._consolidate_group(graph, g))
        return report

    async def _consolidate_group(self, graph: TenantGraph, group_key: str,
                                 new_cells: list[str] | None = None) -> ConsolidateReport:
        """Re-cluster a group. With `new_cells` (after an ingestion) only scenes whose members
        changed, or whose facts those cells superseded, are rewritten and summarised; without
        (consolidate, the periodic task) every scene is."""
        rep = ConsolidateReport(groups=1)
        t0 = time.perf_counter()
        rows = await self.with_topic_vectors(graph, await q.read_cells(graph, q.GROUP_CELLS, groupKey=group_key))
        existing = [r["id"] for r in await graph.read(q.SCENE_IDS_OF_GROUP, groupKey=group_key)]
        rep.seconds["read"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        vectors = (np.array([r["embedding"] for r in rows], dtype=np.float64) if rows
                   else np.zeros((0, 1)))
        plan = plan_scenes(vectors, [r["sceneId"] for r in rows], self.rules)
        rep.seconds["cluster"] = time.perf_counter() - t0
        rep.cells, rep.scenes = len(rows), len(plan.scenes)
        rep.created, rep.merged, rep.split, rep.moved = plan.created, plan.merged, plan.split, plan.moved
        ids = [sid or str(uuid.uuid4()) for sid in plan.scenes]

        t0 = time.perf_counter()
        x = unit_rows(vectors) if len(rows) else vectors
        scenes = []
        for s, sid in enumerate(ids):
            members = np.flatnonzero(plan.labels == s)
            total = x[members].sum(axis=0)
            scenes.append({
                "id": sid, "groupId": _group_id(group_key), "groupKey": group_key,
                "vectorSum": [float(v) for v in total], "cells": int(len(members)),
                "embedding": [float(v) for v in unit_rows(total[None, :])[0]],
                "members": [{"id": rows[i]["id"], "order": j + 1} for j, i in enumerate(members)],
            })
        if new_cells is not None:
            before: dict[str, set] = {}
            for r in rows:
                if r["sceneId"]:
                    before.setdefault(r["sceneId"], set()).add(r["id"])
            scenes = [sc for sc in scenes
                      if before.get(sc["id"]) != {m["id"] for m in sc["members"]}]
        for batch in membership_batches(scenes):
            await q.write_memberships(graph, batch)
        stale = sorted(set(existing) - set(ids))
        for i in range(0, len(stale), BATCH):
            await graph.write(q.DROP_SCENES, ids=stale[i:i + BATCH])
        rep.dropped = len(stale)
        df = _document_frequency(rows)
        await q.save_centre(graph, groupKey=group_key,
                            vectorSum=[float(v) for v in (x.sum(axis=0) if len(rows) else [])],
                            cells=len(rows), keywords=list(df), counts=list(df.values()))
        rep.seconds["write"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        if new_cells is None:
            to_summarise = ids
        else:
            others = [r["id"] for r in await graph.read(q.SUPERSEDED_SCENES, cellIds=new_cells)]
            to_summarise = sorted({sc["id"] for sc in scenes} | set(others))
        rep.archived = await summarise(graph, to_summarise, df, len(rows), self.writer)
        await graph.write(q.MARK_CONSOLIDATED, groupKey=group_key, cells=len(rows))
        rep.seconds["summarise"] = time.perf_counter() - t0
        return rep

    # ------------------------------------------------------------------ incremental

    async def assign_new(self, graph: TenantGraph, conversation_id: str) -> int:
        """Put a conversation's new cells into scenes. Returns how many cells were placed."""
        rows = await self.with_topic_vectors(graph, await q.read_cells(graph, q.UNASSIGNED,
                                                                       conversationId=conversation_id))
        if not rows:
            return 0
        by_group: dict[str, list[dict]] = {}
        for r in rows:
            by_group.setdefault(r["groupKey"], []).append(r)
        for group_key, cells in by_group.items():
            size = (await graph.read(q.GROUP_SIZE, groupKey=group_key))[0]["n"]
            centre = await graph.read(q.CENTRE, groupKey=group_key)
            last = centre[0]["consolidatedCells"] if centre and centre[0]["consolidatedCells"] else 0
            # Small groups, and groups that doubled since their last clustering, are re-clustered
            # whole: one-at-a-time assignment drifts while the group's centre is still moving.
            if size <= self.settings.scene_full_below or size >= 2 * max(last, 1):
                await self._consolidate_group(graph, group_key, [c["id"] for c in cells])
            else:
                await self._assign_group(graph, group_key, cells, centre[0] if centre else None)
        return len(rows)

    async def _assign_group(self, graph: TenantGraph, group_key: str, cells: list[dict],
                            centre: dict | None) -> None:
        dims = len(cells[0]["embedding"])
        total = np.asarray(centre["vectorSum"], dtype=np.float64) if centre and centre["vectorSum"] \
            else np.zeros(dims)
        count = int(centre["cells"]) if centre and centre["cells"] else 0
        df = Counter(dict(zip(centre["keywords"] or [], centre["counts"] or []))) if centre else Counter()
        known: dict[str, dict] = {}  # scene id -> {vectorSum, cells, members}
        for c in cells:
            x = unit_rows(np.asarray(c["embedding"], dtype=np.float64)[None, :])[0]
            total, count = total + x, count + 1
            mean = group_centre(total, count, self.rules.prior)
            for kw in {k.strip().lower() for k in c["keywords"] or [] if k.strip()}:
                df[kw] += 1
            near = await graph.read_vector(q.NEAREST_SCENES, vector=[float(v) for v in x],
                                           fetch=CANDIDATES * 5, limit=CANDIDATES, groupKey=group_key)
            for r in near:
                known.setdefault(r["id"], {"vectorSum": np.asarray(r["vectorSum"], dtype=np.float64),
                                           "cells": int(r["cells"]), "members": []})
            best, best_sim = None, self.rules.join
            z = centred(x, mean)[0]
            for sid, s in sorted(known.items()):
                sim = float(centred(s["vectorSum"] / max(s["cells"], 1), mean)[0] @ z)
                if sim >= best_sim:
                    best, best_sim = sid, sim
            if best is None:
                best = str(uuid.uuid4())
                known[best] = {"vectorSum": np.zeros(dims), "cells": 0, "members": []}
            s = known[best]
            s["vectorSum"] = s["vectorSum"] + x
            s["cells"] += 1
            s["members"].append({"id": c["id"], "order": s["cells"]})
        touched = {sid: s for sid, s in known.items() if s["members"]}
        await q.write_memberships(graph, [{
            "id": sid, "groupId": _group_id(group_key), "groupKey": group_key,
            "vectorSum": [float(v) for v in s["vectorSum"]], "cells": s["cells"],
            "embedding": [float(v) for v in unit_rows(s["vectorSum"][None, :])[0]],
            "members": s["members"],
        } for sid, s in sorted(touched.items())])
        df = _capped(df)
        await q.save_centre(graph, groupKey=group_key, vectorSum=[float(v) for v in total],
                            cells=count, keywords=list(df), counts=list(df.values()))
        # Scenes whose state the new cells took over may have to be archived.
        others = [r["id"] for r in await graph.read(q.SUPERSEDED_SCENES, cellIds=[c["id"] for c in cells])]
        await summarise(graph, sorted(set(touched) | set(others)), df, count, self.writer)


async def summarise(graph: TenantGraph, scene_ids: list[str], df: Counter, n_cells: int,
                    writer: LLMConsensus | None = None) -> int:
    """Topic, consensus, status and member order of the given scenes; returns how many are
    archived. With a `writer` (the llm backend) the consensus is written by the LLM from the
    facts the extractive one lists, and the extractive one stays when that fails."""
    archived = 0
    for i in range(0, len(scene_ids), SUMMARY_BATCH):
        rows = await graph.read(q.SUMMARY_INPUT, ids=scene_ids[i:i + SUMMARY_BATCH], facts=SUMMARY_FACTS,
                                recentCells=SUMMARY_RECENT_CELLS)
        out = []
        for r in rows:
            facts = SceneFacts(r["current"], r["hasCurrentState"], r["supersededElsewhere"])
            st = status(facts)
            archived += st == "archived"
            cells = r["cells"]
            out.append({
                "id": r["id"], "topic": topic(cells, df, n_cells), "consensus": consensus(facts),
                "status": st, "cellIds": [c["id"] for c in cells],
                "startedAt": rewritable(cells[0]["startedAt"]) if cells else None,
                "endedAt": rewritable(cells[-1]["endedAt"]) if cells else None,
            })
        if writer is not None:
            await _write_with_llm(writer, out)
        if out:
            await graph.write(q.SAVE_SUMMARIES, rows=out)
    return archived


async def _write_with_llm(writer: LLMConsensus, rows: list[dict]) -> None:
    gate = asyncio.Semaphore(LLM_CONCURRENCY)

    async def one(row: dict) -> None:
        lines = [line[2:] for line in row["consensus"].splitlines() if line.startswith("- ")]
        async with gate:
            text = await writer.write(row["topic"], lines)
        if text:
            row["consensus"] = text

    await asyncio.gather(*(one(r) for r in rows))


def membership_batches(scenes: list[dict]) -> list[list[dict]]:
    """Scenes in groups of at most BATCH scenes and MEMBERS_PER_TX members; a larger scene is
    cut into parts carrying the same scene fields (each part adds its members), so every
    transaction still leaves each of its cells in exactly one scene."""
    batches: list[list[dict]] = [[]]
    room = MEMBERS_PER_TX
    for sc in scenes:
        members = sc["members"]
        start = 0
        while True:
            if len(batches[-1]) == BATCH or (room == 0 and batches[-1]):
                batches.append([])
                room = MEMBERS_PER_TX
            part = members[start:start + room]
            batches[-1].append({**sc, "members": part})
            room -= len(part)
            start += len(part)
            if start >= len(members):
                break
    return [b for b in batches if b]


def _document_frequency(rows: list[dict]) -> Counter:
    df: Counter = Counter()
    for r in rows:
        df.update({k.strip().lower() for k in r.get("keywords") or [] if k.strip()})
    return _capped(df)


def _capped(df: Counter) -> Counter:
    """The centre keeps the most frequent keywords only: rare ones get the top idf anyway."""
    return Counter(dict(df.most_common(MAX_KEYWORDS))) if len(df) > MAX_KEYWORDS else df


async def refresh_scenes(graph: TenantGraph, scene_ids: list[str]) -> int:
    """After members were deleted: drop scenes left empty, recompute the others' vectors and
    summaries, and the centres of their groups, so nothing deleted lingers in a consensus, a
    topic or a keyword count. Returns the number of scenes deleted."""
    rows = await graph.read(q.MEMBER_VECTORS, ids=scene_ids)
    empty = [r["id"] for r in rows if not r["vectors"]]
    deleted = (await graph.write(q.DELETE_SCENES, ids=empty))[0]["deleted"] if empty else 0
    kept = [r for r in rows if r["vectors"]]
    updates = []
    for r in kept:
        total = unit_rows(np.asarray(r["vectors"], dtype=np.float64)).sum(axis=0)
        updates.append({"id": r["id"], "vectorSum": [float(v) for v in total], "cells": len(r["vectors"]),
                        "embedding": [float(v) for v in unit_rows(total[None, :])[0]]})
    if updates:
        await graph.write(q.SET_VECTORS, scenes=updates)
    for group_key in sorted({r["groupKey"] or "" for r in rows}):
        cells = [c for c in await q.read_cells(graph, q.GROUP_CELLS, groupKey=group_key)
                 if c["embedding"] is not None]
        if not cells:
            await graph.write(q.DELETE_CENTRE, groupKey=group_key)
            continue
        df = _document_frequency(cells)
        total = unit_rows(np.asarray([c["embedding"] for c in cells], dtype=np.float64)).sum(axis=0)
        await q.save_centre(graph, groupKey=group_key, vectorSum=[float(v) for v in total],
                            cells=len(cells), keywords=list(df), counts=list(df.values()))
        ids = [r["id"] for r in kept if (r["groupKey"] or "") == group_key]
        await summarise(graph, ids, df, len(cells))
    return deleted
