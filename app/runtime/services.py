"""What a running Engram holds: the driver, the embedder, and the state of the schema.

The process keeps no memory state of its own beyond these, so several API replicas can run
side by side against one Neo4j (or a cluster through a neo4j:// routing URI).
"""
from __future__ import annotations

import logging
import sys
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from neo4j import AsyncDriver

from app.embeddings import Embedder, get_embedder
from app.lifecycle import foresight_vectors
from app.settings import Settings
from app.store import term_stats
from app.store.driver import make_driver
from app.store.migrations import apply_migrations
from app.store.vector import as_floats, vector_param_maker

log = logging.getLogger("engram.services")


@dataclass
class Services:
    settings: Settings
    driver: AsyncDriver
    embedder: Embedder | None
    migrations_applied: list[str] = field(default_factory=list)
    # A query vector as a query parameter (app/store/vector.py: vector_param_maker).
    vector_param: Callable[[Any], Any] = as_floats

    def require_embedder(self) -> Embedder:
        if self.embedder is None:
            raise RuntimeError("the embedding model was not loaded")
        return self.embedder


@asynccontextmanager
async def open_services(settings: Settings, load_model: bool = True) -> AsyncIterator[Services]:
    """Connect, load the model (its dimension sizes the vector indexes) and migrate."""
    embedder = (get_embedder(settings.embedding_model, settings.embedding_batch_size, settings.embedding_runtime,
                             Path(settings.home) / "models", settings.query_embedding) if load_model else None)
    driver = make_driver(settings)
    try:
        await driver.verify_connectivity()
        # The vector indexes are sized by the model, so migrations wait for it.
        applied = (
            await apply_migrations(driver, embedder.dimensions, settings.neo4j_database)
            if embedder else []
        )
        if embedder:
            # The model's threads hand results back to the event loop: see the setting.
            sys.setswitchinterval(settings.gil_switch_interval_ms / 1000)
            # Text stored before the keyword statistics existed gets them, once per database.
            await term_stats.backfill(driver, settings.neo4j_database, log.info)
            # Foresight written before its vector was its trigger's gets the new one, once.
            await foresight_vectors.migrate(driver, embedder, settings, log.info)
        yield Services(settings, driver, embedder, applied, await vector_param_maker(driver))
    finally:
        await driver.close()
