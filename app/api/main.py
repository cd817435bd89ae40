"""The FastAPI application: GraphQL at /graphql (GraphiQL in a browser), /health and /metrics."""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import time
from contextlib import asynccontextmanager
from datetime import datetime, timezone

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from strawberry.extensions import SchemaExtension

from app.api.body_limit import BodyLimit
from app.api.context import get_context
from app.api.key_cache import KeyCache
from app.api.metrics import Backlog, Metrics, outcome
from app.api.router import EngramRouter
from app.api.schema import build_schema
from app.construction.ingest import Ingestor
from app.lifecycle.periodic import PeriodicRunner
from app.recollection.related import RelatedService
from app.recollection.search import SearchService
from app.runtime.heap import freeze_startup_heap
from app.runtime.services import open_services
from app.settings import Settings, get_settings
from app.store.keys import KeyStore
from app.store.migrations import pending_migrations

log = logging.getLogger("engram.api")
MAX_BODY_BYTES = 4 * 1024 * 1024
# The backlog, all tenants: turns waiting, those of them whose last attempt failed (a forget's
# reopened ones did not fail), and how long the oldest has waited.
PENDING_TURNS = """
MATCH (t:Turn) WHERE t.status = 'pending'
RETURN count(t) AS n, count(CASE WHEN t.error IS NOT NULL AND t.reopened IS NULL THEN 1 END) AS failed,
       min(t.receivedAt) AS oldest
"""


class NoKeysOnPublicInterface(RuntimeError):
    pass


def refusal_to_listen(host: str, any_keys: bool) -> str | None:
    """Why the server must not start on `host`, or None: with no API key at all, requests
    without one are served as the tenant 'default' (local mode), so only this machine may reach
    the server."""
    if any_keys or is_loopback(host):
        return None
    return (f"refusing to listen on {host or 'every interface'}: no API key exists, so anyone "
            "could read and write memory. Create one with `engram keys create --tenant NAME`, "
            "or listen on 127.0.0.1.")


def is_loopback(host: str) -> bool:
    """Whether a server bound to `host` is reachable from this machine only ("" binds every
    interface, as 0.0.0.0 does)."""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    # A dual-stack socket reports an IPv4 client as ::ffff:127.0.0.1, which Python (before
    # 3.13) does not count as loopback.
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def metrics_refusal(client: str | None, authorization: str | None, token: str) -> str | None:
    """Why /metrics must not answer this client, or None. Its numbers are every tenant's together
    (turns pending, queue depth, requests per operation), so no API key is enough: with a
    metrics token, that token is needed from anyone; without one, only this machine may ask."""
    if token:
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
            return None
        return "metrics need Authorization: Bearer <ENGRAM_METRICS_TOKEN>"
    if client is not None and is_loopback(client):
        return None
    return "metrics answer this machine only; set ENGRAM_METRICS_TOKEN to scrape from elsewhere"


class OperationMetrics(SchemaExtension):
    """Counts and times each operation by its first root field (search, memorize, ...)."""

    def on_operation(self):
        start = time.perf_counter()
        yield
        ec = self.execution_context
        name = "unknown"
        try:
            name = ec.graphql_document.definitions[0].selection_set.selections[0].name.value
        except (AttributeError, IndexError, TypeError):
            pass
        if name not in _root_fields(ec.schema):
            # A label per invented name would let any client grow the metrics without bound.
            name = "unknown"
        status = outcome(ec.result.errors if ec.result else None)
        metrics: Metrics = ec.context.state.metrics
        metrics.observe(name, status, time.perf_counter() - start)


async def _warm_scopes(searcher: SearchService) -> None:
    """The scoped warm-up, while the server already answers (a few seconds of queries); on a
    new install, the whole warm-up once the first conversation is stored."""
    try:
        await searcher.warm_up_when_stored()
    except asyncio.CancelledError:
        raise
    except Exception:  # noqa: BLE001 - warming up is best effort
        log.warning("scoped search warm-up failed", exc_info=True)


def _root_fields(schema) -> frozenset[str]:
    roots = (schema._schema.query_type, schema._schema.mutation_type)  # graphql-core's schema
    return frozenset(name for root in roots if root is not None for name in root.fields)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Migrations are applied and the model loaded before the first request is accepted.
        async with open_services(settings, load_model=True) as svc:
            keys = KeyStore(svc.driver, settings.neo4j_database)
            any_keys = await keys.any_active()
            refusal = refusal_to_listen(settings.host, any_keys)
            if refusal:
                raise NoKeysOnPublicInterface(refusal)
            # Local mode is for loopback only: on another interface, a server whose keys were
            # all revoked after it started answers keyless requests UNAUTHENTICATED.
            app.state.local_mode = is_loopback(settings.host)
            if app.state.local_mode and not any_keys:
                log.warning("no API keys: local mode, requests without a key use tenant 'default' "
                            "(loopback only)")
            app.state.services = svc
            app.state.key_cache = KeyCache(keys.tenant_of, keys.any_active, settings.key_cache_seconds)
            app.state.ingestor = Ingestor(svc)
            app.state.searcher = SearchService(svc)
            app.state.related = RelatedService(settings.max_hops)
            app.state.metrics = Metrics()
            # Housekeeping in the background (retry of failed turns at start-up and then
            # periodically, gc): the API answers meanwhile, and with several replicas each task
            # runs on one of them at a time (leases in the graph).
            try:
                await app.state.searcher.warm_up()
            except Exception:  # noqa: BLE001 - a slow first search is no reason not to start
                log.warning("search warm-up failed", exc_info=True)
            scoped = asyncio.create_task(_warm_scopes(app.state.searcher) if settings.warm_up_scopes
                                         else asyncio.sleep(0))
            periodic = PeriodicRunner(svc)
            periodic.start()
            freeze_startup_heap()
            try:
                yield
            finally:
                scoped.cancel()
                await periodic.stop()
                await app.state.ingestor.shut_down(settings.shutdown_drain_s)
                await app.state.searcher.settle()

    app = FastAPI(title="Engram", version="0.1.0", lifespan=lifespan)
    schema = build_schema(extra_extensions=(OperationMetrics,))
    # No queries by GET: in local mode (no key needed) any web page could make a browser send
    # one, and searches write access counts and memCell(id) revives a forgotten episode.
    app.include_router(EngramRouter(schema, context_getter=get_context, graphql_ide="graphiql",
                                    allow_queries_via_get=False,
                                    # no subscriptions: the route takes no WebSocket
                                    subscription_protocols=()), prefix="/graphql")

    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    @app.get("/health")
    async def health() -> JSONResponse:
        svc = app.state.services
        checks: dict[str, object] = {}
        try:
            await svc.driver.verify_connectivity()
            checks["neo4j"] = "ok"
            pending = await pending_migrations(svc.driver, settings.neo4j_database)
            checks["migrations"] = "ok" if not pending else {"pending": pending}
        except Exception as e:  # report, don't raise: health must always answer
            checks["neo4j"] = f"unreachable: {type(e).__name__}"
        checks["model"] = "ok" if svc.embedder is not None else "not loaded"
        ok = all(v == "ok" for v in checks.values())
        return JSONResponse({"status": "ok" if ok else "degraded", "checks": checks},
                            status_code=200 if ok else 503)

    @app.get("/metrics")
    async def metrics(request: Request) -> PlainTextResponse:
        refusal = metrics_refusal(request.client.host if request.client else None,
                                  request.headers.get("authorization"), settings.metrics_token)
        if refusal and settings.metrics_token:
            return PlainTextResponse(refusal, status_code=401, headers={"WWW-Authenticate": "Bearer"})
        if refusal:
            return PlainTextResponse(refusal, status_code=403)
        svc = app.state.services
        try:
            async with svc.driver.session(database=settings.neo4j_database) as s:
                row = await (await s.run(PENDING_TURNS)).single()
            backlog = Backlog(row["n"], row["failed"],
                              (datetime.now(timezone.utc) - row["oldest"].to_native()).total_seconds()
                              if row["oldest"] is not None else 0.0)
        except Exception:  # metrics must answer even when Neo4j does not: then it says it is down
            backlog = None
        return PlainTextResponse(app.state.metrics.render(backlog, app.state.ingestor.queue.depth),
                                 media_type="text/plain; version=0.0.4")

    return app
