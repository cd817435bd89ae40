"""Access counts of retrieved episodes (forgetting reads them), written off the search's path.

A write transaction per search (commit, log flush) cost Neo4j more than several of the
search's reads, and concurrent searches queued on the same episodes' locks. Uses are counted
in memory and written per tenant by one writer at a time: uses that arrive while a write runs
go together in the next one, never waiting for a timer, and each use still adds one (two
searches that return the same episode count two).
"""
from __future__ import annotations

import asyncio
import logging
from collections import Counter

from app.store.graph import TenantGraph

# The write lock is taken before the count is read, so a concurrent writer (another API
# process) adds up instead of overwriting (Neo4j reads without locks under read-committed).
TOUCH = """
UNWIND $uses AS use
MATCH (n:MemCell {id: use.id}) WHERE n.tenant = $tenant
SET n._LOCK_ = true
WITH n, use
SET n.accessCount = coalesce(n.accessCount, 0) + use.n, n.lastAccessedAt = datetime()
REMOVE n._LOCK_
"""

log = logging.getLogger(__name__)


class AccessLog:
    def __init__(self) -> None:
        self._pending: dict[str, tuple[TenantGraph, Counter]] = {}
        self._writers: dict[str, asyncio.Task] = {}

    def record(self, graph: TenantGraph, cell_ids: list[str]) -> None:
        if not cell_ids:
            return
        self._pending.setdefault(graph.tenant, (graph, Counter()))[1].update(cell_ids)
        if graph.tenant not in self._writers:
            self._writers[graph.tenant] = asyncio.create_task(self._drain(graph.tenant))

    async def _drain(self, tenant: str) -> None:
        try:
            while tenant in self._pending:
                graph, uses = self._pending.pop(tenant)
                try:
                    await graph.write(TOUCH, uses=[{"id": i, "n": n} for i, n in sorted(uses.items())])
                except Exception:  # noqa: BLE001 - a lost access count must not fail a search
                    log.warning("access counts of %d episodes not written", len(uses), exc_info=True)
        finally:
            del self._writers[tenant]

    async def settle(self) -> None:
        """Wait until every recorded use is written (tests, shutdown)."""
        while self._writers:
            await asyncio.gather(*list(self._writers.values()), return_exceptions=True)
