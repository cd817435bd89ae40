"""The names a conversation has already given its entities, handed to the extractor with each
new cell: "Tom found a job", said sessions after "my partner Tom", starts a sentence, where a
capital proves nothing, and the local extractor would not take "Tom" for a name alone."""
from __future__ import annotations

from typing import Sequence

from app.domain.models import EntityDraft
from app.store.graph import TenantGraph

MAX_CELLS = 200  # the conversation's latest cells: who it is about now
MAX_NAMES = 300

KNOWN_NAMES = """
MATCH (c:MemCell {tenant: $tenant, conversationId: $conversationId})
WITH c ORDER BY c.endedAt DESC LIMIT $cells
MATCH (c)-[:MENTIONS]->(e:Entity {tenant: $tenant})
WITH e, max(c.endedAt) AS last
RETURN e.name AS name, e.type AS type, coalesce(e.aliases, []) AS aliases
ORDER BY last DESC, name LIMIT $names
"""


async def known_names(graph: TenantGraph, conversation_id: str) -> list[EntityDraft]:
    rows = await graph.read(KNOWN_NAMES, conversationId=conversation_id, cells=MAX_CELLS, names=MAX_NAMES)
    return [EntityDraft(name=r["name"], type=r["type"] or "thing", aliases=list(r["aliases"])) for r in rows]


def with_new(known: Sequence[EntityDraft], found: Sequence[EntityDraft]) -> list[EntityDraft]:
    """`known` and the entities a cell just found, for the next cell of the same run; the newest
    first, as the query orders them."""
    names = {e.name for e in found}
    return (list(found) + [e for e in known if e.name not in names])[:MAX_NAMES]
