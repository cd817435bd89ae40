"""A scriptable OpenAI-compatible server for tests: real HTTP on 127.0.0.1, no network, no model.

    with OpenAIStub() as stub:
        settings = Settings(_env_file=None, **stub.llm_settings())  # base_url, model, key
        stub.fail_next(2, status=500)           # the next two requests get HTTP 500
        stub.reply_invalid_json_next()          # then one reply that is not JSON
        stub.respond_with({"title": ...})       # then this object as the reply (or a callable)
        ...                                     # then the default: a deterministic extraction
        assert stub.requests[-1].model == "stub-model"

Behaviours queue up and are used one per request, in order; when the queue is empty the
default behaviour answers. The default reads the turns from the prompt (JSON Lines with a
"turn_id") and makes one fact per turn, the speakers as person entities, "lives in" / "works at"
facts for "I live in X" / "I work at X", and a foresight for allergies and plans -- enough
for pipeline tests to run end to end without scripting anything.

Served paths: POST /v1/chat/completions and /chat/completions, GET /v1/models and /models.
"""
from __future__ import annotations

import json
import math
import re
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

import pytest

STUB_MODEL = "stub-model"
STUB_API_KEY = "stub-key"


@dataclass
class StubRequest:
    """One request the stub received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def response_format(self) -> dict[str, Any] | None:
        return self.body.get("response_format")

    @property
    def response_format_type(self) -> str | None:
        rf = self.response_format
        return rf.get("type") if isinstance(rf, dict) else None

    @property
    def system_text(self) -> str:
        return "\n".join(_text_of(m) for m in self.messages if m.get("role") in ("system", "developer"))

    @property
    def user_text(self) -> str:
        return "\n".join(_text_of(m) for m in self.messages if m.get("role") == "user")

    @property
    def turns(self) -> list[dict[str, Any]]:
        """The turns found in the user message(s): one JSON object with a "turn_id" per line."""
        return parse_turns(self.user_text)


@dataclass
class StubReply:
    """What the stub sends back for one request."""

    status: int = 200
    content: str | None = None  # the assistant message's content (status 200)
    error: str = ""  # the error message (status >= 400)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # wait this long before answering (to provoke client timeouts)
    finish_reason: str = "stop"
    refusal: str | None = None
    usage: dict[str, int] | None = None  # None: estimated from the text lengths


Behaviour = Callable[[StubRequest], "StubReply | dict[str, Any] | str"]


class OpenAIStub:
    """An OpenAI-compatible chat-completions server on a free port of 127.0.0.1."""

    def __init__(self, *, model: str = STUB_MODEL, json_schema_supported: bool = True) -> None:
        self.model = model
        # False: like a server without structured outputs, every `json_schema` request gets a 400.
        self.json_schema_supported = json_schema_supported
        self.requests: list[StubRequest] = []
        self.default: Behaviour = default_extraction
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> "OpenAIStub":
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
            name="openai-stub", daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()  # wakes handlers that are waiting out a delay
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> "OpenAIStub":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the stub is not running; use `with OpenAIStub() as stub:`")
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def llm_settings(self, **overrides: Any) -> dict[str, Any]:
        """Settings fields that point the `llm` extractor at this stub: Settings(**stub.llm_settings())."""
        values: dict[str, Any] = {
            "extractor": "llm",
            "llm_base_url": self.base_url,
            "llm_model": self.model,
            "llm_api_key": STUB_API_KEY,
        }
        values.update(overrides)
        return values

    # -- scripting ----------------------------------------------------------------------------

    def respond_with(self, reply: Behaviour | StubReply | dict[str, Any] | str, times: int = 1) -> None:
        """Answer the next `times` requests with `reply`.

        A dict is sent as the JSON content of the assistant message, a str as the content
        verbatim, a StubReply as it is; a callable gets the StubRequest and returns any of these.
        """
        behaviour: Behaviour = reply if callable(reply) else (lambda _req, r=reply: r)
        self._push(behaviour, times)

    def fail_next(self, n: int = 1, status: int = 500, message: str = "stub failure",
                  headers: dict[str, str] | None = None) -> None:
        """The next `n` requests get an HTTP error with an OpenAI-shaped error body."""
        self._push(lambda _req: StubReply(status=status, error=message, headers=dict(headers or {})), n)

    def reply_invalid_json_next(self, n: int = 1, content: str = "Sure! Here are the memories: {facts: [") -> None:
        """The next `n` requests get HTTP 200 with content that is not JSON."""
        self._push(lambda _req: StubReply(content=content), n)

    def delay_next(self, n: int = 1, seconds: float = 1.0) -> None:
        """The next `n` requests get the default answer, but only after `seconds`."""
        def slow(req: StubRequest) -> StubReply:
            reply = _as_reply(self.default(req))
            reply.delay_s = seconds
            return reply
        self._push(slow, n)

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    @property
    def pending(self) -> int:
        """Scripted behaviours not used yet."""
        with self._lock:
            return len(self._queue)

    @property
    def last_request(self) -> StubRequest:
        with self._lock:
            return self.requests[-1]

    def _push(self, behaviour: Behaviour, times: int) -> None:
        with self._lock:
            self._queue.extend([behaviour] * max(0, times))

    # -- serving ------------------------------------------------------------------------------

    def _answer(self, request: StubRequest) -> StubReply:
        with self._lock:
            self.requests.append(request)
            if self.json_schema_supported or request.response_format_type != "json_schema":
                behaviour = self._queue.popleft() if self._queue else self.default
            else:
                behaviour = None
        if behaviour is None:
            return StubReply(status=400, error="Invalid parameter: 'response_format' of type "
                             "'json_schema' is not supported by this server.")
        try:
            return _as_reply(behaviour(request))
        except Exception as err:  # noqa: BLE001 - a broken test behaviour shows up as a 500
            return StubReply(status=500, error=f"stub behaviour raised {type(err).__name__}: {err}")

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)


def _as_reply(value: StubReply | dict[str, Any] | str) -> StubReply:
    if isinstance(value, StubReply):
        return value
    if isinstance(value, str):
        return StubReply(content=value)
    return StubReply(content=json.dumps(value, ensure_ascii=False))


def _handler_for(stub: OpenAIStub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib's name
            pass  # keep test output clean

        def do_GET(self) -> None:  # noqa: N802 - stdlib's name
            if self.path.rstrip("/") in ("/v1/models", "/models"):
                self._send(200, {"object": "list", "data": [
                    {"id": stub.model, "object": "model", "created": 0, "owned_by": "stub"}]})
            else:
                self._send(404, _error_body(f"no route {self.path}", 404))

        def do_POST(self) -> None:  # noqa: N802 - stdlib's name
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path.split("?")[0].rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, _error_body(f"no route {self.path}", 404))
                return
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, _error_body("the request body is not JSON", 400))
                return
            request = StubRequest(path=self.path, headers={k.lower(): v for k, v in self.headers.items()},
                                  body=body if isinstance(body, dict) else {})
            reply = stub._answer(request)
            if reply.delay_s > 0:
                stub._wait(reply.delay_s)
            if reply.status >= 400:
                self._send(reply.status, _error_body(reply.error, reply.status), reply.headers)
            else:
                self._send(reply.status, _completion(request, reply, stub.model), reply.headers)

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing to deliver

    return Handler


def _error_body(message: str, status: int) -> dict[str, Any]:
    kind = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
            429: "rate_limit_error"}.get(status, "server_error")
    param = "response_format" if "response_format" in message else None
    return {"error": {"message": message, "type": kind, "param": param, "code": None}}


_ids = iter(range(1, 1 << 62))


def _completion(request: StubRequest, reply: StubReply, model: str) -> dict[str, Any]:
    prompt_chars = sum(len(_text_of(m)) for m in request.messages)
    usage = dict(reply.usage) if reply.usage else {
        "prompt_tokens": math.ceil(prompt_chars / 4),
        "completion_tokens": math.ceil(len(reply.content or "") / 4),
    }
    usage.setdefault("total_tokens", usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0))
    return {
        "id": f"chatcmpl-stub-{next(_ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.model or model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": reply.content, "refusal": reply.refusal},
            "finish_reason": reply.finish_reason,
            "logprobs": None,
        }],
        "usage": usage,
    }


def _text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):  # content parts
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


# --------------------------------------------------------------------------------------------
# The default behaviour: a deterministic extraction made from the turns in the prompt.

def parse_turns(text: str) -> list[dict[str, Any]]:
    """Lines of `text` that are JSON objects with a "turn_id" (the prompt's turn format)."""
    turns = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and "turn_id" in obj:
            turns.append(obj)
    return turns


_STOPWORDS = frozenset(
    "about after again also because been before being could didn't doesn't don't going have "
    "having here just know like really should some that their them then there these they "
    "thing think this those very want what when where which while will with would your yours "
    "from into over than been were more most much only such".split()
)
_LIVES = re.compile(r"\bI (?:live|moved|have moved|just moved|relocated) (?:in|to) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)")
_WORKS = re.compile(r"\bI (?:work|started working|now work) (?:at|for) ([A-Z][\w&'-]*(?: [A-Z][\w&'-]*)*)")
_CONSTRAINT = re.compile(r"\b(allergic|allergy|vegan|vegetarian|gluten|lactose|can't eat|cannot eat)\b", re.I)
_PLAN = re.compile(r"\b(plan|planning|going to|will|tomorrow|next week|next month)\b", re.I)


def default_extraction(request: StubRequest) -> dict[str, Any]:
    """One fact per turn (and no more): same prompt, same reply."""
    turns = parse_turns(request.user_text)
    speakers = list(dict.fromkeys(str(t.get("speaker") or "someone") for t in turns))
    facts: list[dict[str, Any]] = []
    foresights: list[dict[str, Any]] = []
    entities = [{"name": s, "type": "person", "aliases": []} for s in speakers]
    for t in turns:
        tid, speaker = str(t["turn_id"]), str(t.get("speaker") or "someone")
        text = " ".join(str(t.get("text") or "").split())
        when = str(t.get("time") or "") or None  # the turn's own moment, as the prompt gave it
        fact = {
            "subject": speaker, "predicate": "said", "object": text[:200],
            "text": f"{speaker} said: {text}", "confidence": 0.9, "valid_from": None,
            "event_date": None, "turn_ids": [tid],
            "entities": [{"name": speaker, "role": "subject"}], "single_valued": False,
        }
        for pattern, predicate, kind in ((_LIVES, "lives in", "place"), (_WORKS, "works at", "organization")):
            m = pattern.search(text)
            if m:
                value = m.group(1)
                fact.update(predicate=predicate, object=value, single_valued=True,
                            text=f"{speaker} {'lives in' if predicate == 'lives in' else 'works at'} {value}.",
                            valid_from=when,
                            entities=[{"name": speaker, "role": "subject"}, {"name": value, "role": "object"}])
                if all(e["name"] != value for e in entities):
                    entities.append({"name": value, "type": kind, "aliases": []})
                break
        facts.append(fact)
        if _CONSTRAINT.search(text):
            foresights.append({
                "text": f"{speaker} has a dietary constraint: {text}",
                "trigger": "food, restaurants, eating out, cooking, recipes, snacks, ordering dinner",
                "kind": "constraint", "valid_from": when, "valid_to": None, "turn_ids": [tid],
            })
        elif _PLAN.search(text):
            foresights.append({
                "text": f"{speaker} plans: {text}", "trigger": text[:200], "kind": "plan",
                "valid_from": when, "valid_to": None, "turn_ids": [tid],
            })
    words = Counter(
        w for t in turns for w in re.findall(r"[a-z][a-z'-]{4,}", str(t.get("text") or "").lower())
        if w not in _STOPWORDS
    )
    keywords = [w for w, _ in sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:5]]
    first = " ".join(str(turns[0].get("text") or "").split())[:160] if turns else ""
    return {
        "title": f"Conversation between {' and '.join(speakers)}" if speakers else "Conversation",
        "summary": f"{len(turns)} turns. {speakers[0] + ' said: ' + first if turns else ''}".strip(),
        "keywords": keywords,
        "importance": 0.5,
        "entities": entities,
        "facts": facts,
        "foresights": foresights,
    }


@pytest.fixture
def openai_stub() -> Iterator[OpenAIStub]:
    """A running stub per test: `from tests.llm_stub import openai_stub` into a test module or conftest."""
    with OpenAIStub() as stub:
        yield stub
