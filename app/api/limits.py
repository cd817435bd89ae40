"""Limits on a GraphQL document (tokens, depth, aliases, expensive root fields), and its
validation done once per text.

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

from graphql import (
    FieldNode, FragmentDefinitionNode, FragmentSpreadNode, GraphQLError, InlineFragmentNode,
    OperationDefinitionNode, SelectionSetNode, ValidationContext, ValidationRule,
)
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


def expensive_fields_limit(names: frozenset[str], limit: int) -> type[ValidationRule]:
    """A rule refusing an operation with more than `limit` root fields among `names`: each costs
    Neo4j queries (a page of scenes, one query per scene for its cells and conflicts), so aliases
    would multiply them. Counted through fragments and inline fragments; a fragment spread twice
    counts once (its fields merge and run once)."""

    class ExpensiveFieldsLimit(ValidationRule):
        def __init__(self, context: ValidationContext):
            super().__init__(context)
            fragments = {d.name.value: d for d in context.document.definitions
                         if isinstance(d, FragmentDefinitionNode)}
            worst = max((_count_fields(d.selection_set, names, fragments, set())
                         for d in context.document.definitions
                         if isinstance(d, OperationDefinitionNode)), default=0)
            if worst > limit:
                context.report_error(GraphQLError(
                    f"{worst} of {', '.join(sorted(names))} in one operation. Allowed: {limit}"))

    return ExpensiveFieldsLimit


def _count_fields(selections: SelectionSetNode, names: frozenset[str],
                  fragments: dict[str, FragmentDefinitionNode], spread: set[str]) -> int:
    n = 0
    for sel in selections.selections:
        if isinstance(sel, FieldNode):
            n += sel.name.value in names
        elif isinstance(sel, InlineFragmentNode):
            n += _count_fields(sel.selection_set, names, fragments, spread)
        elif isinstance(sel, FragmentSpreadNode) and sel.name.value in fragments \
                and sel.name.value not in spread:  # also ends a cycle (refused by another rule)
            spread.add(sel.name.value)
            n += _count_fields(fragments[sel.name.value].selection_set, names, fragments, spread)
    return n


def query_limits(max_depth: int, max_aliases: int, max_tokens: int,
                 expensive: frozenset[str] = frozenset(), max_expensive: int = 0):
    """A factory of QueryLimits (strawberry makes one extension per request); the rules and the
    cache of valid texts are made once and shared."""
    rules = (*QueryDepthLimiter(max_depth=max_depth).validation_rules,
             *MaxAliasesLimiter(max_alias_count=max_aliases).validation_rules)
    if expensive:
        rules = (*rules, expensive_fields_limit(expensive, max_expensive))
    valid: OrderedDict[str, bool] = OrderedDict()
    return lambda: QueryLimits(rules, max_tokens, valid)
