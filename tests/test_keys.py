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


def test_the_command_that_makes_a_key_prints_its_error_on_stderr_only(settings):
    # Walk-through 62: `KEY=$(engram keys create --tenant walk62-maya)` put "error: ..." in KEY,
    # printed on stdout; the run that used it as a key failed far from the cause.
    import os
    import subprocess
    import sys

    env = {**os.environ, "ENGRAM_NEO4J_URI": settings.neo4j_uri, "ENGRAM_NEO4J_USER": settings.neo4j_user,
           "ENGRAM_NEO4J_PASSWORD": settings.neo4j_password, "ENGRAM_NEO4J_DATABASE": settings.neo4j_database}
    res = subprocess.run([sys.executable, "-c", "from app.cli import main; main()", "keys", "create",
                          "--tenant", "has-a-hyphen"], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 1
    assert res.stdout == ""
    assert "a-z, 0-9 and _" in res.stderr
