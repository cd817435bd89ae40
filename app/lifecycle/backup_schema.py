"""What the database's schema says a backup needs to know: which labels exist, which properties
are vectors, which labels have ids unique across tenants.

These read schema metadata only (label names, index and constraint definitions), no tenant data,
so they run on the driver directly, like app/store/admin.py. Reading them from the database
instead of a fixed list is what keeps export and import generic: a label or a vector index
someone adds later is backed up without a change here.
"""
from __future__ import annotations

from dataclasses import dataclass

from neo4j import AsyncDriver

from app.lifecycle.backup_format import EXCLUDED_LABELS, is_memory_label

LABELS = "CALL db.labels() YIELD label RETURN label ORDER BY label"
VECTOR_INDEXES = """
SHOW VECTOR INDEXES YIELD entityType, labelsOrTypes, properties
WHERE entityType = 'NODE' RETURN labelsOrTypes AS labels, properties
"""
# A single-property uniqueness constraint on `id`: those ids are unique across all tenants
# (cypher/migrations/0001), so a copy under another tenant name needs new ones.
UNIQUE_IDS = """
SHOW CONSTRAINTS YIELD type, entityType, labelsOrTypes, properties
WHERE entityType = 'NODE' AND type IN ['UNIQUENESS', 'NODE_KEY'] AND properties = ['id']
RETURN labelsOrTypes AS labels
"""


@dataclass
class BackupSchema:
    memory_labels: list[str]  # every label that may carry tenant memory, sorted
    transient_labels: list[str]  # the database's other labels (locks, leases, keys)
    vector_properties: dict[str, list[str]]  # label -> properties under a vector index
    id_labels: frozenset[str]  # labels whose `id` is unique across tenants

    def vectors_of(self, labels: list[str]) -> frozenset[str]:
        return frozenset(p for label in labels for p in self.vector_properties.get(label, ()))


async def read_schema(driver: AsyncDriver, database: str) -> BackupSchema:
    async with driver.session(database=database) as s:
        labels = [r["label"] async for r in await s.run(LABELS)]
        vectors: dict[str, list[str]] = {}
        async for r in await s.run(VECTOR_INDEXES):
            # The vector is the first property; the rest are filter properties (`WITH [n.tenant]`).
            for label in r["labels"]:
                vectors.setdefault(label, []).append(r["properties"][0])
        id_labels = {label async for r in await s.run(UNIQUE_IDS) for label in r["labels"]}
    return BackupSchema(
        memory_labels=[label for label in labels if is_memory_label(label)],
        transient_labels=sorted(set(EXCLUDED_LABELS) | {x for x in labels if not is_memory_label(x)}),
        vector_properties={k: sorted(set(v)) for k, v in vectors.items()},
        id_labels=frozenset(id_labels),
    )
