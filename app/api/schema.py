"""The GraphQL schema. Resolvers translate between GraphQL and the service layer, nothing more."""
from __future__ import annotations

import time
from contextlib import contextmanager
from datetime import datetime
from typing import Optional

import strawberry
from graphql import GraphQLError
from strawberry.extensions import ParserCache
from strawberry.types import Info

from app.api.datetime_scalar import DateTime
from app.api.errors import INTERNAL, NOT_FOUND, ApiError, QuietSchema, StableErrorCodes, bad_input
from app.api.limits import query_limits
from app.api.types import (
    ChannelScore, ConsolidateResult, ConversationStatus, Entity, Fact, ForgetInput, ForgetResult, Foresight, ForesightConnection,
    ForesightEdge, HitKind, MemCell, MemorizeInput, MemorizeResult, MemScene, MemSceneConnection, MemSceneEdge,
    MergeEntitiesInput, MergeEntitiesResult, PageInfo, Relation, SearchHit, SearchInput, SearchResult,
    SplitEntityInput, SplitEntityResult, Turn, page_size,
)
from app.api.unicode_input import RefuseUnencodableText
from app.construction.entity_edits import EntityEditError
from app.construction.entity_merge import merge_entities
from app.construction.entity_split import split_entity
from app.construction.status import conversation_status
from app.construction.turns import InputError
from app.domain.models import ID_RULE, names_something
from app.lifecycle.forget import ForgetSelection, SelectionError, forget_counted
from app.recollection.foresight_lookup import (FORESIGHT_KINDS, active_foresights, entities_foresights,
                                               foresight_page)
from app.recollection.lookup import entities_by_id, entity_by_name, memcell_by_id
from app.recollection.cursors import CursorError
from app.recollection.scene_lookup import scenes_page
from app.recollection.request import KINDS, Method, SearchInputError, SearchRequest, moment
from app.recollection.search import SearchTimeout


def _hit(h, at: datetime) -> SearchHit:
    kind = HitKind(h.kind)
    evidence = [Turn.of(t) for t in h.evidence]
    hit = SearchHit(rank=h.rank, score=h.score, kind=kind, evidence=evidence,
                    channels=[ChannelScore(channel=c.channel, rank=c.rank, ranked=HitKind(c.ranked),
                                           folded=c.folded, score=c.score, contribution=c.contribution,
                                           note=c.note)
                              for c in h.channels],
                    revised_by_rank=h.revised_by.rank if h.revised_by is not None else None)
    if kind is HitKind.FACT:
        hit.fact = Fact.of(h.node, at=at)
    elif kind is HitKind.MEMCELL:
        hit.mem_cell = MemCell.of(h.node)
    elif kind is HitKind.FORESIGHT:
        hit.foresight = Foresight.of(h.node, h.evidence, at=at)
    elif kind is HitKind.TURN:
        hit.turn = Turn.of(h.node)
    elif kind is HitKind.SCENE:
        hit.scene = MemScene.of(h.node)
    return hit


class CachedParse(ParserCache):
    """strawberry's ParserCache parses in its hook, outside the try that turns a syntax error
    (or the token limit's refusal) into a GraphQL error: raised there, the error skipped
    StableErrorCodes and left without a code. A text that does not parse is left to strawberry's
    own parse, inside that try (a second parse of a bad text, stopped by the token limit too)."""

    def on_parse(self):
        ec = self.execution_context
        try:
            ec.graphql_document = self.cached_parse_document(ec.query, **ec.parse_options)
        except GraphQLError:
            ec.graphql_document = None
        yield


@strawberry.type
class Query:
    @strawberry.field(description="Memories that matter for a query, with the turns that prove them.")
    async def search(self, info: Info, input: SearchInput) -> SearchResult:
        ctx = info.context
        req = SearchRequest(
            query=input.query, method=Method(input.method.value if input.method else "HYBRID"),
            top_k=input.top_k if input.top_k is not None else 10, group_id=input.group_id,
            user_id=input.user_id, conversation_id=input.conversation_id, time_from=input.from_,
            time_to=input.to, as_of=input.as_of, include_superseded=bool(input.include_superseded),
            token_budget=input.token_budget,
            kinds=tuple(k.value for k in input.kinds) if input.kinds is not None else KINDS,
            hops=input.hops if input.hops is not None else 2,
        )
        try:
            res = await ctx.state.searcher.search(ctx.tenant, req)
        except SearchInputError as e:
            raise bad_input(str(e), e.field) from None
        except SearchTimeout as e:
            raise ApiError(str(e), INTERNAL) from None
        return SearchResult(hits=[_hit(h, req.at) for h in res.hits], context=res.context, took_ms=res.took_ms)

    @strawberry.field(description="Entities reachable from `entity` within `hops`, with the facts on the way; "
                                  "with `groupId`, that group's entity, over the relations said in that group; "
                                  "with `userId`, over the relations of facts that user's turns prove.")
    async def related_to(self, info: Info, entity: str, hops: Optional[int] = 2,
                         as_of: Optional[datetime] = None, limit: Optional[int] = 25,
                         group_id: Optional[strawberry.ID] = None,
                         user_id: Optional[strawberry.ID] = None) -> list[Relation]:
        ctx = info.context
        hops = 2 if hops is None else hops
        limit = 25 if limit is None else limit
        try:
            at = moment(as_of)
            rels = await ctx.state.related.related_to(ctx.graph, entity, hops, at, limit,
                                                      None if group_id is None else str(group_id),
                                                      None if user_id is None else str(user_id))
        except SearchInputError as e:
            raise bad_input(str(e), e.field) from None
        return [Relation(entity=Entity.of(r.entity, at=at), hops=r.hops, score=r.score,
                         path=[Fact.of(f, at=at) for f in r.path]) for r in rels]

    @strawberry.field(description="An entity by name or alias, with its facts true now (or as of "
                                  "`asOf`); with `groupId`, that group's entity; with `userId`, the facts and "
                                  "foresight that user's turns say.")
    async def entity(self, info: Info, name: str, as_of: Optional[datetime] = None,
                     group_id: Optional[strawberry.ID] = None,
                     user_id: Optional[strawberry.ID] = None) -> Optional[Entity]:
        if not names_something(name):
            raise bad_input(f"name must be {ID_RULE}", "name")
        _check_group(group_id)
        _check_user(user_id)
        try:
            at = moment(as_of)
        except SearchInputError as e:
            raise bad_input(str(e), e.field) from None
        group = None if group_id is None else str(group_id)
        user = None if user_id is None else str(user_id)
        found = await entity_by_name(info.context.graph, name, at, group_id=group, user_id=user)
        if not found:
            return None
        # In a group or of a user, its foresight said there too (without either, read when asked for).
        plans = (await entities_foresights(info.context.graph, [found["id"]], at, group_id=group,
                                           user_id=user))[0] if group or user else None
        return Entity.of(found, at=at, facts=found["facts"], foresights=plans, user_id=user)

    @strawberry.field(name="memCell", description="One episode with all its turns and facts.")
    async def mem_cell(self, info: Info, id: strawberry.ID) -> Optional[MemCell]:
        if not names_something(id):
            raise bad_input(f"id must be {ID_RULE}", "id")
        row = await memcell_by_id(info.context.graph, str(id))
        return MemCell.of(row["cell"], row["turns"], row["facts"]) if row else None

    @strawberry.field(description="Where a conversation's turns stand (null when this tenant has no such "
                                  "conversation): poll `pending` after `memorize` with `wait: false`.")
    async def conversation(self, info: Info, id: strawberry.ID) -> Optional[ConversationStatus]:
        if not names_something(id):
            raise bad_input(f"id must be {ID_RULE}", "id")
        row = await conversation_status(info.context.graph, str(id))
        return ConversationStatus.of(row) if row else None

    @strawberry.field(description="The tenant's scenes in time order, a page at a time.")
    async def scenes(self, info: Info, group_id: Optional[strawberry.ID] = None,
                     first: Optional[int] = 20, after: Optional[str] = None,
                     status: Optional[str] = None) -> MemSceneConnection:
        first = page_size(first, default=20)
        if status is not None and status not in ("active", "archived"):
            raise bad_input("status must be active or archived", "status")
        _check_group(group_id)
        try:
            rows, more, total = await scenes_page(info.context.graph, group_id, status, first, after)
        except CursorError as e:
            raise bad_input(str(e), "after") from None
        edges = [MemSceneEdge(cursor=r["cursor"], node=MemScene.of(r)) for r in rows]
        return MemSceneConnection(edges=edges, total_count=total, page_info=PageInfo(
            has_next_page=more, end_cursor=edges[-1].cursor if edges else None))

    @strawberry.field(description="Foresight active at a moment (default now), the soonest to end first: "
                                  "the first 200 (foresightPage pages through all); with `userId`, those that "
                                  "user's turns said.")
    async def foresights(self, info: Info, active_at: Optional[datetime] = None,
                         group_id: Optional[strawberry.ID] = None,
                         user_id: Optional[strawberry.ID] = None) -> list[Foresight]:
        at = _active_at(active_at, group_id)
        _check_user(user_id)
        rows = await active_foresights(info.context.graph, at, group_id, user_id=user_id)
        return [Foresight.of(r["foresight"], r["evidence"], at=at) for r in rows]

    @strawberry.field(name="foresightPage",
                      description="Foresight active at a moment (default now), the soonest to end first, a page "
                                  "at a time; kind: constraint, plan or deadline.")
    async def foresight_page(self, info: Info, active_at: Optional[datetime] = None,
                             group_id: Optional[strawberry.ID] = None, kind: Optional[str] = None,
                             first: Optional[int] = 20, after: Optional[str] = None,
                             user_id: Optional[strawberry.ID] = None) -> ForesightConnection:
        at = _active_at(active_at, group_id)
        _check_user(user_id)
        first = page_size(first, default=20)
        if kind is not None and kind not in FORESIGHT_KINDS:
            raise bad_input(f"kind must be one of {', '.join(FORESIGHT_KINDS)}", "kind")
        try:
            rows, more, total = await foresight_page(info.context.graph, at, group_id, kind, first, after,
                                                     user_id=user_id)
        except CursorError as e:
            raise bad_input(str(e), "after") from None
        edges = [ForesightEdge(cursor=r["cursor"], node=Foresight.of(r["foresight"], r["evidence"], at=at))
                 for r in rows]
        return ForesightConnection(edges=edges, total_count=total, page_info=PageInfo(
            has_next_page=more, end_cursor=edges[-1].cursor if edges else None))


def _check_group(group_id: Optional[strawberry.ID]) -> None:
    """A group named is 1-256 characters, as memorize's (an empty one names no group)."""
    if group_id is not None and not names_something(group_id):
        raise bad_input(f"groupId must be {ID_RULE}", "groupId")


def _check_user(user_id: Optional[strawberry.ID]) -> None:
    if user_id is not None and not names_something(user_id):
        raise bad_input(f"userId must be {ID_RULE}", "userId")


def _active_at(active_at: Optional[datetime], group_id: Optional[strawberry.ID]) -> datetime:
    _check_group(group_id)
    try:
        return moment(active_at, "activeAt")
    except SearchInputError as e:
        raise bad_input(str(e), e.field) from None


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Store messages; they become turns, episodes, facts, entities and foresight.")
    async def memorize(self, info: Info, input: MemorizeInput) -> MemorizeResult:
        ctx = info.context
        msgs = [{"id": m.id, "speaker": m.speaker, "content": m.content, "timestamp": m.timestamp,
                 "user_id": m.user_id, "role": (m.role.value if m.role else "user")}
                for m in input.messages]
        try:
            rep = await ctx.state.ingestor.memorize(ctx.tenant, str(input.conversation_id), msgs,
                                                    group_id=input.group_id, flush=bool(input.flush),
                                                    wait=input.wait is not False)
        except InputError as e:
            raise bad_input(str(e), e.field) from None
        p = rep.process
        return MemorizeResult(
            conversation_id=rep.conversation_id, accepted=rep.accepted, duplicates=rep.duplicates,
            mem_cells=p.cells, facts=p.facts, entities=p.entities, foresights=p.foresights,
            superseded=p.superseded, pending=p.pending, errors=p.errors, tokens_used=p.tokens_used,
            took_ms=rep.seconds * 1000, queued=p.queued, foresights_ended=p.foresights_ended)

    @strawberry.mutation(description="Delete memories and everything derived from them.")
    async def forget(self, info: Info, input: ForgetInput) -> ForgetResult:
        sel = ForgetSelection(cell_ids=[str(i) for i in input.mem_cell_ids] if input.mem_cell_ids else None,
                              conversation_id=input.conversation_id, group_id=input.group_id,
                              user_id=input.user_id, everything=bool(input.everything))
        try:
            n, leftovers = await forget_counted(info.context.graph, sel)
        except SelectionError as e:
            raise bad_input(str(e)) from None
        if sel.user_id is not None and n:
            # The others' turns of the episodes it deleted wait to be made into episodes again.
            info.context.state.ingestor.remake_reopened(info.context.graph.tenant)
        return ForgetResult(deleted_nodes=n, cleaned_up=leftovers)

    @strawberry.mutation(name="splitEntity", description=(
        "Undo a wrong merge: make one of an entity's aliases an entity of its own, with the facts "
        "that name it; values they had wrongly closed are current again."))
    async def split_entity(self, info: Info, input: SplitEntityInput) -> SplitEntityResult:
        ctx = info.context
        with _entity_edit():
            _check_group(input.group_id)
            rep = await split_entity(ctx.graph, ctx.services.require_embedder(), input.entity, input.surface,
                                     group_id=None if input.group_id is None else str(input.group_id))
        new, old = await _entities_now(ctx.graph, [rep.entity_id, rep.from_id])
        return SplitEntityResult(entity=new, split_from=old, facts=rep.facts, episodes=rep.episodes,
                                 reopened=rep.reopened, resuperseded=rep.resuperseded)

    @strawberry.mutation(name="mergeEntities", description=(
        "Merge two entities that are one: everything about `entity` moves to `into`, whose "
        "aliases its names become (splitEntity undoes it)."))
    async def merge_entities(self, info: Info, input: MergeEntitiesInput) -> MergeEntitiesResult:
        ctx = info.context
        with _entity_edit():
            _check_group(input.group_id)
            rep = await merge_entities(ctx.graph, input.entity, input.into,
                                       group_id=None if input.group_id is None else str(input.group_id))
        [kept] = await _entities_now(ctx.graph, [rep.entity_id])
        return MergeEntitiesResult(entity=kept, facts=rep.facts, episodes=rep.episodes, reopened=rep.reopened,
                                   resuperseded=rep.resuperseded)

    @strawberry.mutation(description="Re-cluster episodes into scenes (one group, or all when groupId is omitted).")
    async def consolidate(self, info: Info, group_id: Optional[strawberry.ID] = None) -> ConsolidateResult:
        _check_group(group_id)
        ctx = info.context
        t0 = time.perf_counter()
        rep = await ctx.state.ingestor.scenes.consolidate(ctx.graph, None if group_id is None else str(group_id))
        return ConsolidateResult(groups=rep.groups, cells=rep.cells, scenes=rep.scenes, created=rep.created,
                                 merged=rep.merged, split=rep.split, moved=rep.moved, dropped=rep.dropped,
                                 archived=rep.archived, took_ms=(time.perf_counter() - t0) * 1000)


async def _entities_now(graph, ids: list[str]) -> list[Entity]:
    """The entities an edit wrote, with their facts as they are now, read after it committed."""
    at = moment(None)
    return [Entity.of(d, at=at, facts=d["facts"]) for d in await entities_by_id(graph, ids, at)]


@contextmanager
def _entity_edit():
    """An entity edit's refusal as the API's error: an entity not found is NOT_FOUND."""
    try:
        yield
    except EntityEditError as e:
        if e.missing:
            raise ApiError(str(e), NOT_FOUND, e.field) from None
        raise bad_input(str(e), e.field) from None


# Root fields that each cost many Neo4j queries or a write; an operation may hold this many.
EXPENSIVE_FIELDS = frozenset({"search", "scenes", "relatedTo", "consolidate", "forget", "memorize",
                              "splitEntity", "mergeEntities"})
MAX_EXPENSIVE = 4


def build_schema(max_depth: int = 8, max_aliases: int = 15, max_tokens: int = 2000,
                 max_expensive: int = MAX_EXPENSIVE, extra_extensions: tuple = ()) -> strawberry.Schema:
    return QuietSchema(
        query=Query, mutation=Mutation, scalar_overrides={datetime: DateTime},
        extensions=[
            query_limits(max_depth, max_aliases, max_tokens, EXPENSIVE_FIELDS, max_expensive),
            # Clients send the same few documents: each text is parsed once (bounded LRU; the
            # token limit is part of the key, and a text that fails to parse is not kept).
            lambda: CachedParse(maxsize=256),
            RefuseUnencodableText,
            *extra_extensions,
            StableErrorCodes,
        ],
    )


schema = build_schema()
