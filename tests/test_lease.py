"""Leases in the graph: one holder at a time, renewed, released, taken over after expiry."""
import asyncio
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from app.store.lease import LeaseError, LeaseStore


@pytest.fixture
def leases(services) -> LeaseStore:
    return LeaseStore(services.driver, services.settings.neo4j_database)


@pytest.fixture
def name() -> str:
    return f"test-lease-{uuid.uuid4().hex[:10]}"


async def test_concurrent_acquirers_exactly_one_wins(leases, name):
    # A fresh name: the node does not exist yet, so the MERGEs race as well.
    holders = [f"replica-{i}" for i in range(12)]
    won = await asyncio.gather(*(leases.acquire(name, h, ttl_s=60) for h in holders))
    assert sum(won) == 1
    winner = holders[won.index(True)]
    assert (await leases.current(name)).holder == winner
    # Held and unexpired: nobody else gets it, the holder itself may acquire again.
    again = await asyncio.gather(*(leases.acquire(name, h, ttl_s=60) for h in holders))
    assert [h for h, w in zip(holders, again) if w] == [winner]
    rows = await leases._write("MATCH (l:Lease {name: $name}) RETURN count(l) AS n", name=name)
    assert rows["n"] == 1


async def test_the_other_wins_after_release(leases, name):
    assert await leases.acquire(name, "a", ttl_s=60)
    assert not await leases.acquire(name, "b", ttl_s=60)
    assert not await leases.release(name, "b")  # only the holder can release
    assert await leases.release(name, "a")
    assert await leases.current(name) is None
    assert await leases.acquire(name, "b", ttl_s=60)
    assert not await leases.acquire(name, "a", ttl_s=60)


async def test_the_other_wins_after_expiry_and_the_old_holder_cannot_renew(leases, name):
    now = datetime.now(timezone.utc)
    assert await leases.acquire(name, "a", ttl_s=30, now=now)
    assert not await leases.acquire(name, "b", ttl_s=30, now=now + timedelta(seconds=29))
    # Renewing pushes the expiry out.
    assert await leases.renew(name, "a", ttl_s=30, now=now + timedelta(seconds=29))
    assert not await leases.acquire(name, "b", ttl_s=30, now=now + timedelta(seconds=45))
    # Expired: the next acquirer takes it, and the old holder has lost it.
    later = now + timedelta(seconds=60)
    assert await leases.acquire(name, "b", ttl_s=30, now=later)
    assert not await leases.renew(name, "a", ttl_s=30, now=later)
    assert (await leases.current(name, now=later)).holder == "b"


async def test_release_with_hold_keeps_others_out_until_the_next_turn(leases, name):
    now = datetime.now(timezone.utc)
    assert await leases.acquire(name, "a", ttl_s=30, now=now)
    assert await leases.release(name, "a", hold_s=600)
    assert not await leases.acquire(name, "b", ttl_s=30, now=now + timedelta(seconds=599))
    assert await leases.acquire(name, "b", ttl_s=30, now=now + timedelta(seconds=601))


@pytest.mark.parametrize("bad", [
    {"name": ""}, {"name": "x" * 201}, {"holder": ""}, {"holder": "h" * 201}, {"ttl_s": 0}, {"ttl_s": -5},
])
async def test_bad_lease_input_is_a_clear_error_and_writes_nothing(leases, name, bad):
    kw = {"name": name, "holder": "a", "ttl_s": 10, **bad}
    with pytest.raises(LeaseError):
        await leases.acquire(**kw)
    rows = await leases._write("MATCH (l:Lease) WHERE l.name IN [$a, $b] RETURN count(l) AS n",
                               a=name, b=kw["name"])
    assert rows["n"] == 0
