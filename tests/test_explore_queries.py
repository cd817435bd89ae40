"""The saved queries for Neo4j Browser (cypher/explore) run on a real graph, with the parameters
their headers tell a user to set, find the tenant's memory, and nothing of another tenant."""
import re
from pathlib import Path

import pytest

from app.construction.ingest import Ingestor
from app.store.graph import TenantGraph
from tests.conversation import maya_and_sam

EXPLORE = Path(__file__).resolve().parents[1] / "cypher" / "explore"
FILES = sorted(EXPLORE.glob("*.cypher"))


def _declared(text: str) -> set[str]:
    """The parameters a file's header asks for (`:param name => ...`)."""
    return set(re.findall(r"^//\s+:param (\w+) =>", text, re.M))


@pytest.fixture
async def memory(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    return graph


async def _params(graph) -> dict:
    [fact] = await graph.read("MATCH (f:Fact {tenant: $tenant})-[:ABOUT]->(:Entity {name: 'Maya'}) "
                              "RETURN f.id AS id ORDER BY f.id LIMIT 1")
    return {"name": "Maya", "conversationId": "c1", "at": None, "factId": fact["id"], "group": None}


def test_every_saved_query_declares_the_tenant_it_reads():
    assert FILES
    for f in FILES:
        text = f.read_text()
        assert "tenant" in _declared(text), f.name
        # every parameter used is one the header declares, so Browser users can set them all
        assert set(re.findall(r"\$(\w+)", text)) <= _declared(text), f.name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
async def test_a_saved_query_finds_the_tenants_memory_and_no_one_elses(path, memory, services):
    query = path.read_text().strip().rstrip(";")
    params = await _params(memory)
    wanted = {k: v for k, v in params.items() if k in _declared(query)}
    rows = await memory.read(query, **wanted)
    assert rows, path.name
    other = TenantGraph(services.driver, memory.tenant + "_other", services.settings.neo4j_database)
    assert await other.read(query, **wanted) == [], path.name
