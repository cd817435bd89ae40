"""In-process baselines over raw turns: Okapi BM25 ("bm25_turns") and dense dot-product search
("dense_turns"). They need no database, so they show what plain retrieval over the transcript
achieves on the same questions.
"""
from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from typing import Iterable, Sequence

import numpy as np

_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens; no stemming, no stop words."""
    return _WORD.findall(text.lower()) if text else []


class BM25Index:
    """Okapi BM25 over (id, text) documents.

    score(d, q) = sum over distinct query terms t of
        idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))
    with idf(t) = ln(1 + (N - n_t + 0.5) / (n_t + 0.5)), which stays positive for common terms.
    """

    def __init__(self, docs: Iterable[tuple[str, str]], k1: float = 1.2, b: float = 0.75):
        self.k1 = k1
        self.b = b
        self.ids: list[str] = []
        self.lengths: list[int] = []
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for doc_id, text in docs:
            tokens = tokenize(text)
            idx = len(self.ids)
            self.ids.append(doc_id)
            self.lengths.append(len(tokens))
            for term, tf in Counter(tokens).items():
                self.postings[term].append((idx, tf))
        self.n_docs = len(self.ids)
        self.avgdl = (sum(self.lengths) / self.n_docs) if self.n_docs else 0.0

    def __len__(self) -> int:
        return self.n_docs

    def idf(self, term: str) -> float:
        n_t = len(self.postings.get(term, ()))
        return math.log(1.0 + (self.n_docs - n_t + 0.5) / (n_t + 0.5))

    def scores(self, query: str) -> dict[int, float]:
        """Document index -> score, for documents sharing at least one term with the query."""
        out: dict[int, float] = defaultdict(float)
        if not self.n_docs:
            return out
        avgdl = self.avgdl or 1.0
        for term in set(tokenize(query)):
            plist = self.postings.get(term)
            if not plist:
                continue
            idf = self.idf(term)
            for idx, tf in plist:
                norm = self.k1 * (1.0 - self.b + self.b * self.lengths[idx] / avgdl)
                out[idx] += idf * tf * (self.k1 + 1.0) / (tf + norm)
        return out

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        """Best k documents as (id, score), highest first; ties keep document order."""
        if k <= 0:
            return []
        scored = self.scores(query)
        best = heapq.nsmallest(k, scored.items(), key=lambda item: (-item[1], item[0]))
        return [(self.ids[idx], score) for idx, score in best]


class DenseIndex:
    """Exact nearest neighbours by dot product over (normalised) vectors."""

    def __init__(self, ids: Sequence[str], vectors: np.ndarray | Sequence[Sequence[float]], normalize: bool = True):
        mat = np.asarray(vectors, dtype=np.float32)
        if mat.ndim == 1 and len(ids) == 1:
            mat = mat.reshape(1, -1)
        elif mat.size == 0 and not len(ids):
            mat = mat.reshape(0, mat.shape[-1] if mat.ndim == 2 else 0)
        if mat.ndim != 2 or mat.shape[0] != len(ids):
            raise ValueError(f"{len(ids)} ids but vectors of shape {mat.shape}")
        if normalize and mat.size:
            norms = np.linalg.norm(mat, axis=1, keepdims=True)
            mat = mat / np.where(norms == 0, 1.0, norms)
        self.ids = list(ids)
        self.matrix = mat
        self.normalize = normalize

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query_vector: np.ndarray | Sequence[float], k: int = 10) -> list[tuple[str, float]]:
        """Best k (id, score) by dot product, highest first; ties keep insertion order."""
        if k <= 0 or not self.ids:
            return []
        q = np.asarray(query_vector, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.matrix.shape[1]:
            raise ValueError(f"query has dimension {q.shape[0]}, index has {self.matrix.shape[1]}")
        if self.normalize:
            norm = float(np.linalg.norm(q))
            if norm:
                q = q / norm
        sims = self.matrix @ q
        k = min(k, len(self.ids))
        # Stable sort on negated scores: equal scores keep the order the ids were given in.
        order = np.argsort(-sims, kind="stable")[:k]
        return [(self.ids[i], float(sims[i])) for i in order]
