"""What a household tells its money assistant: an advisor "there", a deadline pushed to January,
a day said again with its weekday, a remark taken back, a habit owned to that is no rule. Each
from walk-through 62 of session 49, read by the local extractor."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from app.construction.local import LocalExtractor
from app.domain.models import Extraction, TurnRecord

NOV = datetime(2026, 11, 7, 19, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str], start: datetime = NOV) -> Extraction:
    turns = [TurnRecord(id=f"t{i}", conversation_id="c", speaker=who, user_id=who.lower(), role="user",
                        content=text, at=start + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(rows)]
    return LocalExtractor().extract_sync(turns)


def test_my_advisor_there_is_a_post_held_by_one_person():
    ex = extract(("Maya", "I bank with Northbridge Bank. my advisor there is Daniel Okoro"))
    assert [(f.subject, f.predicate, f.object) for f in ex.facts if f.predicate == "advisor is"] == [
        ("Maya", "advisor is", "Daniel Okoro")]


def test_a_deadline_someone_can_wait_until_is_ahead_and_a_dates_weekday_is_that_date():
    # Said in November: "until 8 January" was January 2026; "9 October, the Friday" read the
    # Friday as 2 October, a date of its own.
    ex = extract(("Maya", "Priya emailed, she can wait for the docs until 8 January instead of 15 Dec"),
                 ("Maya", "install on 8 October. sorry, 9 October, the Friday"))
    assert [f.event_date for f in ex.facts][0] == date(2027, 1, 8)
    assert "2026-10-02" not in " ".join(f.text for f in ex.facts)


def test_a_remark_taken_back_in_its_turn_leaves_nothing():
    ex = extract(("Tom", "our landlord is selling?? no just a rumour, ignore"),
                 ("Tom", "Our landlord is Greenhill Lettings."))
    assert [f.text for f in ex.facts] == ["Tom's landlord is Greenhill Lettings."]


def test_a_habit_owned_to_and_a_payment_not_needed_are_no_rules():
    # "probably the gym, i never go lol" was the constraint "Maya never goes lol."; "no payments on
    # account needed" was "Maya set a rule: ..." (both in the context of 18 searches).
    ex = extract(("Maya", "probably the gym, i never go lol. not yet tho"),
                 ("Maya", "and no payments on account needed since it's under £1,000"),
                 ("Maya", "I never drive at night."), ("Maya", "No viewings on Sundays."))
    assert [f.text for f in ex.foresights if f.kind == "constraint"] == [
        "Maya never drives at night.", "Maya set a rule: No viewings on Sundays."]


def test_pay_said_with_a_job_and_raised_is_one_salary_and_a_first_day_somewhere_is_where_one_works():
    # "52k a year" and "gave me a raise ..., it's 54,500 now" were no salary; "first day at
    # Brightline was yesterday!" left "works at" Halden current.
    ex = extract(("Maya", "I work at Halden Logistics as an operations analyst, 52k a year before tax"),
                 ("Maya", "Halden gave me a raise from October, it's 54,500 now"),
                 ("Maya", "I got a raise to £60,000!"),
                 ("Maya", "Brightline Energy made me an offer. first day at Brightline was yesterday!"),
                 ("Maya", "I'm on the 8:15 train."), ("Maya", "I'm on 10k steps a day."))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "salary is"] == [
        ("Maya", "52k"), ("Maya", "54,500"), ("Maya", "£60,000")]
    assert [f.object for f in ex.facts if f.predicate == "works at"] == ["Halden Logistics", "Brightline Energy"]
    ahead = extract(("Maya", "My first day at Brightline Energy is on 2 November."), start=datetime(2026, 10, 20, 9,
                                                                                               tzinfo=timezone.utc))
    works = [f for f in ahead.facts if f.predicate == "works at"]
    assert [(f.object, f.valid_from.date()) for f in works] == [("Brightline Energy", date(2026, 11, 2))]


def test_a_number_said_of_her_is_the_person_named_before():
    ex = extract(("Tom", "Priya Nair is our new dog walker. I gave her a key. her number is 555-0148"),
                 ("Tom", "My number is 07700 900123."))
    assert [(f.subject, f.object, f.text) for f in ex.facts if f.predicate == "phone is"] == [
        ("Priya Nair", "555-0148", "Priya Nair's number is 555-0148."),
        ("Tom", "07700 900123", "Tom's number is 07700 900123.")]


def test_a_direct_line_said_of_her_is_the_number_of_the_person_named_before():
    # Walk-through 99: "Her direct line is 01423 557902" (the new solicitor's) was a "said" fact of Daniel's.
    ex = extract(("Daniel", "Our new solicitor is Anita Desai at Carrow & Webb."),
                 ("Daniel", "Her direct line is 01423 557902."))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "phone is"] == [("Anita Desai", "01423 557902")]


def test_rent_going_up_to_what_the_agent_says_then_agreed_lower_and_a_goal_said_after_yeah():
    # "the rent is going up :( Greenhill says £1,240 from 1 December" and "yeah goal is £6,000"
    # were a "said" fact and nothing: "rent is £1,150" stayed current.
    ex = extract(("Maya", "rent is £1,150 a month, we split it 50/50 with Tom."),
                 ("Maya", "also the rent is going up :( Greenhill says £1,240 from 1 December"),
                 ("Tom", "also greenhill agreed to 1,210 instead of 1,240. still from december"),
                 ("Maya", "yeah goal is £6,000 by June 2027"))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "is"] == [
        ("rent", "£1,150"), ("rent", "£1,240"), ("rent", "£1,210"), ("goal", "£6,000")]


def test_what_the_accountant_or_the_landlord_needs_by_a_day_is_a_deadline():
    # "The accountant needs the receipts by 15 December" was only a fact: no deadline surfaced.
    ex = extract(("Maya", "The accountant needs the receipts by 15 December."),
                 ("Maya", "Our landlord wants the inventory form back by Friday."),
                 ("Maya", "The garden needs rain by Friday."))
    deadlines = {f.text: f.valid_to.date() for f in ex.foresights if f.kind == "deadline"}
    assert deadlines.get("The accountant needs the receipts by 2026-12-15 (15 December).") == date(2026, 12, 16)
    assert any("inventory form" in t for t in deadlines)
    assert not any("garden" in t for t in deadlines)  # no one who asks it of us
