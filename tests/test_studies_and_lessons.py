"""What a PhD student and a piano teacher tell (walk-throughs 88 and 90 of session 55): a data rule
found by sending files; whom to call about a child, one at a time; a count of students gone down and
back up; a day after a move or told as what it is now, ahead; "she" kept for whom a question asked
after. Read by the local extractor."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from app.construction.dates import find_dates
from app.construction.local.inline_dates import tense_at
from app.domain.models import Extraction
from tests.conversation import extracted

SEP = datetime(2026, 9, 1, 10, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str]) -> Extraction:
    return extracted(rows, SEP, timedelta(days=1), assistant="Sage")


def values(ex: Extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued}


def test_data_that_must_never_leave_a_drive_is_a_rule_found_by_sending_files_not_a_contact_wish():
    # It was "Aisha prefers to be contacted another way, not by email" (its "no email").
    ex = extract(("Aisha", "participant data must never leave the university drive. no email, no dropbox, "
                           "no usb sticks. only the M: drive"))
    rules = {f.text: f.trigger.split(", ") for f in ex.foresights if f.kind == "constraint"}
    assert list(rules) == ["Aisha set a rule: Participant data must never leave the university drive."], rules
    assert {"send", "share", "files"} <= set(next(iter(rules.values())))
    # ... a thing kept somewhere is found by taking it, not by sending files
    ex = extract(("Ann", "the keys must never leave the office"))
    [words] = [f.trigger.split(", ") for f in ex.foresights if f.kind == "constraint"]
    assert "take" in words and "send" not in words


def test_whom_to_contact_about_a_child_is_one_at_a_time():
    # "... Tom Carter is the contact for Lily instead of Emma" was a "said" fact beside Emma's.
    ex = extract(("Hannah", "Lily's mum Emma Carter is the contact for Lily."),
                 ("Hannah", "so from now on Lily's dad Tom Carter is the contact for Lily instead of Emma."))
    assert {("Lily", "contact is", "Emma Carter"), ("Lily", "contact is", "Tom Carter")} <= values(ex)


def test_a_count_gone_down_to_or_back_to_is_the_new_count():
    ex = extract(("Hannah", "that makes 5 students now, my little studio is growing"),
                 ("Hannah", "so I'll be down to 4 students after that"),
                 ("Hannah", "so back to 5 students :)"))
    counts = [f.object for f in ex.facts if f.predicate == "is" and f.subject == "student count"]
    assert counts == ["5", "4", "5"], counts


def _days(text: str, at: datetime) -> list[date]:
    return [d.start for d in find_dates(text, at, prefer=tense_at(text))]


def test_a_day_after_a_move_or_told_as_what_it_is_is_ahead_whatever_the_past_tense():
    # Both had been read into the year before: 2025-12-11 and 2026-04-29.
    assert _days("the poster session got moved to the afternoon, 11 December 2-3:30pm",
                 datetime(2026, 11, 20, tzinfo=timezone.utc)) == [date(2026, 12, 11)]
    assert _days("Helen just told me it's 29 April not 22", datetime(2026, 11, 26, tzinfo=timezone.utc)) == [
        date(2027, 4, 29)]
    # ... a day of a past event stays past
    assert _days("she said it was 3 March", datetime(2026, 11, 26, tzinfo=timezone.utc)) == [date(2026, 3, 3)]


def test_she_asked_after_before_another_name_is_still_whom_the_next_she_is():
    # "Is she taking Jess's room?" had made Jess, named last, the nurse.
    ex = extract(("Aisha", "my new flatmate Kemi Adebayo is moving in! 1 December"),
                 ("Sage", "That's a relief. Is she taking Jess's room?"),
                 ("Aisha", "yep. she's a nurse at St James's so she works nights a lot"))
    assert {f.subject for f in ex.facts if "nurse" in f.text} == {"Kemi Adebayo"}


def test_a_count_with_how_many_are_still_to_go_is_the_count():
    # "31 participants, 9 to go" and "35 participants!! 5 to go" gave no fact: 27 stayed the count.
    ex = extract(("Aisha", "27 participants now btw"), ("Aisha", "31 participants, 9 to go"),
                 ("Aisha", "35 participants!! 5 to go"))
    assert [f.object for f in ex.facts if f.subject == "participant count"] == ["27", "31", "35"]


def test_a_viva_set_provisionally_and_corrected_as_told_by_another_is_one_days_timeline():
    # "the viva is provisionally set for 22 April 2027" was a "said" fact, and "correction, Helen
    # just told me it's 29 April not 22" a second plan beside the first.
    rows = (("Helen", "Aisha, the viva is provisionally set for 22 April 2027."),
            ("Aisha", "correction, Helen just told me it's 29 April not 22, Prof Duarte can't do the 22nd"))
    ex = extracted(rows, datetime(2026, 11, 26, 10, tzinfo=timezone.utc), timedelta(minutes=2))
    assert [f.object for f in ex.facts if f.subject == "viva" and f.predicate == "date is"] == [
        "2027-04-22", "2027-04-29"]
    assert not [f.text for f in ex.foresights if "2027-04-22" in f.text]


def test_each_ones_weekly_slot_in_a_list_is_a_fact_of_its_own():
    # "Lily is tuesdays at 4pm, Oscar mondays 5pm, ..." was one fact of Lily's: Oscar's slot ninth.
    ex = extract(("Hannah", "Current students are Lily Carter (9), Oscar Patel (12) and Freya Lewis (14)"),
                 ("Hannah", "Lily is tuesdays at 4pm, Oscar mondays 5pm and Freya wednesdays 6pm"))
    slots = {(f.subject, f.object) for f in ex.facts if f.predicate == "is"}
    assert {("Lily Carter", "tuesdays at 4pm"), ("Oscar Patel", "mondays 5pm"),
            ("Freya Lewis", "wednesdays 6pm")} <= slots, slots
