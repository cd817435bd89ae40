"""Limits on a GraphQL document (tokens, depth, aliases), and its validation done once per text.

Clients send the same few documents with different variables. Validating a document against
the schema walked it with every rule on every request: ~2.5 ms of CPU for a search, a tenth of
the API process's CPU per request (profiled under load). Valid documents are remembered by
their text, a bounded number of them, so the walk is done once per distinct text. Invalid ones
are validated again each time (their errors are not shared between requests).

One extension instead of strawberry's three limiters, whose rule classes were built anew for
each request (so no cache could key on them), and each of which cost per-request set-up.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterator

from graphql import GraphQLError, OperationDefinitionNode
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter, SchemaExtension

try:  # strawberry's own validation (graphql-core's rules plus its own); not a public name
    from strawberry.schema.schema import validate_document
except ImportError:  # a strawberry that moved it: validate as strawberry does, without the cache
    validate_document = None

CACHED_DOCUMENTS = 256


class QueryLimits(SchemaExtension):
    def __init__(self, rules: tuple, max_tokens: int, valid: OrderedDict[str, bool]):
        self.rules, self.max_tokens, self.valid = rules, max_tokens, valid

    def on_operation(self) -> Iterator[None]:
        ec = self.execution_context
        ec.parse_options["max_tokens"] = self.max_tokens
        # Read before the document is parsed, this is the name the client sent (afterwards it
        # falls back to the first operation's).
        self.operation_name = ec.operation_name
        yield

    def on_validate(self) -> Iterator[None]:
        ec = self.execution_context
        text = ec.query
        if validate_document is None:
            ec.validation_rules = (*ec.validation_rules, *self.rules)
        elif text is not None and text in self.valid:
            self.valid.move_to_end(text)
            ec.pre_execution_errors = []
        elif ec.graphql_document is not None:
            errors = validate_document(ec.schema._schema, ec.graphql_document,
                                       (*ec.validation_rules, *self.rules))
            ec.pre_execution_errors = errors
            if not errors and text is not None:
                self.valid[text] = True
                if len(self.valid) > CACHED_DOCUMENTS:
                    self.valid.popitem(last=False)
        # strawberry runs the first operation of several when none is named (a mutation before a
        # query would run unasked); graphql-core refuses. Checked per request, outside the cache:
        # the same text is valid with a name. Before the yield: strawberry reads the errors
        # before this hook resumes.
        if self.operation_name is None and ec.graphql_document is not None and sum(
                isinstance(d, OperationDefinitionNode) for d in ec.graphql_document.definitions) > 1:
            ec.pre_execution_errors = [*(ec.pre_execution_errors or []), GraphQLError(
                "Must provide operation name if query contains multiple operations.")]
        yield


def query_limits(max_depth: int, max_aliases: int, max_tokens: int):
    """A factory of QueryLimits (strawberry makes one extension per request); the rules and the
    cache of valid texts are made once and shared."""
    rules = (*QueryDepthLimiter(max_depth=max_depth).validation_rules,
             *MaxAliasesLimiter(max_alias_count=max_aliases).validation_rules)
    valid: OrderedDict[str, bool] = OrderedDict()
    return lambda: QueryLimits(rules, max_tokens, valid)
