"""`engram export`: a tenant's whole memory to a JSON-lines file (format: backup_format.py).

Generic over what the graph holds: every node carrying the tenant, under any memory label the
database knows (backup_schema.py), and every relationship between two such nodes. Nothing is
held in memory but a map from the database's element ids to the file's keys: nodes and edges
are streamed from one query per label and written line by line.

The header must carry the counts, which are known only at the end, so the body goes to a
temporary file first and the export is assembled next to the target and renamed into place:
a crashed export never leaves a file that looks complete.

An export is a consistent copy of a tenant nobody writes to meanwhile. While ingestion runs it
is a copy of some moment per label; an edge to a node written after that label was read is left
out rather than pointing nowhere.
"""
from __future__ import annotations

import os
import shutil
import time
import uuid
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from app.lifecycle.backup_format import (
    FORMAT, VERSION, dumps, encode_props, identifier, label_key, open_text,
)
from app.lifecycle.backup_schema import read_schema
from app.runtime.services import Services
from app.store.graph import TenantGraph

# `label` is spliced into the text: it comes from db.labels() and passes identifier() first.
# A node with several labels is read once, under the first of them in sorted order ($before
# lists the labels already read); nodes that also carry a transient label are no memory.
NODES = """
MATCH (n:{label} {{tenant: $tenant}})
WHERE NOT any(l IN labels(n) WHERE l IN $before OR l IN $excluded)
RETURN elementId(n) AS eid, labels(n) AS labels, properties(n) AS props
"""

# Outgoing edges only, so each edge is read once, from its start node.
RELS = """
MATCH (a:{label} {{tenant: $tenant}})-[r]->(b)
WHERE b.tenant = $tenant AND NOT any(l IN labels(a) WHERE l IN $before OR l IN $excluded)
  AND NOT any(l IN labels(b) WHERE l IN $excluded)
RETURN elementId(a) AS start, type(r) AS type, properties(r) AS props, elementId(b) AS end
"""


@dataclass
class ExportReport:
    path: Path
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    skipped_relationships: int = 0  # edges to nodes written after their label was read
    seconds: float = 0.0

    @property
    def total_nodes(self) -> int:
        return sum(self.nodes.values())

    @property
    def total_relationships(self) -> int:
        return sum(self.relationships.values())


async def export_tenant(svc: Services, tenant: str, path: Path, embeddings: bool = True) -> ExportReport:
    t0 = time.perf_counter()
    graph = TenantGraph(svc.driver, tenant, svc.settings.neo4j_database)
    schema = await read_schema(svc.driver, svc.settings.neo4j_database)
    path = Path(path)
    rep = ExportReport(path)
    keys: dict[str, int] = {}  # element id -> key in the file
    excluded = schema.transient_labels
    body = path.with_name(path.name + ".body.tmp")
    assembled = path.with_name(path.name + ".tmp")
    try:
        with open(body, "w", encoding="utf-8", newline="\n") as out:
            for i, label in enumerate(schema.memory_labels):
                query = NODES.format(label=identifier(label, "label"))
                async with aclosing(graph.stream(query, before=schema.memory_labels[:i],
                                                 excluded=excluded)) as rows:
                    async for row in rows:
                        key = keys[row["eid"]] = len(keys)
                        omit = frozenset() if embeddings else schema.vectors_of(row["labels"])
                        out.write(dumps({"kind": "node", "key": key, "labels": sorted(row["labels"]),
                                         "props": encode_props(row["props"], omit)}) + "\n")
                        lk = label_key(row["labels"])
                        rep.nodes[lk] = rep.nodes.get(lk, 0) + 1
            for i, label in enumerate(schema.memory_labels):
                query = RELS.format(label=identifier(label, "label"))
                async with aclosing(graph.stream(query, before=schema.memory_labels[:i],
                                                 excluded=excluded)) as rows:
                    async for row in rows:
                        start, end = keys.get(row["start"]), keys.get(row["end"])
                        if start is None or end is None:
                            rep.skipped_relationships += 1
                            continue
                        out.write(dumps({"kind": "rel", "type": row["type"], "start": start,
                                         "end": end, "props": encode_props(row["props"])}) + "\n")
                        rep.relationships[row["type"]] = rep.relationships.get(row["type"], 0) + 1
        embedder = svc.require_embedder()
        header = {
            "format": FORMAT, "version": VERSION, "tenant": tenant, "exportId": uuid.uuid4().hex,
            "exportedAt": datetime.now(timezone.utc).isoformat(),
            "model": {"name": svc.settings.embedding_model, "dimensions": embedder.dimensions},
            "embeddings": embeddings,
            "vectorProperties": schema.vector_properties,
            "counts": {"nodes": dict(sorted(rep.nodes.items())),
                       "relationships": dict(sorted(rep.relationships.items()))},
        }
        with (open_text(assembled, "w", gz=path.suffix == ".gz") as out,
              open(body, encoding="utf-8", newline="\n") as src):
            out.write(dumps(header) + "\n")
            shutil.copyfileobj(src, out, 1 << 20)
        os.replace(assembled, path)
    finally:
        for tmp in (body, assembled):
            tmp.unlink(missing_ok=True)
    rep.seconds = time.perf_counter() - t0
    return rep
