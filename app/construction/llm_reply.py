"""What the `llm` extractor asks the model to write, and reading its reply: the reply's models
(validated leniently: small-model quirks are repaired, not punished), the strict JSON schema
built from them, and the parsing of a chat completion into one."""
from __future__ import annotations

import copy
import json
import math
import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, ValidationError

from app.construction.prompts import ENTITY_ROLES, ENTITY_TYPES, FORESIGHT_KINDS

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



class InvalidReply(Exception):
    """The server answered, but not with a usable extraction (worth another attempt)."""


class Refused(Exception):
    """The model refused; asking again the same way will not change its mind."""


# --------------------------------------------------------------------------------------------
# Reply -> ExtractionReply

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL | re.IGNORECASE)


def parse_reply(response: Any) -> ExtractionReply:
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise InvalidReply("the reply has no choices")
    choice = choices[0]
    message = getattr(choice, "message", None)
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise Refused("the model refused to extract")
    content = getattr(message, "content", None)
    if not content or not content.strip():
        raise InvalidReply(f"the reply is empty (finish_reason={getattr(choice, 'finish_reason', None)})")
    data = _loads(content)
    if data is None:
        truncated = getattr(choice, "finish_reason", None) == "length"
        raise InvalidReply(
            "the reply was cut off before its JSON ended (finish_reason=length)" if truncated
            else "the reply is not valid JSON"
        )
    if not isinstance(data, dict):
        raise InvalidReply(f"the reply is JSON but not an object ({type(data).__name__})")
    data = _unwrap(data)
    try:
        return ExtractionReply.model_validate(data)
    except ValidationError as err:
        # Locations and error kinds only: the offending values may quote the conversation.
        where = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['type']}" for e in err.errors()[:3]
        )
        more = f" (+{err.error_count() - 3} more)" if err.error_count() > 3 else ""
        raise InvalidReply(f"the reply does not match the extraction schema: {where}{more}") from None


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


