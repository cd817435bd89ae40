"""The calendar days a query names: "on 9 November, 2022", "in January 2024", "2023-05-07".

A question that names a date asks about what was said then ("What did Tim say about his injury
on 16 November, 2023?"), whatever words the answer uses, so the day channel
(channels/day.py) brings that period's turns. Absolute dates with a year: a day (day-month-
year, month-day-year, ISO) or a whole month (month and year); several named: the period from
the first to the last, at most MAX_DAYS long (longer spans say "between these", not "on this
day", and are left to the other channels). Bare years and seasons are left out: too wide to
single out turns.

With no absolute date, the relative ones an agent's user says of their own conversation:
"today", "yesterday", "this week", "last week" (Monday to Sunday), "this month", "last month",
counted from the day the question is asked about (asOf, else now, in the offset it was given
in: UTC unless the client said otherwise). An absolute date wins: "the week before 16 November
2023" is about that November, not about now.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

MAX_DAYS = 62

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_MONTH = r"(?P<{}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{}>(?:1[89]|2\d)\d\d)"
_SEP = r"(?:,\s*|\s+)"  # "1 May 2023", "1 May, 2023", "December 1,2023"

_FORMS = [
    re.compile(rf"\b(?P<iy>(?:1[89]|2\d)\d\d)-(?P<im>[01]\d)-(?P<id>[0-3]\d)\b"),
    re.compile(rf"\b{_DAY.format('ad')}(?:\s+of)?\s+{_MONTH.format('am')}{_SEP}{_YEAR.format('ay')}\b"),
    re.compile(rf"\b{_MONTH.format('bm')}\s+{_DAY.format('bd')}{_SEP}{_YEAR.format('by')}\b"),
    re.compile(rf"\b{_MONTH.format('cm')}{_SEP}{_YEAR.format('cy')}\b"),
]


@dataclass(frozen=True)
class Period:
    first: date
    last: date  # inclusive

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1


def _periods(text: str):
    taken: list[tuple[int, int]] = []
    for form in _FORMS:
        for m in form.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue  # "7 May 2023" is not also "May 2023"
            g = {k[1:]: v for k, v in m.groupdict().items() if v is not None}
            month = int(g["m"]) if g["m"].isdigit() else _MONTHS[g["m"].lower()]
            year = int(g["y"])
            try:
                if "d" in g:
                    day = date(year, month, int(g["d"]))
                    found = Period(day, day)
                else:
                    first = date(year, month, 1)
                    found = Period(first, date(year, month, calendar.monthrange(year, month)[1]))
            except ValueError:  # 31 February, month 13: not a date
                continue
            taken.append((m.start(), m.end()))
            yield found


_RELATIVE = re.compile(r"\b(today|yesterday|(?:this|last) (?:week|month))\b")


def _month_of(d: date) -> Period:
    return Period(d.replace(day=1), d.replace(day=calendar.monthrange(d.year, d.month)[1]))


def relative_period(phrase: str, today: date) -> Period:
    if phrase == "today":
        return Period(today, today)
    if phrase == "yesterday":
        return Period(today - timedelta(days=1), today - timedelta(days=1))
    if phrase.endswith("week"):
        monday = today - timedelta(days=today.weekday()) - timedelta(weeks=phrase.startswith("last"))
        return Period(monday, monday + timedelta(days=6))
    if phrase == "this month":
        return _month_of(today)
    return _month_of(today.replace(day=1) - timedelta(days=1))  # last month


def named_period(text: str, today: date | None = None) -> Period | None:
    """The days the query names, or None (no date; dates too far apart). Relative phrases count
    from `today`, and only without an absolute date."""
    lowered = text.lower()
    found = list(_periods(lowered))
    if not found and today is not None:
        found = [relative_period(m[1], today) for m in _RELATIVE.finditer(lowered)]
    if not found:
        return None
    period = Period(min(p.first for p in found), max(p.last for p in found))
    return period if period.days <= MAX_DAYS else None
