"""Texts -> vectors for one processing call: every distinct text is embedded once, and the texts
of a step go to the model together, so its length-sorted batches waste little on padding.

The model is the one cost of ingestion that cannot be avoided, so the pipeline asks for vectors
early (in a thread) and does its graph work while they are computed.
"""
from __future__ import annotations

import asyncio

import numpy as np

from app.embeddings import Embedder


class TextVectors:
    def __init__(self, embedder: Embedder, known: dict[str, np.ndarray] | None = None):
        self.embedder = embedder
        self._vec: dict[str, np.ndarray] = dict(known or {})
        self._running: list[asyncio.Task] = []

    def __contains__(self, text: str) -> bool:
        return text in self._vec

    def get(self, text: str) -> np.ndarray:
        return self._vec[text]

    def put(self, text: str, vector: np.ndarray) -> None:
        self._vec[text] = vector

    async def fill(self, texts: list[str]) -> None:
        """Embed, in one call to the model, the texts not seen before. A text that a background
        fill is already embedding is waited for, not embedded twice."""
        missing = [t for t in texts if t not in self._vec]
        others = [t for t in self._running if t is not asyncio.current_task()]
        if missing and others:
            for task in others:
                await settle(task)
            missing = [t for t in missing if t not in self._vec]
        missing = list(dict.fromkeys(missing))
        if missing:
            for t, v in zip(missing, await self.embedder.aembed(missing)):
                self._vec[t] = v

    def start(self, texts: list[str]) -> asyncio.Task:
        """fill() in the background: the caller goes on with graph work and awaits it later."""
        task = asyncio.create_task(self.fill(texts))
        self._running = [t for t in self._running if not t.done()] + [task]
        return task

    async def embed(self, texts: list[str]) -> np.ndarray:
        """The embed(texts) -> matrix interface, served from what is already known."""
        await self.fill(texts)
        if not texts:
            return np.zeros((0, self.embedder.dimensions), dtype=np.float32)
        return np.stack([self._vec[t] for t in texts])


async def settle(task: asyncio.Task | None) -> None:
    """Wait for a background step that may be abandoned on an error path, without raising twice."""
    if task is not None:
        try:
            await task
        except Exception:  # noqa: BLE001 - the error that abandoned it is the one reported
            pass
