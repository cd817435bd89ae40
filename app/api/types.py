"""GraphQL types of the contract in DESIGN.md (names other tools rely on; add, never rename)."""
from __future__ import annotations

import json
from datetime import date, datetime, timezone
from enum import Enum
from typing import Optional

import strawberry
from strawberry.types import Info

from app.api.errors import bad_input

# The largest page a list argument `first` takes (scenes, a scene's cells and conflicts).
MAX_PAGE = 100


def _dt(v) -> Optional[datetime]:
    if v is None:
        return None
    return v.to_native() if hasattr(v, "to_native") else v


def _date(v) -> Optional[date]:
    if v is None:
        return None
    return v.to_native() if hasattr(v, "to_native") else v


@strawberry.enum
class Role(Enum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


@strawberry.enum
class SearchMethod(Enum):
    KEYWORD = "KEYWORD"
    VECTOR = "VECTOR"
    GRAPH = "GRAPH"
    HYBRID = "HYBRID"
    AGENTIC = "AGENTIC"


@strawberry.enum
class HitKind(Enum):
    MEMCELL = "memcell"
    FACT = "fact"
    TURN = "turn"
    FORESIGHT = "foresight"
    SCENE = "scene"


@strawberry.enum
class MemoryKind(Enum):
    MEMCELL = "memcell"
    FACT = "fact"
    TURN = "turn"
    FORESIGHT = "foresight"
    SCENE = "scene"


@strawberry.type(description="A message as it was said: the raw evidence behind every memory.")
class Turn:
    id: strawberry.ID
    speaker: str
    content: str
    timestamp: datetime
    conversation_id: strawberry.ID
    user_id: Optional[strawberry.ID] = strawberry.field(default=None, description=(
        "the user's whose memory it is: its speaker's, or for an assistant's message sent "
        "without one, the user's it answers"))
    mem_cell_id: Optional[strawberry.ID] = None
    group_id: Optional[strawberry.ID] = strawberry.field(default=None, description=(
        "its conversation's group: in a search of no group, whose memory it is"))

    @classmethod
    def of(cls, d: dict) -> "Turn":
        return cls(id=d["id"], speaker=d.get("speaker") or "", content=d.get("content") or "",
                   timestamp=_dt(d.get("at")), conversation_id=d.get("conversationId") or "",
                   user_id=d.get("userId"), mem_cell_id=d.get("memCellId"), group_id=d.get("groupId"))


@strawberry.type(description="An atomic fact with its validity in time.")
class Fact:
    id: strawberry.ID
    subject: str
    predicate: str
    object: str
    text: str
    confidence: float
    valid_from: Optional[datetime]
    valid_to: Optional[datetime]
    status: str = strawberry.field(description=(
        "now (in a search, relatedTo or entity with asOf: at that moment): current, superseded (a later "
        "value replaced it, or a correction ended it), upcoming (true from validFrom, ahead: \"I start at Globex on 1 June\"), "
        "retracted (said in error and taken back at once: never true); a value replaced from a day ahead is "
        "current until then"))
    event_date: Optional[date] = None
    mem_cell_id: Optional[strawberry.ID] = None
    group_id: Optional[strawberry.ID] = strawberry.field(default=None, description=(
        "the group it was said in: in a search of no group, two groups' namesakes told apart"))

    @classmethod
    def of(cls, d: dict, at: Optional[datetime] = None) -> "Fact":
        """`at`: the moment its status is told at (an asOf asked), else now."""
        valid_from, valid_to = _dt(d.get("validFrom")), _dt(d.get("validTo"))
        return cls(id=d["id"], subject=d.get("subject") or "", predicate=d.get("predicate") or "",
                   object=d.get("object") or "", text=d.get("text") or "",
                   confidence=float(d.get("confidence") or 0.0), valid_from=valid_from,
                   valid_to=valid_to, status=_status_at(d.get("status") or "current", valid_from, valid_to, at),
                   event_date=_date(d.get("eventDate")), mem_cell_id=d.get("memCellId"),
                   group_id=d.get("groupId"))


def _status_at(stored: str, valid_from: Optional[datetime], valid_to: Optional[datetime],
               at: Optional[datetime] = None) -> str:
    """A fact's status at `at` (now by default). The graph marks a value replaced when the
    replacing one is said, also when it takes over on a day ahead ("Aisha takes the auth gateway
    from Monday"): until that day the old value is what holds, and the new one is still to come.
    Asked as of a past moment, the value true then is current, though replaced since (a search
    with asOf labelled the answer it found "superseded", and an agent would drop it)."""
    now = at or datetime.now(timezone.utc)
    if stored == "retracted":
        return stored
    if valid_from is not None and valid_from > now:
        return "upcoming"
    if stored == "superseded" and valid_to is not None and valid_to > now:
        return "current"
    if stored == "current" and valid_to is not None and valid_to <= now:
        # (ended as it was told: "£5,200 full pack" then "sorry, £5,250": it had read current, though
        # its validity was over)
        return "superseded"
    return stored


@strawberry.type(description="One episode: a run of turns on one topic.")
class MemCell:
    id: strawberry.ID
    title: str
    summary: str
    keywords: list[str]
    importance: float
    started_at: datetime
    ended_at: datetime
    status: str
    access_count: int
    last_accessed_at: Optional[datetime]
    conversation_id: strawberry.ID
    group_id: Optional[strawberry.ID]
    # What memCell(id) read with the episode; elsewhere (search hits, scenes) None, and read
    # when a client asks (app/api/loaders.py): an empty list would say it has none.
    parts: strawberry.Private[Optional[dict]] = None

    @strawberry.field(description="all turns, in order")
    async def turns(self, info: Info) -> list[Turn]:
        return [Turn.of(t) for t in (await self._parts(info))["turns"]]

    @strawberry.field(description="facts extracted from it")
    async def facts(self, info: Info) -> list[Fact]:
        return [Fact.of(f) for f in (await self._parts(info))["facts"]]

    async def _parts(self, info: Info) -> dict:
        if self.parts is None:
            self.parts = await info.context.loaders.cell_parts.load(self.id)
        return self.parts

    @classmethod
    def of(cls, d: dict, turns: list[dict] | None = None, facts: list[dict] | None = None) -> "MemCell":
        return cls(id=d["id"], title=d.get("title") or "", summary=d.get("summary") or "",
                   keywords=list(d.get("keywords") or []), importance=float(d.get("importance") or 0),
                   started_at=_dt(d.get("startedAt")), ended_at=_dt(d.get("endedAt")),
                   status=d.get("status") or "active", access_count=int(d.get("accessCount") or 0),
                   last_accessed_at=_dt(d.get("lastAccessedAt")),
                   conversation_id=d.get("conversationId") or "", group_id=d.get("groupId"),
                   parts=None if turns is None and facts is None else {"turns": turns or [], "facts": facts or []})


@strawberry.type(description="Prospective memory: a plan or constraint that must surface later.")
class Foresight:
    id: strawberry.ID
    text: str
    trigger: str
    kind: str
    valid_from: Optional[datetime]
    valid_to: Optional[datetime]
    status: str
    mem_cell_id: Optional[strawberry.ID] = None
    evidence: list[Turn] = strawberry.field(default_factory=list)
    ended_at: Optional[datetime] = strawberry.field(default=None, description=(
        "when a later statement said it no longer holds (\"I'm not vegan any more\", \"we called off "
        "the trip\"); validTo is then that moment"))
    ended_by: Optional[Turn] = strawberry.field(default=None, description="the turn that said so")
    concerns: Optional[Entity] = strawberry.field(default=None, description=(
        "whom it is about: the entity its text begins with (\"Maya is allergic to peanuts\"); null "
        "when that is no one named (\"Maya's son has asthma\")"))

    @classmethod
    def of(cls, d: dict, evidence: list[dict] | None = None, at: datetime | None = None) -> "Foresight":
        """`at`: the moment whom it concerns is read at (its facts true then), as asked; now by default."""
        about = d.get("concerns")
        return cls(id=d["id"], text=d.get("text") or "", trigger=d.get("trigger") or "",
                   kind=d.get("kind") or "plan", valid_from=_dt(d.get("validFrom")),
                   valid_to=_dt(d.get("validTo")), status=d.get("status") or "active",
                   mem_cell_id=d.get("memCellId"), evidence=[Turn.of(t) for t in evidence or []],
                   ended_at=_dt(d.get("endedAt")),
                   ended_by=Turn.of(d["endedBy"]) if d.get("endedBy") else None,
                   concerns=Entity.of(about, at=at or datetime.now(timezone.utc)) if about else None)


@strawberry.type(description="A surface form merged into an entity (by entity resolution, or by hand: "
                                "method manual) or split off it again (method split), kept for audit.")
class EntityMerge:
    surface: str
    method: str = strawberry.field(description=(
        "how it was resolved: key, role (another word for a one-holder role: Priya's dad for Priya's father), "
        "alias, prefix, vector; manual by mergeEntities; split when splitEntity took it back"))
    score: Optional[float]
    at: str
    into: Optional[str] = strawberry.field(default=None, description=(
        "the key of the entity the surface named from then on: this one (or one merged into it "
        "since), or after a split the entity it became"))


@strawberry.type(description="A person, place, organisation, project or thing.")
class Entity:
    id: strawberry.ID
    name: str
    type: str
    aliases: list[str]
    merges: list[EntityMerge]
    group_id: Optional[strawberry.ID] = strawberry.field(description=(
        "the group whose conversations know it (null: conversations without a group). An entity is "
        "its group's: one name in two groups is two entities, each with its own facts and aliases"))
    # The moment its facts are true at (the parent's asOf, else now). Read with the entity by
    # entity(name); under relatedTo None, read when a client asks.
    at: strawberry.Private[datetime]
    known_facts: strawberry.Private[Optional[list]] = None
    known_foresights: strawberry.Private[Optional[list]] = None  # read with it (entity(groupId))
    # entity(userId): its facts, foresight and history are those that user's turns say.
    user_id: strawberry.Private[Optional[str]] = None

    @strawberry.field(description="facts about it true now (or at the asOf asked), newest first; "
                                  "at most 50")
    async def facts(self, info: Info) -> list[Fact]:
        if self.known_facts is None:
            self.known_facts = await info.context.loaders.entity_facts.load((self.id, self.at))
        return [Fact.of(f, at=self.at) for f in self.known_facts]

    @strawberry.field(description="its plans, constraints and deadlines active now (or at the asOf "
                                  "asked), the soonest to end first; at most 50")
    async def foresights(self, info: Info) -> list[Foresight]:
        rows = self.known_foresights
        if rows is None:
            rows = await info.context.loaders.entity_foresights.load((self.id, self.at))
        return [Foresight.of(r["foresight"], r["evidence"], at=self.at) for r in rows]

    @strawberry.field(description="every fact about it, current, replaced, ended or yet to begin, in "
                                  "the order they began (validFrom), a page at a time (first: 1-100); "
                                  "under entity(userId), those that user's turns say")
    async def history(self, info: Info, first: Optional[int] = 50, after: Optional[str] = None) -> FactConnection:
        from app.recollection.cursors import CursorError
        from app.recollection.entity_history import history_page

        first = page_size(first)
        try:
            rows, more, total = await history_page(info.context.graph, self.id, first, after, self.user_id)
        except CursorError as e:
            raise bad_input(str(e), "after") from None
        edges = [FactEdge(cursor=r["cursor"], node=Fact.of(r)) for r in rows]
        return FactConnection(edges=edges, total_count=total, page_info=PageInfo(
            has_next_page=more, end_cursor=edges[-1].cursor if edges else None))

    @classmethod
    def of(cls, d: dict, *, at: datetime, facts: list[dict] | None = None,
           foresights: list[dict] | None = None, user_id: str | None = None) -> "Entity":
        merges = []
        for m in d.get("merges") or []:
            try:
                x = json.loads(m)
                merges.append(EntityMerge(surface=x.get("surface", ""), method=x.get("method", ""),
                                          score=x.get("score"), at=x.get("at", ""), into=x.get("into")))
            except (ValueError, TypeError):
                continue
        return cls(id=d["id"], name=d.get("name") or "", type=d.get("type") or "thing",
                   aliases=list(d.get("aliases") or []), merges=merges, group_id=d.get("groupId"),
                   known_facts=facts, known_foresights=foresights, at=at, user_id=user_id)


@strawberry.type(description=(
    "Why a hit was retrieved: one line per channel that ranked it or a candidate folded into it."))
class ChannelScore:
    channel: str
    rank: int = strawberry.field(description=(
        "the place in this channel's ranking (1: first) of what it ranked (see `ranked`)"))
    ranked: HitKind = strawberry.field(description=(
        "what this channel ranked: the hit itself, or (folded) another candidate that proves the "
        "same turns and was folded into this hit, e.g. a fact's source turn"))
    folded: bool = strawberry.field(description=(
        "this line is the channel's ranking of something folded into the hit, not of the hit itself"))
    score: float = strawberry.field(description="the channel's own score (BM25, cosine, ...)")
    contribution: float = strawberry.field(description=(
        "what this channel added to the hit's score: in HYBRID (learned ranker), its share of "
        "the log-odds of the hit's best turn (below 0: it counted against), one share per channel, "
        "repeated on each of its lines; with RRF, "
        "weight / (k + rank)"))
    note: str


@strawberry.type(description="A fact of a scene that a later one replaced: a conflict kept for the record.")
class SceneConflict:
    fact: Fact
    replaced_by: Optional[str] = strawberry.field(description="the text of the fact that replaced it")


def page_size(first: int | None, default: int = 50) -> int:
    """A list argument `first`, refused (not clamped) outside 1..MAX_PAGE: each scene's list is a
    query of its own, so a page of 100 scenes asking for 500 of each was silently a large read."""
    if first is None:
        return default
    if not 1 <= first <= MAX_PAGE:
        raise bad_input(f"first must be between 1 and {MAX_PAGE}", "first")
    return first


@strawberry.type(description="Related episodes gathered by topic, with what is currently true of them.")
class MemScene:
    id: strawberry.ID
    topic: str
    consensus: str = strawberry.field(description=("what is currently true in this scene, one fact per line; "
                                                   "in a search with userId, that user's facts only"))
    status: str = strawberry.field(description="active, or archived when its state was taken over by another scene")
    updated_at: Optional[datetime]
    created_at: Optional[datetime] = None
    started_at: Optional[datetime] = None
    ended_at: Optional[datetime] = None
    group_id: Optional[strawberry.ID] = None
    cell_count: int = 0

    @strawberry.field(description="member episodes in time order (first: 1-100)")
    async def cells(self, info: Info, first: Optional[int] = 50) -> list[MemCell]:
        from app.recollection.scene_lookup import scene_members

        first = page_size(first)
        return [MemCell.of(c) for c in await scene_members(info.context.graph, str(self.id), first)]

    @strawberry.field(description="facts of the scene that were superseded, with their replacements (first: 1-100)")
    async def conflicts(self, info: Info, first: Optional[int] = 50) -> list[SceneConflict]:
        from app.recollection.scene_lookup import scene_conflicts

        first = page_size(first)
        return [SceneConflict(fact=Fact.of(f), replaced_by=f.get("replacedBy"))
                for f in await scene_conflicts(info.context.graph, str(self.id), first)]

    @classmethod
    def of(cls, d: dict) -> "MemScene":
        return cls(id=d["id"], topic=d.get("topic") or "", consensus=d.get("consensus") or "",
                   status=d.get("status") or "active", updated_at=_dt(d.get("updatedAt")),
                   created_at=_dt(d.get("createdAt")), started_at=_dt(d.get("startedAt")),
                   ended_at=_dt(d.get("endedAt")), group_id=d.get("groupId"),
                   cell_count=int(d.get("cells") or 0))


@strawberry.type
class MemSceneEdge:
    cursor: str
    node: MemScene


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: Optional[str]


@strawberry.type
class FactEdge:
    cursor: str
    node: Fact


@strawberry.type(description="A page of facts in the order they began (cursor pagination).")
class FactConnection:
    edges: list[FactEdge]
    page_info: PageInfo
    total_count: int


@strawberry.type
class ForesightEdge:
    cursor: str
    node: Foresight


@strawberry.type(description="A page of foresight active at a moment, the soonest to end first (cursor pagination).")
class ForesightConnection:
    edges: list[ForesightEdge]
    page_info: PageInfo
    total_count: int


@strawberry.type(description="A page of scenes in time order (cursor pagination).")
class MemSceneConnection:
    edges: list[MemSceneEdge]
    page_info: PageInfo
    total_count: int


@strawberry.type
class ConsolidateResult:
    groups: int = strawberry.field(description="groups re-clustered")
    cells: int
    scenes: int = strawberry.field(description="scenes after consolidation")
    created: int
    merged: int
    split: int
    moved: int = strawberry.field(description="cells that changed scene")
    dropped: int = strawberry.field(description="scenes removed (their members moved)")
    archived: int
    took_ms: float


@strawberry.type
class SearchHit:
    rank: int
    score: float
    kind: HitKind
    mem_cell: Optional[MemCell] = None
    fact: Optional[Fact] = None
    scene: Optional[MemScene] = None
    foresight: Optional[Foresight] = None
    turn: Optional[Turn] = None
    evidence: list[Turn] = strawberry.field(default_factory=list)
    channels: list[ChannelScore] = strawberry.field(default_factory=list)
    revised_by_rank: Optional[int] = strawberry.field(
        default=None, description="the rank of a later hit among the first ten that gives another value of the "
                                  "same thing (a sum, a share, a count, a code, a dose; a day, a time or days of the "
                                  "week told as a change): this hit's value may be out of date")


@strawberry.type
class SearchResult:
    hits: list[SearchHit]
    context: str
    took_ms: float


@strawberry.type
class Relation:
    entity: Entity
    hops: int
    score: float
    path: list[Fact]


@strawberry.type(description="Where a conversation's turns stand: poll it after `memorize` with `wait: false`.")
class ConversationStatus:
    id: strawberry.ID
    group_id: Optional[strawberry.ID]
    turns: int = strawberry.field(description="turns stored, not counting forgotten ones")
    pending: int = strawberry.field(description=(
        "turns not yet memories: being processed, waiting for more context or a flush, or for a retry "
        "after an error; 0 once everything sent with `flush: true` is searchable"))
    failed: int = strawberry.field(description="of those pending, turns whose last attempt failed (retried)")
    last_error: Optional[str] = strawberry.field(description="the error of the latest failed attempt, if any")
    mem_cells: int = strawberry.field(description="episodes made from its turns, not counting forgotten ones")
    last_turn_at: Optional[datetime] = strawberry.field(description="the time of its latest turn")
    processing_until: Optional[datetime] = strawberry.field(description=(
        "while a run holds the conversation (processing its pending turns), until when: renewed while "
        "it works, so a time that stops moving is a run that died (another takes over after it)"))

    @classmethod
    def of(cls, d: dict) -> "ConversationStatus":
        return cls(id=d["id"], group_id=d.get("groupId"), turns=d["turns"], pending=d["pending"],
                   failed=d["failed"], last_error=d.get("lastError"), mem_cells=d["memCells"],
                   last_turn_at=_dt(d.get("lastTurnAt")), processing_until=_dt(d.get("processingUntil")))


@strawberry.type
class MemorizeResult:
    conversation_id: strawberry.ID
    accepted: int = strawberry.field(description="new turns written")
    duplicates: int = strawberry.field(description="messages already stored, skipped")
    mem_cells: int
    facts: int
    entities: int
    foresights: int
    superseded: int
    pending: int = strawberry.field(description="turns waiting for more context, a flush, or a retry")
    foresights_ended: int = strawberry.field(default=0, description=(
        "earlier foresight these turns said no longer holds (\"not vegan any more\", a trip called off)"))
    errors: list[str]
    tokens_used: int
    took_ms: float
    queued: bool = strawberry.field(
        default=False, description="true when `wait: false`: the turns are stored and are being "
        "processed in the background; the counts above are then zero and `pending` counts them")


@strawberry.type
class ForgetResult:
    deleted_nodes: int = strawberry.field(description=(
        "nodes the selection and what was derived from it took; 0 when it matched nothing"))
    cleaned_up: int = strawberry.field(default=0, description=(
        "nodes nothing referred to any more (what an interrupted forget left, an entity no memory names), "
        "cleared by this one when its own selection matched nothing (else counted in deletedNodes)"))


@strawberry.input(description="An alias wrongly merged into an entity, to be made an entity of its own.")
class SplitEntityInput:
    entity: str = strawberry.field(description="the entity's name or one of its aliases")
    surface: str = strawberry.field(description="the alias to split off (one of the entity's aliases)")
    group_id: Optional[strawberry.ID] = strawberry.field(default=None, description=(
        "the group whose entity it is (entities are a group's); without it, as entity(name) finds it"))


@strawberry.input(description="Two entities that are one, to be merged into the one kept.")
class MergeEntitiesInput:
    entity: str = strawberry.field(description="the entity merged away (its name or an alias)")
    into: str = strawberry.field(description="the entity kept (its name or an alias)")
    group_id: Optional[strawberry.ID] = strawberry.field(default=None, description=(
        "the group of both (entities of two groups are never one); without it, as entity(name) finds "
        "each"))


@strawberry.type
class MergeEntitiesResult:
    entity: Entity = strawberry.field(description="the entity kept, the other's names now its aliases")
    facts: int = strawberry.field(description="facts moved to it")
    episodes: int = strawberry.field(description="episodes whose mention moved to it")
    reopened: int = strawberry.field(description="values current again")
    resuperseded: int = strawberry.field(description="values closed anew, now that both entities' values "
                                                     "are one timeline")


@strawberry.type
class SplitEntityResult:
    entity: Entity = strawberry.field(description="the entity the alias became (its facts as of now)")
    split_from: Entity = strawberry.field(description="the entity it was taken from, its merge record added")
    facts: int = strawberry.field(description="facts moved: those whose words name the alias and none of "
                                              "the entity's other names")
    episodes: int = strawberry.field(description="episodes that now mention the new entity")
    reopened: int = strawberry.field(description="values the moved facts had wrongly closed, current again")
    resuperseded: int = strawberry.field(description="values closed anew by another successor or at "
                                                     "another moment")


@strawberry.input
class MessageInput:
    id: strawberry.ID
    speaker: str
    content: str
    timestamp: datetime
    user_id: Optional[strawberry.ID] = strawberry.field(default=None, description=(
        "whose memory this message is (search's and forget's userId); an ASSISTANT, SYSTEM or TOOL "
        "message without one is the user's it answers: the last user who spoke before it in the "
        "conversation"))
    role: Optional[Role] = Role.USER


@strawberry.input
class MemorizeInput:
    conversation_id: strawberry.ID
    messages: list[MessageInput]
    group_id: Optional[strawberry.ID] = None
    flush: Optional[bool] = False
    wait: Optional[bool] = strawberry.field(
        default=True, description="false: answer once the turns are stored, and process them in "
        "the background (a client streaming a conversation keeps the model busy meanwhile)")


@strawberry.input
class SearchInput:
    query: str
    group_id: Optional[strawberry.ID] = None
    user_id: Optional[strawberry.ID] = None
    conversation_id: Optional[strawberry.ID] = None
    method: Optional[SearchMethod] = SearchMethod.HYBRID
    top_k: Optional[int] = 10
    from_: Optional[datetime] = strawberry.field(default=None, name="from")
    to: Optional[datetime] = None
    as_of: Optional[datetime] = None
    include_superseded: Optional[bool] = False
    token_budget: Optional[int] = None
    kinds: Optional[list[MemoryKind]] = None
    hops: Optional[int] = 2


@strawberry.input
class ForgetInput:
    mem_cell_ids: Optional[list[strawberry.ID]] = None
    conversation_id: Optional[strawberry.ID] = None
    group_id: Optional[strawberry.ID] = None
    user_id: Optional[strawberry.ID] = None
    everything: Optional[bool] = False


__all__ = [n for n in dir() if n[0].isupper() and n not in ("Enum", "Info", "Optional")]
