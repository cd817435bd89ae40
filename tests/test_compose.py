"""docker-compose.yml is valid Compose (checked offline against the compose-spec schema), pins
the same Neo4j version as the local server, and asks for APOC and GDS."""
import subprocess
import sys
from pathlib import Path

from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_compose_file_validates_against_the_compose_spec():
    exe = Path(sys.executable).parent / "check-jsonschema"
    r = subprocess.run([str(exe), "--builtin-schema", "vendor.compose-spec", str(ROOT / "docker-compose.yml")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_compose_uses_the_local_neo4j_version_with_plugins():
    text = (ROOT / "docker-compose.yml").read_text()
    assert f"image: neo4j:{Settings().neo4j_version}" in text
    assert "apoc" in text and "graph-data-science" in text and "healthcheck" in text


def test_compose_runs_neo4j_with_the_local_servers_tuning(tmp_path):
    from app.runtime import neo4j_local

    conf = neo4j_local.write_config(Settings(home=tmp_path)).read_text()
    local = dict(line.split("=", 1) for line in conf.splitlines() if "=" in line and not line.startswith("#"))
    # The image turns NEO4J_a_b__c into the setting a.b_c.
    env = {line.split(":")[0].strip(): line.split(":", 1)[1].strip().strip('"')
           for line in (ROOT / "docker-compose.yml").read_text().splitlines()
           if line.strip().startswith("NEO4J_")}
    settings = {k[len("NEO4J_"):].replace("__", "\0").replace("_", ".").replace("\0", "_"): v
                for k, v in env.items()}
    key = "internal.dbms.index.vector.standard_merge_factor"
    assert settings[key] == local[key] == str(Settings().neo4j_vector_merge_factor)
    key = "server.bolt.connection_keep_alive_for_requests"
    assert settings[key] == local[key] == "STREAMING"


def test_compose_gives_the_api_longer_to_stop_than_it_drains():
    # Docker's default 10 s would kill the server before its shutdown drain and marking ended.
    import re

    text = (ROOT / "docker-compose.yml").read_text()
    grace = re.search(r"stop_grace_period:\s*(\d+)s", text)
    assert grace and int(grace.group(1)) > Settings().shutdown_drain_s + 5
