"""One worker per conversation turns its pending turns into memories, in the background.

memorize writes the turns durably, starts embedding them, and hands the conversation to its
worker. The worker processes everything pending, again and again while calls keep arriving, so:

  - a client that sends a conversation session by session (`wait: false`) keeps the model busy
    on the next session while Neo4j takes the previous one: on two cores the graph work runs
    beside the embedding instead of after it;
  - calls that arrive while a run is going on are processed together by the next run (one read,
    one scene placement for all of them);
  - a call that waits (the default) gets the report of the run that processed its turns.

Nothing is lost when the process dies: the turns are already stored as pending, and the
start-up retry (or `engram retry`) processes them. The worker's vectors live only as long as
the conversation is busy.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from app.construction.pipeline import ProcessReport
from app.construction.vectors import TextVectors

log = logging.getLogger("engram.ingest")

# (tenant, conversation, flush, vectors, up to turn position, place new cells in scenes)
Process = Callable[[str, str, bool, TextVectors, int | None, bool], Awaitable[ProcessReport]]

# A run waits for this many turns when more calls are queued: each run has a fixed cost (the
# pending read, the scene placement) that small runs would pay over and over.
MIN_TURNS = 64


@dataclass
class _Call:
    n: int
    flush: bool
    last_seq: int
    turns: int
    embedded: asyncio.Future  # its turns' vectors


@dataclass
class _Conversation:
    vectors: TextVectors
    writing: int = 0  # calls still writing their turns (the entry must outlive them)
    submitted: int = 0  # calls handed over so far
    done: int = 0  # calls whose turns a finished run has processed
    calls: list[_Call] = field(default_factory=list)  # handed over, not yet processed
    task: asyncio.Task | None = None
    waiters: list[tuple[int, asyncio.Future]] = field(default_factory=list)


class ProcessingQueue:
    def __init__(self, process: Process, make_vectors: Callable[[], TextVectors]):
        self._process = process
        self._make_vectors = make_vectors
        self._busy: dict[tuple[str, str], _Conversation] = {}
        self.on_report: Callable[[ProcessReport], None] | None = None  # every run's report
        # A run that failed: (tenant, conversation, flush, up to turn position, its error).
        self.on_failure: Callable[[str, str, bool, int | None, Exception], None] | None = None

    def open(self, tenant: str, conversation_id: str) -> TextVectors:
        """A call begins: where it embeds its turns, so the run that processes them finds their
        vectors. Every open() is followed by submit() or close()."""
        c = self._entry(tenant, conversation_id)
        c.writing += 1
        return c.vectors

    def close(self, tenant: str, conversation_id: str) -> None:
        """A call ends without handing anything over (its input was refused)."""
        c = self._busy.get((tenant, conversation_id))
        if c is not None:
            c.writing -= 1
            self._forget_if_idle((tenant, conversation_id), c)

    def submit(self, tenant: str, conversation_id: str, flush: bool, last_seq: int, turns: int,
               embedded: asyncio.Future) -> asyncio.Future:
        """Hand over a call whose turns are written (up to position `last_seq`) and are being
        embedded (`embedded`); the future gets the report of the run that processed them (or
        its error)."""
        key = (tenant, conversation_id)
        c = self._entry(tenant, conversation_id)
        c.writing = max(0, c.writing - 1)
        c.submitted += 1
        c.calls.append(_Call(c.submitted, flush, last_seq, turns, embedded))
        done = asyncio.get_running_loop().create_future()
        c.waiters.append((c.submitted, done))
        if c.task is None or c.task.done():
            c.task = asyncio.create_task(self._work(key, c))
        return done

    async def drain(self) -> None:
        """Wait until every conversation handed over is processed (shutdown, benchmarks)."""
        while self._busy:
            tasks = [c.task for c in self._busy.values() if c.task is not None]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    def tasks(self) -> list[asyncio.Task]:
        """The conversations' workers still running (a shutdown waits for the cancelled ones)."""
        return [c.task for c in self._busy.values() if c.task is not None and not c.task.done()]

    def conversations(self) -> list[tuple[str, str]]:
        """The (tenant, conversation) pairs with calls handed over and not yet processed."""
        return [key for key, c in self._busy.items() if c.done < c.submitted]

    @property
    def depth(self) -> int:
        """Calls handed over and not yet processed (a gauge for /metrics)."""
        return sum(c.submitted - c.done for c in self._busy.values())

    def _entry(self, tenant: str, conversation_id: str) -> _Conversation:
        key = (tenant, conversation_id)
        if key not in self._busy:
            self._busy[key] = _Conversation(self._make_vectors())
        return self._busy[key]

    async def _work(self, key: tuple[str, str], c: _Conversation) -> None:
        tenant, conversation_id = key
        try:
            while c.calls:
                # A run takes the oldest call and the ones after it whose turns are embedded
                # already, and at least MIN_TURNS turns when there are: a worker that is behind
                # takes many calls at once, one that is ahead does not wait for the model to
                # finish every turn that arrived later.
                take, turns = 1, c.calls[0].turns
                while take < len(c.calls) and (c.calls[take].embedded.done() or turns < MIN_TURNS):
                    turns += c.calls[take].turns
                    take += 1
                chosen, c.calls = c.calls[:take], c.calls[take:]
                upto = chosen[-1].n
                flush = any(x.flush for x in chosen)
                upto_seq = max(x.last_seq for x in chosen)
                try:
                    # Scenes are placed when no call is left waiting: a later run places the
                    # cells of this one (placement re-reads every unplaced cell).
                    report = await self._process(tenant, conversation_id, flush, c.vectors,
                                                 None if upto_seq < 0 else upto_seq, not c.calls)
                    outcome: ProcessReport | BaseException = report
                    if self.on_report is not None:
                        self.on_report(report)
                except Exception as e:  # noqa: BLE001 - handed to the waiting callers
                    log.warning("processing %s/%s failed; its turns stay pending: %s",
                                tenant, conversation_id, e)
                    outcome = e
                    if self.on_failure is not None:
                        self.on_failure(tenant, conversation_id, flush, None if upto_seq < 0 else upto_seq, e)
                c.done = upto
                keep = []
                for n, fut in c.waiters:
                    if n > upto:
                        keep.append((n, fut))
                    elif not fut.done():
                        if isinstance(outcome, BaseException):
                            fut.set_exception(outcome)
                            fut.exception()  # a caller that did not wait has it logged above
                        else:
                            fut.set_result(outcome)
                c.waiters = keep
        finally:
            # Cancelled (shutdown): the turns stay pending in the graph for the start-up retry.
            for _, fut in c.waiters:
                fut.cancel()
            c.waiters, c.calls = [], []
            c.done = c.submitted
            self._forget_if_idle(key, c)

    def _forget_if_idle(self, key: tuple[str, str], c: _Conversation) -> None:
        if c.writing <= 0 and c.done >= c.submitted and (c.task is None or c.task.done()
                                                         or c.task is asyncio.current_task()):
            if self._busy.get(key) is c:
                del self._busy[key]
