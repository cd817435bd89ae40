"""A search's vector index searches, all in one query.

The channels ask up to four vector indexes for one query vector: turns and facts (the vector
channel, and the graph channel for its hubs and neighbourhoods), foresight triggers and scenes.
Each sent as its own query cost ~0.5 ms of CPU in the API process (driver, socket, event loop)
and ~0.3 ms in Neo4j besides its index work: five more trivial round trips per search took 19%
off the searches a two-core machine finishes per second (measured in process, 8 at once). So
each channel describes its searches as parts (VectorPart), and they go to Neo4j as subqueries of
one query, each collected into its column; the first channel to need a column runs it. Neo4j
runs the parts one after another, while the keyword and graph channels' queries run beside.

Each part's own parameters are renamed `<column>_<name>` in the combined text, so parts may use
the same names ($fetch, $limit); the vector, the query's words and the request's filters keep
theirs. On Neo4j's filtered-search bug the whole query runs again in its fallback form
(app/store/vector.py).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from app.store.vector import VectorQuery

if TYPE_CHECKING:
    from app.recollection.channels.base import SearchContext

CYPHER_25 = "CYPHER 25 "
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\b")

Spec = tuple[tuple[str, VectorQuery, frozenset[str]], ...]  # (column, query, own parameter names)


def _renamed(text: str, column: str, names: frozenset[str]) -> str:
    return _PARAM.sub(lambda m: f"${column}_{m[1]}" if m[1] in names else m[0], text)


@lru_cache(maxsize=64)
def combined(spec: Spec) -> VectorQuery:
    """The parts as one query returning one record, a column per part."""
    def form(which: str) -> str:
        calls = []
        for column, query, names in spec:
            text = getattr(query, which).removeprefix(CYPHER_25)
            calls.append(f"CALL () {{\n{_renamed(text, column, names)}\n}}")
        head = CYPHER_25 if which == "primary" else ""
        return f"{head}\n" + "\n".join(calls) + f"\nRETURN {', '.join(c for c, _, _ in spec)}"

    return VectorQuery(form("primary"), form("fallback"))


async def run(ctx: "SearchContext") -> dict:
    parts = sorted(ctx.parts.values(), key=lambda p: p.column)  # one text per set of parts
    if not parts:
        return {}
    query = combined(tuple((p.column, p.query, frozenset(p.params)) for p in parts))
    params = dict(ctx.filters, vector=await ctx.vector(), terms=ctx.words)
    for p in parts:
        params.update({f"{p.column}_{k}": v for k, v in p.params.items()})
    return await ctx.graph.read_vector_one(query, **params) or {}
