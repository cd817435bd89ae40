"""Turn fused keys into memories and their evidence turns (payloads for the caller)."""
from __future__ import annotations

from app.store.graph import TenantGraph

TURNS = """
UNWIND $keys AS k
MATCH (n:Turn) WHERE elementId(n) = k AND n.tenant = $tenant
RETURN k AS key, n {.id, .conversationId, .speaker, .content, .at, .userId, .memCellId, .role} AS node
"""

CELLS = """
UNWIND $keys AS k
MATCH (n:MemCell) WHERE elementId(n) = k AND n.tenant = $tenant
RETURN k AS key, n {.id, .title, .summary, .keywords, .importance, .startedAt, .endedAt, .status,
                    .accessCount, .lastAccessedAt, .conversationId, .groupId, .userIds} AS node
"""

FACTS = """
UNWIND $keys AS k
MATCH (n:Fact) WHERE elementId(n) = k AND n.tenant = $tenant
OPTIONAL MATCH (m:MemCell)-[:HAS_FACT]->(n)
RETURN k AS key, n {.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo,
                    .status, .eventDate, .conversationId, .groupId, memCellId: m.id} AS node
"""

FORESIGHTS = """
UNWIND $keys AS k
MATCH (n:Foresight) WHERE elementId(n) = k AND n.tenant = $tenant
OPTIONAL MATCH (m:MemCell)-[:PREDICTS]->(n)
RETURN k AS key, n {.id, .text, .trigger, .kind, .validFrom, .validTo, .status, .conversationId,
                    .groupId, memCellId: m.id} AS node
"""

SCENES = """
UNWIND $keys AS k
MATCH (n:MemScene) WHERE elementId(n) = k AND n.tenant = $tenant
RETURN k AS key, n {.id, .topic, .consensus, .status, .groupId, .cells, .startedAt, .endedAt,
                    .createdAt, .updatedAt} AS node
"""

BY_KIND = {"turn": TURNS, "memcell": CELLS, "fact": FACTS, "foresight": FORESIGHTS, "scene": SCENES}

# The write lock is taken before the count is read, so concurrent searches add up instead of
# overwriting each other's increment (Neo4j reads without locks under read-committed).
TOUCH = """
UNWIND $ids AS id
MATCH (n:MemCell {id: id}) WHERE n.tenant = $tenant
SET n._LOCK_ = true
WITH n
SET n.accessCount = coalesce(n.accessCount, 0) + 1, n.lastAccessedAt = datetime()
REMOVE n._LOCK_
"""


def _one_query(kinds: tuple[str, ...]) -> str:
    # One round trip for every kind of a result (a search's last step, on its critical path).
    parts = [BY_KIND[k].replace("$keys", f"$keys_{k}").strip() for k in kinds]
    return "CALL () {\n" + "\nUNION ALL\n".join(parts) + "\n}\nRETURN key, node"


async def hydrate(graph: TenantGraph, keys_by_kind: dict[str, list[str]]) -> dict[str, dict]:
    """{key: node payload} for every key that still exists (evidence turns under kind 'turn')."""
    kinds = tuple(sorted(k for k, keys in keys_by_kind.items() if keys))
    if not kinds:
        return {}
    rows = await graph.read_rows(_one_query(kinds), ("key", "node"),
                                 **{f"keys_{k}": keys_by_kind[k] for k in kinds})
    return {r["key"]: r["node"] for r in rows}


async def touch(graph: TenantGraph, cell_ids: list[str]) -> None:
    if cell_ids:
        await graph.write(TOUCH, ids=cell_ids)
