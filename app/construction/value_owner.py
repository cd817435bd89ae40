"""Whose a value said of no one is: "The boiler is working again now", "Key safe code changed to
9902", said episodes after "the boiler at Elm Road has broken again" or "the key safe code at
Maple Court is 4471". Said alone, such a value is its group's thing ("boiler@lettings | is"),
on a timeline of its own beside the owner's ("Elm Road | boiler is"), and the old value stayed
current. When the group holds that attribute, current, of exactly one owner, the value is that
owner's: it goes on the owner's timeline and supersession (supersession.py) ends the old value.
With two owners ("the boiler" of Elm Road and of Oak Street) it stays the group's. Within one
episode the extractor does the same (local/measures.py); this is the same rule across episodes,
read in the writer's transaction under the tenant's write lock, as supersession is."""
from __future__ import annotations

from typing import Awaitable, Callable

from app.construction.entity_resolution import thing_key

# The current owners of each attribute in its group, by the (tenant, predicate) index.
OWNERS = """
UNWIND $asks AS a
MATCH (f:Fact {tenant: $tenant, predicate: a.predicate})
WHERE f.status = 'current' AND coalesce(f.forgotten, false) = false
  AND coalesce(f.groupId, '') = coalesce(a.groupId, '')
WITH a, f, [(f)-[:ABOUT {role: 'subject'}]->(e:Entity) | e.key][0] AS entity
RETURN a.i AS i, collect(DISTINCT {key: f.subjectKey, name: f.subject, entity: entity}) AS owners
"""


def _ownerless(f: dict) -> bool:
    """A value of the group's thing: "<attribute> | is | <value>", its subject no entity."""
    return (f["predicate"] == "is" and f["singleValued"] and not f.get("ends")
            and f["subjectKey"] == thing_key(f["subject"], f.get("groupId"))
            and not any(a["role"] == "subject" for a in f["about"]))


async def adopt_owners(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> int:
    """Give each ownerless value (of `facts`, the writer's rows) the one owner its group has for
    its attribute; mutates the rows (subject, subjectKey, predicate, about). Returns how many."""
    asks = [{"i": i, "predicate": f"{f['subject']} is", "groupId": f.get("groupId")}
            for i, f in enumerate(facts) if _ownerless(f)]
    if not asks:
        return 0
    adopted = 0
    for row in await read(OWNERS, asks=asks):
        owners = row["owners"]
        if len(owners) != 1:
            continue
        f, owner = facts[row["i"]], owners[0]
        f["predicate"] = f"{f['subject']} is"
        f["subject"], f["subjectKey"] = owner["name"], owner["key"]
        # The owner's timeline key is its group's ("elm road@lettings"); its ABOUT edge, its entity.
        if owner["entity"] and all(a["key"] != owner["entity"] for a in f["about"]):
            f["about"].insert(0, {"key": owner["entity"], "role": "subject"})
        adopted += 1
    return adopted
