"""Stored timelines planned again after facts left them: moved to another entity by a hand
correction (entity_split.py, entity_merge.py) or deleted by a forget (app/lifecycle/forget.py).
A value whose successor went is current again unless a later value still ends it."""
from __future__ import annotations

from app.construction.supersession import restitch
from app.construction.writer import SUPERSEDE
from app.store.graph import TenantTx

# A value nothing on its timeline ends any more: current again, its relations too.
REOPEN = """
UNWIND $ids AS id
MATCH (f:Fact {tenant: $tenant, id: id})
CALL (f) { MATCH (f)-[x:SUPERSEDED_BY]->() DELETE x }
SET f.status = 'current', f.validTo = null
WITH f
CALL (f) {
  MATCH (:Entity {tenant: $tenant})-[r:RELATED {factId: f.id}]->(:Entity {tenant: $tenant})
  SET r.validTo = null
}
"""


async def replan_timelines(tx: TenantTx, pairs: set[tuple[str, str]],
                           gone: frozenset[str] = frozenset()) -> tuple[int, int]:
    """The (subjectKey, predicate) timelines planned again from the facts they now hold, but
    `gone` (facts a forget is about to delete): (values current again, values closed anew).
    Run under the tenant's write lock."""
    rows, reopen = await restitch(tx.run, pairs, gone)
    if rows:
        await tx.run(SUPERSEDE, supersede=rows)
    if reopen:
        await tx.run(REOPEN, ids=reopen)
    return len(reopen), len(rows)
