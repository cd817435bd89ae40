"""The ingestion service behind the `memorize` mutation and `engram ingest`.

memorize = validate everything -> write the turns (durable, pending) -> process what is pending.
Processing a conversation is leased in the graph, so two replicas (or two requests) never cut
the same pending turns into cells twice; a turn that was not processed stays pending for the
next call, `engram retry`, or the server's start-up retry.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable
from datetime import datetime, timezone

from app.construction.pipeline import Pipeline, ProcessReport, turn_texts
from app.construction.queue import ProcessingQueue
from app.construction.turns import (
    CONVERSATION_GROUP, InputError, parse_messages, refuse_other_group, refuse_while_replaced,
    write_turns,
)
from app.construction.vectors import TextVectors, settle
from app.domain.models import ID_RULE, Message, names_something
from app.lifecycle.scenes import SceneService
from app.runtime.services import Services
from app.store.admin import FLUSH_UPTO, conversations_with_failed_turns
from app.store.driver import UNREACHABLE, UnreachableMidway, error_text
from app.store.graph import TenantGraph

log = logging.getLogger("engram.ingest")

# How long a run holds its conversation (LEASE), renewed every third of it while the run works:
# a run that died (a server killed) holds it this long at most. It was 10 minutes: after a
# kill -9 and a restart, the conversation took nothing for that long. A run that overstays its
# lease writes nothing twice (the writer claims its turns), it only works for nothing.
RUN_LEASE_S = 90
# Turns stored longer ago than this that no run looked at (a server stopped right after a
# `wait: false` call stored them) are taken up by the periodic retry (retry_failed_everywhere);
# a call's own run embeds them first, which for thousands of turns takes minutes.
UNSEEN_S = 600
# A run that failed because Neo4j was unreachable is tried again after these many seconds (then
# the periodic retry's turn): a `wait: false` call's turns waited for the periodic retry, minutes
# after the database was back.
RECONNECT_RETRIES_S = (2, 5, 10, 20, 40, 60)

LEASE_HELD_UNTIL = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId}) WHERE c.leaseUntil > datetime()
RETURN c.leaseUntil AS until
"""
LEASE = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})
WHERE c.leaseUntil IS NULL OR c.leaseUntil < datetime() OR c.leaseBy = $token
SET c.leaseUntil = datetime() + duration({seconds: $seconds}), c.leaseBy = $token
RETURN c.id AS id
"""
RELEASE = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId}) WHERE c.leaseBy = $token
REMOVE c.leaseUntil, c.leaseBy
"""
# A run stopped before it finished (cancelled at shutdown, or failed) leaves its conversation as
# a dead run's: its lease expired, which the retry looks for at once. Removed, as a finished
# run's is, its turns waited UNSEEN_S for the retry, when this came after the shutdown's
# ABANDONED (seen in CI: a conversation left out of the retry's list).
EXPIRE = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId}) WHERE c.leaseBy = $token
SET c.leaseUntil = datetime() - duration({seconds: 1}) REMOVE c.leaseBy
"""
# Conversations whose turns a forget of another user reopened (app/lifecycle/forget.py LEFT_BEHIND).
REOPENED_CONVERSATIONS = f"""
MATCH (c:Conversation {{tenant: $tenant}})
WHERE EXISTS {{ (c)-[:HAS_TURN]->(:Turn {{status: 'pending', reopened: true}}) }}
RETURN c.id AS id, {FLUSH_UPTO}
"""
PENDING_CONVERSATIONS = f"""
MATCH (c:Conversation {{tenant: $tenant}}) WHERE EXISTS {{ (c)-[:HAS_TURN]->(:Turn {{status: 'pending'}}) }}
RETURN c.id AS id, {FLUSH_UPTO}
"""
# Conversations a shutdown left unfinished: as a dead run's, its lease expired, which the retry
# at start-up looks for (app/store/admin.py). One a live run holds (another replica's) is its.
ABANDONED = """
UNWIND $ids AS id
MATCH (c:Conversation {tenant: $tenant, id: id}) WHERE c.leaseUntil IS NULL OR c.leaseUntil < datetime()
SET c.leaseUntil = datetime() - duration({seconds: 1})
"""
# A flush asked for is remembered, so a retry of a run that failed or died flushes it too.
FLUSH_ASKED = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId}) SET c.flushUpto = c.lastSeq
"""


@dataclass
class MemorizeReport:
    conversation_id: str
    accepted: int
    duplicates: int
    process: ProcessReport
    seconds: float
    turn_ids: list[str] = field(default_factory=list)


class Ingestor:
    def __init__(self, services: Services, pipeline: Pipeline | None = None):
        self.services = services
        self.settings = services.settings
        self.pipeline = pipeline or Pipeline(services.settings, services.require_embedder())
        self.scenes = SceneService(services.settings, services.require_embedder())
        self.queue = ProcessingQueue(self.process, lambda: TextVectors(self.pipeline.embedder))
        self._background: set[asyncio.Task] = set()
        # Runs to try again later, one per conversation: a take-over when another run's lease
        # runs out, a retry after Neo4j was unreachable.
        self._later: dict[tuple[str, str], asyncio.Task] = {}
        self.queue.on_failure = self._after_failure

    def graph(self, tenant: str) -> TenantGraph:
        return TenantGraph(self.services.driver, tenant, self.settings.neo4j_database)

    async def memorize(self, tenant: str, conversation_id: str, messages: list[dict | Message],
                       group_id: str | None = None, flush: bool = False,
                       wait: bool = True) -> MemorizeReport:
        """Validate, write the turns (durable, pending), and have them processed. `wait`: return
        the report of the run that processed them; otherwise return once they are stored (the
        conversation's worker processes them; see app/construction/queue.py)."""
        t0 = time.perf_counter()
        if not names_something(conversation_id):
            raise InputError(f"conversationId must be {ID_RULE}", "conversationId")
        if group_id is not None and not names_something(group_id):
            raise InputError(f"groupId must be {ID_RULE}", "groupId")
        if not messages and not flush:
            raise InputError("messages is empty (send at least one, or flush: true)", "messages")
        if len(messages) > self.settings.max_messages_per_call:
            raise InputError(f"too many messages in one call ({len(messages)}); the limit is "
                             f"{self.settings.max_messages_per_call}", "messages")
        parsed = parse_messages(messages, self.settings.max_message_bytes)
        graph = self.graph(tenant)
        # The model embeds the new turns while Neo4j writes them (it works on its own threads),
        # into the conversation's cache, where the run that processes them will look.
        vectors = self.queue.open(tenant, conversation_id)
        texts, heads = turn_texts([(m.speaker, m.timestamp, m.content) for m in parsed])
        embedding = vectors.start(texts, heads if self.settings.fact_vectors == "sentence" else None,
                                  bulk=True)
        try:
            if not parsed:
                # A flush writes no turns, so write_turns does not look at the conversation.
                rows = await graph.read(CONVERSATION_GROUP, conversationId=conversation_id)
                if not rows:
                    raise InputError(f"nothing to flush: conversation {conversation_id!r} has no turns",
                                     "conversationId")
                refuse_while_replaced(rows[0])
                refuse_other_group(conversation_id, rows[0]["groupId"], group_id)
            written = await write_turns(graph, conversation_id, group_id, parsed, self.settings.ingest_chunk)
            if flush:
                await graph.write(FLUSH_ASKED, conversationId=conversation_id)
        except BaseException:
            await settle(embedding)
            self.queue.close(tenant, conversation_id)
            raise
        processed = self.queue.submit(tenant, conversation_id, flush, written.last_seq, len(parsed),
                                      embedding)
        if wait:
            try:
                report = await processed
            except UNREACHABLE:
                # The turns are stored: UNAVAILABLE's "nothing was done" would be untrue.
                raise UnreachableMidway(
                    f"the messages were stored ({len(written.new)} new), but the graph database became "
                    "unreachable while they were being made into memories: they are once it is back (or "
                    "send the call again: messages already stored are skipped)") from None
        else:
            report = ProcessReport(pending=len(written.new), queued=True)
        return MemorizeReport(conversation_id, len(written.new), len(written.skipped), report,
                              time.perf_counter() - t0, [m.id for m in parsed])

    async def drain(self) -> None:
        """Wait for the background processing of every call handed over (shutdown, benchmarks)."""
        await self.queue.drain()
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        # Only a quicker take-over than the periodic retry's: not waited for.
        for task in list(self._later.values()):
            task.cancel()
        self._later.clear()

    async def shut_down(self, within_s: float) -> None:
        """Shutdown: process what was handed over for up to `within_s`, then stop. The runs cut
        short leave their turns pending, and their conversations as a dead run's (an expired
        lease), so the next start's retry takes them up at once (turns only stored would wait
        for it until UNSEEN_S old). A long backlog took 50 s to drain, in silence: past an
        orchestrator's grace period the server was killed mid-run."""
        busy = self.queue.conversations()
        if busy:
            log.warning("finishing the calls of %d conversations before stopping (up to %.0f s)", len(busy),
                        within_s)
        draining = asyncio.ensure_future(self.drain())
        done, _ = await asyncio.wait({draining}, timeout=within_s)
        if done:
            return
        left = self.queue.conversations()
        # Cancelling the drain cancels the workers it waits for; their runs release their leases.
        draining.cancel()
        for task in [*self._background, *self._later.values()]:
            task.cancel()
        await asyncio.gather(draining, *self._background, return_exceptions=True)
        # ... and for the workers themselves, whose runs release their leases as they stop: marked
        # abandoned before that, a run's lease was then removed, and its turns waited UNSEEN_S
        # for the retry (seen in CI as a conversation left out of the retry's list).
        workers = self.queue.tasks()
        for task in workers:
            task.cancel()
        if workers:
            await asyncio.wait(workers, timeout=10)
        for tenant in {t for t, _ in left}:
            try:
                await self.graph(tenant).write(ABANDONED, ids=[c for t, c in left if t == tenant])
            except Exception as e:  # noqa: BLE001 - their turns still wait for the periodic retry
                log.warning("could not mark tenant %s's unfinished conversations: %s", tenant, error_text(e))
        log.warning("stopped with the calls of %d conversations unprocessed: their turns are stored, and "
                    "taken up at the next start", len(left))

    def remake_reopened(self, tenant: str) -> None:
        """In the background, now: the episodes of the turns a forget of a user reopened (the
        others' turns of the episodes it deleted). Left to the periodic retry, the other users'
        facts and foresight were gone from every answer for up to its interval (5 minutes)."""
        async def run() -> None:
            for r in await self.graph(tenant).read(REOPENED_CONVERSATIONS):
                try:
                    await self.process(tenant, r["id"], flush=r["flushUpto"] is not None, upto_seq=r["flushUpto"])
                except Exception as e:  # noqa: BLE001 - the periodic retry takes it up again
                    log.warning("remaking %s/%s after a forget failed: %s", tenant, r["id"], e)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def process(self, tenant: str, conversation_id: str, flush: bool,
                      vectors: TextVectors | None = None, upto_seq: int | None = None,
                      place_scenes: bool = True) -> ProcessReport:
        graph = self.graph(tenant)
        token = uuid.uuid4().hex
        if not await graph.write(LEASE, conversationId=conversation_id, token=token, seconds=RUN_LEASE_S):
            await self._when_free(graph, conversation_id, flush, upto_seq)
            return ProcessReport(errors=["conversation is being processed elsewhere (`processingUntil` says "
                                         "until when); turns stay pending and are taken up once it is free"])
        holding = asyncio.create_task(self._renew(graph, conversation_id, token))
        finished = False
        try:
            report = await self.pipeline.process(graph, conversation_id, flush, vectors, upto_seq)
            if place_scenes:
                await self._place_in_scenes(graph, conversation_id, report)
            finished = True
            return report
        finally:
            holding.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await holding
            await graph.write(RELEASE if finished else EXPIRE, conversationId=conversation_id, token=token)

    async def _when_free(self, graph: TenantGraph, conversation_id: str, flush: bool,
                         upto_seq: int | None) -> None:
        """The conversation is another run's: try again when its lease runs out. A run alive
        renews it (this then tries again later, or finds the turns done); one that died (a
        server killed mid-run) is taken over then, not at the next periodic retry."""
        key = (graph.tenant, conversation_id)
        if key in self._later:
            return
        rows = await graph.read(LEASE_HELD_UNTIL, conversationId=conversation_id)
        wait = (rows[0]["until"].to_native() - datetime.now(timezone.utc)).total_seconds() + 1 if rows else 1
        self._run_later(key, max(wait, 1), flush, upto_seq, "taking over")

    def _after_failure(self, tenant: str, conversation_id: str, flush: bool, upto_seq: int | None,
                       error: Exception, attempt: int = 0) -> None:
        """A run failed: when Neo4j was unreachable, try again soon, until it is back, rather than
        at the periodic retry (its turns are pending and lose nothing meanwhile). The failed run
        could not release its lease: a retry that finds it held takes over when it runs out."""
        key = (tenant, conversation_id)
        if not isinstance(error, UNREACHABLE) or key in self._later or attempt >= len(RECONNECT_RETRIES_S):
            return
        self._run_later(key, RECONNECT_RETRIES_S[attempt], flush, upto_seq, "retrying after Neo4j was unreachable",
                        lambda e: self._after_failure(tenant, conversation_id, flush, upto_seq, e, attempt + 1))

    def _run_later(self, key: tuple[str, str], delay: float, flush: bool, upto_seq: int | None, why: str,
                   on_error: Callable[[Exception], None] | None = None) -> None:
        """Process the conversation `key` after `delay` seconds, in the background (one such run
        per conversation: `_later`); a failure is logged and handed to `on_error`, else left to
        the periodic retry."""
        tenant, conversation_id = key

        async def run() -> None:
            await asyncio.sleep(delay)
            del self._later[key]
            try:
                await self.process(tenant, conversation_id, flush, upto_seq=upto_seq)
            except Exception as e:  # noqa: BLE001 - the periodic retry takes it up
                log.warning("%s %s/%s failed: %s", why, tenant, conversation_id, error_text(e))
                if on_error is not None:
                    on_error(e)

        self._later[key] = asyncio.create_task(run())

    async def _renew(self, graph: TenantGraph, conversation_id: str, token: str) -> None:
        """Keep the run's lease while it works: an extraction by an LLM of a long backlog can
        outlast one lease, and another run would then extract the same turns for nothing (the
        claim keeps it from writing them twice, not from the work)."""
        while True:
            await asyncio.sleep(RUN_LEASE_S / 3)
            try:
                if not await graph.write(LEASE, conversationId=conversation_id, token=token,
                                         seconds=RUN_LEASE_S):
                    log.warning("lease on %s lost to another run", conversation_id)
                    return
            except Exception as e:  # noqa: BLE001 - the next renewal tries again; the claim guards writes
                log.warning("renewing the lease on %s failed: %s", conversation_id, e)

    async def _place_in_scenes(self, graph: TenantGraph, conversation_id: str,
                               report: ProcessReport) -> None:
        """New cells join scenes (the last step of construction). A failure here loses nothing:
        the cells are stored, and the next ingestion or a consolidation places them."""
        t0 = time.perf_counter()
        try:
            await self.scenes.assign_new(graph, conversation_id)
        except Exception as e:  # noqa: BLE001 - the memory is written; scenes catch up later
            log.warning("scene assignment for %s failed: %s", conversation_id, e)
            report.errors.append(f"scene assignment postponed: {e}")
        report.add_time("scenes", time.perf_counter() - t0)

    async def retry_failed_everywhere(self) -> int:
        """At start-up and periodically: process again every conversation whose extraction failed,
        whose stored turns no run ever looked at, or whose run died (app/store/admin.py), in any
        tenant. Open cells stay open unless a call asked to flush them (they are waiting for
        more turns, not broken) or the conversation has had no new turn for
        `Settings.idle_flush_s`: its session is over."""
        done = 0
        for tenant, conversation_id, flush_upto in await conversations_with_failed_turns(
                self.services.driver, UNSEEN_S, self.settings.neo4j_database,
                idle_for_s=self.settings.idle_flush_s):
            try:
                await self.process(tenant, conversation_id, flush=flush_upto is not None, upto_seq=flush_upto)
            except Exception as e:  # noqa: BLE001 - one conversation's failure must not stop the others'
                log.warning("retry of %s/%s failed: %s", tenant, conversation_id, e)
                continue
            done += 1
        return done

    async def retry(self, tenant: str, flush: bool = False) -> dict[str, ProcessReport]:
        """Process every conversation of the tenant that has pending turns; `flush`: every
        open episode too, else (as the periodic retry) up to the last turn a call asked to flush."""
        rows = await self.graph(tenant).read(PENDING_CONVERSATIONS)
        return {r["id"]: await self.process(tenant, r["id"], flush or r["flushUpto"] is not None,
                                            upto_seq=None if flush else r["flushUpto"])
                for r in rows}
