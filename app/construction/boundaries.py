"""Boundary detection: cut a conversation's turn stream into MemCells (episodes).

A new cell starts when any rule fires, checked in this order:
  max_turns / max_tokens  hard limits, so a cell always fits an extraction prompt;
  day                     the calendar day of the timestamp changes;
  gap                     more than gap_hours since the previous turn;
  topic                   the mean embedding of the last `window` turns and of the next `window`
                          turns are further apart than the threshold (cosine below it).
The last cell stays open (its turns pending) until a later turn closes it or the client flushes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app.domain.models import CellDraft, TurnRecord

MIN_TOPIC_CELL = 4  # never cut a topic shorter than this: two-turn "topics" are noise


@dataclass(frozen=True)
class BoundaryRules:
    max_turns: int = 24
    max_tokens: int = 2048
    gap_hours: float = 4.0
    topic_threshold: float = 0.18
    window: int = 3


def approx_tokens(text: str) -> int:
    # ~4 characters a token for English; an estimate is all a budget needs.
    return max(1, len(text) // 4)


def unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n else v


def split_reason(rules: BoundaryRules, cell: list[int], i: int, turns: list[TurnRecord],
                 vectors: np.ndarray, cell_tokens: int) -> str | None:
    """Why turn i must start a new cell after the open `cell` (indices), or None."""
    t, prev = turns[i], turns[cell[-1]]
    if len(cell) >= rules.max_turns:
        return "max_turns"
    if cell_tokens + approx_tokens(t.content) > rules.max_tokens:
        return "max_tokens"
    if t.at.date() != prev.at.date():
        return "day"
    if (t.at - prev.at).total_seconds() > rules.gap_hours * 3600:
        return "gap"
    w = rules.window
    if len(cell) >= MIN_TOPIC_CELL and i + w <= len(turns) and len(vectors):
        before = unit(vectors[cell[-w:]].mean(axis=0))
        after = unit(vectors[i:i + w].mean(axis=0))
        if float(before @ after) < rules.topic_threshold:
            return "topic"
    return None


def cut(turns: list[TurnRecord], vectors: np.ndarray, rules: BoundaryRules,
        flush: bool) -> list[tuple[CellDraft, str]]:
    """Cells in order, each with the reason it was closed ("open" for the pending tail)."""
    if not turns:
        return []
    cells: list[tuple[CellDraft, str]] = []
    cell, tokens = [0], approx_tokens(turns[0].content)
    for i in range(1, len(turns)):
        reason = split_reason(rules, cell, i, turns, vectors, tokens)
        if reason:
            cells.append((CellDraft([turns[j] for j in cell], closed=True), reason))
            cell, tokens = [i], 0
        else:
            cell.append(i)
        tokens += approx_tokens(turns[i].content)
    tail = CellDraft([turns[j] for j in cell], closed=flush)
    cells.append((tail, "flush" if flush else "open"))
    return cells
