"""A number said instead of another in an episode that said no value holding the old number:
"Sorry, I got Hannah's rent wrong. It's 995 not 975", a session after "She moves in on 8
December at 975 a month". The extractor marks the sentence's fact (FactDraft.corrects); here the
group's current single-valued fact said before it that holds the old number gets the new one, as
a new value on its timeline (supersession.py ends the old). With no such value, or more than one
that the sentence cannot tell apart, the fact stays as said. Read in the writer's transaction
under the tenant's write lock, as supersession is (within one episode the extractor does the same:
local/measures.py)."""
from __future__ import annotations

import re
from typing import Awaitable, Callable

from app.construction.entity_resolution import normalize_key
from app.construction.local.text import held_number
from app.store import term_stats

# The group's current values said before the correction that hold the old number, the latest
# first (in a conversation of no group, that conversation's): read by the (tenant, groupId) or
# (tenant, conversationId) index, not the tenant's every fact.
CANDIDATES = """
UNWIND $asks AS a
CALL (a) {
  MATCH (f:Fact {tenant: $tenant, groupId: a.groupId}) RETURN f
  UNION
  MATCH (f:Fact {tenant: $tenant, conversationId: a.conversationId}) WHERE a.groupId IS NULL AND f.groupId IS NULL
  RETURN f
}
WITH a, f
WHERE f.singleValued AND f.status = 'current' AND coalesce(f.forgotten, false) = false
  AND f.object CONTAINS a.old AND coalesce(f.statedAt, f.validFrom) < a.at
WITH a, f ORDER BY f.validFrom DESC
WITH a, collect({subject: f.subject, subjectKey: f.subjectKey, predicate: f.predicate, object: f.object,
                 text: f.text, validFrom: f.validFrom,
                 about: [(f)-[r:ABOUT]->(e:Entity) | {key: e.key, role: r.role}]})[..20] AS found
RETURN a.i AS i, found
"""




_REPORTED = re.compile(r"^[A-Z][\w'-]*(?:\s[A-Z][\w'-]*)?\s(?:said|says|told)\b")


async def adopt_corrections(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each fact row marked `corrects` (old, new) the corrected value it names; mutates the
    rows. Returns the indexes of the rows changed (their words are to be counted again)."""
    asks = [{"i": i, "old": f["corrects"][0], "groupId": f.get("groupId"), "conversationId": f["conversationId"],
             "at": f["statedAt"]} for i, f in enumerate(facts) if f.get("corrects")]
    if not asks:
        return []
    # what the correction's turn says around it ("Sorry, I got Hannah's rent wrong. It's 995 not 975")
    told: dict[str, str] = {}
    for f in facts:
        told[f["turnIds"][0]] = f"{told.get(f['turnIds'][0], '')} {f['text']}"
    changed = []
    for row in await read(CANDIDATES, asks=asks):
        f = facts[row["i"]]
        old, new = f.pop("corrects")
        number = held_number(old)
        found = [c for c in row["found"] if number.search(c["object"])]
        said = set(term_stats.query_terms(told[f["turnIds"][0]], 64)) - set(term_stats.query_terms(f"{old} {new}", 4))
        # the one it names most words of ("Hannah's rent"; the latest of equals), else the only one
        shared = [(len(said & set(term_stats.query_terms(c["text"], 64))), -k, c) for k, c in enumerate(found)]
        best = max(shared, key=lambda s: s[:2], default=None)
        pick = best[2] if best and best[0] else (found[0] if len(found) == 1 else None)
        if pick is None:
            continue
        value = number.sub(new, pick["object"], count=1)
        text = number.sub(new, pick["text"], count=1)
        if _REPORTED.match(pick["text"]):
            # someone's words with the number swapped would be words no one said ("Maya said the
            # rent is going up Greenhill says £1,210", told by Tom): the value, plainly
            said = pick["subject"] if pick["predicate"] == "is" else f"{pick['subject']}'s {pick['predicate'][:-3]}"
            text = f"{said[:1].upper()}{said[1:]} is {value}, not {old}."
        f.update(subject=pick["subject"], subjectKey=pick["subjectKey"], predicate=pick["predicate"], object=value,
                 objectKey=normalize_key(value), text=text, singleValued=True,
                 ends=None, about=[dict(a) for a in pick["about"]])
        began = pick["validFrom"].to_native() if hasattr(pick["validFrom"], "to_native") else pick["validFrom"]
        if began is not None and began > f["validFrom"]:
            # a value from a day ahead, corrected before that day ("Greenhill says £1,240 from 1
            # December", then "agreed to 1,210 instead of 1,240"): the new one from that day too
            f["validFrom"], f["validFromUntil"] = began, None
        changed.append(row["i"])
    for f in facts:
        f.pop("corrects", None)
    return changed
