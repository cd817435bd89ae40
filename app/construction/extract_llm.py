"""The `llm` extractor: one MemCell's turns -> one chat completion -> an Extraction.

Works with any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp, LM Studio, ...).
The reply is asked for under a strict JSON schema built from its models (llm_reply.py); a
server that does not know `json_schema` is asked for plain JSON mode instead, once, and
remembered. The reply is validated leniently and mapped to the domain drafts
(llm_extraction.py). Here: the prompt, the call, its retries and what they may say in errors.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from typing import Any, Awaitable, Callable, Sequence
from urllib.parse import urlsplit, urlunsplit

import openai

from app.construction.extractor import ExtractionError
from app.construction.llm_extraction import aware, to_extraction
from app.construction.llm_reply import EXTRACTION_JSON_SCHEMA, InvalidReply, Refused, parse_reply
from app.construction.prompts import (
    EXTRACTION_SCHEMA_NAME,
    EXTRACTION_SYSTEM_PROMPT,
    EXTRACTION_USER_TEMPLATE,
    KNOWN_NAMES_LINE,
)
from app.domain.models import EntityDraft, Extraction, TurnRecord
from app.settings import Settings

log = logging.getLogger(__name__)

BACKOFF_BASE_S = 0.5
BACKOFF_FACTOR = 2.0
BACKOFF_CAP_S = 8.0

_RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


# --------------------------------------------------------------------------------------------
# Prompt

def turn_line(turn: TurnRecord) -> str:
    """One turn as one line of JSON: whatever the text holds, it cannot pass for another turn."""
    return json.dumps(
        {
            "turn_id": turn.id,
            "time": aware(turn.at).isoformat(),
            "speaker": turn.speaker,
            "role": turn.role,
            "text": turn.content,
        },
        ensure_ascii=False,
    )


def build_messages(turns: list[TurnRecord], known: Sequence[EntityDraft] = ()) -> list[dict[str, str]]:
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    user = EXTRACTION_USER_TEMPLATE.format(
        speakers=", ".join(speakers),
        known=_known_line(turns, known),
        started_at=aware(turns[0].at).isoformat(),
        ended_at=aware(turns[-1].at).isoformat(),
        turns="\n".join(turn_line(t) for t in turns),
    )
    return [
        {"role": "system", "content": EXTRACTION_SYSTEM_PROMPT},
        {"role": "user", "content": user},
    ]


_KNOWN_IN_PROMPT = 30


def _known_line(turns: list[TurnRecord], known: Sequence[EntityDraft]) -> str:
    """The known entities these turns name or are said by (by name or alias), at most
    _KNOWN_IN_PROMPT."""
    text = " ".join(f"{t.speaker} {t.content}" for t in turns).casefold()
    named = []
    for e in known:
        names = [n for n in (e.name, *e.aliases) if n]
        if any(re.search(rf"(?<!\w){re.escape(n.casefold())}(?!\w)", text) for n in names):
            aka = f", also {', '.join(e.aliases[:3])}" if e.aliases else ""
            named.append(f"{e.name} ({e.type}{aka})")
        if len(named) >= _KNOWN_IN_PROMPT:
            break
    return KNOWN_NAMES_LINE.format(names="; ".join(named)) if named else ""


# The extractor

class LLMExtractor:
    """Extraction through any OpenAI-compatible chat-completions endpoint.

    `sleep`, `backoff_base`, `backoff_cap` and `jitter` (a source of numbers in 0..1) are there
    for tests and for callers that want another pace; `client` lets a caller share or replace
    the AsyncOpenAI client. Raises ExtractionError at once when the endpoint is not configured.
    """

    name = "llm"

    def __init__(
        self,
        settings: Settings,
        *,
        client: openai.AsyncOpenAI | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        backoff_base: float = BACKOFF_BASE_S,
        backoff_cap: float = BACKOFF_CAP_S,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        missing = [
            var for var, value in (
                ("ENGRAM_LLM_BASE_URL", settings.llm_base_url),
                ("ENGRAM_LLM_MODEL", settings.llm_model),
            )
            if not value.strip()
        ]
        if missing:
            raise ExtractionError(
                f"the llm extractor is not configured: set {' and '.join(missing)} "
                "(an OpenAI-compatible endpoint such as https://api.openai.com/v1 or "
                "http://localhost:11434/v1, and a model it serves), or use ENGRAM_EXTRACTOR=local"
            )
        self._settings = settings
        self._model = settings.llm_model.strip()
        self._client = client or openai.AsyncOpenAI(
            base_url=settings.llm_base_url.strip(),
            api_key=settings.llm_api_key or "none",
            timeout=settings.llm_timeout_s,
            max_retries=0,  # retries are ours: they also cover replies that are not valid JSON
        )
        self._sleep = sleep
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._jitter = jitter
        # What the server turned out not to support; learnt once, kept for later cells.
        self._use_json_schema = True
        self._send_temperature = True

    @property
    def uses_json_schema(self) -> bool:
        """False once the server has rejected `response_format: json_schema`."""
        return self._use_json_schema

    async def aclose(self) -> None:
        await self._client.close()

    async def extract(self, turns: list[TurnRecord], known: Sequence[EntityDraft] = ()) -> Extraction:
        if not turns:
            return Extraction(title="", summary="", keywords=[], importance=0.0)
        messages = build_messages(turns, known)
        attempts = max(1, self._settings.llm_max_retries)
        tokens = 0
        attempt = 0
        adapted = 0  # requests re-sent without an option the server rejected (at most 2 options)
        cause = "no attempt made"
        while attempt < attempts:
            attempt += 1
            retry_after: float | None = None
            try:
                response = await self._client.chat.completions.create(**self._request(messages))
            except openai.APIStatusError as err:
                if adapted < 2 and self._adapt_to(err):
                    adapted += 1
                    attempt -= 1  # a different request, not a retry of the same one
                    continue
                cause = self._describe_status(err)
                if not _retryable_status(err.status_code):
                    raise ExtractionError(f"LLM extraction failed: {cause}") from err
                retry_after = _retry_after(err)
            except openai.APITimeoutError:
                cause = f"the request timed out after {self._settings.llm_timeout_s:g} s"
            except openai.APIConnectionError:
                cause = f"could not connect to {_safe_url(self._settings.llm_base_url)}"
            except openai.APIError as err:
                cause = f"the server's response could not be read ({type(err).__name__})"
            else:
                tokens += _total_tokens(response)
                try:
                    extraction = to_extraction(parse_reply(response), turns)
                except Refused as err:
                    raise ExtractionError(f"LLM extraction failed: {err}") from None
                except InvalidReply as err:
                    cause = str(err)
                else:
                    extraction.tokens_used = tokens
                    return extraction
            log.warning(
                "llm extraction attempt %d/%d failed (model %s): %s",
                attempt, attempts, self._model, cause,
            )
            if attempt < attempts:
                await self._sleep(self._delay(attempt, retry_after))
        raise ExtractionError(
            f"LLM extraction failed after {attempts} attempt{'s' if attempts != 1 else ''}: {cause}"
        )

    # -- request ------------------------------------------------------------------------------

    def _request(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self._model, "messages": messages}
        if self._use_json_schema:
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": EXTRACTION_SCHEMA_NAME,
                    "strict": True,
                    "schema": EXTRACTION_JSON_SCHEMA,
                },
            }
        else:
            request["response_format"] = {"type": "json_object"}
        if self._send_temperature:
            request["temperature"] = 0
        return request

    def _adapt_to(self, err: openai.APIStatusError) -> bool:
        """Drop a request option the server rejected; True when there was one to drop."""
        if err.status_code not in (400, 422):
            return False
        said = _error_text(err).lower()
        if self._use_json_schema and ("response_format" in said or "json_schema" in said):
            log.warning("the LLM server rejected json_schema output; using json_object from now on")
            self._use_json_schema = False
            return True
        if self._send_temperature and "temperature" in said:
            log.warning("the LLM server rejected temperature=0; sending none from now on")
            self._send_temperature = False
            return True
        return False

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        ceiling = min(self._backoff_cap, self._backoff_base * BACKOFF_FACTOR ** (attempt - 1))
        delay = ceiling / 2 + self._jitter() * ceiling / 2  # "equal jitter": never less than half
        if retry_after is not None:
            delay = max(delay, min(retry_after, self._backoff_cap))
        return delay

    def _describe_status(self, err: openai.APIStatusError) -> str:
        status = err.status_code
        if status in (401, 403):
            return f"the endpoint refused the credentials (HTTP {status}); check ENGRAM_LLM_API_KEY"
        if status == 404:
            return (
                f"HTTP 404 from {_safe_url(self._settings.llm_base_url)}; check ENGRAM_LLM_BASE_URL "
                f"and that it serves ENGRAM_LLM_MODEL={self._model}"
            )
        if status >= 500 or status == 429:
            return f"HTTP {status} from the server"
        detail = _error_text(err)
        key = self._settings.llm_api_key
        if key:
            detail = detail.replace(key, "***")
        detail = " ".join(detail.split())[:200]
        return f"HTTP {status}: {detail}" if detail else f"HTTP {status}"


def _safe_url(url: str) -> str:
    """The URL without any user:password part, fit for an error message."""
    parts = urlsplit(url.strip())
    if parts.username is None and parts.password is None:
        return url.strip()
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


def _retryable_status(status: int) -> bool:
    return status in _RETRYABLE_STATUS or status >= 500


def _error_text(err: openai.APIStatusError) -> str:
    body = err.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return f"{inner.get('message')} {inner.get('param') or ''}".strip()
        return json.dumps(body)[:500]
    return str(body or err.message or "")


def _retry_after(err: openai.APIStatusError) -> float | None:
    headers = err.response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                return None  # an HTTP date: rare enough to ignore
    return None


def _total_tokens(response: Any) -> int:
    usage = getattr(response, "usage", None)
    total = getattr(usage, "total_tokens", None) if usage is not None else None
    return int(total) if isinstance(total, (int, float)) and total > 0 else 0


