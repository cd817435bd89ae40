"""The learned ranker (app/recollection/ranker.py) against the evaluation's questions: fitted on
them, and measured on conversations it was not fitted on.

For every HYBRID question the evaluation keeps what fusion read (SearchResult.rankings) and
which dataset turn each candidate turn is. Then:

  hybrid_cv   each conversation's questions fused again with weights fitted on the other
              conversations only: what the shipped weights can be expected to do on
              conversations they have never seen (the `hybrid` row uses the shipped weights,
              which may have been fitted on these very conversations);
  fit         weights fitted on every conversation, written where --fit-ranker says (to ship
              them: app/recollection/ranker.json).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from app.evaluation.metrics import QuestionResult, score_hits
from app.recollection import ranker
from app.recollection.fusion import replies
from app.recollection.channels.base import Candidate
from app.recollection.request import Method
from app.recollection.search import fuse_channels
from app.settings import Settings

CV_METHOD = "hybrid_cv"
L2 = 1e-3


@dataclass
class Ranked:
    """One HYBRID question: its channels' candidates and the dataset ids of their turns."""
    conversation: str
    question: QuestionResult
    rankings: dict[str, list[Candidate]]
    turn_ids: dict[str, str]  # elementId -> dataset turn id
    texts: dict[str, str]  # dataset turn id -> text (W@n of the re-fused hits)
    word_idf: dict[str, float]  # the query's words' idf over the tenant's turns (SearchResult)

    @cached_property
    def training_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Once per question: cross-validation fits a model per conversation on the others."""
        turns, X = ranker.features(self.rankings, replies(self.rankings), self.question.question,
                                   self.word_idf)
        gold = set(self.question.gold)
        return X, np.array([self.turn_ids.get(t) in gold for t in turns], dtype=float)


def _usable(examples: Sequence[Ranked]) -> list[Ranked]:
    return [e for e in examples if e.question.scorable]


def fit(examples: Sequence[Ranked], meta: dict | None = None) -> ranker.Ranker:
    return ranker.Ranker(ranker.fit([e.training_rows for e in _usable(examples)], l2=L2), dict(meta or {}))


def cross_validate(examples: Sequence[Ranked], settings: Settings, top_k: int, ks: Sequence[int],
                   budgets: Sequence[int]) -> bool:
    """Adds CV_METHOD to each question's results; False when there are fewer than two
    conversations (nothing to hold out)."""
    conversations = list(dict.fromkeys(e.conversation for e in examples))
    if len(conversations) < 2:
        return False
    for held_out in conversations:
        model = fit([e for e in examples if e.conversation != held_out])
        for e in examples:
            if e.conversation != held_out:
                continue
            fused = fuse_channels(e.rankings, Method.HYBRID, settings, model, depth=0,
                                  query=e.question.question, word_idf=e.word_idf)
            hits = []
            for f in fused[:top_k]:
                ids = [e.turn_ids[t] for t in f.evidence if t in e.turn_ids]
                hits.append((ids, " ".join(e.texts.get(i, "") for i in ids)))
            e.question.methods[CV_METHOD] = score_hits(hits, e.question.gold, ks=ks, budgets=budgets)
    return True
