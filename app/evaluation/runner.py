"""`engram eval locomo`: LoCoMo-layout conversations through the service itself.

For each conversation: a fresh tenant, ingestion through the same path as the `memorize`
mutation (one call per session); then every question through the same path as the `search`
query, once per method, the query adapter fitted on the other conversations only
(adapter_fit.py); in the same run two baselines that do not use Engram's graph (BM25
and dense retrieval over the raw turns, same embedding model). Tenants are deleted afterwards
unless asked to keep them. HYBRID's channel rankings are kept to measure the learned ranker on
conversations it was not fitted on, and to fit it (ranker_fit.py).
"""
from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from app.construction.ingest import Ingestor
from app.evaluation.bm25 import BM25Index, DenseIndex
from app.evaluation.locomo import Conversation, load_locomo
from app.evaluation.metrics import QuestionResult, score_hits
from app.evaluation import adapter_fit, ranker_fit
from app.evaluation.report import final_json_line, write_report
from app.lifecycle.forget import purge_tenant
from app.recollection.context import build_context
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from app.runtime.services import Services
from app.store.graph import TenantGraph

BASELINES = ("bm25_turns", "dense_turns")


@dataclass
class EvalConfig:
    methods: list[str] = field(default_factory=lambda: ["hybrid", "keyword", "vector", "graph"])
    ks: tuple[int, ...] = (5, 10, 25, 50)
    budgets: tuple[int, ...] = (1000, 2000)
    limit: int | None = None  # questions per conversation
    conversations: int | None = None
    top_k: int = 50
    keep: bool = False
    answer: bool = False  # LLM answers + judge for the HYBRID context (needs an LLM)
    answer_budget: int = 2000  # tokens of context given to the answering LLM
    fit_ranker: Path | None = None  # where to write ranker weights fitted on every conversation
    fit_adapter: Path | None = None  # where to write a query adapter fitted on every conversation
    # Search every conversation through the shipped query adapter, none fitted on the others:
    # what a user gets on conversations nothing was fitted on (a held-out set).
    shipped: bool = False


def _tenant_for(sample_id: str) -> str:
    slug = re.sub(r"[^a-z0-9_]", "_", sample_id.lower())[:32]
    return f"eval_{slug}_{uuid.uuid4().hex[:8]}"


def sessions_of(conv: Conversation) -> list[list]:
    """Turns grouped by session (dia ids 'D<session>:<n>'; other ids: one group)."""
    groups: dict[str, list] = {}
    for t in conv.turns:
        key = t.id.split(":")[0] if ":" in t.id else "all"
        groups.setdefault(key, []).append(t)
    return list(groups.values())


async def _proved(graph: TenantGraph, conv: Conversation, embedder, limit: int | None) -> adapter_fit.Proved:
    """The conversation's questions with proof, as the query adapter is fitted on them: their
    vectors as a search embeds them and the turns' stored vectors."""
    rows = await graph.read("MATCH (t:Turn) WHERE t.tenant = $tenant AND t.embedding IS NOT NULL "
                            "RETURN t.id AS id, t.embedding AS embedding ORDER BY t.id")
    row_of = {r["id"]: i for i, r in enumerate(rows)}
    questions = [q for q in conv.questions[:limit] if any(e in row_of for e in q.evidence)]
    dim = embedder.dimensions
    queries = (await embedder.aembed_queries([q.text for q in questions]) if questions
               else np.zeros((0, dim), dtype=np.float32))
    turns = np.array([r["embedding"] for r in rows], dtype=np.float32).reshape(len(rows), dim)
    return adapter_fit.Proved(conv.sample_id, queries, turns,
                              [[row_of[e] for e in q.evidence if e in row_of] for q in questions])


async def _ask(conv: Conversation, graph: TenantGraph, searcher: SearchService, embedder, answerer,
               cfg: EvalConfig, results: list[QuestionResult], kept: list[ranker_fit.Ranked],
               progress: Callable[[str, int, int], None]) -> None:
    """Every question of the conversation through each method and both baselines."""
    texts = [t.content for t in conv.turns]
    bm25 = BM25Index([(t.id, t.content) for t in conv.turns])
    dense = DenseIndex([t.id for t in conv.turns], await embedder.aembed(texts))
    by_id = conv.turn_by_id()
    turn_texts = {t.id: t.content for t in conv.turns}  # W@n of hybrid_cv's hits
    turn_ids: dict[str, str] = {}  # filled once the questions are asked
    questions = conv.questions[: cfg.limit]
    for qi, q in enumerate(questions):
        qr = QuestionResult(conv.sample_id, q.index, q.category, q.text, q.evidence,
                            q.unmatched, q.answer)
        for m in cfg.methods:
            s = time.perf_counter()
            res = await searcher.search(graph.tenant, SearchRequest(
                query=q.text, method=Method(m.upper()), top_k=cfg.top_k))
            ms = (time.perf_counter() - s) * 1000
            hits = [([e["id"] for e in h.evidence], build_context([h], None)) for h in res.hits]
            prediction = None
            if answerer is not None and m == "hybrid":
                prediction = await answerer.answer(q.text, build_context(res.hits, cfg.answer_budget))
            qr.methods[m] = score_hits(hits, q.evidence, ks=cfg.ks, budgets=cfg.budgets,
                                       latency_ms=ms, prediction=prediction, answer=q.answer)
            if prediction is not None:
                qr.methods[m].correct = await answerer.judge(q.text, q.answer, prediction)
            if m == "hybrid":
                kept.append(ranker_fit.Ranked(conv.sample_id, qr, res.rankings, turn_ids, turn_texts,
                                                res.word_idf))
        s = time.perf_counter()
        ranked = bm25.search(q.text, cfg.top_k)
        ms = (time.perf_counter() - s) * 1000
        qr.methods["bm25_turns"] = score_hits(
            [([i], by_id[i].content) for i, _ in ranked], q.evidence, ks=cfg.ks,
            budgets=cfg.budgets, latency_ms=ms)
        s = time.perf_counter()
        qv = (await embedder.aembed([q.text]))[0]
        ranked = dense.search(qv, cfg.top_k)
        ms = (time.perf_counter() - s) * 1000
        qr.methods["dense_turns"] = score_hits(
            [([i], by_id[i].content) for i, _ in ranked], q.evidence, ks=cfg.ks,
            budgets=cfg.budgets, latency_ms=ms)
        results.append(qr)
        progress(f"{conv.sample_id}: questions", qi + 1, len(questions))
    turn_ids.update({r["key"]: r["id"] for r in await graph.read(
        "MATCH (t:Turn) WHERE t.tenant = $tenant RETURN elementId(t) AS key, t.id AS id")})


async def run_locomo(services: Services, data: Path, out: Path, cfg: EvalConfig,
                     progress: Callable[[str, int, int], None] = lambda *_: None) -> dict:
    convs = load_locomo(data)[: cfg.conversations]
    ingestor = Ingestor(services)
    searcher = SearchService(services)
    embedder = services.require_embedder()
    answerer = None
    if cfg.answer:
        from app.evaluation.answering import Answerer

        answerer = Answerer(services.settings)
    results: list[QuestionResult] = []
    kept: list[ranker_fit.Ranked] = []  # HYBRID's rankings, for ranker_fit
    ingest_s: dict[str, float] = {}
    graphs: dict[str, TenantGraph] = {}
    try:
        # Every conversation first: each one's questions are then searched through a query
        # adapter fitted on the others' (adapter_fit.py), which needs their stored turns.
        for conv in convs:
            graph = graphs[conv.sample_id] = TenantGraph(services.driver, _tenant_for(conv.sample_id),
                                                         services.settings.neo4j_database)
            t0 = time.perf_counter()
            sessions = sessions_of(conv)
            for si, session in enumerate(sessions):
                await ingestor.memorize(graph.tenant, conv.sample_id, session, flush=si == len(sessions) - 1)
                progress(f"{conv.sample_id}: ingest", si + 1, len(sessions))
            ingest_s[conv.sample_id] = time.perf_counter() - t0
        # Read and embedded only when a map is to be fitted (the adapter off: none is).
        held = searcher.adapter is not None and not cfg.shipped
        fitting = held or cfg.fit_adapter is not None
        proved = [await _proved(graphs[c.sample_id], c, embedder, cfg.limit) for c in convs] if fitting else []
        adapters = adapter_fit.held_out(proved) if held else {}
        if cfg.fit_adapter is not None:
            cfg.fit_adapter.parent.mkdir(parents=True, exist_ok=True)
            adapter_fit.fit(proved).save(cfg.fit_adapter)
        shipped = searcher.adapter
        for ci, conv in enumerate(convs):
            searcher.adapter = adapters.get(conv.sample_id, shipped)
            await _ask(conv, graphs[conv.sample_id], searcher, embedder, answerer, cfg, results, kept, progress)
            progress("conversations", ci + 1, len(convs))
    finally:
        await searcher.settle()
        if not cfg.keep:
            for graph in graphs.values():
                await purge_tenant(graph)
    adapter = "off" if shipped is None else "held out" if adapters else "shipped"
    extra = []
    if ranker_fit.cross_validate(kept, services.settings, cfg.top_k, cfg.ks, cfg.budgets):
        extra.append(ranker_fit.CV_METHOD)
    if cfg.fit_ranker is not None:
        scored = sum(1 for e in kept if e.question.scorable)
        model = ranker_fit.fit(kept, {"fitted_on": f"{data.name}: {len(convs)} conversations, "
                                                      f"{scored} questions with proof", "l2": ranker_fit.L2})
        cfg.fit_ranker.parent.mkdir(parents=True, exist_ok=True)
        model.save(cfg.fit_ranker)
    summary = write_report(out, results, ks=cfg.ks, budgets=cfg.budgets, ingestion_seconds=ingest_s,
                           meta={"data": str(data), "methods": cfg.methods + extra + list(BASELINES),
                                 "top_k": cfg.top_k, "extractor": services.settings.extractor,
                                 "fusion": services.settings.fusion, "query_adapter": adapter})
    summary["final_line"] = final_json_line(summary)
    return summary
