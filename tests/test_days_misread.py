"""Days whose year or month was read against the wrong tense (session 51's walk-throughs): a weekday
said wrong pulled a day three weeks ahead into last year; "won't" read as the past of "won"; who
confirmed it, told after, put the day it confirmed in the past."""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from app.construction.dates import find_dates
from app.construction.local.inline_dates import tense_at
from tests.conversation import extracted


def days(text: str, at: datetime) -> list[date]:
    return [d.start for d in find_dates(text, at, prefer=tense_at(text))]


@pytest.mark.parametrize("text, at, day", [
    # 29 October 2026 is a Thursday: the day ahead, said with the wrong weekday, not 2025's Wednesday
    ("also she's moving her date to Wednesday 29 October", datetime(2026, 10, 7), date(2026, 10, 29)),
    # ... but a weekday still settles a year the tense says little of: 8 May 2027 is a Saturday
    ("We played Saturday 8 May", datetime(2026, 9, 7), date(2027, 5, 8)),
    ("We played on Friday 28 August", datetime(2026, 9, 7), date(2026, 8, 28)),
    ("the building manager won't allow access on the 28th after all", datetime(2026, 11, 24), date(2026, 11, 28)),
    ("We won on the 14th", datetime(2026, 11, 24), date(2026, 11, 14)),
    ("Sale of the house completes on 13 November, Gareth confirmed", datetime(2026, 10, 27), date(2026, 11, 13)),
    ("We moved in on 13 November, Gareth said", datetime(2026, 10, 27), date(2025, 11, 13)),
    # what was offered lies ahead; what should come, too (session 52: 2025's November, the Monday before)
    ("they offered 22 November instead", datetime(2026, 10, 12), date(2026, 11, 22)),
    # session 54 (a band's tour): what was offered for a month, and a return wanted, lie ahead
    ("Priya wants us back in the spring", datetime(2026, 11, 29), date(2027, 3, 1)),
    ("Priya wants us back, she offered £700 for a headline in April", datetime(2026, 11, 29), date(2027, 4, 1)),
    ("we played there in April, it was packed", datetime(2026, 11, 29), date(2026, 4, 1)),
    # ... and what was booked, confirmed or settled for a day, and what holds until one (walk-through 84)
    ("booked the ATA certification exam!! October 17, online and proctored", datetime(2026, 9, 14), date(2026, 10, 17)),
    ("rebooked it for November 14", datetime(2026, 10, 12), date(2026, 11, 14)),
    ("Helix confirmed the job, deadline 20 November", datetime(2026, 10, 12), date(2026, 11, 20)),
    ("Helix Tourism confirmed the website job: 25,000 words, PL>EN and DE>EN, deadline November 20",
     datetime(2026, 10, 12), date(2026, 11, 20)),
    ("we settled on €0.13 per word from November", datetime(2026, 10, 27), date(2026, 11, 1)),
    ("signed with Julia Brenner, she's my accountant from October 1", datetime(2026, 9, 22), date(2026, 10, 1)),
    ("Lindqvist said Jonas Ek covers for her until March", datetime(2026, 11, 2), date(2027, 3, 1)),
    ("asked, they said November 27 is ok for everything", datetime(2026, 11, 9), date(2026, 11, 27)),
    # walk-throughs 100, 101, 103: a name given, a day reported, what must be done, a state until a month
    ("A woman called Priya wants the sofa for £350, collecting 5 December", datetime(2026, 11, 22), date(2026, 12, 5)),
    ("they said mid January", datetime(2026, 10, 28), date(2027, 1, 11)),
    ("I've got to get it before the 11th", datetime(2026, 11, 20), date(2026, 12, 11)),
    ("the MOT doesn't run out till February", datetime(2026, 10, 19), date(2027, 2, 1)),
    ("I called Priya on 5 December", datetime(2026, 11, 22), date(2025, 12, 5)),
    ("we went to Paris on October 17", datetime(2026, 9, 14), date(2025, 10, 17)),
    ("I ordered an adjustable stick, should come monday", datetime(2026, 10, 30), date(2026, 11, 2)),
    ("I ordered an adjustable stick, it came monday", datetime(2026, 10, 30), date(2026, 10, 26)),
    # what someone said they'd do lies ahead; what they'd done, behind
    ("Tomasz said he'd take over as trips officer from 19 October", datetime(2026, 10, 5), date(2026, 10, 19)),
    ("she'd left on 3 October", datetime(2026, 10, 5), date(2026, 10, 3)),
    # a change told done from a month: one just ahead is that one (session 57: last December had been read)
    ("Livery went up to £145 a week from December", datetime(2026, 11, 2), date(2026, 12, 1)),
    ("the yard put the fee up to £160 from January", datetime(2026, 11, 20), date(2027, 1, 1)),
    ("our rent went up to £900 from March", datetime(2026, 11, 2), date(2026, 3, 1)),
    # ... and what was entered for a day (the show entered lies ahead)
    ("The Hickstead show got cancelled, we've entered Maisie in the Ardingly show on 8 November instead",
     datetime(2026, 10, 12), date(2026, 11, 8)),
    ("entered him for the Autumn 10k on Sunday 15 November", datetime(2026, 10, 12), date(2026, 11, 15)),
    # walk-throughs 96-99: a death is gone by whatever follows it; what holds until a day ends ahead; a month
    # of last year is last year's; a start from a day just ahead in a clause of no tense of its own
    ("Dad passed away on the 28th of August and we're trying to keep on top of everything",
     datetime(2026, 9, 14), date(2026, 8, 28)),
    ("Rhys said 15kg max till January", datetime(2026, 12, 3), date(2027, 1, 1)),
    ("I was there until 3 November", datetime(2026, 12, 3), date(2026, 11, 3)),
    ("She had laminitis in April last year", datetime(2026, 9, 22), date(2025, 4, 1)),
    ("they can finally give us what we wanted, so from 2nd Nov Isla's days become Mon, Wed and Thu",
     datetime(2026, 10, 8), date(2026, 11, 2)),
    # walk-through 112: a sum one goes up to from a month, said after a past; a day only guessed at, reported
    ("I've had the pay rise confirmed so I'm happy to go up to £475 a month from November", datetime(2026, 10, 20),
     date(2026, 11, 1)),
    ("Yes please, the receptionist said around the 25th of November, they'll text the exact date",
     datetime(2026, 10, 14), date(2026, 11, 25)),
    ("the receptionist said it was on the 25th of November", datetime(2026, 12, 14), date(2026, 11, 25)),
])
def test_a_days_year_follows_the_tense_of_its_own_words(text, at, day):
    assert days(text, at.replace(tzinfo=timezone.utc)) == [day]


@pytest.mark.parametrize("text, said", [
    ("also Dr Okafor increased Leo's Keppra to 300mg twice a day from today", ["today"]),
    ("thats twice in 3 months", []),
    ("see you in 3 months", ["in 3 months"]),
    ("two days from today we fly", ["two days from today"]),
])
def test_how_often_is_no_day(text, said):
    assert [d.phrase for d in find_dates(text, datetime(2026, 10, 9, tzinfo=timezone.utc))] == said


@pytest.mark.parametrize("text, at, day", [
    ("the camera body is now expected back October 14", datetime(2026, 10, 6), date(2026, 10, 14)),
    ("my flights got changed, I'm now away 26 Oct to 8 Nov", datetime(2026, 10, 6), date(2026, 10, 26)),
])
def test_now_expected_or_now_away_is_ahead(text, at, day):
    assert days(text, at.replace(tzinfo=timezone.utc))[0] == day


def test_a_bare_nth_is_the_day_of_that_number_the_text_names_with_its_month():
    # Walk-through 78: "the party moves to the 21st" had been September's 21st, the month it was said in.
    at = datetime(2026, 9, 15, tzinfo=timezone.utc)
    assert days("but they only had Saturday 21 November free, so the party moves to the 21st", at) == [
        date(2026, 11, 21), date(2026, 11, 21)]
    assert days("on the 3rd we fly, and on 14 October we land", at) == [date(2026, 10, 3), date(2026, 10, 14)]


def test_a_month_with_its_day_after_coming_and_a_day_replaced_still_ahead_this_month():
    # Walk-through 89: "it's now coming October 2 instead of the 25th", said on 24 September, had
    # been "October 2026 (coming October) 2" and 25 October (after the new day it replaced).
    at = datetime(2026, 9, 24, tzinfo=timezone.utc)
    assert days("the term sheet is delayed, it's now coming October 2 instead of the 25th", at) == [
        date(2026, 10, 2), date(2026, 9, 25)]
    # ... a day of the new month still, when it comes before the new day or this month's is past
    assert days("now due on 14 October instead of the 9th", at) == [date(2026, 10, 14), date(2026, 10, 9)]
    assert days("moved to 3 October rather than the 28th", datetime(2026, 9, 29, tzinfo=timezone.utc)) == [
        date(2026, 10, 3), date(2026, 10, 28)]
    assert days("see you next October", at) == [date(2026, 10, 1)]  # (a month alone, as before)


def test_the_weekday_of_a_span_said_before_it_and_a_ranges_start_without_the():
    # Walk-throughs 97 and 96: "the Saturday night" of a 27-29 November visit had been the 21st; "19th to 27th
    # December" had no first day.
    assert days("My mum is visiting 27-29 November, she can babysit on the Saturday night",
                datetime(2026, 11, 15, tzinfo=timezone.utc)) == [date(2026, 11, 27), date(2026, 11, 28)]
    assert days("I'm away 19th to 27th December", datetime(2026, 11, 20, tzinfo=timezone.utc)) == [
        date(2026, 12, 19), date(2026, 12, 27)]
    assert days("we play Saturday", datetime(2026, 11, 15, tzinfo=timezone.utc)) == [date(2026, 11, 21)]


def test_the_weekday_is_the_one_named_with_its_date_in_the_same_turn():
    # Walk-through 98: "I'm quoting at the Hendersons on the tuesday" after "Tuesday 8th December" had been
    # read as the coming Tuesday, the 1st.
    at = datetime(2026, 11, 26, 10, tzinfo=timezone.utc)  # a Thursday
    said = "put him in for Tuesday 8th December. no wait, wednesday 9th, I'm quoting at the Hendersons on the tuesday"
    assert days(said, at) == [date(2026, 12, 8), date(2026, 12, 9), date(2026, 12, 8)]
    facts = extracted([("Bethan", said)], at).facts
    quoting = next(f for f in facts if "Hendersons" in f.text)
    assert "2026-12-08 (tuesday)" in quoting.text and "2026-12-01" not in quoting.text
    # ... and a Tuesday no date names stays the coming one
    assert days("I'm quoting at the Hendersons on the tuesday", at) == [date(2026, 12, 1)]


def test_a_bare_nth_or_weekday_is_the_day_ahead_the_turns_just_before_named():
    # Walk-through 102: "They've offered us Sunday 11th April instead" then "Sunday afternoon might be better" and
    # "Ros is fine for the 11th" had been the coming Sunday (29 November) and this month's 11th, gone by.
    at = datetime(2026, 11, 23, 11, 13, tzinfo=timezone.utc)
    ex = extracted([("Helen", "Yep. They've offered us Sunday 11th April instead, 3pm. I've said yes"),
                    ("Owen", "Sunday afternoon might actually be better for the older members tbh"),
                    ("Cadence", "Would you like me to check who needs to be told about the new concert date?"),
                    ("Helen", "Rosalind first. Actually I already texted her, Ros is fine for the 11th")], at,
                   assistant="Cadence")
    sunday = next(f for f in ex.facts if "afternoon" in f.text)
    ros = next(f for f in ex.facts if "Ros is fine" in f.text)
    assert sunday.event_date == ros.event_date == date(2027, 4, 11)
    # ... never a day gone by ("we met on Sunday"), nor one the turns before do not name
    ex = extracted([("Helen", "They've offered us Sunday 11th April instead"),
                    ("Owen", "We met on Sunday and agreed the programme")], at)
    assert next(f for f in ex.facts if "programme" in f.text).event_date == date(2026, 11, 22)
    ex = extracted([("Owen", "Ros is fine for the 11th")], at)
    assert ex.facts[0].event_date == date(2026, 12, 11)


def test_news_announced_is_neither_fact_nor_plan():
    # Walk-throughs 102 and 103: "You will not believe this." was a plan for a month, "Owen will not believe this."
    for said in ("You will not believe this. The town hall is closing for rewiring the whole of March",
                 "you're not going to believe this. They've run out of Fiasp again"):
        ex = extracted([("Owen", "Tenors sectional on saturday was great btw"), ("Helen", said)],
                       datetime(2026, 11, 23, 11, tzinfo=timezone.utc))
        assert not [f for f in ex.facts if "believe" in f.text] and not [
            o for o in ex.foresights if "believe" in o.text]
        assert len([f for f in ex.facts if f.turn_ids == ["t1"]]) == 1


def test_a_weekday_is_the_one_named_the_turn_before_not_three_turns_back():
    # Walk-through 100 (second run): "I'll make it on the thursday evening" took the Thursday the assistant had said
    # three turns before (the engineer's, 12 November), not the coming one.
    at = datetime(2026, 11, 2, 20, tzinfo=timezone.utc)
    ex = extracted([("Crumb", "So Marek's visit is Thursday 12 November at 6:30am."),
                    ("Nadia", "Mrs Marsh rang, she wants a birthday cake for Oscar, he's turning 6 on Friday 20th November"),
                    ("Tom", "we'll have to do it completely separately then, no sesame anywhere near"),
                    ("Nadia", "I'll make it on the thursday evening after we've deep cleaned")], at, assistant="Crumb")
    assert next(f for f in ex.facts if "deep cleaned" in f.text).event_date == date(2026, 11, 5)


def test_a_weekday_as_usual_or_of_a_class_is_a_weeks_day_not_a_date():
    # Walk-throughs 100 and 103: "market is Saturday as usual" and "Thursday is your spin class" had been one
    # Saturday and one Thursday (plans ending that week).
    at = datetime(2026, 9, 14, 10, tzinfo=timezone.utc)
    assert days("market is Saturday as usual, pitch 14 at Riverside", at) == []
    assert days("reminding you Thursday is your spin class, 6:30pm at PureGym Leith", at) == []
    assert days("Friday is my last day at the bakery", at) == [date(2026, 9, 18)]


@pytest.mark.parametrize("text, at, day", [
    # Walk-through 106: said in November, the June a wedding was moved to is next year's, not this year's gone by
    ("the 26th June clashes with a diocese thing so they've moved Emma and Josh again, now Saturday 3 July",
     datetime(2026, 11, 10), date(2027, 6, 26)),
    ("the 3rd of March works for us", datetime(2026, 11, 10), date(2027, 3, 3)),
    # (a day of the past said so stays there)
    ("the 26th June was lovely, such a good wedding", datetime(2026, 11, 10), date(2026, 6, 26)),
    # walk-through 116: what one has got is had now ("we've got an onboarding call Thursday at 11am", said on Monday
    # 5 October, had been 1 October); what one got stays past
    ("we've got an onboarding call Thursday at 11am", datetime(2026, 10, 5), date(2026, 10, 8)),
    ("she's got the keys, we're in on Friday", datetime(2026, 10, 5), date(2026, 10, 9)),
    ("we got an email on Thursday", datetime(2026, 10, 5), date(2026, 10, 1)),
])
def test_a_day_a_present_verb_is_said_of_is_ahead(text, at, day):
    assert days(text, at.replace(tzinfo=timezone.utc))[0] == day


def test_a_bare_day_said_with_christmas_is_decembers():
    # Walk-through 107: "before my parents come for Christmas on the 19th", said on 8 November, was 19 November.
    at = datetime(2026, 11, 8, 10, tzinfo=timezone.utc)
    ex = extracted([("Hannah", "it all has to be finished before my parents come for Christmas on the 19th")], at)
    assert [f.event_date for f in ex.facts] == [date(2026, 12, 19)]


@pytest.mark.parametrize("text, at, said", [
    # walk-throughs 112 and 114: a rota's weekdays are every other week's, no date ("till sunday" had been the Sunday
    # before the Friday); a week's weekdays said after it are that week's (they had been the coming week's)
    ("kids are with me every other weekend, friday after school till sunday, handover at 5pm on the sunday",
     datetime(2026, 10, 3), []),
    ("I've booked the week of 14th December off btw, Monday to Friday", datetime(2026, 11, 5),
     [date(2026, 12, 14), date(2026, 12, 14), date(2026, 12, 18)]),
])
def test_weekdays_of_a_rota_are_no_days_and_those_of_a_week_named_are_its(text, at, said):
    assert days(text, at.replace(tzinfo=timezone.utc)) == said


@pytest.mark.parametrize("text, at, said", [
    # walk-through 113: the day a thing is moved from, said bare before the day it is moved to, is of that month (or
    # the one before); it had been the nearest 3rd, in December
    ("Quill, change of plan for the viva: Ingrid is teaching on the 3rd, so it's moved to Wednesday 17 February",
     datetime(2026, 11, 19), [date(2027, 2, 3), date(2027, 2, 17)]),
    ("it was on the 28th, now moved to 3 March", datetime(2026, 11, 19), [date(2027, 2, 28), date(2027, 3, 3)]),
    ("I'm off on the 3rd, and my exam is 17 February", datetime(2026, 11, 19), [date(2026, 12, 3), date(2027, 2, 17)]),
])
def test_a_bare_day_moved_from_is_of_the_month_it_is_moved_to(text, at, said):
    assert days(text, at.replace(tzinfo=timezone.utc)) == said


@pytest.mark.parametrize("text, at, said", [
    # walk-through 115 ("you sail on the 15th" of a January cruise had been November's 15th): a bare day said after a
    # month alone in its sentence is that month's; a month a thing is moved to is a month said
    ("The cruise line moved our cruise to January, we now sail on the 15th from Southampton",
     datetime(2026, 11, 2), [date(2027, 1, 1), date(2027, 1, 15)]),
    ("In February we fly out on the 8th and come back on the 12th", datetime(2026, 11, 2),
     [date(2027, 2, 1), date(2027, 2, 8), date(2027, 2, 12)]),
    # ... not a month named after the day, nor two months, nor a name after "to"
    ("The rent is due on the 15th, and we go away in January", datetime(2026, 11, 2), [date(2026, 11, 15), date(2027, 1, 1)]),
    ("Talked to April, she comes on the 12th", datetime(2026, 11, 2), [date(2026, 11, 12)]),
    ("In December or in January, pay on the 20th", datetime(2026, 11, 2),
     [date(2026, 12, 1), date(2027, 1, 1), date(2026, 11, 20)]),
])
def test_a_bare_day_after_a_month_said_alone_is_that_months(text, at, said):
    assert days(text, at.replace(tzinfo=timezone.utc)) == said


@pytest.mark.parametrize("text, at, said", [
    # walk-through 118 (said on Sunday 18 October 2026 and after): a day one can't do is ahead, not the Tuesday gone by
    ("Dave just texted, he can't do Tuesday, a job ran over.", datetime(2026, 10, 18), [date(2026, 10, 20)]),
    # ... a name given ("a couple called the Blakes") tells no past
    ("The Hendersons, 6 nights from Saturday 24 October for half term, and a couple called the Blakes for 3 nights "
     "from the 7th of November", datetime(2026, 10, 12), [date(2026, 10, 24), date(2026, 11, 7)]),
    ("yes 2 nights minimum from now till March", datetime(2026, 11, 17), [date(2027, 3, 1)]),
    # ... a routine's day switched is no date, neither the old nor the new
    ("Also I think we should switch changeover day from Saturday to Friday", datetime(2026, 10, 27), []),
    # ... "this week" ahead, said on a Sunday, is the week that begins tomorrow
    ("yes, I'll book it this week", datetime(2026, 10, 18), [date(2026, 10, 19)]),
    ("I rang them this week", datetime(2026, 10, 18), [date(2026, 10, 12)]),
    ("yes, I'll book it this week", datetime(2026, 10, 14), [date(2026, 10, 12)]),
    # (walk-through 119: what is put forward is ahead, whatever was said after it)
    ("Also let's cancel the launch social on the 4th, only 6 people said they'd come", datetime(2026, 11, 26),
     [date(2026, 12, 4)]),
    # (the "Met Office" tells no past: "storm warning for Saturday" said on a Thursday had been the Saturday gone by)
    ("storm warning for Saturday, Met Office amber for wind", datetime(2026, 11, 12), [date(2026, 11, 14)]),
    ("we met on Saturday", datetime(2026, 11, 12), [date(2026, 11, 7)]),
])
def test_days_a_holiday_let_said(text, at, said):
    assert days(text, at.replace(tzinfo=timezone.utc)) == said


def test_a_weekday_later_in_a_turn_is_not_the_turn_befores_and_till_a_month_told_now_is_ahead():
    # Walk-through 133: "Christmas: shut from Christmas Eve, back on Saturday 2 January" then "Mrs O brought the
    # Brompton back, rear tyre's worn through. Fitting a Marathon Plus saturday" (said 26 November) was 2 January;
    # "Leave it at £38 till January", said in November, held till last January.
    at = datetime(2026, 11, 26, 18, 10, tzinfo=timezone.utc)
    ex = extracted([("Gareth", "Christmas: shut from Christmas Eve, back on Saturday 2 January"),
                    ("Kieran", "Mrs O brought the Brompton back, rear tyre's worn through. Fitting a Marathon Plus "
                               "saturday")], at)
    assert next(f for f in ex.facts if "Marathon" in f.text).event_date == date(2026, 11, 28)
    ex = extracted([("Gareth", "Leave it at £38 till January")], datetime(2026, 11, 10, 12, tzinfo=timezone.utc))
    assert ex.facts[0].event_date == date(2027, 1, 1)
    ex = extracted([("Gareth", "I lived in Leeds until March")], datetime(2026, 11, 10, 12, tzinfo=timezone.utc))
    assert ex.facts[0].event_date == date(2026, 3, 1)
