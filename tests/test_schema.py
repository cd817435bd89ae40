"""Migrations create the DESIGN's indexes, once, and the tenant boundary holds in the data layer."""
import pytest

from app.store.graph import TenantError, TenantGraph
from app.store.migrations import MigrationDrift, apply_migrations, load_migrations
from app.store.vector import INDEX_SCOPES, vector_query

VECTOR = {"memcell_embedding", "fact_embedding", "entity_embedding", "scene_embedding",
          "foresight_embedding", "turn_embedding"}
FULLTEXT = {"turn_text", "memcell_text", "fact_text", "entity_text", "foresight_text"}


async def _indexes(driver):
    async with driver.session() as s:
        res = await s.run("SHOW INDEXES YIELD name, type, state, properties, options")
        return {r["name"]: r.data() async for r in res}


async def test_migrations_create_every_vector_and_fulltext_index_online(services):
    idx = await _indexes(services.driver)
    for name in VECTOR:
        assert idx[name]["type"] == "VECTOR" and idx[name]["state"] == "ONLINE", name
        cfg = idx[name]["options"]["indexConfig"]
        assert cfg["vector.dimensions"] == services.embedder.dimensions
        assert cfg["vector.similarity_function"] == "COSINE"
        # Searched on float vectors (migration 0009 says why).
        assert cfg["vector.quantization.type"] == "NONE", name
        # What the searches filter on inside the index is in it (migration 0017).
        assert idx[name]["properties"] == ["embedding", "tenant", *INDEX_SCOPES.get(name, ())], name
    for name in FULLTEXT:
        assert idx[name]["type"] == "FULLTEXT" and idx[name]["state"] == "ONLINE", name
        # Stemmed as the keyword statistics are (app/store/term_stats.py, migration 0008).
        assert idx[name]["options"]["indexConfig"]["fulltext.analyzer"] == "english", name


def test_an_install_without_its_migrations_refuses_to_start(tmp_path):
    # A plain `pip install .` (no cypher/ beside app/) must not pass for an up-to-date database.
    with pytest.raises(MigrationDrift, match="no migrations found"):
        load_migrations(tmp_path / "cypher" / "migrations")
    assert len(load_migrations()) >= 10


async def test_every_migration_is_recorded_once(services):
    async with services.driver.session() as s:
        res = await s.run("MATCH (m:Migration) RETURN m.name AS name, count(*) AS n")
        recorded = {r["name"]: r["n"] async for r in res}
    assert set(recorded) == {m.name for m in load_migrations()}
    assert set(recorded.values()) == {1}


async def test_running_migrations_again_changes_nothing(services):
    before = await _indexes(services.driver)
    applied = await apply_migrations(services.driver, services.embedder.dimensions)
    after = await _indexes(services.driver)
    assert applied == []
    assert before.keys() == after.keys()


async def test_vector_search_filters_by_tenant_inside_the_index(services):
    dim = services.embedder.dimensions
    a, b = TenantGraph(services.driver, "schema_a"), TenantGraph(services.driver, "schema_b")
    vec = [1.0] + [0.0] * (dim - 1)
    for g in (a, b):
        await g.write("MERGE (m:MemCell {id: $id}) SET m.tenant = $tenant, m.embedding = $v",
                      id=f"mc-{g.tenant}", v=vec)
    rows = await a.read(vector_query("MemCell", "memcell_embedding",
                                     "RETURN n.id AS id, n.tenant AS t", limit="10").primary, vector=vec)
    assert rows and {r["t"] for r in rows} == {"schema_a"}


async def test_a_query_without_the_tenant_filter_is_refused(services):
    g = TenantGraph(services.driver, "schema_a")
    with pytest.raises(TenantError):
        await g.read("MATCH (m:MemCell) RETURN count(m) AS n")


@pytest.mark.parametrize("bad", ["", "a b", "x" * 65, "Acme", "a-b", "a'}) DETACH DELETE n //", None])
def test_malformed_tenant_names_are_refused(services, bad):
    with pytest.raises(TenantError):
        TenantGraph(services.driver, bad)
