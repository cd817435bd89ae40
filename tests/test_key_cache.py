"""A found API key is remembered for a few seconds, over the real key store."""
import uuid

from app.api.key_cache import KeyCache
from app.store.keys import KeyStore


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _counted(fn, calls: list):
    async def wrapped(*args):
        calls.append(args)
        return await fn(*args)
    return wrapped


async def test_a_revoked_key_works_until_its_time_runs_out_and_a_new_one_at_once(services):
    store = KeyStore(services.driver, services.settings.neo4j_database)
    tenant = f"kc_{uuid.uuid4().hex[:8]}"
    key = await store.create(tenant)
    lookups: list = []
    clock = Clock()
    cache = KeyCache(_counted(store.tenant_of, lookups), store.any_active, ttl=5.0, clock=clock)

    assert await cache.tenant_of(key) == tenant
    assert await cache.tenant_of(key) == tenant
    assert len(lookups) == 1  # the second request did not ask Neo4j

    await store.revoke(key[:12])
    clock.now += 4.9
    assert await cache.tenant_of(key) == tenant  # remembered: revocation is not seen yet
    clock.now += 0.2
    assert await cache.tenant_of(key) is None  # looked up again: revoked
    assert len(lookups) == 2
    # A key not found is looked up every time (so a key created later works at once).
    assert await cache.tenant_of(key) is None and len(lookups) == 3

    fresh = await store.create(tenant)
    assert await cache.tenant_of(fresh) == tenant
    await store.revoke(fresh[:12])


async def test_without_a_cache_time_every_request_asks_the_store(services):
    store = KeyStore(services.driver, services.settings.neo4j_database)
    tenant = f"kc_{uuid.uuid4().hex[:8]}"
    key = await store.create(tenant)
    lookups: list = []
    cache = KeyCache(_counted(store.tenant_of, lookups), store.any_active, ttl=0)
    assert await cache.tenant_of(key) == tenant
    await store.revoke(key[:12])
    assert await cache.tenant_of(key) is None
    assert len(lookups) == 2


async def test_whether_any_key_exists_is_remembered_as_long(services):
    store = KeyStore(services.driver, services.settings.neo4j_database)
    asked: list = []
    clock = Clock()
    cache = KeyCache(store.tenant_of, _counted(store.any_active, asked), ttl=5.0, clock=clock)
    first = await cache.any_active()
    assert await cache.any_active() == first and len(asked) == 1
    clock.now += 5.1
    assert await cache.any_active() == await store.any_active() and len(asked) == 2
