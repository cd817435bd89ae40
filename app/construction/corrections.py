"""A number said instead of another in an episode that said no value holding the old number:
"Sorry, I got Hannah's rent wrong. It's 995 not 975", a session after "She moves in on 8
December at 975 a month". The extractor marks the sentence's fact (FactDraft.corrects); here the
group's current single-valued fact said before it that holds the old number gets the new one, as
a new value on its timeline (supersession.py ends the old). With no such value, or more than one
that the sentence cannot tell apart, the fact stays as said. Read in the writer's transaction
under the tenant's write lock, as supersession is (within one episode the extractor does the same:
local/measures.py).

The old number told only in someone's words ("Gareth also said his lads will arrive at 8:30 each
morning", a `said` fact, on no timeline) or in a fact of no value ("Broadband is separate, £30 a
month, Hannah splits it"), weeks before "his lads can start at 8 instead of 8:30":
that saying ends where the correction's fact begins (`closings`: SUPERSEDED_BY the new fact), when
it shares the correction's words; the correction's fact stays as said. Both, when a value and a
saying hold the old number."""
from __future__ import annotations

import re
from typing import Awaitable, Callable

from app.construction.entity_resolution import normalize_key
from app.construction.local.text import held_number, put_instead
from app.construction.replacements import GROUP_FACTS
from app.store import term_stats

# The group's current values said before the correction that hold the old number, the latest
# first (in a conversation of no group, that conversation's): read by the (tenant, groupId) or
# (tenant, conversationId) index, not the tenant's every fact.
CANDIDATES = """
UNWIND $asks AS a
""" + GROUP_FACTS + """WITH a, f
WHERE f.status = 'current' AND coalesce(f.forgotten, false) = false
  // (not one ended since, in its own episode: "deposit of £40", then "sorry, deposit is £45 not £40")
  AND (f.validTo IS NULL OR f.validTo > a.at)
  AND (f.singleValued AND f.object CONTAINS a.old OR NOT f.singleValued AND f.text CONTAINS a.old)
  AND coalesce(f.statedAt, f.validFrom) < a.at
WITH a, f ORDER BY f.validFrom DESC
WITH a, collect({id: f.id, single: f.singleValued, subject: f.subject, subjectKey: f.subjectKey,
                 predicate: f.predicate, object: f.object, text: f.text, validFrom: f.validFrom,
                 about: [(f)-[r:ABOUT]->(e:Entity) | {key: e.key, role: r.role}]})[..20] AS found
RETURN a.i AS i, found
"""

# How many of a correction's words a saying that holds the old number shares to be the one it
# corrects: two ("home games ... kick off 10:30" and "home games kick off at 10am not 10:30"), not
# one (the "4" of "Mia said 4 of us are going" is no "£5 not 4" of the subs).
SAID_SHARES = 2

# ... or one, for a number of three digits or more ("so the total is £260 now, not £285", of "£285 in total,
# deposit of £45 due by 20 November") or a time off the hour and half hour ("pickup is now 7:45 not 8:15", of
# "Pickup 8:15 on Friday 15th January, they'll take us to the Mayflower terminal"): so rare, said of little else
_RARE_NUMBER = re.compile(r"[£$€]?\d(?:,?\d){2,}(?:\.\d+)?|\d{1,2}[:.](?!00|30)\d\d(?:\s?[ap]m)?")

_REPORTED = re.compile(r"^[A-Z][\w'-]*(?:\s[A-Z][\w'-]*)?\s(?:said|says|told)\b")


async def adopt_corrections(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each fact row marked `corrects` (old, new) the corrected value it names; mutates the
    rows. Returns the indexes of the rows changed (their words are to be counted again)."""
    asks = [{"i": i, "old": f["corrects"][0], "groupId": f.get("groupId"), "conversationId": f["conversationId"],
             "at": f["statedAt"]} for i, f in enumerate(facts) if f.get("corrects")]
    if not asks:
        return []
    # what the correction's turn says around it ("Sorry, I got Hannah's rent wrong. It's 995 not 975")
    # (not who said it: "Priya said ..." of Priya's every saying)
    told: dict[str, str] = {}
    for f in facts:
        told[f["turnIds"][0]] = f"{told.get(f['turnIds'][0], '')} {_REPORTED.sub('', f['text'])}"
    changed = []
    for row in await read(CANDIDATES, asks=asks):
        f = facts[row["i"]]
        old, new, *sayings_only = f.pop("corrects")
        number = held_number(old)
        # the sayings that hold the old number, sharing the correction's words: ended by it
        # (a saying's teller is a word it shares, "Showroom said 12 boxes"; not the one who corrects, whose
        # name the facts of their "I" and "we" all hold: "Hannah switched Hannah to Zen broadband")
        around = _content(told[f["turnIds"][0]]) - _content(f.get("speaker") or "")
        shares = 1 if _RARE_NUMBER.fullmatch(old) else SAID_SHARES
        f["closes"] = [{"oldId": c["id"], "newId": f["id"], "at": max(f["validFrom"], _native(c["validFrom"]))}
                       for c in row["found"] if not c["single"] and number.search(c["text"])
                       and len(around & _content(c["text"])) >= shares]
        # (a value read from the sentence itself, "order 15 boxes not 12", is on its own timeline)
        found = [] if sayings_only else [c for c in row["found"] if c["single"] and number.search(c["object"])]
        # the one it names most words of ("Hannah's rent"; the latest of equals), else the only one
        shared = [(len(around & _content(c["text"])), -k, c) for k, c in enumerate(found)]
        best = max(shared, key=lambda s: s[:2], default=None)
        # (not a value of nothing it says when a saying it does say holds the number)
        pick = best[2] if best and best[0] else (found[0] if len(found) == 1 and not f["closes"] else None)
        if pick is None:
            continue
        value = put_instead(pick["object"], old, new)
        text = put_instead(pick["text"], old, new)
        if _REPORTED.match(pick["text"]):
            # someone's words with the number swapped would be words no one said ("Maya said the
            # rent is going up Greenhill says £1,210", told by Tom): the value, plainly
            said = pick["subject"] if pick["predicate"] == "is" else f"{pick['subject']}'s {pick['predicate'][:-3]}"
            text = f"{said[:1].upper()}{said[1:]} is {value}, not {old}."
        f.update(subject=pick["subject"], subjectKey=pick["subjectKey"], predicate=pick["predicate"], object=value,
                 objectKey=normalize_key(value), text=text, singleValued=True,
                 ends=None, about=[dict(a) for a in pick["about"]])
        began = _native(pick["validFrom"])
        if began is not None and began > f["validFrom"]:
            # a value from a day ahead, corrected before that day ("Greenhill says £1,240 from 1
            # December", then "agreed to 1,210 instead of 1,240"): the new one from that day too
            f["validFrom"], f["validFromUntil"] = began, None
        changed.append(row["i"])
    for f in facts:
        f.pop("corrects", None)
    return changed


def closings(facts: list[dict]) -> list[dict]:
    """The {oldId, newId, at} rows of the sayings the batch's corrections end (adopt_corrections),
    for the writer's SUPERSEDE; none for a value taken back (slips.py). Left on the rows: a
    transaction run again finds them there (adopt_corrections has used the marks up)."""
    return [c for f in facts for c in f.get("closes") or () if f.get("status") != "retracted"]


_SAYING = frozenset(term_stats.query_terms("said says say told tells tell also", 16))


def _content(text: str) -> set[str]:
    """The words a text says something with: not its numbers, nor saying words."""
    return {w for w in term_stats.query_terms(text, 64) if w.isalpha() and w not in _SAYING}


def _native(moment):
    return moment.to_native() if hasattr(moment, "to_native") else moment
