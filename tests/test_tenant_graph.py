"""The TenantGraph every query goes through, against the real Neo4j: it refuses a query without
the tenant filter, refuses one that names a parameter its caller did not give, and sends the
parameters so that Neo4j plans a query text once, whatever values and types they hold."""
import pytest

from app.store.graph import MissingParameter, TenantError

QUERY = ("MATCH (t:Turn {tenant: $tenant}) WHERE ($userId IS NULL OR t.userId = $userId) "
         "AND size($words) >= 0 RETURN count(t) AS n")


async def _cached(graph) -> int:
    rows = await graph.driver.execute_query("CALL db.clearQueryCaches()", database_=graph.database)
    value = rows.records[0][0]
    return 0 if "already empty" in value else int(value.split(" of ")[1].split()[0])


async def test_a_query_is_planned_once_whatever_its_parameters_hold(graph):
    # Neo4j caches a plan per query text and parameter types: a filter given or not (a string
    # or null), a list empty or not, each made a new plan; the search's combined vector query
    # costs ~0.5 s to plan, and an agent's never-seen questions took p95 1.7 s.
    await _cached(graph)
    for user, words in ((None, []), ("u1", ["a"]), (None, ["b"]), ("u2", []), (3, [1.5])):
        assert (await graph.read(QUERY, userId=user, words=words))[0]["n"] == 0
    assert await _cached(graph) == 1


async def test_a_query_without_its_tenant_or_a_parameter_is_refused(graph):
    with pytest.raises(TenantError):
        await graph.read("MATCH (t:Turn) RETURN count(t) AS n")
    # Read from one map, a parameter not given would be null, silently: refused instead.
    with pytest.raises(MissingParameter, match="userId, words"):
        await graph.read(QUERY)
