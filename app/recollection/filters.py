"""Cypher WHERE fragments for the request's filters, one per node kind.

They are constants: every value arrives as a parameter ($groupId, $from, ...), never as text.
A null parameter switches its condition off. `params()` builds those parameters from a request.

Forgetting (app/lifecycle/retention.py) sets a MemCell's status to 'forgotten' and flags its
turns, facts and foresight `forgotten`; every kind here leaves those out.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

from app.recollection.request import SearchRequest

TURN = """
  ($groupId IS NULL OR n.groupId = $groupId)
  AND ($userId IS NULL OR n.userId = $userId)
  AND ($conversationId IS NULL OR n.conversationId = $conversationId)
  AND ($from IS NULL OR n.at >= $from) AND ($to IS NULL OR n.at <= $to)
  AND ($asOf IS NULL OR n.at <= $asOf)
  AND coalesce(n.forgotten, false) = false
"""

MEMCELL = """
  n.status = 'active'
  AND ($groupId IS NULL OR n.groupId = $groupId)
  AND ($userId IS NULL OR $userId IN n.userIds)
  AND ($conversationId IS NULL OR n.conversationId = $conversationId)
  AND ($from IS NULL OR n.endedAt >= $from) AND ($to IS NULL OR n.startedAt <= $to)
  AND ($asOf IS NULL OR n.startedAt <= $asOf)
"""


def holds(x: str) -> str:
    """`x` (a Fact or a RELATED edge) was true at $at: the moment asked about, asOf or now.
    Now is a moment like any other, not the latest value known: "I start at Globex on 1 June"
    (a fact that begins later) leaves Acme where Maya works until then, and a fact whose validity
    ended ("until 2015") is no longer current. Messages stamped ahead of the server's clock by
    more than a few minutes are refused (app/domain/models.py): a fact dated by its saying is
    hidden at most for that long."""
    return f"({x}.validFrom <= $at AND ({x}.validTo IS NULL OR {x}.validTo > $at))"


def held_during(x: str) -> str:
    """`x` was true at some time in the period the query names ($heldFrom to $heldTo, from
    named_dates.named_period; null without one): "Where did Maya work in October?" asks about
    October's job, superseded since; the job of now is still a candidate, as it is for any
    question."""
    return (f"($heldFrom IS NOT NULL AND {x}.validFrom < $heldTo "
            f"AND ({x}.validTo IS NULL OR {x}.validTo > $heldFrom))")


# Facts true now by default, or at some time of the period the query names; as of a moment:
# those true then (or in the period); includeSuperseded: all. From/to
# bound when a fact was said (its first evidence turn; facts written before statedAt existed
# were valid from then unless an LLM dated them), not when it became true: "In 2015 I moved to
# Paris", said last week, is in last week's conversation.
FACT = f"""
  ($groupId IS NULL OR n.groupId = $groupId)
  AND ($conversationId IS NULL OR n.conversationId = $conversationId)
  AND ($from IS NULL OR coalesce(n.statedAt, n.validFrom) >= $from)
  AND ($to IS NULL OR coalesce(n.statedAt, n.validFrom) <= $to)
  AND ($includeSuperseded OR (n.status IN ['current', 'superseded'] AND ({holds("n")} OR {held_during("n")})))
  AND ($userId IS NULL OR EXISTS {{ (n)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId = $userId }})
  AND coalesce(n.forgotten, false) = false
"""

# Active at the moment asked about (asOf, else now). gc retires foresight whose validTo has
# passed; the window already keeps it from `now`, and a question asked as of a moment inside
# its window still sees it, as the graph was then. Of a user: said by them, as facts are; from/to
# bound when it was said (its evidence turns), as for every other kind.
FORESIGHT = """
  n.status IN ['active', 'retired'] AND coalesce(n.forgotten, false) = false
  AND ($groupId IS NULL OR n.groupId = $groupId)
  AND ($conversationId IS NULL OR n.conversationId = $conversationId)
  AND (n.validFrom IS NULL OR n.validFrom <= $at) AND (n.validTo IS NULL OR n.validTo >= $at)
  AND ($userId IS NULL OR EXISTS { (n)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId = $userId })
  AND (($from IS NULL AND $to IS NULL) OR EXISTS { (n)-[:EVIDENCED_BY]->(t:Turn)
       WHERE ($from IS NULL OR t.at >= $from) AND ($to IS NULL OR t.at <= $to) })
"""

BY_KIND = {"turn": TURN, "memcell": MEMCELL, "fact": FACT, "foresight": FORESIGHT}

# The filters that scope a search to part of the tenant: the indexes hold them, so a scoped
# search reads its scope's nodes, not the tenant's nearest or best matching then filtered
# (app/store/vector.py INDEX_SCOPES, channels/keyword.py SCOPES).
SCOPES = ("conversationId", "groupId", "userId")


def scoped(params: dict) -> frozenset[str]:
    """The scope filters `params` (from params() below) give a value."""
    return frozenset(p for p in SCOPES if params.get(p) is not None)


def params(req: SearchRequest) -> dict:
    return {
        "groupId": req.group_id, "userId": req.user_id, "conversationId": req.conversation_id,
        "from": req.time_from, "to": req.time_to, "asOf": req.as_of, "at": req.at,
        "includeSuperseded": req.include_superseded, "heldFrom": None, "heldTo": None,
    }


def held_until_now() -> dict:
    """$heldFrom and $heldTo for a question after a value held earlier, with no date: any time
    until now (a value replaced since is a candidate, as in a period a query names)."""
    return {"heldFrom": datetime(1970, 1, 1, tzinfo=timezone.utc), "heldTo": datetime.now(timezone.utc)}


def held_params(period) -> dict:
    """$heldFrom and $heldTo for a named_dates.Period: its first day's start to its last day's end,
    in UTC (the period's days are read in the client's offset; a day's worth either way is as
    near as a fact's validity, dated by its saying, comes)."""
    none = {"heldFrom": None, "heldTo": None}
    if period is None:
        return none
    start = datetime.combine(period.first, time(), timezone.utc)
    try:
        return {"heldFrom": start, "heldTo": start + timedelta(days=period.days)}
    except OverflowError:  # a period ending on 31 December 9999: no time after it to bound
        return none
