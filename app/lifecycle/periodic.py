"""The server's periodic tasks, safe with several API replicas on one Neo4j.

Each task has a name, an interval (a Settings field in seconds; 0 turns it off) and an
`async fn(services)`. Before each run a replica takes the lease `periodic:<name>` in the graph
(app/store/lease.py); a replica that does not get it skips that turn. While the task runs the
lease is renewed every third of its TTL; when it ends the lease is kept until one interval after
the run started, so N replicas still run a task about once per interval, not N times. A run
cut short (shutdown, crash) frees its lease, or lets it expire, so another replica takes over.

Adding a task is one line in TASKS.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from app.runtime.services import Services
from app.store.lease import LeaseStore

log = logging.getLogger("engram.periodic")


@dataclass(frozen=True)
class PeriodicTask:
    name: str
    interval_setting: str  # the Settings field holding the seconds between runs (0: off)
    run: Callable[[Services], Awaitable[Any]]
    at_start: bool = False  # first run right after start-up, rather than one interval later


async def retry_failed_turns(services: Services) -> int:
    """Turns whose extraction failed (an LLM outage, a crash) are processed again."""
    from app.construction.ingest import Ingestor

    n = await Ingestor(services).retry_failed_everywhere()
    if n:
        log.info("retried %d conversation(s) with failed extraction", n)
    return n


async def gc_all_tenants(services: Services) -> int:
    from app.lifecycle.retention import gc_everywhere

    reports = await gc_everywhere(services.driver, services.settings)
    for r in reports:
        if r.forgotten_cells or r.purged_cells or r.retired_foresights:
            log.info("gc %s", r.line())
    return len(reports)


async def consolidate_all_tenants(services: Services) -> int:
    """Scenes drift as cells arrive one at a time; groups that changed are re-clustered."""
    from app.lifecycle.scenes import SceneService
    from app.store.admin import tenants_with_memory
    from app.store.graph import TenantGraph

    scenes = SceneService(services.settings, services.require_embedder())
    groups = 0
    for tenant in await tenants_with_memory(services.driver, services.settings.neo4j_database):
        graph = TenantGraph(services.driver, tenant, services.settings.neo4j_database)
        try:
            groups += (await scenes.consolidate_changed(graph)).groups
        except Exception:  # one tenant's failure must not stop the others' scenes
            log.exception("consolidation of tenant %s failed; retried next interval", tenant)
    return groups


TASKS: list[PeriodicTask] = [
    PeriodicTask("retry-failed-turns", "retry_interval_s", retry_failed_turns, at_start=True),
    # gc waits one interval after start-up: a restart (or a test server) never forgets at once.
    PeriodicTask("gc", "gc_interval_s", gc_all_tenants),
    PeriodicTask("consolidate", "consolidate_interval_s", consolidate_all_tenants),
]


def replica_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class PeriodicRunner:
    def __init__(self, services: Services, tasks: list[PeriodicTask] | None = None,
                 holder: str | None = None):
        self.services = services
        self.tasks = TASKS if tasks is None else tasks
        self.holder = holder or replica_id()
        self.leases = LeaseStore(services.driver, services.settings.neo4j_database)
        self.ttl = services.settings.lease_ttl_s
        self._loops: list[asyncio.Task] = []

    def interval(self, task: PeriodicTask) -> float:
        return float(getattr(self.services.settings, task.interval_setting))

    def start(self) -> None:
        for task in self.tasks:
            if self.interval(task) > 0:
                self._loops.append(asyncio.create_task(self._loop(task), name=f"periodic:{task.name}"))

    async def stop(self) -> None:
        """Cancel every loop and wait for them: a run in progress is cancelled and its lease freed."""
        for loop in self._loops:
            loop.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        self._loops.clear()

    @property
    def running(self) -> bool:
        return any(not t.done() for t in self._loops)

    async def _loop(self, task: PeriodicTask) -> None:
        interval = self.interval(task)
        if not task.at_start:
            await asyncio.sleep(interval)
        while True:
            try:
                await self.run_once(task)
            except asyncio.CancelledError:
                raise
            except Exception:  # Neo4j unreachable, say: never take the server down for housekeeping
                log.exception("periodic task %s could not run", task.name)
            await asyncio.sleep(interval)

    async def run_once(self, task: PeriodicTask) -> bool:
        """Run the task if this replica gets its lease; False when another replica has it."""
        name = f"periodic:{task.name}"
        if not await self.leases.acquire(name, self.holder, self.ttl):
            return False
        work = asyncio.create_task(task.run(self.services))
        keeper = asyncio.create_task(self._keep(name, work))
        try:
            await work  # cancelling this coroutine (shutdown) cancels the work too
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():
                # Shutdown: free the lease now so another replica need not wait for it to lapse.
                await asyncio.shield(self._release(name, 0.0))
                raise
            return False  # the keeper stopped it: the lease went to another replica
        except Exception:  # a failed run counts as a run: retried next interval, not at once
            log.exception("periodic task %s failed", task.name)
        finally:
            keeper.cancel()
        await self._release(name, self.interval(task))
        return True

    async def _keep(self, name: str, work: asyncio.Task) -> None:
        """Renew the lease while the work runs; if it was lost (this replica stalled past the TTL
        and another took over), stop the work rather than run the task twice at once."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                renewed = await self.leases.renew(name, self.holder, self.ttl)
            except Exception:  # a Neo4j blip: try again next tick, the TTL leaves room for two
                log.exception("could not renew the lease %s", name)
                continue
            if not renewed:
                log.warning("lost the lease %s; stopping this run", name)
                work.cancel()
                return

    async def _release(self, name: str, hold_s: float) -> None:
        try:
            await self.leases.release(name, self.holder, hold_s)
        except Exception:  # the lease then simply expires
            log.exception("could not release the lease %s", name)
