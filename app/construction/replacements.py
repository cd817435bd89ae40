"""Someone's replacement takes over what they held: "Tom Ashby is leaving Brightline, his replacement
is Priya Nair", sessions after "My contact at Brightline Coffee is Tom Ashby", makes Priya Nair
the contact (a new value on that timeline: supersession.py ends Tom's). The extractor reads the
sentence as the fact (Tom Ashby | replacement is | Priya Nair); here the group's current
single-valued fact said before it whose value is the one replaced becomes the new holder's. With
none, or more than one that it cannot tell apart, the fact stays as said. Read in the writer's
transaction under the tenant's write lock, as corrections.py is."""
from __future__ import annotations

from typing import Awaitable, Callable

from app.construction.entity_resolution import normalize_key

PREDICATE = "replacement is"

# The group's current values held by the one replaced (in a conversation of no group, that
# conversation's), the latest first: read by the (tenant, groupId) or (tenant, conversationId) index.
HELD = """
UNWIND $asks AS a
CALL (a) {
  MATCH (f:Fact {tenant: $tenant, groupId: a.groupId}) RETURN f
  UNION
  MATCH (f:Fact {tenant: $tenant, conversationId: a.conversationId}) WHERE a.groupId IS NULL AND f.groupId IS NULL
  RETURN f
}
WITH a, f
WHERE f.singleValued AND f.status = 'current' AND coalesce(f.forgotten, false) = false
  AND f.objectKey = a.heldBy AND f.predicate <> $predicate AND f.validFrom < a.at
WITH a, f ORDER BY f.validFrom DESC
WITH a, collect({subject: f.subject, subjectKey: f.subjectKey, predicate: f.predicate,
                 about: [(f)-[r:ABOUT]->(e:Entity) | {key: e.key, role: r.role}]})[..5] AS found
RETURN a.i AS i, found
"""


async def adopt_replacements(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each "replacement is" fact row the value its new holder takes over; mutates the rows.
    Returns the indexes of the rows changed (their words are to be counted again)."""
    asks = [{"i": i, "heldBy": normalize_key(f["subject"]), "groupId": f.get("groupId"),
             "conversationId": f["conversationId"], "at": f["statedAt"]}
            for i, f in enumerate(facts) if f["predicate"] == PREDICATE and f["singleValued"]]
    if not asks:
        return []
    changed = []
    for row in await read(HELD, asks=asks, predicate=PREDICATE):
        # one value held, or several of one timeline; two posts of the one replaced are not told apart
        if not row["found"] or len({(c["subjectKey"], c["predicate"]) for c in row["found"]}) != 1:
            continue
        f, held = facts[row["i"]], row["found"][0]
        old, new = f["subject"], f["object"]
        said = held["subject"] if held["predicate"] == "is" else f"{held['subject']}'s {held['predicate'][:-3]}"
        subject_roles = [dict(a) for a in held["about"] if a["role"] == "subject"]
        f.update(subject=held["subject"], subjectKey=held["subjectKey"], predicate=held["predicate"],
                 text=f"{said[:1].upper()}{said[1:]} is {new}, {old}'s replacement.",
                 about=subject_roles + [a for a in f["about"] if a["role"] != "subject"], ends=None)
        changed.append(row["i"])
    return changed
