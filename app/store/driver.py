"""One async driver per process, built from the settings (bolt://, neo4j://, neo4j+s:// all work)."""
from __future__ import annotations

from neo4j import AsyncDriver, AsyncGraphDatabase
from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired

from app.settings import Settings


def resolved_uri(settings: Settings) -> str:
    """ENGRAM_NEO4J_URI when set, else the local server managed by `engram neo4j`."""
    return settings.neo4j_uri or f"bolt://127.0.0.1:{settings.neo4j_bolt_port}"


def make_driver(settings: Settings) -> AsyncDriver:
    auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_password else None
    return AsyncGraphDatabase.driver(
        resolved_uri(settings), auth=auth, max_connection_pool_size=64,
        connection_acquisition_timeout=30.0,
        # Schema-less warnings ("property does not exist yet") on an empty database are noise.
        notifications_min_severity="OFF",
    )


# The errors of a database that is down or going down (DatabaseUnavailable: a query while it
# shuts down answered INTERNAL, so a client never retried).
UNREACHABLE = (ServiceUnavailable, SessionExpired, DatabaseUnavailable)


class UnreachableMidway(ServiceUnavailable):
    """The database went away after part of a call had committed: what a client is told says
    what was kept (UNAVAILABLE's "nothing was done" would have it think otherwise)."""

    def __init__(self, client_message: str):
        super().__init__(client_message)
        self.client_message = client_message


def error_text(e: Exception) -> str:
    """An error as a client may read it (a turn's `lastError`): an unreachable database said so,
    without the driver's message, which names the server's address."""
    if isinstance(e, UNREACHABLE):
        return "the graph database was unreachable"
    return f"{type(e).__name__}: {e}"
