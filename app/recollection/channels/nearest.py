"""A search's work on the query vector, all in one query.

The channels ask up to four vector indexes for one query vector: turns and facts (the vector
channel, and the graph channel for its hubs and neighbourhoods), foresight triggers and scenes;
and the graph channel scores the facts and episodes around the entities the query names. Each
sent as its own query cost ~0.5 ms of CPU in the API process (driver, socket, event loop) and
~0.3 ms in Neo4j besides its work: five more trivial round trips per search took 19% off the
searches a two-core machine finishes per second (measured in process, 8 at once). So each
channel describes that work as parts (VectorPart), and they go to Neo4j as subqueries of one
query, each collected into its column; the first channel to need a column runs it, once the
vector is there and every part is planned (the graph channel's wait for its entity lookup,
which needs no vector and runs while the query is embedded). Neo4j runs the parts one after
another, while the keyword channel's query runs beside.

Each part's own parameters are renamed `<column>_<name>` in the combined text, so parts may use
the same names ($fetch, $limit); the vector, the query's words and the request's filters keep
theirs.

Neo4j's filtered-search bug (app/store/vector.py, which says when it fires) typically fails the
foresight or scene part of a tenant with few of those, while its turn part runs fine. Running
the whole query in its exact form then scanned all of the tenant's turns and facts (measured on
a 10k-episode tenant: ~300 ms a search instead of ~12). So on the bug each part is
tried alone to find the failing ones, those run in their exact form (a scan of the tenant's own
nodes of that label) inside the same combined query, and the tenant's failing columns are
remembered for EXACT_FOR_S seconds (Lucene merges segments away, so the index is tried again).
"""
from __future__ import annotations

import logging
import time
from functools import lru_cache
from typing import TYPE_CHECKING

from neo4j.exceptions import DatabaseError

from app.store.graph import PARAM, TenantGraph, require_tenant_filter
from app.store.vector import VectorQuery, is_filtered_search_bug

if TYPE_CHECKING:
    from app.recollection.channels.base import SearchContext

log = logging.getLogger(__name__)

CYPHER_25 = "CYPHER 25 "
EXACT_FOR_S = 300.0
# (database, tenant, column, where) -> until when that column runs in its exact form. `where`:
# the scope the index was asked for (a conversation, say: the bug depends on which nodes the
# filter keeps), so one conversation's failing search leaves the tenant's others on the index.
_exact_until: dict[tuple[str, str, str, tuple], float] = {}

# (column, query, own parameter names, columns it reads), in the order they run
Spec = tuple[tuple[str, VectorQuery, frozenset[str], tuple[str, ...]], ...]


def _renamed(text: str, column: str, names: frozenset[str]) -> str:
    return PARAM.sub(lambda m: f"${column}_{m[1]}" if m[1] in names else m[0], text)


@lru_cache(maxsize=256)
def combined(spec: Spec, exact: frozenset[str] = frozenset(), scope: frozenset[str] = frozenset()) -> str:
    """The parts as one query returning one record, a column per part; the parts in `exact` in
    their exact (fallback) form; each index filtering on those of `scope` (the request's
    filters that have a value) it holds (app/store/vector.py)."""
    calls = []
    for column, query, names, uses in spec:
        # Each part must filter by tenant itself: TenantGraph's check of the whole text would be
        # satisfied by any one of them.
        primary, fallback = query.texts(scope)
        form = fallback if column in exact else primary
        text = require_tenant_filter(form).removeprefix(CYPHER_25)
        calls.append(f"CALL ({', '.join(uses)}) {{\n{_renamed(text, column, names)}\n}}")
    return f"{CYPHER_25}\n" + "\n".join(calls) + f"\nRETURN {', '.join(s[0] for s in spec)}"


def exact_columns(graph: TenantGraph, spec: Spec, where: tuple = ()) -> frozenset[str]:
    now = time.monotonic()
    return frozenset(c for c, *_ in spec if _exact_until.get((graph.database, graph.tenant, c, where), 0.0) > now)


async def run(ctx: "SearchContext") -> dict:
    spec, params = await plan(ctx)
    if not spec:
        return {}
    graph = ctx.graph
    scope = scope_of(spec, params)
    where = tuple(sorted((name, params[name]) for name in scope))
    exact = exact_columns(graph, spec, where)
    try:
        return await graph.read_one(combined(spec, exact, scope), **params) or {}
    except DatabaseError as e:
        if not is_filtered_search_bug(e):
            raise
    exact = await _failing(graph, spec, params, exact, scope)
    now = time.monotonic()
    for key in [k for k, t in _exact_until.items() if t <= now]:
        del _exact_until[key]
    until = now + EXACT_FOR_S
    for column in exact:
        _exact_until[(graph.database, graph.tenant, column, where)] = until
    # Exact, but a scan of the tenant's nodes of those labels: worth knowing when it happens.
    log.warning("filtered vector search failed (Neo4j bug) for tenant %s: %s run exact for %.0f s",
                graph.tenant, ", ".join(sorted(exact)), EXACT_FOR_S)
    return await graph.read_one(combined(spec, exact, scope), **params) or {}


def scope_of(spec: Spec, params: dict) -> frozenset[str]:
    return frozenset().union(*(query.scope(params) for _, query, _, _ in spec))


async def _failing(graph: TenantGraph, spec: Spec, params: dict, exact: frozenset[str],
                   scope: frozenset[str]) -> frozenset[str]:
    """`exact` and the parts whose primary form fails, each tried with the parts it reads (spec
    puts a part after those; their forms are settled by then)."""
    out = set(exact)
    by_column = {s[0]: s for s in spec}
    for part in spec:
        column, _, _, uses = part
        if column in out:
            continue
        try:
            await graph.read_one(combined(tuple(by_column[u] for u in uses) + (part,), frozenset(out), scope),
                                 **params)
        except DatabaseError as e:
            if not is_filtered_search_bug(e):
                raise
            out.add(column)
    # Should the combined query fail where no part alone did, every part goes exact.
    return frozenset(out) or frozenset(by_column)


async def plan(ctx: "SearchContext") -> tuple[Spec, dict]:
    """The parts that apply (in the order they run) and the parameters of their query."""
    vector = await ctx.vector()
    planned = []
    for p in ctx.parts.values():
        own = p.params if isinstance(p.params, dict) else await p.params()
        if own is not None:
            planned.append((p, own))
    have = {p.column for p, _ in planned}
    planned = [(p, own) for p, own in planned if set(p.uses) <= have]
    # A part after those it reads; otherwise by column: one text per set of parts.
    planned.sort(key=lambda x: (bool(x[0].uses), x[0].column))
    if not planned:
        return (), {}
    spec = tuple((p.column, p.query, frozenset(own), p.uses) for p, own in planned)
    params = dict(ctx.filters, vector=vector, adapted=await ctx.adapted(), terms=ctx.words)
    for p, own in planned:
        params.update({f"{p.column}_{k}": v for k, v in own.items()})
    return spec, params
