"""Which Neo4j the tests use, resolved the same way as the app's:

1. ENGRAM_NEO4J_URI (+ user/password) when set;
2. else a testcontainers Neo4jContainer when a Docker engine answers;
3. else the local server installed from Maven Central, as instance "test" on its own ports,
   started on demand and stopped afterwards if the tests started it.
"""
from __future__ import annotations

import contextlib
import os
from typing import Iterator

from app.runtime import neo4j_local
from app.settings import Settings

TEST_BOLT_PORT = int(os.environ.get("ENGRAM_TEST_BOLT_PORT", "17687"))
TEST_HTTP_PORT = int(os.environ.get("ENGRAM_TEST_HTTP_PORT", "17474"))
DOCKER_IMAGE = "neo4j:2026.08.1"


def docker_answers() -> bool:
    try:
        import docker  # shipped with testcontainers

        client = docker.from_env(timeout=3)
        client.ping()
        return True
    except Exception:
        return False


@contextlib.contextmanager
def neo4j_for_tests() -> Iterator[Settings]:
    base = Settings()
    if base.neo4j_uri:
        yield base
        return
    if os.environ.get("ENGRAM_TEST_DOCKER", "auto") != "off" and docker_answers():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer(DOCKER_IMAGE, password="engram-test-pw") as c:
            yield base.model_copy(update={
                "neo4j_uri": c.get_connection_url(), "neo4j_user": "neo4j",
                "neo4j_password": "engram-test-pw",
            })
        return
    local = base.model_copy(update={
        "neo4j_instance": "test", "neo4j_bolt_port": TEST_BOLT_PORT,
        "neo4j_http_port": TEST_HTTP_PORT, "neo4j_password": "",
    })
    neo4j_local.install(local, lambda m: None)
    started = neo4j_local.start(local, print)
    try:
        yield local.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{TEST_BOLT_PORT}"})
    finally:
        if started and os.environ.get("ENGRAM_TEST_KEEP_NEO4J") != "1":
            neo4j_local.stop(local, lambda m: None)
