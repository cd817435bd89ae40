"""Schema migrations: cypher/migrations/NNNN_name.cypher, applied in order, each once.

Each applied file is recorded as (:Migration {name, checksum, appliedAt}). Statements use
IF NOT EXISTS, so a run interrupted between a statement and its record is simply redone.
A file whose text changed after it was applied is reported, not silently re-run.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from neo4j import AsyncDriver

from app.settings import PROJECT_ROOT

MIGRATIONS_DIR = PROJECT_ROOT / "cypher" / "migrations"

APPLIED = "MATCH (m:Migration) RETURN m.name AS name, m.checksum AS checksum"
RECORD = """
MERGE (m:Migration {name: $name})
SET m.checksum = $checksum, m.appliedAt = datetime(), m.dimensions = $dimensions
"""


@dataclass(frozen=True)
class Migration:
    name: str
    text: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]

    def statements(self) -> list[str]:
        body = "\n".join(
            line for line in self.text.splitlines() if not line.strip().startswith("//")
        )
        return [s.strip() for s in body.split(";") if s.strip()]


class MigrationDrift(RuntimeError):
    pass


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found = [Migration(p.name, p.read_text()) for p in sorted(directory.glob("*.cypher"))]
    if not found:
        # An install that left the files behind (a wheel holds app/ only) would otherwise start
        # against a database with no constraints or indexes, and call it up to date.
        raise MigrationDrift(f"no migrations found in {directory}: run Engram from its checkout "
                             "(pip install -e .), where cypher/migrations is")
    return found


async def apply_migrations(driver: AsyncDriver, dimensions: int, database: str = "neo4j",
                           directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Apply pending migrations; returns the names applied now (empty when up to date)."""
    applied_now: list[str] = []
    async with driver.session(database=database) as s:
        result = await s.run(APPLIED)
        applied = {r["name"]: r["checksum"] async for r in result}
        for mig in load_migrations(directory):
            if mig.name in applied:
                if applied[mig.name] != mig.checksum:
                    raise MigrationDrift(
                        f"{mig.name} changed after it was applied; add a new migration instead"
                    )
                continue
            for stmt in mig.statements():
                # $tenant: null, every tenant's (a statement an import reruns for one: 0018)
                await (await s.run(stmt, dimensions=dimensions, tenant=None)).consume()
            await (await s.run(RECORD, name=mig.name, checksum=mig.checksum,
                               dimensions=dimensions)).consume()
            applied_now.append(mig.name)
        await (await s.run("CALL db.awaitIndexes(300)")).consume()
    return applied_now


def tenant_statements(prefix: str, directory: Path = MIGRATIONS_DIR) -> list[str]:
    """The statements of the migration named `prefix`... that can run for one tenant ($tenant):
    for data that arrives in an older shape after the migration ran (an import)."""
    [mig] = [m for m in load_migrations(directory) if m.name.startswith(prefix)]
    return [s for s in mig.statements() if "$tenant" in s]


async def pending_migrations(driver: AsyncDriver, database: str = "neo4j") -> list[str]:
    async with driver.session(database=database) as s:
        result = await s.run(APPLIED)
        applied = {r["name"] async for r in result}
    return [m.name for m in load_migrations() if m.name not in applied]
