"""API keys name tenants; a tenant's name is also a word of the fulltext indexes."""
import uuid

import pytest

from app.store.graph import TenantError
from app.store.keys import KeyStore


async def test_a_tenant_name_lucene_would_confuse_with_another_is_refused(services):
    keys = KeyStore(services.driver, services.settings.neo4j_database)
    base = f"k{uuid.uuid4().hex[:8]}x"  # ends in a consonant Porter's stemmer leaves alone
    key = await keys.create(base + "e")  # stems to `base`
    assert key.startswith("eng_")
    with pytest.raises(TenantError, match="same word"):
        await keys.create(base + "es")  # also `base` to the english analyzer
    with pytest.raises(TenantError, match="stop word"):
        await keys.create("the")
    # The same tenant may have more keys, and an unrelated name is fine.
    assert (await keys.create(base + "e")).startswith("eng_")
    assert (await keys.create(base + "ing_y")).startswith("eng_")
    for k in await keys.list():
        if k.tenant.startswith(base):
            await keys.revoke(k.prefix)
