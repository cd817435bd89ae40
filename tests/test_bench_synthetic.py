"""The benchmarks' synthetic graph (what the numbers are measured on), the batching of scene
memberships that large groups rely on, and how bench search counts a search's CPU."""
from __future__ import annotations

import os
import time

from app.evaluation.synthetic import COUNT_CELLS, NAMES, WORDS, tenant_mix
from app.lifecycle import scenes as scene_module
from app.lifecycle.scenes import membership_batches

OWN_DATA = "MATCH (n {tenant: $tenant}) WHERE n.id STARTS WITH $prefix RETURN count(n) AS n"


async def test_tenant_mix_grows_only_the_big_tenant(services):
    mix = await tenant_mix(services, "test_synth", tenants=3, small_cells=20)
    try:
        await mix.grow_big(50)
        await mix.grow_big(120)
        assert (await mix.big.read(COUNT_CELLS))[0]["n"] == 120
        for g in mix.others:
            assert (await g.read(COUNT_CELLS))[0]["n"] == 20
            # None of the big tenant's nodes (ids start with its name) is visible in another.
            assert (await g.read(OWN_DATA, prefix=mix.big.tenant))[0]["n"] == 0
        rows = await mix.big.read("MATCH (m:MemCell {tenant: $tenant}) RETURN m.keywords AS k, m.title AS t")
        for r in rows:
            assert 5 <= len(r["k"]) <= 8 and len(set(r["k"])) == len(r["k"])
            assert r["k"][0] in WORDS and r["k"][1] in NAMES and r["t"] == f"{r['k'][1]} and {r['k'][0]}"
    finally:
        await mix.purge()
    assert (await mix.big.read(COUNT_CELLS))[0]["n"] == 0


def test_membership_batches_cut_large_scenes_and_keep_every_member_once(monkeypatch):
    monkeypatch.setattr(scene_module, "MEMBERS_PER_TX", 5)
    scenes = [{"id": f"s{i}", "cells": n, "members": [{"id": f"{i}:{j}", "order": j + 1} for j in range(n)]}
              for i, n in enumerate([3, 4, 12, 5, 1])]
    batches = membership_batches(scenes)
    assert all(sum(len(s["members"]) for s in b) <= 5 for b in batches)
    assert [m["id"] for b in batches for s in b for m in s["members"]] == \
        [m["id"] for s in scenes for m in s["members"]]
    # Each part of a scene carries the scene's own fields.
    assert {(s["id"], s["cells"]) for b in batches for s in b} == {(s["id"], s["cells"]) for s in scenes}
    assert membership_batches([]) == []


def test_cpu_tally_adds_up_each_kinds_cpu_over_interleaved_calls():
    from app.evaluation.bench import CpuTally
    from app.evaluation.bench_sections import search_cpu_note

    def burn(seconds: float) -> None:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    tally = CpuTally(os.getpid())  # this process stands in for Neo4j: the same CPU, read from /proc
    for _ in range(3):
        with tally.measure("busy"):
            burn(0.03)
        with tally.measure("idle"):
            time.sleep(0.03)
    cpu = tally.per_call_ms(2)
    assert 28 <= cpu["busy"]["api"] <= 45 and cpu["idle"]["api"] < 15  # sleeping costs no CPU
    assert 10 <= cpu["busy"]["neo4j"] <= 60  # /proc counts in clock ticks (10 ms)
    # (both cores busy: half the CPU; computed before rounding, so within a rounding step)
    assert abs(cpu["busy"]["least_latency_ms"] - (cpu["busy"]["api"] + cpu["busy"]["neo4j"]) / 2) <= 0.01
    assert CpuTally(None).per_call_ms(2) == {}
    with (without := CpuTally(None)).measure("x"):
        pass
    assert without.per_call_ms(2)["x"]["neo4j"] is None and without.per_call_ms(2)["x"]["least_latency_ms"] is None

    size = {"bare_vector_ms": {"p50": 5.0},
            "cpu_ms_per_call": {"hybrid": {"api": 10.0, "neo4j": 14.0, "least_latency_ms": 12.0},
                                "bare_vector": {"api": 1.0, "neo4j": 1.5, "least_latency_ms": 1.25}}}
    note = search_cpu_note(size)
    assert "10.0 ms in this process" in note and "12.0 ms, 2.4x the bare query's p50" in note
    assert search_cpu_note({"bare_vector_ms": {"p50": 5.0}}) == ""


def test_single_channel_note_gives_each_methods_p50_against_the_bare_query():
    from app.evaluation.bench_sections import single_channel_note

    size = {"bare_vector_ms": {"p50": 2.5},
            "single_channel_ms": {"VECTOR": {"p50": 9.0, "p95": 11.0}, "KEYWORD": {"p50": 10.0, "p95": 12.0}}}
    note = single_channel_note(size)
    assert "VECTOR 9.0 (3.6x), KEYWORD 10.0 (4.0x)" in note and "naming" not in note
    dated = single_channel_note(dict(size, hybrid_naming_a_day_ms={"p50": 17.3, "p95": 21.0}))
    assert "naming one of the tenant's days" in dated and "p50 17.3, p95 21.0" in dated
    assert single_channel_note({"bare_vector_ms": {"p50": 2.5}}) == ""


def test_the_benchs_dated_questions_name_the_day_the_channel_reads():
    from datetime import date, timedelta

    from app.evaluation.bench import naming_day
    from app.evaluation.synthetic import START
    from app.recollection.named_dates import Period, named_period

    day = START + timedelta(days=3)
    q = naming_day("What does Maya think about tea?", day)
    assert named_period(q, date(2026, 12, 2)) == Period(day.date(), day.date())
