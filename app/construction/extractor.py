"""The extractor interface: one MemCell's turns in, title/summary/facts/entities/foresight out."""
from __future__ import annotations

from typing import Protocol

from app.domain.models import Extraction, TurnRecord


class ExtractionError(RuntimeError):
    """Extraction failed for a cell; its turns stay pending and are retried later."""


class Extractor(Protocol):
    name: str

    async def extract(self, turns: list[TurnRecord]) -> Extraction:
        """Turns are in time order and all belong to one conversation."""
        ...
