"""Neo4j unreachable under a running server: requests are answered with the code UNAVAILABLE
(nothing was done, retry later), not INTERNAL or a 500, and are served again once it is back; a
call that had stored part of its messages says which, and a run that failed is tried again
soon. The server (or driver) reaches the test Neo4j through a TCP relay that the test cuts and
restores."""
import asyncio
import dataclasses
import socket
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from neo4j import AsyncGraphDatabase
from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired

from app.construction.ingest import Ingestor
from app.construction.turns import write_turns
from app.domain.models import Message
from app.store.driver import UNREACHABLE, UnreachableMidway, error_text
from app.store.graph import TenantGraph
from tests.api_server import KEY_CACHE_SECONDS, free_port, running_api
from tests.test_api import SEARCH, _new_key


class Relay:
    """127.0.0.1:port -> target, byte for byte, until cut (every connection closed, new ones
    refused) and restored."""

    def __init__(self, target_port: int):
        self.port, self.target = free_port(), target_port
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        self.open = True
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", self.port))
        ls.listen(64)
        self.listener = ls
        threading.Thread(target=self._accept, args=(ls,), daemon=True).start()

    def _accept(self, ls: socket.socket) -> None:
        while True:
            try:
                client, _ = ls.accept()
            except OSError:
                return  # cut
            server = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                if not self.open:  # accepted as the relay was cut
                    client.close()
                    server.close()
                    return
                self.conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        with self.lock:
            self.open = False
            conns, self.conns = self.conns, []
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        except OSError:
            pass
        self.listener.close()
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass


@pytest.fixture(scope="module")
def relayed(settings):
    relay = Relay(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    via = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{relay.port}"})
    with running_api(via) as api:
        yield api, relay


def _codes(r) -> list[str]:
    return [e["extensions"]["code"] for e in r.json().get("errors") or []]


def test_neo4j_unreachable_is_unavailable_and_the_server_recovers(relayed, settings):
    api, relay = relayed
    key = _new_key(settings, f"unav_{uuid.uuid4().hex[:8]}")
    ask = {"input": {"query": "where does Maya live", "topK": 3}}
    assert api.gql(SEARCH, ask, key=key).json()["data"]["search"] is not None
    memorize = ('mutation($m: [MessageInput!]!) { memorize(input: {conversationId: "u1", messages: $m}) '
                '{ accepted } }')
    note = [{"id": "u-1", "speaker": "Maya", "content": "I moved to Porto.", "timestamp": "2024-05-01T10:00:00Z"}]
    relay.cut()
    try:
        # The key is still known (cached): the resolvers meet the unreachable database.
        t0 = time.monotonic()
        r = api.gql(SEARCH, ask, key=key)
        assert r.status_code == 200 and _codes(r) == ["UNAVAILABLE"], r.text
        assert time.monotonic() - t0 < KEY_CACHE_SECONDS + 30
        time.sleep(KEY_CACHE_SECONDS + 0.2)
        # Now the key itself cannot be looked up: refused before any operation runs.
        for query, variables in ((SEARCH, ask), (memorize, {"m": note})):
            r = api.gql(query, variables, key=key)
            assert r.status_code == 503 and _codes(r) == ["UNAVAILABLE"] and r.json()["data"] is None, r.text
        # An operator sees it: the database down, and the requests it refused counted by their code.
        m = httpx.get(f"{api.url}/metrics", timeout=30).text
        assert "engram_neo4j_up 0" in m and "engram_pending_turns" not in m
        assert 'engram_requests_total{operation="none",status="UNAVAILABLE"} 2' in m, m
    finally:
        relay.restore()
    deadline = time.monotonic() + 60
    while True:  # the driver reconnects on its own
        r = api.gql(SEARCH, ask, key=key)
        if r.status_code == 200 and not _codes(r):
            break
        assert time.monotonic() < deadline, r.text
        time.sleep(0.5)
    # What was refused was not stored: sent again, it is new.
    r = api.gql(memorize, {"m": note}, key=key)
    assert r.json()["data"]["memorize"]["accepted"] == 1, r.text


def test_an_unreachable_database_is_said_so_without_its_address():
    # A turn's lastError is the client's to read: "Couldn't connect to 127.0.0.1:7691" named the
    # server's address; a query while the database shut down (DatabaseUnavailable) answered INTERNAL.
    for e in (ServiceUnavailable("Couldn't connect to 127.0.0.1:7691 (resolved to ('127.0.0.1:7691',))"),
              DatabaseUnavailable(), SessionExpired("session expired at 10.0.0.7:7687")):
        assert error_text(e) == "the graph database was unreachable" and isinstance(e, UNREACHABLE)
    assert error_text(ValueError("bad row")) == "ValueError: bad row"


async def test_unreachable_after_a_chunk_says_which_messages_were_stored(settings, graph):
    # A call's messages are stored in chunks, one transaction each: the database going away
    # after the first had committed was answered "nothing was done", and the first were kept.
    relay = Relay(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    driver = AsyncGraphDatabase.driver(f"bolt://127.0.0.1:{relay.port}", max_transaction_retry_time=1.0)

    class CutAfterOneChunk(TenantGraph):
        async def write_tx(self, fn):
            done = await super().write_tx(fn)
            relay.cut()
            return done

    at = datetime(2024, 5, 1, 10, tzinfo=timezone.utc)
    messages = [Message.model_validate({"id": f"m{k}", "speaker": "Maya", "content": f"note {k}",
                                        "timestamp": at + timedelta(minutes=k)}) for k in range(3)]
    try:
        with pytest.raises(UnreachableMidway, match=r"the first 1 of 3 new ones .* were stored, the rest not"):
            await write_turns(CutAfterOneChunk(driver, graph.tenant, graph.database), "c1", None, messages,
                              chunk=1)
    finally:
        relay.restore()
        await driver.close()
    rows = await graph.read("MATCH (t:Turn {tenant: $tenant}) RETURN t.id AS id")
    assert [r["id"] for r in rows] == ["m0"]


async def test_a_run_that_met_neo4j_unreachable_is_tried_again_once_it_is_back(settings, services, graph):
    # A `wait: false` call's turns, stored as the database went away: their run failed, and
    # they waited for the periodic retry (minutes) although the database was back in a second.
    relay = Relay(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    driver = AsyncGraphDatabase.driver(f"bolt://127.0.0.1:{relay.port}", max_transaction_retry_time=1.0)
    ingestor = Ingestor(dataclasses.replace(services, driver=driver))
    note = {"id": "m1", "speaker": "Maya", "content": "I am allergic to peanuts.",
            "timestamp": datetime(2024, 5, 1, 10, tzinfo=timezone.utc)}
    pending = "MATCH (t:Turn {tenant: $tenant, status: 'pending'}) RETURN count(t) AS n"
    try:
        await ingestor.memorize(graph.tenant, "c1", [note], flush=True, wait=False)
        relay.cut()  # before its run's first query: the worker has not started yet
        await asyncio.sleep(1.5)
        assert (await graph.read(pending))[0]["n"] == 1
        relay.restore()
        deadline = time.monotonic() + 60
        while (await graph.read(pending))[0]["n"]:
            assert time.monotonic() < deadline, "the turn stayed pending"
            await asyncio.sleep(0.5)
        facts = await graph.read("MATCH (f:Fact {tenant: $tenant}) RETURN f.text AS text")
        assert any("peanut" in r["text"] for r in facts), facts
    finally:
        if not relay.open:
            relay.restore()
        await ingestor.drain()
        await driver.close()
