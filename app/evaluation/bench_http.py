"""bench http: HYBRID search as an agent sees it, over HTTP, at N MemCells.

The synthetic tenant mix of synthetic.py (one big tenant of N cells among small ones), an API
key for the big tenant, the real server (`engram serve`) in its own process, and `clients`
concurrent clients each sending `search` GraphQL requests (query texts vary, as in bench
search) until `requests` are answered. Measured per request: the whole request as the client
sees it (p50/p95/p99), the server's own `tookMs` (SearchService), and their difference (HTTP,
GraphQL, authentication, serialisation, and waiting for the event loop while other requests
run). Written to bench/results/http.json.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import httpx

from app.evaluation.bench import (WARM_UP_BLOCK, WARM_UP_BLOCKS, WarmUpCurve, cpu_seconds, machine,
                                  shared_cpu_note, write_result)
from app.evaluation.http_client import HttpError, LeanClient
from app.evaluation.metrics import percentiles
from app.evaluation.synthetic import COUNT_CELLS, NAMES, WORDS, tenant_mix
from app.runtime import neo4j_local
from app.runtime.services import Services
from app.settings import Settings
from app.store.keys import KeyStore

TARGET_P95_MS = 80.0
# Requests before measuring, all clients at once after a first few from one client: Neo4j's JIT
# compiles its hot paths over the first few thousand searches (app/evaluation/bench.py,
# WARM_UP_BLOCKS); the curve is recorded in the results.
FIRST = 40
WARMUP = FIRST + WARM_UP_BLOCKS * WARM_UP_BLOCK

# What an agent asks for: the hits with their text and evidence, and the packed context.
SEARCH = """
query($input: SearchInput!) {
  search(input: $input) {
    tookMs context
    hits { rank score kind
      memCell { id title summary }
      fact { id text validFrom }
      scene { id topic }
      evidence { id speaker content timestamp } }
  }
}"""


class CpuMeter:
    """CPU used by the API server and by the local Neo4j since start(), per request, so a
    benchmark can say where a request's CPU goes (two cores bound the throughput)."""

    def __init__(self, pids: dict[str, int | None]):
        self.pids = pids
        self.before: dict[str, float | None] = {}

    def start(self) -> None:
        self.before = {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    def per_request_ms(self, requests: int) -> dict[str, float | None]:
        out = {}
        for name, pid in self.pids.items():
            now, then = cpu_seconds(pid), self.before.get(name)
            out[name] = round((now - then) * 1000 / requests, 1) if now is not None and then is not None else None
        return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_command() -> list[str]:
    script = Path(sys.executable).parent / "engram"
    return [str(script), "serve"] if script.exists() else [sys.executable, "-m", "app.cli", "serve"]


@contextlib.contextmanager
def running_server(settings: Settings, log_path: Path,
                   extra_env: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """`engram serve` on a free port against the same Neo4j; yields (URL, pid) once /health says ok."""
    port = _free_port()
    env = dict(os.environ, **(extra_env or {}))
    env.update({"ENGRAM_NEO4J_URI": settings.neo4j_uri, "ENGRAM_NEO4J_USER": settings.neo4j_user,
                "ENGRAM_NEO4J_PASSWORD": settings.neo4j_password,
                "ENGRAM_NEO4J_DATABASE": settings.neo4j_database,
                "ENGRAM_HOST": "127.0.0.1", "ENGRAM_PORT": str(port)})
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(_serve_command(), env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 180
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"engram serve exited: {log_path.read_text()[-2000:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"engram serve did not become healthy: {log_path.read_text()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                        break
                time.sleep(0.5)
            yield url, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def questions(n: int) -> list[str]:
    return [f"What does {NAMES[i % len(NAMES)]} think about {WORDS[(i * 5) % len(WORDS)]}?" for i in range(n)]


async def _one(client: LeanClient, query: str) -> tuple[float, float | None, str | None]:
    """(whole request ms, server tookMs, error or None)."""
    t0 = time.perf_counter()
    try:
        status, body = await client.post_json({"query": SEARCH,
                                               "variables": {"input": {"query": query, "method": "HYBRID"}}})
        ms = (time.perf_counter() - t0) * 1000
    except (HttpError, ValueError) as e:
        return (time.perf_counter() - t0) * 1000, None, f"{type(e).__name__}: {e}"
    if status != 200 or not isinstance(body, dict) or body.get("errors") or not body.get("data"):
        return ms, None, f"HTTP {status}: {str(body.get('errors') if isinstance(body, dict) else body)[:200]}"
    return ms, float(body["data"]["search"]["tookMs"]), None


async def _load(url: str, key: str, texts: list[str], clients: int) -> tuple[list, float]:
    """`clients` workers, each on its own connection, sharing one queue of query texts; returns
    the results and wall seconds."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    for t in texts:
        queue.put_nowait(t)
    results: list[tuple[float, float | None, str | None]] = []

    async def worker() -> None:
        client = LeanClient(url, "/graphql", {"Authorization": f"Bearer {key}"})
        try:
            while True:
                try:
                    text = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                results.append(await _one(client, text))
        finally:
            await client.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return results, time.perf_counter() - t0


def _summary(results: list, wall_s: float) -> dict:
    ok = [(ms, took) for ms, took, err in results if err is None]
    errors = [err for _, _, err in results if err is not None]
    whole = [ms for ms, _ in ok]
    took = [t for _, t in ok]
    rounded = lambda d: {k: round(v, 1) if v is not None else None for k, v in d.items()}  # noqa: E731
    return {
        "requests": len(results), "errors": len(errors), "first_errors": errors[:3],
        "seconds": round(wall_s, 2), "requests_per_s": round(len(results) / wall_s, 2),
        "whole_request_ms": rounded(percentiles(whole)),
        "server_took_ms": rounded(percentiles(took)),
        "outside_search_ms": rounded(percentiles(m - t for m, t in ok)),
        # Of the time clients waited, the share SearchService spent (the rest: HTTP, GraphQL,
        # auth, serialisation, and queueing behind other requests in the event loop).
        "server_share": round(sum(took) / sum(whole), 3) if whole else None,
    }


async def bench_http(services: Services, size: int = 100_000, tenants: int = 20, clients: int = 8,
                     requests: int = 1000, keep: bool = False, progress=lambda *_: None) -> dict:
    settings = services.settings
    if not settings.neo4j_uri:
        raise RuntimeError("bench http needs ENGRAM_NEO4J_URI (the server process must reach the same Neo4j)")
    load_before = os.getloadavg()
    keys = KeyStore(services.driver, settings.neo4j_database)
    mix = await tenant_mix(services, "bench_http", tenants, progress=progress)
    key = None
    out: dict = {"benchmark": "http", "date": datetime.now(timezone.utc).isoformat(), "machine": machine(),
                 "tenants": tenants, "clients": clients, "method": "HYBRID",
                 # The server reads the same environment (ENGRAM_SEARCH_CONCURRENCY).
                 "search_concurrency": settings.search_concurrency,
                 "target": f"whole-request p95 <= {TARGET_P95_MS:.0f} ms with {clients} concurrent clients"}
    log_path = Path(f"/tmp/engram-bench-http-{os.getpid()}.log")
    try:
        await mix.grow_big(size, progress)
        async with services.driver.session(database=settings.neo4j_database) as s:
            await (await s.run("CALL db.awaitIndexes(600)")).consume()
        out["memcells"] = (await mix.big.read(COUNT_CELLS))[0]["n"]
        key = await keys.create(mix.big.tenant, "bench http")
        texts = questions(WARMUP + requests)
        with running_server(settings, log_path) as (url, server_pid):
            # The clients' own CPU too: they run on the two cores the server and Neo4j need.
            meter = CpuMeter({"server": server_pid, "neo4j": neo4j_local.serving_pid(settings),
                              "clients": os.getpid()})
            # Warm-up: one client (the model, plans and pages), then all of them (connections,
            # and Neo4j's JIT: see WARMUP).
            warm, _ = await _load(url, key, texts[:FIRST], 1)
            curve = WarmUpCurve(neo4j_local.serving_pid(settings))

            async def all_clients(start: int, units: int) -> None:
                warm.extend((await _load(url, key, texts[FIRST + start:FIRST + start + units], clients))[0])

            await curve.run(all_clients)
            out["warmup_errors"] = sum(e is not None for *_, e in warm)
            out["warm_up"] = curve.blocks
            measuring = datetime.now(timezone.utc)
            # The same texts one client at a time: the latency without concurrency, for scale.
            single, single_s = await _load(url, key, texts[WARMUP:WARMUP + 50], 1)
            out["one_client"] = _summary(single, single_s)
            meter.start()
            results, wall = await _load(url, key, texts[WARMUP:], clients)
            # Where the CPU of a request goes; with two cores, their sum bounds requests/s.
            out["cpu_ms_per_request"] = meter.per_request_ms(len(results))
            # The 1-minute average right after the measured phase: mostly that phase.
            load_during = os.getloadavg()
            out["concurrent"] = _summary(results, wall)
        if settings.search_concurrency:
            # The same load on a server that runs every search at once, for comparison.
            with running_server(settings, log_path.with_suffix(".unlimited.log"),
                                {"ENGRAM_SEARCH_CONCURRENCY": "0"}) as (url, _):
                await _load(url, key, texts[:WARMUP // 2], clients)
                results, wall = await _load(url, key, texts[WARMUP:], clients)
                out["concurrent_without_search_limit"] = _summary(results, wall)
        # A checkpoint flushes Neo4j's page cache for seconds: a phase it fell into is slower.
        out["checkpoints_while_measuring"] = neo4j_local.checkpoints_since(settings, measuring)
        p95 = out["concurrent"]["whole_request_ms"]["p95"]
        out["target_met"] = p95 is not None and p95 <= TARGET_P95_MS and out["concurrent"]["errors"] == 0
        out["load_average"] = {"before": [round(x, 2) for x in load_before],
                               "end_of_measured_phase": [round(x, 2) for x in load_during]}
        # Only the load before the run tells of other work: during it the benchmark's own
        # clients, server and Neo4j load the machine (8 clients: 2.5-5 on 2 CPUs), which the
        # note took for other work in every run.
        out["notes"] = shared_cpu_note([load_before[0]])
    finally:
        if key and not keep:
            await keys.revoke(key[:12])
        if not keep:
            await mix.purge()
    out["server_log"] = str(log_path)
    out["path"] = str(write_result("http", out))
    return out
