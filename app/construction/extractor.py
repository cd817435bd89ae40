"""The extractor interface: one MemCell's turns in, title/summary/facts/entities/foresight out."""
from __future__ import annotations

from typing import Protocol, Sequence

from app.domain.models import EntityDraft, Extraction, TurnRecord


class ExtractionError(RuntimeError):
    """Extraction failed for a cell; its turns stay pending and are retried later."""


class Extractor(Protocol):
    name: str

    async def extract(self, turns: list[TurnRecord], known: Sequence[EntityDraft] = ()) -> Extraction:
        """Turns are in time order and all belong to one conversation. `known`: the entities
        the conversation has named before (known_names.py), newest first: names to recognise
        and to write the same way."""
        ...
