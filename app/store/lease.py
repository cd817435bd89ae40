"""Leases: (:Lease {name, holder, acquiredAt, expiresAt}), so that of several API replicas on one
Neo4j only one runs a given periodic task at a time.

A lease is service state, not tenant data: these queries run on the driver directly, never
through TenantGraph. Times are the database's clock (`datetime()`), so replicas with skewed
clocks still agree on when a lease expires; `now` may be given instead, for tests.

Acquiring is one write transaction that first takes the node's write lock (the documented
`SET n._LOCK_` idiom) and only then reads holder and expiry, so two acquirers cannot both read
"free": the second waits for the first to commit and then sees its holder. The uniqueness
constraint on `name` (migration 0005) makes concurrent MERGEs of a new lease create one node.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from neo4j import AsyncDriver, AsyncManagedTransaction

MAX_NAME = 200

ACQUIRE = """
MERGE (l:Lease {name: $name})
SET l._LOCK_ = true
WITH l, coalesce($now, datetime()) AS now
WITH l, now, (l.holder IS NULL OR l.holder = $holder OR l.expiresAt <= now) AS free
SET l.holder = CASE WHEN free THEN $holder ELSE l.holder END,
    l.acquiredAt = CASE WHEN free THEN now ELSE l.acquiredAt END,
    l.expiresAt = CASE WHEN free THEN now + duration({milliseconds: $ttlMs}) ELSE l.expiresAt END
REMOVE l._LOCK_
RETURN free AS won
"""

# Extends a lease its holder still has (even if it lapsed, as long as nobody took it since).
RENEW = """
MATCH (l:Lease {name: $name}) WHERE l.holder = $holder
SET l.expiresAt = coalesce($now, datetime()) + duration({milliseconds: $ttlMs})
RETURN count(l) > 0 AS renewed
"""

# hold_ms = 0: free now. hold_ms > 0: keep it until that long after it was acquired (a periodic
# task that just ran: no replica runs it again before its next turn).
RELEASE = """
MATCH (l:Lease {name: $name}) WHERE l.holder = $holder
SET l.expiresAt = CASE WHEN $holdMs > 0 THEN l.acquiredAt + duration({milliseconds: $holdMs}) END,
    l.holder = CASE WHEN $holdMs > 0 THEN l.holder END
RETURN count(l) > 0 AS released
"""

CURRENT = """
MATCH (l:Lease {name: $name}) WHERE l.holder IS NOT NULL AND l.expiresAt > coalesce($now, datetime())
RETURN l.holder AS holder, l.expiresAt AS expiresAt
"""


class LeaseError(ValueError):
    pass


@dataclass(frozen=True)
class LeaseInfo:
    holder: str
    expires_at: datetime


def _check(name: str, holder: str | None = None, ms: int | None = None) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise LeaseError(f"lease name must be 1-{MAX_NAME} characters")
    if holder is not None and (not isinstance(holder, str) or not holder.strip() or len(holder) > MAX_NAME):
        raise LeaseError(f"lease holder must be 1-{MAX_NAME} characters")
    if ms is not None and ms <= 0:
        raise LeaseError("a lease's duration must be positive")


class LeaseStore:
    def __init__(self, driver: AsyncDriver, database: str = "neo4j"):
        self.driver, self.database = driver, database

    async def _write(self, query: str, **params) -> dict:
        async def work(tx: AsyncManagedTransaction) -> dict:
            record = await (await tx.run(query, params)).single()
            return record.data() if record else {}

        async with self.driver.session(database=self.database) as s:
            return await s.execute_write(work)

    async def acquire(self, name: str, holder: str, ttl_s: float, now: datetime | None = None) -> bool:
        """True when `holder` has the lease now (newly, or again); False while another holds it."""
        ms = int(ttl_s * 1000)
        _check(name, holder, ms)
        return bool((await self._write(ACQUIRE, name=name, holder=holder, ttlMs=ms, now=now))["won"])

    async def renew(self, name: str, holder: str, ttl_s: float, now: datetime | None = None) -> bool:
        """False when the lease is no longer `holder`'s (another replica took it after it expired)."""
        ms = int(ttl_s * 1000)
        _check(name, holder, ms)
        return bool((await self._write(RENEW, name=name, holder=holder, ttlMs=ms, now=now))["renewed"])

    async def release(self, name: str, holder: str, hold_s: float = 0.0) -> bool:
        """Give the lease up (only its holder can); with hold_s, keep it until hold_s after it was
        acquired. False when `holder` did not hold it."""
        _check(name, holder)
        return bool((await self._write(RELEASE, name=name, holder=holder,
                                       holdMs=max(0, int(hold_s * 1000))))["released"])

    async def current(self, name: str, now: datetime | None = None) -> LeaseInfo | None:
        _check(name)
        async with self.driver.session(database=self.database) as s:
            record = await (await s.run(CURRENT, name=name, now=now)).single()
        if record is None:
            return None
        exp = record["expiresAt"]
        return LeaseInfo(record["holder"], exp.to_native() if hasattr(exp, "to_native") else exp)
