"""Where a conversation's turns stand: stored, still waiting to become memory, failed. A client
that memorized with `wait: false` polls this to know when its turns are searchable."""
from __future__ import annotations

from app.store.graph import TenantGraph

# Waiting: not yet in an episode ('pending', or 'claimed' by a run writing it now). A waiting
# turn with an error failed its last attempt and waits for the retry (writer.MARK_FAILED); the
# error said is the latest; one reopened by a forget of another user's turns (its episode went)
# did not fail: it waits for the retry, which its error names it for. What was forgotten
# (lifecycle/retention.py) is no longer counted, though it waits for its purge. The episodes are
# counted from the same turns (each done turn names its cell), not by a second look-up: Neo4j
# reads committed data without a snapshot, and a second read could miss a cell whose turns the
# first read saw done (a client was told "nothing pending" with one of two episodes).
STATUS = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})
OPTIONAL MATCH (c)-[:HAS_TURN]->(t:Turn) WHERE coalesce(t.forgotten, false) = false
WITH c, count(t) AS turns, max(t.at) AS lastTurnAt,
     collect(CASE WHEN t.status IN ['pending', 'claimed'] THEN t END) AS waiting,
     count(DISTINCT CASE WHEN t.status = 'done' THEN t.memCellId END) AS memCells
WITH c, turns, lastTurnAt, waiting, memCells,
     [w IN waiting WHERE w.error IS NOT NULL AND w.reopened IS NULL] AS failed
RETURN c.id AS id, c.groupId AS groupId, turns, lastTurnAt, size(waiting) AS pending, size(failed) AS failed,
       CASE WHEN c.leaseUntil > datetime() THEN c.leaseUntil END AS processingUntil,
       reduce(last = null, w IN failed |
              CASE WHEN last IS NULL OR w.failedAt > last.failedAt THEN w ELSE last END).error AS lastError,
       memCells
"""


async def conversation_status(graph: TenantGraph, conversation_id: str) -> dict | None:
    rows = await graph.read(STATUS, conversationId=conversation_id)
    return rows[0] if rows else None
