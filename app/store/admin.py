"""The few queries that look across tenants, for the service's own housekeeping. They return
tenant names and ids only, never memory content, and are never reachable from the API."""
from __future__ import annotations

from neo4j import AsyncDriver

# Conversations with turns to process again: turns whose extraction failed (an error recorded);
# turns no run ever looked at (a run saves the vectors of the turns it leaves waiting, and
# writes those of the turns it makes episodes of) that were stored longer ago than a run's
# lease: a crash or a stop after they were stored; and pending turns of a conversation whose
# run's lease ran out unreleased: that run died while it processed them. Turns waiting for more
# context were looked at, and stay waiting (the retry flushes only what a call asked to flush:
# `flushUpto`, the last turn of the last call with flush, while turns up to it are pending).
# The last turn a conversation `c`'s calls asked to flush, while a turn up to it is pending.
FLUSH_UPTO = """CASE WHEN EXISTS { (c)-[:HAS_TURN]->(p:Turn {status: 'pending'}) WHERE p.seq <= c.flushUpto }
            THEN c.flushUpto END AS flushUpto"""

# And the pending turns of a conversation that has been idle for `$idleFor` seconds (none
# received since): its session is over, so its open episode is cut (flushed to its last turn).
# An agent that sends each turn alone, without `flush`, had the rest of a session wait for a
# next turn that never came: nothing of it became a fact or a constraint.
FAILED_CONVERSATIONS = f"""
CALL () {{
  MATCH (t:Turn) WHERE t.status = 'pending'
  WITH t.tenant AS tenant, t.conversationId AS conversationId,
       max(CASE WHEN t.error IS NOT NULL
                  OR (t.embedding IS NULL AND t.receivedAt < datetime() - duration({{seconds: $unseenFor}}))
                THEN 1 ELSE 0 END) AS failed,
       max(t.receivedAt) AS last
  WITH tenant, conversationId, failed,
       $idleFor > 0 AND last < datetime() - duration({{seconds: $idleFor}}) AS idle
  WHERE failed = 1 OR idle
  RETURN tenant, conversationId, idle
  UNION
  MATCH (c:Conversation) WHERE c.leaseUntil < datetime()
    AND EXISTS {{ (c)-[:HAS_TURN]->(:Turn {{status: 'pending'}}) }}
  RETURN c.tenant AS tenant, c.id AS conversationId, false AS idle
}}
WITH tenant, conversationId, true IN collect(idle) AS idle
WHERE NOT EXISTS {{ MATCH (r:ImportRun {{tenant: tenant}}) }}
MATCH (c:Conversation {{tenant: tenant, id: conversationId}})
// Tenants take turns (each one's first conversation, then each one's second...), so one
// tenant's thousands of failing conversations do not push the others' out of the bound.
WITH tenant, conversationId, c, idle, {FLUSH_UPTO}
WITH tenant, conversationId, CASE WHEN idle THEN c.lastSeq ELSE flushUpto END AS flushUpto
ORDER BY tenant, conversationId
WITH tenant, collect({{id: conversationId, flushUpto: flushUpto}}) AS conversations
UNWIND range(0, size(conversations) - 1) AS turn
RETURN tenant, conversations[turn].id AS conversationId, conversations[turn].flushUpto AS flushUpto
ORDER BY turn, tenant
LIMIT $limit
"""


async def conversations_with_failed_turns(driver: AsyncDriver, unseen_for_s: float,
                                          database: str = "neo4j", limit: int = 10_000,
                                          idle_for_s: float = 0.0) -> list[tuple[str, str, int | None]]:
    """(tenant, conversation, the last turn to flush or None). `unseen_for_s`: how long stored
    turns no run looked at wait before they count (a run's lease: their own run may still be
    on its way); `idle_for_s`: after how long without a new turn a conversation's pending turns
    are flushed (0: never)."""
    async with driver.session(database=database) as s:
        result = await s.run(FAILED_CONVERSATIONS, limit=limit, unseenFor=unseen_for_s, idleFor=idle_for_s)
        return [(r["tenant"], r["conversationId"], r["flushUpto"]) async for r in result]


# Every tenant with episodes (foresight and facts always hang off one), for gc and consolidation.
# Served from the (tenant, status) index on MemCell, without touching the cells themselves.
# Not a tenant an import is restoring (its counts are checked at the end), nor, above, its turns.
TENANTS_WITH_MEMORY = """
MATCH (m:MemCell) WHERE m.tenant IS NOT NULL AND m.status IS NOT NULL
WITH DISTINCT m.tenant AS tenant WHERE NOT EXISTS { MATCH (r:ImportRun {tenant: tenant}) }
RETURN tenant ORDER BY tenant
"""


async def tenants_with_memory(driver: AsyncDriver, database: str = "neo4j") -> list[str]:
    async with driver.session(database=database) as s:
        result = await s.run(TENANTS_WITH_MEMORY)
        return [r["tenant"] async for r in result]


# Tenants holding searchable text, for the one-time keyword statistics backfill
# (app/store/term_stats.py). Served from the tenant indexes of the three labels.
TENANTS_WITH_TEXT = """
CALL () { MATCH (n:Turn) WHERE n.tenant IS NOT NULL RETURN DISTINCT n.tenant AS tenant
          UNION MATCH (n:MemCell) WHERE n.tenant IS NOT NULL RETURN DISTINCT n.tenant AS tenant
          UNION MATCH (n:Fact) WHERE n.tenant IS NOT NULL RETURN DISTINCT n.tenant AS tenant }
RETURN tenant ORDER BY tenant
"""
# Data migrations (work on the data itself, not the schema), each recorded once done.
MIGRATED = "MATCH (m:DataMigration {name: $name}) RETURN count(m) > 0 AS done"
RECORD_MIGRATION = "MERGE (m:DataMigration {name: $name}) SET m.appliedAt = datetime()"


async def tenants_with_text(driver: AsyncDriver, database: str = "neo4j") -> list[str]:
    async with driver.session(database=database) as s:
        result = await s.run(TENANTS_WITH_TEXT)
        return [r["tenant"] async for r in result]


async def data_migrated(driver: AsyncDriver, name: str, database: str = "neo4j") -> bool:
    async with driver.session(database=database) as s:
        return (await (await s.run(MIGRATED, name=name)).single())["done"]


async def record_data_migration(driver: AsyncDriver, name: str, database: str = "neo4j") -> None:
    async with driver.session(database=database) as s:
        await (await s.run(RECORD_MIGRATION, name=name)).consume()


# A conversation whose turns are in episodes, with its group and a user when it has them: where
# the search warm-up runs its queries (app/recollection/search.py), so that they plan and run
# with rows, as a user's first search will. Ids only; the first found, not the tenants scanned.
WARM_UP_SAMPLE = """
CALL () {
  MATCH (t:Turn) WHERE t.memCellId IS NOT NULL AND t.userId IS NOT NULL AND t.groupId IS NOT NULL
    AND t.tenant IS NOT NULL AND coalesce(t.forgotten, false) = false
  RETURN t LIMIT 1
  UNION
  MATCH (t:Turn) WHERE t.memCellId IS NOT NULL AND t.tenant IS NOT NULL AND coalesce(t.forgotten, false) = false
  RETURN t LIMIT 1
}
RETURN t.tenant AS tenant, t.conversationId AS conversationId, t.groupId AS groupId, t.userId AS userId
ORDER BY t.groupId IS NULL, t.userId IS NULL LIMIT 1
"""


async def warm_up_sample(driver: AsyncDriver, database: str = "neo4j") -> dict | None:
    async with driver.session(database=database) as s:
        row = await (await s.run(WARM_UP_SAMPLE)).single()
        return dict(row) if row else None
