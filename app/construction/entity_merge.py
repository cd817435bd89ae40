"""A merge resolution missed, done by hand: two entities that are one ("Mom" and Linda, "NYC"
and New York) become the one kept.

Everything about the other one moves to it: its facts (as subject, object or mention), the
relations they made, the episodes' mentions, the foresight about it; its name and aliases
become aliases of the one kept, its merge records join the kept one's with a record of this
merge (method `manual`), and the entity is deleted. The timelines of what it said of itself
join the kept entity's and are planned again, so two values of one thing close each other as
if said of one entity from the start. Undone by entity_split.py with the merged name as the
surface: the facts whose words name it go back.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from app.construction.entity_edits import MOVE_RELATED, EntityEditError, check_name, locked, named, timeline
from app.construction.entity_resolution import normalize_key
from app.construction.timelines import replan_timelines
from app.store import term_stats
from app.store.graph import TenantGraph, TenantTx

# The single-valued timelines the merged entity is the subject of, before its facts move.
TIMELINES_OF = """
MATCH (f:Fact {tenant: $tenant, subjectKey: $key}) WHERE f.singleValued OR f.ends IS NOT NULL
RETURN DISTINCT coalesce(f.ends, f.predicate) AS predicate
"""

# A fact about both keeps one edge: the subject's role when either was the subject.
MOVE_ABOUT = """
MATCH (x:Entity {tenant: $tenant, id: $from}), (e:Entity {tenant: $tenant, id: $to})
MATCH (f:Fact {tenant: $tenant})-[r:ABOUT]->(x)
WITH e, x, f, r, r.role AS role
DELETE r
MERGE (f)-[a:ABOUT]->(e) ON CREATE SET a.role = role
SET a.role = CASE WHEN role = 'subject' THEN role ELSE a.role END
RETURN count(DISTINCT f) AS facts
"""

# What it said of itself is said of the kept entity: the facts on its timelines join the kept
# one's (those whose subject was not resolved to it too: the key is its name).
RESUBJECT = """
MATCH (f:Fact {tenant: $tenant, subjectKey: $from}) SET f.subjectKey = $to
"""


MOVE_MENTIONS = """
MATCH (x:Entity {tenant: $tenant, id: $from}), (e:Entity {tenant: $tenant, id: $to})
MATCH (m:MemCell {tenant: $tenant})-[y:MENTIONS]->(x)
MERGE (m)-[z:MENTIONS]->(e) ON CREATE SET z.count = 0
SET z.count = z.count + coalesce(y.count, 1)
DELETE y
RETURN count(m) AS episodes
"""

# The foresight about it (its plans and constraints) is about the kept one.
MOVE_CONCERNS = """
MATCH (x:Entity {tenant: $tenant, id: $from}), (e:Entity {tenant: $tenant, id: $to})
MATCH (f:Foresight {tenant: $tenant})-[c:CONCERNS]->(x)
DELETE c
MERGE (f)-[:CONCERNS]->(e)
"""

# The kept entity's names: the merged one's name and aliases added (none that is its own name),
# their keys, and both entities' merge records.
ABSORB = """
MATCH (n:Entity {tenant: $tenant, id: $id})
SET n.aliases = reduce(acc = n.aliases, a IN $aliases | CASE WHEN a IN acc THEN acc ELSE acc + a END),
    n.aliasKeys = reduce(acc = n.aliasKeys, k IN $aliasKeys | CASE WHEN k IN acc THEN acc ELSE acc + k END),
    n.merges = coalesce(n.merges, []) + $records,
    // split off either entity stays split off the one kept, unless merged here by hand
    n.splitKeys = reduce(acc = [], k IN coalesce(n.splitKeys, []) + $splitKeys |
                         CASE WHEN k IN acc OR k IN $aliasKeys THEN acc ELSE acc + k END)
SET n.aliasText = reduce(s = '', a IN n.aliases | s + ' ' + a)
RETURN """ + term_stats.RECOUNT_COLUMNS["entity"]

# Its words taken back from the keyword statistics with it (TAKE_BACK).
DELETE_MERGED = f"""
MATCH (n:Entity {{tenant: $tenant, id: $id}})
{term_stats.TAKE_BACK}
DETACH DELETE n
"""


@dataclass
class MergeReport:
    entity_id: str  # the entity kept
    facts: int = 0  # facts moved to it
    episodes: int = 0  # episodes whose mention moved
    reopened: int = 0
    resuperseded: int = 0  # values closed anew now that both entities' values are one timeline


async def merge_entities(graph: TenantGraph, entity: str, into: str, group_id: str | None = None) -> MergeReport:
    """Merge the entity named `entity` into the one named `into` (see the module's docstring).
    Raises EntityEditError, with nothing changed, when either is not found or both name one
    entity, or when they are of two groups (an entity is its group's: `group_id` names the group
    of both; without it, each is found as entity(name) finds it). One transaction under the
    tenant's write lock."""
    check_name(entity, "entity")
    check_name(into, "into")

    async def work(tx: TenantTx) -> MergeReport:
        await locked(tx)
        x = await named(tx, entity, "entity", group_id)
        e = await named(tx, into, "into", group_id)
        if x["id"] == e["id"]:
            raise EntityEditError(f"{entity!r} and {into!r} are already one entity ({e['name']!r})", "into")
        if x["groupKey"] != e["groupKey"]:
            raise EntityEditError(f"{entity!r} and {into!r} are entities of two groups ({_group(x)} and "
                                  f"{_group(e)}), which are never one; give groupId to merge within one",
                                  "into")
        preds = {r["predicate"] for r in await tx.run(TIMELINES_OF, key=timeline(x))}
        ids = {"from": x["id"], "to": e["id"]}
        [moved] = await tx.run(MOVE_ABOUT, **ids)
        await tx.run(RESUBJECT, **{"from": timeline(x), "to": timeline(e)})
        await tx.run(MOVE_RELATED, factIds=None, **ids)
        [mentions] = await tx.run(MOVE_MENTIONS, **ids)
        await tx.run(MOVE_CONCERNS, **ids)

        names = [x["name"], *(x["aliases"] or [])]
        keys = [k for k in [x["key"], *(x["aliasKeys"] or [])] if k != e["key"]]
        record = {"surface": x["name"], "into": e["key"], "method": "manual", "score": None,
                  "at": datetime.now(timezone.utc).isoformat()}
        [kept] = await tx.run(ABSORB, id=e["id"], aliases=[a for a in names if normalize_key(a) != e["key"]],
                              aliasKeys=keys, splitKeys=x["splitKeys"] or [],
                              records=[*(x["merges"] or []), json.dumps(record, sort_keys=True)])
        await tx.run(DELETE_MERGED, id=x["id"])
        await term_stats.recount_nodes(tx, "entity", [kept])
        reopened, resuperseded = await replan_timelines(tx, {(timeline(e), p) for p in preds})
        return MergeReport(entity_id=e["id"], facts=moved["facts"], episodes=mentions["episodes"],
                           reopened=reopened, resuperseded=resuperseded)

    return await graph.write_tx(work)


def _group(entity) -> str:
    """How a message names an entity's group: the entities of no group are not group None."""
    return "no group" if entity["groupId"] is None else f"group {entity['groupId']!r}"
