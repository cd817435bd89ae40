"""Direct lookups: an entity by name, a MemCell by id (foresight: foresight_lookup.py)."""
from __future__ import annotations

from datetime import datetime

from app.construction import lexicon as lx
from app.construction.entity_resolution import NAMED_ENTITY, normalize_key, shortened
from app.construction.role_aliases import role_keys
from app.lifecycle.retention import revive
from app.recollection import filters
from app.store.graph import TenantGraph

# The entity a reader asks for (entity(name), relatedTo): its own name before another's alias,
# as resolution finds it (entity_resolution.NAMED_ENTITY), else the one person whose name the
# word begins ("Sofia" for Sofia Rossi; two Sofias, neither). Edits name entities exactly.
# Of the group $groupId; without one, of any group (the same name known in several groups: the
# one NAMED_ENTITY picks, or of one full name, the one most episodes mention).
_KNOWN_IN_GROUP = "($groupId IS NULL OR x.groupId = $groupId)"
_ONE_PERSON = """WITH x ORDER BY COUNT { (x)<-[:MENTIONS]-() } DESC, x.id LIMIT 20
  WITH collect(x) AS xs, collect(DISTINCT x.key) AS keys
  RETURN CASE WHEN size(keys) = 1 THEN xs[..1] ELSE [] END AS """
ASKED_ENTITY = f"""CALL () {{
  {NAMED_ENTITY}
  RETURN collect(e) AS exact
}}
CALL (exact) {{
  WITH exact WHERE size(exact) = 0
  // a first name ("Priya": Priya Nair), or a name said without its title ("Sarah Lin": Dr Sarah Lin) or
  // shorter ("Tom Okafor": Mr Thomas Okafor)
  MATCH (x:Entity {{tenant: $tenant, type: 'person'}})
  WHERE ((x.key STARTS WITH $key + ' ' AND NOT $key CONTAINS ' ') OR x.key IN $titled) AND {_KNOWN_IN_GROUP}
  {_ONE_PERSON}named
}}
CALL (exact, named) {{
  // ... else a short form of a first name ("Tom": Thomas Okafor, Mr Thomas Okafor), none known by it
  WITH exact, named WHERE size(exact) = 0 AND size(named) = 0 AND size($shortened) > 0
  UNWIND $shortened AS prefix
  MATCH (x:Entity {{tenant: $tenant, type: 'person'}}) WHERE x.key STARTS WITH prefix AND {_KNOWN_IN_GROUP}
  {_ONE_PERSON}shortened
}}
WITH exact, CASE WHEN size(named) = 1 THEN named ELSE shortened END AS first
CALL (exact, first) {{
  // "Dad", asked by a client who does not say whose: the one person who is someone's dad.
  WITH exact, first WHERE size(exact) = 0 AND size(first) = 0 AND size($kin) > 0
  MATCH (x:Entity {{tenant: $tenant, type: 'person'}})
  WHERE any(k IN x.aliasKeys + [x.key] WHERE any(w IN $kin WHERE k ENDS WITH w)) AND {_KNOWN_IN_GROUP}
  {_ONE_PERSON}kin
}}
WITH CASE WHEN size(exact) = 1 THEN exact[0] WHEN size(first) = 1 THEN first[0] WHEN size(kin) = 1 THEN kin[0]
     END AS e
WHERE e IS NOT NULL"""


def asked_params(name: str) -> dict:
    """ASKED_ENTITY's parameters for `name`: its key, the names it may be a short form of ("Tom Okafor": Thomas
    Okafor, with or without a title), and for a parent's word said as a name ("Dad", "Mum") the alias endings of
    every word for that role ("'s dad", "'s father", ...)."""
    key = normalize_key(name)
    first, _, rest = key.partition(" ")
    longer = [f"{full} {rest}" for full in lx.SHORT_GIVEN.get(first, ())] if rest else []
    titled = [f"{t} {k}" for k in (key, *longer) for t in lx.SURNAME_TITLES] + longer
    found = {"key": key, "kin": [], "titled": titled, "shortened": [] if rest else shortened(key)}
    if key not in lx.KIN_AS_NAME:
        return found
    words = {k.partition("'s ")[2] for k in role_keys(f"x's {key}")} or {key}  # grandma: no role's
    return found | {"kin": sorted(f"'s {w}" for w in words)}


# An entity's facts true at $at (asOf, else now), newest first (`e` bound before it); with
# $groupId, those said in that group (an entity's are all its group's: a safeguard); with
# $userId, those a turn of that user proves (as search reads a user's facts).
_ENTITY_FACTS = f"""
CALL (e) {{
  MATCH (f:Fact {{tenant: $tenant}})-[:ABOUT]->(e)
  WHERE f.status IN ['current', 'superseded'] AND {filters.holds("f")}
    AND coalesce(f.forgotten, false) = false AND ($groupId IS NULL OR f.groupId = $groupId)
    AND ($userId IS NULL OR EXISTS {{ (f)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId = $userId }})
  WITH f ORDER BY f.validFrom DESC LIMIT $facts
  RETURN collect(f {{.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo,
                    .status, .eventDate, .groupId, memCellId: [(m:MemCell)-[:HAS_FACT]->(f) | m.id][0]}}) AS facts
}}"""

# With $userId, an entity none of that user's episodes names is none of theirs to be told of:
# a support agent scoped to Chen asking for "Fay Morgan" learnt that she was a customer.
ENTITY = f"""
{ASKED_ENTITY}
  AND ($userId IS NULL OR EXISTS {{ (m:MemCell)-[:MENTIONS]->(e) WHERE $userId IN m.userIds }})
{_ENTITY_FACTS}
RETURN e {{.id, .name, .type, .aliases, .merges, .groupId}} AS entity, facts
"""

ENTITIES_BY_ID = f"""
UNWIND $ids AS id
MATCH (e:Entity {{tenant: $tenant, id: id}})
{_ENTITY_FACTS}
RETURN e {{.id, .name, .type, .aliases, .merges, .groupId}} AS entity, facts
"""

ENTITIES_FACTS = f"""
UNWIND $ids AS id
MATCH (e:Entity {{tenant: $tenant, id: id}})
{_ENTITY_FACTS}
RETURN id, facts
"""

# What the API's Turn is read from, for a map projection: `t {TURN_FIELDS}`.
TURN_FIELDS = "{.id, .conversationId, .groupId, .speaker, .content, .at, .userId, .memCellId}"

# A forgotten cell comes back when asked for by id (memcell_by_id revives it first); one being
# purged is already gone.
# An episode's turns in order and its facts (`m` bound before it).
_CELL_PARTS = """
CALL (m) {
  MATCH (m)-[:EVIDENCED_BY]->(t:Turn) WITH t ORDER BY t.seq
  RETURN collect(t """ + TURN_FIELDS + """) AS turns
}
CALL (m) {
  MATCH (m)-[:HAS_FACT]->(f:Fact) WITH f ORDER BY f.validFrom
  RETURN collect(f {.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo,
                    .status, .eventDate, memCellId: m.id}) AS facts
}"""

MEMCELL = f"""
MATCH (m:MemCell {{tenant: $tenant, id: $id}}) WHERE coalesce(m.status, 'active') <> 'purging'
{_CELL_PARTS}
RETURN m {{.id, .title, .summary, .keywords, .importance, .startedAt, .endedAt, .status,
          .accessCount, .lastAccessedAt, .conversationId, .groupId}} AS cell, turns, facts
"""

CELLS_PARTS = f"""
UNWIND $ids AS id
MATCH (m:MemCell {{tenant: $tenant, id: id}})
{_CELL_PARTS}
RETURN id, turns, facts
"""

async def entity_by_name(graph: TenantGraph, name: str, at: datetime, facts: int = 50,
                         group_id: str | None = None, user_id: str | None = None) -> dict | None:
    rows = await graph.read(ENTITY, **asked_params(name), at=at, facts=facts, groupId=group_id, userId=user_id)
    return {**rows[0]["entity"], "facts": rows[0]["facts"]} if rows else None


async def entities_by_id(graph: TenantGraph, ids: list[str], at: datetime, facts: int = 50) -> list[dict]:
    """Entities with their facts true at `at`, in the order of `ids` (those found)."""
    rows = {r["entity"]["id"]: {**r["entity"], "facts": r["facts"]}
            for r in await graph.read(ENTITIES_BY_ID, ids=list(dict.fromkeys(ids)), at=at, facts=facts,
                                     groupId=None, userId=None)}
    return [rows[i] for i in ids if i in rows]


async def entities_facts(graph: TenantGraph, ids: list[str], at: datetime,
                         facts: int = 50) -> list[list[dict]]:
    """The facts true at `at` of each entity, in the order of `ids` (none for one not found)."""
    rows = {r["id"]: r["facts"] for r in await graph.read(ENTITIES_FACTS, ids=list(dict.fromkeys(ids)),
                                                          at=at, facts=facts, groupId=None, userId=None)}
    return [rows.get(i, []) for i in ids]


async def cells_parts(graph: TenantGraph, ids: list[str]) -> list[dict]:
    """{turns, facts} of each episode, in the order of `ids` (empty for one not found)."""
    rows = {r["id"]: r for r in await graph.read(CELLS_PARTS, ids=list(dict.fromkeys(ids)))}
    return [rows.get(i) or {"turns": [], "facts": []} for i in ids]


async def memcell_by_id(graph: TenantGraph, cell_id: str) -> dict | None:
    rows = await graph.read(MEMCELL, id=cell_id)
    if rows and rows[0]["cell"]["status"] == "forgotten" and await revive(graph, cell_id):
        rows = await graph.read(MEMCELL, id=cell_id)
    return rows[0] if rows else None
