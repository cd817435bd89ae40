"""Where a conversation's turns stand: stored, still waiting to become memory, failed. A client
that memorized with `wait: false` polls this to know when its turns are searchable."""
from __future__ import annotations

from app.store.graph import TenantGraph

# Waiting: not yet in an episode ('pending', or 'claimed' by a run writing it now). A waiting
# turn with an error failed its last attempt and waits for the retry (writer.MARK_FAILED).
STATUS = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})
OPTIONAL MATCH (c)-[:HAS_TURN]->(t:Turn)
WITH c, count(t) AS turns, max(t.at) AS lastTurnAt,
     collect(CASE WHEN t.status IN ['pending', 'claimed'] THEN t END) AS waiting
WITH c, turns, lastTurnAt, waiting, [w IN waiting WHERE w.error IS NOT NULL] AS failed
RETURN c.id AS id, c.groupId AS groupId, turns, lastTurnAt, size(waiting) AS pending, size(failed) AS failed,
       [w IN failed | w.error][0] AS lastError,
       COUNT { MATCH (m:MemCell {tenant: $tenant, conversationId: $conversationId}) } AS memCells
"""


async def conversation_status(graph: TenantGraph, conversation_id: str) -> dict | None:
    rows = await graph.read(STATUS, conversationId=conversation_id)
    return rows[0] if rows else None
