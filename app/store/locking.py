"""Cypher for writes that race other writes: a node another transaction may be deleting at the
same moment, and anything written while the tenant's memory is being deleted."""
from __future__ import annotations


def still_there(x: str, also: str = "") -> str:
    """Lock `x` (a write to it), then keep it only while it still exists. Two deletions of one
    node at once (a forget sent twice, forget and gc's purge) both find it; the second, let
    through once the first commits, reads it as null (`tenant` tells) and would delete and count
    it again: its words taken back twice from the keyword statistics, `deleted` too high.
    `also`: a condition looked at again under the lock (what a writer may have changed)."""
    condition = f"{x}.tenant = $tenant" + (f" AND {also}" if also else "")
    return f"SET {x}._LOCK_ = true\n  REMOVE {x}._LOCK_\n  WITH {x} WHERE {condition}"


# Serialises writers of one tenant (its one WriteLock node), so concurrent batches cannot create
# the same entity twice or supersede each other's facts half-way. Under it, a purge of the
# tenant under way is seen (app/lifecycle/forget.py PURGE_START takes the same lock to mark
# it): whatever the transaction would create could outlive the purge, so it writes nothing.
TENANT_WRITE_LOCK = """
MERGE (l:WriteLock {tenant: $tenant}) SET l.at = datetime()
RETURN EXISTS { MATCH (p:TenantPurge {tenant: $tenant}) } AS purging
"""
