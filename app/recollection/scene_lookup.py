"""Scenes as the API lists them: a page of a tenant's scenes, and one scene's members and
conflicts. Pages are keyed by (startedAt in ms, id), so a cursor stays valid while scenes change."""
from __future__ import annotations

from app.recollection.cursors import decode_cursor, encode_cursor
from app.store.graph import TenantGraph

SCENE_FIELDS = ".id, .topic, .consensus, .status, .groupId, .cells, .startedAt, .endedAt, .createdAt, .updatedAt"

PAGE = f"""
MATCH (s:MemScene {{tenant: $tenant}})
WHERE ($groupId IS NULL OR s.groupId = $groupId) AND ($status IS NULL OR s.status = $status)
WITH s, coalesce(s.startedAt.epochMillis, 0) AS at
WHERE $afterAt IS NULL OR at > $afterAt OR (at = $afterAt AND s.id > $afterId)
RETURN s {{{SCENE_FIELDS}}} AS scene, at
ORDER BY at, s.id LIMIT $limit
"""

COUNT = """
MATCH (s:MemScene {tenant: $tenant})
WHERE ($groupId IS NULL OR s.groupId = $groupId) AND ($status IS NULL OR s.status = $status)
RETURN count(s) AS n
"""

MEMBERS = """
MATCH (s:MemScene {tenant: $tenant, id: $id})-[i:INCLUDES]->(m:MemCell)
WHERE m.status = 'active'
RETURN m {.id, .title, .summary, .keywords, .importance, .startedAt, .endedAt, .status,
          .accessCount, .lastAccessedAt, .conversationId, .groupId} AS cell
ORDER BY i.order, m.startedAt LIMIT $limit
"""

# Conflicts inside a scene: its facts that were replaced, each with what replaced it; of its
# active members only, as MEMBERS (a forgotten episode keeps its INCLUDES edge until purged).
CONFLICTS = """
MATCH (s:MemScene {tenant: $tenant, id: $id})-[:INCLUDES]->(m:MemCell)-[:HAS_FACT]->(f:Fact)
WHERE f.status = 'superseded' AND m.status = 'active'
OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(n:Fact)
RETURN f {.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo, .status,
          .eventDate, memCellId: m.id} AS fact, n.text AS replacedBy
ORDER BY f.validFrom LIMIT $limit
"""


async def scenes_page(graph: TenantGraph, group_id: str | None, status: str | None,
                      first: int, after: str | None) -> tuple[list[dict], bool, int]:
    """(scenes with their cursors, whether more follow, total count)."""
    after_at, after_id = decode_cursor(after) if after else (None, None)
    rows = await graph.read(PAGE, groupId=group_id, status=status, afterAt=after_at, afterId=after_id,
                            limit=first + 1)
    total = (await graph.read(COUNT, groupId=group_id, status=status))[0]["n"]
    page = [{**r["scene"], "cursor": encode_cursor(r["at"], r["scene"]["id"])} for r in rows[:first]]
    return page, len(rows) > first, total


async def scene_members(graph: TenantGraph, scene_id: str, limit: int) -> list[dict]:
    return [r["cell"] for r in await graph.read(MEMBERS, id=scene_id, limit=limit)]


async def scene_conflicts(graph: TenantGraph, scene_id: str, limit: int) -> list[dict]:
    return [{**r["fact"], "replacedBy": r["replacedBy"]} for r in await graph.read(CONFLICTS, id=scene_id, limit=limit)]
