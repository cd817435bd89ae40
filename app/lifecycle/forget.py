"""Deletion that leaves nothing behind: nodes, edges and therefore every index entry.

What a selection removes:
  cells         the MemCells, their facts and foresight, the turns they were made of;
  conversation  its turns and everything derived from them, and the conversation itself;
  group         every conversation of the group, as above;
  user          that user's turns and everything derived from them (the other speakers'
                turns of those episodes are made into episodes again without them);
  everything    the whole tenant.
Entities no longer referenced by any fact or cell go too, and RELATED edges carrying a deleted
fact's id; a value a deleted fact had closed is current again unless a later value ends it, and
foresight a deleted turn had ended holds again. Deletes run in bounded batches (CALL ... IN
TRANSACTIONS), so a large tenant never needs one huge transaction; an interrupted delete is
completed by running it again (the unreferenced entities, empty conversations and stale scenes
are looked for on every call).
"""
from __future__ import annotations

from dataclasses import dataclass

from app.construction.timelines import replan_timelines
from app.domain.models import ID_RULE, names_something
from app.store import term_stats
from app.store.graph import TenantGraph, TenantTx
from app.store.locking import TENANT_WRITE_LOCK, still_there

# TenantPurge last: it marks a purge under way until everything else is gone.
LABELS = ("Foresight", "Fact", "MemCell", "MemScene", "SceneCentre", "Entity", "Turn", "Conversation",
          "WriteLock", "ImportRun", "TermStat", "CorpusStat", "TenantPurge")
# Not counted as memory deleted.
NO_MEMORY = frozenset(term_stats.PURGE) | {"WriteLock", "ImportRun", "TenantPurge"}

# A purge deletes label by label, in many transactions: a turn written between its Turn and
# Conversation steps would stay, acknowledged, in no conversation, never processed, and a run
# writing an episode between its MemCell and Turn steps would leave it. So it first marks the
# tenant, under the tenant's write lock and each conversation's lock, the locks every write of
# turns or episodes takes before it reads the mark: a write already holding one finishes first
# (and is purged), any later one sees the mark and writes nothing.
PURGE_START = """
MERGE (p:TenantPurge {tenant: $tenant}) SET p.startedAt = datetime()
MERGE (l:WriteLock {tenant: $tenant}) SET l.at = datetime()
WITH p
CALL () {
  MATCH (c:Conversation {tenant: $tenant})
  SET c._lock = coalesce(c._lock, 0) + 1
}
"""

# Label names come from the constant tuple above, never from input.
PURGE_LABEL = {
    label: f"""
MATCH (n:{label} {{tenant: $tenant}})
CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF 1000 ROWS
"""
    for label in LABELS
} | term_stats.PURGE

# The turns a selection covers; derived nodes are found from them. A cell's turns also by the
# cell id they carry: a forget interrupted after the cells went is finished by running it again.
# The cells asked for by id come with what they made, found from them too: an episode whose
# turns are gone (app/construction/writer.py CLAIM's race with a forget) has nothing to find it by
# (subqueries only, so the one row comes back when no turn matches).
SELECT_TURNS = {
    "cells": """
RETURN COLLECT { MATCH (t:Turn {tenant: $tenant}) WHERE t.memCellId IN $ids RETURN elementId(t) } AS turns,
       COLLECT { MATCH (t:Turn {tenant: $tenant}) WHERE t.memCellId IN $ids
                 RETURN DISTINCT t.conversationId } AS conversations,
       COLLECT { MATCH (m:MemCell {tenant: $tenant}) WHERE m.id IN $ids
                 OPTIONAL MATCH (m)-[:HAS_FACT|PREDICTS]->(x) WHERE x.tenant = $tenant
                 UNWIND [m, x] AS n WITH DISTINCT n WHERE n IS NOT NULL RETURN elementId(n) } AS cells,
       COLLECT { MATCH (m:MemCell {tenant: $tenant})-[:HAS_FACT]->(f:Fact) WHERE m.id IN $ids
                 RETURN f.id } AS cellFacts""",
    "conversation": """
MATCH (t:Turn {tenant: $tenant, conversationId: $conversationId})
RETURN collect(elementId(t)) AS turns, [$conversationId] AS conversations, [] AS cells, [] AS cellFacts""",
    "group": """
MATCH (t:Turn {tenant: $tenant}) WHERE t.groupId = $groupId
RETURN collect(elementId(t)) AS turns, collect(DISTINCT t.conversationId) AS conversations, [] AS cells,
       [] AS cellFacts""",
    "user": """
MATCH (t:Turn {tenant: $tenant}) WHERE t.userId = $userId
RETURN collect(elementId(t)) AS turns, collect(DISTINCT t.conversationId) AS conversations, [] AS cells,
       [] AS cellFacts""",
}

# Everything derived from the turns: cells made of them, facts and foresight evidenced by them
# or belonging to those cells.
DERIVED = """
UNWIND $turns AS tk
MATCH (t:Turn) WHERE elementId(t) = tk AND t.tenant = $tenant
OPTIONAL MATCH (t)<-[:EVIDENCED_BY]-(d) WHERE d.tenant = $tenant AND (d:MemCell OR d:Fact OR d:Foresight)
WITH collect(DISTINCT d) AS direct
UNWIND direct AS d
OPTIONAL MATCH (d:MemCell)-[:HAS_FACT|PREDICTS]->(x) WHERE x.tenant = $tenant
WITH direct, collect(DISTINCT x) AS owned
WITH [n IN direct + owned WHERE n IS NOT NULL] AS nodes
UNWIND nodes AS n
RETURN collect(DISTINCT elementId(n)) AS keys, collect(DISTINCT CASE WHEN n:Fact THEN n.id END) AS factIds
"""

# Turns of the episodes to delete that the selection does not cover: the other speakers', when
# a user is forgotten (the other selections cover every turn of the episodes they reach, so
# this runs for a user only). They lose their episode and wait to be made into new ones without the
# forgotten turns: pending, with the reason where an extraction's error goes, so the periodic
# retry (app/store/admin.py) takes them up. Reopened before the episodes go, so a retry that
# comes between only makes the new episode sooner; only turns still of the episode (after a
# forget interrupted here, a retry may have made them into another one, which keeps them).
LEFT_BEHIND = """
UNWIND $keys AS k
MATCH (m:MemCell)-[:EVIDENCED_BY]->(t:Turn) WHERE elementId(m) = k AND m.tenant = $tenant
  AND t.tenant = $tenant AND t.memCellId = m.id AND NOT elementId(t) IN $turns
SET t.status = 'pending', t.memCellId = null, t.failedAt = datetime(), t.reopened = true,
    t.error = 'its episode was deleted with turns of a forgotten user; waiting to be made again without them'
"""

# Values the facts to be deleted had closed: their timelines planned again without them, so a
# forgotten "I moved to Denver" leaves Boston current again, unless a later value still ends it.
PREDECESSORS = """
UNWIND $factIds AS id
MATCH (p:Fact {tenant: $tenant})-[:SUPERSEDED_BY]->(:Fact {tenant: $tenant, id: id})
WHERE NOT p.id IN $factIds
RETURN DISTINCT p.id AS id, p.subjectKey AS subjectKey, coalesce(p.ends, p.predicate) AS predicate
"""

# Foresight ended by a statement being forgotten holds again as planned before it
# (app/construction/foresight_ends.py kept what the end replaced). Before the turns go:
# their ENDED_BY edges go with them.
UNEND_FORESIGHT = """
UNWIND $turns AS tk
MATCH (f:Foresight)-[e:ENDED_BY]->(t:Turn) WHERE elementId(t) = tk AND t.tenant = $tenant AND f.tenant = $tenant
DELETE e
WITH DISTINCT f
SET f.validTo = f.plannedTo,
    f.status = CASE WHEN f.plannedTo IS NULL OR f.plannedTo > datetime() THEN 'active' ELSE f.status END
REMOVE f.plannedTo, f.endedAt
"""

# Each node's keyword statistics are taken back in the transaction that deletes it.
DELETE_KEYS = term_stats.DELETE_NODES

STALE_RELATED = """
MATCH (:Entity {tenant: $tenant})-[r:RELATED]->(:Entity {tenant: $tenant}) WHERE r.factId IN $factIds
CALL (r) { DELETE r } IN TRANSACTIONS OF 1000 ROWS
"""

# Looked at again under each node's lock before it goes (locking.still_there): a run writing
# meanwhile may have given the entity a fact (or the conversation a turn) since the scan, and
# DETACH DELETE would take those new edges with it; another forget may have deleted it.
_UNUSED_ENTITY = ("NOT EXISTS { (n)<-[:ABOUT]-(:Fact) } AND NOT EXISTS { (n)<-[:MENTIONS]-(:MemCell) } "
                  "AND NOT EXISTS { (n)<-[:CONCERNS]-(:Foresight) }")
ORPHAN_ENTITIES = f"""
MATCH (n:Entity {{tenant: $tenant}}) WHERE {_UNUSED_ENTITY}
CALL (n) {{
  {still_there("n", _UNUSED_ENTITY)}
  {term_stats.TAKE_BACK}
  DETACH DELETE n
  RETURN 1 AS gone
}} IN TRANSACTIONS OF 1000 ROWS {term_stats.RETRY}
RETURN count(gone) AS deleted
"""

# Scenes that include the selected cells: they lose members, and their consensus may quote
# deleted facts, so they are recomputed (or dropped when empty) after the deletion.
SCENES_OF = """
UNWIND $keys AS k
MATCH (s:MemScene)-[:INCLUDES]->(m:MemCell) WHERE elementId(m) = k AND m.tenant = $tenant
RETURN collect(DISTINCT s.id) AS ids
"""

# Episodes of the selection's conversations left with none of their turns: written by a run
# that claimed its turns while this forget was deleting them (app/construction/writer.py CLAIM),
# committed after this forget had looked for what the turns made. They go with what they made.
ORPHAN_CELLS = """
MATCH (m:MemCell {tenant: $tenant}) WHERE m.conversationId IN $conversations
  AND NOT EXISTS { (m)-[:EVIDENCED_BY]->(:Turn) }
OPTIONAL MATCH (m)-[:HAS_FACT|PREDICTS]->(x) WHERE x.tenant = $tenant
WITH collect(DISTINCT elementId(m)) + collect(DISTINCT elementId(x)) AS keys,
     collect(DISTINCT CASE WHEN x:Fact THEN x.id END) AS factIds
RETURN keys, factIds
"""

_EMPTY = "NOT EXISTS { (c)-[:HAS_TURN]->(:Turn) }"
EMPTY_CONVERSATIONS = f"""
MATCH (c:Conversation {{tenant: $tenant}}) WHERE {_EMPTY}
CALL (c) {{
  {still_there("c", _EMPTY)}
  DETACH DELETE c
}} IN TRANSACTIONS OF 1000 ROWS
"""

# Scenes whose active members are not what they were last computed from: members deleted by a
# forget interrupted before it recomputed them (running it again finds no cells of its own).
STALE_SCENES = """
MATCH (s:MemScene {tenant: $tenant})
WHERE s.cells <> COUNT { (s)-[:INCLUDES]->(m:MemCell {status: 'active'}) WHERE m.topicVector IS NOT NULL }
RETURN collect(s.id) AS ids
"""


class SelectionError(ValueError):
    """The client's selection is not one thing to forget (its own type: the API reports this as
    the client's mistake, and no other ValueError)."""


@dataclass
class ForgetSelection:
    cell_ids: list[str] | None = None
    conversation_id: str | None = None
    group_id: str | None = None
    user_id: str | None = None
    everything: bool = False

    def chosen(self) -> list[str]:
        return [name for name, on in (
            ("cells", self.cell_ids), ("conversation", self.conversation_id),
            ("group", self.group_id), ("user", self.user_id), ("everything", self.everything),
        ) if on]


async def purge_tenant(graph: TenantGraph) -> int:
    """Delete everything of the tenant; returns the number of nodes deleted."""
    await graph.write(PURGE_START)
    deleted = 0
    for label in LABELS:
        n = await graph.auto_commit(PURGE_LABEL[label])
        deleted += 0 if label in NO_MEMORY else n
    return deleted


async def forget(graph: TenantGraph, sel: ForgetSelection) -> int:
    """Delete the selection and everything derived from it; returns nodes deleted (with what an
    interrupted forget left, forget_counted)."""
    return sum(await forget_counted(graph, sel))


async def forget_counted(graph: TenantGraph, sel: ForgetSelection) -> tuple[int, int]:
    """(nodes the selection and what was derived from it took, nodes an earlier interrupted
    forget left that this one cleared). A selection that matches nothing deletes nothing but
    such leftovers: a client asking to forget another tenant's id, or nothing, is told 0."""
    for name, v in (("conversationId", sel.conversation_id), ("groupId", sel.group_id), ("userId", sel.user_id)):
        if v is not None and not names_something(v):  # said, but empty: not a selection left out
            raise SelectionError(f"{name} must be {ID_RULE}")
    if sel.cell_ids is not None and any(not names_something(i) for i in sel.cell_ids):
        raise SelectionError(f"memCellIds must each be {ID_RULE}")  # ([""] read as a selection of none)
    chosen = sel.chosen()
    if len(chosen) != 1:
        raise SelectionError("choose exactly one of memCellIds, conversationId, groupId, userId, everything")
    if chosen[0] == "everything":
        return await purge_tenant(graph), 0
    rows = await graph.read(SELECT_TURNS[chosen[0]], ids=sel.cell_ids or [],
                            conversationId=sel.conversation_id, groupId=sel.group_id,
                            userId=sel.user_id)
    # No row when nothing matches (a query's constant columns group its aggregates).
    row = rows[0] if rows else {"turns": [], "cells": [], "conversations": [], "cellFacts": []}
    turns, conversations = row["turns"], row["conversations"]
    derived = (await graph.read(DERIVED, turns=turns) if turns else None) or [{"keys": [], "factIds": []}]
    keys = sorted(set(derived[0]["keys"]) | set(row["cells"]))
    fact_ids = sorted(set(derived[0]["factIds"]) | set(row["cellFacts"]))
    scenes = (await graph.read(SCENES_OF, keys=keys))[0]["ids"] if keys else []
    deleted = 0
    if turns:
        await graph.write(UNEND_FORESIGHT, turns=turns)
    if fact_ids:
        await _replan(graph, fact_ids)
        await graph.auto_commit(STALE_RELATED, factIds=fact_ids)
    if keys and chosen[0] == "user":
        await graph.write(LEFT_BEHIND, keys=keys, turns=turns)
    if keys:
        deleted += await graph.auto_commit(DELETE_KEYS, keys=keys)
    if turns:
        deleted += await graph.auto_commit(DELETE_KEYS, keys=turns)
        orphans = (await graph.read(ORPHAN_CELLS, conversations=conversations))[0]
        if orphans["factIds"]:
            await _replan(graph, orphans["factIds"])
            await graph.auto_commit(STALE_RELATED, factIds=orphans["factIds"])
        if orphans["keys"]:
            deleted += await graph.auto_commit(DELETE_KEYS, keys=orphans["keys"])
    # Also when this call found nothing of its own: a forget interrupted after its turns went
    # is finished by running it again.
    after = await graph.auto_commit(ORPHAN_ENTITIES)
    after += await graph.auto_commit(EMPTY_CONVERSATIONS)
    scenes = sorted(set(scenes) | set((await graph.read(STALE_SCENES))[0]["ids"]))
    if scenes:
        from app.lifecycle.scenes import refresh_scenes

        after += await refresh_scenes(graph, scenes)
    return (deleted + after, 0) if turns or keys else (deleted, after)


async def _replan(graph: TenantGraph, fact_ids: list[str]) -> None:
    """The timelines of values the facts about to be deleted had closed, planned without them
    under the tenant's write lock before they go: a forget interrupted between the two leaves the
    timelines right, and running it again deletes the rest."""
    async def work(tx: TenantTx) -> None:
        [lock] = await tx.run(TENANT_WRITE_LOCK)
        if lock["purging"]:
            return
        closed = await tx.run(PREDECESSORS, factIds=fact_ids)
        if closed:
            await replan_timelines(tx, {(r["subjectKey"], r["predicate"]) for r in closed},
                                   frozenset(fact_ids))

    await graph.write_tx(work)
