"""Retrieval and answer metrics for the evaluation harness.

A retrieval method returns ranked hits; each hit carries the ids of the turns it rests on
(its evidence) and the text that would be handed to an answering model. Recall is measured on
turns: which gold evidence turns appear among the evidence of the first hits.
"""
from __future__ import annotations

import math
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
MAIN_CATEGORIES: tuple[int, ...] = (1, 2, 3, 4)  # "overall" is computed over these
ADVERSARIAL_CATEGORY = 5  # reported apart, never in "overall"
DEFAULT_KS: tuple[int, ...] = (5, 10, 25, 50)
DEFAULT_BUDGETS: tuple[int, ...] = (1000, 2000)
PERCENTILES: tuple[int, ...] = (50, 95, 99)


def category_name(category: int) -> str:
    return CATEGORY_NAMES.get(category, f"category-{category}")


# ---------------------------------------------------------------------------------------------
# Per-question retrieval metrics


def _dedupe(ids: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for i in ids:
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


def evidence_turns(ranked_hits: Sequence[Sequence[str]]) -> list[str]:
    """Turn ids of ranked hits, in hit rank order then evidence order, each id once."""
    return _dedupe(tid for hit in ranked_hits for tid in hit)


def is_scorable(gold: Sequence[str] | None) -> bool:
    """Whether a question can be scored for retrieval: it needs at least one gold turn.

    Questions without gold evidence (none given, or none matching a turn) are left out by the
    caller, and counted apart.
    """
    return bool(gold)


def recall_at_k(ranked_turn_ids: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Fraction of the distinct gold turns found among the first k distinct ranked turn ids.

    Duplicates in the ranking are dropped before cutting at k, so a turn repeated by several
    hits takes one slot. Empty gold is an error: check `is_scorable` first.
    """
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("recall is undefined without gold evidence; filter with is_scorable()")
    if k <= 0:
        return 0.0
    top = set(_dedupe(ranked_turn_ids)[:k])
    return len(gold_set & top) / len(gold_set)


def _word_count(text: str | None) -> int:
    return len(text.split()) if text else 0


def recall_within_words(
    hits_with_text: Sequence[tuple[Sequence[str], str]], gold: Sequence[str], budget_words: int
) -> float:
    """Recall of gold turns among the hits whose text fits, in rank order, in `budget_words`.

    Hits are taken in rank order while the running word count (whitespace-separated words of
    each hit's text) stays within the budget; the first hit that would overflow it ends the
    walk, as a context packer cutting the ranked list would.
    """
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("recall is undefined without gold evidence; filter with is_scorable()")
    used = 0
    covered: set[str] = set()
    for evidence, text in hits_with_text:
        used += _word_count(text)
        if used > budget_words:
            break
        covered.update(evidence)
    return len(gold_set & covered) / len(gold_set)


def words_of_hits(hits_with_text: Sequence[tuple[Sequence[str], str]]) -> int:
    return sum(_word_count(text) for _, text in hits_with_text)


def percentiles(values: Iterable[float], ps: Sequence[int] = PERCENTILES) -> dict[str, float | None]:
    """{"p50": ..., "p95": ..., "p99": ...} with linear interpolation; None when there are no values."""
    vals = sorted(float(v) for v in values if v is not None and not math.isnan(float(v)))
    out: dict[str, float | None] = {}
    for p in ps:
        if not vals:
            out[f"p{p}"] = None
            continue
        pos = (len(vals) - 1) * p / 100.0
        lo = math.floor(pos)
        hi = min(lo + 1, len(vals) - 1)
        out[f"p{p}"] = vals[lo] + (vals[hi] - vals[lo]) * (pos - lo)
    return out


# ---------------------------------------------------------------------------------------------
# Answers


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans({c: " " for c in string.punctuation})


def normalize_answer(text: Any) -> str:
    """Lower-case, punctuation and articles removed, whitespace collapsed."""
    s = "" if text is None else str(text)
    s = s.lower().translate(_PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def token_f1(prediction: Any, reference: Any) -> float:
    """Token-level F1 between two answers after normalisation (SQuAD style)."""
    pred = normalize_answer(prediction).split()
    ref = normalize_answer(reference).split()
    if not pred and not ref:
        return 1.0
    if not pred or not ref:
        return 0.0
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred)
    recall = same / len(ref)
    return 2 * precision * recall / (precision + recall)


# ---------------------------------------------------------------------------------------------
# Results and aggregation


@dataclass
class MethodResult:
    """What one method returned for one question, scored."""

    ranked_turn_ids: list[str]
    recall: dict[int, float] = field(default_factory=dict)  # k -> recall@k (empty if unscorable)
    words_recall: dict[int, float] = field(default_factory=dict)  # budget -> recall
    words_returned: int = 0
    latency_ms: float | None = None
    prediction: str | None = None  # answering mode
    f1: float | None = None
    error: str | None = None
    correct: bool | None = None  # the LLM judge's verdict (answering mode)


@dataclass
class QuestionResult:
    sample_id: str
    index: int
    category: int
    question: str
    gold: list[str]
    unmatched: list[str] = field(default_factory=list)
    answer: str | None = None
    methods: dict[str, MethodResult] = field(default_factory=dict)

    @property
    def scorable(self) -> bool:
        return is_scorable(self.gold)


def score_hits(
    hits_with_text: Sequence[tuple[Sequence[str], str]],
    gold: Sequence[str],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    latency_ms: float | None = None,
    prediction: str | None = None,
    answer: str | None = None,
    error: str | None = None,
) -> MethodResult:
    """Score one method's ranked hits ([(evidence turn ids, text)], best first) for one question."""
    ranked = evidence_turns([list(ev) for ev, _ in hits_with_text])
    result = MethodResult(
        ranked_turn_ids=ranked,
        words_returned=words_of_hits(hits_with_text),
        latency_ms=latency_ms,
        prediction=prediction,
        error=error,
    )
    if is_scorable(gold):
        result.recall = {k: recall_at_k(ranked, gold, k) for k in ks}
        result.words_recall = {b: recall_within_words(hits_with_text, gold, b) for b in budgets}
    if prediction is not None and answer is not None:
        result.f1 = token_f1(prediction, answer)
    return result


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _summarise(results: list[MethodResult], ks: Sequence[int], budgets: Sequence[int]) -> dict[str, Any]:
    out: dict[str, Any] = {"n": len(results)}
    for k in ks:
        out[f"recall@{k}"] = _mean([r.recall[k] for r in results if k in r.recall])
    for b in budgets:
        out[f"words@{b}"] = _mean([r.words_recall[b] for r in results if b in r.words_recall])
    f1s = [r.f1 for r in results if r.f1 is not None]
    if f1s:
        out["f1"] = _mean(f1s)
    verdicts = [1.0 if r.correct else 0.0 for r in results if r.correct is not None]
    if verdicts:
        out["judge"] = _mean(verdicts)
    return out


def method_names(results: Sequence[QuestionResult]) -> list[str]:
    """Methods in the order they first appear."""
    names: list[str] = []
    for q in results:
        for name in q.methods:
            if name not in names:
                names.append(name)
    return names


def aggregate(
    results: Sequence[QuestionResult],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    main_categories: Sequence[int] = MAIN_CATEGORIES,
) -> dict[str, Any]:
    """Per method: overall (scorable questions of the main categories) and per category.

    Returns {
      "methods": {name: {"overall": {n, recall@k..., words@b..., f1?},
                         "by_category": {"1": {...}, ..., "5": {...}},
                         "latency_ms": {p50, p95, p99}, "errors": int}},
      "questions": {"total", "scored" (main categories), "unscorable", "by_category": {cat: n}},
      "unmatched_evidence": int (unmatched evidence pieces over all questions),
    }
    """
    main = set(main_categories)
    names = method_names(results)
    categories = sorted({q.category for q in results})
    methods: dict[str, Any] = {}
    for name in names:
        per_cat: dict[int, list[MethodResult]] = {c: [] for c in categories}
        overall: list[MethodResult] = []
        latencies: list[float] = []
        errors = 0
        for q in results:
            r = q.methods.get(name)
            if r is None:
                continue
            if r.latency_ms is not None:
                latencies.append(r.latency_ms)
            errors += r.error is not None
            if not q.scorable:
                continue
            per_cat[q.category].append(r)
            if q.category in main:
                overall.append(r)
        methods[name] = {
            "overall": _summarise(overall, ks, budgets),
            "by_category": {str(c): _summarise(per_cat[c], ks, budgets) for c in categories},
            "latency_ms": percentiles(latencies),
            "errors": errors,
        }
    scored = [q for q in results if q.scorable]
    return {
        "methods": methods,
        "questions": {
            "total": len(results),
            "scored": sum(1 for q in scored if q.category in main),
            "unscorable": len(results) - len(scored),
            "by_category": {str(c): sum(1 for q in scored if q.category == c) for c in categories},
        },
        "unmatched_evidence": sum(len(q.unmatched) for q in results),
        "unmatched_evidence_scored": sum(len(q.unmatched) for q in scored if q.category in main),
        "ks": list(ks),
        "budgets": list(budgets),
        "main_categories": list(main_categories),
    }


# ---------------------------------------------------------------------------------------------
# How much a fused method takes from the single channels


FUSED_METHOD = "hybrid"
SINGLE_METHODS = ("keyword", "vector", "graph")


def fusion_headroom(results: Sequence[QuestionResult], k: int = 10, fused: str = FUSED_METHOD,
                    singles: Sequence[str] = SINGLE_METHODS,
                    main_categories: Sequence[int] = MAIN_CATEGORIES) -> dict[str, Any] | None:
    """Where the fused method's first k turns stand against the single channels' first k, over
    the scorable questions of the main categories (shares of each question's gold turns, averaged):

      union   gold turns in any single channel's first k (len(singles) x k turns together): a
              fusion that only reorders what the channels rank first cannot fit more into k;
      lost    gold turns some single channel had in its first k and the fused method has not;
      gained  gold turns in the fused method's first k that no single channel had there.

    fused R@k = union - lost + gained. None when the fused method or a single one was not run."""
    main = set(main_categories)
    rows = [q for q in results if q.scorable and q.category in main
            and fused in q.methods and all(s in q.methods for s in singles)]
    if not rows or not singles:
        return None
    parts: dict[str, list[float]] = {"union": [], "lost": [], "gained": []}
    for q in rows:
        gold = set(q.gold)
        top = set(q.methods[fused].ranked_turn_ids[:k]) & gold
        theirs = set().union(*(set(q.methods[s].ranked_turn_ids[:k]) for s in singles)) & gold
        parts["union"].append(len(theirs) / len(gold))
        parts["lost"].append(len(theirs - top) / len(gold))
        parts["gained"].append(len(top - theirs) / len(gold))
    return {"k": k, "fused": fused, "singles": list(singles), "n": len(rows),
            **{name: _mean(v) for name, v in parts.items()}}
