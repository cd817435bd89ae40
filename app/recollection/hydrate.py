"""Turn fused keys into memories and their evidence turns (payloads for the caller)."""
from __future__ import annotations

from datetime import datetime

from app.lifecycle.scene_summary import SceneFacts, consensus
from app.recollection.foresight_lookup import CONCERNS
from app.store.graph import TenantGraph

# Date-times cross Bolt as ISO text here and are parsed by datetime.fromisoformat: the driver's
# own DateTime decoding (pytz time-zone arithmetic) cost ~0.12 ms each, ~3.5 ms of CPU for the
# ~30 of a search's hydration (profiled). The offset is kept; a named zone's [Region/City]
# suffix, which Python cannot parse, is dropped (the offset already fixes the instant).
TIMES = ("at", "startedAt", "endedAt", "lastAccessedAt", "validFrom", "validTo", "createdAt",
         "updatedAt")


# What each turn's facts say of it (`_turn_flags`): their status, whether single-valued, whether someone's
# words ("said"), whether their validity is over. One read of the turn's facts: the flags below had been
# four subqueries per turn on the search's critical path.
TURNS = """
UNWIND $keys AS k
MATCH (n:Turn) WHERE elementId(n) = k AND n.tenant = $tenant
RETURN k AS key, n {.id, .conversationId, .groupId, .speaker, .content, .userId, .memCellId, .role,
                    at: toString(n.at),
                    facts: [(f:Fact)-[:EVIDENCED_BY]->(n) | [f.status, coalesce(f.singleValued, false),
                                                             f.predicate = 'said',
                                                             f.validTo IS NOT NULL AND f.validTo <= datetime()]]} AS node
"""


def _turn_flags(node: dict) -> dict:
    """A turn's `replaced` and `slip`, from its facts (TURNS).

    `replaced`: every value the turn said has been replaced since ("Our budget is £18,000", after "the
    budget went up to £21,500"): its words still match the question, its answer is old. What else it
    said only as someone's words ("Owen said the steel adds twelve grand") keeps no turn current ("Yes,
    budget is now £97,000. The steel ... add about twelve grand" had stayed first). A value a correction
    ended is replaced too ("£5,200 full pack incl. insurance" then "sorry, £5,250": the first turn had
    stayed first, unmarked, its fact ended), and one taken back.
    `slip`: what the turn said of substance was taken back at once ("... to 15 units from tonight", then
    "no wait, 16": local/slips.py): it was never true, at any moment a question asks about."""
    if "facts" not in node:
        return node  # (not a turn)
    facts = node.pop("facts") or []
    held = any(status == "current" and (single or not said) and not over for status, single, said, over in facts)
    retracted = any(status == "retracted" for status, *_ in facts)
    ended = any(status == "superseded" and single or status == "current" and over
                for status, single, _, over in facts)
    node["replaced"] = not held and (retracted or ended)
    node["slip"] = retracted and not held and not any(status == "superseded" for status, *_ in facts)
    return node


CELLS = """
UNWIND $keys AS k
MATCH (n:MemCell) WHERE elementId(n) = k AND n.tenant = $tenant
RETURN k AS key, n {.id, .title, .summary, .keywords, .importance, .status, .accessCount,
                    .conversationId, .groupId, .userIds, startedAt: toString(n.startedAt),
                    endedAt: toString(n.endedAt),
                    lastAccessedAt: toString(n.lastAccessedAt)} AS node
"""

FACTS = """
UNWIND $keys AS k
MATCH (n:Fact) WHERE elementId(n) = k AND n.tenant = $tenant
OPTIONAL MATCH (m:MemCell)-[:HAS_FACT]->(n)
RETURN k AS key, n {.id, .subject, .predicate, .object, .text, .confidence, .status, .eventDate,
                    .conversationId, .groupId, memCellId: m.id, validFrom: toString(n.validFrom),
                    validTo: toString(n.validTo)} AS node
"""

FORESIGHTS = """
UNWIND $keys AS k
MATCH (n:Foresight) WHERE elementId(n) = k AND n.tenant = $tenant
OPTIONAL MATCH (m:MemCell)-[:PREDICTS]->(n)
RETURN k AS key, n {.id, .text, .trigger, .kind, .status, .conversationId, .groupId,
                    memCellId: m.id, validFrom: toString(n.validFrom),
                    validTo: toString(n.validTo), endedAt: toString(n.endedAt),
                    endedBy: COLLECT { MATCH (n)-[:ENDED_BY]->(u:Turn)
                                       RETURN u {.id, .conversationId, .speaker, .content, .userId,
                                                 .memCellId, at: toString(u.at)} }[0],
                    concerns: """ + CONCERNS + """} AS node
"""

# A scene is its group's; asked for one user's memories ($userId), its consensus is rewritten
# from that user's current facts in it (read from the user's latest episodes in the scene, as
# the stored consensus reads the scene's), so a team channel's scene does not answer Jun with
# what Marco and Priya said. Asked as of a moment ($asOf), from the facts true then: the stored
# consensus says what is true now, and "What was the plan in October?" was answered with the
# day it moved to in November. Null with neither.
SCENES = """
UNWIND $keys AS k
MATCH (n:MemScene) WHERE elementId(n) = k AND n.tenant = $tenant
RETURN k AS key, n {.id, .topic, .consensus, .status, .groupId, .cells,
                    startedAt: toString(n.startedAt), endedAt: toString(n.endedAt),
                    createdAt: toString(n.createdAt), updatedAt: toString(n.updatedAt),
                    userFacts: CASE WHEN $userId IS NULL AND $asOf IS NULL THEN null ELSE COLLECT {
                      MATCH (n)-[:INCLUDES]->(m:MemCell {status: 'active'})
                      WHERE $userId IS NULL OR $userId IN m.userIds
                      WITH m ORDER BY m.startedAt DESC, m.id LIMIT $userCells
                      MATCH (m)-[:HAS_FACT]->(f:Fact)
                      WHERE coalesce(f.forgotten, false) = false
                        AND CASE WHEN $asOf IS NULL THEN f.status = 'current'
                                 ELSE f.status IN ['current', 'superseded'] AND f.validFrom <= $asOf
                                      AND (f.validTo IS NULL OR f.validTo > $asOf) END
                        AND ($userId IS NULL OR EXISTS { (f)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId = $userId })
                      RETURN f {.text, .singleValued, .confidence, validFrom: toString(f.validFrom)}
                    } END} AS node
"""

# The latest episodes in a scene whose facts make its consensus for a user or a moment.
USER_CELLS = 20

BY_KIND = {"turn": TURNS, "memcell": CELLS, "fact": FACTS, "foresight": FORESIGHTS, "scene": SCENES}


def _one_query(kinds: tuple[str, ...]) -> str:
    # One round trip for every kind of a result (a search's last step, on its critical path).
    parts = [BY_KIND[k].replace("$keys", f"$keys_{k}").strip() for k in kinds]
    return "CALL () {\n" + "\nUNION ALL\n".join(parts) + "\n}\nRETURN key, node"


async def hydrate(graph: TenantGraph, keys_by_kind: dict[str, list[str]],
                  user_id: str | None = None, as_of: datetime | None = None) -> dict[str, dict]:
    """{key: node payload} for every key that still exists (evidence turns under kind 'turn');
    `user_id` and `as_of`: the search's, whose facts a scene's consensus then holds."""
    kinds = tuple(sorted(k for k, keys in keys_by_kind.items() if keys))
    if not kinds:
        return {}
    scoped = {"userId": user_id, "asOf": as_of, "userCells": USER_CELLS} if "scene" in kinds else {}
    rows = await graph.read_rows(_one_query(kinds), ("key", "node"), **scoped,
                                 **{f"keys_{k}": keys_by_kind[k] for k in kinds})
    return {r["key"]: _user_consensus(_turn_flags(_with_times(r["node"]))) for r in rows}


def _user_consensus(node: dict) -> dict:
    """A scene's consensus as its user's facts say it, or those true at the moment asked about."""
    facts = node.pop("userFacts", None)
    if facts is not None:
        for f in facts:
            _with_times(f)
        node["consensus"] = consensus(SceneFacts(facts, False, False))
    return node


def _with_times(node: dict) -> dict:
    for f in TIMES:
        v = node.get(f)
        if isinstance(v, str):
            node[f] = datetime.fromisoformat(v.split("[", 1)[0])
    if node.get("endedBy"):  # a foresight's: the turn that ended it
        _with_times(node["endedBy"])
    return node

