"""The local Neo4j runtime: idempotent start/stop, Browser, clear errors. Skipped when the tests
run against an external Neo4j (ENGRAM_NEO4J_URI or Docker), which this runtime does not manage."""
import socket

import httpx
import pytest

from app.runtime import neo4j_local


@pytest.fixture
def local(settings):
    if settings.neo4j_instance != "test":
        pytest.skip("tests run against an external Neo4j")
    return settings


def test_start_on_a_running_server_is_a_no_op(local):
    pid = neo4j_local.running_pid(local)
    assert pid is not None
    assert neo4j_local.start(local, lambda m: None) is False
    assert neo4j_local.running_pid(local) == pid


def test_stop_on_a_stopped_server_says_so_and_kills_nothing(local):
    idle = local.model_copy(update={"neo4j_instance": "never-started"})
    said = []
    assert neo4j_local.stop(idle, said.append) is False
    assert "not running" in said[0]
    assert neo4j_local.running_pid(local) is not None  # the test server is untouched


def test_second_install_is_a_no_op(local):
    assert neo4j_local.install(local, lambda m: None) is False


def test_browser_answers(local):
    r = httpx.get(f"http://127.0.0.1:{local.neo4j_http_port}/browser/", timeout=10)
    assert r.status_code == 200
    assert "<html" in r.text.lower()


def test_a_taken_port_gives_one_clear_message(local):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        other = local.model_copy(update={"neo4j_instance": "port-clash", "neo4j_bolt_port": port,
                                         "neo4j_http_port": port + 1 if port < 65000 else port - 1})
        with pytest.raises(neo4j_local.Neo4jRuntimeError, match=f"Port {port} is already taken"):
            neo4j_local.start(other, lambda m: None)
    assert neo4j_local.running_pid(other) is None


def test_a_half_done_install_is_redone(local, tmp_path):
    half = local.model_copy(update={"home": tmp_path})
    lib = tmp_path / "neo4j" / "lib"
    lib.mkdir(parents=True)
    (lib / "truncated.jar").write_bytes(b"PK")  # an interrupted copy, no .complete marker
    assert not neo4j_local.is_installed(half)
    assert neo4j_local.install(half, lambda m: None) is True
    assert neo4j_local.is_installed(half)
    jars = {p.name for p in lib.glob("*.jar")}
    assert "truncated.jar" not in jars
    assert any(j.startswith("neo4j-kernel") for j in jars)


def test_an_unknown_version_fails_cleanly_and_installs_nothing(local, tmp_path):
    bad = local.model_copy(update={"home": tmp_path, "neo4j_version": "0.0.0-nope"})
    with pytest.raises(neo4j_local.Neo4jRuntimeError, match="Maven Central failed"):
        neo4j_local.install(bad, lambda m: None)
    assert not neo4j_local.is_installed(bad)
    assert not (tmp_path / "neo4j" / "lib").exists()


def test_the_server_runs_with_the_vector_merge_factor(local):
    # The server lists the settings it accepted in its debug log at each start; the last list is
    # the running server's. An unknown or mistyped setting would stop it from starting at all.
    log = (neo4j_local.Layout.of(local).logs / "debug.log").read_text(errors="replace")
    last = log.rsplit("DBMS provided settings:", 1)[1].split("Directories in use:", 1)[0]
    assert f"internal.dbms.index.vector.standard_merge_factor={local.neo4j_vector_merge_factor}" in last


def test_a_merge_factor_neo4j_would_refuse_is_refused_by_the_settings():
    # Below 2 Neo4j would not start, with its error in a log; the settings say why at once.
    from pydantic import ValidationError

    from app.settings import Settings

    with pytest.raises(ValidationError, match="neo4j_vector_merge_factor"):
        Settings(neo4j_vector_merge_factor=1)


def test_the_server_runs_the_parallel_collector_and_logs_its_pauses(local):
    # JVM_FLAGS says why; gc.log is where its pauses can be read.
    pid = neo4j_local.running_pid(local)
    args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    assert b"-XX:+UseParallelGC" in args and b"-XX:+UseG1GC" not in args
    gc = (neo4j_local.Layout.of(local).logs / "gc.log").read_text(errors="replace")
    assert "Using Parallel" in gc


def test_the_server_asks_drivers_for_no_read_timeout(local):
    # With keep-alives for every request the server tells drivers to time out a connection
    # silent for 2 minutes, and the Python driver then arms a timer for every read of a socket
    # (neo4j_local.write_config says what it cost). Searches have their own deadline instead.
    from neo4j import GraphDatabase

    from app.store.driver import resolved_uri

    auth = (local.neo4j_user, local.neo4j_password) if local.neo4j_password else None
    with GraphDatabase.driver(resolved_uri(local), auth=auth) as driver:
        records, _, _ = driver.execute_query(
            "SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value",
            name="server.bolt.connection_keep_alive_for_requests")
    assert [r["value"] for r in records] == ["STREAMING"]
