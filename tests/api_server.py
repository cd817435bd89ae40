"""Start `engram serve` in a subprocess against the test Neo4j and talk to it over HTTP."""
from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Iterator

import httpx

from app.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Api:
    url: str
    settings: Settings
    log: str

    def gql(self, query: str, variables: dict | None = None, key: str | None = None,
            headers: dict | None = None, timeout: float = 120) -> httpx.Response:
        h = {"Content-Type": "application/json", **(headers or {})}
        if key is not None:
            h["Authorization"] = f"Bearer {key}"
        # JSON with \u escapes (json.dumps' default), so that text that is not Unicode (a lone
        # surrogate) can be sent, as any client's JSON can.
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        return httpx.post(f"{self.url}/graphql", content=body, headers=h, timeout=timeout)


# Found API keys are remembered this long by the test server (ENGRAM_KEY_CACHE_SECONDS).
KEY_CACHE_SECONDS = 1.0


def server_env(settings: Settings, port: int) -> dict:
    env = dict(os.environ)
    env.update({
        "ENGRAM_NEO4J_URI": settings.neo4j_uri, "ENGRAM_NEO4J_USER": settings.neo4j_user,
        "ENGRAM_NEO4J_PASSWORD": settings.neo4j_password, "ENGRAM_HOST": "127.0.0.1",
        "ENGRAM_PORT": str(port), "ENGRAM_KEY_CACHE_SECONDS": str(KEY_CACHE_SECONDS),
        # (its start-up retry would process every other test's open conversations: conftest.py)
        "ENGRAM_IDLE_FLUSH_S": str(settings.idle_flush_s),
        # (seconds of searches beside the tests at each start: tests/test_warm_up.py runs them)
        "ENGRAM_WARM_UP_SCOPES": "0",
    })
    return env


def start_serve(settings: Settings, port: int, env: dict | None = None,
                args: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str, object]:
    """`engram serve [args]` in its own process: (process, log path, open log file)."""
    log_path = f"/tmp/engram-api-test-{port}.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", *args],
                            env=server_env(settings, port) | (env or {}), stdout=log,
                            stderr=subprocess.STDOUT)
    return proc, log_path, log


def wait_healthy(proc: subprocess.Popen, url: str, log_path: str) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"engram serve exited: {open(log_path).read()[-3000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"engram serve did not become healthy: {open(log_path).read()[-3000:]}")


@contextlib.contextmanager
def running_api(settings: Settings, env: dict | None = None) -> Iterator[Api]:
    """`env`: ENGRAM_* settings of this server only."""
    port = free_port()
    proc, log_path, log = start_serve(settings, port, env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(proc, url, log_path)
        yield Api(url, settings, log_path)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
