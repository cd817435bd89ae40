"""The few queries that look across tenants, for the service's own housekeeping. They return
tenant names and ids only, never memory content, and are never reachable from the API."""
from __future__ import annotations

from neo4j import AsyncDriver

FAILED_CONVERSATIONS = """
MATCH (t:Turn) WHERE t.status = 'pending' AND t.error IS NOT NULL
RETURN DISTINCT t.tenant AS tenant, t.conversationId AS conversationId LIMIT $limit
"""


async def conversations_with_failed_turns(driver: AsyncDriver, database: str = "neo4j",
                                          limit: int = 10_000) -> list[tuple[str, str]]:
    async with driver.session(database=database) as s:
        result = await s.run(FAILED_CONVERSATIONS, limit=limit)
        return [(r["tenant"], r["conversationId"]) async for r in result]


# Every tenant with episodes (foresight and facts always hang off one), for gc. Served from the
# (tenant, status) index on MemCell, without touching the cells themselves.
TENANTS_WITH_MEMORY = """
MATCH (m:MemCell) WHERE m.tenant IS NOT NULL AND m.status IS NOT NULL
RETURN DISTINCT m.tenant AS tenant ORDER BY tenant
"""


async def tenants_with_memory(driver: AsyncDriver, database: str = "neo4j") -> list[str]:
    async with driver.session(database=database) as s:
        result = await s.run(TENANTS_WITH_MEMORY)
        return [r["tenant"] async for r in result]
