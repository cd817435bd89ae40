"""The `llm` extractor's validated reply as the domain's drafts: ids checked against the cell,
dates made timezone-aware, numbers clamped, lists capped."""
from __future__ import annotations

import math
import re
from calendar import monthrange
from datetime import date, datetime, time, timezone, tzinfo

from app.construction.llm_reply import (
    MAX_ALIASES, MAX_ENTITIES, MAX_FACT_ENTITIES, MAX_FACTS, MAX_FORESIGHTS, MAX_KEYWORDS, MAX_NAME_CHARS,
    MAX_SUMMARY_CHARS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, ExtractionReply,
)
from app.construction.prompts import ENTITY_ROLES, ENTITY_TYPES, FORESIGHT_KINDS, SINGLE_VALUED_PREDICATES
from app.domain.models import EntityDraft, Extraction, FactDraft, ForesightDraft, ForesightEndDraft, TurnRecord

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
    tz = aware(turns[-1].at).tzinfo or timezone.utc
    turn_ids = [t.id for t in turns]
    at_of = {t.id: aware(t.at) for t in turns}
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
        f"Conversation on {aware(turns[0].at).date().isoformat()}"
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


def aware(at: datetime) -> datetime:
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


