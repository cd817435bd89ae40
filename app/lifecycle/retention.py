"""Forgetting by retention: decay, grace, purge; and foresight that has run out.

A MemCell's retention at a moment `now`:

    exp(-ln2 * days / half_life) + access_weight * ln(1 + accessCount) + importance_weight * importance

where `days` runs from the last time the memory was used: its last access, else when the
service stored it (createdAt), else the end of the episode. Storage time rather than the
conversation's own dates, so that importing an old archive does not forget it an hour later.

gc of a tenant, at an explicit `now` (tests age data by passing a later one):
  retire   foresight whose validTo has passed gets status 'retired' (still visible to questions
           asked as of a moment inside its window; the window already hides it from `now`);
  forget   active cells below the threshold get status 'forgotten' and forgottenAt; their facts,
           foresight and turns are flagged `forgotten` and every search channel, relatedTo and
           the entity lookup skip them. Nothing is deleted: memCell(id) brings a cell back;
  purge    cells forgotten longer than the grace period are deleted with everything they own,
           so nothing of them is left in any index.
The scenes (MemScenes) that include cells forgotten, purged or revived are recomputed from their
active members (app/lifecycle/scenes.py), so no consensus quotes what is hidden or gone; a scene
left with no active member is dropped, and a revived cell joins a scene again at the next
consolidation.

A purge is ordered so that an interrupted one is finished by the next gc: the cells are marked
'purging' first, their facts, foresight and turns go next, then entities nobody refers to any
more, and the cells themselves last, so the cell, the anchor of a re-run, is the last to go.
"""
from __future__ import annotations

import logging
import math
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone

from app.lifecycle.forget import DELETE_KEYS, EMPTY_CONVERSATIONS, ORPHAN_ENTITIES, SCENES_OF
from app.settings import Settings
from app.store.graph import TenantGraph

log = logging.getLogger("engram.gc")
BATCH = 1000  # cells per write transaction

# Binds `retention` for a cell `m`. The last use is the latest of last access, storage and the
# end of the episode; days since then count from 0 when unknown or in the future.
RETENTION = """
WITH m, reduce(r = null, x IN [m.lastAccessedAt, m.createdAt, m.endedAt] |
               CASE WHEN x IS NOT NULL AND (r IS NULL OR x > r) THEN x ELSE r END) AS used
WITH m, CASE WHEN used IS NULL OR used > $now THEN 0.0
             ELSE duration.inSeconds(used, $now).seconds / 86400.0 END AS days
WITH m, exp(-$decay * days) + $accessWeight * log(1 + coalesce(m.accessCount, 0))
        + $importanceWeight * coalesce(m.importance, 0.0) AS retention
"""

RETIRE = """
MATCH (n:Foresight {tenant: $tenant, status: 'active'}) WHERE n.validTo < $now
WITH n LIMIT $batch
SET n.status = 'retired', n.retiredAt = $now
RETURN count(n) AS n
"""

FADING = f"""
MATCH (m:MemCell {{tenant: $tenant, status: 'active'}})
{RETENTION}
WITH m, retention WHERE retention < $threshold
RETURN elementId(m) AS key
"""

# The score is computed again under the cell's write lock (the documented `_LOCK_` idiom), so a
# cell used between the scan and this write is not forgotten.
FORGET = f"""
UNWIND $keys AS k
MATCH (m:MemCell) WHERE elementId(m) = k AND m.tenant = $tenant
SET m._LOCK_ = true
{RETENTION}
REMOVE m._LOCK_
WITH m, retention WHERE m.status = 'active' AND retention < $threshold
SET m.status = 'forgotten', m.forgottenAt = $now, m.retention = retention
WITH m
CALL (m) {{
  MATCH (m)-[:HAS_FACT|PREDICTS|EVIDENCED_BY]->(x) WHERE x.tenant = $tenant
  SET x.forgotten = true
}}
CALL (m) {{
  MATCH (m)-[:HAS_FACT]->(f:Fact) WHERE f.tenant = $tenant
  MATCH (:Entity)-[r:RELATED {{factId: f.id}}]->(:Entity) WHERE r.tenant = $tenant
  SET r.forgotten = true
}}
RETURN elementId(m) AS key
"""

# Asked for by id: the caller knows exactly what it wants, so the cell is active again.
REVIVE = """
MATCH (m:MemCell {tenant: $tenant, id: $id})
SET m._LOCK_ = true
REMOVE m._LOCK_
WITH m WHERE m.status = 'forgotten'
SET m.status = 'active', m.lastAccessedAt = $now, m.accessCount = coalesce(m.accessCount, 0) + 1,
    m.revivedAt = $now
REMOVE m.forgottenAt, m.retention
WITH m
CALL (m) {
  MATCH (m)-[:HAS_FACT|PREDICTS|EVIDENCED_BY]->(x) WHERE x.tenant = $tenant
  REMOVE x.forgotten
}
CALL (m) {
  MATCH (m)-[:HAS_FACT]->(f:Fact) WHERE f.tenant = $tenant
  MATCH (:Entity)-[r:RELATED {factId: f.id}]->(:Entity) WHERE r.tenant = $tenant
  REMOVE r.forgotten
}
RETURN elementId(m) AS key
"""

# One index seek per status on (tenant, status, forgottenAt).
EXPIRED = """
UNWIND ['forgotten', 'purging'] AS status
MATCH (m:MemCell {tenant: $tenant, status: status}) WHERE m.forgottenAt < $cutoff
RETURN elementId(m) AS key
"""

# Marked under the lock, so a cell revived meanwhile is left alone.
MARK_PURGING = """
UNWIND $keys AS k
MATCH (m:MemCell) WHERE elementId(m) = k AND m.tenant = $tenant
SET m._LOCK_ = true
REMOVE m._LOCK_
WITH m WHERE m.status IN ['forgotten', 'purging'] AND m.forgottenAt < $cutoff
SET m.status = 'purging'
RETURN elementId(m) AS key
"""

# What the cells own: facts, foresight and the turns they were cut from.
PARTS = """
UNWIND $keys AS k
MATCH (m:MemCell)-[:HAS_FACT|PREDICTS|EVIDENCED_BY]->(x) WHERE elementId(m) = k AND m.tenant = $tenant
  AND x.tenant = $tenant
RETURN collect(DISTINCT elementId(x)) AS keys, collect(DISTINCT CASE WHEN x:Fact THEN x.id END) AS factIds
"""

RELATED_OF_FACTS = """
UNWIND $factIds AS fid
MATCH (:Entity)-[r:RELATED {factId: fid}]->(:Entity) WHERE r.tenant = $tenant
DELETE r
"""

# The cells' MENTIONS go before the orphan sweep, so entities only they mentioned are swept
# while the cells themselves still exist.
MENTIONS = """
UNWIND $keys AS k
MATCH (m:MemCell)-[r:MENTIONS]->(:Entity) WHERE elementId(m) = k AND m.tenant = $tenant
DELETE r
"""


@dataclass(frozen=True)
class RetentionPolicy:
    half_life_days: float = 120.0
    access_weight: float = 0.15
    importance_weight: float = 0.5
    threshold: float = 0.4
    grace_days: float = 30.0

    @classmethod
    def from_settings(cls, s: Settings) -> "RetentionPolicy":
        return cls(s.retention_half_life_days, s.retention_access_weight,
                   s.retention_importance_weight, s.retention_threshold, s.retention_grace_days)

    def __post_init__(self) -> None:
        if self.half_life_days <= 0:
            raise ValueError("retention half-life must be positive")
        if self.access_weight < 0 or self.importance_weight < 0 or self.grace_days < 0:
            raise ValueError("retention weights and grace period cannot be negative")

    def score(self, days: float, access_count: int = 0, importance: float = 0.0) -> float:
        """The formula in Python, for explaining and checking; gc computes it in Cypher."""
        return (math.exp(-math.log(2) / self.half_life_days * max(0.0, days))
                + self.access_weight * math.log(1 + access_count) + self.importance_weight * importance)

    def params(self) -> dict:
        return {"decay": math.log(2) / self.half_life_days, "accessWeight": self.access_weight,
                "importanceWeight": self.importance_weight, "threshold": self.threshold}


@dataclass
class GcReport:
    tenant: str
    retired_foresights: int = 0
    forgotten_cells: int = 0
    purged_cells: int = 0
    deleted_nodes: int = 0  # by the purge (the cells, all they owned, entities left unreferenced)
    scenes_dropped: int = 0  # scenes left without an active member by forgetting
    seconds: float = 0.0

    def line(self) -> str:
        return (f"{self.tenant}: forgot {self.forgotten_cells} cell(s), purged {self.purged_cells} "
                f"({self.deleted_nodes} node(s) deleted), retired {self.retired_foresights} "
                f"foresight(s)" + (f", dropped {self.scenes_dropped} emptied scene(s)" if self.scenes_dropped else "")
                + f" in {self.seconds:.2f}s")

    def as_dict(self) -> dict:
        return asdict(self)


def _aware(now: datetime) -> datetime:
    if not isinstance(now, datetime):
        raise TypeError("now must be a datetime")
    return now if now.tzinfo else now.replace(tzinfo=timezone.utc)


def _chunks(keys: list[str], size: int = BATCH):
    for i in range(0, len(keys), size):
        yield keys[i:i + size]


async def retire_foresight(graph: TenantGraph, now: datetime) -> int:
    retired = 0
    while True:
        n = (await graph.write(RETIRE, now=now, batch=5000))[0]["n"]
        retired += n
        if n < 5000:
            return retired


async def _scenes_of(graph: TenantGraph, cell_keys: list[str]) -> list[str]:
    ids: set[str] = set()
    for chunk in _chunks(cell_keys):
        ids |= set((await graph.read(SCENES_OF, keys=chunk))[0]["ids"])
    return sorted(ids)


async def _refresh(graph: TenantGraph, scene_ids: list[str]) -> int:
    """Recompute scenes after members left or came back; returns the scenes dropped."""
    if not scene_ids:
        return 0
    from app.lifecycle.scenes import refresh_scenes

    return await refresh_scenes(graph, scene_ids)


async def forget_fading(graph: TenantGraph, policy: RetentionPolicy, now: datetime) -> tuple[int, int]:
    """(cells forgotten, scenes dropped because no active member was left)."""
    params = {**policy.params(), "now": now}
    keys = [r["key"] for r in await graph.read(FADING, **params)]
    forgotten: list[str] = []
    for chunk in _chunks(keys):
        forgotten += [r["key"] for r in await graph.write(FORGET, keys=chunk, **params)]
    return len(forgotten), await _refresh(graph, await _scenes_of(graph, forgotten))


async def purge_expired(graph: TenantGraph, policy: RetentionPolicy, now: datetime) -> tuple[int, int]:
    """(cells purged, nodes deleted) for cells forgotten longer than the grace period."""
    cutoff = now - timedelta(days=policy.grace_days)
    keys = [r["key"] for r in await graph.read(EXPIRED, cutoff=cutoff)]
    if not keys:
        return 0, 0
    cells: list[str] = []
    deleted = 0
    for chunk in _chunks(keys):
        marked = [r["key"] for r in await graph.write(MARK_PURGING, keys=chunk, cutoff=cutoff)]
        if not marked:
            continue
        cells += marked
        parts = (await graph.read(PARTS, keys=marked))[0]
        if parts["factIds"]:
            await graph.auto_commit(RELATED_OF_FACTS, factIds=parts["factIds"])
        if parts["keys"]:
            deleted += await graph.auto_commit(DELETE_KEYS, keys=parts["keys"])
        await graph.write(MENTIONS, keys=marked)
    if not cells:
        return 0, 0
    deleted += await graph.auto_commit(ORPHAN_ENTITIES)
    deleted += await graph.auto_commit(EMPTY_CONVERSATIONS)
    scenes = await _scenes_of(graph, cells)
    for chunk in _chunks(cells):
        deleted += await graph.auto_commit(DELETE_KEYS, keys=chunk)
    deleted += await _refresh(graph, scenes)
    return len(cells), deleted


async def gc(graph: TenantGraph, policy: RetentionPolicy, now: datetime) -> GcReport:
    """One pass over a tenant (a tenant with no data: a report of zeros, nothing written)."""
    now = _aware(now)
    t0 = time.perf_counter()
    report = GcReport(graph.tenant)
    report.retired_foresights = await retire_foresight(graph, now)
    report.forgotten_cells, report.scenes_dropped = await forget_fading(graph, policy, now)
    report.purged_cells, report.deleted_nodes = await purge_expired(graph, policy, now)
    report.seconds = time.perf_counter() - t0
    return report


async def revive(graph: TenantGraph, cell_id: str, now: datetime | None = None) -> bool:
    """Bring a forgotten cell back (with its facts, foresight and turns); False if it was not
    forgotten (active, being purged, or unknown)."""
    now = _aware(now or datetime.now(timezone.utc))
    keys = [r["key"] for r in await graph.write(REVIVE, id=cell_id, now=now)]
    await _refresh(graph, await _scenes_of(graph, keys))
    return bool(keys)


async def gc_everywhere(driver, settings: Settings, now: datetime | None = None,
                        tenants: list[str] | None = None) -> list[GcReport]:
    """gc of the given tenants (an error stops it, nothing written for a bad name), or of every
    tenant that has memory: then a tenant that fails is logged and the others still get theirs."""
    from app.store.admin import tenants_with_memory

    now = _aware(now or datetime.now(timezone.utc))
    policy = RetentionPolicy.from_settings(settings)
    if tenants is not None:
        graphs = [TenantGraph(driver, t, settings.neo4j_database) for t in tenants]  # checks names first
        return [await gc(g, policy, now) for g in graphs]
    reports = []
    for t in await tenants_with_memory(driver, settings.neo4j_database):
        try:
            reports.append(await gc(TenantGraph(driver, t, settings.neo4j_database), policy, now))
        except Exception:  # noqa: BLE001 - one tenant's trouble must not stop everyone's gc
            log.exception("gc of tenant %r failed", t)
    return reports
