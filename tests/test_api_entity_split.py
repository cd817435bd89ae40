"""splitEntity over HTTP: a wrong merge undone, refusals that change nothing, tenants apart."""
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
