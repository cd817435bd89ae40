"""relatedTo: entities reachable from X within N hops over RELATED edges true now (or as of a moment),
each with the chain of facts that connects them; relations of forgotten facts are left out.
At most MAX_PATHS paths of each length are read, the shortest first.
The same query is saved for Neo4j Browser in cypher/explore/related_to.cypher."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.domain.models import ID_RULE, names_something
from app.recollection.filters import holds
from app.recollection.lookup import ASKED_ENTITY, asked_params
from app.store.graph import TenantGraph

MAX_PATHS = 2000  # bound the work on hub entities

# Paths of each length on their own, shortest first, each length bounded: a variable-length
# match is walked depth first, so one bound over all lengths could be spent on the first
# neighbours' longer paths and leave out entities one hop away.
_PATHS = """
  MATCH p = (s)-[rels:RELATED*{h}..{h}]-(e:Entity)
  WHERE e <> s AND e.tenant = $tenant
    AND all(r IN rels WHERE r.tenant = $tenant AND coalesce(r.forgotten, false) = false AND {holds}
            AND ($groupId IS NULL OR r.groupId = $groupId)
            AND ($userId IS NULL OR EXISTS {{
                  MATCH (f:Fact {{tenant: $tenant, id: r.factId}})-[:EVIDENCED_BY]->(t:Turn)
                  WHERE t.userId = $userId
                }}))
  RETURN e, p, rels LIMIT $maxPaths"""

# The entity named, as entity(name) finds it (lookup.ASKED_ENTITY).
RELATED_TO = """
{named}
WITH e AS s
CALL (s) {{{paths}
}}
WITH e, p, rels ORDER BY length(p) LIMIT $maxPaths
// A path through a hub says little: everyone the user talked about is two hops from everyone
// else through the user ("Hannah offered Priya ...", "Hannah made Tom an offer"). Each entity a
// path passes through divides its strength by the log of its relations (as Adamic-Adar does),
// so Priya's referrer, one hop away, ranks above the candidates she shares only the user with.
WITH e, p, length(p) AS hops,
     reduce(w = 1.0, r IN rels | w * coalesce(r.weight, 0.5))
     / reduce(d = 1.0, n IN nodes(p)[1..-1] | d * log(2.718281828 + size([(n)-[:RELATED]-() | 1]))) AS strength
// Facts said again or alike are parallel relations: one route through the same entities counts
// once, by its strongest path (three facts on each of two hops were nine paths, summed).
WITH e, p, hops, strength, [n IN nodes(p)[1..-1] | elementId(n)] AS via
ORDER BY hops ASC, strength DESC
WITH e, via, collect({{p: p, hops: hops, strength: strength}})[0] AS route
ORDER BY route.hops ASC, route.strength DESC
WITH e, collect(route) AS paths
WITH e, paths[0] AS best, size(paths) AS n,
     reduce(acc = 0.0, x IN paths | acc + x.strength / x.hops) AS score
RETURN e {{.id, .name, .type, .aliases, .merges, .groupId}} AS entity, best.hops AS hops, score,
       [r IN relationships(best.p) | r.factId] AS factIds
ORDER BY score DESC, entity.name LIMIT $limit
"""


def related_to_query(hops: int) -> str:
    return RELATED_TO.format(named=ASKED_ENTITY, paths="\n  UNION ALL".join(_PATHS.format(h=h, holds=holds("r"))
                                                       for h in range(1, hops + 1)))


FACTS = """
UNWIND $ids AS id
MATCH (f:Fact {tenant: $tenant, id: id})
RETURN f {.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo, .status} AS fact
"""


@dataclass
class Relation:
    entity: dict
    hops: int
    score: float
    path: list[dict]


class RelatedService:
    def __init__(self, max_hops: int = 4):
        self.max_hops = max_hops
        self._queries = {h: related_to_query(h) for h in range(1, max_hops + 1)}

    async def related_to(self, graph: TenantGraph, entity: str, hops: int = 2,
                         as_of: datetime | None = None, limit: int = 25,
                         group_id: str | None = None, user_id: str | None = None) -> list[Relation]:
        """`group_id`: the entity of that group (entities are a group's; without one, as
        lookup.ASKED_ENTITY picks), over the relations stated in its conversations. `user_id`:
        over the relations of facts that user's turns prove (as search reads a user's facts)."""
        from app.recollection.request import SearchInputError, moment

        if not entity or not names_something(entity):
            raise SearchInputError(f"entity must be {ID_RULE}", "entity")
        if not 1 <= hops <= self.max_hops:
            raise SearchInputError(f"hops must be between 1 and {self.max_hops}", "hops")
        if not 1 <= limit <= 200:
            raise SearchInputError("limit must be between 1 and 200", "limit")
        if group_id is not None and not names_something(group_id):
            raise SearchInputError(f"groupId must be {ID_RULE}", "groupId")
        if user_id is not None and not names_something(user_id):
            raise SearchInputError(f"userId must be {ID_RULE}", "userId")
        rows = await graph.read(self._queries[hops], **asked_params(entity), at=moment(as_of),
                                maxPaths=MAX_PATHS, limit=limit, groupId=group_id, userId=user_id)
        ids = sorted({i for r in rows for i in r["factIds"] if i})
        facts = {r["fact"]["id"]: r["fact"] for r in await graph.read(FACTS, ids=ids)} if ids else {}
        return [Relation(r["entity"], r["hops"], float(r["score"]),
                         [facts[i] for i in r["factIds"] if i in facts]) for r in rows]
