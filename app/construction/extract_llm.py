"""The `llm` extractor: one MemCell's turns -> one chat completion -> an Extraction.

Works with any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp, LM Studio, ...).
The reply is asked for under a strict JSON schema built from the pydantic models below; a server
that does not know `json_schema` is asked for plain JSON mode instead, once, and remembered.
The reply is validated leniently (small-model quirks are repaired, not punished) and mapped to
the domain drafts: ids checked against the cell, dates made timezone-aware, numbers clamped,
lists capped.
"""
from __future__ import annotations

import asyncio
import copy
import json
import logging
import math
import random
import re
from calendar import monthrange
from datetime import date, datetime, time, timezone, tzinfo
from typing import Annotated, Any, Awaitable, Callable, Sequence
from urllib.parse import urlsplit, urlunsplit

import openai
from pydantic import BaseModel, BeforeValidator, Field, ValidationError

from app.construction.extractor import ExtractionError
from app.construction.prompts import (
    ENTITY_ROLES,
    ENTITY_TYPES,
    EXTRACTION_SCHEMA_NAME,
    EXTRACTION_SYSTEM_PROMPT,
    EXTRACTION_USER_TEMPLATE,
    FORESIGHT_KINDS,
    KNOWN_NAMES_LINE,
    SINGLE_VALUED_PREDICATES,
)
from app.domain.models import (
    EntityDraft, Extraction, FactDraft, ForesightDraft, ForesightEndDraft, TurnRecord,
)
from app.settings import Settings

log = logging.getLogger(__name__)

# Caps on what one cell may add to the graph, whatever the model returns.
MAX_FACTS = 50
MAX_ENTITIES = 50
MAX_FORESIGHTS = 20
MAX_KEYWORDS = 20
MAX_ALIASES = 10
MAX_FACT_ENTITIES = 10
MAX_TITLE_CHARS = 200
MAX_SUMMARY_CHARS = 2000
MAX_TEXT_CHARS = 1000
MAX_NAME_CHARS = 200

BACKOFF_BASE_S = 0.5
BACKOFF_FACTOR = 2.0
BACKOFF_CAP_S = 8.0

_RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


# --------------------------------------------------------------------------------------------
# The reply, as the model is asked to write it. Validation is lenient on purpose: a null where
# a string belongs, a number as a string or a comma-separated list are repaired here, because
# failing the whole cell over them would only buy a second, equally costly call.

_SURROGATE = re.compile("[\ud800-\udfff]")


def _unicode(v: Any) -> Any:
    """A reply's JSON may carry lone surrogates ("\ud800"): no text, which the driver cannot
    send. They become U+FFFD, as an undecodable byte would."""
    return _SURROGATE.sub("\ufffd", v) if isinstance(v, str) else v


def _text(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    return _unicode(v)


def _text_list(v: Any) -> Any:
    if v is None:
        return []
    if isinstance(v, str):
        return [p for p in (s.strip() for s in _unicode(v).split(",")) if p]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return [str(v)]
    if isinstance(v, list):
        return [str(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else _unicode(x)
                for x in v if x is not None]
    return v


def _number(v: Any) -> Any:
    return math.nan if v is None or v == "" else v  # nan: "not given", replaced by the default


def _list(v: Any) -> Any:
    return [] if v is None else v


Text = Annotated[str, BeforeValidator(_text)]
TextList = Annotated[list[str], BeforeValidator(_text_list)]
Number = Annotated[float, BeforeValidator(_number)]
Flag = Annotated[bool, BeforeValidator(lambda v: False if v is None else v)]


def _enum(values: tuple[str, ...], description: str) -> Any:
    # The schema lists the allowed values; validation accepts any string and maps it later.
    return Field(description=description, json_schema_extra={"enum": list(values)})


class EntityOut(BaseModel):
    name: Text
    type: Text = _enum(ENTITY_TYPES, "what kind of entity it is")
    aliases: TextList = Field(default_factory=list, description="other names used for it")


class FactEntityOut(BaseModel):
    name: Text
    role: Text = _enum(ENTITY_ROLES, "the entity's part in the fact")


class FactOut(BaseModel):
    subject: Text = ""
    predicate: Text = ""
    object: Text = ""
    text: Text = Field(description="one self-contained third-person sentence")
    confidence: Number = 0.7
    valid_from: str | None = Field(None, description="YYYY-MM-DD when the fact became true")
    event_date: str | None = Field(None, description="YYYY-MM-DD of the event the fact is about")
    turn_ids: TextList = Field(default_factory=list)
    entities: Annotated[list[FactEntityOut], BeforeValidator(_list)] = Field(default_factory=list)
    single_valued: Flag = False
    ends: Flag = False


class ForesightOut(BaseModel):
    text: Text
    trigger: Text = Field("", description="situations in which it matters, as a later question would put them")
    kind: Text = _enum(FORESIGHT_KINDS, "plan, constraint or deadline")
    valid_from: str | None = Field(None, description="YYYY-MM-DD from which it matters")
    valid_to: str | None = Field(None, description="YYYY-MM-DD until which it matters; null for standing constraints")
    turn_ids: TextList = Field(default_factory=list)


class ForesightEndOut(BaseModel):
    who: Text = Field(description="whom the earlier constraint or plan was about, named as its text names them")
    what: Text = Field(description="the words that name what no longer holds: the allergen, the diet, "
                                   "the trip's place")
    kind: Text = _enum(("constraint", "plan"), "constraint or plan")
    turn_ids: TextList = Field(default_factory=list)


class ExtractionReply(BaseModel):
    title: Text
    summary: Text
    keywords: TextList = Field(default_factory=list)
    importance: Number = 0.5
    entities: Annotated[list[EntityOut], BeforeValidator(_list)] = Field(default_factory=list)
    facts: Annotated[list[FactOut], BeforeValidator(_list)]
    foresights: Annotated[list[ForesightOut], BeforeValidator(_list)] = Field(default_factory=list)
    foresight_ends: Annotated[list[ForesightEndOut], BeforeValidator(_list)] = Field(default_factory=list)


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the form strict structured outputs accept.

    Every object closed (`additionalProperties: false`) with every property required (optional
    ones are nullable instead), `$ref`s inlined (some OpenAI-compatible servers do not follow
    them), and defaults and titles dropped.
    """
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(n) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[-1]])
            extra = {k: v for k, v in node.items() if k not in ("$ref", "default", "title")}
            return walk({**target, **extra})
        out = {k: walk(v) for k, v in node.items() if k not in ("default", "title", "properties")}
        if "properties" in node:  # property names are data, not keywords: keep them all
            out["properties"] = {name: walk(sub) for name, sub in node["properties"].items()}
        if out.get("type") == "object" and "properties" in out:
            out["required"] = list(out["properties"])
            out["additionalProperties"] = False
        return out

    return walk(schema)


EXTRACTION_JSON_SCHEMA: dict[str, Any] = strict_json_schema(ExtractionReply)


# --------------------------------------------------------------------------------------------
# Prompt

def turn_line(turn: TurnRecord) -> str:
    """One turn as one line of JSON: whatever the text holds, it cannot pass for another turn."""
    return json.dumps(
        {
            "turn_id": turn.id,
            "time": _aware(turn.at).isoformat(),
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
        started_at=_aware(turns[0].at).isoformat(),
        ended_at=_aware(turns[-1].at).isoformat(),
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


# --------------------------------------------------------------------------------------------
# The extractor

class _InvalidReply(Exception):
    """The server answered, but not with a usable extraction (worth another attempt)."""


class _Refused(Exception):
    """The model refused; asking again the same way will not change its mind."""


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
                except _Refused as err:
                    raise ExtractionError(f"LLM extraction failed: {err}") from None
                except _InvalidReply as err:
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


# --------------------------------------------------------------------------------------------
# Reply -> ExtractionReply

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL | re.IGNORECASE)


def parse_reply(response: Any) -> ExtractionReply:
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise _InvalidReply("the reply has no choices")
    choice = choices[0]
    message = getattr(choice, "message", None)
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise _Refused("the model refused to extract")
    content = getattr(message, "content", None)
    if not content or not content.strip():
        raise _InvalidReply(f"the reply is empty (finish_reason={getattr(choice, 'finish_reason', None)})")
    data = _loads(content)
    if data is None:
        truncated = getattr(choice, "finish_reason", None) == "length"
        raise _InvalidReply(
            "the reply was cut off before its JSON ended (finish_reason=length)" if truncated
            else "the reply is not valid JSON"
        )
    if not isinstance(data, dict):
        raise _InvalidReply(f"the reply is JSON but not an object ({type(data).__name__})")
    data = _unwrap(data)
    try:
        return ExtractionReply.model_validate(data)
    except ValidationError as err:
        # Locations and error kinds only: the offending values may quote the conversation.
        where = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['type']}" for e in err.errors()[:3]
        )
        more = f" (+{err.error_count() - 3} more)" if err.error_count() > 3 else ""
        raise _InvalidReply(f"the reply does not match the extraction schema: {where}{more}") from None


def _loads(content: str) -> Any:
    text = _THINK.sub("", content).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    for candidate in (text, text[text.find("{"): text.rfind("}") + 1]):
        if not candidate:
            continue
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None


def _unwrap(data: dict[str, Any]) -> dict[str, Any]:
    """{"extraction": {...}} -> {...}: some models wrap the object they were asked for."""
    if "facts" not in data and len(data) == 1:
        inner = next(iter(data.values()))
        if isinstance(inner, dict) and "facts" in inner:
            return inner
    return data


# --------------------------------------------------------------------------------------------
# ExtractionReply -> Extraction

_PREDICATE_ALIASES = {
    "lives in": "lives in", "lives at": "lives in", "resides in": "lives in", "lives": "lives in",
    "is living in": "lives in", "moved to": "lives in", "home is": "lives in",
    "works at": "works at", "works for": "works at", "is employed at": "works at",
    "is employed by": "works at", "employed at": "works at", "employed by": "works at",
    "employer is": "works at", "job is": "job is", "job": "job is", "works as": "job is",
    "occupation is": "job is", "occupation": "job is", "job title is": "job is",
    "profession is": "job is", "relationship status is": "relationship status is",
    "relationship status": "relationship status is",
}
_ENTITY_TYPE_ALIASES = {
    "location": "place", "city": "place", "country": "place", "org": "organization",
    "organisation": "organization", "company": "organization", "school": "organization",
    "date": "time", "event": "thing", "object": "thing", "people": "person", "human": "person",
}
_KIND_ALIASES = {
    "intention": "plan", "goal": "plan", "event": "plan", "appointment": "deadline",
    "due": "deadline", "reminder": "deadline", "allergy": "constraint", "preference": "constraint",
    "rule": "constraint", "restriction": "constraint", "condition": "constraint",
}


def to_extraction(reply: ExtractionReply, turns: list[TurnRecord]) -> Extraction:
    """Map a validated reply onto the domain drafts, keeping only what the cell can support."""
    tz = _aware(turns[-1].at).tzinfo or timezone.utc
    turn_ids = [t.id for t in turns]
    at_of = {t.id: _aware(t.at) for t in turns}
    speakers = {t.speaker.casefold() for t in turns}
    ids = _TurnIds(turn_ids)
    entities = _Entities(speakers)

    for e in reply.entities:
        entities.add(e.name, e.type, e.aliases)

    facts: list[FactDraft] = []
    seen_facts: set[str] = set()
    for f in reply.facts:
        if len(facts) >= MAX_FACTS:
            break
        subject = _clip(f.subject, MAX_NAME_CHARS)
        predicate = _predicate(f.predicate)
        obj = _clip(f.object, MAX_TEXT_CHARS)
        # No sentence given: the triple, read out, is still a findable fact.
        text = _clip(f.text.strip() or " ".join(p for p in (subject, predicate, obj) if p), MAX_TEXT_CHARS)
        if not text or text.casefold() in seen_facts:
            continue
        seen_facts.add(text.casefold())
        refs: list[tuple[str, str]] = []
        for fe in f.entities[:MAX_FACT_ENTITIES]:
            name = entities.add(fe.name)
            if name and all(name != n for n, _ in refs):
                refs.append((name, _choice(fe.role, ENTITY_ROLES, {}, "mentioned")))
        if not refs:  # the model named none: the subject, and the object when it is an entity
            if (name := entities.add(subject)) is not None:
                refs.append((name, "subject"))
            if (name := entities.find(obj)) is not None and all(name != n for n, _ in refs):
                refs.append((name, "object"))
        # A single-valued state that ended with no new value ("Maya quit her job at Acme"): kept
        # as a fact of its own, which closes the value it names.
        ends = predicate if f.ends and predicate in SINGLE_VALUED_PREDICATES else None
        facts.append(
            FactDraft(
                subject=subject,
                predicate=f"no longer {predicate}" if ends else predicate,
                object=obj,
                text=text,
                turn_ids=ids.keep(f.turn_ids) or list(turn_ids),
                confidence=_unit(f.confidence, 0.7),
                valid_from=(start := _when(f.valid_from, tz)),
                valid_from_until=_until(f.valid_from, tz, start),
                event_date=_day(f.event_date),
                entities=refs,
                single_valued=not ends and (bool(f.single_valued) or predicate in SINGLE_VALUED_PREDICATES),
                ends=ends,
            )
        )

    foresights: list[ForesightDraft] = []
    seen_foresights: set[str] = set()
    for fs in reply.foresights:
        if len(foresights) >= MAX_FORESIGHTS:
            break
        text = _clip(fs.text, MAX_TEXT_CHARS)
        if not text or text.casefold() in seen_foresights:
            continue
        seen_foresights.add(text.casefold())
        evidence = ids.keep(fs.turn_ids) or list(turn_ids)
        valid_from = _when(fs.valid_from, tz)
        valid_to = _when(fs.valid_to, tz, end=True)
        if valid_from is None:
            # It cannot have mattered before anyone said it.
            valid_from = min(at_of[i] for i in evidence)
        if valid_to is not None and valid_to < valid_from:
            valid_from, valid_to = min(valid_to, valid_from), max(valid_to, valid_from)
        foresights.append(
            ForesightDraft(
                text=text,
                trigger=_clip(fs.trigger, MAX_TEXT_CHARS) or text,
                turn_ids=evidence,
                valid_from=valid_from,
                valid_to=valid_to,
                kind=_choice(fs.kind, FORESIGHT_KINDS, _KIND_ALIASES, "plan"),
            )
        )

    ends = [ForesightEndDraft(who=who, words=words, turn_ids=ids.keep(e.turn_ids) or list(turn_ids),
                              # a constraint ended wrongly is worse than a plan: only when it says so
                              kind="constraint" if e.kind.strip().lower() == "constraint" else "plan")
            for e in reply.foresight_ends[:MAX_FORESIGHTS]
            if (who := _clip(e.who, 200)) and (words := _WHAT.findall(_clip(e.what, 200)))]

    summary = _clip(reply.summary.strip() or " ".join(f.text for f in facts[:3]), MAX_SUMMARY_CHARS)
    title = _clip(reply.title, MAX_TITLE_CHARS) or _clip(summary, 80) or (
        f"Conversation on {_aware(turns[0].at).date().isoformat()}"
    )
    return Extraction(
        title=title,
        summary=summary or title,
        keywords=_unique(reply.keywords, MAX_KEYWORDS, 60),
        importance=_unit(reply.importance, 0.5),
        facts=facts,
        entities=entities.drafts,
        foresights=foresights,
        foresight_ends=ends,
    )


# The words of what a foresight end names (the writer matches them to foresight's words).
_WHAT = re.compile(r"[^\W\d_][\w'-]*")


class _TurnIds:
    """The cell's turn ids; what the model cites is kept only when it is one of them."""

    def __init__(self, ids: list[str]) -> None:
        self._exact = set(ids)
        self._loose = {i.strip().casefold(): i for i in ids}

    def keep(self, cited: list[str]) -> list[str]:
        out: list[str] = []
        for raw in cited:
            tid = raw if raw in self._exact else self._loose.get(raw.strip().strip("[]").casefold())
            if tid is not None and tid not in out:
                out.append(tid)
        return out


class _Entities:
    """Entities by name and alias, case-insensitively; the first spelling seen is kept."""

    def __init__(self, speakers: set[str]) -> None:
        self._speakers = speakers
        self._by_key: dict[str, EntityDraft] = {}
        self.drafts: list[EntityDraft] = []

    def find(self, name: str) -> str | None:
        draft = self._by_key.get(_clip(name, MAX_NAME_CHARS).casefold())
        return draft.name if draft else None

    def add(self, name: str, type_: str | None = None, aliases: list[str] | None = None) -> str | None:
        name = _clip(name, MAX_NAME_CHARS)
        if not name:
            return None
        draft = self._by_key.get(name.casefold())
        if draft is None:
            if len(self.drafts) >= MAX_ENTITIES:
                return None
            default = "person" if name.casefold() in self._speakers else "thing"
            kind = _choice(type_ or default, ENTITY_TYPES, _ENTITY_TYPE_ALIASES, default)
            draft = EntityDraft(name=name, type=kind)
            self.drafts.append(draft)
            self._by_key[name.casefold()] = draft
        for alias in _unique(aliases or [], MAX_ALIASES, MAX_NAME_CHARS):
            key = alias.casefold()
            if key == draft.name.casefold() or len(draft.aliases) >= MAX_ALIASES:
                continue
            if alias not in draft.aliases:
                draft.aliases.append(alias)
            self._by_key.setdefault(key, draft)
        return draft.name


def _clip(value: str, limit: int) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _unique(values: list[str], cap: int, limit: int) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for v in values:
        c = _clip(v, limit)
        if c and c.casefold() not in seen:
            seen.add(c.casefold())
            out.append(c)
            if len(out) >= cap:
                break
    return out


def _predicate(value: str) -> str:
    p = " ".join(str(value).replace("_", " ").lower().split())[:MAX_NAME_CHARS]
    return _PREDICATE_ALIASES.get(p, p)


def _choice(value: str, allowed: tuple[str, ...], aliases: dict[str, str], default: str) -> str:
    v = " ".join(str(value).lower().split())
    if v in allowed:
        return v
    return aliases.get(v, default)


def _unit(value: float, default: float) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return default
    if math.isnan(v):
        return default
    return min(1.0, max(0.0, v))


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


_PARTIAL_DATE = re.compile(r"^(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?$")
_NO_DATE = {"", "null", "none", "unknown", "n/a", "na", "-"}


def _until(value: str | None, tz: tzinfo, start: datetime | None) -> datetime | None:
    """The last moment of a bare date (month, year), None for an instant."""
    end = _when(value, tz, end=True) if start is not None else None
    return end if end is not None and end != start else None


def _when(value: str | None, tz: tzinfo, *, end: bool = False) -> datetime | None:
    """An ISO date or datetime from the model as an aware datetime, None when absent or unreadable.

    A bare date (or month, or year) means its first moment, or with `end` its last one; a
    naive time is read in the cell's own time zone.
    """
    if value is None or str(value).strip().lower() in _NO_DATE:
        return None
    s = str(value).strip()
    m = _PARTIAL_DATE.match(s)
    if m:
        try:
            year = int(m.group(1))
            month = int(m.group(2)) if m.group(2) else (12 if end else 1)
            if m.group(3):
                day = int(m.group(3))
            else:
                day = monthrange(year, month)[1] if end else 1
            d = date(year, month, day)
        except ValueError:
            return None
        dt = datetime.combine(d, time(23, 59, 59) if end else time(0, 0), tzinfo=tz)
    else:
        try:
            dt = datetime.fromisoformat(s)
        except ValueError:
            return None
        dt = dt if dt.tzinfo else dt.replace(tzinfo=tz)
    try:
        # A moment with no UTC day ("9999-12-31" west of Greenwich, a model's "no end") cannot be
        # stored: it is no date, as an unreadable one.
        dt.astimezone(timezone.utc)
    except (OverflowError, ValueError):
        return None
    return dt


def _day(value: str | None) -> date | None:
    """A full calendar date from the model; a month or a year alone is not a day."""
    if value is None:
        return None
    s = str(value).strip()
    m = _PARTIAL_DATE.match(s)
    if m:
        if not m.group(3):
            return None
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    try:
        return datetime.fromisoformat(s).date()
    except ValueError:
        return None


__all__ = [
    "LLMExtractor",
    "ExtractionReply",
    "EXTRACTION_JSON_SCHEMA",
    "build_messages",
    "parse_reply",
    "strict_json_schema",
    "to_extraction",
    "turn_line",
]
