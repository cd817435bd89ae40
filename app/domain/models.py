"""The domain model: what a client sends, and what construction makes of it.

Input (Message) is validated with pydantic; the construction pipeline passes plain dataclasses
(drafts) between its stages and writes them in one batch.
"""
from __future__ import annotations

import re
import unicodedata
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from enum import Enum

from pydantic import BaseModel, Field, field_validator


MAX_UTC_OFFSET = timedelta(hours=18)
# How far ahead of the server's clock a message may be stamped: clocks differ by seconds, not
# more. A message is said when it is stamped, and what it says holds from then (searches ask
# what is true now, app/recollection/filters.py): one stamped tomorrow would hide until then.
# A local time sent without its offset east of UTC is the usual cause, so the error says so.
MAX_CLOCK_AHEAD = timedelta(minutes=5)


class Role(str, Enum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


# Roles that speak for the service's side, not for a person whose life is remembered.
ASSISTANT_ROLES = frozenset({Role.ASSISTANT.value, Role.SYSTEM.value, Role.TOOL.value})


class Message(BaseModel):
    """One message as a client sends it. `id` is the client's and becomes the Turn id."""

    id: str = Field(min_length=1, max_length=256)
    speaker: str = Field(min_length=1, max_length=256)
    user_id: str | None = Field(default=None, max_length=256)
    role: Role = Role.USER
    content: str
    timestamp: datetime

    @field_validator("speaker", "content", mode="before")
    @classmethod
    def _one_spelling(cls, v):
        return plain_text(v) if isinstance(v, str) else v

    @field_validator("content")
    @classmethod
    def _content_not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("content is empty")
        return v

    @field_validator("id", "speaker", "user_id")
    @classmethod
    def _names_something(cls, v: str | None) -> str | None:
        # "  " names no one a filter or a forget could find again (forget refuses a blank id).
        if v is not None and not v.strip():
            raise ValueError("is blank (spaces only)")
        if v is not None and _CONTROL.search(v):
            raise ValueError("holds a control character")
        return v

    @field_validator("id", "speaker", "user_id", "content")
    @classmethod
    def _unicode(cls, v: str | None) -> str | None:
        # A lone surrogate (JSON's "\ud800") is no text: the model, the driver and Lucene fail on it.
        if v is not None:
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("text is not valid Unicode (a lone surrogate)") from None
        return v

    @field_validator("timestamp", mode="before")
    @classmethod
    def _has_a_time(cls, v):
        if isinstance(v, str) and DATE_ONLY.fullmatch(v):
            raise ValueError(f"timestamp {DATE_ONLY_MESSAGE}")
        return v

    @field_validator("timestamp")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        # A naive timestamp is taken as UTC: the graph stores zoned datetimes only. Kept with its
        # own offset (relative dates resolve in the speaker's day), but it must exist in UTC too.
        naive = v.tzinfo is None
        v = v.replace(tzinfo=timezone.utc) if naive else v
        try:
            v.astimezone(timezone.utc)
        except (OverflowError, ValueError):
            raise ValueError("timestamp is outside the calendar once in UTC") from None
        # Python takes offsets up to 24 h, Neo4j only up to 18 h: caught here, before anything is
        # written, rather than by the write of the turns (a batch's earlier chunks would stay).
        if abs(v.utcoffset()) > MAX_UTC_OFFSET:
            raise ValueError("timestamp's UTC offset is beyond ±18:00")
        if v.year < EARLIEST_YEAR:  # "0001-01-01T00:00:00Z", a client's empty value: no one said it then
            raise ValueError(f"timestamp is before {EARLIEST_YEAR}: a conversation's turn is said in our time")
        if v - datetime.now(timezone.utc) > MAX_CLOCK_AHEAD:
            raise ValueError(f"timestamp is in the future (more than {MAX_CLOCK_AHEAD.seconds // 60} minutes "
                             "ahead of the server's clock)"
                             + ("; a local time needs its UTC offset, without one it is read as UTC" if naive else ""))
        return v


MAX_ID = 256  # ids, names and groups a client gives
EARLIEST_YEAR = 1900  # a turn's timestamp: older ones are a client's placeholder, not a saying


# What names_something asks, for the errors that refuse a value.
ID_RULE = f"1-{MAX_ID} characters, not blank, without control characters"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


# Invisible characters that join nothing: a zero-width space, a word joiner, a byte-order mark
# ("Zoë\u200b" is Zoë). The zero-width joiner and non-joiner stay: emoji and scripts need them.
_INVISIBLE = re.compile("[\u200b\u2060\ufeff]")


def plain_text(text: str) -> str:
    """Text as one spelling: composed (NFC: "Zoe" + a combining diaeresis is "Zoë", as the
    extractor's names, the keyword index and a query typed on a keyboard spell it) and without
    invisible characters. "Zoe\u0308 is allergic to peanuts" was no sentence about Zoë: the
    allergy went to the speaker."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFC", text))


def names_something(value: str) -> bool:
    """A client's id, group or name: 1-256 characters, not all blank ("" or "  " names nothing
    a filter could find again), no control character (a NUL or a newline in an id is a client's
    bug, and would be stored, matched and logged as if it were not there)."""
    return bool(value.strip()) and len(value) <= MAX_ID and not _CONTROL.search(value)


# A timestamp that is a date alone ("2026-11-20"): midnight, in UTC when no offset is given,
# the evening before for a client west of Greenwich, where its "tomorrow" would then be read.
DATE_ONLY = re.compile(r"\s*[+-]?\d{4,}-?\d{2}-?\d{2}\s*")
DATE_ONLY_MESSAGE = ("is a date without a time of day: send one, with its UTC offset "
                     "(e.g. 2026-11-20T09:30:00-08:00)")


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


@dataclass
class TurnRecord:
    """A stored turn, as construction sees it."""

    id: str
    conversation_id: str
    speaker: str
    user_id: str | None
    role: str
    content: str
    at: datetime
    seq: int  # position in the conversation
    group_id: str | None = None


@dataclass
class EntityDraft:
    name: str
    type: str = "thing"  # person | place | organization | project | thing | time
    aliases: list[str] = field(default_factory=list)


@dataclass
class FactDraft:
    subject: str
    predicate: str
    object: str
    text: str
    turn_ids: list[str]
    confidence: float = 0.7
    valid_from: datetime | None = None
    # The last moment valid_from may stand for, when it is a day (month, year) and not an
    # instant: a fact dated "2024-03-04" may have begun at any time that day.
    valid_from_until: datetime | None = None
    valid_to: datetime | None = None
    event_date: date | None = None  # an absolute date the fact mentions ("yesterday" -> 2023-05-07)
    entities: list[tuple[str, str]] = field(default_factory=list)  # (entity name, role)
    single_valued: bool = False  # lives in, works at, job...: a newer value replaces the old
    # The single-valued predicate whose value this fact ends with no new one ("I quit my job at
    # Acme" ends "works at" Acme; an object the subject's values never held ends any of them).
    ends: str | None = None
    # A number said instead of another ("It's 995 not 975"), of no value said before in its
    # episode: (old, new). The writer gives the group's value that holds the old number the new
    # one (construction/corrections.py); with none, the fact stays as said. A value read from the
    # sentence itself ("order 15 boxes not 12": the box count) has its own timeline: (old, new,
    # "sayings"), only the sayings that hold the old number end.
    corrects: tuple[str, ...] | None = None
    # A day an event said only as "it" was moved to ("The inspector was ill, and it's been moved again,
    # now to Tuesday 1 December"), ISO: the writer gives it to the group's event whose name the
    # turn's words hold (construction/moved_events.py); with none, the fact stays as said.
    moves_to: str | None = None
    # The name of one switched to ("I'm switching to Tomasz Nowak, Karen's too far away now"): the
    # writer makes it the new value of the group's value the sentence names, by its holder or by
    # what it is (construction/replacements.py); with none, the fact stays as said.
    switches_to: str | None = None
    # Said in error and taken back at once ("... to 15 units from tonight", then "no wait, 16."):
    # never true, so on no timeline and no value held earlier (construction/local/slips.py).
    retracted: bool = False


@dataclass
class ForesightDraft:
    text: str
    trigger: str  # words describing the situations where it matters
    turn_ids: list[str]
    valid_from: datetime | None = None
    valid_to: datetime | None = None  # None: open-ended (standing constraint)
    kind: str = "plan"  # plan | constraint | deadline


@dataclass
class ForesightEndDraft:
    """A statement that someone's constraint or plan no longer holds ("I'm not vegan any more",
    "we called off the Tokyo trip"): it ends their active foresight of that kind which holds one
    of `words`, from the moment it was said."""
    who: str  # whom the foresight is about, as its text begins
    words: list[str]  # what ended ("peanuts", "vegan", "Tokyo"), never a word every such one holds
    kind: str  # constraint | plan (a plan's end also ends a deadline)
    turn_ids: list[str]
    # A plan carried out ("I renewed my passport"): the doing, which the plan's text must name
    # too ("Maya needs to renew her passport"; not "Maya is flying to Tokyo" for "I booked the
    # flights to Tokyo").
    done: str | None = None
    # Words its text must all hold besides: where a moved event is ("Flat", "5": the gas check at
    # Flat 5 moved, not Flat 6's), whose a taken-back errand is ("Tom": his references).
    needs: list[str] = field(default_factory=list)
    # Called off by "we", for all who said it ("We decided not to migrate to Kafka after all",
    # "we're not doing the Kafka migration"): whoever's plan it was in the group ends, when its
    # text holds every word of `needs` (Marco's "I'll draft the Kafka migration plan" had stayed).
    anyone: bool = False
    # A day moved or corrected ("the oven service is moved from 9 December to Friday 11
    # December", "the Okafor booking is on Sunday 13 December, not Saturday 12"): the old day,
    # ISO, which the text of the plan it ends holds, whoever in the group said it.
    day: str | None = None


@dataclass
class Extraction:
    """What an extractor makes of one MemCell's turns."""

    title: str
    summary: str
    keywords: list[str]
    importance: float
    facts: list[FactDraft] = field(default_factory=list)
    entities: list[EntityDraft] = field(default_factory=list)
    foresights: list[ForesightDraft] = field(default_factory=list)
    foresight_ends: list[ForesightEndDraft] = field(default_factory=list)
    tokens_used: int = 0


@dataclass
class CellDraft:
    """A run of turns on one topic, before extraction."""

    turns: list[TurnRecord]
    closed: bool = True  # False: the open tail, kept pending until more turns or a flush

    # Earliest and latest, not first and last: turns sent out of order would give an episode
    # that ends before it starts, which the time filters then drop.
    @property
    def started_at(self) -> datetime:
        return min(t.at for t in self.turns)

    @property
    def ended_at(self) -> datetime:
        return max(t.at for t in self.turns)
