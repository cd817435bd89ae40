"""An entity's history: every fact about it, current, replaced, ended or yet to begin, in the
order they began, a page at a time (Entity.history). What `entity(name, asOf)` answers for one
moment, this gives across time: "where has Maya lived?"."""
from __future__ import annotations

from app.recollection.cursors import decode_cursor, encode_cursor
from app.store.graph import TenantGraph

# A fact about the entity in two roles (subject and object) is one fact. Forgotten facts stay
# out, as everywhere (they wait for their purge).
_ABOUT = """
MATCH (e:Entity {tenant: $tenant, id: $id})<-[:ABOUT]-(f:Fact {tenant: $tenant})
WHERE f.status IN ['current', 'superseded'] AND coalesce(f.forgotten, false) = false
  AND ($userId IS NULL OR EXISTS { (f)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId = $userId })
WITH DISTINCT f"""

PAGE = _ABOUT + """, coalesce(f.validFrom.epochMillis, 0) AS at
WHERE $afterAt IS NULL OR at > $afterAt OR (at = $afterAt AND f.id > $afterId)
RETURN f {.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo, .status,
          .eventDate, memCellId: [(m:MemCell)-[:HAS_FACT]->(f) | m.id][0]} AS fact, at
ORDER BY at, f.id LIMIT $limit
"""

COUNT = _ABOUT + "\nRETURN count(f) AS n"


async def history_page(graph: TenantGraph, entity_id: str, first: int, after: str | None,
                       user_id: str | None = None) -> tuple[list[dict], bool, int]:
    """(facts with their cursors, whether more follow, how many in all); with `user_id`, the
    facts that user's turns say (as entity(userId) reads its facts)."""
    after_at, after_id = decode_cursor(after) if after else (None, None)
    rows = await graph.read(PAGE, id=entity_id, afterAt=after_at, afterId=after_id, limit=first + 1,
                            userId=user_id)
    total = (await graph.read(COUNT, id=entity_id, userId=user_id))[0]["n"]
    page = [{**r["fact"], "cursor": encode_cursor(r["at"], r["fact"]["id"])} for r in rows[:first]]
    return page, len(rows) > first, total
