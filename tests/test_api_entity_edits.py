"""splitEntity and mergeEntities over HTTP: merges undone and made, refusals, tenants apart."""
import uuid

import pytest

from tests.test_api import MEMORIZE, _new_key, data, error_code

SPLIT = """
mutation($input: SplitEntityInput!) {
  splitEntity(input: $input) {
    facts episodes reopened resuperseded
    entity { name aliases facts { text status } }
    splitFrom { name aliases merges { surface method into } facts { text status } }
  }
}"""

# facts: true now; history: every fact, the replaced ones too.

ENTITY = """
query($name: String!) {
  entity(name: $name) { name aliases merges { surface method into } facts { text status }
                        history { edges { node { text status } } } }
}"""


def _melanie_and_mel() -> list[dict]:
    said = [("s1", "Melanie", "I work at Northwind as a nurse.", "2024-03-04T10:01:00+00:00"),
            ("s2", "Sam", "My colleague Mel works at Brightleaf now.", "2024-03-07T10:02:00+00:00")]
    return [{"id": i, "speaker": s, "content": c, "timestamp": t} for i, s, c, t in said]


def _history(entity: dict) -> list[tuple[str, str]]:
    return [(e["node"]["text"], e["node"]["status"]) for e in entity["history"]["edges"]]


@pytest.fixture
def tenant(api):
    """A tenant whose memory took Sam's colleague Mel for Melanie, and its key."""
    key = _new_key(api.settings, f"split_{uuid.uuid4().hex[:8]}")
    data(api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": _melanie_and_mel(), "flush": True}},
                 key=key))
    melanie = data(api.gql(ENTITY, {"name": "Melanie"}, key=key))["entity"]
    assert melanie["aliases"] == ["Mel"]  # the wrong merge
    assert _history(melanie) == [("Melanie works at Northwind as a nurse.", "superseded"),
                                 ("Sam's colleague Mel works at Brightleaf now.", "current")]
    return key


def test_split_entity_undoes_a_wrong_merge(api, tenant):
    out = data(api.gql(SPLIT, {"input": {"entity": "Melanie", "surface": "mel"}}, key=tenant))["splitEntity"]
    assert (out["facts"], out["reopened"], out["resuperseded"]) == (1, 1, 0)
    assert out["entity"]["name"] == "Mel" and out["entity"]["aliases"] == []
    assert [f["text"] for f in out["entity"]["facts"]] == ["Sam's colleague Mel works at Brightleaf now."]
    old = out["splitFrom"]
    assert old["name"] == "Melanie" and old["aliases"] == []
    assert old["merges"][-1] == {"surface": "Mel", "method": "split", "into": "mel"}
    assert [(f["text"], f["status"]) for f in old["facts"]] == [("Melanie works at Northwind as a nurse.", "current")]
    # Read afterwards: each entity's whole history is its own.
    melanie = data(api.gql(ENTITY, {"name": "Melanie"}, key=tenant))["entity"]
    assert _history(melanie) == [("Melanie works at Northwind as a nurse.", "current")]
    mel = data(api.gql(ENTITY, {"name": "Mel"}, key=tenant))["entity"]
    assert mel["name"] == "Mel" and _history(mel) == [("Sam's colleague Mel works at Brightleaf now.", "current")]


@pytest.mark.parametrize("entity, surface, code, field", [
    ("Nobody", "Mel", "NOT_FOUND", "entity"),
    ("Melanie", "Melanie", "BAD_USER_INPUT", "surface"),
    ("Melanie", "Sam", "BAD_USER_INPUT", "surface"),
    ("", "Mel", "BAD_USER_INPUT", "entity"),
    ("Melanie", "x" * 300, "BAD_USER_INPUT", "surface"),
])
def test_a_split_that_cannot_be_done_is_a_clear_error_and_changes_nothing(api, tenant, entity, surface, code,
                                                                           field):
    before = data(api.gql(ENTITY, {"name": "Melanie"}, key=tenant))
    r = api.gql(SPLIT, {"input": {"entity": entity, "surface": surface}}, key=tenant)
    assert error_code(r) == code and r.json()["errors"][0]["extensions"].get("field") == field
    assert r.json()["data"] is None
    assert data(api.gql(ENTITY, {"name": "Melanie"}, key=tenant)) == before


def test_another_tenant_cannot_split_the_entity(api, tenant):
    other = _new_key(api.settings, f"split_b_{uuid.uuid4().hex[:8]}")
    before = data(api.gql(ENTITY, {"name": "Melanie"}, key=tenant))
    r = api.gql(SPLIT, {"input": {"entity": "Melanie", "surface": "Mel"}}, key=other)
    assert error_code(r) == "NOT_FOUND"
    assert data(api.gql(ENTITY, {"name": "Melanie"}, key=tenant)) == before
    assert data(api.gql(ENTITY, {"name": "Mel"}, key=other))["entity"] is None


MERGE = """
mutation($input: MergeEntitiesInput!) {
  mergeEntities(input: $input) {
    facts episodes reopened resuperseded
    entity { name aliases merges { surface method into } history { edges { node { text status } } } }
  }
}"""


@pytest.fixture
def alex(api):
    """A tenant where Alex and Alexander, one colleague, were kept apart; and its key."""
    key = _new_key(api.settings, f"merge_{uuid.uuid4().hex[:8]}")
    said = [("a1", "My colleague Alex lives in Boston.", "2024-03-04T10:01:00+00:00"),
            ("a2", "My colleague Alexander lives in Denver now.", "2024-03-07T10:02:00+00:00")]
    msgs = [{"id": i, "speaker": "Sam", "content": c, "timestamp": t} for i, c, t in said]
    data(api.gql(MEMORIZE, {"input": {"conversationId": "c1", "messages": msgs, "flush": True}}, key=key))
    assert data(api.gql(ENTITY, {"name": "Alex"}, key=key))["entity"]["name"] == "Alex"
    return key


def test_merge_entities_makes_one_entity_and_split_entity_undoes_it(api, alex):
    out = data(api.gql(MERGE, {"input": {"entity": "Alex", "into": "Alexander"}}, key=alex))["mergeEntities"]
    assert (out["facts"], out["resuperseded"]) == (1, 1)
    kept = out["entity"]
    assert kept["name"] == "Alexander" and kept["aliases"] == ["Alex"]
    assert kept["merges"] == [{"surface": "Alex", "method": "manual", "into": "alexander"}]
    assert _history(kept) == [("Sam's colleague Alex lives in Boston.", "superseded"),
                              ("Sam's colleague Alexander lives in Denver now.", "current")]
    # Alex is now a name of Alexander's
    assert data(api.gql(ENTITY, {"name": "Alex"}, key=alex))["entity"]["name"] == "Alexander"

    out = data(api.gql(SPLIT, {"input": {"entity": "Alexander", "surface": "Alex"}}, key=alex))["splitEntity"]
    assert (out["facts"], out["reopened"]) == (1, 1)
    alex_now = data(api.gql(ENTITY, {"name": "Alex"}, key=alex))["entity"]
    assert alex_now["name"] == "Alex" and _history(alex_now) == [("Sam's colleague Alex lives in Boston.", "current")]


@pytest.mark.parametrize("entity, into, code, field", [
    ("Alex", "Nobody", "NOT_FOUND", "into"),
    ("Nobody", "Alex", "NOT_FOUND", "entity"),
    ("Alex", "alex", "BAD_USER_INPUT", "into"),
    ("Alex", "", "BAD_USER_INPUT", "into"),
])
def test_a_merge_that_cannot_be_done_is_a_clear_error_and_changes_nothing(api, alex, entity, into, code, field):
    before = [data(api.gql(ENTITY, {"name": n}, key=alex)) for n in ("Alex", "Alexander")]
    r = api.gql(MERGE, {"input": {"entity": entity, "into": into}}, key=alex)
    assert error_code(r) == code and r.json()["errors"][0]["extensions"].get("field") == field
    assert [data(api.gql(ENTITY, {"name": n}, key=alex)) for n in ("Alex", "Alexander")] == before


def test_another_tenant_cannot_merge_the_entities(api, alex):
    other = _new_key(api.settings, f"merge_b_{uuid.uuid4().hex[:8]}")
    before = [data(api.gql(ENTITY, {"name": n}, key=alex)) for n in ("Alex", "Alexander")]
    r = api.gql(MERGE, {"input": {"entity": "Alex", "into": "Alexander"}}, key=other)
    assert error_code(r) == "NOT_FOUND"
    assert [data(api.gql(ENTITY, {"name": n}, key=alex)) for n in ("Alex", "Alexander")] == before
