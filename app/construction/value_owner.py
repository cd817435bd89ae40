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

import re
from typing import Awaitable, Callable

from app.construction.entity_resolution import normalize_key, thing_key

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


# A sum someone accepted or agreed to: "She accepted £880 from 1 October, 12 month term", told of
# Priya Nair, whose rent was £850. Said so, it is an act ("Priya | accepted | £880 , 12 month
# term"), on no timeline, and the £850 stayed current. When its subject holds one sum, current,
# on one timeline of its group, the sum accepted is that timeline's new value (supersession ends
# the old); with two ("rent is" and "deposit is") nothing says which, and it stays an act.
_ACCEPTED = re.compile(r"(?:accepted|agreed(?:\s+to|\s+on)?|settled\s+on|signed\s+(?:up\s+)?(?:for|at))", re.I)
_FIRST_SUM = re.compile(r"^\s*(?:a\s+|the\s+)?(?P<sum>[£$€]\s?\d[\d,]*(?:\.\d+)?(?:\s?k\b)?)", re.I)

SUMS_HELD = """
UNWIND $asks AS a
MATCH (f:Fact {tenant: $tenant, subjectKey: a.subjectKey})
WHERE f.predicate IS NOT NULL  // (the composite timeline index: tenant, subjectKey, predicate)
  AND f.status = 'current' AND coalesce(f.forgotten, false) = false AND f.singleValued
  AND f.validFrom < a.at AND f.object =~ '[£$€]\\\\s?\\\\d.*'
  AND coalesce(f.groupId, '') = coalesce(a.groupId, '')
RETURN a.i AS i, collect(DISTINCT f.predicate) AS predicates
"""


async def adopt_accepted(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each sum accepted (of `facts`, the writer's rows) the new value of the one sum its
    subject holds; mutates the rows. Returns the indexes of the rows changed."""
    sums = {i: m.group("sum") for i, f in enumerate(facts)
            if _ACCEPTED.fullmatch(f["predicate"]) and not f.get("ends")
            and (m := _FIRST_SUM.match(str(f.get("object") or ""))) is not None}
    if not sums:
        return []
    asks = [{"i": i, "subjectKey": facts[i]["subjectKey"], "groupId": facts[i].get("groupId"),
             "at": facts[i]["statedAt"]} for i in sums]
    changed = []
    for row in await read(SUMS_HELD, asks=asks):
        if len(row["predicates"]) != 1:
            continue
        f = facts[row["i"]]
        f.update(predicate=row["predicates"][0], object=sums[row["i"]],
                 objectKey=normalize_key(sums[row["i"]]), singleValued=True)
        changed.append(row["i"])
    return changed
