"""A learned linear map of the query vector, for comparing a query with what people said.

The model embeds a question and the turn that answers it as two texts that merely share a topic:
"What did Caroline research?" lies closer to other questions about Caroline than to "I've been
looking into adoption agencies". A question and its answer are not symmetric, and a small map
learned from questions whose proving turns are known moves a question's vector toward the
statements that answer such questions:

    q' = normalise(W q),  W = I + A

fitted by app/evaluation/adapter_fit.py (a softmax over each question's conversation's turns,
its proving turns the targets, A pulled toward zero), `engram eval locomo --fit-adapter`. Only
the query side changes: stored vectors stay as they are. The mapped vector (the `$adapted`
parameter) searches the turn and fact indexes and scores turns, facts and episodes wherever a
channel compares them with the query; the foresight, scene and entity-name indexes keep the
model's own (`$vector`), whose thresholds were set on it. Measured on LoCoMo dev: README,
Evaluation.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

DEFAULT_PATH = Path(__file__).with_name("query_adapter.npy")


@dataclass(frozen=True)
class QueryAdapter:
    matrix: np.ndarray  # W, [dimensions, dimensions]

    def apply(self, vector: np.ndarray) -> np.ndarray:
        out = self.matrix @ np.asarray(vector, dtype=np.float32)
        return (out / max(float(np.linalg.norm(out)), 1e-12)).astype(np.float32)

    @classmethod
    def load(cls, path: Path | str = DEFAULT_PATH) -> "QueryAdapter":
        matrix = np.load(path).astype(np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"{path}: a query adapter is a square matrix, not {matrix.shape}")
        return cls(matrix)

    def save(self, path: Path | str) -> None:
        # float16 halves the file; the map's entries are small corrections around 1 and 0.
        np.save(path, self.matrix.astype(np.float16))
