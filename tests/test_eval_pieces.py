"""Unit tests for the evaluation harness pieces: LoCoMo loading, metrics, baselines, report."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from app.evaluation.bm25 import BM25Index, DenseIndex, tokenize
from app.evaluation.locomo import (
    TURN_SPACING,
    canonical_dia_id,
    evidence_stats,
    load_locomo,
    parse_evidence,
    parse_locomo,
    parse_sample,
    parse_session_datetime,
    session_numbers,
)
from app.evaluation.metrics import (
    QuestionResult,
    aggregate,
    evidence_turns,
    fusion_headroom,
    is_scorable,
    percentiles,
    recall_at_k,
    recall_within_words,
    score_hits,
    token_f1,
)
from app.evaluation.report import (
    PLOT_FILE,
    QUESTIONS_FILE,
    SUMMARY_JSON,
    SUMMARY_MD,
    build_summary,
    final_json_line,
    render_markdown,
    write_report,
)

UTC = timezone.utc
DEV_FILE = Path("/work/shared/data/locomo-dev.json")


# ------------------------------------------------------------------------------------ fixtures


def _turn(speaker: str, dia_id: str, text: str, **extra) -> dict:
    return {"speaker": speaker, "dia_id": dia_id, "text": text, **extra}


def _sample(n_sessions: int = 3, sample_id: str = "s-1") -> dict:
    """A small conversation: two invented speakers, `n_sessions` sessions of two turns each,
    written into the dict in a scrambled key order."""
    conv: dict = {"speaker_a": "Ava", "speaker_b": "Bram"}
    for n in reversed(range(1, n_sessions + 1)):
        conv[f"session_{n}_date_time"] = f"10:00 am on {n} March, 2021"
        conv[f"session_{n}"] = [
            _turn("Ava", f"D{n}:1", f"Session {n} opening from Ava."),
            _turn("Bram", f"D{n}:2", f"Bram answers in session {n}."),
        ]
    return {"sample_id": sample_id, "conversation": conv, "qa": []}


# ------------------------------------------------------------------------------ session dates


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("8:56 pm on 20 July, 2023", datetime(2023, 7, 20, 20, 56, tzinfo=UTC)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9, tzinfo=UTC)),
        ("12:00 am on 1 January, 2024", datetime(2024, 1, 1, 0, 0, tzinfo=UTC)),
        ("12:45 pm on 3 June, 2022", datetime(2022, 6, 3, 12, 45, tzinfo=UTC)),
        ("11:59 pm on 31 December, 2022", datetime(2022, 12, 31, 23, 59, tzinfo=UTC)),
        ("1:00 am on 2 February, 2020", datetime(2020, 2, 2, 1, 0, tzinfo=UTC)),
        ("  3:05   PM  on  9 Aug ,  2023 ", datetime(2023, 8, 9, 15, 5, tzinfo=UTC)),
        ("3:05pm on 9 August 2023", datetime(2023, 8, 9, 15, 5, tzinfo=UTC)),
        ("8 May, 2023", datetime(2023, 5, 8, tzinfo=UTC)),
        ("May 8, 2023", datetime(2023, 5, 8, tzinfo=UTC)),
        ("2023-05-08 13:56", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("2023-05-08T13:56:00+02:00", datetime(2023, 5, 8, 11, 56, tzinfo=UTC)),
    ],
)
def test_session_dates(text, expected):
    got = parse_session_datetime(text)
    assert got == expected
    assert got.tzinfo is not None and got.utcoffset() == timedelta(0)


@pytest.mark.parametrize("text", ["", "   ", "soon", None, "31 February, 2023", 42])
def test_unreadable_session_dates(text):
    assert parse_session_datetime(text) is None


def test_unreadable_date_keeps_order_and_warns():
    s = _sample(3)
    s["conversation"]["session_2_date_time"] = "sometime"
    conv = parse_sample(s)
    stamps = [t.timestamp for t in conv.turns]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    assert any("session 2" in w for w in conv.warnings)


# ---------------------------------------------------------------------------- session ordering


def test_sessions_ordered_numerically():
    s = _sample(11)
    # A date key without a session list is not a session.
    s["conversation"]["session_12_date_time"] = "10:00 am on 12 March, 2021"
    assert session_numbers(s["conversation"]) == list(range(1, 12))
    conv = parse_sample(s)
    ids = [t.id for t in conv.turns]
    expected = [f"D{n}:{i}" for n in range(1, 12) for i in (1, 2)]
    assert ids == expected
    stamps = [t.timestamp for t in conv.turns]
    assert all(a < b for a, b in zip(stamps, stamps[1:]))


def test_turn_spacing_and_photo_caption():
    s = _sample(1)
    s["conversation"]["session_1"] = [
        _turn("Ava", "D1:1", "Look at this!", blip_caption="a photo of a red kite", img_url=["http://x/y.jpg"]),
        _turn("Bram", "D1:2", "Lovely."),
        _turn("Ava", "D1:3", "Thanks."),
    ]
    conv = parse_sample(s, user_id="u-7")
    start = datetime(2021, 3, 1, 10, 0, tzinfo=UTC)
    assert [t.timestamp for t in conv.turns] == [start, start + TURN_SPACING, start + 2 * TURN_SPACING]
    assert TURN_SPACING == timedelta(seconds=30)
    first = conv.turns[0]
    assert first.content == "Look at this! [shares a photo: a photo of a red kite]"
    assert conv.turns[1].content == "Lovely."
    assert first.id == "D1:1" and first.speaker == "Ava" and first.role.value == "user"
    assert first.user_id == "u-7"
    assert conv.speakers == ["Ava", "Bram"]


def test_a_speaker_named_as_an_assistant_speaks_as_one():
    # The layout has no role: an "Assistant" was a user, and what it suggested ("Lake Como by
    # train (no flying)") became the user's constraints in the evaluation.
    s = _sample(1)
    s["conversation"]["session_1"] = [
        _turn("Ava", "D1:1", "Plan my week?"), _turn("Assistant", "D1:2", "Here is a plan."),
        {**_turn("Bram", "D1:3", "Noted."), "role": "tool"}]
    assert [t.role.value for t in parse_sample(s).turns] == ["user", "assistant", "tool"]


def test_session_dates_not_increasing_are_nudged_forward():
    s = _sample(2)
    s["conversation"]["session_2_date_time"] = "10:00 am on 1 March, 2021"  # same as session 1
    conv = parse_sample(s)
    stamps = [t.timestamp for t in conv.turns]
    assert all(a < b for a, b in zip(stamps, stamps[1:]))
    assert conv.warnings


# ----------------------------------------------------------------------------------- evidence


def test_lenient_evidence():
    turn_ids = ["D8:6", "D9:17", "D11:26", "D1:3"]
    found, unmatched = parse_evidence(["D8:6; D9:17"], turn_ids)
    assert found == ["D8:6", "D9:17"] and unmatched == []
    assert parse_evidence(["D:11:26"], turn_ids) == (["D11:26"], [])
    assert parse_evidence(["d1:3", " D 8 : 6 ", "D8:6"], turn_ids) == (["D1:3", "D8:6"], [])
    assert parse_evidence("D8:6,D9:17", turn_ids) == (["D8:6", "D9:17"], [])
    found, unmatched = parse_evidence(["D1:3", "D", "D40:2"], turn_ids)
    assert found == ["D1:3"] and unmatched == ["D", "D40:2"]
    assert parse_evidence([], turn_ids) == ([], [])
    assert parse_evidence(None, turn_ids) == ([], [])
    assert canonical_dia_id("d:03:007") == "D3:7"
    assert canonical_dia_id("D") is None


def test_questions_from_sample():
    s = _sample(2)
    s["qa"] = [
        {"question": "Q one?", "answer": 2022, "evidence": ["D1:1; D2:2"], "category": 2},
        {"question": "Q two?", "adversarial_answer": "nothing", "evidence": ["D:2:1", "D7:7"], "category": 5},
        {"question": "Q three?", "answer": "x", "evidence": [], "category": "3"},
    ]
    conv = parse_sample(s)
    q1, q2, q3 = conv.questions
    assert (q1.index, q1.answer, q1.category, q1.evidence, q1.unmatched) == (0, "2022", 2, ["D1:1", "D2:2"], [])
    assert q2.answer == "nothing" and q2.adversarial
    assert q2.evidence == ["D2:1"] and q2.unmatched == ["D7:7"]
    assert q3.category == 3 and not q3.scorable
    stats = evidence_stats([conv])
    assert stats["unmatched_ids"] == 1 and stats["questions_without_evidence"] == 1


# ------------------------------------------------------------------------------------ metrics


def test_recall_with_duplicates_across_hits():
    hits = [["D1:1", "D1:2"], ["D1:2", "D3:4"], ["D1:1"], ["D5:5"]]
    ranked = evidence_turns(hits)
    assert ranked == ["D1:1", "D1:2", "D3:4", "D5:5"]
    gold = ["D3:4", "D5:5"]
    assert recall_at_k(ranked, gold, 2) == 0.0
    assert recall_at_k(ranked, gold, 3) == 0.5
    assert recall_at_k(ranked, gold, 4) == 1.0
    # Duplicates in a raw ranking take a single slot; duplicated gold counts once.
    assert recall_at_k(["D1:1", "D1:1", "D1:1", "D3:4"], ["D3:4", "D3:4"], 2) == 1.0
    assert not is_scorable([]) and is_scorable(["D1:1"])
    with pytest.raises(ValueError):
        recall_at_k(ranked, [], 5)


def test_recall_within_word_budget():
    hits = [
        (["D1:1"], "one two three"),  # 3 words
        (["D1:2", "D2:1"], "four five six seven"),  # 7 in total
        (["D3:3"], "eight nine ten eleven twelve"),  # 12: over a budget of 10
        (["D4:4"], "x"),  # would fit alone, but the walk has stopped
    ]
    gold = ["D2:1", "D3:3", "D4:4"]
    assert recall_within_words(hits, gold, 2) == 0.0
    assert recall_within_words(hits, gold, 7) == pytest.approx(1 / 3)
    assert recall_within_words(hits, gold, 10) == pytest.approx(1 / 3)
    assert recall_within_words(hits, gold, 13) == pytest.approx(1.0)


def test_percentiles_and_f1():
    p = percentiles(range(1, 101))
    assert p["p50"] == pytest.approx(50.5)
    assert p["p95"] == pytest.approx(95.05)
    assert p["p99"] == pytest.approx(99.01)
    assert percentiles([]) == {"p50": None, "p95": None, "p99": None}
    assert token_f1("The Eiffel Tower!", "eiffel tower") == 1.0
    assert token_f1("a cat", "the dog") == 0.0
    assert token_f1("red kite over hills", "a red kite") == pytest.approx(2 * 0.5 * 1.0 / 1.5)


def test_aggregate_keeps_adversarial_apart():
    results = []
    for i, (cat, found) in enumerate([(1, True), (4, False), (5, True), (3, None)]):
        gold = [] if found is None else ["D1:1"]
        q = QuestionResult("s", i, cat, f"q{i}", gold)
        hits = [(["D1:1"], "hit")] if found else [(["D9:9"], "miss")]
        q.methods["bm25_turns"] = score_hits(hits, gold, latency_ms=float(i))
        results.append(q)
    agg = aggregate(results)
    m = agg["methods"]["bm25_turns"]
    assert m["overall"]["n"] == 2 and m["overall"]["recall@10"] == 0.5
    assert m["by_category"]["5"]["recall@10"] == 1.0
    assert agg["questions"]["scored"] == 2 and agg["questions"]["unscorable"] == 1


def test_fusion_headroom_splits_the_fused_recall_into_union_lost_and_gained():
    def question(i, gold, ranked):
        q = QuestionResult("s", i, 1, f"q{i}", gold)
        for name, turns in ranked.items():
            q.methods[name] = score_hits([([t], t) for t in turns], gold)
        return q

    filler = [f"D9:{j}" for j in range(20)]
    results = [
        # The keyword channel has D1:1 first, the vector channel D1:2 tenth; the fused method
        # keeps D1:1, drops D1:2 below its first 10 (lost) and brings D1:3, which no channel
        # had in its first 10 (gained).
        question(0, ["D1:1", "D1:2", "D1:3"], {
            "keyword": ["D1:1"] + filler, "vector": filler[:9] + ["D1:2"], "graph": filler,
            "hybrid": ["D1:1", "D1:3"] + filler[:8] + ["D1:2"]}),
        # Everything in every first 10: nothing lost, nothing gained.
        question(1, ["D2:1"], {name: ["D2:1"] for name in ("keyword", "vector", "graph", "hybrid")}),
        # Not scored: no gold.
        question(2, [], {name: ["D3:1"] for name in ("keyword", "vector", "graph", "hybrid")}),
    ]
    head = fusion_headroom(results)
    assert head["n"] == 2
    assert head["union"] == pytest.approx((2 / 3 + 1) / 2)
    assert head["lost"] == pytest.approx((1 / 3) / 2)
    assert head["gained"] == pytest.approx((1 / 3) / 2)
    fused = aggregate(results)["methods"]["hybrid"]["overall"]["recall@10"]
    assert fused == pytest.approx(head["union"] - head["lost"] + head["gained"])
    assert "## Fusion headroom (R@10, 2 questions)" in render_markdown(build_summary(results))
    # Without one of the single channels there is nothing to compare against.
    for q in results:
        del q.methods["graph"]
    assert fusion_headroom(results) is None


# ---------------------------------------------------------------------------------- baselines


def test_bm25_ranks_rare_term_first():
    docs = [
        ("a", "we went to the park and the park was nice"),
        ("b", "the park had a small pond near the park entrance"),
        ("c", "my saxophone lesson was at the park"),
        ("d", "nothing in common here"),
    ]
    index = BM25Index(docs)
    hits = index.search("saxophone in the park", k=3)
    assert hits[0][0] == "c"
    assert len(hits) == 3 and hits[0][1] > hits[1][1] >= hits[2][1] > 0
    assert index.search("zeppelin", k=5) == []
    assert tokenize("Hello, World! it's") == ["hello", "world", "it", "s"]
    assert BM25Index([]).search("anything", 3) == []


def test_dense_index_dot_product():
    vecs = np.array([[1.0, 0.0], [0.0, 1.0], [0.7071, 0.7071]], dtype=np.float32)
    index = DenseIndex(["x", "y", "z"], vecs)
    hits = index.search(np.array([0.9, 0.1]), k=2)
    assert [h[0] for h in hits] == ["x", "z"]
    assert hits[0][1] == pytest.approx(0.9 / np.hypot(0.9, 0.1), rel=1e-4)
    assert DenseIndex([], np.zeros((0, 2))).search([1.0, 0.0], 3) == []


# ------------------------------------------------------------------------------------- report


def test_report_writes_files_and_final_line(tmp_path):
    results = []
    for i, cat in enumerate([1, 2, 3, 4, 5, 4]):
        gold = [f"D{i + 1}:1"]
        q = QuestionResult("s-1", i, cat, f"question {i}?", gold, unmatched=["D"] if i == 0 else [])
        good = [([f"D{i + 1}:1"], "the right turn")]
        bad = [(["D99:1"], "a wrong turn")] * 3
        q.methods["hybrid"] = score_hits(good + bad, gold, latency_ms=10.0 + i)
        q.methods["bm25_turns"] = score_hits(bad + good, gold, latency_ms=1.0)
        results.append(q)
    summary = write_report(tmp_path / "out", results, ingestion_seconds={"engram": 12.5}, meta={"data": "inline"})
    out = tmp_path / "out"
    for name in (QUESTIONS_FILE, SUMMARY_MD, SUMMARY_JSON, PLOT_FILE):
        assert (out / name).exists() and (out / name).stat().st_size > 0
    lines = (out / QUESTIONS_FILE).read_text().splitlines()
    assert len(lines) == 6
    rec = json.loads(lines[0])
    assert rec["gold"] == ["D1:1"] and rec["methods"]["hybrid"]["ranked_turn_ids"][0] == "D1:1"
    assert rec["methods"]["hybrid"]["recall"]["@10"] == 1.0
    md = (out / SUMMARY_MD).read_text()
    assert "| hybrid |" in md and "R@10" in md and "W@1000" in md and "p95" in md
    assert json.loads((out / SUMMARY_JSON).read_text())["methods"]["hybrid"]["overall"]["n"] == 5
    assert (out / PLOT_FILE).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    line = final_json_line(summary)
    assert "\n" not in line
    final = json.loads(line)
    assert final["questions"] == 5
    assert set(final) == {"questions", "recall@5", "recall@10", "recall@25", "recall@50"}
    assert final["recall@10"] == {"hybrid": 1.0, "bm25_turns": 1.0}
    assert final["recall@5"]["hybrid"] == 1.0
    # bm25_turns ranks the right turn fourth: inside k=5, and its 12 words fit a 1000-word budget.
    assert summary["methods"]["bm25_turns"]["overall"]["words@1000"] == 1.0


# ------------------------------------------------------------------------------ the dev file


@pytest.mark.skipif(not DEV_FILE.exists(), reason="LoCoMo dev file not present")
def test_dev_file_structure():
    convs = load_locomo(DEV_FILE)
    assert convs
    for conv in convs:
        ids = [t.id for t in conv.turns]
        assert len(ids) == len(set(ids)), conv.sample_id
        stamps = [t.timestamp for t in conv.turns]
        assert all(a < b for a, b in zip(stamps, stamps[1:])), conv.sample_id
        assert all(ts.tzinfo is not None for ts in stamps)
        id_set = set(ids)
        for q in conv.questions:
            assert set(q.evidence) <= id_set
            if q.category in (1, 2, 3, 4):
                # Every piece of raw evidence is either resolved or reported as unmatched.
                assert q.evidence or q.unmatched or not q.raw_evidence, (conv.sample_id, q.index)
                for raw in q.raw_evidence:
                    found, unmatched = parse_evidence([raw], id_set)
                    assert found or unmatched, (conv.sample_id, q.index, raw)
                    # ... and what it gives is what the question itself kept: nothing dropped
                    # or invented between the piece and the loaded question.
                    assert set(found) <= set(q.evidence), (conv.sample_id, q.index, raw)
                    assert set(unmatched) <= set(q.unmatched), (conv.sample_id, q.index, raw)
    stats = evidence_stats(convs)
    assert stats["questions"] == sum(len(c.questions) for c in convs)


def test_parse_locomo_accepts_single_sample():
    convs = parse_locomo(_sample(1, sample_id="only"))
    assert [c.sample_id for c in convs] == ["only"]


def test_checkpoints_since_reads_the_local_servers_debug_log_and_only_its_own(tmp_path):
    from app.runtime import neo4j_local
    from app.settings import Settings

    settings = Settings(home=str(tmp_path), neo4j_instance="bench", neo4j_uri="")
    assert neo4j_local.checkpoints_since(settings, datetime(2026, 1, 1, tzinfo=timezone.utc)) == []
    logs = neo4j_local.Layout.of(settings).logs
    logs.mkdir(parents=True)
    line = ('{{"time":"{t}+0000","level":"INFO","message":"[{db}/3023b0af] Checkpoint triggered by '
            '\\"Scheduled checkpoint for every 15 minutes threshold\\" @ txId: 6636 checkpoint {what}..."}}')
    (logs / "debug.log").write_text("\n".join([
        line.format(t="2026-12-01 10:13:07.978", db="neo4j", what="started"),
        line.format(t="2026-12-01 10:13:12.044", db="neo4j", what="completed in 4s"),
        line.format(t="2026-12-01 10:13:17.173", db="system", what="started"),
        line.format(t="2026-12-01 10:28:12.748", db="neo4j", what="started"),
    ]) + "\n")
    since = datetime(2026, 12, 1, 10, 20, tzinfo=timezone.utc)
    assert neo4j_local.checkpoints_since(settings, since) == ["2026-12-01 10:28:12"]
    assert neo4j_local.checkpoints_since(settings, since - timedelta(hours=1)) == [
        "2026-12-01 10:13:07", "2026-12-01 10:28:12"]
    # The same log says nothing about a server the service does not run here.
    local_uri = settings.model_copy(update={"neo4j_uri": f"bolt://localhost:{settings.neo4j_bolt_port}"})
    assert neo4j_local.checkpoints_since(local_uri, since) == ["2026-12-01 10:28:12"]
    for uri in ("neo4j+s://abc.databases.neo4j.io", f"bolt://10.0.0.7:{settings.neo4j_bolt_port}",
                f"bolt://127.0.0.1:{settings.neo4j_bolt_port + 1}"):
        remote = settings.model_copy(update={"neo4j_uri": uri})
        assert neo4j_local.checkpoints_since(remote, since) is None
        assert neo4j_local.serving_pid(remote) is None
