"""Days moved and people meant in a group chat's words (session 64's walk-throughs): "Move the tech rehearsal to
Saturday the 5th please" moves the rehearsal, no home; "no wait, I mean Sunday the 6th" takes the day back and "Sorry
I mean Thursday 19th" only puts a weekday right; the assistant's "Updated: ... moved from <the old day> to <the user's
day>" says the users' words again; a booking said alone takes the day said next, "to when??" a day alone; a weekday
and number take the month the turn names; whom "he" or "she" is: never the assistant, never "the Patels", the one a
sentence opened with, not one who did something to an unnamed "him"."""
from __future__ import annotations

from datetime import date, datetime, timezone

from app.construction.local.foresight import situation_cues
from tests.conversation import extracted

NOV2 = datetime(2026, 11, 2, 22, 40, tzinfo=timezone.utc)


def test_a_plain_verb_before_an_event_moves_it_and_is_no_part_of_its_name():
    ex = extracted([("Helen", "Move the tech rehearsal to Saturday the 5th please")], NOV2)
    assert [(f.subject, f.predicate, f.object) for f in ex.facts] == [("tech rehearsal", "date is", "2026-12-05")]
    ex = extracted([("Helen", "Book the dress rehearsal for Sunday 6th December")], NOV2)
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [("dress rehearsal", "2026-12-06")]


def test_a_day_moved_is_no_house_move():
    assert "moving" not in situation_cues("let's move the tech rehearsal to Saturday the 5th then")[0]
    assert "moving" in situation_cues("we're moving to Leeds in March, remind me to book the van")[0]


def test_a_day_taken_back_with_i_mean_is_the_day_said_after():
    ex = extracted([("Helen", "let's take the dress rehearsal on the 5th - no wait, I mean Sunday the 6th")], NOV2)
    assert {f.event_date.isoformat() for f in ex.facts if f.event_date} == {"2026-12-06"}


def test_an_assistants_update_that_recalls_the_day_moved_from_says_the_users_words_again():
    ex = extracted([("Raj", "Saturday 5th December, 10am to 6pm"),
                    ("Helen", "ok move tech to Saturday the 5th then. Prompter can you update the list?"),
                    ("Prompter", "Updated: tech rehearsal moved from Sunday 29 November to Saturday 5 December, "
                                 "10am-6pm.")], NOV2, assistant="Prompter")
    assert not [f for f in ex.facts if f.subject == "Prompter" or "Updated" in f.text], ex.facts
    # an update that names a day no user said is kept (what it worked out)
    ex = extracted([("Helen", "can you move the tech rehearsal back a week?"),
                    ("Prompter", "Updated: tech rehearsal moved from Sunday 29 November to Sunday 6 December.")],
                   NOV2, assistant="Prompter")
    assert [f for f in ex.facts if "6 December" in f.text], ex.facts


def test_a_booking_said_alone_takes_the_day_said_next_and_a_weekday_that_fits_no_near_day_is_the_slip():
    # Walk-through 128: "We also booked his neutering. Thursday 12 November, drop off at 8am" gave the neutering no
    # day; "It's now Wednesday the 19th instead of the 12th" (said on 4 November 2026; the 19th is a Thursday) was
    # 19 August; "Sorry I mean Thursday 19th" then made "Claire means on 2026-11-19" and put the 12th back.
    ex = extracted([("Claire", "We also booked his neutering. Thursday 12 November, drop off at 8am")],
                   datetime(2026, 10, 14, 19, 12, tzinfo=timezone.utc))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [("neutering", "2026-11-12")]
    ex = extracted([("Claire", "Greenway rang again. Dr Kowalski's operating list changed, so the neutering is moved"),
                    ("Claire", "It's now Wednesday the 19th instead of the 12th"),
                    ("Claire", "Sorry I mean Thursday 19th. Still 8am drop off")],
                   datetime(2026, 11, 4, 18, 45, tzinfo=timezone.utc))
    assert [(f.subject, f.object, f.retracted) for f in ex.facts if f.predicate == "date is"] == [
        ("neutering", "2026-11-19", False)], ex.facts
    assert not [f for f in ex.facts if f.predicate == "means"], ex.facts
    # ... its weekday put right in the fact and its plan, the day replaced still the 12th
    told = [f.text for f in ex.facts if f.predicate == "date is"] + [o.text for o in ex.foresights if o.kind == "plan"]
    assert told and all("2026-11-19 (Thursday 19th)" in t and "instead of 2026-11-12" in t for t in told), told


def test_the_answer_to_to_when_after_a_move_is_the_new_day_and_who_is_not_in_on_a_day_is_ahead():
    # Walk-through 128: "they've moved Biscuit's booster" "To when?" "Tuesday 13th at 9am now" was "Claire said on
    # 2026-10-13 at 9am now" (the booster kept 8 October); "Dr Sandhu isn't in on Thursday", said on a Monday after
    # "Greenway just rang", the Thursday gone by.
    ex = extracted([("Claire", "Ugh Greenway just rang, Dr Sandhu isn't in on Thursday so they've moved Biscuit's booster"),
                    ("Pip", "To when?"), ("Claire", "Tuesday 13th at 9am now")],
                   datetime(2026, 10, 5, 8, 15, tzinfo=timezone.utc), assistant="Pip")
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [("booster", "2026-10-13")]
    assert {f.event_date.isoformat() for f in ex.facts if "Sandhu" in f.text} == {"2026-10-08"}
    # ... and the next move's day, a day alone after another user's "to when??"
    ex = extracted([("Tom", "oh and bad news, I can't do Tuesday after all, big meeting. Rang Greenway and moved the "
                            "booster again"), ("Claire", "to when??"), ("Tom", "Wednesday 14th, 5.30pm. last appointment")],
                   datetime(2026, 10, 10, 12, 42, tzinfo=timezone.utc))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [("booster", "2026-10-14")]
    ex = extracted([("Tom", "Rang Greenway and moved the booster again"), ("Claire", "how was class?"),
                    ("Tom", "Wednesday 14th was fine")], datetime(2026, 10, 10, 12, 42, tzinfo=timezone.utc))
    assert not [f for f in ex.facts if f.predicate == "date is"], ex.facts


def test_the_assistant_named_by_a_user_is_never_the_users_she():
    # Walk-through 131: "Fiona Campbell, Wren you'll hear about her a lot lol" "Which week is she thinking?" "she's
    # flying into Inverness on the 9th" had made the assistant, Wren, fly into Inverness.
    ex = extracted([("Rory", "Also my sister wants to come for a week! Fiona Campbell, Wren you'll hear about her a lot"),
                    ("Wren", "That's lovely. Which week is she thinking?"),
                    ("Rory", "she's flying into Inverness on the 9th and leaving the 15th")],
                   datetime(2025, 4, 26, 10, 31, tzinfo=timezone.utc), assistant="Wren")
    assert [f.subject for f in ex.facts if "Inverness" in f.text] == ["Fiona Campbell"], ex.facts


def test_a_sentence_without_its_subject_after_one_that_opened_with_he_is_his():
    # Walk-through 132: "He's in! Moved in yesterday" (of Dad, moving into the care home) was "Sarah moved in".
    ex = extracted([("Sarah", "He's in! Moved in yesterday. Craig and his lad were brilliant")],
                   datetime(2026, 10, 27, 20, 0, tzinfo=timezone.utc))
    assert not [f for f in ex.facts if "Sarah moved" in f.text] and any("he moved in" in f.text for f in ex.facts), \
        ex.facts
    ex = extracted([("Sarah", "Long day. Moved the last boxes into the loft")], datetime(2026, 10, 27, 20, tzinfo=timezone.utc))
    assert [f.subject for f in ex.facts if "boxes" in f.text] == ["Sarah"]


def test_a_family_said_the_patels_is_never_a_he():
    # Walk-through 132: "the Patels asked if they can keep the dining table" then "He's asked for his radio" (Dad) had
    # been "Patels is asked for his radio".
    ex = extracted([("Sarah", "And the Patels asked if they can keep the dining table, so I've cancelled the clearance"),
                    ("Sarah", "He's asked for his radio and his reading glasses")],
                   datetime(2026, 11, 2, 18, 48, tzinfo=timezone.utc))
    assert not [f for f in ex.facts if f.subject == "Patels" and "radio" in f.text], ex.facts


def test_a_weekday_and_number_take_the_month_the_turn_names_and_a_paper_moved_by_name_takes_the_day_said_next():
    # Walk-through 134: "mocks are booked for Mon 11 Jan to Fri 22 Jan. ... English Language Paper 1 is Thursday 14th"
    # (said in September) was 14 October; "The Friday 15th is the day they've got the Year 10 trip" (said 12 November)
    # was 15 November, a Sunday; "Maths have moved Paper 1 AGAIN" "to when??" "Wednesday 13th" was no one's day.
    ex = extracted([("Gillian", "Right so mocks are booked for Mon 11 Jan to Fri 22 Jan. English Language Paper 1 is "
                                "Thursday 14th")], datetime(2026, 9, 28, 16, 14, tzinfo=timezone.utc))
    assert "2027-01-14 (Thursday 14th)" in " ".join(f.text for f in ex.facts), ex.facts
    ex = extracted([("Gillian", "The Friday 15th is the day they've got the Year 10 trip so they're short of staff")],
                   datetime(2026, 11, 12, 13, 33, tzinfo=timezone.utc))
    assert "2027-01-15" in ex.facts[0].text, ex.facts
    ex = extracted([("Gillian", "Maths have moved Paper 1 AGAIN. Mr Adebayo wants the Tuesday for the Year 11 photo"),
                    ("Dan", "to when??"), ("Gillian", "Wednesday 13th. Hopefully for the last time")],
                   datetime(2026, 11, 18, 8, 20, tzinfo=timezone.utc))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [("maths paper 1", "2027-01-13")]


def test_a_sum_put_right_with_why_after_a_dash_holds_from_the_slip_not_from_the_why():
    # Walk-through 134: "The rate for invigilators is £11.44 an hour" "sorry, £11.84 — I was looking at last year's
    # sheet" was a "said" fact; £11.44 stayed current.
    ex = extracted([("Gillian", "The rate for invigilators is £11.44 an hour"),
                    ("Gillian", "sorry, £11.84 — I was looking at last year's sheet")],
                   datetime(2026, 9, 28, 16, 33, tzinfo=timezone.utc))
    held = [(f.object, f.retracted, f.valid_from.date()) for f in ex.facts if f.single_valued]
    assert held == [("£11.44", True, date(2026, 9, 28)), ("£11.84", False, date(2026, 9, 28))], held


def test_news_named_first_is_no_fact_and_names_what_the_next_sentence_is_of():
    # Walk-through 135: "gas check news too." was a fact of its own, first for "Who is doing the gas safety check?",
    # and the sentence that told it ("Gary's retiring ... so he passed us to Marek Kowalski") named no gas check.
    ex = extracted([("Tom", "gas check news too. Gary's retiring end of the month and can't fit us in, so he passed "
                            "us to Marek Kowalski")], datetime(2026, 10, 19, 18, 52, tzinfo=timezone.utc))
    assert [f.text[:24] for f in ex.facts] == ["Gas check news too: Gary"], ex.facts
    ex = extracted([("Tom", "Great news! Gary's retiring at the end of the month")],
                   datetime(2026, 10, 19, 18, 52, tzinfo=timezone.utc))
    assert not [f for f in ex.facts if f.text.startswith("Great news")], ex.facts


def test_put_us_down_for_an_event_on_a_day_is_a_plan_its_cancel_can_end():
    # Walk-through 129: "also put us down for the Chamber of Commerce networking breakfast on Thursday 12th Nov" made no
    # plan, so "cancel the chamber breakfast on thursday btw" ended nothing and the booking stayed first.
    at = datetime(2026, 10, 20, 16, 23, tzinfo=timezone.utc)
    ex = extracted([("Priya", "also put us down for the Chamber of Commerce networking breakfast on Thursday 12th Nov, "
                              "7:30 at the Queens Hotel")], at)
    [plan] = [o for o in ex.foresights if o.kind == "plan"]
    assert "breakfast" in plan.text and plan.valid_to.date() == date(2026, 11, 13), plan
    ended = extracted([("Priya", "cancel the chamber breakfast on thursday btw, neither of us can make it")],
                      datetime(2026, 11, 10, 14, 16, tzinfo=timezone.utc)).foresight_ends
    assert ended and set(ended[0].words) <= set(plan.text.lower().split()), ended
    assert not extracted([("Priya", "put me down for a coffee")], at).foresights


def test_a_time_after_at_is_kept_whole():
    # Walk-through 134: "Whatever, we start at 8:50, Steve says he needs the extra 10 minutes" made "starts at | 8"
    ex = extracted([("Gillian", "Whatever, we start at 8:50, Steve says he needs the extra 10 minutes for seating")],
                   datetime(2026, 10, 19, 15, 52, tzinfo=timezone.utc))
    assert [f.object for f in ex.facts if f.predicate == "starts at"] == ["8:50"], ex.facts
