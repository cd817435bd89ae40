"""Relative date resolution (app/construction/dates.py), as worked examples."""
from __future__ import annotations

import itertools
from datetime import date, datetime, timezone

import pytest

from app.construction import dates as d
from app.construction.dates import DateMention, find_dates, inline_text, render
from app.construction.local.inline_dates import tense_at, tense_of

REF = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)  # Monday 8 May 2023


def one(text: str, prefer: str | None = None) -> DateMention:
    found = find_dates(text, REF, prefer=prefer)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("text, start, end, granularity", [
    ("I went there yesterday.", date(2023, 5, 7), date(2023, 5, 7), "day"),
    ("I'm flying next month.", date(2023, 6, 1), date(2023, 6, 30), "month"),
    ("I moved last week.", date(2023, 5, 1), date(2023, 5, 7), "week"),
    ("my exam is on Friday", date(2023, 5, 12), date(2023, 5, 12), "day"),
    ("We met 2 years ago.", date(2021, 5, 8), date(2021, 5, 8), "day"),
    ("I was born in 1990.", date(1990, 1, 1), date(1990, 12, 31), "year"),
    ("this weekend", date(2023, 5, 13), date(2023, 5, 14), "weekend"),
    ("on 2023-04-01", date(2023, 4, 1), date(2023, 4, 1), "day"),
    ("shared on December 1,2023", date(2023, 12, 1), date(2023, 12, 1), "day"),  # no space after the comma
    ("the 2nd of March,2022", date(2022, 3, 2), date(2022, 3, 2), "day"),
    # "day" units were missed by the prefilter before: no digit and no other date word
    ("See you in two days.", date(2023, 5, 10), date(2023, 5, 10), "day"),
    ("two days from now", date(2023, 5, 10), date(2023, 5, 10), "day"),
    ("in a couple of days", date(2023, 5, 10), date(2023, 5, 10), "day"),
    # a range of days in the month named: the trip lasts to its last day (it ended after the first)
    ("I'm in Lisbon from June 10 to 14.", date(2023, 6, 10), date(2023, 6, 14), "span"),
    ("The workshop is on Jun 10-11.", date(2023, 6, 10), date(2023, 6, 11), "span"),
    ("Dinner on June 10 to 4 people max.", date(2023, 6, 10), date(2023, 6, 10), "day"),
])
def test_resolution(text, start, end, granularity):
    m = one(text)
    assert (m.start, m.end, m.granularity) == (start, end, granularity)


def test_a_weekday_beside_a_date_or_of_a_routine_is_no_date_of_its_own():
    # The race is on 13 December, not on the coming Sunday; "my Sunday long run" is no date.
    assert [m.start for m in find_dates("The race is on Sunday 13 December.", REF, prefer="future")] \
        == [date(2023, 12, 13)]
    assert [m.start for m in find_dates("on Sunday, December 17", REF, prefer="future")] == [date(2023, 12, 17)]
    assert find_dates("Mark cut my Sunday long run to 24 km.", REF) == []
    assert find_dates("We meet every Sunday at the club.", REF) == []
    assert one("See you on Sunday.").start == date(2023, 5, 14)


@pytest.mark.parametrize("said, ref, day", [
    # Walk-throughs 56, 58: a year behind (2025-11-15, a Saturday; 2026-05-08, a Friday)
    ("I've entered the Docklands Half on Sunday 15 November.", date(2026, 10, 24), date(2026, 11, 15)),
    ("Spa day at Thermae Bath on Saturday 8 May for eight of us.", date(2026, 9, 14), date(2027, 5, 8)),
    ("We went on Saturday, May 9.", date(2026, 9, 14), date(2026, 5, 9)),
])
def test_a_dates_year_is_the_one_its_weekday_falls_in(said, ref, day):
    at = datetime.combine(ref, datetime.min.time(), timezone.utc)
    assert [m.start for m in find_dates(said, at, prefer=tense_at(said))] == [day]


@pytest.mark.parametrize("said, day", [
    ("It's now due on 14 June instead of the 9th.", date(2023, 6, 9)),
    ("She now starts on 26 June, not the 19th.", date(2023, 6, 19)),
])
def test_a_day_replaced_said_by_its_number_is_of_the_month_said_before_it(said, day):
    assert find_dates(said, REF, prefer=tense_at(said))[-1].start == day


def test_a_weekday_left_out_is_no_date_and_two_days_of_a_month_are_both():
    # Walk-through 57: "any day except on 2026-09-14 (Monday)", and a plan; "on 5 and on 2026-11-06"
    assert find_dates("Ben is happy with any day except Monday.", REF) == []
    assert find_dates("I can do any weekday apart from Tuesday.", REF) == []
    [m] = find_dates("The team offsite will be in Porto on 5 and 6 November.", REF, prefer="future")
    assert (m.phrase, m.start, m.end) == ("5 and 6 November", date(2023, 11, 5), date(2023, 11, 6))
    [m] = find_dates("We're away 5-6 November.", REF, prefer="future")
    assert (m.start, m.end) == (date(2023, 11, 5), date(2023, 11, 6))


def test_what_was_promised_for_a_month_is_ahead():
    # Said in May, in the past tense: the promise is for this December, not the last.
    said = "Halden promised the remaining €1,800 for early December."
    assert tense_of(said) == "future"
    [m] = find_dates(said, REF, prefer=tense_at(said))
    assert (m.start, m.end) == (date(2023, 12, 1), date(2023, 12, 10))


def test_tense_decides_a_bare_weekday():
    assert one("I was there on Saturday", prefer="past").start == date(2023, 5, 6)
    assert one("I'll be there on Saturday").start == date(2023, 5, 13)


def test_todays_weekday_in_a_sentence_about_today_is_today():
    # Said on a Monday: "Monday" beside "today" is this one; alone, it is next week's.
    assert [m.start for m in find_dates("First Monday session today!", REF) if m.granularity == "day"] \
        == [date(2023, 5, 8), date(2023, 5, 8)]
    assert one("See you on Monday.").start == date(2023, 5, 15)
    assert [m.start for m in find_dates("See you on Tuesday, today was long.", REF)] \
        == [date(2023, 5, 9), date(2023, 5, 8)]


def test_this_weekend_in_the_past_tense_is_the_one_just_gone():
    # Said on a Monday: this week's weekend is still to come, so "we moved this weekend" is
    # the weekend just before.
    assert one("We moved this weekend", prefer="past").start == date(2023, 5, 6)
    assert one("We're moving this weekend", prefer="future").start == date(2023, 5, 13)
    assert one("this weekend").start == date(2023, 5, 13)
    sunday = datetime(2023, 5, 14, 18, 0, tzinfo=timezone.utc)  # its own weekend: already here
    assert find_dates("We moved this weekend", sunday, prefer="past")[0].start == date(2023, 5, 13)


def test_may_the_modal_is_not_a_month():
    assert find_dates("I may go, it may rain", REF) == []
    assert one("in May").start == date(2023, 5, 1)


def test_rendering():
    m = one("I went there yesterday.")
    assert render(m) == "yesterday (2023-05-07)"
    assert inline_text(m) == "on 2023-05-07 (yesterday)"
    assert inline_text(one("next month")) == "in June 2023 (next month)"


# None of these holds an English date phrase ("昨天" is Chinese for "yesterday": the patterns
# read English only), so nothing is found, and nothing raises.
@pytest.mark.parametrize("text", ["", "   ", "no dates here at all", "🎉", "你好，昨天", "x" * 40_000])
def test_odd_input(text):
    assert find_dates(text, REF) == []


def _ungated(text: str, ref: datetime, prefer: str | None, monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """find_dates without any gate: every pattern over the whole text."""
    with monkeypatch.context() as m:
        m.setattr(d, "_maybe_dates", lambda text, low: True)
        m.setattr(d, "_PATTERNS", [(regex, handler, None) for regex, handler, _needs in d._PATTERNS])
        return [(x.phrase, x.start, x.end, x.granularity, x.pos) for x in find_dates(text, ref, prefer=prefer)]


_PHRASES = [
    "yesterday", "the day before yesterday", "tomorrow", "tonight", "last night", "this morning",
    "last week", "next week", "the past week", "the week before last", "this weekend",
    "over the weekend", "next weekend", "last month", "next month", "the end of the month",
    "last year", "next year", "in 2021", "since 2019", "two days ago", "a few weeks ago",
    "3 months ago", "in two days", "in 3 weeks", "two weeks from now", "within the next 5 days",
    "over the past 2 months", "on Monday", "last Tuesday", "next Friday", "this Sunday",
    "in May", "last June", "next March", "early July", "mid August", "late September",
    "May 5", "5 May", "the 3rd of June", "June 3rd, 2022", "December 2022", "on the 21st",
    "2023-04-01", "4/1/2023", "1/4/23", "summer 2021", "last summer", "this winter",
    "in the spring", "Sundays", "may", "a day", "March on", "the 2 may",
]


@pytest.mark.parametrize("prefer", [None, "past", "future"])
def test_the_gates_change_nothing(prefer, monkeypatch):
    """The substring gates only skip patterns that cannot match: same output as no gate at all."""
    texts = [f"We talked about it {p}." for p in _PHRASES]
    texts += [f"{a} and then {b}" for a, b in itertools.islice(itertools.combinations(_PHRASES, 2), 0, None, 7)]
    for text in texts:
        got = [(m.phrase, m.start, m.end, m.granularity, m.pos) for m in find_dates(text, REF, prefer=prefer)]
        assert got == _ungated(text, REF, prefer, monkeypatch), text


@pytest.mark.parametrize("said, day", [
    # Moved to a day, due by a day: ahead, whatever the tense of the verb (REF is Monday 8 May 2023).
    ("Also, launch slipped to November 2nd.", date(2023, 11, 2)),
    ("The demo was moved to Friday.", date(2023, 5, 12)),
    ("We moved the Globex demo to Friday.", date(2023, 5, 12)),
    ("I promised Laura the security questionnaire by Friday.", date(2023, 5, 12)),
    # Told in the past, as before.
    ("The scan got moved to Friday, then I was wiped out.", date(2023, 5, 5)),
    ("We moved in December.", date(2022, 12, 1)),
    ("I had it done by Friday.", date(2023, 5, 5)),
])
def test_a_day_open_in_its_year_or_week_is_read_by_the_sentence(said, day):
    [m] = find_dates(said, REF, prefer=tense_of(said))
    assert m.start == day


@pytest.mark.parametrize("said, days", [
    # Each clause in its own tense, a condition and a schedule's new day ahead (REF: Monday 8 May).
    ("Engineering missed the Nov 12 date, the new promise is a fix by December 10.",
     [date(2022, 11, 12), date(2023, 12, 10)]),
    ("Sales offered them 15% off if they sign before December 1.", [date(2023, 12, 1)]),
    ("I offered 10% if they renew by January 15.", [date(2024, 1, 15)]),
    ("The QBR moved again, it's now June 3.", [date(2023, 6, 3)]),
    ("The physio moved it to Wednesday the 10th.", [date(2023, 5, 10)]),
    # A clause that says nothing of when is read as the sentence is.
    ("In June, we went to Rome.", [date(2022, 6, 1)]),
    # A thing's day said in a clause of its own after a past one ("... and her onsite is on"), a
    # day with its hour, a value's change from a day: ahead. A day moved from: the nearest.
    ("Ana passed the portfolio review and her onsite is on 1 June at 11am.", [date(2023, 6, 1)]),
    ("Sam passed the portfolio review; onsite on 6 June at 3pm.", [date(2023, 6, 6)]),
    ("Flat 2's rent goes up to £1,150 from December.", [date(2023, 12, 1)]),
    ("We moved Tom's onsite from 5 May to 16 May.", [date(2023, 5, 5), date(2023, 5, 16)]),
    ("I went to Lisbon on 3 June and it was lovely.", [date(2022, 6, 3)]),
    # What is called off was ahead; a timetable's month too.
    ("The test centre cancelled the 14 November session, so my exam is now on 12 December.",
     [date(2023, 11, 14), date(2023, 12, 12)]),
    ("My real A-level exams start in April, so we have time.", [date(2024, 4, 1)]),
])
def test_a_day_is_read_in_the_tense_of_its_clause(said, days):
    assert [m.start for m in find_dates(said, REF, prefer=tense_at(said))] == days


@pytest.mark.parametrize("said, day", [
    # "next Tuesday" said on a Monday is next week's (the day after is "tomorrow").
    ("Physio appointment next Tuesday at 8am.", date(2023, 5, 16)),
    ("See you next Sunday.", date(2023, 5, 21)),
    ("See you this coming Tuesday.", date(2023, 5, 9)),
    # "the 19th" after "to" or a weekday is a day; with its weekday, in the month where it is one, near (within
    # two months; else the weekday is the slip: walk-through 128's "It's now Wednesday the 19th instead of the 12th"
    # meant the coming 19th, a Thursday)
    ("I moved my appointment to Thursday the 19th.", date(2023, 5, 19)),
    ("I moved my appointment to Friday the 16th.", date(2023, 6, 16)),
    ("They moved it to the 19th.", date(2023, 5, 19)),
    ("Porto from the 22nd until 3 Jan.", date(2022, 12, 22)),
])
def test_a_weekday_or_a_day_of_the_month(said, day):
    assert find_dates(said, REF, prefer=tense_at(said))[0].start == day


def test_days_of_a_routine_are_no_dates():
    assert find_dates("I can train Tuesday and Thursday evenings.", REF, prefer="future") == []
    assert find_dates("She does gymnastics on Thursday nights.", REF, prefer="future") == []
    # a fortnight's day is one of a routine too (each had been the coming one: "Recycling goes out
    # every other" on 8 May, the weekday lost to the date)
    for said in ("Recycling goes out every other Monday.", "We meet every second Friday at the pub.",
                 "Football is on alternate Saturdays.", "Every third Tuesday is the committee."):
        assert find_dates(said, REF, prefer="future") == [], said
    assert [m.start for m in find_dates("See you Tuesday evening.", REF, prefer="future")] == [date(2023, 5, 9)]


def test_an_ordinal_that_names_no_day_is_no_date():
    assert find_dates("She came in the 3rd in line, the 19th century house.", REF) == []


@pytest.mark.parametrize("said", [
    # A state in -ed ("is closed") or an acknowledgement ("noted", "got it") says nothing of when:
    # the nearest such day is meant, not last year's ("the first week of December" said in October).
    "Northwind is closed for inventory the first week of December.",
    "Demo with Globex on October 14 at 2pm, noted.",
    "Got it, no Northwind activity in December.", "Nothing can be signed in December."])
def test_a_state_or_an_acknowledgement_in_ed_is_no_past(said):
    assert tense_of(said) is None


@pytest.mark.parametrize("said_on, said, day", [
    # A sales rep's notes (session 42's walkthrough): each was read as last year's.
    ("2026-12-02", "Priya asked to move the kickoff to December 10.", date(2026, 12, 10)),
    ("2026-09-29", "Rahul Menon confirmed the pilot starts October 6 with five agents.", date(2026, 10, 6)),
    ("2026-09-10", "Harbor is in a procurement freeze until March.", date(2027, 3, 1)),
    ("2026-10-02", "If you hold the price, I can get budget approved for March.", date(2027, 3, 1)),
    # ... and what stays in the past
    ("2026-10-02", "I lived in Leeds until March.", date(2026, 3, 1)),
    ("2026-10-02", "The course started October 6.", date(2025, 10, 6)),
])
def test_a_day_ahead_in_a_reported_or_lasting_sentence_is_ahead(said_on, said, day):
    ref = datetime.fromisoformat(said_on + "T10:00:00+00:00")
    [m] = find_dates(said, ref, prefer=tense_at(said))
    assert m.start == day, (said, m)


def test_a_weeks_routine_has_no_dates_and_a_range_of_weekdays_runs_forward():
    # Walk-through 48: "Dmitri works on 2026-10-06 (Tuesday) to 2026-10-04 (Sunday)".
    wed = date(2026, 9, 30)
    assert find_dates("I work Tuesday to Sunday.", wed) == []
    assert find_dates("Her day off is Monday.", wed) == []
    days = find_dates("I'm in Berlin from Monday to Friday.", wed)
    assert [(d.start, d.direction) for d in days] == [(date(2026, 10, 5), "future"), (date(2026, 10, 9), "future")]


def test_the_weekend_of_a_day_and_a_full_stop_after_a_month_are_not_the_phrase():
    # Walk-throughs 47/48: "free over the weekend of 2026-11-14 (on the weekend) of 2027-01-09 (9
    # January.)", "due by 2026-12-15 (15 December.)".
    mon = date(2026, 11, 9)
    [day] = find_dates("She's free on the weekend of 9 January.", mon)
    assert (day.phrase, day.start) == ("9 January", date(2027, 1, 9))
    assert find_dates("It's on 9 Jan. 2027.", mon)[0].phrase == "9 Jan. 2027"


def test_time_off_asked_for_lies_ahead():
    # Walk-through 48: said on 27 November, "18 December" was last year's.
    said = "Marta asked for 18 December off, I said yes."
    [day] = find_dates(said, date(2026, 11, 27), prefer=tense_at(said))
    assert day.start == date(2026, 12, 18)


def test_a_day_moved_to_or_asked_for_lies_ahead_and_a_range_shares_its_end_year():
    # Walk-throughs 49/50: each was last year's ("2025-11-24", "2025-12-10", "2026-06-13").
    for said, at, day in [("The technician had a clash, so our pH meter booking moved to 24 November.",
                           date(2026, 11, 16), date(2026, 11, 24)),
                          ("Dr Lin has asked me to lead the revision evening on 10 December.",
                           date(2026, 11, 26), date(2026, 12, 10))]:
        assert find_dates(said, at, prefer=tense_at(said))[0].start == day
    said = "The wedding moved from June 13 to June 20, 2027."
    days = find_dates(said, date(2026, 11, 26), prefer=tense_at(said))
    assert [d.start for d in days] == [date(2027, 6, 13), date(2027, 6, 20)]


@pytest.mark.parametrize("said_on, said, days", [
    # Walk-through 60: each was a year out. "Friday the 9th", said on Friday 2 October, is a week
    # ahead (it was 9 January); a day replaced is the nearest (2027-09-30); "was due" is gone by
    # (2027-08-31); a present "ends on" after a past clause is ahead (2025-10-31).
    (date(2026, 10, 2), "she suggested Friday the 9th", [date(2026, 10, 9)]),
    (date(2026, 10, 2), "roughs are now due 14 October instead of 30 September",
     [date(2026, 10, 14), date(2026, 9, 30)]),
    (date(2026, 9, 15), "it's £850, it was due on 31 August", [date(2026, 8, 31)]),
    (date(2026, 10, 2), "Priya says Brightline's budget got cut and the retainer ends on 31 October",
     [date(2026, 10, 31)]),
    (date(2026, 11, 20), "Dan now says Friday 26 February, not 29 January", [date(2027, 2, 26), date(2027, 1, 29)]),
    # Walk-through 61: "all done in one day" is how long it took, not a day ahead
    (date(2026, 11, 3), "Tom did the first fix yesterday, all done in one day", [date(2026, 11, 2)]),
    (date(2026, 11, 3), "We'll be done in two weeks.", [date(2026, 11, 17)]),
    (date(2026, 11, 3), "I'll see you Thursday the 19th", [date(2026, 11, 19)]),
    # Re-run of walk-through 60: a price from a day is the nearest such day (said on 6 November, it
    # had been 2027's; said on 2 October after "raised", 2025's)
    (date(2026, 11, 6), "and I raised my day rate again, it's £450 from 1 November", [date(2026, 11, 1)]),
    (date(2026, 10, 2), "and I raised my day rate again, it's £450 from 1 November", [date(2026, 11, 1)]),
])
def test_a_days_year_is_the_nearest_its_words_allow(said_on, said, days):
    assert [m.start for m in find_dates(said, said_on, prefer=tense_at(said))] == days


def test_a_weekday_after_a_is_any_such_day_and_no_date():
    # Walk-through 59: "never book private parties on a Monday" had become "on a 2026-08-24 (Monday)".
    assert find_dates("Rule: never book private parties on a Monday.", REF, prefer="future") == []
    assert find_dates("never put her on a Sunday shift", REF, prefer="future") == []


def test_weekdays_listed_with_no_date_and_a_changeover_day_are_a_routines():
    # Walk-throughs 80, 83: "gym plan: monday wednesday friday at 7am" was three dates, the Monday
    # after the Wednesday; "Changeover day is Saturday" one Saturday.
    for said in ("gym plan: monday wednesday friday at 7am", "new gym schedule: tuesday, thursday and saturday",
                 "Changeover day is Saturday for both", "training days are Tuesday/Thursday"):
        assert find_dates(said, REF) == [], said
    # (a day listed before a date, or one alone, is still a day)
    assert [m.start for m in find_dates("we could meet Monday and then Friday 12 May", REF)] == [
        date(2023, 5, 15), date(2023, 5, 12)]
    assert [m.start for m in find_dates("gym on wednesday", REF)] == [date(2023, 5, 10)]


@pytest.mark.parametrize("said, ref, days", [
    # Walk-through 109: the 11th of a list that says its month at its end had been September's (a Friday too)
    ("Premier Inn Harbourside, Friday 11th and Saturday 12th December, £89 a night", date(2026, 10, 23),
     [date(2026, 12, 11), date(2026, 12, 12)]),
    ("Tuesday 8th or Wednesday 9th June works", date(2026, 11, 2), [date(2027, 6, 8), date(2027, 6, 9)]),
    # Walk-throughs 111 and 110: a day agreed to, said in the past tense, is ahead (it had been 19 October,
    # gone by, and 2025's December)
    ("cricket club said yes for the 19th!! it's £300 for the evening", date(2026, 10, 27), [date(2026, 11, 19)]),
    ("I got an extension to 2 December", date(2026, 11, 29), [date(2026, 12, 2)]),
])
def test_a_day_of_a_list_is_of_the_month_said_at_its_end_and_a_day_agreed_to_is_ahead(said, ref, days):
    at = datetime.combine(ref, datetime.min.time(), timezone.utc)
    assert [m.start for m in find_dates(said, at, prefer=tense_at(said))] == days
