"""Tenant-filtered vector search, and its fallback.

The primary form filters inside the index (Cypher 25 `SEARCH ... WHERE n.tenant = $tenant`).
Neo4j 2026.08.1 has a bug in that path: a filtered search fails with
`ArrayIndexOutOfBoundsException` from Lucene's live-docs bitset when the index holds a segment
with deletions and none of the tenant's nodes (reproduced in tests/test_vector_fallback.py), so
another tenant's deletions can break a tenant's search until Lucene merges that segment away.
So every vector query comes in two texts, and the fallback runs when the primary fails that way:
TenantGraph.read_vector for a query of one index, per part for a search's combined vector query
(app/recollection/channels/nearest.py). The fallback scores the tenant's own nodes exactly (a
cosine per node): slower on a large tenant, but it finds what the index would. (An earlier
fallback asked the unfiltered index for 20x more neighbours and kept the tenant's: with many
tenants holding similar text all of those could belong to others, and in the test database,
where hundreds of tenants hold the same conversation, it found nothing.
tests/test_vector_fallback.py checks each query's fallback against its primary.) Both bind `n`
and `score` (cosine mapped to [0, 1], as the index reports it) for the rest of the query; the
data layer logs each use of a fallback.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np
from neo4j import AsyncDriver
from neo4j.vector import Vector

# What each vector index holds beside the tenant to filter on (cypher/migrations/0017, 0018): a
# request's filter on one of those (a conversation, a group, a user; a scene's group) is applied
# inside the index, so the neighbours fetched are all of that scope. Applied after the index, a
# filter kept only those of the tenant's nearest $fetch that fell in the scope: in a tenant of
# many conversations a search of one of them found nothing by vector. Each property is filtered
# by the parameter of its name, where the query has one that is not null.
INDEX_SCOPES: dict[str, tuple[str, ...]] = {
    "turn_embedding": ("groupId", "userId", "conversationId"),
    "fact_embedding": ("groupId", "userId", "conversationId"),  # userId: its turns' one user (writer.EVIDENCE)
    "foresight_embedding": ("groupId", "userId", "conversationId"),
    "scene_embedding": ("groupId", "groupKey"),
    # An entity is its group's (migration 0018): resolution looks among its group's (groupKey, ''
    # for no group), a search of a group among that group's.
    "entity_embedding": ("groupId", "groupKey"),
}


@dataclass(frozen=True)
class VectorQuery:
    primary: str
    fallback: str
    scoped: tuple[str, ...] = ()  # properties (= parameters) the index also filters on
    var: str = "n"

    def scope(self, params: Mapping) -> frozenset[str]:
        """Those of `scoped` the parameters give a value."""
        return frozenset(p for p in self.scoped if params.get(p) is not None)

    def texts(self, scope: frozenset[str] = frozenset()) -> tuple[str, str]:
        """The primary and the fallback form, filtering on `scope` beside the tenant (in the
        index, or in the exact scan's match). One text per scope: the index takes only plain
        property predicates joined by AND, no `$x IS NULL OR ...`."""
        extra = "".join(f" AND {self.var}.{p} = ${p}" for p in self.scoped if p in scope)
        if not extra:
            return self.primary, self.fallback
        tenant = f"{self.var}.tenant = $tenant"  # the first in either form is the search's own
        return self.primary.replace(tenant, tenant + extra, 1), self.fallback.replace(tenant, tenant + extra, 1)


def vector_query(label: str, index: str, rest: str, limit: str = "$fetch", var: str = "n",
                 probe: str = "$vector") -> VectorQuery:
    """`rest` continues after `var` and `score` are bound (starts with WITH or RETURN); `probe`:
    the parameter holding the vector searched for."""
    primary = (f"CYPHER 25 MATCH ({var}:{label}) SEARCH {var} IN (VECTOR INDEX {index} FOR {probe} "
               f"WHERE {var}.tenant = $tenant LIMIT {limit}) SCORE AS score\n{rest}")
    fallback = (f"MATCH ({var}:{label}) WHERE {var}.tenant = $tenant AND {var}.embedding IS NOT NULL\n"
                f"WITH {var}, vector.similarity.cosine({var}.embedding, {probe}) AS score\n"
                f"ORDER BY score DESC LIMIT toInteger({limit})\n{rest}")
    return VectorQuery(primary, fallback, INDEX_SCOPES.get(index, ()), var)


def is_filtered_search_bug(exc: Exception) -> bool:
    msg = str(exc)
    return "out of bounds" in msg and "Index" in msg


def as_floats(v) -> list[float]:
    """A vector as a list of Python floats: the form any Bolt version accepts."""
    return [float(x) for x in v]


async def vector_param_maker(driver: AsyncDriver):
    """How a query vector is sent: as a Cypher VECTOR (Bolt 6, Neo4j 2025.10+), packed as one
    block of float32 bytes, or as a list of floats to older servers. The list costs the driver
    far more: it packs 384 floats and formats them all for its debug log line on every query
    (a HYBRID search sends the query vector in about ten queries; ~3 ms of CPU per search,
    profiled). Scores are the same: the model's vectors are float32 either way."""
    info = await driver.get_server_info()
    if tuple(info.protocol_version) >= (6, 0):
        return lambda v: Vector(np.asarray(v, dtype=np.float32))
    return as_floats

