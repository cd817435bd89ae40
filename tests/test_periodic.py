"""The periodic runner: with two replicas on one Neo4j a task never runs twice at once; stopping
cancels a run in progress and frees its lease; a failing task keeps its schedule."""
import asyncio
import dataclasses
import uuid

from app.lifecycle.periodic import TASKS, PeriodicRunner, PeriodicTask
from app.store.lease import LeaseStore

GUARD_S = 120  # only a guard against a hang: the tests wait for events, not for time


def fast(services, interval: float = 0.05):
    """The services with a short interval (on the field the test tasks name) and lease TTL."""
    return dataclasses.replace(services, settings=services.settings.model_copy(
        update={"retry_interval_s": interval, "lease_ttl_s": 30.0}))


async def test_two_replicas_never_run_the_same_task_at_once(services):
    name = f"test-{uuid.uuid4().hex[:8]}"
    state = {"active": 0, "overlaps": 0, "runs": []}
    enough = asyncio.Event()

    def task_for(replica: str) -> PeriodicTask:
        async def run(_services):
            state["active"] += 1
            if state["active"] > 1:
                state["overlaps"] += 1
            try:
                await asyncio.sleep(0.02)  # long enough for the other replica to try meanwhile
            finally:
                state["active"] -= 1
            state["runs"].append(replica)
            if len(state["runs"]) >= 12:
                enough.set()

        return PeriodicTask(name, "retry_interval_s", run, at_start=True)

    svc = fast(services)
    a = PeriodicRunner(svc, [task_for("a")], holder="replica-a")
    b = PeriodicRunner(svc, [task_for("b")], holder="replica-b")
    a.start()
    b.start()
    try:
        await asyncio.wait_for(enough.wait(), GUARD_S)
    finally:
        await asyncio.gather(a.stop(), b.stop())
    assert state["overlaps"] == 0 and state["active"] == 0
    assert not a.running and not b.running


async def test_stopping_cancels_a_run_in_progress_and_frees_its_lease(services):
    name = f"test-{uuid.uuid4().hex[:8]}"
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def run(_services):
        started.set()
        try:
            await asyncio.Event().wait()  # a run that would never end by itself
        except asyncio.CancelledError:
            cancelled.set()
            raise

    runner = PeriodicRunner(fast(services), [PeriodicTask(name, "retry_interval_s", run, at_start=True)],
                            holder="replica-a")
    runner.start()
    await asyncio.wait_for(started.wait(), GUARD_S)
    leases = LeaseStore(services.driver, services.settings.neo4j_database)
    assert (await leases.current(f"periodic:{name}")).holder == "replica-a"

    await runner.stop()

    assert cancelled.is_set() and not runner.running
    assert await leases.current(f"periodic:{name}") is None
    assert await leases.acquire(f"periodic:{name}", "replica-b", ttl_s=30)


async def test_a_failing_task_runs_again_next_interval_and_a_zero_interval_disables(services):
    name = f"test-{uuid.uuid4().hex[:8]}"
    calls = []
    twice = asyncio.Event()

    async def run(_services):
        calls.append(1)
        if len(calls) >= 2:
            twice.set()
        raise RuntimeError("boom")

    task = PeriodicTask(name, "retry_interval_s", run, at_start=True)
    runner = PeriodicRunner(fast(services), [task])
    runner.start()
    try:
        await asyncio.wait_for(twice.wait(), GUARD_S)
        assert runner.running
    finally:
        await runner.stop()
    off = PeriodicRunner(fast(services, interval=0), [task])
    off.start()
    assert not off.running


def test_the_server_tasks_name_real_settings(services):
    names = [t.name for t in TASKS]
    assert len(names) == len(set(names)) and {"retry-failed-turns", "gc"} <= set(names)
    for t in TASKS:
        assert getattr(services.settings, t.interval_setting) >= 0
    # gc never runs right at start-up: a restarted replica (or a test server) forgets nothing at once.
    assert not next(t for t in TASKS if t.name == "gc").at_start
