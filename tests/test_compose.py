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
