"""The GraphQL API over HTTP against a running `engram serve`: the contract, keys, isolation,
limits and error codes."""
import asyncio
import json
import time
import uuid
from pathlib import Path

import httpx
import pytest

from app.store.driver import make_driver
from app.store.keys import KeyStore
from tests.api_server import KEY_CACHE_SECONDS
from tests.conversation import maya_and_sam

MEMORIZE = """
mutation($input: MemorizeInput!) {
  memorize(input: $input) { conversationId accepted duplicates memCells facts entities foresights
                            superseded pending errors tookMs }
}"""

SEARCH = """
query($input: SearchInput!) {
  search(input: $input) {
    tookMs context
    hits { rank score kind
      fact { id text status validFrom validTo }
      memCell { id title }
      foresight { id text kind validTo }
      turn { id content }
      evidence { id speaker content timestamp }
      channels { channel rank ranked folded score contribution note } }
  }
}"""


def _messages() -> list[dict]:
    return [{**m, "timestamp": m["timestamp"].isoformat()} for m in maya_and_sam()]


def _new_key(settings, tenant: str) -> str:
    async def run():
        driver = make_driver(settings)
        try:
            return await KeyStore(driver).create(tenant)
        finally:
            await driver.close()

    return asyncio.run(run())


def _revoke(settings, key: str) -> None:
    async def run():
        driver = make_driver(settings)
        try:
            await KeyStore(driver).revoke(key[:12])
        finally:
            await driver.close()

    asyncio.run(run())


def _counts(settings, tenant: str) -> dict[str, int]:
    """The tenant's nodes by label, read from Neo4j."""
    async def run():
        driver = make_driver(settings)
        try:
            async with driver.session() as s:
                rows = await (await s.run("MATCH (n {tenant: $tenant}) UNWIND labels(n) AS label "
                                          "RETURN label, count(*) AS n", tenant=tenant)).data()
                return {r["label"]: r["n"] for r in rows}
        finally:
            await driver.close()

    return asyncio.run(run())


@pytest.fixture(scope="module")
def tenants(api):
    """Two tenants whose conversations mention the same names; A's memory is built once."""
    a, b = f"api_a_{uuid.uuid4().hex[:8]}", f"api_b_{uuid.uuid4().hex[:8]}"
    keys = {"a": _new_key(api.settings, a), "b": _new_key(api.settings, b)}
    r = api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": _messages(), "flush": True}},
                key=keys["a"])
    assert r.status_code == 200 and "errors" not in r.json(), r.text
    keys["built"], keys["tenant_a"] = r.json()["data"]["memorize"], a
    other = [{"id": "b1", "speaker": "Maya", "content": "Sam and I adopted a cat called Pixel.",
              "timestamp": "2024-03-05T09:00:00+00:00"}]
    r = api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": other, "flush": True}},
                key=keys["b"])
    assert "errors" not in r.json(), r.text
    return keys


def data(r: httpx.Response) -> dict:
    body = r.json()
    assert "errors" not in body, body
    return body["data"]


def error_code(r: httpx.Response) -> str:
    body = r.json()
    assert body.get("errors"), body
    return body["errors"][0]["extensions"]["code"]


def test_memorize_reports_what_it_built(api, tenants):
    # The first call's report, against what the graph holds: nine turns, two days (two
    # episodes at least), a fact per statement, the move to Lisbon superseding Berlin, the
    # peanut allergy and the trip as foresight.
    built, key = tenants["built"], tenants["a"]
    assert built["accepted"] == 9 and built["duplicates"] == 0 and built["pending"] == 0
    assert not built["errors"]
    held = _counts(api.settings, tenants["tenant_a"])
    assert (built["memCells"], built["facts"], built["foresights"]) == (
        held["MemCell"], held["Fact"], held["Foresight"])
    assert built["memCells"] >= 2 and built["facts"] >= 5 and built["entities"] >= 3
    assert built["foresights"] >= 2 and built["superseded"] >= 1
    again = data(api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": _messages(),
                                              "flush": True}}, key=key))["memorize"]
    assert again["accepted"] == 0 and again["duplicates"] == 9  # idempotent over HTTP too


def test_a_search_past_its_deadline_is_an_internal_error_and_the_server_goes_on(api, tenants):
    from tests.api_server import running_api

    key = tenants["a"]
    with running_api(api.settings, env={"ENGRAM_SEARCH_TIMEOUT_S": "0.001"}) as hurried:
        for _ in range(2):  # the stopped search left the server's connections usable
            r = hurried.gql(SEARCH, {"input": {"query": "Where does Maya live?"}}, key=key)
            assert r.status_code == 200 and error_code(r) == "INTERNAL"
            assert "ENGRAM_SEARCH_TIMEOUT_S" in r.json()["errors"][0]["message"]
        again = data(hurried.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": _messages(),
                                                      "flush": True}}, key=key))["memorize"]
        assert again["accepted"] == 0 and again["duplicates"] == 9
    hits = data(api.gql(SEARCH, {"input": {"query": "Where does Maya live?", "topK": 5}},
                        key=key))["search"]["hits"]
    assert hits


def test_search_returns_hits_with_evidence_and_explanations(api, tenants):
    out = data(api.gql(SEARCH, {"input": {"query": "Where does Maya live?", "topK": 5}},
                       key=tenants["a"]))["search"]
    assert out["hits"] and out["context"] and out["tookMs"] > 0
    for h in out["hits"]:
        assert h["evidence"], h
        assert h["channels"] and all(c["rank"] >= 1 for c in h["channels"])
        assert h["evidence"][0]["timestamp"].endswith("+00:00")  # ISO 8601 with zone


def test_a_hits_channel_lines_say_whether_they_ranked_the_hit_or_something_folded_into_it(api, tenants):
    hits = data(api.gql(SEARCH, {"input": {"query": "Where is Maya flying next month?", "topK": 5}},
                        key=tenants["a"]))["search"]["hits"]
    assert hits
    for h in hits:
        own = [c for c in h["channels"] if not c["folded"]]
        assert own and all(c["ranked"] == h["kind"] for c in own), h
        assert h["channels"][:len(own)] == own, h  # the hit's own lines first, folded ones after
    # The trip's fact and the message it came from are one hit; the message's lines come with
    # the fact's, as what the channels ranked as a turn.
    trip = next(h for h in hits if h["kind"] == "FACT" and "Tokyo" in h["fact"]["text"])
    assert trip["evidence"][0]["id"] == "m6"
    assert any(c["ranked"] == "TURN" and c["folded"] for c in trip["channels"]), trip["channels"]


def test_related_to_entity_mem_cell_and_foresights(api, tenants):
    key = tenants["a"]
    rel = data(api.gql('{ relatedTo(entity: "Maya", hops: 2) { hops score entity { name type } '
                       'path { text } } }', key=key))["relatedTo"]
    names = {r["entity"]["name"] for r in rel}
    assert "Melanie Hart" in names
    ent = data(api.gql('{ entity(name: "mel") { name aliases merges { surface method } '
                       'facts { text memCellId } } }', key=key))["entity"]
    assert ent["name"] == "Melanie Hart" and "Mel" in ent["aliases"]
    assert ent["facts"] and all(f["memCellId"] for f in ent["facts"])
    hit = data(api.gql(SEARCH, {"input": {"query": "Tokyo conference", "topK": 3}}, key=key))
    cell_id = next(h["memCell"]["id"] for h in hit["search"]["hits"] if h["memCell"]) if any(
        h["memCell"] for h in hit["search"]["hits"]) else None
    if cell_id is None:  # take the cell of any hit's evidence
        cell_id = data(api.gql('{ foresights(activeAt: "2024-03-10T00:00:00Z") { memCellId } }',
                               key=key))["foresights"][0]["memCellId"]
    cell = data(api.gql('query($id: ID!) { memCell(id: $id) { id turns { id } facts { text } } }',
                        {"id": cell_id}, key=key))["memCell"]
    assert cell["id"] == cell_id and cell["turns"]
    fs = data(api.gql('{ foresights(activeAt: "2024-03-10T00:00:00Z") { text kind validTo evidence { id } } }',
                      key=key))["foresights"]
    kinds = {f["kind"] for f in fs}
    assert {"constraint", "plan"} <= kinds
    later = data(api.gql('{ foresights(activeAt: "2024-09-01T00:00:00Z") { kind } }', key=key))["foresights"]
    assert {f["kind"] for f in later} == {"constraint"}  # the April trip has retired


FORESIGHT_PAGE = """query($at: DateTime, $k: String, $f: Int, $a: String) {
  foresightPage(activeAt: $at, kind: $k, first: $f, after: $a) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id text kind validTo evidence { id } } } } }"""


def test_foresight_pages_walk_what_foresights_lists_a_page_at_a_time(api, tenants):
    a, b = tenants["a"], tenants["b"]
    at = "2024-03-10T00:00:00Z"
    listed = data(api.gql('query($at: DateTime) { foresights(activeAt: $at) { id kind validTo } }',
                          {"at": at}, key=a))["foresights"]
    assert len(listed) >= 2
    seen, after = [], None  # pages of one walk the same list in the same order, each once
    while True:
        page = data(api.gql(FORESIGHT_PAGE, {"at": at, "f": 1, "a": after}, key=a))["foresightPage"]
        assert page["totalCount"] == len(listed) and len(page["edges"]) <= 1
        seen += [e["node"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert [f["id"] for f in seen] == [f["id"] for f in listed]
    assert all(f["evidence"] for f in seen)
    # the soonest to end first, those with no end last
    ends = [f["validTo"] for f in seen]
    assert ends == sorted(ends, key=lambda e: (e is None, e or ""))
    constraints = data(api.gql(FORESIGHT_PAGE, {"at": at, "k": "constraint", "f": 100}, key=a))["foresightPage"]
    assert {e["node"]["kind"] for e in constraints["edges"]} == {"constraint"}
    assert constraints["totalCount"] == sum(f["kind"] == "constraint" for f in listed) < len(listed)
    assert error_code(api.gql(FORESIGHT_PAGE, {"at": at, "k": "wish"}, key=a)) == "BAD_USER_INPUT"
    assert error_code(api.gql(FORESIGHT_PAGE, {"at": at, "a": "not-a-cursor"}, key=a)) == "BAD_USER_INPUT"
    assert error_code(api.gql(FORESIGHT_PAGE, {"at": at, "f": 101}, key=a)) == "BAD_USER_INPUT"
    # B, holding a cursor of A's (the last page's start), pages through B's own foresight only
    theirs = data(api.gql(FORESIGHT_PAGE, {"at": at, "f": 100, "a": after}, key=b))["foresightPage"]
    assert not {e["node"]["id"] for e in theirs["edges"]} & {f["id"] for f in listed}


def test_nested_lists_are_read_wherever_their_parent_comes_from(api, tenants):
    # Under relatedTo an entity's facts, and under a search hit an episode's turns and facts,
    # came back empty: only entity(name) and memCell(id) read them.
    key = tenants["a"]
    rel = data(api.gql('{ relatedTo(entity: "Maya", hops: 1) { entity { name facts { text } } } }',
                       key=key))["relatedTo"]
    by_name = {r["entity"]["name"]: r["entity"]["facts"] for r in rel}
    for name, facts in by_name.items():
        direct = data(api.gql('query($n: String!) { entity(name: $n) { facts { text } } }', {"n": name},
                              key=key))["entity"]["facts"]
        assert facts == direct, name
    assert any(by_name.values()), by_name
    hits = data(api.gql('query($q: String!) { search(input: {query: $q, topK: 5, kinds: [MEMCELL]}) { hits { memCell { id '
                        'turns { id } facts { text } } } } }', {"q": "Tokyo robotics conference"},
                        key=key))["search"]["hits"]
    cells = [h["memCell"] for h in hits if h["memCell"]]
    assert cells
    for c in cells:
        direct = data(api.gql('query($id: ID!) { memCell(id: $id) { turns { id } facts { text } } }',
                              {"id": c["id"]}, key=key))["memCell"]
        assert c["turns"] and (c["turns"], c["facts"]) == (direct["turns"], direct["facts"]), c["id"]


@pytest.mark.parametrize("headers, why", [
    ({}, "missing"), ({"Authorization": "Basic abc"}, "malformed"),
    ({"Authorization": "Bearer"}, "malformed"), ({"Authorization": "Bearer eng_not-a-real-key"}, "invalid"),
])
def test_a_missing_malformed_or_unknown_key_is_unauthenticated(api, tenants, headers, why):
    r = api.gql(SEARCH, {"input": {"query": "Maya"}}, headers=headers)
    assert error_code(r) == "UNAUTHENTICATED"
    assert why in r.json()["errors"][0]["message"]
    assert r.json()["data"] is None


def test_a_revoked_key_is_unauthenticated_within_the_key_cache_time(api, tenants):
    key = _new_key(api.settings, f"api_r_{uuid.uuid4().hex[:8]}")
    assert "errors" not in api.gql(SEARCH, {"input": {"query": "x"}}, key=key).json()
    _revoke(api.settings, key)
    # The test server remembers found keys for KEY_CACHE_SECONDS (app/api/key_cache.py).
    deadline = time.monotonic() + KEY_CACHE_SECONDS + 2.0
    while "errors" not in (r := api.gql(SEARCH, {"input": {"query": "x"}}, key=key)).json():
        assert time.monotonic() < deadline, "a revoked key still works after the key cache time"
        time.sleep(0.2)
    assert error_code(r) == "UNAUTHENTICATED"


def test_tenant_b_sees_nothing_of_a_through_any_query(api, tenants):
    b = tenants["b"]
    # A's names, and one of A's places in other words (the graph channel links it by meaning).
    tokyo_unnamed = "What Japanese city is she flying to?"
    # A month both tenants spoke in: the day channel ranks that month's turns.
    in_march = "What did Maya say in March 2024?"
    for query in ("Maya Berlin Lisbon peanuts Tokyo Melanie", tokyo_unnamed, in_march):
        for method in ("KEYWORD", "VECTOR", "GRAPH", "HYBRID"):
            out = data(api.gql(SEARCH, {"input": {"query": query, "method": method, "topK": 50}},
                               key=b))["search"]
            ids = {e["id"] for h in out["hits"] for e in h["evidence"]}
            assert ids <= {"b1"}, (query, method, ids)
    out = data(api.gql(SEARCH, {"input": {"query": tokyo_unnamed, "method": "GRAPH"}}, key=tenants["a"]))["search"]
    assert "m6" in {e["id"] for h in out["hits"] for e in h["evidence"]}  # A's own search finds it
    out = data(api.gql(SEARCH, {"input": {"query": in_march, "topK": 50}}, key=b))["search"]
    assert any(c["channel"] == "day" for h in out["hits"] for c in h["channels"])  # B's own, by its day
    rel = data(api.gql('{ relatedTo(entity: "Melanie Hart", hops: 3) { entity { name } } }', key=b))
    assert rel["relatedTo"] == []
    assert data(api.gql('{ entity(name: "Berlin") { name } }', key=b))["entity"] is None
    assert data(api.gql('{ foresights(activeAt: "2024-03-10T00:00:00Z") { text } }', key=b))["foresights"] == []
    a_cells = data(api.gql(SEARCH, {"input": {"query": "Berlin", "kinds": ["MEMCELL"], "topK": 5}},
                           key=tenants["a"]))["search"]["hits"]
    assert a_cells
    for h in a_cells:
        q = 'query($id: ID!) { memCell(id: $id) { id } }'
        assert data(api.gql(q, {"id": h["memCell"]["id"]}, key=b))["memCell"] is None
        # B forgetting A's cell deletes nothing, and A still has it
        out = data(api.gql('mutation($ids: [ID!]) { forget(input: {memCellIds: $ids}) { deletedNodes } }',
                           {"ids": [h["memCell"]["id"]]}, key=b))
        assert out["forget"]["deletedNodes"] == 0
        assert data(api.gql(q, {"id": h["memCell"]["id"]}, key=tenants["a"]))["memCell"] is not None


SCENES = """
query($first: Int, $after: String, $group: ID) {
  scenes(groupId: $group, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { cursor node { id topic consensus status cellCount startedAt
                          cells { id title } conflicts { fact { text status } replacedBy } } }
  }
}"""


def test_scenes_and_consolidate_over_http(api, tenants):
    a = tenants["a"]
    first = data(api.gql(SCENES, {"first": 1}, key=a))["scenes"]
    assert first["totalCount"] >= 1 and len(first["edges"]) == 1
    scene = first["edges"][0]["node"]
    assert scene["topic"] and scene["cells"] and scene["cellCount"] == len(scene["cells"])
    seen = [e["node"]["id"] for e in first["edges"]]
    after = first["pageInfo"]["endCursor"]
    while after:
        page = data(api.gql(SCENES, {"first": 1, "after": after}, key=a))["scenes"]
        seen += [e["node"]["id"] for e in page["edges"]]
        after = page["pageInfo"]["endCursor"] if page["pageInfo"]["hasNextPage"] else None
    assert len(seen) == len(set(seen)) == first["totalCount"]
    # Berlin -> Lisbon: the superseded fact is a conflict kept inside a scene.
    conflicts = [c for p in [data(api.gql(SCENES, {"first": 100}, key=a))["scenes"]]
                 for e in p["edges"] for c in e["node"]["conflicts"]]
    assert any("Berlin" in c["fact"]["text"] and c["fact"]["status"] == "superseded" for c in conflicts)
    out = data(api.gql("mutation { consolidate { groups cells scenes created moved dropped tookMs } }", key=a))
    rep = out["consolidate"]
    assert rep["scenes"] == first["totalCount"] and rep["created"] == 0 and rep["moved"] == 0
    # A group the tenant never had is none (it answered groups: 1).
    nope = data(api.gql('mutation { consolidate(groupId: "nope") { groups cells scenes } }', key=a))["consolidate"]
    assert nope == {"groups": 0, "cells": 0, "scenes": 0}
    assert error_code(api.gql(SCENES, {"first": 0}, key=a)) == "BAD_USER_INPUT"
    assert error_code(api.gql(SCENES, {"first": 1, "after": "not-a-cursor"}, key=a)) == "BAD_USER_INPUT"


@pytest.mark.parametrize("field, first", [("cells", 101), ("cells", 0), ("conflicts", -1),
                                          ("conflicts", 500)])
def test_a_scenes_lists_are_pages_of_1_to_100(api, tenants, field, first):
    # Refused rather than clamped: each scene's list is a Neo4j query of its own.
    q = f"query($n: Int) {{ scenes(first: 2) {{ edges {{ node {{ {field}(first: $n) {{ __typename }} }} }} }} }}"
    r = api.gql(q, {"n": first}, key=tenants["a"])
    assert error_code(r) == "BAD_USER_INPUT" and r.json()["errors"][0]["extensions"]["field"] == "first", r.text
    assert "errors" not in api.gql(q, {"n": 100}, key=tenants["a"]).json()


def test_tenant_b_sees_none_of_a_scenes(api, tenants):
    a_scenes = data(api.gql(SCENES, {"first": 100}, key=tenants["a"]))["scenes"]
    b_scenes = data(api.gql(SCENES, {"first": 100}, key=tenants["b"]))["scenes"]
    a_ids = {e["node"]["id"] for e in a_scenes["edges"]}
    assert a_ids and not a_ids & {e["node"]["id"] for e in b_scenes["edges"]}
    text = " ".join(e["node"]["consensus"] + e["node"]["topic"] for e in b_scenes["edges"])
    assert "Berlin" not in text and "Lisbon" not in text
    # A cursor of A's scene used by B pages through B's scenes only.
    cursor = a_scenes["edges"][0]["cursor"]
    page = data(api.gql(SCENES, {"first": 100, "after": cursor}, key=tenants["b"]))["scenes"]
    assert not a_ids & {e["node"]["id"] for e in page["edges"]}
    rep = data(api.gql("mutation { consolidate { cells } }", key=tenants["b"]))["consolidate"]
    assert rep["cells"] == sum(e["node"]["cellCount"] for e in b_scenes["edges"])  # B's cells only
    assert data(api.gql(SCENES, {"first": 100}, key=tenants["a"]))["scenes"]["totalCount"] == a_scenes["totalCount"]


INJECTIONS = [
    "') MATCH (n) DETACH DELETE n //", "\" OR 1=1 --", "*:*", "tenant:api_a*", "content:(x) OR tenant:*",
    "\\", "x" * 3000, "\u0001\u0002\u0007 bell", "{{ $tenant }}", "'; CALL db.clearQueryCaches(); //",
]


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_in_string_arguments_does_nothing_harmful(api, tenants, text):
    b = tenants["b"]
    out = api.gql(SEARCH, {"input": {"query": text, "topK": 10}}, key=b).json()
    if out.get("errors"):
        assert out["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    else:
        ids = {e["id"] for h in out["data"]["search"]["hits"] for e in h["evidence"]}
        assert ids <= {"b1"}
    for q, v in (('query($e: String!) { relatedTo(entity: $e) { hops } }', {"e": text[:200]}),
                 ('query($e: String!) { entity(name: $e) { name } }', {"e": text[:200]}),
                 ('query($e: ID!) { memCell(id: $e) { id } }', {"e": text[:200]})):
        r = api.gql(q, v, key=b).json()
        assert not r.get("errors") or r["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    # A's memory is intact
    still = data(api.gql(SEARCH, {"input": {"query": "Lisbon", "topK": 3}}, key=tenants["a"]))
    assert still["search"]["hits"]


@pytest.mark.parametrize("variables, field", [
    ({"input": {"query": ""}}, "query"), ({"input": {"query": "a", "topK": 0}}, "topK"),
    ({"input": {"query": "a", "topK": 10000}}, "topK"), ({"input": {"query": "a", "hops": 10}}, "hops"),
    ({"input": {"query": "x" * 100_000}}, "query"),
])
def test_search_limits_are_bad_user_input(api, tenants, variables, field):
    r = api.gql(SEARCH, variables, key=tenants["b"])
    assert error_code(r) == "BAD_USER_INPUT"
    assert r.json()["errors"][0]["extensions"].get("field") == field


def test_memorize_bad_input_names_the_message_and_writes_nothing(api, tenants):
    msgs = [{"id": "ok1", "speaker": "Ann", "content": "fine", "timestamp": "2024-01-01T10:00:00Z"},
            {"id": "bad1", "speaker": "Ann", "content": "  ", "timestamp": "2024-01-01T10:01:00Z"}]
    r = api.gql(MEMORIZE, {"input": {"conversationId": "c-bad", "messages": msgs}}, key=tenants["b"])
    assert error_code(r) == "BAD_USER_INPUT"
    assert "bad1" in r.json()["errors"][0]["message"]
    out = data(api.gql(SEARCH, {"input": {"query": "fine", "conversationId": "c-bad"}}, key=tenants["b"]))
    assert out["search"]["hits"] == []


@pytest.mark.parametrize("where", ["query", "groupId", "content", "speaker", "id", "scenesGroup", "memCell"])
def test_text_that_is_not_unicode_is_bad_user_input_and_writes_nothing(api, tenants, where):
    lone = "Ma\ud800ya"  # a lone surrogate: valid JSON ("\ud800"), no UTF-8 text
    msg = {"id": "u1", "speaker": "Ann", "content": "unicode check", "timestamp": "2024-01-01T10:00:00Z"}
    if where in ("query", "groupId"):
        r = api.gql(SEARCH, {"input": {"query": "Maya", **{where: lone}}}, key=tenants["b"])
    elif where == "scenesGroup":
        r = api.gql("query($g: ID) { scenes(groupId: $g) { totalCount } }", {"g": lone}, key=tenants["b"])
    elif where == "memCell":
        r = api.gql("query($e: ID!) { memCell(id: $e) { id } }", {"e": lone}, key=tenants["b"])
    else:
        r = api.gql(MEMORIZE, {"input": {"conversationId": "c-uni", "messages": [{**msg, where: lone}]}},
                    key=tenants["b"])
    assert r.status_code == 200 and error_code(r) == "BAD_USER_INPUT", r.text
    assert "not valid Unicode" in r.json()["errors"][0]["message"]
    out = data(api.gql(SEARCH, {"input": {"query": "unicode check", "conversationId": "c-uni"}}, key=tenants["b"]))
    assert out["search"]["hits"] == []


@pytest.mark.parametrize("variables, field", [
    ({"query": "What did Maya say on 31 December 9999?"}, None),  # no day there: nothing said
    ({"query": "What did Maya say on 1 January 0001?"}, None),
    ({"query": "Maya", "asOf": "9999-12-31T23:00:00-05:00"}, "asOf"),
    ({"query": "Maya", "from": "0001-01-01T01:00:00+05:00"}, "from"),
    ({"query": "Maya", "asOf": "2024-03-04T10:00:00+20:00"}, None),  # the same moment in UTC
])
def test_moments_at_the_calendars_edges_are_answered_or_refused_clearly(api, tenants, variables, field):
    r = api.gql(SEARCH, {"input": variables}, key=tenants["a"])
    assert r.status_code == 200, r.text
    if field is None:
        assert "errors" not in r.json(), r.text
    else:
        assert error_code(r) == "BAD_USER_INPUT" and r.json()["errors"][0]["extensions"]["field"] == field
    related = api.gql('query($a: DateTime) { relatedTo(entity: "Maya", asOf: $a) { hops } '
                      'foresights(activeAt: $a) { id } }', {"a": variables.get("asOf")}, key=tenants["a"])
    assert related.status_code == 200 and ("errors" not in related.json()
                                           or error_code(related) == "BAD_USER_INPUT"), related.text


def test_a_cursor_holding_a_number_neo4j_cannot_is_bad_user_input(api, tenants):
    import base64

    cursor = base64.urlsafe_b64encode(json.dumps([10**30, "x"]).encode()).decode()
    r = api.gql("query($c: String) { scenes(first: 5, after: $c) { totalCount } }", {"c": cursor}, key=tenants["a"])
    assert error_code(r) == "BAD_USER_INPUT", r.text


def test_depth_alias_and_body_limits(api, tenants):
    deep = "{ search(input: {query: \"a\"}) { hits { memCell { turns { id } } fact { id } } } }"
    assert "errors" not in api.gql(deep, key=tenants["b"]).json()
    aliases = "{ " + " ".join(f"a{i}: entity(name: \"x\") {{ name }}" for i in range(40)) + " }"
    assert error_code(api.gql(aliases, key=tenants["b"])) == "BAD_USER_INPUT"
    r = httpx.post(f"{api.url}/graphql", content=b"{" + b" " * (5 * 1024 * 1024) + b"}",
                   headers={"Authorization": f"Bearer {tenants['b']}", "Content-Type": "application/json"},
                   timeout=60)
    assert r.status_code == 413 and r.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    # The same body streamed without announcing its size (chunked): refused as well.
    chunks = (b" " * (256 * 1024) for _ in range(20))
    r = httpx.post(f"{api.url}/graphql", content=chunks,
                   headers={"Authorization": f"Bearer {tenants['b']}", "Content-Type": "application/json"},
                   timeout=60)
    assert r.status_code == 413 and r.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    # A body under the limit still goes through, announced or streamed.
    small = json.dumps({"query": "{ entity(name: \"Maya\") { name } }"}).encode()
    for content in (small, (small[i:i + 7] for i in range(0, len(small), 7))):
        r = httpx.post(f"{api.url}/graphql", content=content, timeout=60,
                       headers={"Authorization": f"Bearer {tenants['b']}", "Content-Type": "application/json"})
        assert r.status_code == 200 and "errors" not in r.json()


def test_health_and_metrics(api, tenants):
    h = httpx.get(f"{api.url}/health", timeout=10).json()
    assert h["status"] == "ok" and h["checks"] == {"neo4j": "ok", "migrations": "ok", "model": "ok"}
    api.gql(SEARCH, {"input": {"query": "Maya"}}, key=tenants["a"])
    m = httpx.get(f"{api.url}/metrics", timeout=10).text
    assert 'engram_requests_total{operation="search",status="ok"}' in m
    assert "engram_request_seconds_bucket" in m and "engram_pending_turns" in m
    assert "engram_neo4j_up 1" in m and "engram_failed_turns " in m and "engram_oldest_pending_turn_seconds " in m

    def count(text: str, series: str) -> int:  # other tests on this server count there too
        return next((int(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(series + " ")), 0)

    # A request refused before any operation runs (no key, a wrong one) is counted too, by its code.
    refused = 'engram_requests_total{operation="none",status="UNAUTHENTICATED"}'
    before = count(m, refused)
    api.gql("{ __typename }")
    api.gql("{ __typename }", key="not-a-key")
    assert count(httpx.get(f"{api.url}/metrics", timeout=10).text, refused) == before + 2
    # Root fields the schema does not have are counted under one label: a client inventing
    # names must not grow the server's metrics (and every scrape) without bound.
    unknown = 'engram_requests_total{operation="unknown",status="BAD_USER_INPUT"} '

    def unknown_errors(text: str) -> int:  # other tests on this server count there too
        return next((int(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                     if line.startswith(unknown)), 0)

    before = unknown_errors(m)
    for name in ("noSuchField1", "noSuchField2"):
        assert api.gql(f"{{ {name} }}", key=tenants["a"]).json()["errors"]
    m = httpx.get(f"{api.url}/metrics", timeout=10).text
    assert "noSuchField" not in m
    assert unknown_errors(m) == before + 2


def test_schema_file_matches_the_code():
    from app.api.schema import schema

    on_disk = (Path(__file__).resolve().parent.parent / "graphql" / "schema.graphql").read_text()
    assert on_disk == schema.as_str() + "\n", "graphql/schema.graphql drifted: run `engram schema export`"


def test_memorize_without_waiting_answers_once_stored_and_processes_in_the_background(api, tenants):
    import time

    key = tenants["b"]
    msgs = [{**m, "id": f"q-{m['id']}"} for m in _messages()]
    out = data(api.gql("""mutation($input: MemorizeInput!) {
        memorize(input: $input) { accepted pending memCells queued } }""",
                       {"input": {"conversationId": "queued-1", "messages": msgs, "flush": True,
                                  "wait": False}}, key=key))["memorize"]
    assert out == {"accepted": 9, "pending": 9, "memCells": 0, "queued": True}
    status = 'query($id: ID!) { conversation(id: $id) { id turns pending failed lastError memCells lastTurnAt } }'
    seen = []
    deadline = time.time() + 60
    while time.time() < deadline:  # the worker catches up: the client polls the conversation
        now = data(api.gql(status, {"id": "queued-1"}, key=key))["conversation"]
        seen.append(now["pending"])
        if now["pending"] == 0:
            break
        time.sleep(0.2)
    assert now["turns"] == 9 and now["failed"] == 0 and now["lastError"] is None and now["memCells"] >= 2
    assert now["lastTurnAt"] == "2024-06-10T18:34:00+00:00"  # the last of tests/conversation.py's
    assert seen[-1] == 0 and all(a >= b for a, b in zip(seen, seen[1:])) and seen[0] <= 9  # counts down
    # Done means searchable.
    hits = data(api.gql(SEARCH, {"input": {"query": "peanuts", "conversationId": "queued-1",
                                           "method": "KEYWORD", "kinds": ["FACT"], "topK": 3}},
                        key=key))["search"]["hits"]
    assert any(h["fact"] and "peanut" in h["fact"]["text"] for h in hits)
    # Another tenant has no such conversation; nor has this one another id.
    assert data(api.gql(status, {"id": "queued-1"}, key=tenants["a"]))["conversation"] is None
    assert data(api.gql(status, {"id": "no-such"}, key=key))["conversation"] is None


def test_entity_and_related_to_answer_as_of_a_moment(api, tenants):
    # Maya lived in Berlin from March, in Lisbon from June (tests/conversation.py).
    q = ('query($a: DateTime) { entity(name: "Maya", asOf: $a) { facts { predicate object } } '
         'relatedTo(entity: "Maya", hops: 1, asOf: $a) { entity { name facts { predicate object } } } }')

    def lives(answer) -> set[str]:
        return {f["object"] for f in answer["entity"]["facts"] if f["predicate"] == "lives in"}

    now = data(api.gql(q, {"a": None}, key=tenants["a"]))
    april = data(api.gql(q, {"a": "2024-04-01T00:00:00Z"}, key=tenants["a"]))
    assert lives(now) == {"Lisbon"} and lives(april) == {"Berlin"}
    berlin = {r["entity"]["name"]: r["entity"]["facts"] for r in april["relatedTo"]}["Berlin"]
    assert ("lives in", "Berlin") in {(f["predicate"], f["object"]) for f in berlin}  # facts as of April
    assert "Berlin" not in {r["entity"]["name"] for r in now["relatedTo"]}


HISTORY = ('query($n: String!, $f: Int, $a: String) { entity(name: $n) { history(first: $f, after: $a) { '
           'totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id text predicate object '
           'status validFrom memCellId } } } } }')


def test_an_entity_history_lists_every_fact_in_the_order_they_began_a_page_at_a_time(api, tenants):
    a, b = tenants["a"], tenants["b"]
    full = data(api.gql(HISTORY, {"n": "Maya", "f": 100}, key=a))["entity"]["history"]
    facts = [e["node"] for e in full["edges"]]
    assert full["totalCount"] == len(facts) > 2 and not full["pageInfo"]["hasNextPage"]
    # Where Maya has lived, not only where she lives (entity.facts): Berlin from March, then Lisbon.
    homes = [(f["object"], f["status"]) for f in facts if f["predicate"] == "lives in"]
    assert homes == [("Berlin", "superseded"), ("Lisbon", "current")]
    assert [f["validFrom"] for f in facts] == sorted(f["validFrom"] for f in facts)
    assert all(f["memCellId"] for f in facts)  # the episode each was said in
    seen, after = [], None  # pages of two walk the same list, each fact once
    while True:
        page = data(api.gql(HISTORY, {"n": "Maya", "f": 2, "a": after}, key=a))["entity"]["history"]
        assert page["totalCount"] == len(facts) and len(page["edges"]) <= 2
        seen += [e["node"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == facts
    assert error_code(api.gql(HISTORY, {"n": "Maya", "f": 2, "a": "not-a-cursor"}, key=a)) == "BAD_USER_INPUT"
    assert error_code(api.gql(HISTORY, {"n": "Maya", "f": 0}, key=a)) == "BAD_USER_INPUT"
    # B's Maya has B's facts only, whatever cursor B sends (B may have said the same things:
    # another test has it memorize A's messages, so facts are told apart by id)
    theirs = data(api.gql(HISTORY, {"n": "Maya", "f": 100, "a": full["edges"][0]["cursor"]}, key=b))
    ids = {e["node"]["id"] for e in (theirs["entity"] or {"history": {"edges": []}})["history"]["edges"]}
    assert not ids & {f["id"] for f in facts}


def test_a_forget_matching_nothing_reports_nothing_deleted_and_what_it_cleared_apart(api):
    # What an interrupted forget left (here an entity nothing mentions any more) is cleared by the
    # next forget; one whose own selection matched nothing says so, and names the rest apart.
    tenant = f"api_leftover_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)

    async def leave_an_orphan():
        driver = make_driver(api.settings)
        try:
            async with driver.session() as s:
                await s.run("CREATE (:Entity {tenant: $tenant, key: 'left over', name: 'Left Over', id: 'e-left'})",
                            tenant=tenant)
        finally:
            await driver.close()

    asyncio.run(leave_an_orphan())
    forget = 'mutation { forget(input: {conversationId: "no-such"}) { deletedNodes cleanedUp } }'
    out = data(api.gql(forget, key=key))
    assert out["forget"] == {"deletedNodes": 0, "cleanedUp": 1}
    assert _counts(api.settings, tenant).get("Entity", 0) == 0
    out = data(api.gql(forget, key=key))
    assert out["forget"] == {"deletedNodes": 0, "cleanedUp": 0}


def test_an_entity_asked_in_a_group_brings_that_groups_facts_and_foresight_only(api):
    tenant = f"api_groups_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)
    for group, text in (("g1", "Ben is allergic to peanuts. Ben works with Chloe Martin."),
                        ("g2", "Ben is vegan. Ben works with Omar Haddad.")):
        said = {"id": "m1", "speaker": "Ana", "content": text, "timestamp": "2024-04-01T10:00:00+00:00"}
        r = api.gql(MEMORIZE, {"input": {"conversationId": f"c-{group}", "groupId": group, "flush": True,
                                         "messages": [said]}}, key=key)
        assert "errors" not in r.json(), r.text
    query = "query($g: ID) { entity(name: \"Ben\", groupId: $g) { id groupId facts { text } foresights { text } } }"
    seen, ids = {}, {}
    for group in ("g1", "g2", None):
        ent = data(api.gql(query, {"g": group}, key=key))["entity"]
        seen[group] = " ".join(x["text"] for x in ent["facts"] + ent["foresights"])
        ids[group] = (ent["id"], ent["groupId"])
    assert "peanuts" in seen["g1"] and "Chloe" in seen["g1"]
    assert "vegan" not in seen["g1"] and "Omar" not in seen["g1"]
    assert "vegan" in seen["g2"] and "peanuts" not in seen["g2"]
    # An entity is its group's: two Bens; without a group, one of them, which says whose it is.
    assert ids["g1"][1] == "g1" and ids["g2"][1] == "g2" and ids["g1"][0] != ids["g2"][0]
    assert ids[None] in (ids["g1"], ids["g2"]) and seen[None] == seen[ids[None][1]]


def test_an_entity_its_relations_and_foresight_asked_of_one_user_are_what_that_users_turns_said(api):
    # One family: two students talk about their brother Ben in their own sessions.
    tenant = f"api_users_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)
    for user, text in (("leo", "Ben is allergic to peanuts. Ben works with Chloe Martin."),
                       ("mia", "Ben is vegan. Ben works with Omar Haddad.")):
        said = {"id": "m1", "speaker": user.title(), "userId": user, "content": text,
                "timestamp": "2024-04-01T10:00:00+00:00"}
        r = api.gql(MEMORIZE, {"input": {"conversationId": f"c-{user}", "groupId": "fam", "flush": True,
                                         "messages": [said]}}, key=key)
        assert "errors" not in r.json(), r.text
    query = """query($u: ID) { entity(name: "Ben", groupId: "fam", userId: $u) {
                                 id facts { text } foresights { text }
                                 history(first: 100) { totalCount edges { node { text } } } }
                               relatedTo(entity: "Ben", groupId: "fam", userId: $u) { entity { name } }
                               foresights(groupId: "fam", userId: $u) { text } }"""
    seen = {}
    for user in ("leo", "mia", None):
        out = data(api.gql(query, {"u": user}, key=key))
        ent = out["entity"]
        # Its history too (it listed every user's facts under entity(userId)).
        told = [e["node"] for e in ent["history"]["edges"]]
        assert ent["history"]["totalCount"] == len(told) and (user is None or told)
        assert {x["text"] for x in ent["facts"]} <= {x["text"] for x in told}
        seen[user] = (ent["id"], " ".join(x["text"] for x in ent["facts"] + ent["foresights"] + told),
                      {r["entity"]["name"] for r in out["relatedTo"]},
                      " ".join(f["text"] for f in out["foresights"]))
    assert seen["leo"][0] == seen["mia"][0] == seen[None][0]  # one Ben: the family's
    assert "peanuts" in seen["leo"][1] and "vegan" not in seen["leo"][1] and "Omar" not in seen["leo"][1]
    assert "vegan" in seen["mia"][1] and "peanuts" not in seen["mia"][1]
    assert "Chloe Martin" in seen["leo"][2] and "Omar Haddad" not in seen["leo"][2]
    assert "Omar Haddad" in seen["mia"][2] and "Chloe Martin" not in seen["mia"][2]
    assert {"Chloe Martin", "Omar Haddad"} <= seen[None][2]
    assert "peanut" in seen["leo"][3] and "peanut" not in seen["mia"][3] and "peanut" in seen[None][3]
    # Someone only another user's sessions name is no one a search of this user is told of
    # (asked as Leo, "Omar Haddad" was an entity with no facts: Mia's acquaintance, disclosed).
    assert data(api.gql('{ entity(name: "Omar Haddad", groupId: "fam", userId: "leo") { id } }', key=key)) \
        == {"entity": None}
    assert data(api.gql('{ entity(name: "Omar Haddad", groupId: "fam", userId: "mia") { id } }',
                        key=key))["entity"] is not None
    bad = api.gql('{ entity(name: "Ben", userId: "") { id } }', key=key).json()
    assert bad["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"


def test_the_others_turns_of_a_forgotten_users_episodes_are_made_again_at_once(api):
    # Forgetting Maya deletes the episodes she shared with Sam; Sam's turns wait to be made into
    # episodes again. That waited for the periodic retry (5 minutes): Sam's memory was gone meanwhile.
    tenant = f"api_forget_user_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)
    msgs = [{**m, "timestamp": m["timestamp"].isoformat(),
             "userId": "u-maya" if m["speaker"] == "Maya" else "u-sam"} for m in maya_and_sam()]
    r = api.gql(MEMORIZE, {"input": {"conversationId": "c1", "flush": True, "messages": msgs}}, key=key)
    assert "errors" not in r.json(), r.text
    out = data(api.gql('mutation { forget(input: {userId: "u-maya"}) { deletedNodes } }', key=key))
    assert out["forget"]["deletedNodes"] > 0
    status = 'query { conversation(id: "c1") { turns pending memCells } }'
    deadline = time.monotonic() + 60
    while (now := data(api.gql(status, key=key))["conversation"])["pending"]:
        assert time.monotonic() < deadline, now
        time.sleep(0.5)
    assert now["turns"] == 3 and now["memCells"] >= 1


def test_a_search_of_no_group_says_whose_group_each_hit_and_turn_is(api):
    tenant = f"api_groups_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)
    for group, city in (("platform", "Berlin"), ("data", "Lisbon")):
        said = {"id": "m1", "speaker": "Jun", "content": f"Quick update: I moved to the {city} office last week.",
                "timestamp": "2026-11-20T10:00:00+00:00"}
        r = api.gql(MEMORIZE, {"input": {"conversationId": f"c-{group}", "groupId": group, "flush": True,
                                         "messages": [said]}}, key=key)
        assert "errors" not in r.json(), r.text
    query = """query($input: SearchInput!) { search(input: $input) { context
                 hits { kind fact { text groupId } turn { content groupId } evidence { content groupId } } } }"""
    out = data(api.gql(query, {"input": {"query": "Where does Jun work?", "kinds": ["FACT", "TURN"]}}, key=key))
    hits = out["search"]["hits"]
    facts = {h["fact"]["text"]: h["fact"]["groupId"] for h in hits if h["fact"]}
    assert {g for t, g in facts.items() if "Berlin" in t} == {"platform"}, facts
    assert {g for t, g in facts.items() if "Lisbon" in t} == {"data"}, facts
    assert all(e["groupId"] in ("platform", "data") for h in hits for e in h["evidence"])
    assert "(group platform)" in out["search"]["context"] and "(group data)" in out["search"]["context"]


def test_a_hit_whose_amount_was_said_otherwise_later_names_the_later_hit(api):
    # Two sayings of one price in words extraction reads as no change: the older says which hit
    # gave another amount later, in its field and in the context block, and comes after it
    # (newer_values.py).
    tenant = f"api_later_{uuid.uuid4().hex[:8]}"
    key = _new_key(api.settings, tenant)
    said = [("m1", "2026-09-01T10:00:00+00:00", "the hall costs us £60 an evening btw, St Aidan's invoice us monthly"),
            ("m2", "2026-09-08T10:00:00+00:00", "rehearsal went well, lovely sound tonight"),
            ("m3", "2026-09-20T10:00:00+00:00", "Good news, I negotiated the hall down to £70 an evening from October")]
    r = api.gql(MEMORIZE, {"input": {"conversationId": "c1", "flush": True, "messages": [
        {"id": i, "speaker": "Ruth", "content": text, "timestamp": at} for i, at, text in said]}}, key=key)
    assert "errors" not in r.json(), r.text
    query = """query($input: SearchInput!) { search(input: $input) { context
                 hits { rank revisedByRank turn { content } } } }"""
    for as_of in (None, "2026-11-01T00:00:00+00:00"):
        out = data(api.gql(query, {"input": {"query": "How much does the hall cost an evening?", "kinds": ["TURN"],
                                             "asOf": as_of}}, key=key))["search"]
        rank = {h["turn"]["content"][:20]: h for h in out["hits"]}
        old, new = rank[said[0][2][:20]], rank[said[2][2][:20]]
        assert old["revisedByRank"] == new["rank"] and new["revisedByRank"] is None, out["hits"]
        # Asked about now or as of a moment after both, the later saying comes first.
        assert new["rank"] < old["rank"], out["hits"]
        assert all(h["revisedByRank"] is None for h in out["hits"] if h not in (old, new))
        line = next(x for x in out["context"].splitlines() if "£60" in x)
        assert f"another value said later: hit {new['rank']}]" in line, out["context"]
