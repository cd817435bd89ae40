"""Undoing a wrong entity merge: one of an entity's aliases made an entity of its own.

Resolution merges a name into a known entity by key, prefix or vector (entity_resolution.py),
and records each merge on the entity. A wrong one ("Mel", a colleague, taken for Melanie) mixes
two people's facts and lets one close the other's ("Mel works at Brightleaf" superseding
Melanie's job). split_entity takes the alias back: the facts whose words name it, and name none
of the entity's other names, move to a new entity of that name with their relations and
mentions (and the foresight whose text begins with it), both entities' timelines are planned
again (values wrongly closed are current again), and the entity's merge record says where the
alias went. Later episodes naming it resolve to the new entity by key, so the split stays; the
entity also keeps the name among its `splitKeys`, which no prefix or vector guess merges into it
again, should the new entity be forgotten.

Limits, said where a client reads them (README): a value wrongly closed comes back open-ended,
so an end it stated itself, overwritten by the wrong closing, is not recovered; a fact naming
the alias only inside another of its forms stays; scenes keep their consensus until the next
consolidate.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from app.construction.entity_edits import MOVE_RELATED, EntityEditError, check_name, locked, named, timeline
from app.construction.entity_resolution import normalize_key
from app.construction.timelines import replan_timelines
from app.domain.models import new_id
from app.store import term_stats
from app.store.graph import TenantGraph, TenantTx

# An entity already of the alias's name, which the split-off facts join instead of a new one.
EXISTING = """
MATCH (x:Entity {tenant: $tenant, groupKey: $groupKey, key: $key}) RETURN x.id AS id
"""

FACTS_ABOUT = """
MATCH (f:Fact {tenant: $tenant})-[r:ABOUT]->(:Entity {tenant: $tenant, id: $id})
RETURN f.id AS id, r.role AS role, f.subject AS subject, f.object AS object, f.text AS text,
       f.predicate AS predicate, f.ends AS ends, f.singleValued AS singleValued
"""

SPLIT_OFF = """
MERGE (n:Entity {tenant: $tenant, groupKey: $groupKey, key: $key})
  ON CREATE SET n.id = $id, n.groupId = CASE WHEN $groupKey = '' THEN null ELSE $groupKey END,
                n.name = $name, n.type = $type, n.aliases = [], n.aliasKeys = [], n.merges = [], n.aliasText = '',
                n.embedding = $embedding, n.createdAt = datetime()
RETURN n.id AS id, n.key AS entityKey, """ + term_stats.RECOUNT_COLUMNS["entity"]

# A fact's role moves with its ABOUT edge; the subject's key with it, so the fact leaves the
# old entity's timeline. A fact whose text still names the old entity keeps it as mentioned.
MOVE_ABOUT = """
MATCH (e:Entity {tenant: $tenant, id: $from}), (n:Entity {tenant: $tenant, id: $to})
UNWIND $moves AS mv
MATCH (f:Fact {tenant: $tenant, id: mv.id})-[r:ABOUT]->(e)
DELETE r
MERGE (f)-[a:ABOUT]->(n) ON CREATE SET a.role = mv.role
FOREACH (_ IN CASE WHEN mv.keep THEN [1] ELSE [] END | MERGE (f)-[k:ABOUT]->(e) ON CREATE SET k.role = 'mentioned')
FOREACH (_ IN CASE WHEN mv.role = 'subject' THEN [1] ELSE [] END | SET f.subjectKey = $subjectKey)
"""


# The episodes that mention the old entity, with the turns that may name either (a rough
# lowercase filter; the words are checked in Python), and whether a fact still ties them to it.
EPISODES = """
MATCH (m:MemCell {tenant: $tenant})-[x:MENTIONS]->(e:Entity {tenant: $tenant, id: $from})
CALL (m) {
  MATCH (m)-[:EVIDENCED_BY]->(t:Turn)
  WITH t, toLower(coalesce(t.speaker, '') + ' ' + coalesce(t.content, '')) AS said
  WHERE any(w IN $needles WHERE said CONTAINS w)
  RETURN collect(coalesce(t.speaker, '') + ': ' + coalesce(t.content, '')) AS texts
}
RETURN m.id AS id, texts,
       EXISTS { (m)-[:HAS_FACT]->(:Fact)-[:ABOUT]->(e) } AS tied,
       COUNT { (m)-[:HAS_FACT]->(:Fact)-[:ABOUT]->(:Entity {tenant: $tenant, id: $to}) } AS moved
"""

MOVE_MENTIONS = """
MATCH (e:Entity {tenant: $tenant, id: $from}), (n:Entity {tenant: $tenant, id: $to})
UNWIND $episodes AS ep
MATCH (m:MemCell {tenant: $tenant, id: ep.id})-[x:MENTIONS]->(e)
FOREACH (_ IN CASE WHEN ep.add THEN [1] ELSE [] END |
  MERGE (m)-[y:MENTIONS]->(n) ON CREATE SET y.count = CASE WHEN ep.moved > 0 THEN ep.moved ELSE 1 END)
FOREACH (_ IN CASE WHEN ep.drop THEN [1] ELSE [] END | DELETE x)
FOREACH (_ IN CASE WHEN ep.drop THEN [] ELSE [1] END | SET x.count = CASE WHEN x.count > ep.moved
                                                                    THEN x.count - ep.moved ELSE 1 END)
"""

# Foresight whose text begins with the alias ("Mel is allergic to nuts") is the new entity's,
# unless it begins with a longer name of the old one too (the same rule as when it was written:
# entity_resolution.Resolution.concerned).
MOVE_CONCERNS = """
MATCH (e:Entity {tenant: $tenant, id: $from}), (n:Entity {tenant: $tenant, id: $to})
MATCH (f:Foresight {tenant: $tenant})-[c:CONCERNS]->(e)
WHERE any(s IN $spelled WHERE f.text STARTS WITH s + ' ')
  AND NOT any(r IN $longer WHERE f.text STARTS WITH r + ' ')
DELETE c
MERGE (f)-[:CONCERNS]->(n)
"""

UNALIAS = """
MATCH (n:Entity {tenant: $tenant, id: $id})
SET n.aliases = [a IN n.aliases WHERE NOT a IN $drop],
    n.aliasKeys = [k IN n.aliasKeys WHERE k <> $surfaceKey],
    n.merges = coalesce(n.merges, []) + $record,
    n.splitKeys = [k IN coalesce(n.splitKeys, []) WHERE k <> $surfaceKey] + $surfaceKey
SET n.aliasText = reduce(s = '', a IN n.aliases | s + ' ' + a)
RETURN """ + term_stats.RECOUNT_COLUMNS["entity"]

@dataclass
class SplitReport:
    entity_id: str  # the entity the alias became
    from_id: str  # the entity it was taken from
    facts: int = 0  # facts moved
    episodes: int = 0  # episodes that now mention the new entity
    reopened: int = 0  # values current again
    resuperseded: int = 0  # values closed anew, by a different successor or at another moment


def _names(text: str, name: str) -> bool:
    """Whether `text` says `name` as whole words, cut as the keyword index cuts them ("Mel's"
    says Mel; "Melanie" does not)."""
    want, have = term_stats.words(name), term_stats.words(text)
    return bool(want) and any(have[i:i + len(want)] == want for i in range(len(have) - len(want) + 1))


def _written(fact: dict, role: str) -> str:
    """The words through which a fact is about an entity in `role`."""
    return {"subject": fact["subject"], "object": fact["object"]}.get(role) or fact["text"] or ""


async def split_entity(graph: TenantGraph, embedder, entity: str, surface: str,
                       group_id: str | None = None) -> SplitReport:
    """Make `surface`, an alias of the entity named `entity`, an entity of its own (see the
    module's docstring). Raises EntityEditError, with nothing changed, when there is no such entity
    or the surface is not one of its aliases. All in one transaction under the tenant's write
    lock, so no ingestion writes between what it reads and what it changes. The new entity is
    of the entity's group (`group_id`: whose entity it is; without it, as entity(name) finds it)."""
    check_name(entity, "entity")
    surface_key = check_name(surface, "surface")
    # The vector of the name, only used when the entity is new; computed outside the transaction.
    [vector] = await embedder.aembed([surface])

    async def work(tx: TenantTx) -> SplitReport:
        await locked(tx)
        e = await named(tx, entity, "entity", group_id)
        group = {"groupKey": e["groupKey"]}
        if surface_key == e["key"]:
            raise EntityEditError(f"{surface!r} is the entity's own name; split off one of its aliases",
                                  "surface")
        if surface_key not in (e["aliasKeys"] or []):
            raise EntityEditError(f"{surface!r} is not an alias of {e['name']!r}", "surface")
        existing = await tx.run(EXISTING, key=surface_key, **group)
        spelled = [a for a in e["aliases"] or [] if normalize_key(a) == surface_key]
        remaining = [e["name"], *(a for a in e["aliases"] or [] if normalize_key(a) != surface_key)]

        moves = []
        for f in await tx.run(FACTS_ABOUT, id=e["id"]):
            said = _written(f, f["role"])
            if _names(said, surface) and not any(_names(said, r) for r in remaining):
                keep = f["role"] != "mentioned" and any(_names(f["text"] or "", r) for r in remaining)
                moves.append({**f, "keep": keep})

        [n] = await tx.run(SPLIT_OFF, key=surface_key, id=existing[0]["id"] if existing else new_id("ent"),
                           name=spelled[0] if spelled else surface.strip(), type=e["type"],
                           embedding=[float(x) for x in vector], **group)
        ids = {"from": e["id"], "to": n["id"]}
        if moves:
            await tx.run(MOVE_ABOUT, moves=[{"id": m["id"], "role": m["role"], "keep": m["keep"]} for m in moves],
                         subjectKey=timeline(e, n["entityKey"]), **ids)
            await tx.run(MOVE_RELATED, factIds=[m["id"] for m in moves], **ids)

        written = spelled or [surface.strip()]
        await tx.run(MOVE_CONCERNS, spelled=written, **ids,
                     longer=[r for r in remaining if len(r) > min(len(w) for w in written)])

        episodes = []
        needles = sorted({w for name in [surface, *remaining] if (w := name.strip().lower())})
        for ep in await tx.run(EPISODES, needles=needles, **ids):
            adds = ep["moved"] > 0 or any(_names(t, surface) for t in ep["texts"])
            still = ep["tied"] or any(_names(t, r) for t in ep["texts"] for r in remaining)
            episodes.append({"id": ep["id"], "moved": ep["moved"], "add": adds, "drop": adds and not still})
        if episodes:
            await tx.run(MOVE_MENTIONS, episodes=episodes, **ids)

        record = {"surface": spelled[0] if spelled else surface.strip(), "into": n["entityKey"],
                  "method": "split", "score": None, "at": datetime.now(timezone.utc).isoformat()}
        [old] = await tx.run(UNALIAS, id=e["id"], drop=spelled, surfaceKey=surface_key,
                             record=[json.dumps(record, sort_keys=True)])
        await term_stats.recount_nodes(tx, "entity", [old, n])

        # Both timelines of every single-valued thing a moved fact says of its subject.
        preds = {m["ends"] or m["predicate"] for m in moves
                 if m["role"] == "subject" and (m["singleValued"] or m["ends"])}
        reopened, resuperseded = await replan_timelines(
            tx, {(k, p) for p in preds for k in (timeline(e), timeline(e, n["entityKey"]))})
        return SplitReport(entity_id=n["id"], from_id=e["id"], facts=len(moves),
                           episodes=sum(ep["add"] for ep in episodes), reopened=reopened,
                           resuperseded=resuperseded)

    return await graph.write_tx(work)
