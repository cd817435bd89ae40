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

# Active at $at, of $kind if asked (`n` a Foresight of the tenant): one condition for a page, its
# count and an entity's list, so they cannot disagree.
_ACTIVE_WHERE = f"{filters.FORESIGHT} AND ($kind IS NULL OR n.kind = $kind)"

_ACTIVE = f"""
MATCH (n:Foresight {{tenant: $tenant}})
WHERE {_ACTIVE_WHERE}
"""

# What pages and lists sort by (`n` bound): when it ends, one with no end last.
_END = f"coalesce(n.validTo.epochMillis, {NO_END})"

# Whom a foresight is about (app/construction/entity_resolution.py Resolution.concerned), as the
# API's Entity reads it; null for one about nobody named.
CONCERNS = ("COLLECT { MATCH (n)-[:CONCERNS]->(e:Entity) WHERE e.tenant = $tenant "
            "RETURN e {.id, .name, .type, .aliases, .merges, .groupId} }[0]")

# Its episode and the turns that said it, once the page is cut (`n` bound; `m` and `evidence` after).
_EVIDENCE = f"""
OPTIONAL MATCH (m:MemCell)-[:PREDICTS]->(n)
CALL (n) {{
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn) WITH t ORDER BY t.seq
  RETURN collect(t {TURN_FIELDS}) AS evidence
}}"""

# What the API's Foresight is read from (after _EVIDENCE).
_FORESIGHT = f"""n {{.id, .text, .trigger, .kind, .validFrom, .validTo, .status, .endedAt, memCellId: m.id,
          endedBy: COLLECT {{ MATCH (n)-[:ENDED_BY]->(u:Turn) RETURN u {TURN_FIELDS} }}[0],
          concerns: {CONCERNS}}}"""

PAGE = _ACTIVE + f"""
WITH n, {_END} AS end
WHERE $afterEnd IS NULL OR end > $afterEnd OR (end = $afterEnd AND n.id > $afterId)
WITH n, end ORDER BY end, n.id LIMIT $limit
{_EVIDENCE}
RETURN {_FORESIGHT} AS foresight, evidence, end
ORDER BY end, n.id
"""

COUNT = _ACTIVE + "RETURN count(n) AS n"

# Entity.foresights for many entities at once, the first $limit of each as PAGE orders them. `e`
# leaves scope before _FORESIGHT, whose CONCERNS names its own `e`.
ENTITIES_FORESIGHTS = f"""
UNWIND $ids AS id
MATCH (e:Entity {{tenant: $tenant, id: id}})
CALL (e) {{
  MATCH (n:Foresight {{tenant: $tenant}})-[:CONCERNS]->(e)
  WHERE {_ACTIVE_WHERE}
  WITH n, {_END} AS end ORDER BY end, n.id LIMIT $limit
  RETURN n, end
}}
WITH id, n, end
{_EVIDENCE}
WITH id, {_FORESIGHT} AS foresight, evidence, end
ORDER BY end, n.id
RETURN id, collect({{foresight: foresight, evidence: evidence, end: end}}) AS foresights
"""

FORESIGHT_KINDS = ("constraint", "plan", "deadline")


async def active_foresights(graph: TenantGraph, at: datetime, group_id: str | None,
                            limit: int = 200, user_id: str | None = None) -> list[dict]:
    """The first `limit` active at `at` (Query.foresights, a plain list by the contract)."""
    return await graph.read(PAGE, **_filter(at, group_id, None, user_id), afterEnd=None, afterId=None, limit=limit)


async def entities_foresights(graph: TenantGraph, ids: list[str], at: datetime,
                              limit: int = 50, group_id: str | None = None,
                              user_id: str | None = None) -> list[list[dict]]:
    """Those active at `at` about each entity (Entity.foresights; rows as active_foresights'), in
    the order of `ids`, at most `limit` each, said in `group_id` and by `user_id` when given;
    none for one not found."""
    rows = {r["id"]: r["foresights"] for r in await graph.read(
        ENTITIES_FORESIGHTS, **_filter(at, group_id, None, user_id), ids=list(dict.fromkeys(ids)), limit=limit)}
    return [rows.get(i, []) for i in ids]


async def foresight_page(graph: TenantGraph, at: datetime, group_id: str | None, kind: str | None,
                         first: int, after: str | None, user_id: str | None = None) -> tuple[list[dict], bool, int]:
    """(foresight with its evidence and cursor, whether more follow, how many in all)."""
    after_end, after_id = decode_cursor(after) if after else (None, None)
    where = _filter(at, group_id, kind, user_id)
    rows = await graph.read(PAGE, **where, afterEnd=after_end, afterId=after_id, limit=first + 1)
    total = (await graph.read(COUNT, **where))[0]["n"]
    page = [{**r, "cursor": encode_cursor(r["end"], r["foresight"]["id"])} for r in rows[:first]]
    return page, len(rows) > first, total


def _filter(at: datetime, group_id: str | None, kind: str | None, user_id: str | None = None) -> dict:
    """The search's foresight filter (filters.FORESIGHT): of a user, said by them."""
    return dict(at=at, groupId=group_id, kind=kind, conversationId=None, userId=user_id,
                **{"from": None, "to": None})
