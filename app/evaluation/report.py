"""Writing an evaluation run to disk: questions.jsonl, summary.md, summary.json and
recall_by_category.png, plus the one-line JSON result printed at the end of a run.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

from app.evaluation.metrics import (
    ADVERSARIAL_CATEGORY,
    DEFAULT_BUDGETS,
    DEFAULT_KS,
    MAIN_CATEGORIES,
    QuestionResult,
    aggregate,
    category_name,
    fusion_headroom,
)

QUESTIONS_FILE = "questions.jsonl"
SUMMARY_MD = "summary.md"
SUMMARY_JSON = "summary.json"
PLOT_FILE = "recall_by_category.png"
MAX_RANKED = 50
# Methods listed in this order when present; any others follow in the order they were run.
METHOD_ORDER = ("hybrid", "hybrid_cv", "keyword", "vector", "graph", "bm25_turns", "dense_turns")


def _round(x: float | None, digits: int = 4) -> float | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return round(float(x), digits)


def ordered_methods(names: Sequence[str]) -> list[str]:
    """Known methods in METHOD_ORDER, then any others in the order given."""
    known = sorted((n for n in names if n.lower() in METHOD_ORDER), key=lambda n: METHOD_ORDER.index(n.lower()))
    return known + [n for n in names if n.lower() not in METHOD_ORDER]


def question_record(q: QuestionResult, max_ranked: int = MAX_RANKED) -> dict[str, Any]:
    """One line of questions.jsonl."""
    methods: dict[str, Any] = {}
    for name, r in q.methods.items():
        entry: dict[str, Any] = {
            "ranked_turn_ids": r.ranked_turn_ids[:max_ranked],
            "recall": {f"@{k}": _round(v) for k, v in sorted(r.recall.items())},
            "words_recall": {f"@{b}": _round(v) for b, v in sorted(r.words_recall.items())},
            "words_returned": r.words_returned,
            "latency_ms": _round(r.latency_ms, 2),
        }
        if r.prediction is not None:
            entry["prediction"] = r.prediction
        if r.f1 is not None:
            entry["f1"] = _round(r.f1)
        if r.error is not None:
            entry["error"] = r.error
        methods[name] = entry
    return {
        "sample_id": q.sample_id,
        "index": q.index,
        "category": q.category,
        "category_name": category_name(q.category),
        "question": q.question,
        "answer": q.answer,
        "gold": q.gold,
        "unmatched": q.unmatched,
        "scored": q.scorable,
        "methods": methods,
    }


def build_summary(
    results: Sequence[QuestionResult],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    main_categories: Sequence[int] = MAIN_CATEGORIES,
    ingestion_seconds: float | dict[str, float] | None = None,
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The numbers behind summary.md / summary.json."""
    summary = aggregate(results, ks=ks, budgets=budgets, main_categories=main_categories)
    summary["methods"] = {n: summary["methods"][n] for n in ordered_methods(list(summary["methods"]))}
    summary["category_names"] = {str(c): category_name(c) for c in sorted({q.category for q in results})}
    if isinstance(ingestion_seconds, (int, float)):
        summary["ingestion_seconds"] = {"total": float(ingestion_seconds)}
    elif isinstance(ingestion_seconds, dict):
        summary["ingestion_seconds"] = {str(k): float(v) for k, v in ingestion_seconds.items()}
    else:
        summary["ingestion_seconds"] = {}
    summary["meta"] = dict(meta or {})
    summary["fusion_headroom"] = fusion_headroom(results, k=_category_k(ks), main_categories=main_categories)
    return _rounded(summary)


def _rounded(obj: Any) -> Any:
    if isinstance(obj, float):
        return _round(obj)
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rounded(v) for v in obj]
    return obj


def _fmt(x: Any, digits: int = 3) -> str:
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _category_k(ks: Sequence[int]) -> int:
    return 10 if 10 in ks else ks[0]


def render_markdown(summary: dict[str, Any]) -> str:
    ks = summary["ks"]
    budgets = summary["budgets"]
    main = summary["main_categories"]
    kc = _category_k(ks)
    present = [int(c) for c in summary["questions"]["by_category"]]
    main_present = [c for c in main if c in present]
    has_f1 = any("f1" in m["overall"] for m in summary["methods"].values())

    lines = ["# Engram retrieval evaluation", ""]
    meta = summary.get("meta") or {}
    for key, value in meta.items():
        lines.append(f"- {key}: {value}")
    q = summary["questions"]
    lines.append(
        f"- questions: {q['total']} in total, {q['scored']} scored in categories "
        f"{', '.join(map(str, main))}; {q['unscorable']} without usable gold evidence left out"
    )
    lines.append(f"- unmatched evidence ids (all questions): {summary['unmatched_evidence']}")
    lines.append("")

    header = ["method"] + [f"R@{k}" for k in ks]
    header += [f"R@{kc} {category_name(c)} ({c})" for c in main_present]
    header += [f"W@{b}" for b in budgets]
    if has_f1:
        header += ["F1", "judge"]
    header += ["questions", "unmatched ids"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
    for name, m in summary["methods"].items():
        ov = m["overall"]
        row = [name] + [_fmt(ov.get(f"recall@{k}")) for k in ks]
        row += [_fmt(m["by_category"].get(str(c), {}).get(f"recall@{kc}")) for c in main_present]
        row += [_fmt(ov.get(f"words@{b}")) for b in budgets]
        if has_f1:
            row += [_fmt(ov.get("f1")), _fmt(ov.get("judge"))]
        row += [str(ov["n"]), str(summary["unmatched_evidence_scored"])]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append(
        f"R@k: fraction of gold evidence turns among the first k distinct turns returned, averaged "
        f"over scored questions of categories {', '.join(map(str, main))}. W@n: the same, over the "
        "hits whose text fits, in rank order, in n words. Per-category columns use R@"
        f"{kc}. 'unmatched ids' counts evidence ids of the scored questions that name no turn."
    )
    if "hybrid_cv" in summary["methods"]:
        lines.append("")
        lines.append(
            "hybrid_cv: HYBRID's channel rankings fused again, each conversation with ranker weights "
            "fitted on the other conversations only: what the shipped weights can be expected to do "
            "on conversations they were not fitted on (hybrid uses the shipped weights). Its W@n "
            "counts the words of its hits' evidence turns.")
    lines.append("")

    others = [c for c in present if c not in main]
    for c in others:
        title = "Adversarial" if c == ADVERSARIAL_CATEGORY else category_name(c)
        lines.append(f"## {title} (category {c}, not in the overall numbers)")
        lines.append("")
        hdr = ["method"] + [f"R@{k}" for k in ks] + [f"W@{b}" for b in budgets] + ["questions"]
        lines.append("| " + " | ".join(hdr) + " |")
        lines.append("|" + "|".join(["---"] + ["---:"] * (len(hdr) - 1)) + "|")
        for name, m in summary["methods"].items():
            cat = m["by_category"].get(str(c), {})
            row = [name] + [_fmt(cat.get(f"recall@{k}")) for k in ks]
            row += [_fmt(cat.get(f"words@{b}")) for b in budgets] + [str(cat.get("n", 0))]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")

    head = summary.get("fusion_headroom")
    if head:
        singles = ", ".join(head["singles"])
        lines.append(f"## Fusion headroom (R@{head['k']}, {head['n']} questions)")
        lines.append("")
        lines.append(
            f"Gold turns in the first {head['k']} of any single channel ({singles}; "
            f"{len(head['singles']) * head['k']} turns together): {_fmt(head['union'])}. Of those, "
            f"missing from {head['fused']}'s first {head['k']}: {_fmt(head['lost'])}; in "
            f"{head['fused']}'s first {head['k']} and no single channel's: {_fmt(head['gained'])}. "
            f"{head['fused']} = union - lost + gained: a fusion that only reorders what the channels "
            "rank first cannot reach past the union.")
        lines.append("")

    lines.append("## Latency per query (ms)")
    lines.append("")
    lines.append("| method | p50 | p95 | p99 | errors |")
    lines.append("|---|---:|---:|---:|---:|")
    for name, m in summary["methods"].items():
        lat = m["latency_ms"]
        lines.append(
            f"| {name} | {_fmt(lat.get('p50'), 1)} | {_fmt(lat.get('p95'), 1)} | "
            f"{_fmt(lat.get('p99'), 1)} | {m['errors']} |"
        )
    lines.append("")
    lines.append("## Ingestion time")
    lines.append("")
    ing = summary.get("ingestion_seconds") or {}
    if ing:
        lines.append("| part | seconds |")
        lines.append("|---|---:|")
        for key, value in ing.items():
            lines.append(f"| {key} | {_fmt(value, 1)} |")
    else:
        lines.append("not measured")
    lines.append("")
    return "\n".join(lines)


def plot_recall_by_category(summary: dict[str, Any], path: str | Path, k: int | None = None) -> None:
    """Grouped bars: one group per main category present plus "all", one bar per method, R@k."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    k = k or _category_k(summary["ks"])
    present = {int(c) for c in summary["questions"]["by_category"]}
    cats = [c for c in summary["main_categories"] if c in present]
    groups = [f"{category_name(c)} ({c})" for c in cats] + ["all"]
    methods = list(summary["methods"])

    fig = Figure(figsize=(max(6.0, 1.6 * len(groups) + 0.4 * len(methods)), 4.5), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    n = max(1, len(methods))
    width = 0.8 / n
    for i, name in enumerate(methods):
        m = summary["methods"][name]
        vals = [m["by_category"].get(str(c), {}).get(f"recall@{k}") for c in cats]
        vals.append(m["overall"].get(f"recall@{k}"))
        heights = [v if v is not None else 0.0 for v in vals]
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, heights, width=width * 0.95, label=name)
    ax.set_xticks(list(range(len(groups))))
    ax.set_xticklabels(groups)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f"recall@{k}")
    ax.set_title(f"Evidence recall@{k} by question category")
    ax.grid(axis="y", alpha=0.3)
    if methods:
        ax.legend(fontsize="small", ncol=min(3, len(methods)))
    fig.tight_layout()
    fig.savefig(str(path))


def write_report(
    out_dir: str | Path,
    results: Sequence[QuestionResult],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    main_categories: Sequence[int] = MAIN_CATEGORIES,
    ingestion_seconds: float | dict[str, float] | None = None,
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write the four output files into out_dir (created if needed); return the summary."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / QUESTIONS_FILE, "w", encoding="utf-8") as fh:
        for q in results:
            fh.write(json.dumps(question_record(q), ensure_ascii=False) + "\n")
    summary = build_summary(
        results,
        ks=ks,
        budgets=budgets,
        main_categories=main_categories,
        ingestion_seconds=ingestion_seconds,
        meta=meta,
    )
    (out / SUMMARY_JSON).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / SUMMARY_MD).write_text(render_markdown(summary), encoding="utf-8")
    plot_recall_by_category(summary, out / PLOT_FILE)
    return summary


def final_result(summary: dict[str, Any], ks: Sequence[int] = (10, 5, 25, 50)) -> dict[str, Any]:
    """{"questions": n, "recall@10": {method: value}, "recall@5": ..., ...}, method names lower-case."""
    out: dict[str, Any] = {"questions": summary["questions"]["scored"]}
    for k in ks:
        out[f"recall@{k}"] = {
            name.lower(): m["overall"].get(f"recall@{k}") for name, m in summary["methods"].items()
        }
    return out


def final_json_line(summary: dict[str, Any]) -> str:
    """The final one-line JSON object a run prints."""
    return json.dumps(final_result(summary), separators=(", ", ": "))
