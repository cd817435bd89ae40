"""The GraphQL route: strawberry's router, with every request but GraphiQL's page needing a key,
and its HTTP-level refusals (batching, bad JSON, wrong content type, no query, unknown
operationName, a query sent by GET) answered as GraphQL errors with a code instead of plain text."""
from __future__ import annotations

import json
import time

from cross_web import HTTPException  # what strawberry's views raise for a request they refuse
from fastapi.responses import JSONResponse
from strawberry.fastapi import GraphQLRouter
from strawberry.types.unset import UNSET

from app.api.errors import BAD_USER_INPUT, UNAUTHENTICATED, UNAVAILABLE


def refusal(message: str, code: str, status: int, **fields) -> JSONResponse:
    return JSONResponse({**fields, "errors": [{"message": message, "extensions": {"code": code}}]},
                        status_code=status)


class EngramRouter(GraphQLRouter):
    async def run(self, request, context=UNSET, root_value=UNSET):
        if self.is_websocket_request(request):
            return await super().run(request, context=context, root_value=root_value)
        # Checked before the document is even parsed: without a key, introspection and
        # `{ __typename }` answered too (only resolvers asked for the tenant).
        start = time.perf_counter()
        ide = self.should_render_graphql_ide(self.request_adapter_class(request))

        def refused(code: str) -> None:  # counted, as no operation runs to count it (main.OperationMetrics)
            context.state.metrics.observe("none", code, time.perf_counter() - start)

        if not ide and context.auth.unavailable:
            refused(UNAVAILABLE)
            return refusal(context.auth.error, UNAVAILABLE, 503, data=None)
        if not ide and context.auth.tenant is None:
            refused(UNAUTHENTICATED)
            # Status 200 and data null, as an operation refused for want of a key always was.
            response = refusal(context.auth.error or "missing API key", UNAUTHENTICATED, 200,
                               data=None)
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        try:
            return await super().run(request, context=context, root_value=root_value)
        except HTTPException as e:
            refused(BAD_USER_INPUT)
            return refusal(e.reason, BAD_USER_INPUT, e.status_code)

    def decode_json(self, data: str | bytes) -> object:
        try:
            body = json.loads(data)
        except UnicodeDecodeError:  # a ValueError, but no JSONDecodeError: strawberry answered 500
            raise HTTPException(400, "the request body is not valid UTF-8") from None
        # strawberry reads fields of anything that is not a list (a batch): a JSON string or
        # number as the body failed as a 500.
        if not isinstance(body, (dict, list)):
            raise HTTPException(400, "the request body must be a JSON object")
        return body
