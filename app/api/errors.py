"""GraphQL errors with a stable `extensions.code`, and the masking of everything else."""
from __future__ import annotations

import logging

import strawberry
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from app.store.driver import UNREACHABLE

log = logging.getLogger("engram.api")

BAD_USER_INPUT = "BAD_USER_INPUT"
UNAUTHENTICATED = "UNAUTHENTICATED"
FORBIDDEN = "FORBIDDEN"
NOT_FOUND = "NOT_FOUND"
INTERNAL = "INTERNAL"
# Neo4j cannot be reached: nothing was done, and the same request may succeed later.
UNAVAILABLE = "UNAVAILABLE"
UNAVAILABLE_MESSAGE = "the graph database is unreachable; nothing was done: retry later"


class ApiError(GraphQLError):
    def __init__(self, message: str, code: str, field: str | None = None):
        ext = {"code": code}
        if field:
            ext["field"] = field
        super().__init__(message, extensions=ext)


def bad_input(message: str, field: str | None = None) -> ApiError:
    return ApiError(message, BAD_USER_INPUT, field)


class StableErrorCodes(SchemaExtension):
    """Every error leaves with a code; unexpected ones say only 'internal error' (no traces)."""

    def on_operation(self):
        yield
        result = self.execution_context.result
        if not result or not result.errors:
            return
        fixed = []
        for err in result.errors:
            original = err.original_error
            if isinstance(original, ApiError):
                fixed.append(GraphQLError(original.message, nodes=err.nodes, path=err.path,
                                          extensions=original.extensions))
            elif original is None or not err.path:
                # Parse and validation errors, depth and alias limits, and variables that do not
                # coerce (a DateTime that is not one) come before execution: the request is bad.
                code = (err.extensions or {}).get("code") or BAD_USER_INPUT
                fixed.append(GraphQLError(err.message, nodes=err.nodes, path=err.path,
                                          extensions={"code": code}))
            elif isinstance(original, UNREACHABLE):
                log.warning("Neo4j unreachable in %s: %s", err.path, original)
                message = getattr(original, "client_message", UNAVAILABLE_MESSAGE)
                fixed.append(GraphQLError(message, nodes=err.nodes, path=err.path,
                                          extensions={"code": UNAVAILABLE}))
            else:
                log.exception("internal error in %s", err.path, exc_info=original)
                fixed.append(GraphQLError("internal error", nodes=err.nodes, path=err.path,
                                          extensions={"code": INTERNAL}))
        result.errors = fixed


class QuietSchema(strawberry.Schema):
    """strawberry logs every error of every request at ERROR with its traceback: a client's
    bad input (a refused topK, a query that does not parse) filled the server's log with
    traces. What is unexpected is logged once, by StableErrorCodes; the rest is the client's
    business and goes to DEBUG."""

    def process_errors(self, errors, execution_context=None) -> None:
        for err in errors:
            log.debug("request error: %s (%s)", err.message, (err.extensions or {}).get("code"))
