"""`engram import`: an export file (backup_format.py) into an empty tenant.

All or nothing, as the user sees it:
  1. The whole file is read once and checked before anything is written: header, every line,
     labels and types, every edge's ends, the counts the header promises (a truncated file fails
     here), the embedding model. A bad file changes nothing.
  2. An (:ImportRun {tenant, exportId}) node is created in the empty tenant. While it exists the
     tenant holds an unfinished import and nothing else: a re-run of the same file purges it and
     starts again, so a killed import is finished by running it again.
  3. Nodes, then edges, in UNWIND batches of BATCH rows per label set / type; then vectors that
     are to be recomputed (backup_reembed.py); then the counts are checked against the header.
  4. Deleting the ImportRun node is the commit: one write, so there is no half-finished state
     after it. A failure before it purges what was written.
One marker node rather than a marker property on every node: finishing is then one write instead
of a pass over the whole tenant, and cannot itself be interrupted half-way.

Ids: service-minted ids (labels with a uniqueness constraint on `id`) are unique across tenants,
so an import under another tenant name while the original still exists would collide. Such an
import gets new ids derived from (tenant, old id) (backup_format.remap_id), applied to the nodes'
`id` and to every property value holding one of those ids (Turn.memCellId, RELATED.factId, ...).
Under the original name, ids are kept. Turn and conversation ids are the client's and are kept.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neo4j.exceptions import ConstraintError

from app.lifecycle.backup_format import (
    OMITTED, BackupError, check_header, decode_value, identifier, is_memory_label, label_key,
    read_lines, remap_id,
)
from app.lifecycle.backup_reembed import FLAG, RECIPE_LABELS, VECTOR_PROPERTY, reembed, recipe_label
from app.lifecycle.backup_schema import BackupSchema, read_schema
from app.runtime.services import Services
from app.store import term_stats
from app.store.graph import TenantGraph, check_tenant
from app.store.keys import check_index_word
from app.store.migrations import tenant_statements

BATCH = 500
RUN_LABEL = "ImportRun"

# Labels and types are spliced into the text (Cypher cannot take them as parameters); every one
# passed backup_format.identifier() in the check of the file, so none can break out of the
# pattern. The tenant is always the TenantGraph's $tenant, never a value from the file.
CREATE_NODES = """
UNWIND $rows AS row
CREATE (n:{labels} {{tenant: $tenant}})
SET n += row.props
RETURN row.key AS key, elementId(n) AS eid
"""

CREATE_RELS = """
UNWIND $rows AS row
MATCH (a) WHERE elementId(a) = row.start AND a.tenant = $tenant
MATCH (b) WHERE elementId(b) = row.end AND b.tenant = $tenant
CREATE (a)-[r:{type}]->(b)
SET r = row.props
RETURN count(r) AS n
"""

HAS_NODES = "RETURN EXISTS {{ MATCH (n:{label} {{tenant: $tenant}}) }} AS any"
COUNT_NODES = """
MATCH (n:{label} {{tenant: $tenant}}) WHERE NOT any(l IN labels(n) WHERE l IN $before)
RETURN labels(n) AS labels, count(*) AS n
"""
COUNT_RELS = """
MATCH (a:{label} {{tenant: $tenant}})-[r]->(b) WHERE b.tenant = $tenant
  AND NOT any(l IN labels(a) WHERE l IN $before)
RETURN type(r) AS type, count(*) AS n
"""
PURGE = """
MATCH (n:{label} {{tenant: $tenant}})
CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF 1000 ROWS
"""
RUNS = """
MATCH (r:ImportRun {tenant: $tenant})
RETURN r.exportId AS exportId, r.sourceTenant AS sourceTenant, r.file AS file, r.startedAt AS startedAt
"""
# Under the tenant's write lock, which a conversation's first turns take too
# (app/construction/turns.py): a client's first write either lands before (and the tenant is no
# longer empty) or sees the ImportRun and is refused, so a failed import's purge takes nothing a
# client sent.
BEGIN = """
MERGE (l:WriteLock {tenant: $tenant}) SET l.at = datetime()
WITH l WHERE NOT EXISTS { MATCH (c:Conversation {tenant: $tenant}) }
CREATE (:ImportRun {tenant: $tenant, exportId: $exportId, sourceTenant: $sourceTenant,
                    file: $file, startedAt: datetime()})
RETURN count(*) AS begun
"""
COMMIT = "MATCH (r:ImportRun {tenant: $tenant, exportId: $exportId}) DELETE r RETURN count(*) AS n"


@dataclass
class ImportReport:
    tenant: str
    source_tenant: str
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    reembedded: dict[str, dict[str, int]] = field(default_factory=dict)
    ids_remapped: bool = False
    purged_unfinished: int = 0  # nodes of an earlier, interrupted run of this import
    seconds: float = 0.0

    @property
    def total_nodes(self) -> int:
        return sum(self.nodes.values())

    @property
    def total_relationships(self) -> int:
        return sum(self.relationships.values())


@dataclass
class _Plan:
    """What the check of the file learnt, for the write pass."""
    header: dict
    labels: set[str] = field(default_factory=set)
    minted_ids: set[str] = field(default_factory=set)  # ids to remap (only when remapping)


def _vector_props(header: dict, schema: BackupSchema, labels: list[str]) -> set[str]:
    declared = header["vectorProperties"]
    return {p for label in labels for p in declared.get(label, ())} | set(schema.vectors_of(labels))


def _has_recipe(prop: str, labels: list[str]) -> bool:
    return prop == VECTOR_PROPERTY and recipe_label(labels) is not None


def _check_file(path: Path, schema: BackupSchema, remap: bool, reembed_all: bool,
                same_model: bool) -> _Plan:
    lines = read_lines(path)
    first = next(lines, None)
    if first is None:
        raise BackupError(f"{path} is empty, not an Engram export")
    plan = _Plan(check_header(first[1], path))
    header = plan.header
    keys: set[int] = set()
    nodes: dict[str, int] = {}
    rels: dict[str, int] = {}
    in_rels = False
    for no, obj in lines:
        where = f"{path}: line {no}"
        kind = obj.get("kind")
        props = obj.get("props")
        if not isinstance(props, dict):
            raise BackupError(f"{where}: no props object")
        try:
            # Property names are parameters (map keys), never query text: any name is safe.
            values = {k: decode_value(v) for k, v in props.items() if v != OMITTED}
        except BackupError as e:
            raise BackupError(f"{where}: {e}") from None
        if kind == "node":
            if in_rels:
                raise BackupError(f"{where}: a node after the relationships; nodes come first")
            key, labels = obj.get("key"), obj.get("labels")
            if not isinstance(key, int) or isinstance(key, bool) or key in keys:
                raise BackupError(f"{where}: missing or repeated node key {key!r}")
            if not isinstance(labels, list) or not labels:
                raise BackupError(f"{where}: a node needs a list of labels")
            for label in labels:
                identifier(label, f"{where}: label")
                if not is_memory_label(label):
                    raise BackupError(f"{where}: label {label} is not tenant memory; refusing to import it")
            keys.add(key)
            plan.labels.update(labels)
            vector_props = _vector_props(header, schema, labels)
            for p, v in props.items():
                if v == OMITTED and p not in vector_props:
                    raise BackupError(f"{where}: property {p} is marked omitted but is no vector")
                if p not in vector_props or v is None:
                    continue
                if not _has_recipe(p, labels) and (v == OMITTED or not same_model):
                    raise BackupError(
                        f"{where}: the vector {p} of a {label_key(labels)} node cannot be recomputed "
                        f"(Engram knows how to make `{VECTOR_PROPERTY}` of {', '.join(sorted(RECIPE_LABELS))})")
                if v != OMITTED and not same_model and not reembed_all:
                    raise BackupError(_model_message(header, path))
            if remap and "id" in values and schema.id_labels.intersection(labels):
                if not isinstance(values["id"], str):
                    raise BackupError(f"{where}: id {values['id']!r} is not a string")
                plan.minted_ids.add(values["id"])
            lk = label_key(labels)
            nodes[lk] = nodes.get(lk, 0) + 1
        elif kind == "rel":
            in_rels = True
            rtype = identifier(obj.get("type"), f"{where}: relationship type")
            for end in ("start", "end"):
                if obj.get(end) not in keys or isinstance(obj.get(end), bool):
                    raise BackupError(f"{where}: relationship {end} {obj.get(end)!r} is no node of the file")
            rels[rtype] = rels.get(rtype, 0) + 1
        else:
            raise BackupError(f"{where}: kind {kind!r} is neither node nor rel")
    promised = header["counts"]
    for what, got, want in (("nodes", nodes, promised["nodes"]),
                            ("relationships", rels, promised["relationships"])):
        if got != want:
            diff = sorted(k for k in set(got) | set(want) if got.get(k, 0) != want.get(k, 0))
            detail = ", ".join(f"{k}: {got.get(k, 0)} of {want.get(k, 0)}" for k in diff[:5])
            raise BackupError(f"{path} holds other {what} than its header lists ({detail}); "
                              "the file is truncated or was altered")
    return plan


def _model_message(header: dict, path: Path) -> str:
    m = header["model"]
    return (f"{path} carries vectors of the model {m.get('name')!r} ({m.get('dimensions')} dimensions), "
            "and this Engram uses another; import with --reembed to recompute them")


class _Importer:
    def __init__(self, svc: Services, graph: TenantGraph, plan: _Plan, schema: BackupSchema,
                 remap: bool, reembed_all: bool):
        self.svc, self.graph, self.plan, self.schema = svc, graph, plan, schema
        self.remap, self.reembed_all = remap, reembed_all
        self.eids: dict[int, str] = {}  # file key -> element id of the node made from it
        self.nodes: dict[str, int] = {}
        self.rels: dict[str, int] = {}

    def _ref(self, v: Any) -> Any:
        if isinstance(v, str) and v in self.plan.minted_ids:
            return remap_id(self.graph.tenant, v)
        if isinstance(v, list):
            return [self._ref(x) for x in v]
        return v

    def node_props(self, labels: list[str], raw: dict) -> dict:
        vector_props = _vector_props(self.plan.header, self.schema, labels)
        props: dict[str, Any] = {}
        for k, v in raw.items():
            if k in vector_props and (v == OMITTED or (self.reembed_all and v is not None
                                                       and _has_recipe(k, labels))):
                props[FLAG] = True  # the vector is made after the load (backup_reembed.py)
                continue
            if k == "tenant":
                # The node gets the target tenant in CREATE: uniqueness constraints are checked
                # at each write, so the exported tenant must never be set, even for a moment.
                continue
            value = decode_value(v)
            props[k] = self._ref(value) if self.remap else value
        if self.remap and "id" in props and self.schema.id_labels.intersection(labels):
            props["id"] = remap_id(self.graph.tenant, decode_value(raw["id"]))
        return props

    def rel_props(self, raw: dict) -> dict:
        props = {k: decode_value(v) for k, v in raw.items()}
        if self.remap:
            props = {k: self._ref(v) for k, v in props.items()}
        if "tenant" in props:
            props["tenant"] = self.graph.tenant
        return props

    async def flush_nodes(self, labels: str, rows: list[dict]) -> None:
        query = CREATE_NODES.format(labels=":".join(identifier(x, "label") for x in labels.split(":")))
        for r in await self.graph.write(query, rows=rows):
            self.eids[r["key"]] = r["eid"]
        self.nodes[labels] = self.nodes.get(labels, 0) + len(rows)

    async def flush_rels(self, rtype: str, rows: list[dict]) -> None:
        made = await self.graph.write(CREATE_RELS.format(type=identifier(rtype, "type")), rows=rows)
        if made[0]["n"] != len(rows):
            raise BackupError(f"{len(rows) - made[0]['n']} {rtype} relationships found no ends")
        self.rels[rtype] = self.rels.get(rtype, 0) + len(rows)

    async def load(self, path: Path) -> None:
        pending_nodes: dict[str, list[dict]] = {}
        pending_rels: dict[str, list[dict]] = {}
        lines = read_lines(path)
        next(lines)  # the header
        for _, obj in lines:
            if obj["kind"] == "node":
                lk = label_key(obj["labels"])
                rows = pending_nodes.setdefault(lk, [])
                rows.append({"key": obj["key"], "props": self.node_props(obj["labels"], obj["props"])})
                if len(rows) >= BATCH:
                    await self.flush_nodes(lk, pending_nodes.pop(lk))
            else:
                for lk in list(pending_nodes):  # every node is written before the first edge
                    await self.flush_nodes(lk, pending_nodes.pop(lk))
                rows = pending_rels.setdefault(obj["type"], [])
                rows.append({"start": self.eids[obj["start"]], "end": self.eids[obj["end"]],
                             "props": self.rel_props(obj["props"])})
                if len(rows) >= BATCH:
                    await self.flush_rels(obj["type"], pending_rels.pop(obj["type"]))
        for lk in list(pending_nodes):
            await self.flush_nodes(lk, pending_nodes.pop(lk))
        for rtype in list(pending_rels):
            await self.flush_rels(rtype, pending_rels.pop(rtype))

    async def graph_counts(self, labels: list[str]) -> tuple[dict[str, int], dict[str, int]]:
        """Counts in the graph, per label set and type, as the export counts them."""
        nodes: dict[str, int] = {}
        rels: dict[str, int] = {}
        for i, label in enumerate(labels):
            for r in await self.graph.read(COUNT_NODES.format(label=label), before=labels[:i]):
                lk = label_key(r["labels"])
                nodes[lk] = nodes.get(lk, 0) + r["n"]
            for r in await self.graph.read(COUNT_RELS.format(label=label), before=labels[:i]):
                rels[r["type"]] = rels.get(r["type"], 0) + r["n"]
        return nodes, rels


async def _labels_with_data(graph: TenantGraph, labels: list[str]) -> list[str]:
    return [label for label in labels
            if (await graph.read(HAS_NODES.format(label=identifier(label, "label"))))[0]["any"]]


async def _purge(graph: TenantGraph, labels: list[str]) -> int:
    """Delete the tenant's memory, the ImportRun marker last (while it stands, a re-run knows
    the rest is an unfinished import)."""
    deleted = 0
    for label in labels:
        deleted += await graph.auto_commit(PURGE.format(label=identifier(label, "label")))
    for query in term_stats.PURGE.values():  # not in the file, and no memory: not counted
        await graph.auto_commit(query)
    deleted += await graph.auto_commit(PURGE.format(label=RUN_LABEL))
    return deleted


ENTITY_GROUPS = tenant_statements("0018_")
SUBJECT_HEADS = tenant_statements("0020_") + tenant_statements("0021_")


async def import_tenant(svc: Services, path: Path, tenant: str | None = None, reembed_all: bool = False,
                        keep_ids: bool = False, discard_unfinished: bool = False) -> ImportReport:
    t0 = time.perf_counter()
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    embedder = svc.require_embedder()
    schema = await read_schema(svc.driver, svc.settings.neo4j_database)
    first = next(read_lines(path), None)
    if first is None:
        raise BackupError(f"{path} is empty, not an Engram export")
    header = check_header(first[1], path)
    target = check_tenant(tenant or header["tenant"])
    await check_index_word(svc.driver, svc.settings.neo4j_database, target)
    remap = target != header["tenant"] and not keep_ids
    model = header["model"]
    same_model = (model.get("name") == svc.settings.embedding_model
                  and model.get("dimensions") == embedder.dimensions)
    plan = _check_file(path, schema, remap, reembed_all, same_model)

    graph = TenantGraph(svc.driver, target, svc.settings.neo4j_database)
    rep = ImportReport(target, header["tenant"], ids_remapped=remap)
    labels = sorted(set(schema.memory_labels) | plan.labels)
    runs = await graph.read(RUNS)
    holding = await _labels_with_data(graph, labels)
    if runs:
        run = runs[0]
        if run["exportId"] != header["exportId"] and not discard_unfinished:
            raise BackupError(
                f"tenant {target} holds an unfinished import of another export ({run['file']}, "
                f"export {run['exportId']}, started {run['startedAt']}); run that import again to "
                "finish it, or pass --discard-unfinished to delete it and import this file")
        rep.purged_unfinished = await _purge(graph, labels)
    elif holding:
        raise BackupError(f"tenant {target} is not empty (it holds {', '.join(holding)} nodes); "
                          "import into an empty tenant (--tenant NAME), or forget everything first")

    begun = await graph.write(BEGIN, exportId=header["exportId"], sourceTenant=header["tenant"], file=str(path))
    if not begun or not begun[0]["begun"]:
        raise BackupError(f"tenant {target} was written to just now; import into an empty tenant")
    importer = _Importer(svc, graph, plan, schema, remap, reembed_all)
    try:
        await importer.load(path)
        rep.reembedded = await reembed(graph, embedder, svc.settings)
        # Words cut again from the text: an export of an older version counted them otherwise.
        await term_stats.rebuild(graph, recount_terms=True)
        nodes, rels = await importer.graph_counts(sorted(plan.labels))
        if nodes != header["counts"]["nodes"] or rels != header["counts"]["relationships"]:
            raise BackupError(f"after the import tenant {target} holds {nodes} / {rels}, "
                              f"not the {header['counts']} of the file (was it written to meanwhile?)")
        # An export made before entities were a group's holds entities of no group: made its
        # groups' as the migration did (after the count check: it may add entities).
        for stmt in ENTITY_GROUPS + SUBJECT_HEADS:  # (and values their short names' index key)
            await graph.auto_commit(stmt)
        done = await graph.write(COMMIT, exportId=header["exportId"])
        if done[0]["n"] != 1:
            raise BackupError(f"the import marker of tenant {target} vanished: another import or a "
                              "purge ran at the same time")
    except BaseException as e:
        # Nothing half-imported stays behind; if even this fails (or the process is killed),
        # the ImportRun node is still there and a re-run purges.
        try:
            await _purge(graph, labels)
        except Exception:  # noqa: BLE001 - the original error is the one to report
            pass
        if isinstance(e, ConstraintError):
            raise BackupError(f"an id of the file already exists in the database ({e.message}); "
                              "import under another tenant name without --keep-ids") from None
        raise
    rep.nodes, rep.relationships = importer.nodes, importer.rels
    rep.seconds = time.perf_counter() - t0
    return rep
