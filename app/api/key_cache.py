"""API keys already found, remembered for a few seconds.

Every request is authenticated, and looking its key up in Neo4j was a round trip of its own
(driver, socket and event loop in the API process, a transaction in Neo4j) before the request's
real work. A key found is remembered for `ttl` seconds (ENGRAM_KEY_CACHE_SECONDS, 0: ask Neo4j
every time). So a key revoked by `engram keys revoke` (another process) stops working within
`ttl` seconds, not at once; a new key works at once (nothing is remembered about keys not
found, so a wrong key is looked up every time, as before). Keys are held by their hash only.

Whether any key exists (local mode: requests without a key are the `default` tenant when no
key exists, on a loopback-only server) is remembered the same way.
"""
from __future__ import annotations

import time
from typing import Awaitable, Callable

from app.store.keys import hash_key

# Past this many remembered keys the expired ones go; should all be fresh, all go (a server
# with this many distinct live keys in `ttl` seconds asks Neo4j again, it does not grow).
MAX_KEYS = 10_000


class KeyCache:
    def __init__(self, tenant_of: Callable[[str], Awaitable[str | None]],
                 any_active: Callable[[], Awaitable[bool]], ttl: float,
                 clock: Callable[[], float] = time.monotonic):
        self._tenant_of, self._any_active, self.ttl, self._clock = tenant_of, any_active, ttl, clock
        self._tenants: dict[str, tuple[str, float]] = {}  # key hash -> (tenant, until)
        self._active: tuple[bool, float] | None = None

    async def tenant_of(self, key: str) -> str | None:
        if self.ttl <= 0:
            return await self._tenant_of(key)
        now = self._clock()
        h = hash_key(key)
        hit = self._tenants.get(h)
        if hit is not None and hit[1] > now:
            return hit[0]
        tenant = await self._tenant_of(key)
        if tenant is None:
            self._tenants.pop(h, None)
            return None
        if len(self._tenants) >= MAX_KEYS:
            self._tenants = {k: v for k, v in self._tenants.items() if v[1] > now}
            if len(self._tenants) >= MAX_KEYS:
                self._tenants.clear()
        self._tenants[h] = (tenant, now + self.ttl)
        return tenant

    async def any_active(self) -> bool:
        if self.ttl <= 0:
            return await self._any_active()
        now = self._clock()
        if self._active is None or self._active[1] <= now:
            self._active = (await self._any_active(), now + self.ttl)
        return self._active[0]
