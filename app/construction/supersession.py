"""Supersession: a newer value of a single-valued fact (lives in, works at, job, relationship
status...) closes the older one. Both stay in the graph: the old one with status 'superseded',
validTo set and a SUPERSEDED_BY edge to its replacement, so "what was true then" stays answerable.
"""
from __future__ import annotations

from typing import Awaitable, Callable

CURRENT_VALUES = """
UNWIND $pairs AS p
MATCH (f:Fact {tenant: $tenant, subjectKey: p.subjectKey, predicate: p.predicate})
WHERE f.singleValued AND f.status = 'current'
RETURN f.id AS id, f.subjectKey AS subjectKey, f.predicate AS predicate, f.objectKey AS objectKey,
       f.validFrom AS validFrom
"""


def _native(v):
    return v.to_native() if hasattr(v, "to_native") else v


async def plan_supersession(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[dict]:
    """Decide which facts each new single-valued fact closes. Mutates `facts` (status/validTo)
    for replacements inside the batch; returns {oldId, newId, at} rows for the writer. `read`:
    the writer's transaction's, after it took the tenant's write lock (app/construction/writer.py),
    so two runs writing a new value of the same thing at once do not both close the old one."""
    # In time order; facts of one moment in the order they were extracted (the conversation's),
    # never by their random ids, so which value ends current does not change from run to run.
    single = [f for _, f in sorted(((i, f) for i, f in enumerate(facts)
                                    if f["singleValued"] and f["subjectKey"]),
                                   key=lambda p: (p[1]["validFrom"], p[0]))]
    if not single:
        return []
    pairs = sorted({(f["subjectKey"], f["predicate"]) for f in single})
    rows = await read(CURRENT_VALUES, pairs=[{"subjectKey": s, "predicate": p} for s, p in pairs])
    # The current value per (subject, predicate): stored facts first, then this batch in time order.
    current: dict[tuple[str, str], dict] = {}
    for r in rows:
        k = (r["subjectKey"], r["predicate"])
        if k not in current or _native(r["validFrom"]) > current[k]["validFrom"]:
            current[k] = {"id": r["id"], "objectKey": r["objectKey"], "validFrom": _native(r["validFrom"]),
                          "batch": None}
    out: list[dict] = []
    for f in single:
        k = (f["subjectKey"], f["predicate"])
        cur = current.get(k)
        if cur and cur["objectKey"] == f["objectKey"]:
            continue  # the same value said again: it stays current, nothing to close
        if cur and cur["validFrom"] <= f["validFrom"]:
            out.append({"oldId": cur["id"], "newId": f["id"], "at": f["validFrom"]})
            if cur["batch"] is not None:
                cur["batch"]["status"], cur["batch"]["validTo"] = "superseded", f["validFrom"]
        elif cur:
            # An older statement arriving late: it was replaced before it was heard.
            f["status"], f["validTo"] = "superseded", cur["validFrom"]
            out.append({"oldId": f["id"], "newId": cur["id"], "at": cur["validFrom"]})
            continue
        current[k] = {"id": f["id"], "objectKey": f["objectKey"], "validFrom": f["validFrom"], "batch": f}
    return out
