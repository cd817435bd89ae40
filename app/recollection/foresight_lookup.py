"""Foresight as the API lists it: what is active at a moment, the soonest to end first, a page
at a time. Pages are keyed by (validTo in ms, id); one with no end sorts last (the largest
integer a cursor holds), so a cursor stays valid while foresight is added or retires."""
from __future__ import annotations

from datetime import datetime

from app.recollection import filters
from app.recollection.cursors import decode_cursor, encode_cursor
from app.recollection.lookup import TURN_FIELDS
from app.store.graph import TenantGraph

NO_END = 2**63 - 1

_ACTIVE = f"""
MATCH (n:Foresight {{tenant: $tenant}})
WHERE {filters.FORESIGHT} AND ($kind IS NULL OR n.kind = $kind)
  AND ($entityId IS NULL OR EXISTS {{ (n)-[:CONCERNS]->(:Entity {{tenant: $tenant, id: $entityId}}) }})
"""

# Whom a foresight is about (app/construction/entity_resolution.py Resolution.concerned), as the
# API's Entity reads it; null for one about nobody named.
CONCERNS = ("COLLECT { MATCH (n)-[:CONCERNS]->(e:Entity) WHERE e.tenant = $tenant "
            "RETURN e {.id, .name, .type, .aliases, .merges} }[0]")

PAGE = _ACTIVE + f"""
WITH n, coalesce(n.validTo.epochMillis, {NO_END}) AS end
WHERE $afterEnd IS NULL OR end > $afterEnd OR (end = $afterEnd AND n.id > $afterId)
WITH n, end ORDER BY end, n.id LIMIT $limit
OPTIONAL MATCH (m:MemCell)-[:PREDICTS]->(n)
CALL (n) {{
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn) WITH t ORDER BY t.seq
  RETURN collect(t {TURN_FIELDS}) AS evidence
}}
RETURN n {{.id, .text, .trigger, .kind, .validFrom, .validTo, .status, .endedAt, memCellId: m.id,
          endedBy: COLLECT {{ MATCH (n)-[:ENDED_BY]->(u:Turn) RETURN u {TURN_FIELDS} }}[0],
          concerns: {CONCERNS}}}
         AS foresight, evidence, end
ORDER BY end, n.id
"""

COUNT = _ACTIVE + "RETURN count(n) AS n"

FORESIGHT_KINDS = ("constraint", "plan", "deadline")


async def active_foresights(graph: TenantGraph, at: datetime, group_id: str | None,
                            limit: int = 200, entity_id: str | None = None) -> list[dict]:
    """The first `limit` active at `at` (Query.foresights, a plain list by the contract), or
    those about one entity (Entity.foresights)."""
    return await graph.read(PAGE, **_filter(at, group_id, None, entity_id), afterEnd=None, afterId=None,
                            limit=limit)


async def foresight_page(graph: TenantGraph, at: datetime, group_id: str | None, kind: str | None,
                         first: int, after: str | None) -> tuple[list[dict], bool, int]:
    """(foresight with its evidence and cursor, whether more follow, how many in all)."""
    after_end, after_id = decode_cursor(after) if after else (None, None)
    where = _filter(at, group_id, kind)
    rows = await graph.read(PAGE, **where, afterEnd=after_end, afterId=after_id, limit=first + 1)
    total = (await graph.read(COUNT, **where))[0]["n"]
    page = [{**r, "cursor": encode_cursor(r["end"], r["foresight"]["id"])} for r in rows[:first]]
    return page, len(rows) > first, total


def _filter(at: datetime, group_id: str | None, kind: str | None, entity_id: str | None = None) -> dict:
    return dict(at=at, groupId=group_id, kind=kind, conversationId=None, userId=None, entityId=entity_id)
