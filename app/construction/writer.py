"""One batch of constructed memory, written in one transaction with UNWIND: all or nothing."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.construction.entity_resolution import BY_KEYS, normalize_key, stale_surfaces
from app.construction.foresight_ends import DAY_MOVED, DAY_TWINS, DAY_VALUE, VALUE_MOVED, end_foresight
from app.construction.supersession import plan_supersession
from app.construction.corrections import adopt_corrections, closings
from app.construction.moved_events import adopt_moves
from app.construction.replacements import adopt_replacements, adopt_switches
from app.construction.short_names import adopt_long_names
from app.construction.value_owner import adopt_accepted, adopt_owners
from app.store import term_stats
from app.store.graph import TenantGraph, TenantTx
from app.store.locking import TENANT_WRITE_LOCK


# The cells' turns, claimed before anything is written: each must still be there and waiting
# for its cell. A run that extracted while its turns were forgotten (forget deletes turns, then
# what is derived from them) or were processed by another run (its lease ran out) writes
# nothing: its cell would bring forgotten words back, or come twice. Claiming writes the
# turns, so a forget deleting them meanwhile waits for this transaction and then finds the cell.
CLAIM = """
UNWIND $turns AS tv
OPTIONAL MATCH (t:Turn {tenant: $tenant, conversationId: tv.conversationId, id: tv.id})
  WHERE t.status = 'pending'
SET t.status = 'claimed'
RETURN count(tv) AS wanted, count(t) AS ready
"""

CELLS = """
UNWIND $cells AS c
CREATE (m:MemCell {id: c.id, tenant: $tenant})
SET m.conversationId = c.conversationId, m.groupId = c.groupId, m.userIds = c.userIds,
    m.title = c.title, m.summary = c.summary, m.keywords = c.keywords, m.keywordText = c.keywordText,
    m.importance = c.importance, m.startedAt = c.startedAt, m.endedAt = c.endedAt,
    m.embedding = c.embedding, m.accessCount = 0, m.lastAccessedAt = null, m.status = 'active',
    m.extractor = c.extractor, m.tokensUsed = c.tokensUsed, m.boundary = c.boundary,
    m.createdAt = datetime(), m.terms = c.terms, m.termFreqs = c.termFreqs, m.termCount = c.termCount
WITH m, c
UNWIND c.turns AS tv
MATCH (t:Turn {tenant: $tenant, conversationId: c.conversationId, id: tv.id})
SET t.status = 'done', t.memCellId = m.id, t.embedding = tv.embedding, t.error = null, t.reopened = null,
    t.sentenceSpans = null, t.sentenceVectors = null  // only kept while the turn waits for its cell
CREATE (m)-[:EVIDENCED_BY]->(t)
"""

ENTITIES = """
UNWIND $entities AS e
MERGE (n:Entity {tenant: $tenant, groupKey: $groupKey, key: e.key})
  ON CREATE SET n.id = e.id, n.groupId = CASE WHEN $groupKey = '' THEN null ELSE $groupKey END,
                n.name = e.name, n.type = e.type, n.aliases = [], n.aliasKeys = [],
                n.merges = [], n.embedding = e.embedding, n.createdAt = datetime()
WITH n, e
SET n.aliases = reduce(acc = n.aliases, a IN e.aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END),
    n.aliasKeys = reduce(acc = n.aliasKeys, a IN e.aliasKeys | CASE WHEN a IN acc THEN acc ELSE acc + a END),
    n.merges = n.merges + e.merges
SET n.aliasText = reduce(s = '', a IN n.aliases | s + ' ' + a)
RETURN """ + term_stats.RECOUNT_COLUMNS["entity"]

# Role aliases an entity of the batch takes (role_aliases.py): who holds them now, and what
# they keep. The tenant's entities are few and the lookup is under the batch's lock.
ROLE_HOLDERS = """
UNWIND $entities AS e
MATCH (o:Entity {tenant: $tenant, groupKey: $groupKey})
WHERE o.key <> e.key AND any(k IN o.aliasKeys WHERE k IN e.takes)
WITH o, reduce(acc = [], t IN collect(e.takes) | acc + t) AS taken
RETURN o.key AS key, o.aliases AS aliases, o.aliasKeys AS aliasKeys, taken
"""

KEEP_ALIASES = """
UNWIND $holders AS h
MATCH (n:Entity {tenant: $tenant, groupKey: $groupKey, key: h.key})
SET n.aliases = h.aliases, n.aliasKeys = h.aliasKeys,
    n.aliasText = reduce(s = '', a IN h.aliases | s + ' ' + a)
RETURN """ + term_stats.RECOUNT_COLUMNS["entity"]

MENTIONS = """
UNWIND $mentions AS x
MATCH (m:MemCell {tenant: $tenant, id: x.cellId}), (e:Entity {tenant: $tenant, groupKey: $groupKey, key: x.key})
MERGE (m)-[r:MENTIONS]->(e) ON CREATE SET r.count = x.count
"""

# A fact or foresight is the user's whose turns say it: the one user among its evidence turns
# (none when turns of two users prove it). The vector indexes filter on it (app/store/vector.py),
# so a search of one user's memory fetches that user's neighbours; the search's own filter reads
# the evidence turns, which stay the rule.
EVIDENCE = """CALL (n, f) {
  UNWIND f.turnIds AS tid
  MATCH (t:Turn {tenant: $tenant, conversationId: f.conversationId, id: tid})
  CREATE (n)-[:EVIDENCED_BY]->(t)
  RETURN collect(DISTINCT t.userId) AS users
}
SET n.userId = CASE WHEN size(users) = 1 THEN users[0] END"""

FACTS = f"""
UNWIND $facts AS f
MATCH (m:MemCell {{tenant: $tenant, id: f.cellId}})
CREATE (n:Fact {{id: f.id, tenant: $tenant}})
SET n.subject = f.subject, n.predicate = f.predicate, n.object = f.object, n.text = f.text,
    n.subjectKey = f.subjectKey, n.subjectHead = f.subjectHead, n.objectKey = f.objectKey,
    n.singleValued = f.singleValued, n.confidence = f.confidence, n.validFrom = f.validFrom, n.validTo = f.validTo,
    n.eventDate = f.eventDate, n.ends = f.ends, n.statedAt = f.statedAt, n.status = f.status,
    n.embedding = f.embedding,
    n.conversationId = f.conversationId, n.groupId = f.groupId, n.createdAt = datetime(),
    n.terms = f.terms, n.termFreqs = f.termFreqs, n.termCount = f.termCount
CREATE (m)-[:HAS_FACT]->(n)
WITH n, f
{EVIDENCE}
WITH n, f
CALL (n, f) {{
  UNWIND f.about AS a
  MATCH (e:Entity {{tenant: $tenant, groupKey: $groupKey, key: a.key}})
  MERGE (n)-[r:ABOUT]->(e) ON CREATE SET r.role = a.role
}}
"""

RELATED = """
UNWIND $related AS r
MATCH (a:Entity {tenant: $tenant, groupKey: $groupKey, key: r.fromKey}),
      (b:Entity {tenant: $tenant, groupKey: $groupKey, key: r.toKey})
CREATE (a)-[:RELATED {predicate: r.predicate, factId: r.factId, validFrom: r.validFrom,
                      validTo: r.validTo, weight: r.weight, tenant: $tenant, groupId: r.groupId}]->(b)
"""

SUPERSEDE = """
UNWIND $supersede AS s
MATCH (old:Fact {tenant: $tenant, id: s.oldId}), (new:Fact {tenant: $tenant, id: s.newId})
SET old.status = 'superseded', old.validTo = s.at
WITH old, new, s
// A statement about the past arriving late comes between a fact and its replacement.
CALL (old, new) {
  MATCH (old)-[x:SUPERSEDED_BY]->(other) WHERE other <> new DELETE x
}
MERGE (old)-[:SUPERSEDED_BY]->(new)
WITH old, s
OPTIONAL MATCH (:Entity {tenant: $tenant})-[r:RELATED {factId: old.id}]->(:Entity {tenant: $tenant})
SET r.validTo = s.at
"""

FORESIGHTS = f"""
UNWIND $foresights AS f
MATCH (m:MemCell {{tenant: $tenant, id: f.cellId}})
CREATE (n:Foresight {{id: f.id, tenant: $tenant}})
SET n.text = f.text, n.trigger = f.trigger, n.kind = f.kind, n.validFrom = f.validFrom,
    n.validTo = f.validTo, n.embedding = f.embedding, n.status = 'active',
    n.conversationId = f.conversationId, n.groupId = f.groupId, n.createdAt = datetime(),
    n.terms = f.terms, n.termFreqs = f.termFreqs, n.termCount = f.termCount
CREATE (m)-[:PREDICTS]->(n)
WITH n, f
CALL (n, f) {{
  MATCH (e:Entity {{tenant: $tenant, groupKey: $groupKey, key: f.concernsKey}})
  CREATE (n)-[:CONCERNS]->(e)
}}
{EVIDENCE}
"""

MARK_FAILED = """
UNWIND $turnIds AS tid
MATCH (t:Turn {tenant: $tenant, conversationId: $conversationId, id: tid})
SET t.attempts = coalesce(t.attempts, 0) + 1, t.error = $error, t.failedAt = datetime(), t.reopened = null
"""


@dataclass
class Batch:
    cells: list[dict] = field(default_factory=list)
    entities: list[dict] = field(default_factory=list)
    mentions: list[dict] = field(default_factory=list)
    facts: list[dict] = field(default_factory=list)
    related: list[dict] = field(default_factory=list)
    supersede: list[dict] = field(default_factory=list)
    foresights: list[dict] = field(default_factory=list)
    # the episode's names and the entities they were resolved to (entity_resolution.surface_rows)
    surfaces: list[dict] = field(default_factory=list)
    ends: list[dict] = field(default_factory=list)  # foresight said to be over (foresight_ends.py)
    ended: int = 0  # how many that ended, once written
    # The facts the transaction told anew (a correction's or a replacement's value): their
    # vectors are of the sentence said, embedded again once written (pipeline.py).
    retold: list[str] = field(default_factory=list)


class TurnsTaken(Exception):
    """The batch's turns were forgotten or processed elsewhere while it was built (CLAIM)."""


class ResolutionStale(Exception):
    """Names of the batch stand for other entities now than when they were resolved: an entity
    edit (a split, a merge) or another run came in between. Nothing written; resolve again."""

    def __init__(self, names: list[str]):
        super().__init__(f"names resolved again after a change to their entities: {', '.join(names[:5])}")
        self.names = names


async def _take_roles(tx: TenantTx, entities: list[dict]) -> None:
    """The role aliases the batch's entities take, off their former holders (role_aliases.py)."""
    takers = [{"key": e["key"], "takes": e["takes"]} for e in entities if e.get("takes")]
    if not takers:
        return
    # What others take from each holder only: one of the batch's takers may hold another's role.
    holders = []
    for h in await tx.run(ROLE_HOLDERS, entities=takers):
        taken = set(h["taken"])
        holders.append({"key": h["key"], "aliases": [a for a in h["aliases"] if normalize_key(a) not in taken],
                        "aliasKeys": [k for k in h["aliasKeys"] if k not in taken]})
    if holders:
        await term_stats.recount_nodes(tx, "entity", await tx.run(KEEP_ALIASES, holders=holders))


# A retold fact's vector, of its own text.
FACT_VECTORS = """
UNWIND $rows AS r
MATCH (f:Fact {tenant: $tenant, id: r.id})
SET f.embedding = r.embedding
"""


async def write_batch(graph: TenantGraph, batch: Batch) -> None:
    """Raises TurnsTaken, with nothing written, when the cells' turns are no longer waiting, and
    ResolutionStale when its names' entities changed since they were resolved. `graph`: bound
    to the batch's group (TenantGraph.in_group), whose entities it writes."""
    if graph.group_key is None:
        raise ValueError("write_batch needs the graph of the batch's group (TenantGraph.in_group)")
    # Order matters: entities before the facts ABOUT them, facts before their supersession.
    steps = ((CELLS, "cells"), (ENTITIES, "entities"), (MENTIONS, "mentions"), (FACTS, "facts"),
             (RELATED, "related"), (SUPERSEDE, "supersede"), (FORESIGHTS, "foresights"))

    # Episodes, facts and foresight carry their words, counted in the tenant's keyword
    # statistics; entities are counted once written, as their aliases may have grown.
    texts = {"cells": "memcell", "facts": "fact", "foresights": "foresight"}
    terms_of = {name: [term_stats.node_terms(texts[name], r) for r in getattr(batch, name)] for name in texts}

    async def work(tx: TenantTx) -> None:
        [lock] = await tx.run(TENANT_WRITE_LOCK)
        if lock["purging"]:
            raise TurnsTaken("the tenant's memory is being deleted; nothing written")
        if batch.cells:
            [claim] = await tx.run(CLAIM, turns=[{"conversationId": c["conversationId"], "id": t["id"]}
                                                 for c in batch.cells for t in c["turns"]])
            if claim["ready"] < claim["wanted"]:
                raise TurnsTaken(f"{claim['wanted'] - claim['ready']} of the episode's turns were "
                                 "forgotten or processed elsewhere meanwhile; nothing written for them")
        # Resolution ran before the lock: written as it is after a merge, the merged entity
        # would be made again; after a split, the name given back to the entity it was taken from.
        if batch.surfaces:
            keys = sorted({k for s in batch.surfaces for k in (s["surface"], s["target"])})
            stale = stale_surfaces(await tx.run(BY_KEYS, keys=keys), batch.surfaces)
            if stale:
                raise ResolutionStale(stale)
        # Under the lock: what is current now, not when the run began (another run may have
        # written a newer value since). It sets the facts' status, so their rows come after.
        await adopt_owners(tx.run, batch.facts)  # a value said of no one: the one owner's of its kind
        await adopt_long_names(tx.run, batch.facts)  # "the code", after "the shed lock code": its timeline
        retold = [*await adopt_corrections(tx.run, batch.facts),  # "It's 995 not 975": the value said before
                  *await adopt_replacements(tx.run, batch.facts),  # "his replacement is Priya Nair": his posts
                  *await adopt_moves(tx.run, batch.facts),  # "it's been moved again, now to ...": the inspection
                  *await adopt_switches(tx.run, batch.facts),  # "switching to Tomasz, Karen's too far": his physio
                  *await adopt_accepted(tx.run, batch.facts)]  # "She accepted £880": her rent
        for i in retold:
            terms_of["facts"][i] = term_stats.node_terms("fact", batch.facts[i])
        batch.retold = [batch.facts[i]["id"] for i in retold]
        # (and the sayings a correction ends: "start at 8 instead of 8:30", after "his lads will arrive at 8:30")
        batch.supersede = await plan_supersession(tx.run, batch.facts) + closings(batch.facts)
        # A fact dated by its day alone may start later than said (the value it replaced was
        # stated that day): its relations start with it.
        starts = {f["id"]: f["validFrom"] for f in batch.facts}
        for r in batch.related:
            r["validFrom"] = starts.get(r["factId"], r["validFrom"])
        rows_of = {name: [{**r, **terms} for r, terms in zip(getattr(batch, name), terms_of[name])]
                   if name in texts else getattr(batch, name) for _, name in steps}
        for query, name in steps:
            rows = rows_of[name]
            if rows:
                written = await tx.run(query, **{name: rows})
                if name in texts:
                    await tx.run(term_stats.ADD, **term_stats.additions(texts[name], rows))
                elif name == "entities":
                    await term_stats.recount_nodes(tx, "entity", written)
                    await _take_roles(tx, rows)
        ended = 0  # (set on the batch once: the transaction may be run again)
        # A day moved on its timeline: the foresight of the old day. Every closing has a fact of
        # the batch on one side and DAY_MOVED wants days on both: none, no query.
        days = {f["id"] for f in batch.facts
                if DAY_VALUE.fullmatch(str(f.get("object") or "")) or f.get("object") == "cancelled"}
        moved_days = [s for s in batch.supersede if s["oldId"] in days or s["newId"] in days]
        if moved_days:
            [moved] = await tx.run(DAY_MOVED, supersede=moved_days)
            ended = moved["ended"]
            if twins := await tx.run(DAY_TWINS, supersede=moved_days):
                await tx.run(SUPERSEDE, supersede=twins)  # the old day's twin in the same words
                batch.supersede += twins
        if moved_values := [s for s in batch.supersede if s not in moved_days]:
            [moved] = await tx.run(VALUE_MOVED, supersede=moved_values)
            ended += moved["ended"]
        # After the batch's own foresight: "Tom is vegan ... he isn't any more" in one episode.
        if batch.ends:
            told, closed = await end_foresight(tx, batch.ends)
            ended += told
            if closed:
                await tx.run(SUPERSEDE, supersede=closed)
                batch.supersede += closed
        batch.ended = ended

    await graph.write_tx(work)


async def mark_failed(graph: TenantGraph, conversation_id: str, turn_ids: list[str], error: str) -> None:
    await graph.write(MARK_FAILED, conversationId=conversation_id, turnIds=turn_ids, error=error[:2000])
