"""Turn fused keys into memories with their evidence: the source turns that prove them.

A MemCell's evidence is the few turns of it closest to the query, not all of them: the caller
wants the proof, not the episode.
"""
from __future__ import annotations

import asyncio

from app.store.graph import TenantGraph

TURN_FIELDS = ("t {.id, .conversationId, .speaker, .content, .at, .userId, .memCellId}")

TURNS = f"""
UNWIND $keys AS k
MATCH (t:Turn) WHERE elementId(t) = k AND t.tenant = $tenant
RETURN k AS key, t {{.id, .conversationId, .speaker, .content, .at, .userId, .memCellId, .role}} AS node,
       [{TURN_FIELDS}] AS evidence
"""

CELLS = f"""
UNWIND $keys AS k
MATCH (n:MemCell) WHERE elementId(n) = k AND n.tenant = $tenant
CALL (n) {{
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn)
  WITH t ORDER BY vector.similarity.cosine(t.embedding, $vector) DESC, t.seq LIMIT $perCell
  RETURN collect({TURN_FIELDS}) AS evidence
}}
RETURN k AS key, n {{.id, .title, .summary, .keywords, .importance, .startedAt, .endedAt, .status,
                    .accessCount, .lastAccessedAt, .conversationId, .groupId, .userIds}} AS node,
       evidence
"""

FACTS = f"""
UNWIND $keys AS k
MATCH (n:Fact) WHERE elementId(n) = k AND n.tenant = $tenant
CALL (n) {{
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn)
  WITH t ORDER BY t.seq
  RETURN collect({TURN_FIELDS}) AS evidence
}}
OPTIONAL MATCH (m:MemCell)-[:HAS_FACT]->(n)
RETURN k AS key, n {{.id, .subject, .predicate, .object, .text, .confidence, .validFrom, .validTo,
                    .status, .eventDate, .conversationId, .groupId, memCellId: m.id}} AS node,
       evidence
"""

FORESIGHTS = f"""
UNWIND $keys AS k
MATCH (n:Foresight) WHERE elementId(n) = k AND n.tenant = $tenant
CALL (n) {{
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn)
  WITH t ORDER BY t.seq
  RETURN collect({TURN_FIELDS}) AS evidence
}}
OPTIONAL MATCH (m:MemCell)-[:PREDICTS]->(n)
RETURN k AS key, n {{.id, .text, .trigger, .kind, .validFrom, .validTo, .status, .conversationId,
                    .groupId, memCellId: m.id}} AS node,
       evidence
"""

BY_KIND = {"turn": TURNS, "memcell": CELLS, "fact": FACTS, "foresight": FORESIGHTS}

TOUCH = """
UNWIND $ids AS id
MATCH (n:MemCell {id: id}) WHERE n.tenant = $tenant
SET n.accessCount = coalesce(n.accessCount, 0) + 1, n.lastAccessedAt = datetime()
"""


async def hydrate(graph: TenantGraph, keys_by_kind: dict[str, list[str]], vector: list[float],
                  per_cell: int = 3) -> dict[str, dict]:
    """{key: {"node": {...}, "evidence": [turn, ...]}} for every key that still exists."""
    kinds = [k for k, keys in keys_by_kind.items() if keys]
    results = await asyncio.gather(*(
        graph.read(BY_KIND[k], keys=keys_by_kind[k], vector=vector, perCell=per_cell) for k in kinds
    ))
    out: dict[str, dict] = {}
    for rows in results:
        for r in rows:
            out[r["key"]] = {"node": r["node"], "evidence": r["evidence"]}
    return out


async def touch(graph: TenantGraph, cell_ids: list[str]) -> None:
    if cell_ids:
        await graph.write(TOUCH, ids=cell_ids)
