"""Day channel: the turns said on the day (or in the month) the query names, nearest first.

"What did Nate make on 9 November, 2022?" is answered by a turn of that day that may share no
word with the question and sit far from it in meaning ("Look at this homemade coconut ice
cream!"); the other channels rank every day's turns alike. When the query names an absolute
date (named_dates.py), this channel ranks the turns of that period by cosine to the query;
otherwise it sends nothing. It rides in the search's vector query (channels/nearest.py), and
the learned ranker weighs what it adds like any other channel's ranking.

The period is matched on each turn's own calendar day (`date(n.at)`: the day in the offset the
turn was stored with), found through the (tenant, at) index over a range widened by a day's
worth of offsets either side. A busy month is cut at SCAN turns (the first said), so the work
stays bounded whatever the tenant holds.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

from app.recollection import filters
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, VectorPart, candidates
from app.recollection.named_dates import Period
from app.store.vector import VectorQuery

SCAN = 2000
# UTC-12 to UTC+14: an instant's calendar day is somewhere in this span around it.
_OFFSETS = timedelta(hours=14)

_ON_DAY = f"""
MATCH (n:Turn) WHERE n.tenant = $tenant AND n.at >= $after AND n.at < $before
WITH n WHERE date(n.at) >= $first AND date(n.at) <= $last AND n.embedding IS NOT NULL AND {filters.TURN}
WITH n ORDER BY n.at LIMIT $scan
WITH n, (1 + vector.similarity.cosine(n.embedding, $vector)) / 2 AS score
ORDER BY score DESC, n.at, elementId(n) LIMIT $limit
RETURN collect({{key: elementId(n), score: score, evidence: {EVIDENCE["turn"]}}}) AS onDay
"""
# No vector index is asked (the period's turns are scored exactly), so both forms are one text.
ON_DAY = VectorQuery(_ON_DAY, _ON_DAY)


def period_params(period: Period, depth: int) -> dict:
    start = datetime.combine(period.first, time(), timezone.utc)
    end = datetime.combine(period.last + timedelta(days=1), time(), timezone.utc)
    return {"after": start - _OFFSETS, "before": end + _OFFSETS, "first": period.first,
            "last": period.last, "scan": SCAN, "limit": depth}


class DayChannel:
    name = "day"

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        period = ctx.named_period if "turn" in ctx.request.kinds else None
        return [VectorPart("onDay", ON_DAY, period_params(period, ctx.depth))] if period else []

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        if "onDay" not in ctx.parts:
            return []
        period = ctx.named_period
        note = f"said {period.first:%d %B %Y}" + ("" if period.days == 1 else f" to {period.last:%d %B %Y}")
        return candidates("turn", await ctx.nearest("onDay") or [], lambda r: note)
