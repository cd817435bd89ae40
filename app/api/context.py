"""Per-request context: who is asking (the key's tenant) and the services to answer with.

Resolvers get a TenantGraph from here and never handle a tenant name themselves.
"""
from __future__ import annotations

from dataclasses import dataclass

from fastapi.requests import HTTPConnection
from strawberry.fastapi import BaseContext

from app.api.errors import UNAUTHENTICATED, UNAVAILABLE_MESSAGE, ApiError
from app.api.loaders import Loaders
from app.runtime.services import Services
from app.store.driver import UNREACHABLE
from app.store.graph import TenantGraph

LOCAL_TENANT = "default"


@dataclass
class Auth:
    tenant: str | None
    error: str | None = None
    unavailable: bool = False  # the key could not be looked up: Neo4j is unreachable


class EngramContext(BaseContext):
    def __init__(self, services: Services, auth: Auth, app_state):
        super().__init__()
        self.services = services
        self.auth = auth
        self.state = app_state
        self._loaders: Loaders | None = None

    @property
    def tenant(self) -> str:
        if self.auth.tenant is None:
            raise ApiError(self.auth.error or "missing API key", UNAUTHENTICATED)
        return self.auth.tenant

    @property
    def graph(self) -> TenantGraph:
        return TenantGraph(self.services.driver, self.tenant, self.services.settings.neo4j_database)

    @property
    def loaders(self) -> Loaders:
        if self._loaders is None:
            self._loaders = Loaders(self.graph)
        return self._loaders


async def authenticate(request: HTTPConnection) -> Auth:
    try:
        return await _authenticate(request)
    except UNREACHABLE:
        # Raised here it was a 500 before any GraphQL error could be made of it.
        return Auth(None, UNAVAILABLE_MESSAGE, unavailable=True)


async def _authenticate(request: HTTPConnection) -> Auth:
    state = request.app.state
    header = request.headers.get("authorization")
    if not header:
        # Local mode: no key exists at all, and the server listens on loopback only.
        if state.local_mode and not await state.key_cache.any_active():
            return Auth(LOCAL_TENANT)
        return Auth(None, "missing API key: send Authorization: Bearer <key>")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return Auth(None, "malformed Authorization header: expected 'Bearer <key>'")
    tenant = await state.key_cache.tenant_of(token.strip())
    if tenant is None:
        return Auth(None, "invalid or revoked API key")
    return Auth(tenant)


async def get_context(request: HTTPConnection) -> EngramContext:
    # An HTTP request or a WebSocket (which the route refuses: a `Request` here made its
    # handshake fail as a 500 before the refusal).
    return EngramContext(request.app.state.services, await authenticate(request), request.app.state)
