"""The calendar days a query names: "on 9 November, 2022", "in January 2024", "last week".

A question that names a date asks about what was said then ("What did Tim say about his injury
on 16 November, 2023?"), whatever words the answer uses, so the day channel (channels/day.py)
brings that period's turns. The phrases are read by the resolver ingestion uses for turns
(app/construction/dates.py), against the day the question is asked about (asOf, else now, in
the offset it was given in: UTC unless the client said otherwise), tense taken as past (a
question about memory: "in June" is the last June).

Which readings count: a calendar date with its year, a day or a whole month ("2023-05-07",
"May 7, 2023", "January 2022"); failing one, a relative day, week, weekend or month ("today",
"yesterday", "last week", "this month", "3 days ago", "in June"), so that "the week before 16
November 2023" is about that November, not about now. Years and seasons are too wide to single
out turns and are left out. Several dates: the period from the first to the last, at most
MAX_DAYS long (a longer span says "between these", not "on this day", and is left to the other
channels).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from app.construction.dates import find_dates

MAX_DAYS = 62
ABSOLUTE = ("day", "month")
RELATIVE = ("day", "week", "weekend", "month")


@dataclass(frozen=True)
class Period:
    first: date
    last: date  # inclusive

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1


def _part_of_month(m) -> bool:
    """"early November", "late October 2023": days of a month, asked about as a month is."""
    return m.granularity == "span" and bool(re.match(r"(?i)(?:early|mid|late|(?:the\s+)?end\s+of)\b", m.phrase))


def named_period(text: str, today: date, prefer: str = "past") -> Period | None:
    """The days the query names, or None (no date it reads; dates too far apart). `prefer`:
    "future" reads "in June" and "this weekend" ahead (asks_ahead)."""
    mentions = find_dates(text, today, prefer=prefer)
    found = ([m for m in mentions if not m.relative and (m.granularity in ABSOLUTE or _part_of_month(m))]
             or [m for m in mentions if m.relative and (m.granularity in RELATIVE or _part_of_month(m))])
    if not found:
        return None
    period = Period(min(m.start for m in found), max(m.end for m in found))
    return period if period.days <= MAX_DAYS else None


# What is ahead, asked as such: "What is coming up for Daniel?", "Any plans this weekend?",
# "What should I remind Maya about this week?", "What's next on my schedule?", "What did I
# promise to do?", "What's on my plate?", "Any action items for Jun?".
# Not a request that names a plan ("Plan dinner for my sister's visit", "Remind me to call Tom"):
# there the foresight a trigger matches is the point.
_AGENDA = re.compile(
    r"\b(?:coming\s+up|upcoming|planned|plans|agenda|reminders?(?!\s+of\b)|deadlines?|what'?s\s+next|"
    r"(?:lies|what'?s|is)\s+ahead|(?:is|are|what'?s|anything)\s+(?:\w+\s+)?due(?!\s+to\b)|"
    r"on\s+(?:my|his|her|their|our|the|\w+['’]s)\s+(?:schedule|calendar|plate|list)|remind\s+\w+\s+about|"
    # what someone promised, asked as such ("What did I promise to do?"; not "the recipe Nate
    # promised to share", a thing of the past)
    r"(?:what|anything)\s+(?:did|do|does|have|has)\s+\S+(?:\s+\S+)?\s+(?:promised?|committed\s+to)|"
    r"to-?dos?|action\s+items?|(?:what|anything)\s+(?:do|does|did)\s+\w+\s+(?:still\s+)?"
    r"(?:have|need)\s+to\s+do|"
    # what to bear in mind for a time ahead ("What should we keep in mind for next week's prep?")
    r"(?:keep\s+in\s+mind|bear\s+in\s+mind|remember|watch\s+out|prepare|prep)\b[^?.!]{0,30}?\b"
    r"(?:next|this\s+coming|the\s+coming)\s+(?:week|weekend|month|few\s+days)|"
    # what we have on at a time ahead ("What jobs have we got next week?", "Do I have anything on
    # tomorrow?", "What's on this coming weekend?")
    r"(?:(?:have|has)\s+(?:we|i|you)\s+got|(?:do|does)\s+(?:we|i|you)\s+have|what'?s\s+on)\b[^?.!]{0,25}?"
    r"\b(?:next\s+(?:week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"this\s+coming\s+\w+|tomorrow))\b", re.IGNORECASE)


def asks_ahead(query: str) -> bool:
    """Whether `query` asks what is ahead: the foresight channel lists the plans and deadlines
    to come (channels/foresight.py, AGENDA), and the days it names are read ahead ("this
    weekend" asked on a Friday is the coming one)."""
    return bool(_AGENDA.search(query))
