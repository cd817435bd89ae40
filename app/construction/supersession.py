"""Supersession: a newer value of a single-valued fact (lives in, works at, job, relationship
status...) closes the older one. Both stay in the graph: the old one with status 'superseded',
validTo set and a SUPERSEDED_BY edge to its replacement, so "what was true then" stays answerable.

The values of one (subject, predicate) form a timeline ordered by when each became true. Each
fact is valid until the next fact of another value begins; a value said again (a restatement)
ends nothing and is current beside the first saying. New facts are placed on the stored
timeline wherever they fall, so a statement about the past arriving late ("In February I lived
in Rome") splits the interval it falls into instead of overlapping it.
"""
from __future__ import annotations

import re
from typing import Awaitable, Callable

from app.store.moments import rewritable

# Every value the timeline holds: superseded ones too, for facts that fall into the past, and
# the statements that ended a value without a new one ("I quit my job": `ends` names the
# predicate). Forgotten facts are out of it (retention took them away). Values of a predicate
# that is not single-valued come too (`single`): read only to reopen one whose end a forget
# deletes (restitch).
TIMELINES = """
UNWIND $pairs AS p
CALL (p) {
  MATCH (f:Fact {tenant: $tenant, subjectKey: p.subjectKey, predicate: p.predicate}) RETURN f
  UNION
  MATCH (f:Fact {tenant: $tenant, subjectKey: p.subjectKey, ends: p.predicate}) RETURN f
}
WITH p, f WHERE f.status IN ['current', 'superseded'] AND coalesce(f.forgotten, false) = false
OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(n:Fact)
RETURN f.id AS id, p.subjectKey AS subjectKey, p.predicate AS predicate, f.objectKey AS objectKey,
       f.ends IS NOT NULL AS ends, coalesce(f.singleValued, false) AS single, f.validFrom AS validFrom,
       f.validTo AS validTo, coalesce(f.statedAt, f.validFrom) AS statedAt, collect(n.id) AS next
"""


async def plan_supersession(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[dict]:
    """Decide which facts each new single-valued fact closes. Mutates `facts` (status, validTo,
    and validFrom for a fact dated only by its day that lands after a value said that day);
    returns {oldId, newId, at} rows for the writer. `read`: the writer's transaction's, after it
    took the tenant's write lock (app/construction/writer.py), so two runs writing a new value of
    the same thing at once do not both close the old one."""
    single = [f for f in facts if (f["singleValued"] or f.get("ends")) and f["subjectKey"]
              and f.get("status") != "retracted"]  # (a value taken back is on no timeline: local/slips.py)
    if not single:
        return []
    stored = await _stored(read, {_timeline_of(f) for f in single})
    new: dict[tuple[str, str], list[dict]] = {}
    for f in single:
        new.setdefault(_timeline_of(f), []).append(f)
    out: list[dict] = []
    for k, batch in new.items():
        out.extend(_replan(stored.get(k, []), batch))
    return out


async def restitch(read: Callable[..., Awaitable[list[dict]]], pairs: set[tuple[str, str]],
                   gone: frozenset[str] = frozenset()) -> tuple[list[dict], list[str]]:
    """The stored timelines of (subjectKey, predicate) `pairs` planned again from what they hold
    now, after facts moved between timelines (an entity split or merged by hand:
    entity_edits.py): the {oldId, newId, at} rows of values whose successor changed, for the
    writer's SUPERSEDE, and the ids of superseded values nothing on their timeline ends any
    more, current again. `gone`: facts about to be deleted (a forget), planned as if they were."""
    rows: list[dict] = []
    reopen: list[str] = []
    for line in (await _stored(read, pairs)).values():
        # a value closed by a fact that goes still names it in `next`: closed anew or reopened
        line = [e for e in line if e["id"] not in gone]
        # Values of a predicate that is not single-valued never end each other; one was closed
        # by a statement that it ended ("not allergic to peanuts any more", which is on no
        # timeline: foresight_ends.END_FACTS): current again only when that statement goes.
        multi = not any(e["single"] or e["ends"] for e in line)
        on_line = {e["id"] for e in line} | gone
        for e, succ in _successions(_placed(line, [])) if not multi else [(e, None) for e in line]:
            if succ is not None:
                rows.extend(_closing(e, succ))
            elif e["next"] and (set(e["next"]) <= gone or not multi and (e["single"] or set(e["next"]) <= on_line)):
                # (A value of a thing of several closed by what is on no timeline stays closed.)
                reopen.append(e["id"])
    return rows, reopen


async def _stored(read: Callable[..., Awaitable[list[dict]]],
                  pairs: set[tuple[str, str]]) -> dict[tuple[str, str], list[dict]]:
    """Each timeline's values: of a single-valued thing, its single-valued values and ends; of
    one that holds several, every value and end."""
    rows = await read(TIMELINES, pairs=[{"subjectKey": s, "predicate": p} for s, p in sorted(pairs)])
    stored: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        stored.setdefault((r["subjectKey"], r["predicate"]), []).append(
            {"id": r["id"], "objectKey": r["objectKey"], "ends": r["ends"], "single": r["single"],
             "validFrom": rewritable(r["validFrom"]), "validTo": rewritable(r["validTo"]),
             "statedAt": rewritable(r["statedAt"]), "next": sorted(r["next"]), "batch": None})
    for k, line in stored.items():
        # A thing of one value at a time: its values and the statements that one ended. One that
        # holds several ("takes" metformin and a statin): every value, each ended only by a
        # statement naming it ("switched him from metformin to insulin").
        if any(e["single"] for e in line):
            stored[k] = [e for e in line if e["single"] or e["ends"]]
    return {k: line for k, line in stored.items() if line}


def _timeline_of(f: dict) -> tuple[str, str]:
    """(subject, predicate) of the timeline a fact is on: a statement that a value ended is on
    the timeline of the predicate it ends."""
    return f["subjectKey"], f.get("ends") or f["predicate"]


def _replan(stored: list[dict], batch: list[dict]) -> list[dict]:
    # A value nothing later ends stays current.
    return [row for e, succ in _successions(_placed(stored, batch)) if succ is not None
            for row in _closing(e, succ)]


def _closing(e: dict, succ: dict) -> list[dict]:
    """The row that closes `e` where `succ` begins (none when stored so already); a new fact's
    status and end are set here."""
    # (A value revised before it began ends where it would have begun: it never held.)
    at = max(succ["validFrom"], e["validFrom"])
    if e["batch"] is None and e["validTo"] == at and e["next"] == [succ["id"]]:
        return []
    if e["batch"] is not None:
        e["batch"]["status"], e["batch"]["validTo"] = "superseded", at
    return [{"oldId": e["id"], "newId": succ["id"], "at": at}]


def _placed(stored: list[dict], batch: list[dict]) -> list[dict]:
    """The timeline: stored values and the batch's new ones, in the order they became true."""
    # Stored facts first at equal times (heard earlier); among those, the ones already ended at
    # that moment first (values of one moment, stored in the order they were said: by their
    # random ids, the replaced one could come last and end the one that replaced it); a batch's
    # facts in the order they were said, so which value ends current does not change between runs.
    line = sorted(stored, key=lambda e: (e["validFrom"], e["validTo"] is None,
                                         e["validTo"] or e["validFrom"], e["id"]))
    for f in batch:
        at = f["validFrom"]
        until = f.get("validFromUntil")
        if until is not None:
            # Dated only by its day (month, year): it may have begun after a value stated at a
            # time within that day, so it is not taken for an older statement arriving late.
            within = [e["validFrom"] for e in line if at <= e["validFrom"] <= until]
            if within:
                at = max(within)
                f["validFrom"] = at
        entry = {"id": f["id"], "objectKey": f["objectKey"], "ends": bool(f.get("ends")), "validFrom": at,
                 "single": bool(f.get("singleValued")), "validTo": None, "next": [], "batch": f,
                 "statedAt": f.get("statedAt") or f["validFrom"]}
        pos = len(line)
        while pos > 0 and line[pos - 1]["validFrom"] > at:
            pos -= 1
        line.insert(pos, entry)
    return line


def _successions(line: list[dict]) -> list[tuple[dict, dict | None]]:
    """Each value on the timeline with the first later fact that ends it (None: none does); a
    value said for a day ahead and revised before that day, with the value that revised it."""
    # The statement that a value ended stays true: nothing replaces it.
    out: list[tuple[dict, dict | None]] = []
    for j, e in enumerate(line):
        if e["ends"]:
            continue
        revision = next((r for r in line if _revises(r, e, line)), None) if _pending(e) else None
        out.append((e, revision if revision is not None else
                    next((n for n in line[j + 1:] if _ends(n, e) and not (_pending(n) and _revises(e, n, line))),
                         None)))
    return out


def _pending(e: dict) -> bool:
    """Whether `e` was said for a day ahead (only such a value may be revised before it holds)."""
    return e.get("statedAt") is not None and e["statedAt"] < e["validFrom"]


def _revises(r: dict, e: dict, line: list[dict]) -> bool:
    """Whether `r`, said after `e` was said for a day ahead and before that day, is a new value
    for it: "From 1 November Swallow goes down to £95" (8 October), then "done, Swallow is £110 a
    night for the winter now" (29 October). Placed by when they hold, £95 would end £110 on 1
    November; the later word wins. A value said before `e` ("Swallow is £120", still said on 20
    October) restates the one `e` replaces and revises nothing. Only values with a figure (prices,
    counts, codes, times): "I work at Amazon", said before a new job said to start on Monday, is
    the job that ends then as often as a change of plan."""
    said, begins = e.get("statedAt"), e["validFrom"]
    if (said is None or r.get("statedAt") is None or not said < r["statedAt"] < begins
            or r["validFrom"] >= begins or r["ends"] or not (r["single"] and e["single"])
            or r["objectKey"] == e["objectKey"] or not _has_figure(r["objectKey"])
            or not _has_figure(e["objectKey"])):
        return False
    return not any(p["objectKey"] == r["objectKey"] and p is not r and p.get("statedAt") is not None
                   and p["statedAt"] <= said for p in line)


def _has_figure(key: str | None) -> bool:
    return any(c.isdigit() for c in key or "")


# Whether a bill is paid, said of it beside its sum ("the water bill is £298.60", then "the water bill is
# paid, £298.60 went out today"): neither ends the other (the paid bill had been of no sum).
_PAYMENT_STATES = frozenset("paid unpaid overdue outstanding settled refunded".split())
_DAY_KEY = re.compile(r"\d{4} \d\d \d\d")  # (a day's: "due 2026 12 04" then "paid" is the same bill's news)


def _sum_and_state(a: dict, b: dict) -> bool:
    keys = {a["objectKey"] or "", b["objectKey"] or ""}
    return bool(keys & _PAYMENT_STATES) and any(_has_figure(k) and not _DAY_KEY.fullmatch(k) for k in keys)


# What a statement that a value ended names when it names none ("I quit my job", "I left the
# company": local/parse.py _ended).
UNNAMED_ENDS = frozenset({"", "job", "my job", "the job", "company", "the company", "home", "my home"})


def _ends(n: dict, e: dict) -> bool:
    """Whether `n`, later on the timeline, ends `e`'s value: another value does; so does a
    statement that a value ended, when it names this one or none ("I quit my job", "I left the
    company"). One naming something else ends nothing: "I left Riverside Runners because it's
    too far from Walthamstow now" is no move out of Walthamstow, whatever the club was typed."""
    if not n["ends"]:
        # Values of a thing that holds several at once ("takes" metformin and a statin) end
        # none of each other; only a statement that one ended does.
        return n["single"] and e["single"] and n["objectKey"] != e["objectKey"] and not _sum_and_state(n, e)
    return n["objectKey"] == e["objectKey"] or (n["objectKey"] or "") in UNNAMED_ENDS
