"""bench http's lean client (app/evaluation/http_client.py) against the running `engram serve`:
it must read what the server answers as httpx does, over one kept-alive connection, or the
benchmark would measure a client's mistakes."""
import httpx
import pytest

from app.evaluation.http_client import HttpError, LeanClient
from app.store.keys import KeyStore

QUERY = "query($input: SearchInput!) { search(input: $input) { hits { rank } context } }"


async def test_the_lean_client_reads_the_servers_answers_as_httpx_does(api, services):
    keys = KeyStore(services.driver, services.settings.neo4j_database)
    key = await keys.create("lean_client_tenant", "test")
    try:
        payload = {"query": QUERY, "variables": {"input": {"query": "What does Ana like?"}}}
        client = LeanClient(api.url, "/graphql", {"Authorization": f"Bearer {key}"})
        try:
            answers = [await client.post_json(payload) for _ in range(3)]  # one connection, kept
            status, bad = await client.post_json({"query": "{ search }"})  # an error, then one more
            after = await client.post_json(payload)
        finally:
            await client.close()
        expected = httpx.post(f"{api.url}/graphql", json=payload, headers={"Authorization": f"Bearer {key}"})
        assert answers == [(200, expected.json())] * 3 and after == (200, expected.json())
        assert expected.json()["data"]["search"]["hits"] == []  # a tenant with nothing: no hits
        assert bad["errors"] and "data" not in bad or bad.get("data") is None, bad
        # Without the key: the server's refusal, read as its JSON.
        stranger = LeanClient(api.url, "/graphql", {})
        try:
            status, refused = await stranger.post_json(payload)
        finally:
            await stranger.close()
        assert refused["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED", refused
    finally:
        await keys.revoke(key[:12])


async def test_the_lean_client_says_what_failed_when_nothing_listens():
    client = LeanClient("http://127.0.0.1:9", "/graphql", {}, timeout=5)  # port 9: discard, closed
    with pytest.raises(HttpError):
        await client.post_json({"query": "{ __typename }"})
    with pytest.raises(ValueError):
        LeanClient("https://example.org", "/graphql", {})
