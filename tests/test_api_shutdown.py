"""Stopping `engram serve` (SIGTERM, as Docker and Kubernetes stop it) with a backlog: it goes
on processing what it was handed for ENGRAM_SHUTDOWN_DRAIN_S, then stops, saying how much it
leaves, and marks those conversations so that the next start's retry takes them up at once. A
backlog took 50 s to drain, in silence, past an orchestrator's 30 s grace period."""
import asyncio
import signal
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone

import httpx

from app.construction.ingest import UNSEEN_S
from app.store.admin import conversations_with_failed_turns
from app.store.driver import make_driver
from tests.api_server import Api, free_port, start_serve, wait_healthy
from tests.test_api import MEMORIZE, _new_key

DRAIN_S = 2


def _messages(conversation: str, n: int) -> list[dict]:
    start = datetime(2024, 3, 1, 9, tzinfo=timezone.utc)
    return [{"id": f"{conversation}-{k}", "speaker": "Maya" if k % 2 else "Sam",
             "content": f"On day {k} we talked about the garden, the bikes and the trip to Porto number {k}.",
             "timestamp": (start + timedelta(minutes=k)).isoformat()} for k in range(n)]


def test_a_stopped_server_drains_for_its_deadline_and_leaves_the_rest_marked(settings):
    tenant = f"shutdown_{uuid.uuid4().hex[:8]}"
    key = _new_key(settings, tenant)
    port = free_port()
    proc, log_path, log = start_serve(settings, port, {"ENGRAM_SHUTDOWN_DRAIN_S": str(DRAIN_S)})
    try:
        api = Api(f"http://127.0.0.1:{port}", settings, log_path)
        wait_healthy(proc, api.url, log_path)
        for c in ("a", "b", "c", "d"):
            r = api.gql(MEMORIZE, {"input": {"conversationId": c, "wait": False, "flush": True,
                                             "messages": _messages(c, 300)}}, key=key)
            assert r.json()["data"]["memorize"]["accepted"] == 300, r.text
        # A call still waiting for its run when the stop comes: cut after a few seconds.
        waiting = threading.Thread(target=lambda: _quietly(lambda: api.gql(MEMORIZE, {"input": {
            "conversationId": "e", "flush": True, "messages": _messages("e", 300)}}, key=key, timeout=60)))
        waiting.start()
        time.sleep(1.0)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        took = time.monotonic() - t0
        waiting.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        log.close()
    text = open(log_path).read()
    assert "finishing the calls of" in text, text[-3000:]
    assert "stopped with the calls of" in text, text[-3000:]
    # In-flight requests get 5 s (uvicorn), the drain DRAIN_S, and stopping the rest a few more.
    assert took < 5 + DRAIN_S + 15, took

    async def left() -> tuple[set[str], set[str]]:
        driver = make_driver(settings)
        try:
            async with driver.session(database=settings.neo4j_database) as s:
                rows = await (await s.run(
                    "MATCH (t:Turn {tenant: $tenant, status: 'pending'}) RETURN DISTINCT t.conversationId AS c",
                    tenant=tenant)).data()
            found = await conversations_with_failed_turns(driver, UNSEEN_S, settings.neo4j_database)
            return {r["c"] for r in rows}, {c for t, c, _ in found if t == tenant}
        finally:
            await driver.close()

    pending, marked = asyncio.run(left())
    # Every conversation left with pending turns is one the next start's retry takes up at once
    # (not once its turns are UNSEEN_S old).
    assert pending and pending <= marked, (pending, marked)


def _quietly(call) -> None:
    try:
        call()
    except httpx.HTTPError:
        pass  # the server went away under it: its turns are stored, as the test checks
