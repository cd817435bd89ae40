"""Day channel: the turns said on the day (or in the month) the query names, nearest first.

"What did Nate make on 9 November, 2022?" is answered by a turn of that day that may share no
word with the question and sit far from it in meaning ("Look at this homemade coconut ice
cream!"); the other channels rank every day's turns alike. When the query names an absolute
date (named_dates.py), this channel ranks the turns of that period by cosine to the query;
otherwise it sends nothing. The learned ranker weighs what it adds like any other channel's
ranking. Its query is its own, sent as soon as the query vector is there, not a part of the
search's vector query (channels/nearest.py): Neo4j runs one query on one thread, so as a part
its scoring added to that query's time (HYBRID p50 +10 ms for a dated question on a 100k-turn
tenant, +7 on its own), while beside it the two run on both cores; the round trip it costs
instead is paid by questions that name a date only.

The period is matched on each turn's own calendar day (`date(n.at)`: the day in the offset the
turn was stored with), found through the (tenant, at) index over a range widened by a day's
worth of offsets either side. A busy period is cut at SCAN turns (the first said), so the work
stays bounded whatever the tenant holds: `ORDER BY n.tenant, n.at` is the index's own order, so
Neo4j stops reading at the cut (ordering by `n.at` alone sorted every turn of the range:
~0.5 s for a month of a 100k-turn tenant), and only the turns kept read their embedding (a
cosine costs ~17 us, most of it reading the vector). 250 holds the busiest month of the LoCoMo
conversations (171 turns); on a 100k-turn tenant whose days hold 1,440 turns each, the query
takes 5.5 ms alone (9.8 with 500, 3.2 with 100), and a HYBRID search naming a day or a month
p50 16.5 ms against 13.3 for the same questions naming none (in process, one at a time, 150
questions each; 20.3 with 500).
"""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

from app.recollection import filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, VectorPart, candidates, holds
from app.recollection.named_dates import Period

SCAN = 250
# UTC-12 to UTC+14: an instant's calendar day is somewhere in this span around it.
_OFFSETS = timedelta(hours=14)

ON_DAY = f"""
MATCH (n:Turn) WHERE n.tenant = $tenant AND n.at >= $after AND n.at < $before
WITH n WHERE date(n.at) >= $first AND date(n.at) <= $last AND {filters.TURN}
WITH n ORDER BY n.tenant, n.at LIMIT $scan
WITH n, (1 + vector.similarity.cosine(n.embedding, $adapted)) / 2 AS score WHERE score IS NOT NULL
ORDER BY score DESC, n.at, elementId(n) LIMIT $limit
RETURN collect({{key: elementId(n), score: score, evidence: {EVIDENCE["turn"]}, holds: {holds('n')}}}) AS onDay
"""


def period_params(period: Period, depth: int) -> dict | None:
    """None for a period at the calendar's edge ("31 December 9999"), where the span around it
    does not exist (nobody said anything then)."""
    try:
        start = datetime.combine(period.first, time(), timezone.utc) - _OFFSETS
        end = datetime.combine(period.last + timedelta(days=1), time(), timezone.utc) + _OFFSETS
    except OverflowError:
        return None
    return {"after": start, "before": end, "first": period.first,
            "last": period.last, "scan": SCAN, "limit": depth}


class DayChannel:
    name = "day"

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        return []

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        period = ctx.named_period
        params = period_params(period, ctx.depth) if period is not None else None
        if params is None or "turn" not in ctx.request.kinds:
            return []
        record = await ctx.graph.read_one(ON_DAY, adapted=await ctx.adapted(), terms=ctx.words,
                                          **params, **ctx.filters)
        note = f"said {period.first:%d %B %Y}" + ("" if period.days == 1 else f" to {period.last:%d %B %Y}")
        return candidates("turn", record["onDay"], lambda r: note)
