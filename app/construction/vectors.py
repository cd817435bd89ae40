"""Texts -> vectors for one processing call: every distinct text is embedded once, and the texts
of a step go to the model together, so its length-sorted batches waste little on padding.

The model is the one cost of ingestion that cannot be avoided, so the pipeline asks for vectors
early (in a thread) and does its graph work while they are computed.
"""
from __future__ import annotations

import asyncio

import numpy as np

from app.construction.sentences import sentence_spans
from app.embeddings import Embedder

Sentences = list[tuple[int, int, np.ndarray]]  # (start, end, vector) of each sentence of a text


class TextVectors:
    def __init__(self, embedder: Embedder, known: dict[str, np.ndarray] | None = None):
        self.embedder = embedder
        self._vec: dict[str, np.ndarray] = dict(known or {})
        self._sent: dict[str, Sentences] = {}
        self._inflight: dict[str, asyncio.Future] = {}  # text -> the fill embedding it now

    def __contains__(self, text: str) -> bool:
        return text in self._vec

    def get(self, text: str) -> np.ndarray:
        return self._vec[text]

    def put(self, text: str, vector: np.ndarray) -> None:
        self._vec[text] = vector

    def drop(self, texts) -> None:
        """Forget vectors a finished step no longer needs (a busy conversation's cache would
        otherwise grow with it)."""
        for t in texts:
            self._vec.pop(t, None)
            self._sent.pop(t, None)

    def sentences(self, text: str) -> Sentences | None:
        return self._sent.get(text)

    def put_sentences(self, text: str, sentences: Sentences) -> None:
        self._sent[text] = sentences

    async def fill(self, texts: list[str], heads: list[int] | None = None, bulk: bool = False) -> None:
        """Embed, in one call to the model, the texts not seen before. A text that a background
        fill is already embedding is waited for, not embedded twice. With `heads` (where each
        text's content starts after its who-and-when head), each sentence of the content gets
        a vector too, from the same pass of the model."""
        def missing_now() -> list[str]:
            if heads is None:
                return [t for t in texts if t not in self._vec]
            return [t for t in texts if t not in self._vec or t not in self._sent]

        # Texts another fill is embedding right now are waited for (only those fills).
        waits = {id(f): f for t in missing_now() if (f := self._inflight.get(t)) is not None}
        for f in waits.values():
            # Shielded: a waiter cancelled (a shutdown, a client gone) cancelled the other
            # fill's future with it, whose own end then failed to set it.
            await settle(asyncio.shield(f))
        missing = list(dict.fromkeys(missing_now()))
        if not missing:
            return
        mine = asyncio.get_running_loop().create_future()
        for t in missing:
            self._inflight[t] = mine
        try:
            if heads is None:
                for t, v in zip(missing, await self.embedder.aembed(missing, bulk=bulk)):
                    self._vec[t] = v
                return
            head_of = dict(zip(texts, heads))
            spans = [sentence_spans(t[head_of[t]:], offset=head_of[t]) for t in missing]
            vecs, span_vecs = await self.embedder.aembed_spans(missing, spans, [head_of[t] for t in missing],
                                                               bulk=bulk)
            for t, v, sp, sv in zip(missing, vecs, spans, span_vecs):
                self._vec[t] = v
                self._sent[t] = [(a, z, x) for (a, z), x in zip(sp, sv)]
        finally:
            mine.set_result(None)  # (its waiters shield it: none can cancel it)
            for t in missing:
                if self._inflight.get(t) is mine:
                    del self._inflight[t]

    def start(self, texts: list[str], heads: list[int] | None = None, bulk: bool = False) -> asyncio.Task:
        """fill() in the background: the caller goes on with graph work and awaits it later.
        `bulk`: in order behind earlier bulk work (see Embedder)."""
        return asyncio.create_task(self.fill(texts, heads, bulk))

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
