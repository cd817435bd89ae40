"""Relative and explicit date resolution against a reference moment (a turn's timestamp).

Pure standard library, precompiled patterns, deterministic. The one entry point is
`find_dates(text, ref)`: every date phrase in `text`, resolved to a span of calendar days
(`start`..`end`, both inclusive; a single day has start == end) in the reference's own time
zone, with a `direction` relative to the reference day.

Conventions (English has no single reading for some of these; these are the ones used here):

* weeks run Monday..Sunday; "last week" is the whole previous week, "next week" the following one;
  "the past week" is the rolling seven days up to the reference day;
* "last Tuesday" is the most recent Tuesday strictly before the reference day; "next Tuesday" the
  Tuesday of the following week (said on a Monday, eight days on: the day after would be
  "tomorrow" or "this Tuesday"), "coming Tuesday" the first Tuesday strictly after it; "this
  Tuesday" the Tuesday of the current week (moved on a week when that day is already over,
  unless the sentence is in the past tense);
  a bare "on Tuesday" follows `prefer` ('past' -> last, otherwise the upcoming one);
* "this weekend" is Saturday..Sunday of the current week (the one just gone when the sentence
  is in the past tense and said Monday..Friday), "last weekend" the one before it, "next
  weekend" the one after it;
* "N weeks/months/years ago" and "in N days/weeks/..." are single days (calendar arithmetic,
  clamped at month ends: 31 March minus one month is 28/29 February);
* a month or day-of-month without a year ("in June", "May 8th") takes the year that puts it
  nearest to the reference, unless `prefer` or a modifier ("last June", "next June") decides;
* seasons are meteorological, northern hemisphere (summer = June..August).
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Callable, Sequence

__all__ = [
    "DateMention",
    "HOURS_SPAN",
    "find_dates",
    "resolve_date",
    "render",
    "absolute_text",
    "inline_text",
    "add_months",
]

PAST, PRESENT, FUTURE = "past", "present", "future"
# Told in the past of a day most often just ahead ("asked to move their stay to 26 Sept", "cancelled
# their booking, 2-9 October"): a day or month within SOON_DAYS ahead is that one, any other the past's.
SOON = "soon"
SOON_DAYS = 62


@dataclass(frozen=True)
class DateMention:
    """One date phrase found in a text, resolved to a span of days."""

    phrase: str  # the text as written, e.g. "yesterday", "last week", "May 8, 2023"
    start: date
    end: date  # inclusive; == start for a single day
    direction: str  # past | present | future, relative to the reference day
    granularity: str = "day"  # day | week | weekend | month | season | year | span
    pos: int = 0  # offset of `phrase` in the searched text
    relative: bool = True  # False for explicit calendar dates ("2023-05-08", "8 May 2023")

    @property
    def end_pos(self) -> int:
        return self.pos + len(self.phrase)

    @property
    def is_single_day(self) -> bool:
        return self.start == self.end


# --------------------------------------------------------------------------------------------
# calendar helpers

def add_months(d: date, months: int) -> date:
    """`d` moved by whole months, the day clamped to the target month's length."""
    total = d.year * 12 + (d.month - 1) + months
    year, month = divmod(total, 12)
    month += 1
    if year < 1:
        return date(1, 1, 1)
    if year > 9999:
        return date(9999, 12, 31)
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def _month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _week_monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _ref_day(ref: datetime | date) -> date:
    if isinstance(ref, datetime):
        return ref.date()
    return ref


def _direction(start: date, end: date, ref: date) -> str:
    if end < ref:
        return PAST
    if start > ref:
        return FUTURE
    return PRESENT


# --------------------------------------------------------------------------------------------
# lexicons

_MONTHS_FULL = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}
_MONTHS_ABBR = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
    "oct": 10, "nov": 11, "dec": 12,
}
_MONTH_NAMES = [
    "", "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]
_WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "eighteen": 18, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3,
    "few": 3, "several": 3, "a half": 0,
}
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}

_M_FULL = "|".join(sorted(_MONTHS_FULL, key=len, reverse=True))
_M_ANY = "|".join(sorted(list(_MONTHS_FULL) + list(_MONTHS_ABBR), key=len, reverse=True))
_WD = "|".join(_WEEKDAYS)
_NUM = (
    r"\d{1,3}|a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|eighteen|twenty|"
    r"thirty|forty|fifty"
)
_UNIT = r"day|week|fortnight|month|year"
_ORD = r"(?:st|nd|rd|th)?"

_I = re.IGNORECASE

# cheap gate: nothing date-like in the text -> no pattern runs. Plain substring tests on the
# lower-cased text: a regex alternation of these words costs more than the patterns it saves.
# ("day" covers "in two days" / "two days from now", which the unit patterns resolve.)
_DIGIT = re.compile(r"\d")
_DIGITS = tuple("0123456789")
_PREFILTER_WORDS = (
    "day", "tonight", "tomorrow", "week", "month", "year", "ago", "fortnight", "night", "morning",
    "afternoon", "evening", "summer", "winter", "spring", "fall", "autumn",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)
_UNIT_WORDS = ("day", "week", "fortnight", "month", "year")
_MONTH_WORDS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _maybe_dates(text: str, low: str) -> bool:
    return _DIGIT.search(text) is not None or any(w in low for w in _PREFILTER_WORDS)


def number(word: str) -> int | None:
    """A count as written: "3", "two", "a couple of" (None: no count this reads)."""
    w = " ".join(word.lower().split())
    if w.isdigit():
        return int(w)
    return _NUMBER_WORDS.get(w)


def _unit_delta(d: date, unit: str, n: int) -> date:
    unit = unit.lower()
    if unit.startswith("day"):
        return d + timedelta(days=n)
    if unit.startswith("fortnight"):
        return d + timedelta(days=14 * n)
    if unit.startswith("week"):
        return d + timedelta(days=7 * n)
    if unit.startswith("month"):
        return add_months(d, n)
    return add_months(d, 12 * n)


def _year_for_month(month: int, ref: date, prefer: str | None, day: int | None = None) -> int:
    """The year for a month (and day) given without a year."""
    d = day or 15
    candidates = []
    for y in (ref.year - 1, ref.year, ref.year + 1):
        c = _safe_date(y, month, min(d, calendar.monthrange(y, month)[1]))
        if c is not None:
            candidates.append(c)
    if prefer == SOON:
        soon = [c for c in candidates if (c >= ref if day else (c.year, c.month) > (ref.year, ref.month))
                and c <= ref + timedelta(days=SOON_DAYS)]
        if soon:
            return soon[0].year
    if prefer in (PAST, SOON):
        past = [c for c in candidates if (c <= ref if day else (c.year, c.month) <= (ref.year, ref.month))]
        if past:
            return max(past).year
    elif prefer == FUTURE:
        fut = [c for c in candidates if (c >= ref if day else (c.year, c.month) >= (ref.year, ref.month))]
        if fut:
            return min(fut).year
    best = min(candidates, key=lambda c: (abs((c - ref).days), c))
    return best.year


# (a weekday cut short too: "away at Greenfield on Sat 24 Oct" was last year's 24 October)
_WD_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
             "sat": 5, "sun": 6}
_WD_BEFORE = re.compile(rf"\b({_WD}|{'|'.join(_WD_SHORT)})\b\.?,?\s+(?:the\s+)?$", _I)


def _year_of_weekday(text: str, start: int, month: int, day: int, ref: date, prefer: str | None = None) -> int | None:
    """The year, of last, this or next, in which `day` `month` falls on the weekday said right
    before it ("Saturday 8 May", said in September 2026: 2027's, its only Saturday of the three);
    None without a weekday or with none or two such years, or when that year's day lies on the
    other side of today than the sentence's tense says (a weekday said wrong: "she's moving her date
    to Wednesday 29 October", said on 7 October 2026, is the Thursday three weeks ahead, not 2025's)."""
    m = _WD_BEFORE.search(text, max(0, start - 16), start)
    if m is None or m.end() != start:
        return None
    wd = _WEEKDAYS.get(m.group(1).lower(), _WD_SHORT.get(m.group(1).lower()))
    years = [y for y in (ref.year - 1, ref.year, ref.year + 1)
             if (d := _safe_date(y, month, day)) is not None and d.weekday() == wd]
    if len(years) != 1:
        return None
    said = _safe_date(years[0], month, day)
    # (only when the tense's own day is near: a tense is read from the words, less surely than a weekday)
    near = [d for y in (ref.year - 1, ref.year, ref.year + 1) if (d := _safe_date(y, month, day)) is not None
            and abs((d - ref).days) <= 62 and (d >= ref if prefer == "future" else d <= ref)]
    if near and (prefer == "future" and said < ref or prefer == "past" and said > ref):
        return None
    return years[0]


def _season_span(name: str, year: int) -> tuple[date, date]:
    m = _SEASONS[name.lower()]
    start = date(year, m, 1)
    end = add_months(start, 2)
    end = date(end.year, end.month, calendar.monthrange(end.year, end.month)[1])
    return start, end


# --------------------------------------------------------------------------------------------
# patterns and their handlers. A handler gets (match, ref day, prefer) and returns
# (phrase start, phrase end, start day, end day, granularity, relative) or None.

_Result = tuple[int, int, date, date, str, bool] | None
_Handler = Callable[[re.Match, date, str | None], _Result]
# (pattern, handler, needs): the pattern runs only when the lower-cased text contains, for each
# group in `needs`, one of its words (None: always). A pattern cannot match without them, so this
# only saves time.
_Needs = tuple[tuple[str, ...], ...] | None
_PATTERNS: list[tuple[re.Pattern, _Handler, _Needs]] = []


def _pattern(regex: str, flags: int = _I, needs: _Needs = None) -> Callable[[_Handler], _Handler]:
    compiled = re.compile(regex, flags)

    def register(fn: _Handler) -> _Handler:
        _PATTERNS.append((compiled, fn, needs))
        return fn

    return register


def _valid_year(y: int) -> bool:
    return 1000 <= y <= 9999


@_pattern(r"\b(\d{4})([-/.])(\d{1,2})\2(\d{1,2})\b", needs=(_DIGITS,))
def _iso(m: re.Match, ref: date, prefer: str | None) -> _Result:
    d = _safe_date(int(m.group(1)), int(m.group(3)), int(m.group(4)))
    if d is None:
        return None
    return m.start(), m.end(), d, d, "day", False


@_pattern(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])", needs=(_DIGITS,))
def _numeric(m: re.Match, ref: date, prefer: str | None) -> _Result:
    a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if len(m.group(3)) == 2:
        y += 2000 if y < 70 else 1900
    d = _safe_date(y, a, b) if a <= 12 else _safe_date(y, b, a)  # US month/day first
    if d is None:
        return None
    return m.start(), m.end(), d, d, "day", False


@_pattern(
    rf"\b(?:the\s+)?(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_M_ANY})\b\.?(?:(?:,\s*|\s+)(\d{{4}})\b)?",
    needs=(_DIGITS, _MONTH_WORDS),
)
def _day_month(m: re.Match, ref: date, prefer: str | None) -> _Result:
    month_word = m.group(2)
    if month_word.lower() == "may" and not month_word[0].isupper():
        return None  # "the 2 may ..." -- too likely the modal verb
    month = _MONTHS_FULL.get(month_word.lower()) or _MONTHS_ABBR.get(month_word.lower())
    day = int(m.group(1))
    year = int(m.group(3)) if m.group(3) else None
    if year is None:
        if not 1 <= day <= 31:
            return None
        year = _year_of_weekday(m.string, m.start(), month, day, ref, prefer) or _year_for_month(month, ref, prefer, day)
    d = _safe_date(year, month, day)
    if d is None:
        return None
    # "on 9 January.": the sentence's full stop, not an abbreviation's ("9 Jan. 2027")
    end = m.end(2) if m.group(3) is None and month_word.lower() in _MONTHS_FULL else m.end()
    if (first := _DAYS_BEFORE.search(m.string, max(0, m.start() - 12), m.start())) is not None and (
            1 <= int(first.group("d1")) < day):
        # "in Porto on 5 and 6 November", "away 5-6 November": both days (it was "on 5 and on 6 November")
        return first.start(), end, d.replace(day=int(first.group("d1"))), d, "span", m.group(3) is None
    return m.start(), end, d, d, "day", m.group(3) is None


_DAYS_BEFORE = re.compile(r"(?<![\d.,:/£$€-])(?<!\bfrom\s)\b(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s*(?:and|&|-|–)\s*$",
                          _I)


# The year after a comma with or without a space: "May 8, 2023", "December 1,2023".
@_pattern(rf"\b({_M_ANY})\.?\s+(?:the\s+)?(\d{{1,2}}){_ORD}(?![\d:])\b(?:(?:,\s*|\s+)(\d{{4}})\b)?",
          needs=(_DIGITS, _MONTH_WORDS))
def _month_day(m: re.Match, ref: date, prefer: str | None) -> _Result:
    month_word = m.group(1)
    if month_word.lower() == "may" and not month_word[0].isupper():
        return None
    month = _MONTHS_FULL.get(month_word.lower()) or _MONTHS_ABBR.get(month_word.lower())
    day = int(m.group(2))
    if not 1 <= day <= 31:
        return None
    year = int(m.group(3)) if m.group(3) else (
        _year_of_weekday(m.string, m.start(), month, day, ref, prefer) or _year_for_month(month, ref, prefer, day))
    d = _safe_date(year, month, day)
    if d is None:
        return None
    if not m.group(3) and (to := _DAY_RANGE_END.match(m.string, m.end())):
        # "from November 10 to 14": the days between (a trip that ended after its first day)
        last = _safe_date(year, month, int(to.group("d2")))
        if last is not None and last > d:
            return m.start(), to.end(), d, last, "span", True
    return m.start(), m.end(), d, d, "day", m.group(3) is None


# The last day of a range in the month just named: "November 10 to 14", "Dec 10-13" (not "10 to
# 4 people", "10 to 12 kg", an hour "10 to 11:30").
_DAY_RANGE_END = re.compile(
    r"\s*(?:to|until|till|through|thru|-|–)\s*(?:the\s+)?(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b"
    r"(?![:.]\d|\s*(?:am|pm|a\.m|p\.m|h|hrs?|hours?|mins?|minutes|%|percent|kg|km|mi|miles|people|"
    r"guests|persons|euros?|dollars|pounds|[$£€])\b|\s*[$£€%])", re.IGNORECASE)


@_pattern(rf"\b({_M_ANY})\.?,?\s+(?:of\s+)?(\d{{4}})\b", needs=(_DIGITS, _MONTH_WORDS))
def _month_year(m: re.Match, ref: date, prefer: str | None) -> _Result:
    month_word = m.group(1)
    if month_word.lower() == "may" and not month_word[0].isupper():
        return None
    month = _MONTHS_FULL.get(month_word.lower()) or _MONTHS_ABBR.get(month_word.lower())
    year = int(m.group(2))
    if not _valid_year(year):
        return None
    s, e = _month_span(year, month)
    return m.start(), m.end(), s, e, "month", False


@_pattern(
    rf"\b(?:(in|during|since|by|until|till|through|from|before|after|around|of|for|on|to|"
    rf"last|this past|this|next|coming|past|early|late|mid|the end of|end of)[\s-]+)({_M_FULL})\b"
    # (not a month with its day: "it's now coming October 2 instead of the 25th")
    rf"(?!\s+\d{{1,2}}(?:st|nd|rd|th)?(?![\d:.]))(?:,?\s+(\d{{4}})\b)?"
    # ("She had laminitis in April last year": 2025's April, not "April 2026 in 2025")
    r"(?:\s+(?:of\s+)?(last|this|next)\s+year\b)?",
    needs=(tuple(_MONTHS_FULL),),
)
def _bare_month(m: re.Match, ref: date, prefer: str | None) -> _Result:
    word = m.group(2)
    if word.lower() == "may" and not word[0].isupper():
        return None
    if word.lower() == "march" and not word[0].isupper():
        return None
    month = _MONTHS_FULL[word.lower()]
    mod = m.group(1).lower()
    if mod == "to" and not _MOVED_TO_MONTH.search(m.string, max(0, m.start() - 60), m.start()):
        return None  # ("moved our cruise to January", not "talked to April")
    if m.group(4) and not m.group(3):
        year = ref.year + {"last": -1, "this": 0, "next": 1}[m.group(4).lower()]
        s, e = _month_span(year, month)
        return (m.start(2) if mod not in _PART_OF else m.start()), m.end(), s, e, "month", True
    if mod in ("last", "past", "this past"):
        year = ref.year if month < ref.month else ref.year - 1
    elif mod in ("next", "coming"):
        year = ref.year if month > ref.month else ref.year + 1
    elif mod == "this":
        year = ref.year
    elif m.group(3) and mod in _PART_OF:  # "late October 2023"
        year = int(m.group(3))
    else:
        year = _year_for_month(month, ref, prefer)
    s, e = _month_span(year, month)
    gran = "month"
    if mod == "early":
        e = date(year, month, 10)
        gran = "span"
    elif mod == "mid":
        s, e = date(year, month, 11), date(year, month, 20)
        gran = "span"
    elif mod in ("late", "the end of", "end of"):
        s = date(year, month, 21)
        gran = "span"
    if mod in _PART_OF:
        return m.start(), m.end(3) if m.group(3) else m.end(2), s, e, gran, not m.group(3)
    if mod in ("last", "this past", "this", "next", "coming", "past"):
        return m.start(), m.end(2), s, e, gran, True
    return m.start(2), m.end(2), s, e, gran, True


_PART_OF = ("early", "late", "mid", "the end of", "end of")  # a month's part: "early November"
# A month something is moved to, said alone: "the cruise line moved our cruise to January".
_MOVED_TO_MONTH = re.compile(r"\b(?:moved|moving|moves|pushed|postponing|postponed|put\s+back|putting\s+back|"
                             r"brought\s+forward|bringing\s+forward|rescheduled|changed|delayed)\b[^.;!?]*\s$", _I)


@_pattern(
    r"\b(the\s+day\s+before\s+yesterday|day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|"
    r"day\s+after\s+tomorrow|yesterday|today|tonight|tomorrow|last\s+night|"
    r"this\s+(?:morning|afternoon|evening))\b",
    needs=(("yesterday", "today", "tonight", "tomorrow", "night", "morning", "afternoon", "evening"),),
)
def _named_day(m: re.Match, ref: date, prefer: str | None) -> _Result:
    w = " ".join(m.group(1).lower().split())
    if "before yesterday" in w:
        d = ref - timedelta(days=2)
    elif "after tomorrow" in w:
        d = ref + timedelta(days=2)
    elif w in ("yesterday", "last night"):
        d = ref - timedelta(days=1)
    elif w == "tomorrow":
        d = ref + timedelta(days=1)
    else:
        d = ref
    return m.start(), m.end(), d, d, "day", True


# ("this saturday (oct 10)": the date in brackets says which)
# (not a time after it: "They've moved us to Friday, the 09:15" is Friday's sailing)
_DATE_AFTER = re.compile(rf"(?:,?\s+|\s*\(\s*)(?:the\s+)?(?:\d{{1,2}}{_ORD}\b(?![:.]\d)|(?:{_M_ANY})\b)", _I)
# ("on a Monday"; "every other Monday", "every second Friday": each fortnight's, no one date)
_ROUTINE_BEFORE = re.compile(r"\b(?:my|our|your|his|her|their|every|each|a|any|alternate|"
                             r"(?:every|each)\s+(?:other|second|2nd|third|3rd|fourth|4th))\s+$", _I)
# A household's weekly chore, whose weekday is every week's: "bins out on Tuesday night, collection is Wednesday
# morning" (each had been that week's day, a plan over by Thursday).
_CHORE = re.compile(r"\b(?:bins?|recycling|rubbish|bin\s+day)\b", _I)
# ... and the days of a rota of every other weekend: "kids are with me every other weekend, friday after school
# till sunday" (read as this week's Friday and the Sunday gone by).
_ALTERNATE = re.compile(r"\b(?:every\s+(?:other|second|2nd)|alternate)\s+(?:weekends?|weeks?)\b", _I)
# The week a weekday is of, said before it: "I've booked the week of 14th December off, Monday to Friday".
_WEEK_OF = re.compile(rf"\bweek\s+(?:of|beginning|commencing|starting)\s+(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
                      rf"\s+(?:of\s+)?(?P<month>{_M_ANY})\b[^.;!?]{{0,40}}$", _I)
# A sentence about the day it is said on.
_TODAY = re.compile(r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b", _I)
# "Tuesday and Thursday evenings", "Monday mornings": days of a routine, no date.
# ("market is Saturday as usual", "Thursday is your spin class": a week's day, no date)
# ("Sunday to Thursday nights" too)
_ROUTINE_AFTER = re.compile(rf"(?:\s*(?:,|/|&|and|to|through|-|–)\s*(?:{_WD}))*\s+(?:mornings|evenings|afternoons|nights)\b|"
                            r"\s*,?\s+(?:as\s+(?:usual|always|normal|ever)|like\s+always|like\s+usual)\b|"
                            r"\s+(?:is|are|'s)\s+(?:your|my|his|her|their|our)\s+(?:[\w-]+\s+)?(?:class|session|"
                            r"lesson|training|practice|club)\b|"
                            # ("Saturday is my busiest day", "Sunday is family day", "Saturday's my day off": every week's)
                            r"(?:\s+(?:is|are)|'s)\s+(?:(?:your|my|his|her|their|our|the)\s+(?:busiest|quietest|slowest|"
                            r"favourite|favorite|best|worst|main|only|usual|biggest)\s+(?:day|night|evening|shift)|"
                            r"(?:(?:my|our|your|his|her|their|a|the)\s+)?(?:(?:family|rest|lazy|cheat)\s+day|day\s+off))\b", _I)


# "I work Tuesday to Sunday", "open Monday to Friday": a week's routine, no dates.
_WEEK_RANGE = re.compile(rf"(?:{_WD})\s*(?:to|through|till|until|-|–)\s*(?:{_WD})\b", _I)
_ROUTINE_VERB = re.compile(r"\b(?:work|works|working|open|opens|closed|shifts?|rota|off|on\s+duty|"
                           r"days?\s+off\s+(?:is|are)|(?:'s|is|'m|am|'re|are)\s+(?:now\s+)?on|"
                           # "I'm only available for gigs from Tuesday to Sunday": a week's, not one week
                           r"only\s+available(?:\s+(?:for|to)\s+[\w-]+(?:\s+[\w-]+)?)?|"
                           # "Opening hours for now are Tuesday to Saturday"
                           r"hours(?:\s+[\w-]+){0,3}\s+(?:are|is|will\s+be))\b"
                           r"(?:\s+(?:from|on|every|usually|normally|still|now))?"
                           # "open 7am to 4pm, Tuesday to Saturday": its hours between
                           r"(?:\s+\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*(?:to|-|–|till|until)\s*"
                           r"\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*,?)?(?:\s*(?:still|now|on))?\s*$", _I)
# ... or hours after it: "Tuesday to Saturday 7:30am to 3pm"
# ... or before it: "I'm on earlies now, 7am to 3:30pm Monday to Thursday" (it had been one week's Monday to Thursday).
# A span of hours: "7am to 3:30pm", "9-5pm" (local/measures.py reads shifts by it too).
HOURS_SPAN = r"\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*(?:to|-|–|till|until)\s*\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)"
_HOURS_BEFORE = re.compile(HOURS_SPAN + r"\s*,?\s*(?:on\s+)?$", _I)
_HOURS_AFTER = re.compile(r"\s*,?\s*(?:from\s+)?" + HOURS_SPAN + r"\b", _I)


_DAY_OFF_IS = re.compile(r"\bdays?\s+off\s+(?:is|are|will\s+be)\s+(?:now\s+)?$", _I)  # "her day off is Monday"
# A week's day of a routine: "Our fish delivery day is now Thursday, not Tuesday", "Fish deliveries
# now come on Wednesday instead of Thursday" (each had been one Thursday, and a plan).
_ROUTINE_DAY_IS = re.compile(
    r"\b(?:(?:delivery|collection|bin|market|cleaning|pay|rest|recycling|changeover|training|match|rehearsal|"
    r"practice|club|gym|shopping|laundry|wash|swim|lesson|session|meeting)\s+days?\s+(?:is|are|will\s+be|'s|"
    # ("switch changeover day from Saturday to Friday": no Saturday's date, nor Friday's)
    r"from|(?:moves?|moving|changes?|changing|goes|going)\s+to)|"
    r"(?:deliveries|collections)\s+(?:now\s+)?(?:come|arrive|are|will\s+be|happen))\s+"
    r"(?:(?:now|still|usually|always)\s+)?(?:on\s+)?(?:a\s+)?$", _I)
_ROUTINE_REPLACED = re.compile(r"\b(?:not|instead\s+of|rather\s+than|from|to)\s+(?:on\s+)?$", _I)
# A weekday left out of every week's: "happy with any day except Monday", "any weekday apart from
# Tuesday" (no one Monday: it was "except on 2026-09-14", and a plan).
_EXCEPT = re.compile(r"(?:\b(?:except|excluding|apart\s+from|other\s+than)|\bany\s+(?:day|weekday|evening|morning|"
                     r"night)s?\s+(?:but|besides))\s+(?:on\s+|for\s+)?(?:a\s+)?$", _I)


def _routine_said_before(text: str, start: int) -> bool:
    """Whether a weekday before `start` is a routine's ("delivery day is now Thursday, not
    Tuesday": Tuesday is the routine's old day, no date either)."""
    return any(_ROUTINE_DAY_IS.search(text, max(0, w.start() - 60), w.start())
               for w in re.finditer(rf"\b(?:{_WD})\b", text[:start], _I))


def _week_routine(text: str, start: int) -> bool:
    """Whether the weekday at `start` begins or ends a week's routine range (a routine said
    before it in the sentence: "Dmitri works Tuesday to Sunday and Marta Wednesday to Sunday")."""
    for m in _WEEK_RANGE.finditer(text, max(0, start - 30), start + 40):
        if m.start() <= start < m.end() and (_ROUTINE_VERB.search(text, max(0, m.start() - 40), m.start())
                                             or _HOURS_AFTER.match(text, m.end())
                                             or _HOURS_BEFORE.search(text, max(0, m.start() - 30), m.start()) or any(
                r.end() <= m.start() and _ROUTINE_VERB.search(text, max(0, r.start() - 40), r.start())
                for r in _WEEK_RANGE.finditer(text, 0, m.start()))):
            return not _DATE_AFTER.match(text, m.end()) or bool(_HOURS_AFTER.match(text, m.end()))
    return False


# Days of a week's routine listed with no date: "gym plan: monday wednesday friday at 7am", "new gym
# schedule: tuesday thursday saturday" (each had been a date, the Monday after the Wednesday).
_DAY_LIST = re.compile(rf"(?:{_WD})(?:\s*(?:,|/|&|\band\b|\s)\s*(?:{_WD})\b)+", _I)


def _in_day_list(text: str, start: int) -> bool:
    """Whether the weekday at `start` is one of two or more listed, no date said after the last."""
    return any(m.start() <= start < m.end() and not _DATE_AFTER.match(text, m.end())
               for m in _DAY_LIST.finditer(text, max(0, start - 40), start + 60))


_WEEK_AFTER = re.compile(r"\s+week\b(?!['’]s|\s+(?:of|on|after|before|ago|off|long|end)\b)", _I)


# A weekday naming a post or a kind, no day: "our Saturday assistant", "a Sunday job", "Sunday roast goes up".
_WEEKDAY_KIND = re.compile(r"s?\s+(?:assistants?|staff|helpers?|cover|job|jobs|shifts?|school|club|league|"
                           # ("saturday training got moved, it's 8.30 now": every week's training)
                           r"workers?|crew|papers?|roasts?|training|practice|"
                           # ("Saturday long runs work fine": each week's)
                           r"(?:long\s+|easy\s+|morning\s+|evening\s+)?(?:runs|sessions|lessons|classes|practices|"
                           r"rehearsals|walks|swims|rides))\b", _I)


# A shop's days shut: "closed Sunday and Monday", "we're closed on Mondays" (no dates).
_CLOSED_BEFORE = re.compile(rf"\b(?:closed|shut)\s+(?:(?:{_WD})s?\s*(?:,|and|&)\s*)*$", _I)


# The weekday a date just said falls on: "sorry, 9 October, the Friday" (read as the Friday before).
_DATE_THE = re.compile(rf"(?:\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_M_ANY})|\b(?:{_M_ANY})\.?\s+\d{{1,2}}"
                       r"(?:st|nd|rd|th)?)\s*,\s*(?:the|a|which\s+is\s+a|that's\s+a)\s+$", _I)


@_pattern(rf"\b(?:(last|this\s+past|past|previous|this|next|coming|this\s+coming)\s+)?({_WD})(?!s\b)\b",
          needs=(tuple(_WEEKDAYS),))
def _weekday(m: re.Match, ref: date, prefer: str | None) -> _Result:
    # "Sunday 13 December", "Sunday, December 13": the date says the day. "my Sunday long run",
    # "every Sunday": a day of a routine, no date.
    # ("coming Thursday 24 September": the date says it too)
    if _DATE_AFTER.match(m.string, m.end()) or _ROUTINE_BEFORE.search(m.string, 0, m.start()) \
            or _ROUTINE_AFTER.match(m.string, m.end()) or (not m.group(1) and _week_routine(m.string, m.start(2))) \
            or (not m.group(1) and _in_day_list(m.string, m.start(2))) \
            or (not m.group(1) and (_DAY_OFF_IS.search(m.string, 0, m.start())
                                    or _ROUTINE_DAY_IS.search(m.string, max(0, m.start() - 60), m.start())
                                    or (_ROUTINE_REPLACED.search(m.string, max(0, m.start() - 16), m.start())
                                        and _routine_said_before(m.string, m.start()))
                                    or _EXCEPT.search(m.string, max(0, m.start() - 40), m.start())
                                    or _CLOSED_BEFORE.search(m.string, max(0, m.start() - 40), m.start())
                                    or _WEEKDAY_KIND.match(m.string, m.end())
                                    or (prefer != PAST and _CHORE.search(m.string)) or _ALTERNATE.search(m.string)
                                    or _DATE_THE.search(m.string, max(0, m.start() - 24), m.start()))):
        return None
    wd = _WEEKDAYS[m.group(2).lower()]
    mod = " ".join((m.group(1) or "").lower().split())
    if not mod and (week := _WEEK_OF.search(m.string, 0, m.start())) is not None:
        month = _MONTHS_FULL.get(week.group("month").lower()) or _MONTHS_ABBR[week.group("month").lower()]
        day = int(week.group("day"))
        if (first := _safe_date(_year_for_month(month, ref, prefer, day), month, day)) is not None:
            d = _week_monday(first) + timedelta(days=wd)
            return m.start(), m.end(), d, d, "day", True
    if mod in ("last", "this past", "past", "previous") or (not mod and prefer == PAST):
        delta = (ref.weekday() - wd) % 7 or 7
        d = ref - timedelta(days=delta)
    elif mod == "this":
        d = _week_monday(ref) + timedelta(days=wd)
        if d < ref and prefer != PAST:
            d += timedelta(days=7)
    elif mod == "next":
        d = _week_monday(ref) + timedelta(days=7 + wd)
    elif not mod and wd == ref.weekday() and _TODAY.search(m.string):
        d = ref  # "First Wednesday session today!", said on a Wednesday: this one
    elif not mod and (week := _WEEK_AFTER.match(m.string, m.end())) is not None:
        # "exchange is pencilled in for wednesday week, the 18th": the coming Wednesday's week after
        d = ref + timedelta(days=((wd - ref.weekday()) % 7 or 7) + 7)
        return m.start(), week.end(), d, d, "day", True
    else:  # coming, or bare without a past-tense hint: the upcoming one
        delta = (wd - ref.weekday()) % 7 or 7
        d = ref + timedelta(days=delta)
    return m.start(), m.end(), d, d, "day", True


# (not "the weekend of 9 January": that day says which)
@_pattern(r"\b(?:over|on|at|during|for)\s+the\s+weekend\b(?!\s+of\b)", needs=(("weekend",),))
def _the_weekend(m: re.Match, ref: date, prefer: str | None) -> _Result:
    monday = _week_monday(ref)
    if prefer == PAST and ref.weekday() < 5:
        s = monday - timedelta(days=2)
    else:
        s = monday + timedelta(days=5)
    return m.start(), m.end(), s, s + timedelta(days=1), "weekend", True


@_pattern(
    r"\b(?:the\s+)?(week|month|year)\s+(before\s+last|after\s+next)\b",
    needs=(("week", "month", "year"), ("last", "next"))
)
def _before_last(m: re.Match, ref: date, prefer: str | None) -> _Result:
    unit = m.group(1).lower()
    n = -2 if "before" in m.group(2).lower() else 2
    return (m.start(), m.end(), *_unit_span(unit, ref, n), _GRAN[unit], True)


_GRAN = {"week": "week", "weekend": "weekend", "month": "month", "year": "year"}


def _unit_span(unit: str, ref: date, n: int) -> tuple[date, date]:
    if unit == "week":
        s = _week_monday(ref) + timedelta(days=7 * n)
        return s, s + timedelta(days=6)
    if unit == "weekend":
        s = _week_monday(ref) + timedelta(days=5 + 7 * n)
        return s, s + timedelta(days=1)
    if unit == "month":
        first = add_months(date(ref.year, ref.month, 1), n)
        return _month_span(first.year, first.month)
    y = ref.year + n
    y = min(max(y, 1), 9999)
    return date(y, 1, 1), date(y, 12, 31)


@_pattern(
    r"\b(?:the\s+)?(?:(?:very\s+)?end\s+of\s+)?(last|this\s+past|past|previous|this|next|coming|this\s+coming|"
    r"the\s+following)\s+(week|weekend|month|year)\b",
    needs=(("week", "month", "year"), ("last", "past", "previous", "this", "next", "coming", "following"))
)
def _unit_rel(m: re.Match, ref: date, prefer: str | None) -> _Result:
    mod = " ".join(m.group(1).lower().split())
    unit = m.group(2).lower()
    text = m.group(0).lower()
    if mod == "past" and unit != "weekend":
        # rolling: "the past week" = the seven days up to today
        s = _unit_delta(ref, unit, -1)
        return m.start(), m.end(), s, ref, "span", True
    n = {"last": -1, "this past": -1, "previous": -1, "past": -1, "this": 0, "next": 1,
         "coming": 1, "this coming": 1, "the following": 1}[mod]
    if unit == "weekend" and mod in ("coming", "this coming"):
        n = 0 if ref.weekday() < 5 else 1
    elif unit == "weekend" and mod == "this" and prefer == PAST and ref.weekday() < 5:
        # "we moved this weekend", said on a Wednesday: this week's weekend is still to come,
        # so the past tense means the one just gone (as "over the weekend" does).
        n = -1
    elif unit == "week" and mod == "this" and prefer == FUTURE and ref.weekday() == 6:
        # "yes, I'll book it this week", said on a Sunday: the week ahead (the one ending today had made a
        # plan end the day it was made)
        n = 1
    s, e = _unit_span(unit, ref, n)
    if "end of" in text:
        return m.start(), m.end(), e, e, "day", True
    return m.start(), m.end(), s, e, _GRAN[unit], True


# The new year: "putting the day rate up to £250 from the new year" (from 1 January: it had held from the saying);
# "in the new year" its first month.
@_pattern(r"\b(?:(from|after|by|until|till|before|on)\s+|(in|into)\s+)?(?P<ny>(?:the\s+)?new\s+year(?:'s\s+day)?)\b"
          r"(?!'s\s+eve|\s+eve)", needs=(("new",), ("year",)))
def _new_year(m: re.Match, ref: date, prefer: str | None) -> _Result:
    if not (m.group(1) or m.group(2) or re.search(r"new\s+year's\s+day", m.group(0), re.I)):
        return None  # ("a happy new year", "new year resolutions": no day)
    first = date(ref.year + 1, 1, 1)
    if m.group(2):
        return m.start(), m.end(), first, date(first.year, 1, 31), "month", True
    # (its word before it kept out of the phrase: "from" says the value's first day, as "from January" does)
    return m.start("ny"), m.end(), first, first, "day", True


# A week or weeks on from a day: "two weeks today", "a week tomorrow", "a week on Monday" (British: the
# coming Monday's week after; "two weeks today" had been today).
@_pattern(rf"\b({_NUM})\s+weeks?\s+(?:(today|tomorrow)|(?:on\s+)?(?:this\s+)?({_WD}))\b(?!\s+(?:week|morning|night)s?\b)",
          needs=(("week",), ("today", "tomorrow", *_WEEKDAYS)))
def _weeks_on(m: re.Match, ref: date, prefer: str | None) -> _Result:
    n = number(m.group(1))
    if n is None or not 1 <= n <= 8 or _HOW_OFTEN.search(m.string, max(0, m.start() - 12), m.start()):
        return None
    if m.group(2):
        base = ref + timedelta(days=1 if m.group(2).lower() == "tomorrow" else 0)
    else:
        base = ref + timedelta(days=(_WEEKDAYS[m.group(3).lower()] - ref.weekday()) % 7 or 7)
    d = base + timedelta(weeks=n)
    return m.start(), m.end(), d, d, "day", True


@_pattern(r"\bthe\s+end\s+of\s+the\s+(week|month|year)\b", needs=(("week", "month", "year"), ("end",)))
def _end_of_the(m: re.Match, ref: date, prefer: str | None) -> _Result:
    _, e = _unit_span(m.group(1).lower(), ref, 0)
    return m.start(), m.end(), e, e, "day", True


@_pattern(rf"\b({_NUM})\s+({_UNIT})s?\s+(ago|back|earlier|before)\b",
          needs=(_UNIT_WORDS, ("ago", "back", "earlier", "before")))
def _ago(m: re.Match, ref: date, prefer: str | None) -> _Result:
    n = number(m.group(1))
    if n is None or n > 400 or (m.group(3).lower() in ("earlier", "before") and n == 0):
        return None
    if m.group(3).lower() == "before":
        return None  # "two days before the wedding": relative to something else
    d = _unit_delta(ref, m.group(2), -n)
    return m.start(), m.end(), d, d, "day", True


_TOOK_IN = re.compile(r"\b(?:done|finished|completed|built|fixed|sorted|made|did\s+it|do\s+it|took|takes)\s+$", _I)
# How often, not when: "300mg twice a day from today", "that's twice in 3 months".
_HOW_OFTEN = re.compile(r"\b(?:once|twice|thrice|\d+\s*(?:x|times)|times)\s+$", _I)


# "in three weeks" is a date; "after five years" mostly a duration ("leaving Leeds after five
# years", "married after two years together"), read as a date it put the past in the future.
@_pattern(rf"\bin\s+(?:another\s+|just\s+|about\s+)?({_NUM})\s+({_UNIT})s?(?:'?\s*time)?\b",
          needs=(_UNIT_WORDS, ("in",)))
def _in_n(m: re.Match, ref: date, prefer: str | None) -> _Result:
    n = number(m.group(1))
    if _HOW_OFTEN.search(m.string, max(0, m.start() - 12), m.start()):
        return None
    if m.group(1).lower() == "one" and m.group(2).lower() == "day" and not m.group(0).lower().endswith("time"):
        return None  # ("never two gigs in one day": how many in a day, not tomorrow)
    if n is None or n == 0 or n > 400 or prefer == PAST or (
            prefer != FUTURE and _TOOK_IN.search(m.string, max(0, m.start() - 24), m.start())):
        return None  # ("Tom did the first fix yesterday, all done in one day": how long, not when)
    d = _unit_delta(ref, m.group(2), n)
    return m.start(), m.end(), d, d, "day", True


@_pattern(rf"\b({_NUM})\s+({_UNIT})s?\s+(?:from\s+now|from\s+today|later)\b",
          needs=(_UNIT_WORDS, ("now", "today", "later")))
def _from_now(m: re.Match, ref: date, prefer: str | None) -> _Result:
    n = number(m.group(1))
    if n is None or n == 0 or n > 400 or _HOW_OFTEN.search(m.string, max(0, m.start() - 12), m.start()):
        return None
    if m.group(0).lower().endswith("later"):
        return None  # later than what the talk is of, not than today ("they want us a week later: ... now 31 January")
    d = _unit_delta(ref, m.group(2), n)
    return m.start(), m.end(), d, d, "day", True


@_pattern(rf"\b(?:within|over|during|in|for)\s+the\s+(next|past|last)\s+({_NUM})\s+({_UNIT})s?\b",
          needs=(_UNIT_WORDS, ("next", "past", "last")))
def _rolling(m: re.Match, ref: date, prefer: str | None) -> _Result:
    n = number(m.group(2))
    if n is None or n == 0 or n > 400:
        return None
    if m.group(1).lower() == "next":
        return m.start(), m.end(), ref, _unit_delta(ref, m.group(3), n), "span", True
    return m.start(), m.end(), _unit_delta(ref, m.group(3), -n), ref, "span", True


@_pattern(r"\b(?:(in|since|during|by|until|till|from|of|around|before|after|through|back\s+in)\s+)(?:the\s+year\s+)?(\d{4})\b(?!\s*(?:-|/)\d)",
          needs=(_DIGITS,))
def _year(m: re.Match, ref: date, prefer: str | None) -> _Result:
    y = int(m.group(2))
    if not 1900 <= y <= 2100:
        return None
    return m.start(2), m.end(), date(y, 1, 1), date(y, 12, 31), "year", False


@_pattern(r"\b(summer|winter|spring|fall|autumn)\s+(?:of\s+)?(\d{4})\b", needs=(_DIGITS, tuple(_SEASONS)))
def _season_year(m: re.Match, ref: date, prefer: str | None) -> _Result:
    y = int(m.group(2))
    if not 1900 <= y <= 2100:
        return None
    s, e = _season_span(m.group(1), y)
    return m.start(), m.end(), s, e, "season", False


@_pattern(
    r"\b(?:(last|this\s+past|past|previous|this|next|coming|this\s+coming)\s+|(?:in|during|over)\s+the\s+)"
    r"(summer|winter|spring|fall|autumn)\b",
    needs=(tuple(_SEASONS),),
)
def _season_rel(m: re.Match, ref: date, prefer: str | None) -> _Result:
    name = m.group(2)
    mod = " ".join((m.group(1) or "").lower().split())
    spans = [_season_span(name, y) for y in range(ref.year - 2, ref.year + 3)]
    containing = [sp for sp in spans if sp[0] <= ref <= sp[1]]
    past = [sp for sp in spans if sp[1] < ref]
    future = [sp for sp in spans if sp[0] > ref]
    if mod in ("last", "this past", "past", "previous"):
        s, e = past[-1]
    elif mod in ("next", "coming", "this coming"):
        s, e = future[0]
    elif mod == "this":
        if containing:
            s, e = containing[0]
        else:
            s, e = next((sp for sp in spans if sp[0].year == ref.year), future[0])
    else:  # "in the summer": tense decides, else the current or upcoming one
        if containing:
            s, e = containing[0]
        elif prefer == PAST:
            s, e = past[-1]
        else:
            s, e = future[0]
    return m.start(), m.end(), s, e, "season", True


_FOR_THE = re.compile(r"\bfor\s+$", _I)
_TO_THE_NTH = re.compile(r"\b(?:to|until|till|by|for|from|before|after|instead\s+of|rather\s+than|not)\s+$", _I)
# ... or said as what it is, alone: "no, it's the 19th, Saturday", "make it the 21st." (not "it's the 3rd time")
_ITS_THE = re.compile(r"\b(?:it'?s|it\s+is|make\s+(?:it|that)|I\s+meant?)\s+$", _I)
_SAID_ALONE = re.compile(r"\s*(?:[,.!?;]|$)")
# The day a new one replaces, said by its number alone: "now due on 14 October instead of the 9th",
# "she starts on 26 October, not the 19th": of the month said before it.
_INSTEAD_OF = re.compile(r"\b(?:instead\s+of|rather\s+than|not)\s+$", _I)
_MONTH_BEFORE = re.compile(rf"(?:\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_M_ANY})|\b(?P<m2>{_M_ANY})\.?\s+"
                           rf"\d{{1,2}}(?:st|nd|rd|th)?)\b(?!.*\b(?:{_M_ANY})\b)", _I)
# "from the 22nd until 3 Jan": a range's start, in the month its end names (or the one before).
_RANGE_END = re.compile(rf"\s*(?:to|until|till|through|-|–)\s+(?:(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
                        rf"\s+(?:of\s+)?(?P<month>{_M_ANY})\b|(?P<month2>{_M_ANY})\.?\s+(?P<day2>\d{{1,2}})\b)", _I)


# "on the 21st", "moved it to the 19th", "Thursday the 19th": a day of this month or the next
# (the last, in the past tense); with its weekday, the nearest month where the day is that one.
# ("Tuesday 24th" too, its "the" left out)
@_pattern(rf"(?:\bon\s+)?(?:(?:\b(?:this\s+coming|this|next|coming)\s+)?\b(?P<wd>{_WD}),?\s+(?:the\s+)?|\bthe\s+|"
          # ("I'm away 19th to 27th December": a range's start without "the")
          rf"\b(?=\d{{1,2}}(?:st|nd|rd|th)\s*(?:to|until|till|-|–)\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_M_ANY})\b))"
          rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)\b"
          rf"(?!\s+(?:of\s+)?(?:{_M_ANY}|century|centuries)\b)", needs=(_DIGITS,))
def _on_the_nth(m: re.Match, ref: date, prefer: str | None) -> _Result:
    day = int(m.group("day"))
    said_on = m.group(0)[:2].lower() == "on"
    if not 1 <= day <= 31 or not (said_on or m.group("wd") or _TO_THE_NTH.search(m.string, 0, m.start())
                                  or _RANGE_END.match(m.string, m.end())
                                  or (_ITS_THE.search(m.string, 0, m.start()) and _SAID_ALONE.match(m.string, m.end()))):
        return None  # "the 3rd in line", "the 19th century": no day
    first = date(ref.year, ref.month, 1)
    if prefer == PAST and _FOR_THE.search(m.string, 0, m.start()):
        prefer = None  # "went with Clifton Removals, £780 for the 27th": what is booked for a day is ahead
    if (_INSTEAD_OF.search(m.string, 0, m.start()) and not m.group("wd")
            and (said := _MONTH_BEFORE.search(m.string, 0, m.start())) is not None):
        word = said.group("m1") or said.group("m2")
        month = _MONTHS_FULL.get(word.lower()) or _MONTHS_ABBR[word.lower()]
        d = _safe_date(_year_for_month(month, ref, prefer, day), month, day)
        new_day = int(re.search(r"\d+", said.group(0)).group())
        if (d is not None and day > new_day and d.month != ref.month and ref.day <= day
                and (this := _safe_date(ref.year, ref.month, day)) is not None):
            # "it's now coming October 2 instead of the 25th", said on 24 September: the 25th
            # still ahead this month, before the new day (25 October would come after it)
            d = this
        return (m.start(), m.end(), d, d, "day", True) if d is not None else None
    if not m.group("wd") and (moved := _MOVED_AFTER.match(m.string, m.end())) is not None:
        # "Ingrid is teaching on the 3rd, so it's moved to Wednesday 17 February" (said in November): the day
        # moved from is of the month it is moved to, or the one before (it had been 3 December)
        word = moved.group("month")
        month = _MONTHS_FULL.get(word.lower()) or _MONTHS_ABBR[word.lower()]
        to_day = int(moved.group("day"))
        year = _year_for_month(month, ref, FUTURE, to_day)  # (a day moved to is ahead)
        month_first = date(year, month, 1) if day <= to_day else add_months(date(year, month, 1), -1)
        d = _safe_date(month_first.year, month_first.month, day)
        return (m.start(), m.end(), d, d, "day", True) if d is not None else None
    if (listed := _LISTED_BEFORE.match(m.string, m.end())) is not None:
        # "Friday 11th and Saturday 12th December": the month the list says last (said in October, the
        # 11th had been September's, a Friday too)
        word = listed.group("month")
        month = _MONTHS_FULL.get(word.lower()) or _MONTHS_ABBR[word.lower()]
        year = _year_for_month(month, ref, prefer, int(listed.group("day")))
        if m.group("wd"):  # (the year its weekday falls in: "Tuesday 8th or Wednesday 9th June")
            wd = _WEEKDAYS[m.group("wd").lower()]
            year = next((y for y in (year, year + 1, year - 1)
                         if (c := _safe_date(y, month, day)) is not None and c.weekday() == wd), year)
        d = _safe_date(year, month, day)
        return (m.start(), m.end(), d, d, "day", True) if d is not None else None
    if (end := _RANGE_END.match(m.string, m.end())) and not m.group("wd"):
        word = end.group("month") or end.group("month2")
        month = _MONTHS_FULL.get(word.lower()) or _MONTHS_ABBR[word.lower()]
        end_day = int(end.group("day") or end.group("day2"))
        month_first = date(_year_for_month(month, ref, prefer, end_day), month, 1)
        if day > end_day:
            month_first = add_months(month_first, -1)
    elif m.group("wd"):
        d = _weekday_nth(day, _WEEKDAYS[m.group("wd").lower()], ref, prefer)
        return (m.start(), m.end(), d, d, "day", True) if d is not None else None
    elif (begun := _RANGE_START.search(m.string, max(0, m.start() - 40), m.start())) is not None:
        # "for the 21st to the 28th", said on 23 October: the 28th after the 21st (of November),
        # not this month's 28th
        start_day = int(begun.group("day"))
        month_first = _month_of_nth(start_day, first, ref, prefer)
        if day < start_day:
            month_first = add_months(month_first, 1)
    else:
        month_first = _month_of_nth(day, first, ref, prefer)
    d = _safe_date(month_first.year, month_first.month, day)
    return (m.start(), m.end(), d, d, "day", True) if d is not None else None


# The day something is moved to, said after the day it is moved from: "on the 3rd, so it's moved to Wednesday 17
# February".
# ("a knee operation on the 19th so they've moved the party to Saturday 12th December": November's 19th)
_MOVED_AFTER = re.compile(rf"[^.;!?]{{0,40}}?\b(?:moved|moving|pushed|postponed|rescheduled|changed|put\s+back)\s+"
                          r"(?:(?:the|our|my|his|her|their|it|us|them)\b(?:\s+[\w'-]+){{0,3}}?\s+)?"
                          rf"(?:again\s+)?(?:to|until|till)\s+(?:(?:{_WD}),?\s+)?(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
                          rf"\s+(?:of\s+)?(?P<month>{_M_ANY})\b", _I)
# A day of a list that says its month once, at its end: " and Saturday 12th December", ", Friday 11th and Saturday
# 12th December" (the days between said with their ordinals).
_LISTED_BEFORE = re.compile(rf"(?:\s*(?:,|and|&|or)\s+(?:(?:{_WD}),?\s+)?(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b)*"
                            rf"\s*(?:,|and|&|or)\s+(?:(?:{_WD}),?\s+)?(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
                            rf"\s+(?:of\s+)?(?P<month>{_M_ANY})\b", _I)

# A range's start said by its number alone, right before its end: "the 21st to ", "the 21st-".
_RANGE_START = re.compile(r"\bthe\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\s*(?:to|until|till|through|-|–)\s+$", _I)


def _month_of_nth(day: int, first: date, ref: date, prefer: str | None) -> date:
    """The first of the month whose `day` "the Nth" is: this one or the next (the last, past)."""
    if prefer == PAST:
        return first if day <= ref.day else add_months(first, -1)
    return first if day >= ref.day else add_months(first, 1)


def _weekday_nth(day: int, wd: int, ref: date, prefer: str | None) -> date | None:
    """"Friday the 9th": the day of that number that is that weekday, the one ahead or the one
    gone by; the tense decides only between two near ones ("she suggested Friday the 9th", said on
    Friday 2 October: the 9th of October, not of January; said ahead, always the one ahead)."""
    def seek(step: int) -> date | None:
        first = date(ref.year, ref.month, 1)
        for _ in range(14):
            d = _safe_date(first.year, first.month, day)
            if d is not None and d.weekday() == wd and (d >= ref if step > 0 else d < ref):
                return d
            first = add_months(first, step)
        return None
    ahead, gone = seek(1), seek(-1)
    if ahead is None or gone is None:
        return ahead or gone
    if (ahead - ref).days > 120 and (ref - gone).days > 60:
        # no such day near: the weekday is the slip, not the number ("It's now Wednesday the 19th instead of the
        # 12th", said on 4 November 2026, a Thursday: it had been 19 August; but "English Language Paper 1 is
        # Thursday 14th", said in September of January's mocks, is 14 January)
        first = _month_of_nth(day, date(ref.year, ref.month, 1), ref, prefer)
        return _safe_date(first.year, first.month, day)
    if prefer == PAST and (ref - gone).days <= 45:
        return gone
    if prefer == FUTURE:
        return ahead
    return ahead if (ahead - ref).days <= (ref - gone).days else gone


# --------------------------------------------------------------------------------------------
# public API

_NEED_WORDS: tuple[str, ...] = ()


def _need_words() -> tuple[str, ...]:
    """Every word some pattern needs, once (built on first use, after all patterns exist)."""
    global _NEED_WORDS
    if not _NEED_WORDS:
        _NEED_WORDS = tuple(sorted({w for _, _, needs in _PATTERNS for g in (needs or ()) for w in g}))
    return _NEED_WORDS


def find_dates(
    text: str, ref: datetime | date, prefer: str | None | Callable[[int], str | None] = None, limit: int = 32
) -> list[DateMention]:
    """All date phrases in `text`, resolved against `ref`, in order of appearance.

    `prefer` ('past' | 'future' | None) settles phrases whose reading depends on tense:
    a bare weekday ("on Saturday"), a month without a year, "over the weekend"; given as a
    function, the tense at a phrase's position (a clause's own: "missed the Nov 12 date, the new
    promise is a fix by December 10").
    Overlapping matches keep the earliest, then the longest. Never raises on odd input.
    """
    if not text or not isinstance(text, str):
        return []
    low = text.lower()
    if not _maybe_dates(text, low):
        return []
    try:
        ref_day = _ref_day(ref)
    except Exception:  # noqa: BLE001 - a bad reference means: nothing to resolve
        return []
    found: list[tuple[int, int, date, date, str, bool]] = []
    present = {w for w in _need_words() if w in low}
    for regex, handler, needs in _PATTERNS:
        if needs is not None and not all(present.intersection(group) for group in needs):
            continue
        for m in regex.finditer(text):
            try:
                r = handler(m, ref_day, prefer(m.start()) if callable(prefer) else prefer)
            except (ValueError, OverflowError, IndexError, KeyError):
                r = None
            if r is not None:
                found.append(r)
    if not found:
        return []
    found.sort(key=lambda r: (r[0], -(r[1] - r[0])))
    out: list[DateMention] = []
    last_end = -1
    for s_pos, e_pos, s, e, gran, relative in found:
        if s_pos < last_end:
            continue
        out.append(
            DateMention(
                phrase=text[s_pos:e_pos],
                start=s,
                end=e,
                direction=_direction(s, e, ref_day),
                granularity=gran,
                pos=s_pos,
                relative=relative,
            )
        )
        last_end = e_pos
        if len(out) >= limit:
            break
    # "from Monday to Friday": the second day is the first one's or after it, never before; "from
    # June 13 to June 20, 2027": the first is of the second's year
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if (a.granularity == b.granularity == "day" and a.relative and not b.relative
                and a.start.year != b.end.year and _RANGE_GAP.fullmatch(text, a.pos + len(a.phrase), b.pos)):
            start = _safe_date(b.end.year, a.start.month, a.start.day)
            if start is not None and start <= b.start:
                out[i - 1] = a = replace(a, start=start, end=start, direction=_direction(start, start, ref_day))
        if (a.granularity == b.granularity == "day" and b.relative and b.start < a.start
                and _WEEKDAY_ONLY.fullmatch(b.phrase) and _RANGE_GAP.fullmatch(text, a.pos + len(a.phrase), b.pos)):
            shift = timedelta(days=7 * -(-(a.start - b.start).days // 7))
            start, end = b.start + shift, b.end + shift
            out[i] = replace(b, start=start, end=end, direction=_direction(start, end, ref_day))
    # "My mum is visiting 27-29 November, she can babysit on the Saturday night": the Saturday of that span
    # (it had been the coming one, a week before)
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if (b.relative and _THE_WEEKDAY.fullmatch(text, max(0, b.pos - 4), b.pos + len(b.phrase))
                and 1 <= (a.end - a.start).days <= 13 and a.start > b.start):
            inside = next((a.start + timedelta(days=k) for k in range((a.end - a.start).days + 1)
                           if (a.start + timedelta(days=k)).weekday() == b.start.weekday()), None)
            if inside is not None:
                out[i] = replace(b, start=inside, end=inside, direction=_direction(inside, inside, ref_day))
    return bare_days_named(out, out, ref_day, text)


_THE_WEEKDAY = re.compile(rf"(?i:the)\s+(?:{_WD})", _I)


def bare_days_named(mentions: list[DateMention], named: list[DateMention], ref: date,
                    text: str = "", earlier: Sequence[DateMention] = (),
                    just_before: Sequence[DateMention] = ()) -> list[DateMention]:
    """`mentions`, a bare "the 21st" among them the day of that number `named` gives with its month:
    "only had Saturday 21 November free, so the party moves to the 21st" (it had been this month's
    21st); `named`, the text's own mentions or its turn's ("... a coach free on the 24th. So
    Snowdonia is now Saturday 24 October"). Likewise "the Tuesday" of `text`, the mentions' own, is
    the Tuesday named ("Tuesday 8th December. no wait, Wednesday 9th, I'm quoting on the Tuesday").
    `earlier`, the days the turns just before named, settle a number the same when the turn's do not, if
    only with a day ahead: "They've offered us Sunday 11th April instead" then "Ros is fine for the 11th"
    (this month's 11th); `just_before`, the turn right before's, a weekday: "Sunday afternoon might be
    better" (the coming Sunday; a Thursday named three turns before was another thing's)."""
    out = list(mentions)

    def ahead_of(said: Sequence[DateMention]) -> list[DateMention]:
        return [a for a in said if a.granularity == "day" and a.start > ref and _MONTH_NAMED.search(a.phrase)]
    for i, b in enumerate(out):
        if b.granularity != "day" or not b.relative:
            continue
        if _WEEKDAY_ONLY.fullmatch(b.phrase):
            if b.start < ref:
                continue  # ("we met on Sunday": that one)
            the = bool(text) and bool(_THE_WEEKDAY.fullmatch(text, max(0, b.pos - 4), b.pos + len(b.phrase)))
            days = {a.start for a in named if a is not b and a.granularity == "day"
                    and _MONTH_NAMED.search(a.phrase) and a.start.weekday() == b.start.weekday()} if the else set()
            if not days:
                days = {a.start for a in ahead_of(just_before) if a.start.weekday() == b.start.weekday()}
        elif _BARE_NTH.fullmatch(b.phrase):
            if text and _MOVED_AFTER.match(text, b.pos + len(b.phrase)):
                continue  # (the day moved from, read by the day moved to already: _on_the_nth)
            months = {(a.start.year, a.start.month) for a in mentions if a.pos < b.pos and a.granularity == "month"
                      and _MONTH_NAMED.search(a.phrase)}
            if (len(months) == 1 and (d := _safe_date(*next(iter(months)), b.start.day)) is not None
                    and (d >= ref or b.start < ref)):
                # ("the cruise line moved our cruise to January, we now sail on the 15th": the month said before
                # it in its sentence, as a day of another month told ahead would be; it had been November's)
                out[i] = replace(b, start=d, end=d, direction=_direction(d, d, ref))
                continue
            said = [a for a in named if a is not b and a.granularity in ("day", "span")
                    and _MONTH_NAMED.search(a.phrase)]
            days = {a.start for a in said if a.granularity == "day" and a.start.day == b.start.day}
            if not days:
                # ... or a day next to the days named ("it's 11-17 November. I'd fly out on the 10th and
                # come back on the 18th": the 18th had been the day it was said)
                days = {d for a in said if (d := _safe_date(a.start.year, a.start.month, b.start.day)) is not None
                        and a.start - timedelta(days=_NEXT_TO) <= d <= a.end + timedelta(days=_NEXT_TO)}
            ahead = ahead_of(earlier)
            if not days:
                days = {a.start for a in ahead if a.start.day == b.start.day}
            if not days:  # ("flying out on Friday 18th December" "no, it's the 19th, Saturday")
                days = {d for a in ahead if (d := _safe_date(a.start.year, a.start.month, b.start.day)) is not None
                        and abs((d - a.start).days) <= _NEXT_TO}
            if not days and text and _CHRISTMAS.search(text):
                # ("before my parents come for Christmas on the 19th", said in November: December's 19th)
                year = ref.year if ref.month < 12 or ref.day <= b.start.day else ref.year + 1
                days = {d for d in [_safe_date(year, 12, b.start.day)] if d is not None and d >= ref}
        elif (said := _WEEKDAY_NTH.fullmatch(b.phrase)) is not None:
            # "English Language Paper 1 is Thursday 14th", in a turn of "mocks ... Mon 11 Jan to Fri 22 Jan": the
            # month named there where the 14th is a Thursday
            wd, nth = _WEEKDAYS[said.group("wd").lower()], int(said.group("day"))
            days = {d for a in named if a is not b and a.granularity in ("day", "span") and _MONTH_NAMED.search(a.phrase)
                    for y, mo in {(a.start.year, a.start.month), (a.end.year, a.end.month)}
                    if (d := _safe_date(y, mo, nth)) is not None and d.weekday() == wd}
        else:
            continue
        if len(days) == 1:
            (day,) = days
            out[i] = replace(b, start=day, end=day, direction=_direction(day, day, ref))
    return out


_WEEKDAY_NTH = re.compile(rf"(?:on\s+)?(?P<wd>{_WD}),?\s+(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?", _I)


_CHRISTMAS = re.compile(r"\b(?:christmas|xmas)\b", _I)
_NEXT_TO = 7  # days either side of a named day or range a bare "the 18th" is read as its month's
_BARE_NTH = re.compile(r"(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)", _I)
_MONTH_NAMED = re.compile(rf"\b(?:{_M_ANY})\b|\d{{4}}-\d\d-\d\d", _I)
_WEEKDAY_ONLY = re.compile(rf"(?:on\s+)?(?:{_WD})", _I)
_RANGE_GAP = re.compile(r"\s*(?:to|through|till|until|-|–)\s*", _I)


def resolve_date(phrase: str, ref: datetime | date, prefer: str | None = None) -> DateMention | None:
    """The first date mention in `phrase`, or None."""
    found = find_dates(phrase, ref, prefer=prefer, limit=1)
    return found[0] if found else None


def absolute_text(m: DateMention) -> str:
    """The resolved date as text: '2023-05-07', 'June 2023', 'the week of 2023-05-01', '2023'."""
    if m.granularity == "day" or m.start == m.end:
        return m.start.isoformat()
    if m.granularity == "month":
        return f"{_MONTH_NAMES[m.start.month]} {m.start.year}"
    if m.granularity == "year":
        return str(m.start.year)
    if m.granularity == "week":
        return f"the week of {m.start.isoformat()}"
    if m.granularity == "weekend":
        return f"the weekend of {m.start.isoformat()}"
    if m.granularity == "season":
        season = {3: "spring", 6: "summer", 9: "autumn", 12: "winter"}.get(m.start.month, "season")
        return f"{season} {m.start.year}"
    return f"{m.start.isoformat()} to {m.end.isoformat()}"


def _same(phrase: str, absolute: str) -> bool:
    return " ".join(phrase.lower().split()) == absolute.lower()


def render(m: DateMention) -> str:
    """The phrase with its resolution: 'yesterday (2023-05-07)', 'next month (June 2023)'."""
    absolute = absolute_text(m)
    if _same(m.phrase, absolute):
        return absolute
    return f"{m.phrase} ({absolute})"


def inline_text(m: DateMention, has_preposition: bool = False) -> str:
    """What to write in place of the phrase in a rewritten sentence.

    'on 2023-05-07 (yesterday)', 'in June 2023 (next month)', or without the preposition when
    the sentence already has one ("on Friday" -> "on 2023-05-12 (Friday)").
    """
    absolute = absolute_text(m)
    if m.granularity == "span" and m.start != m.end:
        body = f"between {m.start.isoformat()} and {m.end.isoformat()}"
        has_preposition = True
    else:
        body = absolute
    if not _same(m.phrase, absolute):
        body = f"{body} ({m.phrase})"
    if has_preposition:
        return body
    prep = "on" if (m.start == m.end or m.granularity in ("day", "weekend")) else "in"
    if m.granularity == "weekend":
        prep = "over"
    return f"{prep} {body}"
