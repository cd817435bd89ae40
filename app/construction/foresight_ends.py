"""Foresight that a later statement ends, and the facts that stated it (ForesightEndDraft: "I'm
not vegan any more", "we called off the Tokyo trip"), in the writer's transaction under the
tenant's write lock (writer.write_batch). Undone by forgetting the turn that said it
(app/lifecycle/forget.py UNEND_FORESIGHT, and restitch for the facts)."""
from __future__ import annotations

import re

from app.store import term_stats
from app.store.graph import TenantTx

# A later statement that a constraint or plan no longer holds ("I'm not vegan any more", "we
# called off the Tokyo trip": ForesightEndDraft) ends that person's foresight of the kind (by
# the name its text begins with, or the entity it concerns: "Mel" ends Melanie's), active when
# it was said, in its group, whose text holds one of its words (ended_foresight: not the
# trigger, whose situations, "travel", "trip", many share): from then on it is not active
# (validTo); as of an earlier moment it still is. The end keeps what it replaced
# (plannedTo, restored when the turn that ended it is forgotten) and the turn (ENDED_BY).
END_CANDIDATES = """
UNWIND range(0, size($ends) - 1) AS i
WITH i, $ends[i] AS x
MATCH (f:Foresight {tenant: $tenant})
WHERE f.kind IN x.kinds AND f.status = 'active' AND coalesce(f.forgotten, false) = false
  // the team's, whoever of it planned it (ended_foresight: every word it needs): a plan its maker
  // said, not a third party's told by another ("Tom and Sophie are planning a trip to Oslo"); in
  // the group, or without one in the same conversation (not another user's trip of the tenant)
  // a day moved or corrected, whoever said it: a plan or deadline its text gives the old day
  AND ((x.day IS NOT NULL AND f.text CONTAINS x.day
        AND (x.groupId IS NOT NULL OR f.conversationId = x.conversationId))
       // (any other plan of the speaker's only when no day is said: "CLAIR extended the submission
       // deadline from 12 to 19 December" had ended a workshop plan that named CLAIR)
       OR x.day IS NULL AND ((coalesce(x.anyone, false)
                              AND (x.groupId IS NOT NULL OR f.conversationId = x.conversationId)
        AND EXISTS { (f)-[:EVIDENCED_BY]->(t:Turn {tenant: $tenant})
                     WHERE f.text STARTS WITH t.speaker + ' ' OR f.text STARTS WITH t.speaker + "'s "
                        // ("Ivy Lane moved Lena's dress fitting, it's now on ...", said by Lena)
                        OR (size(x.needs) > 0 AND f.text CONTAINS t.speaker + "'s " + x.needs[0]) })
       OR f.text STARTS WITH x.who + ' '
       // a to-do done by whoever said it was due ("The Halden brand guidelines are due on October
       // 23", then "I delivered the Halden brand guidelines", both Lena's)
       OR (x.done IS NOT NULL
           AND EXISTS { (f)-[:EVIDENCED_BY]->(t2:Turn {tenant: $tenant}) WHERE t2.speaker = x.who })
       OR toLower(f.text) STARTS WITH 'the ' + toLower(x.who) + ' '  // "The QBR is"
       OR EXISTS { (f)-[:CONCERNS]->(:Entity {tenant: $tenant, groupKey: $groupKey, key: x.whoKey}) }
       // "Sophie and Daniel are planning a trip": theirs together, called off by either.
       OR (f.text CONTAINS ' and ' + x.who + ' '
           AND size(split(split(f.text, ' and ' + x.who + ' ')[0], ' ')) <= 3
           AND NOT split(f.text, ' and ' + x.who + ' ')[0] =~ '.*[.,;:!?].*')))
  AND any(w IN x.terms WHERE w IN f.terms)
  AND f.validFrom < x.at AND (f.validTo IS NULL OR f.validTo > x.at)
  AND (f.groupId = x.groupId OR (f.groupId IS NULL AND x.groupId IS NULL))
RETURN i, f.id AS id, f.text AS text
"""

END_FORESIGHT = """
UNWIND $ended AS e
MATCH (f:Foresight {tenant: $tenant, id: e.id})
MATCH (t:Turn {tenant: $tenant, conversationId: e.conversationId, id: e.turnId})
WHERE f.validTo IS NULL OR f.validTo > e.at
SET f.plannedTo = f.validTo, f.validTo = e.at, f.endedAt = e.at
MERGE (f)-[:ENDED_BY]->(t)
RETURN count(DISTINCT f) AS ended
"""


# The facts that stated what ended ("Maya is allergic to peanuts", "Maya needs to renew her
# passport", from the turns the foresight came from) are closed by the fact that says it ended
# ("Maya is not allergic to peanuts anymore", "Maya renewed her passport", from the turn that
# ended it): both about whom it ended for, both holding one of its words. Such predicates are
# not single-valued: no timeline would close them.
END_FACTS = """
UNWIND $ended AS e
MATCH (fs:Foresight {tenant: $tenant, id: e.id})-[:EVIDENCED_BY]->(:Turn)<-[:EVIDENCED_BY]-(old:Fact)
WHERE old.tenant = $tenant
  // with a day moved, the facts that held it (a day's own fact too, when the move names the event
  // otherwise: "the Science Museum trip", then "the museum trip is now on the 28th, not the 27th"),
  // not the rest of what its turn said ("We hired Priya Shah. She starts on 19 October", then
  // "she now starts on 26 October, not the 19th": the hire stays)
  // ... and the day of a plan ended otherwise ("Aoife's next physio appointment | date is | 8
  // December", its plan ended by "Niall moved my appointment to ...")
  AND CASE WHEN e.day IS NOT NULL THEN old.text CONTAINS e.day
           ELSE old.subject = e.who OR old.subjectKey = e.whoTimeline OR old.predicate = 'date is'
                OR old.object =~ '\\d{4}-\\d{2}-\\d{2}' END
  AND (NOT coalesce(old.singleValued, false) OR e.day IS NOT NULL OR old.predicate = 'date is'
       OR old.object =~ '\\d{4}-\\d{2}-\\d{2}')
  // ... but not a sum told with the day ("Sofia has offered £835 rather than £850 if she can move
  // in on 8 November", then "she's asked to move in earlier, 1 November instead of the 8th": the
  // offer stands, only its day moved)
  AND NOT (e.day IS NOT NULL AND old.object =~ '.*[£$€¥]\\s?\\d.*')
  AND old.status = 'current' AND coalesce(old.forgotten, false) = false AND old.validFrom < e.at
  AND any(w IN e.terms WHERE w IN old.terms)
MATCH (new:Fact)-[:EVIDENCED_BY]->(:Turn {tenant: $tenant, conversationId: e.conversationId, id: e.turnId})
WHERE new.tenant = $tenant AND new <> old
  AND (new.subject = e.who OR new.subjectKey = e.whoTimeline OR e.day IS NOT NULL OR new.predicate = 'date is'
       OR new.object =~ '\\d{4}-\\d{2}-\\d{2}')
  AND any(w IN e.terms WHERE w IN new.terms)
WITH old, e, min(new.id) AS newId
RETURN DISTINCT old.id AS oldId, newId, e.at AS at
"""


# A day that changed on its timeline ("The Halden deadline moved to November 6" after "The Halden
# brand guidelines are due on October 23": "Halden | deadline is" superseded) ends the plan or
# deadline told with the old day, from the same turn and naming it: the new day is a foresight
# of its own, as does a day called off ("cancelled": "The Eastfield cup match on Saturday is
# cancelled"). (The moved-event rules of local/foresight_end.py read the event's name; here the
# timeline says which it was, whatever the words.) Kept as END_FORESIGHT keeps it (plannedTo,
# ENDED_BY), so forgetting the turn that moved it restores it.
DAY_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}")  # a value that is a day, as DAY_MOVED's =~ reads it
# The plans and deadlines told in the old value's turn with the old value, still ahead when the new one
# was said: ended by the new one's turn (what DAY_MOVED and VALUE_MOVED end, each with its own test).
_TOLD_WITH_OLD = """
MATCH (old)-[:EVIDENCED_BY]->(:Turn)<-[:EVIDENCED_BY]-(fs:Foresight {tenant: $tenant})
WHERE fs.kind IN ['plan', 'deadline'] AND coalesce(fs.forgotten, false) = false AND fs.text CONTAINS old.object
  AND fs.validFrom < s.at AND (fs.validTo IS NULL OR fs.validTo > s.at) AND {also}
MATCH (new)-[:EVIDENCED_BY]->(t:Turn)
WITH fs, s, head(collect(t)) AS t
SET fs.plannedTo = fs.validTo, fs.validTo = s.at, fs.endedAt = s.at
MERGE (fs)-[:ENDED_BY]->(t)
RETURN count(DISTINCT fs) AS ended
"""
DAY_MOVED = """
UNWIND $supersede AS s
MATCH (old:Fact {tenant: $tenant, id: s.oldId}), (new:Fact {tenant: $tenant, id: s.newId})
WHERE old.object =~ '\\d{4}-\\d{2}-\\d{2}' AND (new.object =~ '\\d{4}-\\d{2}-\\d{2}' OR new.object = 'cancelled')
  AND new.object <> old.object""" + _TOLD_WITH_OLD.replace("{also}", "true")


# ... and the day's twin, told in the very same words ("The Science Museum trip is on the 27th":
# "science museum trip | date is" and "Science Museum | trip is"), when one of them moves.
DAY_TWINS = """
UNWIND $supersede AS s
MATCH (old:Fact {tenant: $tenant, id: s.oldId}), (new:Fact {tenant: $tenant, id: s.newId})
WHERE old.object =~ '\\d{4}-\\d{2}-\\d{2}' AND new.object =~ '\\d{4}-\\d{2}-\\d{2}' AND new.object <> old.object
MATCH (old)-[:EVIDENCED_BY]->(:Turn)<-[:EVIDENCED_BY]-(twin:Fact {tenant: $tenant})
WHERE twin <> old AND twin.text = old.text AND twin.object = old.object AND twin.singleValued
  AND twin.status = 'current' AND coalesce(twin.forgotten, false) = false AND twin.validFrom < s.at
RETURN DISTINCT twin.id AS oldId, new.id AS newId, s.at AS at
"""


# ... and so for any other value replaced: the plan told with the old one, from its turn, that
# names it and not the new one ("Tom is on call in the week of 9 November", then "correction:
# Hana is on call this week": Tom's plan had stayed beside Hana's).
VALUE_MOVED = """
UNWIND $supersede AS s
MATCH (old:Fact {tenant: $tenant, id: s.oldId}), (new:Fact {tenant: $tenant, id: s.newId})
WHERE size(old.object) >= 3 AND new.object <> old.object AND old.singleValued""" + _TOLD_WITH_OLD.replace(
    "{also}", "NOT fs.text CONTAINS new.object")


_HANDED_IN = frozenset(term_stats.query_terms("deliver submit send finish complete file hand publish", 16))
_DUE_WORDS = frozenset(term_stats.query_terms("due deadline", 4))
_FINISHED = frozenset(term_stats.query_terms("finish complete", 4))


def ended_foresight(ends: list[dict], candidates: list[dict]) -> list[dict]:
    """END_FORESIGHT's rows: each candidate whose text names a word of its end (and, for a plan
    carried out, the doing: "renew" for "I renewed my passport"; and every word it needs)."""
    out: dict[str, dict] = {}
    for c in sorted(candidates, key=lambda c: c["i"]):  # the first said ends it
        x = ends[c["i"]]
        said = set(term_stats.query_terms(c["text"], 64))
        # (a deadline is done by handing in what was due: "I delivered the Halden brand guidelines"
        # ends "The Halden brand guidelines are due on October 23", whose text names no delivering)
        # (finishing is the doing of any plan: "I finished the ablation" ends "I'll rerun the ablation")
        done = (not x.get("done") or x["done"] in said or x["done"] in _FINISHED
                or (x["done"] in _HANDED_IN and said & _DUE_WORDS))
        if (c["id"] not in out and set(x["terms"]) & said and done
                and all(w in said for w in x.get("needs") or ())):
            out[c["id"]] = {"id": c["id"], "at": x["at"], "turnId": x["turnId"], "who": x["who"],
                            "whoKey": x.get("whoKey"), "whoTimeline": x.get("whoTimeline"),
                            "terms": x["terms"], "conversationId": x["conversationId"], "day": x.get("day")}
    return list(out.values())


async def end_foresight(tx: TenantTx, ends: list[dict]) -> tuple[int, list[dict]]:
    """(how many foresight ended, the {oldId, newId, at} rows that close their facts, for the
    writer's SUPERSEDE)."""
    ended = ended_foresight(ends, await tx.run(END_CANDIDATES, ends=ends))
    if not ended:
        return 0, []
    [row] = await tx.run(END_FORESIGHT, ended=ended)
    return row["ended"], await tx.run(END_FACTS, ended=ended)
