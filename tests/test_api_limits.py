"""Document limits: depth, aliases and tokens are refused before execution, every time, also
once a valid document's validation is remembered."""
import pytest

from app.api import limits
from app.api.schema import build_schema

DEEP = '{ search(input: {query: "a"}) { hits { memCell { turns { id } } } } }'


async def errors(schema, query):
    result = await schema.execute(query)
    return [e.message for e in result.errors or []], result.data


@pytest.mark.parametrize("cached", [True, False])
async def test_a_remembered_valid_document_still_runs_and_limits_still_hold(cached, monkeypatch):
    if not cached:  # a strawberry without the validation function limits.py uses
        monkeypatch.setattr(limits, "validate_document", None)
    schema = build_schema(max_depth=3, max_aliases=2, max_tokens=60)
    for _ in range(2):  # the second time the document's validation comes from memory
        assert await errors(schema, "{ __typename }") == ([], {"__typename": "Query"})
        deep, _ = await errors(schema, DEEP)
        assert deep and "exceeds maximum operation depth" in deep[0]
        aliases, _ = await errors(schema, "{ a: __typename b: __typename c: __typename }")
        assert aliases and "aliases" in aliases[0]
        tokens, _ = await errors(schema, "{ " + "__typename " * 80 + "}")
        assert tokens and "token" in tokens[0]


async def test_an_invalid_document_is_refused_each_time():
    schema = build_schema()
    for _ in range(3):
        bad, data = await errors(schema, "{ nope }")
        assert bad and data is None


@pytest.mark.parametrize("cached", [True, False])
async def test_several_operations_need_an_operation_name(cached, monkeypatch):
    if not cached:
        monkeypatch.setattr(limits, "validate_document", None)
    schema = build_schema()
    two = "query A { __typename } query B { __typename }"
    for _ in range(2):
        named = await schema.execute(two, operation_name="B")
        assert not named.errors and named.data == {"__typename": "Query"}
        bare, data = await errors(schema, two)
        assert bare == ["Must provide operation name if query contains multiple operations."]
        assert data is None


@pytest.mark.parametrize("document, refused", [
    ("{ a: scenes { totalCount } b: scenes { totalCount } c: scenes { totalCount } "
     "d: relatedTo(entity: \"x\") { hops } }", False),
    ("{ a: scenes { totalCount } b: scenes { totalCount } c: scenes { totalCount } "
     "d: relatedTo(entity: \"x\") { hops } e: search(input: {query: \"x\"}) { tookMs } }", True),
    # Through fragments and inline fragments.
    ("{ ...F ... on Query { c: scenes { totalCount } d: scenes { totalCount } e: scenes { totalCount } } } "
     "fragment F on Query { a: scenes { totalCount } b: scenes { totalCount } }", True),
    # A fragment spread twice runs once.
    ("{ ...F ...F a: scenes { totalCount } } fragment F on Query { b: scenes { totalCount } "
     "c: scenes { totalCount } d: scenes { totalCount } }", False),
    ("mutation { " + " ".join(f"f{i}: forget(input: {{conversationId: \"c{i}\"}}) {{ deletedNodes }}"
                               for i in range(5)) + " }", True),
    # Cheap lookups are not counted.
    ("{ " + " ".join(f"e{i}: entity(name: \"x{i}\") {{ name }}" for i in range(10)) + " }", False),
])
async def test_an_operation_holds_at_most_four_expensive_root_fields(document, refused):
    for _ in range(2):  # also once a valid document's validation is remembered
        result = await build_schema().execute(document)
        limit = [e.message for e in result.errors or [] if "Allowed: 4" in e.message]
        assert bool(limit) == refused, result.errors
