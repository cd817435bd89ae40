"""The `engram` command line."""
from __future__ import annotations

import asyncio
import sys

import typer
from rich.console import Console

from app.runtime import neo4j_local
from app.settings import get_settings

console = Console()
app = typer.Typer(no_args_is_help=True, add_completion=False, help="Engram: graph-native long-term memory for LLM agents.")
neo4j_app = typer.Typer(no_args_is_help=True, help="The local Neo4j server (installed from Maven Central).")
app.add_typer(neo4j_app, name="neo4j")


def _echo(msg: str) -> None:
    console.print(msg, highlight=False)


def _fail(exc: Exception) -> None:
    console.print(f"[red]error:[/red] {exc}", highlight=False)
    raise typer.Exit(1)


@neo4j_app.command("install")
def neo4j_install() -> None:
    """Fetch Neo4j Community and Neo4j Browser into .engram/neo4j (a no-op when present)."""
    try:
        neo4j_local.install(get_settings(), _echo)
    except neo4j_local.Neo4jRuntimeError as e:
        _fail(e)


@neo4j_app.command("start")
def neo4j_start() -> None:
    """Start the local server (installing it first if needed) and wait until Bolt answers."""
    try:
        neo4j_local.ensure_running(get_settings(), _echo)
    except neo4j_local.Neo4jRuntimeError as e:
        _fail(e)


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the server started by `engram neo4j start` (and nothing else)."""
    neo4j_local.stop(get_settings(), _echo)


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Installed? Running? Where?"""
    st = neo4j_local.status(get_settings())
    _echo(f"version   {st.version}\ninstalled {st.installed}\nrunning   {st.running}"
          + (f" (pid {st.pid})" if st.pid else "")
          + f"\nbolt      {st.bolt_url}\nbrowser   {st.browser_url}\nhome      {st.home}")
    if not st.running:
        raise typer.Exit(3)


@app.command()
def migrate() -> None:
    """Apply pending schema migrations (cypher/migrations) to the configured Neo4j."""
    from app.runtime.services import open_services

    async def run() -> list[str]:
        async with open_services(get_settings(), load_model=True) as svc:
            return svc.migrations_applied

    try:
        applied = asyncio.run(run())
    except neo4j_local.Neo4jRuntimeError as e:
        _fail(e)
    _echo("applied: " + (", ".join(applied) if applied else "nothing (up to date)"))


@app.command()
def serve(host: str = typer.Option(None, help="bind address (default ENGRAM_HOST)"),
          port: int = typer.Option(None, help="port (default ENGRAM_PORT)")) -> None:
    """Run the API (uvicorn). Starts the local Neo4j first when no ENGRAM_NEO4J_URI is set."""
    import uvicorn

    settings = get_settings()
    host = host or settings.host
    port = port or settings.port
    if not settings.neo4j_uri:
        try:
            neo4j_local.ensure_running(settings, _echo)
        except neo4j_local.Neo4jRuntimeError as e:
            _fail(e)
    _echo(f"Engram API on http://{host}:{port}/graphql")
    uvicorn.run("app.api.main:create_app", factory=True, host=host, port=port, log_level="info")


def main() -> None:  # console script entry point
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
