"""Days said the way people book and plan (session 63's walk-throughs): "wednesday week", "two weeks
today", "a week on Monday"; a day something is booked for, in a sentence told in the past ("went
with Clifton Removals, £780 for the 27th"); the day an event is moved from, its month not the new
day's ("a knee operation on the 19th so they've moved the party to Saturday 12th December");
"Sunday roast" and "two gigs in one day" no days; "fingers crossed" a hope, the day ahead."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from app.construction.dates import find_dates
from tests.conversation import extracted

THU = date(2026, 11, 5)  # a Thursday


def days(text: str, ref: date = THU, prefer: str | None = None) -> list[tuple[str, date]]:
    return [(m.phrase, m.start) for m in find_dates(text, ref, prefer)]


def test_a_day_a_week_or_weeks_on():
    assert days("exchange is pencilled in for wednesday week, the 18th") == [("wednesday week", date(2026, 11, 18))]
    assert days("her party is two weeks today at The Granary") == [("two weeks today", date(2026, 11, 19))]
    assert days("see you a week on Monday") == [("a week on Monday", date(2026, 11, 16))]
    assert days("a week tomorrow then") == [("a week tomorrow", date(2026, 11, 13))]
    assert days("the week after that we go") == []  # no weekday, no day


def test_what_is_booked_for_a_day_is_ahead_in_a_sentence_told_in_the_past():
    said = "we got 3 quotes and went with Clifton Removals, £780 for the 27th including packing"
    assert days(said, prefer="past") == [("the 27th", date(2026, 11, 27))]
    assert days("I was off until the 2nd", prefer="past") == [("the 2nd", date(2026, 11, 2))]


def test_the_day_moved_from_is_not_read_in_the_month_moved_to():
    said = "Geoff has to have a knee operation on the 19th so they've moved the party to Saturday 12th December"
    assert days(said, ref=date(2026, 11, 3)) == [("on the 19th", date(2026, 11, 19)),
                                                 ("12th December", date(2026, 12, 12))]


def test_a_dish_and_a_count_in_a_day_are_no_days():
    assert days("Sunday roast goes up too, from £17 to £18.50") == []
    assert days("never two gigs in one day, I don't care how much they pay") == []
    assert days("we'll know in two days") == [("in two days", date(2026, 11, 7))]


def test_a_day_said_with_a_hope_is_ahead_and_pencilled_in_is_its_events_day():
    ex = extracted([("Jess", "first rehearsal with Kieran on Thursday, fingers crossed"),
                    ("Tom", "also exchange is pencilled in for wednesday week, the 18th")],
                   datetime(2026, 11, 5, 19, 0, tzinfo=timezone.utc), timedelta(minutes=1))  # a Thursday
    dated = {(f.subject, f.object) for f in ex.facts if f.predicate == "date is"}
    assert dated == {("first rehearsal", "2026-11-12"), ("exchange", "2026-11-18")}, dated


def test_a_weekday_said_as_the_weeks_busiest_is_no_day():
    assert days("Saturday is my busiest day so no time off") == []
    assert days("Saturday is the party") == [("Saturday", date(2026, 11, 7))]


def test_how_an_event_went_is_no_new_day_of_it():
    # walk-through 122: "Physio with Tom yesterday went really well" ended the first appointment's day (16 October)
    ex = extracted([("Claire", "Fairfield rang - the physio has moved to Friday the 16th at 5.30pm"),
                    ("Claire", "Physio with Tom yesterday went really well")],
                   datetime(2026, 10, 13, 19, 0, tzinfo=timezone.utc), timedelta(days=37))
    dated = [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"]
    assert dated == [("physio", "2026-10-16")], dated


def test_a_weekdays_training_is_every_weeks_no_day():
    # walk-through 122: "saturday training got moved, it's 8.30 now instead of 7 from next week" was the Saturday gone
    # by's, and ended the county gala's day
    assert [p for p, _ in days("saturday training got moved, it's 8.30 now instead of 7 from next week",
                               ref=date(2026, 11, 14), prefer="past")] == ["next week"]


def test_a_weeks_family_day_is_no_day_and_a_day_that_would_suit_is_ahead():
    # walk-through 125: "Sunday is family day" was one Sunday; "she said Sunday would suit her best", said on a
    # Thursday, the Sunday gone by
    from app.construction.local.inline_dates import tense_of
    thu = date(2026, 12, 3)
    assert days("Sunday is family day, no jobs", ref=thu) == [] and days("Saturday's my day off", ref=thu) == []
    said = "she said Sunday would suit her best"
    assert days(said, ref=thu, prefer=tense_of(said)) == [("Sunday", date(2026, 12, 6))]


def test_a_day_taken_back_inside_its_sentence_is_the_day_said_after():
    # walk-through 127: "Committee meeting moved to Wednesday 14th, no wait, Thursday 15th" kept the 14th
    ex = extracted([("Helen", "Committee meeting moved to Wednesday 14th, no wait, Thursday 15th")],
                   datetime(2026, 10, 7, 19, 0, tzinfo=timezone.utc))
    assert [(f.subject, f.object, f.retracted) for f in ex.facts if f.predicate == "date is"] == [
        ("committee meeting", "2026-10-15", False)]


def test_the_new_year_is_the_first_of_january_ahead():
    # walk-through 125: "putting the day rate up to £250 from the new year" held from its saying (14 November)
    nov = date(2026, 11, 14)
    assert days("from the new year", ref=nov) == [("the new year", date(2027, 1, 1))]
    assert days("happy new year!", ref=nov) == [] and days("new year resolutions", ref=nov) == []
    ex = extracted([("Dave", "I'm putting the day rate up to £250 from the new year")],
                   datetime(2026, 11, 14, 10, 0, tzinfo=timezone.utc))
    [rate] = [f for f in ex.facts if f.single_valued]
    assert (rate.object, rate.valid_from.date()) == ("£250", date(2027, 1, 1))


def test_what_runs_out_lapses_or_renews_on_a_day_runs_out_ahead():
    # walk-through 126: "Kev said the gas safety certificate runs out on 9 January", said in November, was the January
    # gone by (the past of "said")
    from app.construction.local.inline_dates import tense_of
    nov = date(2026, 11, 25)
    for said in ("Kev said the gas safety certificate runs out on 9 January, so Graham has to book the check",
                 "the van insurance lapses on 3 February", "my railcard renews on the 2nd"):
        assert [d.year * 100 + d.month for _, d in days(said, ref=nov, prefer=tense_of(said))] in ([202701], [202702],
                                                                                                     [202612])
    said = "the milk ran out on Monday"
    assert days(said, ref=nov, prefer=tense_of(said)) == [("Monday", date(2026, 11, 23))]


def test_every_day_of_a_list_takes_the_month_said_at_its_end():
    # walk-through 130: "Thursday 10th, Friday 11th and Saturday 12th December", said on 14 September, read its
    # first day as Thursday 10 September (gone by; the month was only taken by the day right before it)
    said = "So the show dates are confirmed: Thursday 10th, Friday 11th and Saturday 12th December, 7.30pm every night"
    assert [d for _, d in days(said, ref=date(2026, 9, 14))] == [date(2026, 12, 10), date(2026, 12, 11),
                                                                 date(2026, 12, 12)]


def test_a_day_whom_something_is_moved_to_and_a_since_of_why_are_ahead():
    # walk-throughs 131 and 129: "They've moved us to the 31st May to 2nd June instead" (said 10 May) and "since Sam
    # Okafor starts with us on 16 November" (said in September) had been read a year back
    from app.construction.local.inline_dates import tense_at, tense_of
    said = "They've moved us to the 31st May to 2nd June instead"
    assert [d for _, d in days(said, ref=date(2025, 5, 10), prefer=tense_at(said))] == [date(2025, 5, 31),
                                                                                         date(2025, 6, 2)]
    said = "setting some ground rules for the group since Sam Okafor starts with us on 16 November"
    assert [d for _, d in days(said, ref=date(2026, 9, 28), prefer=tense_of(said))] == [date(2026, 11, 16)]
    assert tense_of("I've been vegan since March") == "past" and tense_of("we've lived here since 2019") == "past"


def test_a_weekday_someone_said_is_the_coming_one():
    # walk-through 129: "when are they due?" "Bytes said Friday" (said on Tuesday 17 November) was the 13th
    from app.construction.local.inline_dates import tense_of
    tue = date(2026, 11, 17)
    said = "Bytes said Friday"
    assert days(said, ref=tue, prefer=tense_of(said)) == [("Friday", date(2026, 11, 20))]
    said = "she said Monday was awful"
    assert days(said, ref=tue, prefer=tense_of(said)) == [("Monday", date(2026, 11, 16))]


def test_a_month_booked_on_a_condition_is_ahead():
    # walk-through 135: "I talked PowerHire down to £48 a day if we book the generator for every weekend in December",
    # said in November, was last December (from "talked")
    from app.construction.local.inline_dates import tense_of
    said = "I talked PowerHire down to £48 a day if we book the generator for every weekend in December"
    assert [d.year for _, d in days(said, ref=date(2026, 11, 12), prefer=tense_of(said))] == [2026]
