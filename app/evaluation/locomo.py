"""Loading conversations in the LoCoMo layout into Engram messages and scored questions.

The layout: a JSON list of samples
    {sample_id, conversation: {speaker_a, speaker_b, session_N_date_time, session_N: [turn, ...]},
     qa: [{question, answer | adversarial_answer, evidence: [dia_id, ...], category}]}
where a turn is {speaker, dia_id, text, blip_caption?, img_url?, ...}.

Nothing here knows about a particular file: speakers, ids and session counts are all read from
the data, and everything that cannot be read cleanly is recorded (Conversation.warnings,
Question.unmatched) rather than guessed silently.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterable

from pydantic import ValidationError

from app.domain.models import Message

TURN_SPACING = timedelta(seconds=30)
# A session whose date cannot be read is placed this long after the previous one.
MISSING_DATE_GAP = timedelta(hours=1)
# When no session of a conversation has a readable date at all.
FALLBACK_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)


@dataclass
class Question:
    index: int  # position in the sample's qa list
    text: str
    answer: str
    category: int
    evidence: list[str]  # ids of turns of the conversation (same strings as Message.id)
    unmatched: list[str] = field(default_factory=list)  # raw evidence pieces naming no turn
    raw_evidence: list[str] = field(default_factory=list)  # evidence as written in the file
    adversarial: bool = False  # the answer came from `adversarial_answer`

    @property
    def scorable(self) -> bool:
        """Retrieval recall is defined only when at least one gold turn is known."""
        return bool(self.evidence)


@dataclass
class Conversation:
    sample_id: str
    speakers: list[str]
    turns: list[Message]
    questions: list[Question]
    session_starts: dict[int, datetime] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def turn_by_id(self) -> dict[str, Message]:
        return {t.id: t for t in self.turns}


# ---------------------------------------------------------------------------------------------
# Session dates

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}
_MONTH_ALIASES = {**_MONTHS, **{name[:3]: n for name, n in _MONTHS.items()}, "sept": 9}

_TIME_12H = re.compile(
    r"(?<!\d)(\d{1,2})(?:\s*[:.]\s*(\d{2}))?(?:\s*[:.]\s*(\d{2}))?\s*([ap])\.?\s*m\b\.?", re.I
)
_TIME_24H = re.compile(r"(?<![\d:])(\d{1,2})\s*:\s*(\d{2})(?:\s*:\s*(\d{2}))?(?![\d:])")
_DATE_ISO = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_DATE_DMY = re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?\s+(\d{4})(?!\d)", re.I)
_DATE_MDY = re.compile(r"\b([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s+(\d{4})(?!\d)", re.I)


def _month(word: str) -> int | None:
    return _MONTH_ALIASES.get(word.lower().rstrip("."))


def parse_session_datetime(text: Any) -> datetime | None:
    """A session date such as "1:56 pm on 8 May, 2023" as an aware UTC datetime; None if unreadable.

    Also read: a missing time (midnight), "1:56pm", "1.56 p.m.", "1 pm", 24-hour "13:56",
    abbreviated months, "8th of May 2023", "May 8, 2023", ISO "2023-05-08[T13:56[:00][+02:00]]",
    and any amount of whitespace or commas. 12 am is midnight, 12 pm is noon.
    """
    if not isinstance(text, str):
        return None
    raw = " ".join(text.split())
    if not raw:
        return None

    # ISO first: it may carry a zone, which is converted to UTC.
    try:
        iso = datetime.fromisoformat(raw.replace("Z", "+00:00") if raw.endswith("Z") else raw)
    except ValueError:
        iso = None
    if iso is not None:
        return iso.astimezone(timezone.utc) if iso.tzinfo else iso.replace(tzinfo=timezone.utc)

    s = raw.replace(",", " ")
    s = " ".join(s.split())

    hour = minute = second = 0
    m = _TIME_12H.search(s)
    if m:
        hour, minute, second = int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0)
        meridiem = m.group(4).lower()
        if hour > 23:
            return None
        if hour <= 12:
            if meridiem == "a":
                hour = 0 if hour == 12 else hour
            else:
                hour = 12 if hour == 12 else hour + 12
        # "13:56 pm": already 24-hour, keep it.
        s = s[: m.start()] + " " + s[m.end():]
    else:
        m = _TIME_24H.search(s)
        if m:
            hour, minute, second = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
            s = s[: m.start()] + " " + s[m.end():]

    year = month = day = None
    m = _DATE_ISO.search(s)
    if m:
        year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if year is None:
        for m in _DATE_DMY.finditer(s):
            mo = _month(m.group(2))
            if mo:
                year, month, day = int(m.group(3)), mo, int(m.group(1))
                break
    if year is None:
        for m in _DATE_MDY.finditer(s):
            mo = _month(m.group(1))
            if mo:
                year, month, day = int(m.group(3)), mo, int(m.group(2))
                break
    if year is None:
        return None
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# Sessions

_SESSION_KEY = re.compile(r"session_(\d+)")


def session_numbers(conversation: dict[str, Any]) -> list[int]:
    """Numbers of the sessions holding turns, in numeric order (1, 2, ..., 10, 11)."""
    nums = []
    for key, value in conversation.items():
        m = _SESSION_KEY.fullmatch(key)
        if m and isinstance(value, list):
            nums.append(int(m.group(1)))
    return sorted(set(nums))


def _session_date_text(conversation: dict[str, Any], n: int) -> Any:
    for key in (f"session_{n}_date_time", f"session_{n}_datetime", f"session_{n}_date"):
        if key in conversation:
            return conversation[key]
    return None


# ---------------------------------------------------------------------------------------------
# Evidence

_DIA_ID = re.compile(r"(?<![A-Za-z0-9])D?\s*:?\s*(\d+)\s*:\s*(\d+)(?!\d)", re.I)
_DIA_ID_FULL = re.compile(r"\s*D?\s*:?\s*(\d+)\s*:\s*(\d+)\s*", re.I)
_EVIDENCE_SEP = re.compile(r"[;,\s]+")


def canonical_dia_id(text: str) -> str | None:
    """"D8:6", "d 8 : 06", "D:8:6", "8:6" -> "D8:6"; None if the text is not a dialogue id."""
    m = _DIA_ID_FULL.fullmatch(text)
    if not m:
        return None
    return f"D{int(m.group(1))}:{int(m.group(2))}"


class TurnLookup:
    """Finds a turn from an evidence string, by exact id or by canonical dialogue id."""

    def __init__(self, turn_ids: Iterable[str]):
        self.exact: dict[str, str] = {}
        self.canonical: dict[str, str] = {}
        for tid in turn_ids:
            self.exact.setdefault(tid.strip().lower(), tid)
            canon = canonical_dia_id(tid)
            if canon:
                self.canonical.setdefault(canon, tid)

    def find(self, piece: str) -> str | None:
        piece = piece.strip()
        if not piece:
            return None
        hit = self.exact.get(piece.lower())
        if hit is not None:
            return hit
        canon = canonical_dia_id(piece)
        return self.canonical.get(canon) if canon else None


def parse_evidence(raw: Any, turn_ids: Iterable[str] | TurnLookup) -> tuple[list[str], list[str]]:
    """Evidence entries -> (turn ids, unmatched raw pieces), both de-duplicated in order.

    Lenient: entries may hold several ids ("D8:6; D9:17"), odd punctuation ("D:11:26"), any case
    and stray spaces. A piece that names no turn of the conversation (a malformed "D", an id past
    the end of a session) goes to `unmatched`.
    """
    lookup = turn_ids if isinstance(turn_ids, TurnLookup) else TurnLookup(turn_ids)
    if raw is None:
        entries: list[Any] = []
    elif isinstance(raw, (list, tuple)):
        entries = list(raw)
    else:
        entries = [raw]

    found: list[str] = []
    unmatched: list[str] = []

    def add(lst: list[str], item: str) -> None:
        if item not in lst:
            lst.append(item)

    for entry in entries:
        if entry is None:
            continue
        if isinstance(entry, (list, tuple)):  # nested lists: flatten one level
            sub_found, sub_unmatched = parse_evidence(list(entry), lookup)
            for x in sub_found:
                add(found, x)
            for x in sub_unmatched:
                add(unmatched, x)
            continue
        text = str(entry)
        whole = lookup.find(text)
        if whole is not None:
            add(found, whole)
            continue
        rest = []
        last = 0
        for m in _DIA_ID.finditer(text):
            rest.append(text[last : m.start()])
            last = m.end()
            hit = lookup.find(m.group(0))
            if hit is not None:
                add(found, hit)
            else:
                add(unmatched, m.group(0).strip())
        rest.append(text[last:])
        for chunk in rest:
            for piece in _EVIDENCE_SEP.split(chunk):
                if not any(ch.isalnum() for ch in piece):
                    continue
                hit = lookup.find(piece)
                if hit is not None:
                    add(found, hit)
                else:
                    add(unmatched, piece)
    return found, unmatched


# ---------------------------------------------------------------------------------------------
# Conversations


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "; ".join(_as_text(v) for v in value if v is not None)
    return str(value)


def _category(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def parse_sample(sample: dict[str, Any], *, position: int = 0, user_id: str | None = None) -> Conversation:
    """One LoCoMo sample -> Conversation."""
    sample_id = str(sample.get("sample_id") or f"sample-{position}")
    conv = sample.get("conversation") or {}
    warnings: list[str] = []

    speakers: list[str] = []
    for key in ("speaker_a", "speaker_b"):
        name = conv.get(key)
        if isinstance(name, str) and name.strip() and name.strip() not in speakers:
            speakers.append(name.strip())

    numbers = session_numbers(conv)
    parsed: dict[int, datetime | None] = {}
    for n in numbers:
        text = _session_date_text(conv, n)
        parsed[n] = parse_session_datetime(text)
        if parsed[n] is None:
            warnings.append(f"session {n}: unreadable date {text!r}")
    readable = [d for d in parsed.values() if d is not None]

    turns: list[Message] = []
    session_starts: dict[int, datetime] = {}
    seen_ids: set[str] = set()
    previous_last: datetime | None = None
    for n in numbers:
        start = parsed[n]
        if start is None:
            start = previous_last + MISSING_DATE_GAP if previous_last else (
                min(readable) - timedelta(days=1) if readable else FALLBACK_EPOCH
            )
        if previous_last is not None and start <= previous_last:
            if parsed[n] is not None:
                warnings.append(
                    f"session {n}: start {parsed[n].isoformat()} is not after the previous turn; "
                    "moved just after it to keep order"
                )
            start = previous_last + TURN_SPACING
        session_starts[n] = start

        offset = 0
        for i, raw_turn in enumerate(conv.get(f"session_{n}") or []):
            if not isinstance(raw_turn, dict):
                warnings.append(f"session {n}: turn {i} is not an object, skipped")
                continue
            dia_id = str(raw_turn.get("dia_id") or "").strip() or f"D{n}:{i + 1}"
            if dia_id in seen_ids:
                k = 2
                while f"{dia_id}#{k}" in seen_ids:
                    k += 1
                warnings.append(f"duplicate turn id {dia_id!r}, renamed {dia_id}#{k}")
                dia_id = f"{dia_id}#{k}"
            content = _as_text(raw_turn.get("text")).strip()
            caption = _as_text(raw_turn.get("blip_caption")).strip()
            if caption:
                content = f"{content} [shares a photo: {caption}]".strip()
            if not content:
                warnings.append(f"turn {dia_id}: no text, skipped")
                continue
            speaker = _as_text(raw_turn.get("speaker")).strip() or "unknown"
            if speaker not in speakers:
                speakers.append(speaker)
            at = start + offset * TURN_SPACING
            try:
                message = Message(
                    id=dia_id, speaker=speaker, user_id=user_id, content=content, timestamp=at,
                    role=_role(raw_turn.get("role"), speaker),
                )
            except ValidationError as exc:
                warnings.append(f"turn {dia_id}: not a valid message ({exc.errors()[0].get('msg')}), skipped")
                continue
            offset += 1
            turns.append(message)
            seen_ids.add(dia_id)
            previous_last = at

    lookup = TurnLookup(t.id for t in turns)
    questions: list[Question] = []
    for index, qa in enumerate(sample.get("qa") or []):
        if not isinstance(qa, dict):
            continue
        answer = qa.get("answer")
        adversarial = answer is None and qa.get("adversarial_answer") is not None
        if adversarial:
            answer = qa.get("adversarial_answer")
        raw_evidence = qa.get("evidence")
        found, unmatched = parse_evidence(raw_evidence, lookup)
        if isinstance(raw_evidence, (list, tuple)):
            raw_list = [str(e) for e in raw_evidence]
        else:
            raw_list = [] if raw_evidence is None else [str(raw_evidence)]
        questions.append(
            Question(
                index=index,
                text=_as_text(qa.get("question")).strip(),
                answer=_as_text(answer).strip(),
                category=_category(qa.get("category")),
                evidence=found,
                unmatched=unmatched,
                raw_evidence=raw_list,
                adversarial=adversarial,
            )
        )

    return Conversation(
        sample_id=sample_id,
        speakers=speakers,
        turns=turns,
        questions=questions,
        session_starts=session_starts,
        warnings=warnings,
    )


def parse_locomo(data: Any, *, user_id: str | None = None) -> list[Conversation]:
    """Parsed JSON (a list of samples, or one sample) -> conversations."""
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ValueError("LoCoMo data must be a list of samples")
    return [parse_sample(s, position=i, user_id=user_id) for i, s in enumerate(data) if isinstance(s, dict)]


def load_locomo(path: str | Path, *, user_id: str | None = None) -> list[Conversation]:
    """Read a LoCoMo-layout JSON file."""
    with open(path, encoding="utf-8") as fh:
        return parse_locomo(json.load(fh), user_id=user_id)


def evidence_stats(conversations: Iterable[Conversation]) -> dict[str, int]:
    """Counts describing how cleanly the evidence could be read."""
    stats = {
        "questions": 0,
        "evidence_ids": 0,
        "unmatched_ids": 0,
        "questions_with_unmatched": 0,
        "questions_without_evidence": 0,
        "malformed_entries": 0,  # raw entries that are not exactly one canonical "D<n>:<m>"
    }
    for conv in conversations:
        for q in conv.questions:
            stats["questions"] += 1
            stats["evidence_ids"] += len(q.evidence)
            stats["unmatched_ids"] += len(q.unmatched)
            stats["questions_with_unmatched"] += bool(q.unmatched)
            stats["questions_without_evidence"] += not q.evidence
            stats["malformed_entries"] += sum(
                1 for e in q.raw_evidence if not re.fullmatch(r"D\d+:\d+", e)
            )
    return stats


# The layout has no role; a turn may carry one, and a speaker named as an assistant is one (the
# agent's side of a conversation with its user, as memorize receives it).
_ASSISTANT_NAMES = frozenset({"assistant", "ai", "ai assistant", "bot", "chatbot"})


def _role(raw: object, speaker: str) -> str:
    role = _as_text(raw).strip().lower()
    if role in ("user", "assistant", "system", "tool"):
        return role
    return "assistant" if speaker.strip().lower() in _ASSISTANT_NAMES else "user"
