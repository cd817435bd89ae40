"""Which days a query names, for the day channel."""
from datetime import date

import pytest

from app.recollection.named_dates import MAX_DAYS, Period, asks_ahead, named_period

TODAY = date(2024, 3, 6)  # a Wednesday


@pytest.mark.parametrize("query, first, last", [
    ("What did Tim say about his injury on 16 November, 2023?", date(2023, 11, 16), date(2023, 11, 16)),
    ("What kind of painting did she share on October 13, 2023?", date(2023, 10, 13), date(2023, 10, 13)),
    ("the picture shared on December 1,2023", date(2023, 12, 1), date(2023, 12, 1)),
    ("notes from 2023-05-07", date(2023, 5, 7), date(2023, 5, 7)),
    ("the 3rd of Sept. 2021", date(2021, 9, 3), date(2021, 9, 3)),
    ("What did Joanna accomplish in January 2022?", date(2022, 1, 1), date(2022, 1, 31)),
    ("plans for Feb 2024", date(2024, 2, 1), date(2024, 2, 29)),  # a leap year's February
    ("between 1 May 2023 and 9 May 2023", date(2023, 5, 1), date(2023, 5, 9)),
    # a month's part, with its year or without
    ("What did Nadia weigh in early November 2023?", date(2023, 11, 1), date(2023, 11, 10)),
    ("had that changed by late October 2023?", date(2023, 10, 21), date(2023, 10, 31)),
    ("What did she weigh in mid February?", date(2024, 2, 11), date(2024, 2, 20)),
    ("on 31 February 2023", date(2023, 2, 1), date(2023, 2, 28)),  # no such day: its month
    # relative: counted from the day asked about
    ("what did I say today?", TODAY, TODAY),
    ("the restaurant we talked about yesterday", date(2024, 3, 5), date(2024, 3, 5)),
    ("anything new this week?", date(2024, 3, 4), date(2024, 3, 10)),
    ("what did Sam suggest last week", date(2024, 2, 26), date(2024, 3, 3)),
    ("what did we do last weekend", date(2024, 3, 2), date(2024, 3, 3)),
    ("plans made this month", date(2024, 3, 1), date(2024, 3, 31)),
    ("what did we settle last month", date(2024, 2, 1), date(2024, 2, 29)),
    ("where did we go camping in June?", date(2023, 6, 1), date(2023, 6, 30)),  # the last June
    ("yesterday and today", date(2024, 3, 5), TODAY),
])
def test_dates_are_read_as_the_days_they_name(query, first, last):
    assert named_period(query, TODAY) == Period(first, last)


def test_a_calendar_date_wins_over_a_relative_one():
    assert named_period("the week before 16 November 2023, not last week", TODAY) == \
        Period(date(2023, 11, 16), date(2023, 11, 16))


def test_last_month_in_january_is_december():
    assert named_period("last month", date(2024, 1, 15)) == Period(date(2023, 12, 1), date(2023, 12, 31))


@pytest.mark.parametrize("query", [
    "When did Caroline go to the LGBTQ support group?",  # no date
    "How many times did she go to the beach in 2023?",  # a bare year: too wide
    "I may go in summer 2021",  # "may" the verb, a season
    "from January 2020 to May 2023",  # too far apart to say "on this day"
    "", "9999-99-99 13/45", "x" * 4000,
])
def test_no_period_without_a_day_week_or_month(query):
    assert named_period(query, TODAY) is None


def test_a_span_is_kept_up_to_the_limit():
    assert named_period("1 March 2024 and 1 May 2024", TODAY).days == 62 == MAX_DAYS
    assert named_period("1 March 2024 and 2 May 2024", TODAY) is None


@pytest.mark.parametrize("query, ahead", [
    ("What did I promise to do?", True), ("What did Sam promise me?", True), ("What's on Jun's plate?", True),
    ("Any reminders for me?", True), ("What should I remind Maya about this week?", True),
    # what to bear in mind for a time ahead (walk-through 65: the nut-free cake was not listed)
    ("What should we keep in mind for next week's prep?", True), ("What did we prep last week?", False),
    ("What should I remember about Leo?", False),
    # what we have on at a time ahead (walk-through 68: next week's jobs, all active plans, not listed)
    ("What jobs have we got next week?", True), ("Do I have anything on tomorrow?", True),
    ("What's on this coming weekend?", True), ("What have we got in the fridge?", False),
    ("What did we have for dinner last Tuesday?", False),
    # the past, asked after: a thing promised or a reminder of something
    ("What did Joanna plan to do with the recipe Nate promised to share?", False),
    ("What is Melanie's hand-painted bowl a reminder of?", False),
    ("What did Maria make for her home to remind her of a trip to England?", False)])
def test_what_is_asked_as_ahead(query, ahead):
    assert asks_ahead(query) is ahead
