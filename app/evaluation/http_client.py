"""A lean HTTP/1.1 client for the load of `bench http`: one kept-alive connection per client,
the request's head written once, the response read by its Content-Length.

The benchmark's clients run on the machine they measure, whose two cores the server and Neo4j
need: what the clients spend is taken from the server being measured. httpx, which does all a
general client must (headers into objects, cookies, redirects, pools), spent 1.3 ms of CPU per
request; this client, which does only what a POST to one endpoint needs, 0.3 ms. Alternating
the two against one server on the 100k tenant (three pairs of 700 requests, 8 clients each):
84.5-85.2 against 77.6-80.1 requests/s, p95 124-127 against 132-143 ms, the server's and
Neo4j's CPU per request the same (9.4-9.8 and 11.5-11.9 ms). `bench http` reports the clients'
CPU per request beside the server's and Neo4j's.
"""
from __future__ import annotations

import asyncio
import json
from urllib.parse import urlsplit


class HttpError(Exception):
    """The connection failed, or the response was not HTTP/1.1 this client reads."""


class LeanClient:
    """POSTs JSON to one path of one server over one connection, reopened when the server
    closes it. Not for concurrent use: each benchmark client holds its own."""

    def __init__(self, base_url: str, path: str, headers: dict[str, str], timeout: float = 120.0):
        url = urlsplit(base_url)
        if url.scheme != "http" or not url.hostname:
            raise ValueError(f"an http:// URL is needed, not {base_url!r}")
        self.host, self.port, self.timeout = url.hostname, url.port or 80, timeout
        lines = [f"POST {path} HTTP/1.1", f"Host: {url.netloc}", "Content-Type: application/json",
                 "Connection: keep-alive", *(f"{k}: {v}" for k, v in headers.items())]
        self._head = ("\r\n".join(lines) + "\r\nContent-Length: ").encode("latin-1")
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def post_json(self, payload: object) -> tuple[int, object]:
        """(status, decoded JSON body)."""
        body = json.dumps(payload, separators=(",", ":")).encode()
        try:
            return await asyncio.wait_for(self._exchange(body), self.timeout)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as e:
            await self.close()
            raise HttpError(f"{type(e).__name__}: {e}") from e

    async def _exchange(self, body: bytes) -> tuple[int, object]:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        self._writer.write(self._head + str(len(body)).encode() + b"\r\n\r\n" + body)
        await self._writer.drain()
        head = await self._reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        parts = status_line.split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise HttpError(f"not an HTTP/1.x status line: {status_line[:80]!r}")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        if "content-length" not in headers:
            # The API answers with a length; a chunked or unbounded body is not what it sends.
            raise HttpError(f"no Content-Length in the response (headers: {sorted(headers)})")
        data = await self._reader.readexactly(int(headers["content-length"]))
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return int(parts[1]), json.loads(data) if data else None

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass  # already reset by the server: nothing more to close
