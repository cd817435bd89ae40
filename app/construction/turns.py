"""Turns are written first and durably: whatever happens later, nothing a client sent is lost.

A message id already stored for the conversation is skipped when its content is the same and
refused when it differs, so re-sending a batch (or overlapping batches) creates no duplicates.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
from neo4j.exceptions import ConstraintError
from pydantic import ValidationError

from app.domain.models import ASSISTANT_ROLES, Message, TurnRecord, plain_text
from app.store import term_stats
from app.store.driver import UNREACHABLE, UnreachableMidway
from app.store.graph import TenantGraph, TenantTx


class InputError(ValueError):
    """Bad input; nothing of the batch was written. `field` names the offending message."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


EXISTING = """
MATCH (t:Turn {tenant: $tenant, conversationId: $conversationId}) WHERE t.id IN $ids
RETURN t.id AS id, t.content AS content, t.speaker AS speaker, t.seq AS seq, t.at AS at, t.role AS role,
       t.userId AS userId
"""

CONVERSATION_TAIL = """
MERGE (c:Conversation {tenant: $tenant, id: $conversationId})
  ON CREATE SET c.groupId = $groupId, c.createdAt = datetime(), c.lastSeq = -1
WITH c
// Serialises concurrent writers of one conversation: the NEXT chain and seq stay consistent.
SET c._lock = coalesce(c._lock, 0) + 1
WITH c
// A conversation's first turns also take the tenant's write lock, which an import takes to
// start (into an empty tenant, so any write racing its start is a first one): of the two, the
// later one sees the other and refuses.
CALL (c) {
  WITH c WHERE c.lastSeq = -1
  MERGE (l:WriteLock {tenant: $tenant}) SET l.at = datetime()
}
RETURN c.lastSeq AS lastSeq, c.groupId AS groupId, c.lastUserId AS lastUserId,
       EXISTS { MATCH (r:ImportRun {tenant: $tenant}) } AS importing,
       EXISTS { MATCH (p:TenantPurge {tenant: $tenant}) } AS purging
"""

WRITE_TURNS = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})
UNWIND $turns AS t
CREATE (n:Turn {tenant: $tenant, conversationId: $conversationId, id: t.id})
SET n.groupId = c.groupId, n.speaker = t.speaker,
    n.userId = t.userId, n.role = t.role, n.content = t.content, n.at = t.at, n.seq = t.seq,
    n.status = 'pending', n.attempts = 0, n.receivedAt = datetime(),
    n.terms = t.terms, n.termFreqs = t.termFreqs, n.termCount = t.termCount
CREATE (c)-[:HAS_TURN]->(n)
WITH c, max(t.seq) AS last
SET c.lastSeq = last, c.lastUserId = $lastUserId
"""

LINK_CHAIN = """
UNWIND $pairs AS p
MATCH (a:Turn {tenant: $tenant, conversationId: $conversationId, id: p[0]}),
      (b:Turn {tenant: $tenant, conversationId: $conversationId, id: p[1]})
MERGE (a)-[:NEXT]->(b)
"""

CONVERSATION_GROUP = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})
RETURN c.groupId AS groupId, EXISTS { MATCH (r:ImportRun {tenant: $tenant}) } AS importing,
       EXISTS { MATCH (p:TenantPurge {tenant: $tenant}) } AS purging
"""

LAST_TURN = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})-[:HAS_TURN]->(t:Turn)
WHERE t.seq = c.lastSeq RETURN t.id AS id
"""


def refuse_while_replaced(row: dict) -> None:
    """Refuse a write to a tenant whose memory is being restored or deleted whole (`row`: the
    conversation's, with `importing` and `purging`)."""
    if row["importing"]:
        # A failed import removes the tenant's memory: what this call stored would go too, and a
        # flush would make episodes of the import's turns that its purge then takes.
        raise InputError("this tenant is being restored by `engram import`; nothing was "
                         "stored: send the messages again once it has finished", "messages")
    if row["purging"]:
        # Its turns could outlive their conversation, acknowledged but never processed.
        raise InputError("this tenant's memory is being deleted (forget everything); nothing was "
                         "stored: send the messages again once it has finished (if it was "
                         "interrupted, forget everything again first)", "messages")


def refuse_other_group(conversation_id: str, stored_group: str | None, group_id: str | None) -> None:
    """A conversation's turns share its group (the first call's): a call naming another, or a
    group for a conversation stored without one, would see its group silently ignored."""
    if group_id is None or stored_group == group_id:
        return
    raise InputError(f"conversation {conversation_id!r} belongs to another group"
                     if stored_group is not None else
                     f"conversation {conversation_id!r} was stored without a group; "
                     "its turns cannot join one later", "groupId")


def parse_messages(raw: list[dict | Message], max_bytes: int) -> list[Message]:
    """Validate every message before anything is written; the first problem is reported."""
    out: list[Message] = []
    seen: dict[str, str] = {}
    for i, m in enumerate(raw):
        label = f"messages[{i}]"
        shown = str(m.get("id") or "") if isinstance(m, dict) else m.id if isinstance(m, Message) else ""
        if shown:
            # An id is checked after this label is made, so it can be of any length: a 1 MB id
            # came back twice (message and field). Enough of it to find the message is kept.
            shown = shown if len(shown) <= 64 else shown[:64] + "…"
            label += f" (id {shown!r})"
        try:
            msg = m if isinstance(m, Message) else Message.model_validate(m)
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise InputError(f"{label}: {where}: {err['msg']}", label) from None
        if "\x00" in msg.content:
            raise InputError(f"{label}: content contains a NUL character", label)
        if len(msg.content.encode()) > max_bytes:
            raise InputError(f"{label}: content is over the {max_bytes // 1024} KB limit", label)
        if msg.id in seen and seen[msg.id] != msg.content:
            raise InputError(f"{label}: id repeated in the batch with different content", label)
        if msg.id not in seen:
            seen[msg.id] = msg.content
            out.append(msg)
    return out


@dataclass
class TurnsWritten:
    new: list[str]
    skipped: list[str]
    last_seq: int = -1  # the highest position in the conversation of the call's turns


async def write_turns(graph: TenantGraph, conversation_id: str, group_id: str | None,
                      messages: list[Message], chunk: int) -> TurnsWritten:
    """Write new turns (pending) in chunks of `chunk`; each chunk is one transaction."""
    ids = [m.id for m in messages]
    existing: dict[str, dict] = {}
    for i in range(0, len(ids), 5000):
        for r in await graph.read(EXISTING, conversationId=conversation_id, ids=ids[i:i + 5000]):
            existing[r["id"]] = r
    for m in messages:
        old = existing.get(m.id)
        if old is None:
            continue
        if plain_text(old["content"]) != m.content or plain_text(old["speaker"]) != m.speaker:
            raise InputError(f"message id {m.id!r} was already stored with different content", m.id)
        # Sent again with another time, role or user, it was counted a duplicate and the stored
        # one kept, silently. (An assistant's message sent without a user has the user it answers.)
        if (old["at"].to_native() != m.timestamp or old["role"] != m.role.value
                or (m.user_id is not None and old["userId"] != m.user_id)):
            raise InputError(f"message id {m.id!r} was already stored with a different timestamp, role or "
                             "userId; a stored message is not changed: forget it first, or send a new id", m.id)
    new = [m for m in messages if m.id not in existing]
    if not new and messages:
        # Nothing to write, so no transaction below checks the group or an import: a resend
        # naming another group is refused all the same, and one during an import too (the run
        # it starts would write episodes into the tenant being restored).
        rows = await graph.read(CONVERSATION_GROUP, conversationId=conversation_id)
        if rows:
            refuse_while_replaced(rows[0])
            refuse_other_group(conversation_id, rows[0]["groupId"], group_id)
    last_seq = max((r["seq"] for r in existing.values() if r["seq"] is not None), default=-1)
    for start in range(0, len(new), chunk):
        part = new[start:start + chunk]

        async def work(tx: TenantTx, part=part) -> None:
            head = (await tx.run(CONVERSATION_TAIL, conversationId=conversation_id, groupId=group_id))[0]
            if head["lastSeq"] is None:
                # The conversation was being deleted (a forget emptied it) when MERGE found it,
                # and reads as null once that commits: asked again, MERGE makes it anew.
                head = (await tx.run(CONVERSATION_TAIL, conversationId=conversation_id, groupId=group_id))[0]
            # Checked here, under the conversation's lock: two first calls naming different
            # groups would both pass a check made before writing.
            refuse_other_group(conversation_id, head["groupId"], group_id)
            refuse_while_replaced(head)
            last = head["lastSeq"]
            prev = await tx.run(LAST_TURN, conversationId=conversation_id) if last >= 0 else []
            user = head["lastUserId"]
            rows = []
            for k, m in enumerate(part):
                if m.user_id is not None and m.role.value not in ASSISTANT_ROLES:
                    user = m.user_id
                rows.append(_turn_row(m, last + 1 + k, user))
            await tx.run(WRITE_TURNS, conversationId=conversation_id, turns=rows, lastUserId=user)
            await tx.run(term_stats.ADD, **term_stats.additions("turn", rows))
            seqs.append(rows[-1]["seq"])
            chain = [r["id"] for r in prev] + [r["id"] for r in rows]
            pairs = [[a, b] for a, b in zip(chain, chain[1:])]
            if pairs:
                await tx.run(LINK_CHAIN, conversationId=conversation_id, pairs=pairs)

        seqs: list[int] = []  # a retried transaction appends again: the last one counts
        try:
            await graph.write_tx(work)
        except ConstraintError:
            # Another call stored some of these ids between the check above and this chunk.
            # The chunks before it are stored (and processed by the next call or the periodic
            # retry); sending the call again skips them and stores the rest.
            raise InputError(
                f"some of these messages were stored meanwhile by another call to conversation "
                f"{conversation_id!r} ({start} of {len(new)} new ones stored by this call); send "
                "the call again: messages already stored are skipped", "messages") from None
        except UNREACHABLE:
            if not start:
                raise
            # The chunks before this one are stored: "nothing was done" would be untrue.
            raise UnreachableMidway(
                f"the graph database became unreachable while storing the messages: the first {start} of "
                f"{len(new)} new ones to conversation {conversation_id!r} were stored, the rest not; send the "
                "call again later: messages already stored are skipped") from None
        last_seq = max(last_seq, seqs[-1])
    return TurnsWritten(new=[m.id for m in new], skipped=[m.id for m in messages if m.id in existing],
                        last_seq=last_seq)


def _turn_row(m: Message, seq: int, user: str | None) -> dict:
    """`user`: whose the conversation is at this turn (the last user who said something before
    it, or said it): an assistant's message without a userId is that user's, said to them. So
    a search of one user's memory has the assistant's side of their sessions ("we're on
    simultaneous equations now", said by the tutor), and forgetting a user forgets it (a tutor's
    "I'll note that you're allergic to nuts" had stayed, and been made into memory again)."""
    inherited = user if m.user_id is None and m.role.value in ASSISTANT_ROLES else m.user_id
    row = {"id": m.id, "speaker": m.speaker, "userId": inherited, "role": m.role.value,
           "content": m.content, "at": m.timestamp, "seq": seq}
    return {**row, **term_stats.node_terms("turn", row)}


PENDING = """
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})-[:HAS_TURN]->(t:Turn {status: 'pending'})
WHERE $uptoSeq IS NULL OR t.seq <= $uptoSeq
RETURN t.id AS id, t.speaker AS speaker, t.userId AS userId, t.role AS role, t.content AS content,
       t.at AS at, t.seq AS seq, c.groupId AS groupId, t.embedding AS embedding,
       t.sentenceSpans AS sentenceSpans, t.sentenceVectors AS sentenceVectors
ORDER BY t.seq
"""

SAVE_EMBEDDINGS = """
UNWIND $rows AS r
MATCH (t:Turn {tenant: $tenant, conversationId: $conversationId, id: r.id})
SET t.embedding = r.embedding, t.sentenceSpans = r.sentenceSpans, t.sentenceVectors = r.sentenceVectors
"""


async def pending_turns(graph: TenantGraph, conversation_id: str, upto_seq: int | None = None
                        ) -> tuple[list[TurnRecord], list, list]:
    """Pending turns in order (up to position `upto_seq`), the embedding each already has (None
    when not yet embedded), and its sentences' vectors ([(start, end, vector)], None when not kept)."""
    rows = await graph.read(PENDING, conversationId=conversation_id, uptoSeq=upto_seq)
    turns = [TurnRecord(id=r["id"], conversation_id=conversation_id, speaker=r["speaker"],
                        user_id=r["userId"], role=r["role"], content=r["content"],
                        at=_py_dt(r["at"]), seq=r["seq"], group_id=r["groupId"]) for r in rows]
    return turns, [r["embedding"] for r in rows], [unpack_sentences(r) for r in rows]


def pack_sentences(sentences) -> dict:
    """A turn's sentence vectors as two flat list properties (Neo4j keeps no nested lists)."""
    if not sentences:
        return {"sentenceSpans": None, "sentenceVectors": None}
    return {"sentenceSpans": [x for a, z, _ in sentences for x in (a, z)],
            "sentenceVectors": np.concatenate([v for _, _, v in sentences]).tolist()}


def unpack_sentences(row) -> list | None:
    spans, flat = row.get("sentenceSpans"), row.get("sentenceVectors")
    if not spans or not flat:
        return None
    n = len(spans) // 2
    vecs = np.asarray(flat, dtype=np.float32).reshape(n, -1)
    return [(spans[2 * i], spans[2 * i + 1], vecs[i]) for i in range(n)]


async def save_embeddings(graph: TenantGraph, conversation_id: str, rows: list[dict]) -> None:
    """Keep the vectors of turns left pending (an open episode), so they are embedded once."""
    if rows:
        await graph.write(SAVE_EMBEDDINGS, conversationId=conversation_id, rows=rows)


def _py_dt(v) -> datetime:
    return v.to_native() if hasattr(v, "to_native") else v
