"""Sections of bench/results/README.md for the consolidate, http and gc benchmarks, each from
its JSON file (render_results_readme in bench.py puts them together)."""
from __future__ import annotations

import json
from pathlib import Path


def _load(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None


def _load_note(r: dict) -> str:
    la = r.get("load_average") or {}
    parts = [f"{k.replace('_', ' ')} {'/'.join(str(x) for x in v)}" for k, v in la.items()]
    return ("Load average (1/5/15 min) " + "; ".join(parts) + ". ") if parts else ""


def cpus(r: dict) -> str:
    """The machine of a run: its cores and, where measured, its speed then (bench.cpu_probe_ms)."""
    m = r["machine"]
    probe = f" (CPU probe {m['cpu_probe_ms']} ms)" if m.get("cpu_probe_ms") is not None else ""
    return f"{m['cpus']} CPUs{probe}"


def warm_up_note(r: dict, unit: str) -> str:
    """The warm-up curve (bench.WarmUpCurve) and the checkpoints that fell into the measuring."""
    blocks = r.get("warm_up") or []
    out = ""
    if blocks:
        cpu = [b["neo4j_cpu_ms_per_unit"] for b in blocks]
        out += (f"Warm-up before measuring, Neo4j CPU per {unit}, by blocks of {blocks[0]['units']}: "
                + (" ".join(f"{c:g}" for c in cpu) + " ms. " if None not in cpu
                   else "not measured (no local Neo4j process to read). "))
    if "checkpoints_while_measuring" in r:
        found = r["checkpoints_while_measuring"]
        out += "Neo4j checkpoints while measuring: " + (
            "not known (Neo4j is not the local server)" if found is None else ", ".join(found) or "none") + ". "
    return out


def consolidate_section(results: Path) -> list[str]:
    r = _load(results / "consolidate.json")
    if r is None:
        return []
    lines = ["## Scene consolidation (`engram bench consolidate`)", "",
             f"{r['date'][:10]}, {cpus(r)}; one tenant group of synthetic MemCells "
             f"({r['topics']} topics, 5-8 keywords each), seconds.", "",
             "| MemCells | first: total | embed topic vectors | read (without embed) | cluster | write | "
             "summarise | peak RSS MB before / after | again: total | read | cluster | write | summarise |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for x in r["sizes"].values():
        f, a = x["first"], x["again"]
        fs, as_ = f["stage_seconds"], a["stage_seconds"]
        lines.append(f"| {x['memcells']} | {f['seconds']} | {f['embed_seconds']} | {f['read_without_embed_seconds']} | "
                     f"{fs.get('cluster')} | {fs.get('write')} | {fs.get('summarise')} | "
                     f"{x['peak_rss_mb_before']} / {f['peak_rss_mb']} | "
                     f"{a['seconds']} | {as_.get('read')} | {as_.get('cluster')} | {as_.get('write')} | "
                     f"{as_.get('summarise')} |")
    lines += ["", "| MemCells | scenes | size min / median / max | moved by the re-run | "
                  f"incremental: {r['new_cells']} cells in one call, ms per cell | one-cell calls p50 / p95 ms |",
              "|---:|---:|---|---:|---:|---|"]
    for x in r["sizes"].values():
        s, inc = x["scenes"], x["incremental"]
        one = inc["one_cell_calls"]["ms"]
        lines.append(f"| {x['memcells']} | {s['scenes']} | {s.get('size_min')} / {s.get('size_median')} / "
                     f"{s.get('size_max')} | {x['again']['moved']} | {inc['batch']['ms_per_cell']} | "
                     f"{one['p50']} / {one['p95']} |")
    lines += ["", "`first` computes every cell's topic vector (the embedding model on its keywords) and "
                  "clusters from scratch; `again` re-clusters with nothing changed (what the periodic task "
                  "does for a changed group); incremental is SceneService.assign_new as ingestion calls it. "
                  "Peak RSS is the benchmark process's (the embedding model alone takes about 1 GB). "
                  + _load_note(r) + (r.get("notes") or "")]
    e = r.get("earlier_run_under_load")
    if e:
        lines += ["", f"An earlier run ({e['date'][:16]}, {e['notes']}), seconds: " + "; ".join(
            f"{k} cells: first {x['first_seconds']} (embed {x['embed_seconds']}), again {x['again_seconds']}, "
            f"incremental {x['incremental_ms_per_cell']} ms per cell" for k, x in e["sizes"].items()) + "."]
    lines.append("")
    return lines


def _cpu_note(r: dict) -> str:
    cpu = r.get("cpu_ms_per_request") or {}
    if cpu.get("server") is None or cpu.get("neo4j") is None:
        return ""
    total = cpu["server"] + cpu["neo4j"]
    return (f"CPU per request with {r['clients']} clients: server {cpu['server']} ms, Neo4j {cpu['neo4j']} ms "
            f"({total:.1f} ms in all: {r['machine']['cpus']} cores allow at most "
            f"~{r['machine']['cpus'] * 1000 / total:.0f} requests/s). ")


def search_cpu_note(size: dict) -> str:
    """What one search costs in CPU at a size of bench search, and the latency that leaves."""
    cpu = size.get("cpu_ms_per_call") or {}
    h, b = cpu.get("hybrid"), cpu.get("bare_vector")
    if not h or not b or h["neo4j"] is None:
        return ""
    bare_p50 = size["bare_vector_ms"]["p50"]
    return (f"CPU per call: HYBRID {h['api']} ms in this process (the model's thread too) and "
            f"{h['neo4j']} ms in Neo4j, the bare vector query {b['api']} and {b['neo4j']} ms. With "
            f"every core busy for it, a HYBRID search would still take {h['least_latency_ms']} ms, "
            f"{h['least_latency_ms'] / bare_p50:.1f}x the bare query's p50. ")


def single_channel_note(size: dict) -> str:
    """Each one-channel method's p50 at a size of bench search, against the bare vector query:
    what the cheapest searches through the service cost, beside HYBRID's ratio."""
    singles = size.get("single_channel_ms") or {}
    if not singles:
        return ""
    bare_p50 = size["bare_vector_ms"]["p50"]
    each = ", ".join(f"{m} {x['p50']:.1f} ({x['p50'] / bare_p50:.1f}x)" for m, x in singles.items())
    dated = size.get("hybrid_naming_a_day_ms")
    return (f"One channel alone through the same service, p50 ms (x the bare query's p50): {each}. "
            "Each embeds the query text and hydrates its hits, which the bare index query does not. "
            + (f"HYBRID for the same questions naming one of the tenant's days (the day channel's "
               f"query too): p50 {dated['p50']:.1f}, p95 {dated['p95']:.1f}. "
               if dated else ""))


def http_section(results: Path) -> list[str]:
    r = _load(results / "http.json")
    if r is None or "concurrent" not in r:
        return []
    lines = ["## Search over HTTP (`engram bench http`)", "",
             f"{r['date'][:10]}, {cpus(r)}; `engram serve` in its own process, "
             f"{r['memcells']} MemCells in the searched tenant among {r['tenants']} tenants, "
             f"{r['method']} `search` GraphQL requests with an API key"
             + (f", at most {r['search_concurrency']} searches at once in the server"
                if r.get("search_concurrency") else "") + "; ms.", "",
             "| clients | requests | requests/s | whole request p50 | p95 | p99 | server tookMs p50 | p95 | "
             "outside search p50 | server share | errors |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for clients, x in ((1, r["one_client"]), (r["clients"], r["concurrent"])):
        w, t, o = x["whole_request_ms"], x["server_took_ms"], x["outside_search_ms"]
        lines.append(f"| {clients} | {x['requests']} | {x['requests_per_s']} | {w['p50']} | {w['p95']} | "
                     f"{w['p99']} | {t['p50']} | {t['p95']} | {o['p50']} | {x['server_share']} | {x['errors']} |")
    lines += ["", f"Target: {r['target']}: **{'met' if r['target_met'] else 'not met'}**. Server share: "
                  "the sum of the server's `tookMs` over the sum of whole-request times. "
                  + _cpu_note(r) + _load_note(r) + warm_up_note(r, "request") + (r.get("notes") or "")]
    u = r.get("concurrent_without_search_limit")
    if u:
        w = u["whole_request_ms"]
        lines += ["", f"The same {r['clients']} clients against a server running every search at once "
                      f"(ENGRAM_SEARCH_CONCURRENCY=0): {u['requests_per_s']} requests/s, whole request "
                      f"p50 {w['p50']} / p95 {w['p95']} / p99 {w['p99']} ms."]
    e = r.get("earlier_run_under_load")
    if e:
        c, one = e["concurrent_whole_request_ms"], e["one_client_whole_request_ms"]
        lines += ["", f"An earlier run ({e['date'][:16]}, {e['notes']}): {r['clients']} clients p50 {c['p50']} / "
                      f"p95 {c['p95']} / p99 {c['p99']} ms at {e['concurrent_requests_per_s']} requests/s; "
                      f"one client p50 {one['p50']} / p95 {one['p95']} ms."]
    lines.append("")
    return lines


def gc_section(results: Path) -> list[str]:
    r = _load(results / "gc.json")
    if r is None:
        return []
    lines = ["## Forgetting (`engram bench gc`)", "",
             f"{r['date'][:10]}, {cpus(r)}; a synthetic tenant, "
             f"{round(100 * (1 - r['keep_share']))}% of its episodes old and unused; seconds.", "",
             "| MemCells | nodes | forget pass (cells) | idle pass | purge pass (nodes deleted) |",
             "|---:|---:|---:|---:|---:|"]
    for size, x in r["sizes"].items():
        lines.append(f"| {size} | {x['nodes']} | {x['forget']['seconds']} ({x['forget']['cells']}) | "
                     f"{x['idle']['seconds']} | {x['purge']['seconds']} ({x['purge']['nodes_deleted']}) |")
    lines.append("")
    return lines


def sections(results: Path) -> list[str]:
    return consolidate_section(results) + http_section(results) + gc_section(results)
