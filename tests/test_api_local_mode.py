"""Local mode over HTTP against `engram serve`: with no API key at all, requests without a key
are served as the tenant 'default', and only a server this machine alone can reach may do that.
It refuses to start on another interface while no key exists, however the address is given, and
a server on another interface never falls back to local mode when its keys are revoked after it
started. Keys are global to the database, so `suspended_keys` takes every active key out for one
test and puts them back after it."""
from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
import uuid
from typing import Iterator

import httpx
import pytest

from app.store.driver import make_driver
from tests.api_server import KEY_CACHE_SECONDS, free_port, running_api, start_serve
from tests.test_api import _new_key

SEARCH = 'query($q: String!) { search(input: {query: $q, method: KEYWORD}) { hits { evidence { content } } } }'
MEMORIZE = "mutation($input: MemorizeInput!) { memorize(input: $input) { accepted } }"
SUSPEND = """MATCH (k:ApiKey) WHERE k.revokedAt IS NULL
SET k.revokedAt = datetime(), k.suspendedByTest = $mark"""
RESTORE = "MATCH (k:ApiKey {suspendedByTest: $mark}) REMOVE k.revokedAt, k.suspendedByTest"


def _run(settings, query: str, **params) -> None:
    async def run():
        driver = make_driver(settings)
        try:
            async with driver.session() as s:
                await (await s.run(query, params)).consume()
        finally:
            await driver.close()

    asyncio.run(run())


@contextlib.contextmanager
def suspended_keys(settings) -> Iterator[None]:
    mark = uuid.uuid4().hex
    _run(settings, SUSPEND, mark=mark)
    try:
        yield
    finally:
        _run(settings, RESTORE, mark=mark)


def _until(check, what: str, seconds: float = KEY_CACHE_SECONDS + 5.0):
    """check() until it returns something true (the server remembers keys KEY_CACHE_SECONDS)."""
    deadline = time.monotonic() + seconds
    while not (got := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.2)
    return got


@pytest.mark.parametrize("args, env", [
    (("--host", "0.0.0.0"), {}),  # the flag, not only ENGRAM_HOST, is what gets checked
    ((), {"ENGRAM_HOST": ""}),  # "" binds every interface
], ids=["flag", "empty-env"])
def test_without_keys_the_server_refuses_to_listen_beyond_loopback(api, args, env):
    with suspended_keys(api.settings):
        proc, log_path, log = start_serve(api.settings, free_port(), env, args)
        try:
            code = proc.wait(timeout=180)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            proc.kill()
            proc.wait()
            log.close()
    out = open(log_path).read()
    assert code not in (None, 0), f"it started without a key beyond loopback: {out[-2000:]}"
    assert "refusing to listen on" in out and "engram keys create" in out, out[-2000:]


def test_without_keys_a_loopback_server_serves_keyless_requests_as_the_local_tenant(api):
    word = f"zanzibar{uuid.uuid4().hex[:6]}"
    messages = [{"id": "l1", "speaker": "Maya", "content": f"My cat is called {word}.",
                 "timestamp": "2024-03-04T10:00:00+00:00"}]
    _new_key(api.settings, f"api_l_{uuid.uuid4().hex[:8]}")  # so that one is back after the block
    with suspended_keys(api.settings):
        r = _until(lambda: (r := api.gql(MEMORIZE, {"input": {"conversationId": word, "messages": messages,
                                                                "flush": True}})).json().get("data") and r,
                   "a loopback server without keys refused a keyless request")
        assert r.json()["data"]["memorize"]["accepted"] == 1
        hits = api.gql(SEARCH, {"q": word}).json()["data"]["search"]["hits"]
        assert any(word in e["content"] for h in hits for e in h["evidence"])
        # No queries by GET: no key is needed here, so any web page could send one.
        got = httpx.get(f"{api.url}/graphql", params={"query": "{ __typename }"}, timeout=10)
        assert got.status_code == 400 and got.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
        assert "data" not in got.json()
    # With a key again, a keyless request is refused (and the local tenant is not reachable).
    r = _until(lambda: (r := api.gql(SEARCH, {"q": word})).json().get("errors") and r,
               "keyless requests still served after a key exists again")
    assert r.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


def test_a_server_beyond_loopback_never_falls_back_to_local_mode(api):
    key = _new_key(api.settings, f"api_l_{uuid.uuid4().hex[:8]}")
    with running_api(api.settings, {"ENGRAM_HOST": "0.0.0.0"}) as public:
        assert "errors" not in public.gql(SEARCH, {"q": "cat"}, key=key).json()
        with suspended_keys(api.settings):
            # Its key revoked after start-up, no key left: still no keyless access.
            r = _until(lambda: (r := public.gql(SEARCH, {"q": "cat"}, key=key)).json().get("errors") and r,
                       "a revoked key still works after the key cache time")
            r = public.gql(SEARCH, {"q": "cat"})
            assert r.json()["data"] is None
            assert r.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
            assert "missing API key" in r.json()["errors"][0]["message"]


@pytest.mark.parametrize("host, refused", [
    ("127.0.0.1", False), ("127.0.0.2", False), ("::1", False), ("localhost", False),
    ("0.0.0.0", True), ("::", True), ("", True), ("192.168.1.5", True), ("engram.example.com", True),
])
def test_which_addresses_may_serve_without_keys(host, refused):
    from app.api.main import refusal_to_listen

    assert (refusal_to_listen(host, any_keys=False) is not None) == refused
    assert refusal_to_listen(host, any_keys=True) is None
