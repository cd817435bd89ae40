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
theirs. On Neo4j's filtered-search bug the whole query runs again in its fallback form
(app/store/vector.py).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from app.store.graph import require_tenant_filter
from app.store.vector import VectorQuery

if TYPE_CHECKING:
    from app.recollection.channels.base import SearchContext

CYPHER_25 = "CYPHER 25 "
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\b")

# (column, query, own parameter names, columns it reads), in the order they run
Spec = tuple[tuple[str, VectorQuery, frozenset[str], tuple[str, ...]], ...]


def _renamed(text: str, column: str, names: frozenset[str]) -> str:
    return _PARAM.sub(lambda m: f"${column}_{m[1]}" if m[1] in names else m[0], text)


@lru_cache(maxsize=64)
def combined(spec: Spec) -> VectorQuery:
    """The parts as one query returning one record, a column per part."""
    def form(which: str) -> str:
        calls = []
        for column, query, names, uses in spec:
            # Each part must filter by tenant itself: TenantGraph's check of the whole text
            # would be satisfied by any one of them.
            text = require_tenant_filter(getattr(query, which)).removeprefix(CYPHER_25)
            calls.append(f"CALL ({', '.join(uses)}) {{\n{_renamed(text, column, names)}\n}}")
        head = CYPHER_25 if which == "primary" else ""
        return f"{head}\n" + "\n".join(calls) + f"\nRETURN {', '.join(s[0] for s in spec)}"

    return VectorQuery(form("primary"), form("fallback"))


async def run(ctx: "SearchContext") -> dict:
    query, params = await plan(ctx)
    if query is None:
        return {}
    return await ctx.graph.read_vector_one(query, **params) or {}


async def plan(ctx: "SearchContext") -> tuple[VectorQuery | None, dict]:
    """The query of the parts that apply, and its parameters."""
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
        return None, {}
    query = combined(tuple((p.column, p.query, frozenset(own), p.uses) for p, own in planned))
    params = dict(ctx.filters, vector=vector, terms=ctx.words)
    for p, own in planned:
        params.update({f"{p.column}_{k}": v for k, v in own.items()})
    return query, params
