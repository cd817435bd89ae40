"""The tenant boundary. Every read and write of memory goes through a TenantGraph.

A TenantGraph binds `$tenant` into every query it runs and refuses a query that does not use
it, so a caller cannot forget the filter: the tenant comes from the API key, never from the
request body.
"""
from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any, AsyncIterator, Awaitable, Callable, TypeVar

from neo4j import READ_ACCESS, AsyncDriver, AsyncManagedTransaction
from neo4j.exceptions import DatabaseError

from app.store.vector import VectorQuery, is_filtered_search_bug

T = TypeVar("T")
log = logging.getLogger(__name__)
_TENANT_PARAM = re.compile(r"\$tenant\b")
# One Lucene token (the standard analyzer keeps [a-z0-9_] together), so fulltext queries can
# require the tenant exactly with +tenant:<name>.
_TENANT_NAME = re.compile(r"^[a-z0-9][a-z0-9_]{0,63}$")


class TenantError(ValueError):
    pass


def check_tenant(tenant: str) -> str:
    if not isinstance(tenant, str) or not _TENANT_NAME.match(tenant):
        raise TenantError("tenant must be 1-64 characters of a-z, 0-9 and _ (starting with a letter or digit)")
    return tenant


def require_tenant_filter(query: str) -> str:
    """`query` itself, if it uses $tenant; TenantError otherwise."""
    if not _TENANT_PARAM.search(query):
        raise TenantError("query does not filter by $tenant; refusing to run it")
    return query


# A query parameter, $name (the name in group 1).
PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@lru_cache(maxsize=2048)
def _names(query: str) -> frozenset[str]:
    return frozenset(PARAM.findall(require_tenant_filter(query)))


class MissingParameter(KeyError):
    """A query names a parameter its caller did not give."""


# Every parameter is sent inside one map, `$p`, and the query reads `$p.name`. Neo4j caches a
# plan per query text and parameter *types*: a filter given or not (a string or null), a list
# empty or not, made each search a new plan of the combined vector query (~0.5 s of planning
# for its six parts: an agent's never-seen questions took p95 1.7 s; 577 plans cached after 700
# requests). A map is one type whatever it holds: one plan per query text.
@lru_cache(maxsize=2048)
def _in_one_map(query: str) -> str:
    return PARAM.sub(r"$p.\1", query)


def _sent(query: str, params: dict[str, Any], tenant: str,
          group_key: str | None = None) -> tuple[str, dict[str, Any]]:
    """(the query reading its parameters from `$p`, {"p": them}), the tenant bound."""
    bound = _bound(query, params, tenant, group_key)
    missing = _names(query) - bound.keys()
    if missing:
        # Read from a map, a missing one would be null, silently (Neo4j refuses a missing $x).
        raise MissingParameter(f"query parameters not given: {', '.join(sorted(missing))}")
    return _in_one_map(query), {"p": bound}


def _bound(query: str, params: dict[str, Any], tenant: str, group_key: str | None = None) -> dict[str, Any]:
    """The parameters the query uses, the tenant among them (and the group whose entities a
    graph bound to one reads: `$groupKey`, unless given). Callers pass a request's whole
    filter set to every query; sending only what a query names spares the driver packing the
    rest (a datetime parameter costs ~0.25 ms of CPU to pack: 13 of them were ~3.5 ms per search,
    profiled)."""
    names = _names(query)
    out = {k: v for k, v in params.items() if k in names}
    out["tenant"] = tenant
    if group_key is not None and "groupKey" in names:
        out.setdefault("groupKey", group_key)
    return out


class TenantTx:
    """A transaction handle that keeps the tenant binding (for multi-statement writes)."""

    def __init__(self, tx: AsyncManagedTransaction, tenant: str, group_key: str | None = None):
        self._tx, self.tenant, self.group_key = tx, tenant, group_key

    async def run(self, query: str, **params: Any) -> list[dict]:
        result = await self._tx.run(*_sent(query, params, self.tenant, self.group_key))
        return [r.data() async for r in result]


class TenantGraph:
    def __init__(self, driver: AsyncDriver, tenant: str, database: str = "neo4j", group_key: str | None = None):
        self.driver, self.tenant, self.database = driver, check_tenant(tenant), database
        # Entities are a group's (`Entity.groupKey`: its id, '' for conversations without one):
        # construction, which works in one conversation's group, reads and writes them through
        # a graph bound to it (in_group), so no query of it can name another group's.
        self.group_key = group_key

    def in_group(self, group_id: str | None) -> "TenantGraph":
        """The same tenant's graph, its entity queries (`$groupKey`) bound to `group_id`'s."""
        return TenantGraph(self.driver, self.tenant, self.database, group_key=group_id or "")

    async def read_vector(self, query: "VectorQuery", **params: Any) -> list[dict]:
        """A vector query; on Neo4j's filtered-search bug, the same through its fallback."""
        return await self._vector(self.read, query, params)

    async def _vector(self, run: Callable[..., Awaitable[T]], query: "VectorQuery", params: dict) -> T:
        if self.group_key is not None:
            params = {"groupKey": self.group_key, **params}
        primary, fallback = query.texts(query.scope(params))
        try:
            return await run(primary, **params)
        except DatabaseError as e:
            if not is_filtered_search_bug(e):
                raise
            # Exact, but a scan of the tenant's nodes: worth knowing when it happens.
            log.warning("filtered vector search failed (Neo4j bug); scanning tenant %s instead",
                        self.tenant)
            return await run(fallback, **params)

    async def read(self, query: str, **params: Any) -> list[dict]:
        # An auto-commit read: one round trip (RUN + PULL) instead of BEGIN/RUN/PULL/COMMIT,
        # which matters when one search makes a dozen of them.
        async with self.driver.session(database=self.database,
                                       default_access_mode=READ_ACCESS) as s:
            result = await s.run(*_sent(query, params, self.tenant, self.group_key))
            return [r.data() async for r in result]

    async def read_rows(self, query: str, columns: tuple[str, ...], **params: Any) -> list[dict]:
        """read() of a query returning many rows, sent back as one record holding them in order:
        the async driver pays a few socket reads and event-loop tasks per record, more than the
        rows cost the server (profiled: a HYBRID search read ~350 records in ~14 queries)."""
        fields = ", ".join(f"{c}: {c}" for c in columns)
        wrapped = f"CALL () {{\n{query}\n}}\nRETURN collect({{{fields}}}) AS rows"
        return await self._first_value(wrapped, **params) or []

    async def _first_value(self, query: str, **params: Any) -> Any:
        record = await self._single(query, params)
        return record[0] if record else None

    async def read_one(self, query: str, **params: Any) -> dict | None:
        """The single record of a query, {column: value} as the driver decoded it."""
        record = await self._single(query, params)
        return dict(zip(record.keys(), record.values())) if record else None

    async def _single(self, query: str, params: dict) -> Any:
        """A query's single record. Its values are used as the driver decoded them, not through
        Record.data(): its recursive conversion (meant for nodes and relationships, which the
        collected rows never hold: they are values and maps) walked every value again and cost
        ~9 ms of CPU per HYBRID search (profiled)."""
        async with self.driver.session(database=self.database,
                                       default_access_mode=READ_ACCESS) as s:
            result = await s.run(*_sent(query, params, self.tenant, self.group_key))
            return await result.single()

    async def stream(self, query: str, fetch_size: int = 500, **params: Any) -> AsyncIterator[dict]:
        """Records one at a time, pulled from the server `fetch_size` at a time: for reading a
        whole tenant (backup export) in one query without holding it in memory. Consume it
        inside `contextlib.aclosing` so the session closes even when the caller stops early."""
        async with self.driver.session(database=self.database, default_access_mode=READ_ACCESS,
                                       fetch_size=fetch_size) as s:
            result = await s.run(*_sent(query, params, self.tenant, self.group_key))
            async for r in result:
                yield r.data()

    async def write(self, query: str, **params: Any) -> list[dict]:
        async def work(tx: AsyncManagedTransaction) -> list[dict]:
            return await TenantTx(tx, self.tenant, self.group_key).run(query, **params)

        async with self.driver.session(database=self.database) as s:
            return await s.execute_write(work)

    async def write_tx(self, fn: Callable[[TenantTx], Awaitable[T]]) -> T:
        """Run several statements in one all-or-nothing transaction (retried on transient errors)."""

        async def work(tx: AsyncManagedTransaction) -> T:
            return await fn(TenantTx(tx, self.tenant, self.group_key))

        async with self.driver.session(database=self.database) as s:
            return await s.execute_write(work)

    async def auto_commit(self, query: str, **params: Any) -> int:
        """For CALL ... IN TRANSACTIONS, which needs an implicit transaction; returns nodes deleted:
        the query's `deleted` column when it returns one (the memory it deleted, without the
        keyword statistics that went with it), else the server's count."""
        async with self.driver.session(database=self.database) as s:
            result = await s.run(*_sent(query, params, self.tenant, self.group_key))
            counted = [r["deleted"] async for r in result if "deleted" in r.keys()]
            summary = await result.consume()
            return sum(counted) if counted else summary.counters.nodes_deleted
