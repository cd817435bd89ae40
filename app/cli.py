"""The `engram` command line."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import typer
from rich.console import Console

from app.runtime import neo4j_local
from app.settings import get_settings

console = Console()
# Errors go to stderr: `KEY=$(engram keys create --tenant bad-name)` had put "error: ..." in KEY.
err_console = Console(stderr=True)
app = typer.Typer(no_args_is_help=True, add_completion=False, help="Engram: graph-native long-term memory for LLM agents.")
neo4j_app = typer.Typer(no_args_is_help=True, help="The local Neo4j server (installed from Maven Central).")
app.add_typer(neo4j_app, name="neo4j")


def _echo(msg: str) -> None:
    console.print(msg, highlight=False)


def _fail(exc: Exception) -> None:
    err_console.print(f"[red]error:[/red] {exc}", highlight=False)
    raise typer.Exit(1)


@neo4j_app.command("install")
def neo4j_install() -> None:
    """Fetch Neo4j Community and Neo4j Browser into .engram/neo4j (a no-op when present)."""
    try:
        neo4j_local.install(get_settings(), _echo)
    except neo4j_local.Neo4jRuntimeError as e:
        _fail(e)


@neo4j_app.command("start")
def neo4j_start() -> None:
    """Start the local server (installing it first if needed) and wait until Bolt answers."""
    try:
        neo4j_local.ensure_running(get_settings(), _echo)
    except neo4j_local.Neo4jRuntimeError as e:
        _fail(e)


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the server started by `engram neo4j start` (and nothing else)."""
    neo4j_local.stop(get_settings(), _echo)


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Installed? Running? Where?"""
    st = neo4j_local.status(get_settings())
    _echo(f"version   {st.version}\ninstalled {st.installed}\nrunning   {st.running}"
          + (f" (pid {st.pid})" if st.pid else "")
          + f"\nbolt      {st.bolt_url}\nbrowser   {st.browser_url}\nhome      {st.home}")
    if not st.running:
        raise typer.Exit(3)


@app.command()
def migrate() -> None:
    """Apply pending schema migrations (cypher/migrations) to the configured Neo4j."""
    from app.runtime.services import open_services

    async def run() -> list[str]:
        async with open_services(get_settings(), load_model=True) as svc:
            return svc.migrations_applied

    try:
        applied = asyncio.run(run())
    except neo4j_local.Neo4jRuntimeError as e:
        _fail(e)
    _echo("applied: " + (", ".join(applied) if applied else "nothing (up to date)"))


@app.command()
def serve(host: str = typer.Option(None, help="bind address (default ENGRAM_HOST)"),
          port: int = typer.Option(None, help="port (default ENGRAM_PORT)")) -> None:
    """Run the API (uvicorn). Starts the local Neo4j first when no ENGRAM_NEO4J_URI is set."""
    import uvicorn

    settings = get_settings()
    host = host or settings.host
    port = port or settings.port
    if not settings.neo4j_uri:
        try:
            neo4j_local.ensure_running(settings, _echo)
        except neo4j_local.Neo4jRuntimeError as e:
            _fail(e)
    # The app reads its settings again (create_app): the address it checks (no API key: loopback
    # only) must be the one uvicorn binds, --host included.
    os.environ["ENGRAM_HOST"], os.environ["ENGRAM_PORT"] = host, str(port)
    get_settings.cache_clear()
    _echo(f"Engram API on http://{host}:{port}/graphql")
    # On SIGTERM a request still running gets 5 s (a memorize waiting for its run: its turns are
    # stored, the drain that follows processes them), then the server drains (ENGRAM_SHUTDOWN_DRAIN_S).
    uvicorn.run("app.api.main:create_app", factory=True, host=host, port=port, log_level="info",
                timeout_graceful_shutdown=5)


def _run_with_services(fn):
    """Run `fn(services)` against the configured Neo4j (starting the local one if needed)."""
    from app.runtime.heap import freeze_startup_heap
    from app.runtime.services import open_services

    settings = get_settings()
    if not settings.neo4j_uri:
        try:
            neo4j_local.ensure_running(settings, _echo)
        except neo4j_local.Neo4jRuntimeError as e:
            _fail(e)

    async def run():
        async with open_services(settings, load_model=True) as svc:
            # As `engram serve` does: benchmarks measure what the server would do.
            freeze_startup_heap()
            return await fn(svc)

    return asyncio.run(run())


@app.command()
def ingest(file: Path = typer.Argument(..., exists=True, dir_okay=False, help="LoCoMo-layout JSON"),
           tenant: str = typer.Option("default", help="tenant to write into")) -> None:
    """Ingest conversations from a LoCoMo-layout JSON file (one call per session, then flush)."""
    from rich.progress import Progress

    from app.construction.ingest import Ingestor
    from app.evaluation.locomo import load_locomo
    from app.evaluation.runner import sessions_of

    convs = load_locomo(file)

    async def work(svc):
        ing = Ingestor(svc)
        total = {"turns": 0, "cells": 0, "facts": 0, "entities": 0, "foresights": 0}

        def processed(report) -> None:
            for k in ("cells", "facts", "entities", "foresights"):
                total[k] += getattr(report, k)

        # Sessions are streamed (wait: false): the model embeds the next ones while the graph
        # takes the earlier ones; the command ends when everything is processed.
        ing.queue.on_report = processed
        with Progress(console=console) as prog:
            task = prog.add_task("storing", total=sum(len(c.turns) for c in convs))
            for conv in convs:
                sessions = sessions_of(conv)
                for i, sess in enumerate(sessions):
                    r = await ing.memorize(tenant, conv.sample_id, sess, flush=i == len(sessions) - 1,
                                           wait=False)
                    total["turns"] += r.accepted
                    prog.advance(task, len(sess))
            prog.update(task, description="processing")
            await ing.drain()
        return total

    try:
        total = _run_with_services(work)
    except Exception as e:  # noqa: BLE001 - one clear line for the user
        _fail(e)
    _echo(" ".join(f"{k}={v}" for k, v in total.items()))


@app.command()
def retry(tenant: str = typer.Option(..., help="tenant whose pending turns to process"),
          flush: bool = typer.Option(False, help="also close open cells")) -> None:
    """Process pending turns again (after a failed extraction, or a crash)."""
    from app.construction.ingest import Ingestor

    async def work(svc):
        return await Ingestor(svc).retry(tenant, flush)

    reports = _run_with_services(work)
    for conv, r in reports.items():
        _echo(f"{conv}: cells={r.cells} facts={r.facts} pending={r.pending} errors={len(r.errors)}")


@app.command()
def consolidate(tenant: str = typer.Option("default", help="tenant whose episodes to re-cluster"),
                group: str = typer.Option(None, help="only this group (default: every group)")) -> None:
    """Re-cluster a tenant's episodes into scenes: cells move, scenes merge, split, archive."""
    from app.lifecycle.scenes import SceneService
    from app.store.graph import TenantGraph

    async def work(svc):
        graph = TenantGraph(svc.driver, tenant, svc.settings.neo4j_database)
        return await SceneService(svc.settings, svc.require_embedder()).consolidate(graph, group)

    try:
        r = _run_with_services(work)
    except Exception as e:  # noqa: BLE001 - one clear line for the user
        _fail(e)
    _echo(f"groups={r.groups} cells={r.cells} scenes={r.scenes} created={r.created} merged={r.merged} "
          f"split={r.split} moved={r.moved} dropped={r.dropped} archived={r.archived} "
          f"seconds={sum(r.seconds.values()):.2f}")


keys_app = typer.Typer(no_args_is_help=True, help="API keys: one key, one tenant.")
app.add_typer(keys_app, name="keys")


def _with_keys(fn):
    from app.store.driver import make_driver
    from app.store.keys import KeyStore

    settings = get_settings()
    if not settings.neo4j_uri:
        neo4j_local.ensure_running(settings, lambda m: None)

    async def run():
        driver = make_driver(settings)
        try:
            return await fn(KeyStore(driver, settings.neo4j_database))
        finally:
            await driver.close()

    return asyncio.run(run())


@keys_app.command("create")
def keys_create(tenant: str = typer.Option(..., help="the tenant this key reads and writes"),
                name: str = typer.Option(None, help="a label to recognise the key by")) -> None:
    """Create a key and print it once (only its hash is stored)."""
    from app.store.graph import TenantError

    try:
        key = _with_keys(lambda ks: ks.create(tenant, name))
    except TenantError as e:
        _fail(e)
    print(key)


@keys_app.command("list")
def keys_list(tenant: str = typer.Option(None, help="only this tenant's keys")) -> None:
    """List keys by prefix (the keys themselves are not stored)."""
    for k in _with_keys(lambda ks: ks.list(tenant)):
        state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "active"
        _echo(f"{k.prefix}…  tenant={k.tenant}  {state}  created {k.created_at:%Y-%m-%d %H:%M}"
              + (f"  ({k.name})" if k.name else ""))


@keys_app.command("revoke")
def keys_revoke(prefix: str = typer.Argument(..., help="the key's prefix as `keys list` shows it")) -> None:
    """Revoke a key: requests with it are refused from now on."""
    n = _with_keys(lambda ks: ks.revoke(prefix))
    if not n:
        _fail(ValueError(f"no active key with prefix {prefix!r}"))
    _echo(f"revoked {n} key(s)")


schema_app = typer.Typer(no_args_is_help=True, help="The GraphQL schema file.")
app.add_typer(schema_app, name="schema")
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "graphql" / "schema.graphql"


@schema_app.command("export")
def schema_export(out: Path = typer.Option(SCHEMA_FILE, help="where to write the SDL")) -> None:
    """Write graphql/schema.graphql from the code."""
    from app.api.schema import schema

    out.write_text(schema.as_str() + "\n")
    _echo(f"wrote {out}")


eval_app = typer.Typer(no_args_is_help=True, help="Evaluation through the service itself.")
app.add_typer(eval_app, name="eval")


@eval_app.command("locomo")
def eval_locomo(
    data: Path = typer.Option(..., exists=True, dir_okay=False, help="LoCoMo-layout JSON"),
    out: Path = typer.Option(..., help="output directory"),
    methods: str = typer.Option("hybrid,keyword,vector,graph", help="comma-separated methods"),
    k: str = typer.Option("5,10,25,50", help="cut-offs for recall@k"),
    limit: int = typer.Option(None, help="questions per conversation"),
    conversations: int = typer.Option(None, help="only the first N conversations"),
    keep: bool = typer.Option(False, help="keep the evaluation tenants in the graph"),
    answer: bool = typer.Option(False, help="LLM answers from the HYBRID context, LLM judge, F1"),
    fit_ranker: Path = typer.Option(None, help="write ranker weights fitted on these conversations "
                                    "here (app/recollection/ranker.json ships them)"),
    fit_adapter: Path = typer.Option(None, help="write a query adapter fitted on these conversations "
                                     "here (app/recollection/query_adapter.npy ships it)"),
    shipped: bool = typer.Option(False, help="search through the shipped query adapter, none fitted "
                                 "on the other conversations (for a held-out set)"),
) -> None:
    """Recall of evidence turns on LoCoMo, with BM25 and dense baselines in the same run; each
    conversation searched through a query adapter fitted on the others; HYBRID also with ranker
    weights fitted on the other conversations only (hybrid_cv)."""
    from rich.progress import BarColumn, Progress, TextColumn

    from app.evaluation.runner import EvalConfig, run_locomo

    cfg = EvalConfig(methods=[m.strip().lower() for m in methods.split(",") if m.strip()],
                     ks=tuple(int(x) for x in k.split(",")), limit=limit,
                     conversations=conversations, keep=keep, answer=answer, fit_ranker=fit_ranker,
                     fit_adapter=fit_adapter, shipped=shipped)
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  console=console, transient=True) as prog:
        tasks: dict[str, int] = {}

        def progress(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = prog.add_task(label, total=total)
            prog.update(tasks[label], completed=done, total=total)

        summary = _run_with_services(lambda svc: run_locomo(svc, data, out, cfg, progress))
    console.print((out / "summary.md").read_text(), highlight=False)
    print(summary["final_line"])


bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks; results go to bench/results/.")
app.add_typer(bench_app, name="bench")


@bench_app.command("ingest")
def bench_ingest_cmd(data: Path = typer.Option(Path("../shared/data/locomo-dev.json"), exists=True,
                                               dir_okay=False, help="LoCoMo-layout JSON"),
                     conversations: int = typer.Option(None, help="only the first N"),
                     wait: bool = typer.Option(False, help="wait for each session's processing "
                                               "(default: stream the sessions, wait: false)")) -> None:
    """Turns/s through memorize vs embedding the same texts alone."""
    import json as _json

    from app.evaluation.bench import bench_ingest, render_results_readme

    result = _run_with_services(lambda svc: bench_ingest(svc, data, conversations, wait))
    render_results_readme()
    print(_json.dumps(result))


@bench_app.command("search")
def bench_search_cmd(sizes: str = typer.Option("10000,100000", help="MemCells of the big tenant"),
                     tenants: int = typer.Option(20, help="tenants in the graph (>= 20)"),
                     queries: int = typer.Option(200, help="queries per size"),
                     keep: bool = typer.Option(False, help="keep the synthetic tenants")) -> None:
    """HYBRID search latency on a synthetic tenant-mixed graph, with the bare vector query."""
    import json as _json

    from app.evaluation.bench import bench_search, render_results_readme

    result = _bench_with_progress(lambda svc, progress: bench_search(
        svc, [int(x) for x in sizes.split(",")], tenants, queries, keep=keep, progress=progress))
    render_results_readme()
    print(_json.dumps(result))


@app.command()
def gc(tenant: str = typer.Option(None, help="only this tenant (default: every tenant with memory)"),
       now: str = typer.Option(None, help="act as if it were this ISO 8601 moment (default: now)")) -> None:
    """Forget fading episodes, purge those forgotten past the grace period, retire old foresight."""
    from datetime import datetime, timezone

    from app.lifecycle.retention import gc_everywhere
    from app.store.graph import check_tenant

    try:
        when = datetime.fromisoformat(now) if now else datetime.now(timezone.utc)
        tenants = [check_tenant(tenant)] if tenant else None
    except ValueError as e:
        _fail(e)
    reports = _run_with_services(lambda svc: gc_everywhere(svc.driver, svc.settings, when, tenants))
    for r in reports:
        _echo(r.line())
    if not reports:
        _echo("no tenant has memory: nothing to do")


@app.command()
def recount(tenant: str = typer.Option(..., help="the tenant whose keyword statistics to count again")) -> None:
    """Count a tenant's keyword statistics again from its text (they drive every BM25 score);
    repairs counts left wrong, e.g. by two forgets of the same nodes at once before 2026-12-03.
    Run it while nothing writes to the tenant."""
    from app.store import term_stats
    from app.store.graph import TenantGraph, check_tenant

    try:
        tenant = check_tenant(tenant)
    except ValueError as e:
        _fail(e)

    async def run(svc):
        return await term_stats.rebuild(TenantGraph(svc.driver, tenant, svc.settings.neo4j_database),
                                        recount_terms=True)

    filled = _run_with_services(run)
    _echo(f"keyword statistics of tenant {tenant} counted again ({filled} nodes given their words)")


@bench_app.command("gc")
def bench_gc_cmd(sizes: str = typer.Option("10000", help="MemCells of the synthetic tenant"),
                 keep_share: float = typer.Option(0.5, help="share of cells recently used (kept)")) -> None:
    """gc over a synthetic tenant: the forget pass, the purge pass, and a pass with nothing to do."""
    import json as _json

    from app.evaluation.bench import render_results_readme
    from app.evaluation.bench_gc import bench_gc

    result = _run_with_services(lambda svc: bench_gc(svc, [int(x) for x in sizes.split(",")], keep_share))
    render_results_readme()
    print(_json.dumps(result))


def _bench_with_progress(fn):
    """Run `fn(services, progress)` with a progress bar per synthetic tenant being seeded."""
    from rich.progress import Progress

    with Progress(console=console, transient=True) as prog:
        tasks: dict[str, int] = {}

        def progress(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = prog.add_task(f"seeding {label}", total=total)
            prog.update(tasks[label], completed=done, total=total)

        return _run_with_services(lambda svc: fn(svc, progress))


@bench_app.command("consolidate")
def bench_consolidate_cmd(sizes: str = typer.Option("10000,100000", help="MemCells of the one group"),
                          new_cells: int = typer.Option(100, help="cells placed incrementally per size"),
                          keep: bool = typer.Option(False, help="keep the synthetic tenant")) -> None:
    """MemScene consolidation at each size: first run, unchanged re-run, incremental placement."""
    import json as _json

    from app.evaluation.bench import render_results_readme
    from app.evaluation.bench_consolidate import bench_consolidate

    result = _bench_with_progress(lambda svc, progress: bench_consolidate(
        svc, [int(x) for x in sizes.split(",")], new_cells, keep, progress))
    render_results_readme()
    print(_json.dumps(result))


@bench_app.command("http")
def bench_http_cmd(size: int = typer.Option(100000, help="MemCells of the big tenant"),
                   tenants: int = typer.Option(20, help="tenants in the graph"),
                   clients: int = typer.Option(8, help="concurrent clients"),
                   requests: int = typer.Option(1000, help="measured requests in all (after warm-up)"),
                   keep: bool = typer.Option(False, help="keep the synthetic tenants and the key")) -> None:
    """HYBRID search over HTTP against a real `engram serve`: whole-request latency under load."""
    import json as _json

    from app.evaluation.bench import render_results_readme
    from app.evaluation.bench_http import bench_http

    result = _bench_with_progress(lambda svc, progress: bench_http(
        svc, size, tenants, clients, requests, keep, progress))
    render_results_readme()
    print(_json.dumps(result))


@app.command("export")
def export_cmd(file: Path = typer.Argument(..., dir_okay=False, help="JSON-lines file to write (.gz: compressed)"),
               tenant: str = typer.Option(..., help="the tenant to export"),
               embeddings: bool = typer.Option(True, "--embeddings/--no-embeddings",
                                               help="include vectors (--no-embeddings: smaller file; "
                                                    "import recomputes them)")) -> None:
    """Write a tenant's whole memory to FILE (backup; see README 'Backup: export and import')."""
    from app.lifecycle.backup_export import export_tenant
    from app.lifecycle.backup_format import BackupError
    from app.store.graph import TenantError

    try:
        rep = _run_with_services(lambda svc: export_tenant(svc, tenant, file, embeddings))
    except (BackupError, TenantError, OSError) as e:
        _fail(e)
    _echo(f"exported tenant {tenant} to {rep.path}: {rep.total_nodes} nodes, "
          f"{rep.total_relationships} relationships in {rep.seconds:.1f}s")
    if rep.skipped_relationships:
        _echo(f"[yellow]{rep.skipped_relationships} relationships to nodes written during the export "
              "were left out[/yellow]")


@app.command("import")
def import_cmd(file: Path = typer.Argument(..., exists=True, dir_okay=False, help="an `engram export` file"),
               tenant: str = typer.Option(None, help="tenant to restore into (default: the exported one); "
                                                     "it must be empty"),
               reembed: bool = typer.Option(False, help="recompute every vector with the configured model"),
               keep_ids: bool = typer.Option(False, help="keep memory ids under another tenant name too "
                                                         "(fails if they exist in the database)"),
               discard_unfinished: bool = typer.Option(False, help="delete an interrupted import of another "
                                                                   "file found in the tenant")) -> None:
    """Restore an export into an empty tenant: all of it, or nothing."""
    from app.lifecycle.backup_format import BackupError
    from app.lifecycle.backup_import import import_tenant
    from app.store.graph import TenantError

    try:
        rep = _run_with_services(lambda svc: import_tenant(
            svc, file, tenant, reembed_all=reembed, keep_ids=keep_ids,
            discard_unfinished=discard_unfinished))
    except (BackupError, TenantError, OSError) as e:
        _fail(e)
    made = sum(s["made"] for s in rep.reembedded.values())
    _echo(f"imported {rep.total_nodes} nodes, {rep.total_relationships} relationships of tenant "
          f"{rep.source_tenant} into tenant {rep.tenant} in {rep.seconds:.1f}s"
          + (f"; {made} vectors recomputed" if made else "")
          + ("; memory ids renewed (another tenant name)" if rep.ids_remapped else "")
          + (f"; an interrupted earlier run was cleared ({rep.purged_unfinished} nodes)"
             if rep.purged_unfinished else ""))


def main() -> None:  # console script entry point
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
