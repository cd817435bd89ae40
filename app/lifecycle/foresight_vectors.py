"""Foresight vectors made again from the trigger alone (foresight_embedding_text), once per
database: foresight written before this version has vectors of its text and trigger together,
which bring it near any question naming the person it is about."""
from __future__ import annotations

from neo4j import AsyncDriver

from app.embeddings import Embedder
from app.lifecycle.backup_reembed import FLAG, reembed
from app.settings import Settings
from app.store import admin
from app.store.graph import TenantGraph

MIGRATION = "foresight_vectors_by_trigger"

# The import's flag says "make this vector" (backup_reembed.py); its recipe for foresight is the
# pipeline's, so flagging and re-embedding is the whole migration.
FLAG_FORESIGHT = f"MATCH (f:Foresight {{tenant: $tenant}}) SET f.{FLAG} = true"


async def migrate(driver: AsyncDriver, embedder: Embedder, settings: Settings,
                  log=lambda _m: None) -> int:
    """Re-embed every tenant's foresight unless done before; recorded only when complete, so an
    interrupted run is redone (flags left behind are set again and cleared with the vector)."""
    database = settings.neo4j_database
    if await admin.data_migrated(driver, MIGRATION, database):
        return 0
    made = 0
    for tenant in await admin.tenants_with_text(driver, database):
        graph = TenantGraph(driver, tenant, database)
        await graph.write(FLAG_FORESIGHT)
        stats = await reembed(graph, embedder, settings, labels=frozenset({"Foresight"}))
        made += stats.get("Foresight", {}).get("made", 0)
    if made:
        log(f"foresight vectors made from their triggers: {made}")
    await admin.record_data_migration(driver, MIGRATION, database)
    return made
