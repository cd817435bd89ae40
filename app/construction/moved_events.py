"""An event moved, said only as "it": "The inspector was ill, and it's been moved again, now to Tuesday
1 December at 10:00", sessions after "Our health inspection is on 20 October". The extractor marks
the sentence's fact with the day (FactDraft.moves_to); here the group's current event day ("date
is") whose name the turn's words hold (an inspector's, the inspection) gets the new day, as a new
value on its timeline (supersession.py ends the old, and the plan told with it). With no event
named, the fact stays as said. Read in the writer's transaction under the tenant's write lock, as
corrections.py is."""
from __future__ import annotations

import re
from os.path import commonprefix
from typing import Awaitable, Callable

from app.construction import lexicon as lx
from app.construction.entity_resolution import normalize_key, thing_key
from app.construction.replacements import SAME_GROUP, take_over

# The group's event days current before the sentence (in a conversation of no group, those of no
# group), the latest first: read by the (tenant, predicate) index.
# ... and its deadlines, a thing's value ("chapter 3 draft due date | is"): by the (tenant, subjectHead) index.
EVENT_DAYS = """
UNWIND $asks AS a
CALL (a) {
  MATCH (f:Fact {tenant: $tenant, predicate: 'date is'}) RETURN f
  UNION
  MATCH (f:Fact {tenant: $tenant, subjectHead: a.deadlines}) WHERE f.predicate = 'is' AND f.singleValued RETURN f
}
WITH a, f
WHERE """ + SAME_GROUP + """
  AND f.status = 'current' AND coalesce(f.forgotten, false) = false AND f.validFrom < a.at
WITH a, f ORDER BY f.validFrom DESC
WITH a, collect({subject: f.subject, subjectKey: f.subjectKey, object: f.object, predicate: f.predicate,
                 about: [(f)-[r:ABOUT]->(e:Entity) | {key: e.key, role: r.role}]})[..40] AS found
RETURN a.i AS i, found
"""

_WORD = re.compile(r"[a-z][a-z'-]{3,}")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in lx.STOPWORDS}


def _shared(said: set[str], name: str) -> int:
    """How many words of an event's name the turn holds, by a common start of five letters or more
    ("inspector" and "inspection"), or whole ("tech", of "tech rehearsal")."""
    return sum(1 for w in _words(name) if any(w == s or len(commonprefix([w, s])) >= 5 for s in said))


async def adopt_moves(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each fact row marked `movesTo` the new day of the event its turn names; mutates the rows.
    Returns the indexes of the rows changed (their words are to be counted again)."""
    asks = [{"i": i, "groupId": f.get("groupId"), "at": f["statedAt"], "deadlines": thing_key("deadline", f.get("groupId"))}
            for i, f in enumerate(facts) if f.get("movesTo")]
    if not asks:
        return []
    changed = []
    for row in await read(EVENT_DAYS, asks=asks):
        f = facts[row["i"]]
        day = f.pop("movesTo")
        said = _words(f["text"])
        scored = [(_shared(said, c["subject"]), -k, c) for k, c in enumerate(row["found"]) if c["object"] != day]
        best = max(scored, key=lambda s: s[:2], default=None)
        if best is None or not best[0]:
            continue
        event = best[2]
        name = event["subject"]
        take_over(f, event, predicate=event["predicate"], object=day, objectKey=normalize_key(day), singleValued=True,
                  text=f"{name[:1].upper()}{name[1:]} moved to {day}: {f['text']}")
        changed.append(row["i"])
    for f in facts:
        f.pop("movesTo", None)
    return changed
