"""Backup: `engram export` and `engram import` against the real Neo4j.

A tenant exported and imported under another name holds the same graph (every node, edge and
property value, with new memory ids) and answers every search method as the original; recomputed
vectors equal the ones ingestion made; bad files and non-empty tenants change nothing; an
interrupted import is finished by running it again.
"""
from __future__ import annotations

import gzip
import json
from collections import Counter
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from app.construction.ingest import Ingestor
from app.lifecycle.backup_export import export_tenant
from app.lifecycle.backup_format import EXCLUDED_LABELS, BackupError, check_header, read_lines, remap_id
from app.lifecycle.backup_import import BEGIN, _check_file, _Importer, import_tenant
from app.lifecycle.backup_schema import read_schema
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from app.store.graph import TenantError, TenantGraph
from tests.conversation import DAY2, maya_and_sam
from tests.test_keyword_stats import _stored_stats

LATER = [  # a third day, and a second conversation, so scenes, supersession and NEXT chains exist
    ("n1", "Maya", "I've been practising the cello every evening after work."),
    ("n2", "Sam", "Nice. Did the robot team ever pick a name?"),
    ("n3", "Maya", "Yes, we called the robot Zorblax, after a comic."),
    ("n4", "Maya", "Melanie Hart works at Acme Labs in Porto as a chemist."),
]
QUERIES = ("Where does Maya live now?", "Zorblax", "Which musical instrument does she play?",
           "Tell me about Maya's friend Melanie", "Can you suggest a good place for dinner tonight?",
           "peanut allergy", "Tokyo conference trip")
METHODS = (Method.HYBRID, Method.KEYWORD, Method.VECTOR, Method.GRAPH)


def _messages(rows, start) -> list[dict]:
    return [{"id": i, "speaker": s, "content": c, "timestamp": start + timedelta(minutes=k)}
            for k, (i, s, c) in enumerate(rows)]


async def _ingest(services, tenant: str) -> None:
    ing = Ingestor(services)
    await ing.memorize(tenant, "c1", maya_and_sam(), flush=True)
    await ing.memorize(tenant, "c2", _messages(LATER, DAY2 + timedelta(days=10)), flush=True)
    # left pending: an open episode whose turns already carry vectors
    await ing.memorize(tenant, "c3", _messages([("p1", "Sam", "I might adopt a greyhound.")],
                                               DAY2 + timedelta(days=12)))


@pytest.fixture
async def memory(services, graph):
    await _ingest(services, graph.tenant)
    return graph


@pytest.fixture
def other(services, tenant) -> TenantGraph:
    return TenantGraph(services.driver, tenant + "_copy", services.settings.neo4j_database)


async def _counts(graph: TenantGraph) -> tuple[Counter, Counter]:
    """Nodes per label set and edges per type of the tenant (transient labels left out)."""
    nodes = await graph.read("MATCH (n) WHERE n.tenant = $tenant RETURN labels(n) AS l, count(*) AS n")
    rels = await graph.read("""MATCH (a)-[r]->(b) WHERE a.tenant = $tenant AND b.tenant = $tenant
                               RETURN type(r) AS t, count(*) AS n""")
    return (Counter({":".join(sorted(r["l"])): r["n"] for r in nodes
                     if not EXCLUDED_LABELS.intersection(r["l"])}),
            Counter({r["t"]: r["n"] for r in rels}))


async def _minted_ids(graph: TenantGraph) -> set[str]:
    rows = await graph.read("""MATCH (n) WHERE n.tenant = $tenant
                               AND (n:MemCell OR n:Fact OR n:Entity OR n:Foresight OR n:MemScene)
                               RETURN collect(n.id) AS ids""")
    return set(rows[0]["ids"])


def _canonical(path: Path, rename) -> tuple[Counter, Counter]:
    """The file's graph without file keys, exporting tenant or ids: every node as its labels and
    property values, every edge as its type, properties and its two nodes."""
    def clean(props: dict) -> dict:
        return {k: rename(v) for k, v in props.items() if k not in ("tenant", "importReembed")}

    nodes: dict[int, str] = {}
    rels: list[str] = []
    for _, obj in list(read_lines(path))[1:]:
        if obj["kind"] == "node":
            nodes[obj["key"]] = json.dumps([obj["labels"], clean(obj["props"])], sort_keys=True)
        else:
            rels.append(json.dumps([obj["type"], nodes[obj["start"]], nodes[obj["end"]],
                                    clean(obj["props"])], sort_keys=True))
    return Counter(nodes.values()), Counter(rels)


async def _hits(services, tenant: str, rename=lambda x: x) -> dict:
    searcher = SearchService(services)
    out = {}
    for method in METHODS:
        for q in QUERIES:
            res = await searcher.search(tenant, SearchRequest(query=q, method=method, top_k=10, now=DAY2))
            out[(method, q)] = [(h.kind, rename(h.node.get("id")), round(h.score, 9),
                                 [e["id"] for e in h.evidence]) for h in res.hits]
    return out


def _assert_same_results(before: dict, after: dict, top: int = 5) -> None:
    """KEYWORD and GRAPH: the same hits (ids, kinds, scores, evidence) in the same order.
    VECTOR and HYBRID: the same evidence turns in the same order for the top hits only. A fact
    that reuses its turn's vector ties with the turn, and the search breaks such ties by element
    id, which no restore can preserve: the tie may go the other way (a fact hit instead of its
    turn), and the ranks it shifts reorder the tail a little."""
    for key, hits in before.items():
        if key[0] in (Method.KEYWORD, Method.GRAPH):
            assert after[key] == hits, key
        else:
            assert [h[3] for h in after[key][:top]] == [h[3] for h in hits[:top]], key


async def test_round_trip_into_another_tenant_keeps_graph_and_search_results(services, memory, other, tmp_path):
    path = tmp_path / "a.jsonl"
    rep = await export_tenant(services, memory.tenant, path)
    header = check_header(json.loads(path.read_text().splitlines()[0]), path)
    assert header["tenant"] == memory.tenant and header["embeddings"] is True
    assert header["model"] == {"name": services.settings.embedding_model,
                               "dimensions": services.embedder.dimensions}
    source_counts = await _counts(memory)
    assert Counter(header["counts"]["nodes"]) == source_counts[0] == Counter(rep.nodes)
    assert Counter(header["counts"]["relationships"]) == source_counts[1]
    assert {"Turn", "MemCell", "Fact", "Entity", "Foresight", "Conversation"} <= set(rep.nodes)

    imported = await import_tenant(services, path, other.tenant)
    assert imported.ids_remapped and imported.reembedded == {}
    assert await _counts(other) == source_counts
    # Keyword statistics are not in the file: the import counts them anew, to the same values.
    assert "TermStat" not in rep.nodes
    assert await _stored_stats(other) == await _stored_stats(memory) != {}

    minted = await _minted_ids(memory)
    assert minted and not minted & await _minted_ids(other)  # ids are unique across tenants

    def rename(v):
        if isinstance(v, str) and v in minted:
            return remap_id(other.tenant, v)
        return [rename(x) for x in v] if isinstance(v, list) else v

    # Every property value, vectors and typed datetimes included, survives: the copy exported
    # again is the original file with the new ids.
    again = tmp_path / "b.jsonl"
    await export_tenant(services, other.tenant, again)
    assert _canonical(again, lambda v: v) == _canonical(path, rename)

    before = await _hits(services, memory.tenant, rename)
    after = await _hits(services, other.tenant)
    assert sum(len(h) for h in before.values()) > 50
    _assert_same_results(before, after)


async def test_no_embeddings_export_and_reembed_give_the_vectors_ingestion_made(services, memory, other, tmp_path):
    full, slim = tmp_path / "full.jsonl", tmp_path / "slim.jsonl.gz"
    await export_tenant(services, memory.tenant, full)
    await export_tenant(services, memory.tenant, slim, embeddings=False)
    with gzip.open(slim, "rt") as f:
        text = f.read()
    assert '"embedding":{"$t":"omitted"}' in text and len(text) < full.stat().st_size / 3

    rep = await import_tenant(services, slim, other.tenant)
    made = {label: s["made"] for label, s in rep.reembedded.items()}
    assert made["Turn"] == 14 and made["MemCell"] > 0 and made["Fact"] > 0 and made["Entity"] > 0
    assert all(s["missing"] == 0 for s in rep.reembedded.values())

    q = """MATCH (n) WHERE n.tenant = $tenant AND n.embedding IS NOT NULL
           RETURN labels(n)[0] AS label, coalesce(n.key, n.id) AS id, n.embedding AS v"""
    original = {(r["label"], r["id"]): r["v"] for r in await memory.read(q)}
    minted = await _minted_ids(memory)
    copy = {(r["label"], r["id"]): r["v"] for r in await other.read(q)}
    assert len(copy) == len(original)
    for (label, node_id), v in original.items():
        mapped = remap_id(other.tenant, node_id) if node_id in minted else node_id
        np.testing.assert_allclose(copy[(label, mapped)], v, atol=2e-5, err_msg=f"{label} {node_id}")
    assert await other.read("MATCH (n) WHERE n.tenant = $tenant AND n.importReembed RETURN n") == []

    def rename(v):
        return remap_id(other.tenant, v) if v in minted else v

    _assert_same_results(await _hits(services, memory.tenant, rename), await _hits(services, other.tenant))


async def test_reembed_of_a_full_export_and_a_model_mismatch(services, memory, other, tmp_path):
    path, foreign = tmp_path / "a.jsonl", tmp_path / "foreign.jsonl"
    await export_tenant(services, memory.tenant, path)
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["model"] = {"name": "some-other-model", "dimensions": 768}
    foreign.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with pytest.raises(BackupError, match="--reembed"):
        await import_tenant(services, foreign, other.tenant)
    assert await _counts(other) == (Counter(), Counter())
    rep = await import_tenant(services, foreign, other.tenant, reembed_all=True)
    assert rep.reembedded["Turn"]["made"] == 14
    assert await _counts(other) == await _counts(memory)


async def test_import_into_a_name_the_fulltext_indexes_drop_is_refused(services, memory, tmp_path):
    # As for a key: "the" is a stop word to the indexes' analyzer, so the keyword channel's
    # Lucene query could not narrow candidates to that tenant.
    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    # Compared with before, not with 0: the test database outlives runs of older code.
    count = "MATCH (n) WHERE n.tenant = 'the' AND $tenant IS NOT NULL RETURN count(n) AS n"
    before = (await memory.read(count))[0]["n"]
    with pytest.raises(TenantError, match="stop word"):
        await import_tenant(services, path, "the")
    assert (await memory.read(count))[0]["n"] == before


async def test_import_into_a_non_empty_tenant_is_refused_and_changes_nothing(services, memory, other, tmp_path):
    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    before = await _counts(memory)
    with pytest.raises(BackupError, match="not empty"):
        await import_tenant(services, path)  # the original name, which still holds its memory
    assert await _counts(memory) == before
    await Ingestor(services).memorize(other.tenant, "x", _messages([("x1", "Ann", "Hello there.")], DAY2),
                                      flush=True)
    small = await _counts(other)
    with pytest.raises(BackupError, match="not empty"):
        await import_tenant(services, path, other.tenant)
    assert await _counts(other) == small


def _variants(lines: list[str]) -> dict[str, str]:
    header = json.loads(lines[0])
    node = json.loads(lines[1])
    return {
        "cut mid-line": "".join(lines)[: sum(map(len, lines)) - 40],
        "last lines lost": "".join(lines[:-3]),
        "only the header": lines[0],
        "not an export": '{"hello": "world"}\n',
        "not json": "Maya,Berlin\n",
        "empty": "",
        "unknown version": json.dumps({**header, "version": 99}) + "\n" + "".join(lines[1:]),
        "a credential smuggled in": lines[0] + json.dumps(
            {**node, "key": 10**6, "labels": ["ApiKey"]}) + "\n" + "".join(lines[1:]),
        # Consistent in itself (its counts match), so only the label can refuse it.
        "a forged migration record": json.dumps(
            {**header, "counts": {"nodes": {"Migration": 1}, "relationships": {}}}) + "\n" + json.dumps(
            {"kind": "node", "key": 0, "labels": ["Migration"],
             "props": {"name": "0001_constraints.cypher", "checksum": "deadbeef"}}) + "\n",
        "a label no export holds": lines[0] + json.dumps(
            {**node, "key": 10**6, "labels": ["Account"]}) + "\n" + "".join(lines[1:]),
        "a label that is Cypher": "".join(lines[:1]) + json.dumps(
            {**node, "labels": ["Turn) DETACH DELETE (x"]}) + "\n" + "".join(lines[2:]),
        "an edge to nowhere": "".join(lines) + json.dumps(
            {"kind": "rel", "type": "NEXT", "start": 0, "end": 10**6, "props": {}}) + "\n",
        "an unknown value tag": "".join(lines[:1]) + json.dumps(
            {**node, "props": {**node["props"], "x": {"$t": "weird"}}}) + "\n" + "".join(lines[2:]),
    }


async def test_bad_files_give_a_clear_error_and_leave_the_tenant_empty(services, memory, other, tmp_path):
    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    lines = path.read_text().splitlines(keepends=True)
    async def service_wide() -> int:  # nodes of no tenant: read past the tenant-scoped layer
        async with services.driver.session(database=services.settings.neo4j_database) as s:
            return (await (await s.run("MATCH (m) WHERE m:Migration OR m:DataMigration "
                                       "RETURN count(m) AS n")).single())["n"]

    migrations = await service_wide()
    for name, text in _variants(lines).items():
        bad = tmp_path / "bad.jsonl"
        bad.write_text(text)
        with pytest.raises(BackupError) as err:
            await import_tenant(services, bad, other.tenant)
        assert str(bad) in str(err.value) or "identifier" in str(err.value), name
        assert await _counts(other) == (Counter(), Counter()), name
        assert await other.read("MATCH (r:ImportRun {tenant: $tenant}) RETURN r") == [], name
        assert await service_wide() == migrations, name


async def test_a_failure_half_way_purges_what_was_written(services, memory, other, tmp_path):
    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    # Keeping ids under another name collides with the original's ids once the first node of
    # a label with unique ids is written, after the conversations went in.
    with pytest.raises(BackupError, match="already exists"):
        await import_tenant(services, path, other.tenant, keep_ids=True)
    assert await _counts(other) == (Counter(), Counter())
    assert await other.read("MATCH (r:ImportRun {tenant: $tenant}) RETURN r") == []


async def test_an_interrupted_import_is_finished_by_running_it_again(services, memory, other, tmp_path):
    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    # The state a killed import leaves: its marker and part of the graph (here: all nodes and
    # edges, no vectors recomputed, no commit), written by the importer's own steps.
    schema = await read_schema(services.driver, services.settings.neo4j_database)
    header = json.loads(path.read_text().splitlines()[0])
    plan = _check_file(path, schema, True, False, True)
    await other.write(BEGIN, exportId=header["exportId"], sourceTenant=memory.tenant, file=str(path))
    await _Importer(services, other, plan, schema, True, False).load(path)
    assert (await _counts(other))[0]["Turn"] == 14

    # Another file refuses to land on it, unless told to discard it.
    again = tmp_path / "again.jsonl"
    await export_tenant(services, memory.tenant, again)
    with pytest.raises(BackupError, match="unfinished import of another export"):
        await import_tenant(services, again, other.tenant)
    # The same file: the half-import is purged and the import done.
    rep = await import_tenant(services, path, other.tenant)
    assert rep.purged_unfinished > 0
    assert await _counts(other) == await _counts(memory)
    assert await other.read("MATCH (r:ImportRun {tenant: $tenant}) RETURN r") == []


async def test_a_tenant_being_imported_takes_no_writes_so_a_failed_import_loses_none(services, memory,
                                                                                      other, tmp_path):
    from app.construction.turns import InputError
    from app.store.admin import conversations_with_failed_turns, tenants_with_memory

    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    schema = await read_schema(services.driver, services.settings.neo4j_database)
    header = json.loads(path.read_text().splitlines()[0])
    begun = await other.write(BEGIN, exportId=header["exportId"], sourceTenant=memory.tenant, file=str(path))
    assert begun == [{"begun": 1}]
    await _Importer(services, other, _check_file(path, schema, True, False, True), schema, True, False).load(path)
    await other.write("MATCH (t:Turn {tenant: $tenant}) SET t.error = 'failed'")
    # A client's call is refused, nothing of it stored (the import's purge would take it).
    before = await _counts(other)
    with pytest.raises(InputError, match="being restored"):
        await Ingestor(services).memorize(other.tenant, "c9", _messages([("z1", "Sam", "Hello")], DAY2))
    with pytest.raises(InputError, match="being restored"):
        await Ingestor(services).memorize(other.tenant, "c1", _messages([("z2", "Sam", "Hello")], DAY2))
    # Nor may a flush or a resend of what the import wrote start a run on the import's turns.
    await other.write("MATCH (t:Turn {tenant: $tenant, conversationId: 'c1'}) SET t.status = 'pending'")
    before = await _counts(other)
    with pytest.raises(InputError, match="being restored"):
        await Ingestor(services).memorize(other.tenant, "c1", [], flush=True)
    stored = (await other.read("MATCH (t:Turn {tenant: $tenant, conversationId: 'c1'}) "
                               "RETURN t.id AS id, t.speaker AS speaker, t.content AS content, "
                               "t.at AS at ORDER BY t.seq LIMIT 1"))[0]
    resend = [{"id": stored["id"], "speaker": stored["speaker"], "content": stored["content"],
               "timestamp": stored["at"].to_native()}]
    with pytest.raises(InputError, match="being restored"):
        await Ingestor(services).memorize(other.tenant, "c1", resend, flush=True)
    assert await _counts(other) == before
    # The housekeeping leaves it alone (the import checks its counts at the end).
    assert other.tenant not in await tenants_with_memory(services.driver)
    assert memory.tenant in await tenants_with_memory(services.driver)
    assert other.tenant not in {t for t, *_ in await conversations_with_failed_turns(services.driver, 0)}
    # Finished, it takes writes again; a tenant with a conversation cannot begin an import.
    await import_tenant(services, path, other.tenant)
    await Ingestor(services).memorize(other.tenant, "c9", _messages([("z1", "Sam", "Hello")], DAY2))
    assert await other.write(BEGIN, exportId="x", sourceTenant="y", file="z") == [{"begun": 0}]
    assert await other.read("MATCH (r:ImportRun {tenant: $tenant}) RETURN r") == []


async def test_export_holds_nothing_of_another_tenant(services, memory, other, tmp_path):
    # The same conversation ids, message ids and names in another tenant, plus a secret.
    await _ingest(services, other.tenant)
    await Ingestor(services).memorize(other.tenant, "c1", _messages(
        [("m99", "Maya", "My locker code is octarine, keep it secret.")], DAY2 + timedelta(days=30)), flush=True)
    path = tmp_path / "a.jsonl"
    rep = await export_tenant(services, memory.tenant, path)
    text = path.read_text()
    assert other.tenant not in text and "octarine" not in text and '"m99"' not in text
    assert Counter(rep.nodes) == (await _counts(memory))[0]
    turn_ids = [json.loads(x)["props"]["id"] for x in text.splitlines()[1:] if '"labels":["Turn"]' in x]
    assert sorted(turn_ids) == sorted([f"m{i}" for i in range(1, 10)] + ["n1", "n2", "n3", "n4", "p1"])


def test_cli_export_and_import(memory, settings, tmp_path, monkeypatch):
    """The two commands as a user types them (typer's runner, in this process)."""
    from app.cli import app
    from app.settings import get_settings

    for name in ("neo4j_uri", "neo4j_user", "neo4j_password", "neo4j_database"):
        monkeypatch.setenv(f"ENGRAM_{name.upper()}", str(getattr(settings, name)))
    get_settings.cache_clear()
    path, copy = tmp_path / "cli.jsonl", memory.tenant + "_cli"
    runner = CliRunner()

    def out(res) -> str:  # rich wraps long lines at the terminal width
        return " ".join(res.output.split())

    res = runner.invoke(app, ["export", "--tenant", memory.tenant, str(path)])
    assert res.exit_code == 0, res.output
    assert f"exported tenant {memory.tenant}" in out(res) and path.exists()
    res = runner.invoke(app, ["import", str(path), "--tenant", copy])
    assert res.exit_code == 0, res.output
    assert f"into tenant {copy}" in out(res) and "memory ids renewed" in out(res)
    res = runner.invoke(app, ["import", str(path), "--tenant", copy])
    assert res.exit_code == 1 and "not empty" in out(res)
    not_export = tmp_path / "notes.json"
    not_export.write_text('{"notes": []}\n')
    res = runner.invoke(app, ["import", str(not_export), "--tenant", memory.tenant + "_x"])
    assert res.exit_code == 1 and "not an Engram export" in out(res)
    get_settings.cache_clear()


async def test_an_export_made_before_entities_were_a_groups_is_imported_as_its_groups(services, memory, other,
                                                                                      tmp_path):
    path = tmp_path / "a.jsonl"
    await export_tenant(services, memory.tenant, path)
    old = tmp_path / "old.jsonl"
    with old.open("w") as out:  # as an Engram before migration 0018 wrote it: no entity is a group's
        for line in path.read_text().splitlines(keepends=True):
            row = json.loads(line)
            if row.get("labels") == ["Entity"]:
                row["props"] = {k: v for k, v in row["props"].items() if k not in ("groupKey", "groupId")}
                line = json.dumps(row) + "\n"
            out.write(line)
    await import_tenant(services, old, other.tenant)
    rows = await other.read("MATCH (e:Entity {tenant: $tenant}) RETURN e.groupKey AS g, count(*) AS n")
    assert rows and all(r["g"] == "" for r in rows)  # its conversations have no group
    assert await _counts(other) == await _counts(memory)
    # Resolution finds the imported entities: a later mention of Maya is the same Maya.
    await Ingestor(services).memorize(other.tenant, "c9", _messages([("z1", "Sam", "Maya called me today.")],
                                                                    DAY2 + timedelta(days=20)), flush=True)
    mayas = await other.read("MATCH (e:Entity {tenant: $tenant, key: 'maya'}) RETURN e.id AS id")
    assert len(mayas) == 1
