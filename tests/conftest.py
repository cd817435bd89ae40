"""Shared fixtures: a real Neo4j (see app/runtime/neo4j_for_tests.py), migrated, and the model."""
from __future__ import annotations

import uuid

import pytest
import pytest_asyncio

from app.recollection.search import SearchService
from app.runtime.services import Services, open_services
from app.runtime.neo4j_for_tests import neo4j_for_tests
from app.store.graph import TenantGraph


@pytest.fixture(scope="session")
def settings():
    # No idle flush: a retry in one test would otherwise process every other test's open
    # conversations in the shared database (tests/test_construction.py tests it on its own).
    with neo4j_for_tests() as s:
        yield s.model_copy(update={"idle_flush_s": 0.0})


@pytest_asyncio.fixture(scope="session")
async def services(settings) -> Services:
    async with open_services(settings, load_model=True) as svc:
        yield svc


@pytest.fixture
def tenant() -> str:
    """A fresh tenant per test: tests share one database and never see each other's data."""
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def graph(services, tenant) -> TenantGraph:
    return TenantGraph(services.driver, tenant, services.settings.neo4j_database)


@pytest.fixture
def searcher(services) -> SearchService:
    return SearchService(services)


@pytest.fixture(scope="session")
def api(settings):
    """The API as a user runs it: `engram serve` in its own process, spoken to over HTTP."""
    from tests.api_server import running_api

    with running_api(settings) as server:
        yield server
