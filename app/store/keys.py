"""API keys: one key, one tenant. Only a SHA-256 of the key is stored (keys are 256-bit random
tokens, so a fast hash is enough); the key itself is shown once, at creation."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from neo4j import AsyncDriver

from app.store import admin, term_stats
from app.store.graph import TenantError, check_tenant

PREFIX = "eng_"

CREATE = """
CREATE (k:ApiKey {hash: $hash, tenant: $tenant, prefix: $prefix, name: $name,
                  createdAt: datetime(), revokedAt: null})
"""
LOOKUP = "MATCH (k:ApiKey {hash: $hash}) WHERE k.revokedAt IS NULL RETURN k.tenant AS tenant"
LIST = """
MATCH (k:ApiKey) WHERE $tenant IS NULL OR k.tenant = $tenant
RETURN k.prefix AS prefix, k.tenant AS tenant, k.name AS name, k.createdAt AS createdAt,
       k.revokedAt AS revokedAt ORDER BY k.createdAt
"""
REVOKE = """
MATCH (k:ApiKey) WHERE k.prefix = $prefix AND k.revokedAt IS NULL
SET k.revokedAt = datetime() RETURN count(k) AS n
"""
ANY = "MATCH (k:ApiKey) WHERE k.revokedAt IS NULL RETURN count(k) > 0 AS any"
TENANTS = "MATCH (k:ApiKey) RETURN DISTINCT k.tenant AS tenant"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass
class KeyInfo:
    prefix: str
    tenant: str
    name: str | None
    created_at: datetime
    revoked_at: datetime | None


async def check_index_word(driver: AsyncDriver, database: str, tenant: str) -> None:
    """The fulltext indexes hold the tenant as a word of their english analyzer, and the
    keyword channel asks Lucene for that word: two names the analyzer makes one word would
    share Lucene's candidates (never results: every hit's tenant is checked exactly), and a
    stop word would not narrow them at all. Such a name is refused for a new tenant (a key
    for it, an import into it): TenantError."""
    token = term_stats.index_token(tenant)
    if token is None:
        raise TenantError(f"tenant {tenant!r} is an English stop word, which the fulltext "
                          "indexes drop; choose another name")
    async with driver.session(database=database) as s:
        known = {r["tenant"] async for r in await s.run(TENANTS)}
    known |= set(await admin.tenants_with_text(driver, database))
    clash = sorted(t for t in known if t != tenant and term_stats.index_token(t) == token)
    if clash:
        raise TenantError(f"tenant {tenant!r} is the same word as tenant {clash[0]!r} to the "
                          f"fulltext indexes (both stem to {token!r}); choose another name")


class KeyStore:
    def __init__(self, driver: AsyncDriver, database: str = "neo4j"):
        self.driver, self.database = driver, database

    async def _run(self, query: str, **params) -> list[dict]:
        async with self.driver.session(database=self.database) as s:
            result = await s.run(query, params)
            return [r.data() async for r in result]

    async def create(self, tenant: str, name: str | None = None) -> str:
        check_tenant(tenant)
        await check_index_word(self.driver, self.database, tenant)
        key = PREFIX + secrets.token_urlsafe(32)
        # The prefix identifies a key in listings and revocation without revealing it.
        await self._run(CREATE, hash=hash_key(key), tenant=tenant, prefix=key[:12], name=name)
        return key

    async def tenant_of(self, key: str) -> str | None:
        if not key.startswith(PREFIX) or len(key) > 200:
            return None
        rows = await self._run(LOOKUP, hash=hash_key(key))
        return rows[0]["tenant"] if rows else None

    async def list(self, tenant: str | None = None) -> list[KeyInfo]:
        rows = await self._run(LIST, tenant=tenant)
        return [KeyInfo(r["prefix"], r["tenant"], r["name"], r["createdAt"].to_native(),
                        r["revokedAt"].to_native() if r["revokedAt"] else None) for r in rows]

    async def revoke(self, prefix: str) -> int:
        return (await self._run(REVOKE, prefix=prefix))[0]["n"]

    async def any_active(self) -> bool:
        return (await self._run(ANY))[0]["any"]
