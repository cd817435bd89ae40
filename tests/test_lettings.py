"""What a landlord and her letting agent tell (walk-through 87 of session 54): who lives where and
for how much, a new tenant moved in, a new plumber used from now on, an applicant's offer that is
no correction of a tenant's rent, a building's rules, days changed with why said after; and an
invoice's sum said again (walk-through 84). Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.domain.models import Extraction
from tests.conversation import extracted

SEP = datetime(2026, 9, 1, 10, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str], start: datetime = SEP) -> Extraction:
    return extracted(rows, start, timedelta(days=1))


def values(ex: Extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued}


def test_a_let_named_by_its_place_has_its_tenant_and_rent_and_a_move_in_makes_a_new_tenant():
    # "Quarry Lane is Dan Okafor at £720" (its third clause) was nothing; "she's moved into Flat 2"
    # left Tom, gone, its tenant.
    ex = extract(("Helen", "I own two flats on Harbour Road and a house on Quarry Lane."),
                 ("Helen", "Flat 2 is Tom Becker at £790, Flat 1 is Priya Nair at £850 and Quarry Lane is "
                           "Dan Okafor at £720."),
                 ("Marcus", "Sofia Marsh got her keys today, she's moved into Flat 2"))
    said = values(ex)
    assert {("Flat 2", "tenant is", "Tom Becker"), ("Tom Becker", "rent is", "£790"),
            ("Priya Nair", "rent is", "£850"), ("Quarry Lane", "tenant is", "Dan Okafor"),
            ("Dan Okafor", "rent is", "£720"), ("Flat 2", "tenant is", "Sofia Marsh")} <= said
    assert "Quarry Lane is Dan Okafor." in {f.text for f in ex.facts}  # its own clause, not the sentence


def test_an_offer_rather_than_an_asking_price_corrects_no_one_elses_rent():
    # "Sofia has offered £835 rather than £850" had become Priya's rent (her £850), closing it.
    ex = extract(("Helen", "Flat 1 is Priya Nair, she pays £850 a month"),
                 ("Marcus", "Sofia has offered £835 rather than £850 if she can move in on 8 November"))
    assert [o for s, p, o in values(ex) if p == "rent is"] == ["£850"]


def test_a_plumber_said_with_his_firm_and_one_used_from_now_on_are_the_households_plumber():
    ex = extract(("Helen", "Gary Platt is our plumber, Platt Plumbing"),
                 ("Helen", "ok let's use Nadia from now on for everything plumbing and gas"),
                 ("Helen", "let's use Nadia from now on"))
    assert sorted(o for s, p, o in values(ex) if s == "plumber") == ["Gary Platt", "Nadia"]


def test_a_buildings_no_pets_and_no_smoking_inside_are_rules_for_a_tenant_or_an_advert():
    ex = extract(("Helen", "One rule for all three flats: absolutely no smoking, inside or on the balconies."),
                 ("Helen", "Harbour Road flats are no pets, the building's head lease forbids it"),
                 ("Helen", "There are no pets in the house now"))
    rules = {f.text: f.trigger.split(", ") for f in ex.foresights if f.kind == "constraint"}
    assert len(rules) == 2 and all({"tenant", "advert"} <= set(words) for words in rules.values()), rules
    assert any("no smoking" in t for t in rules) and any("no pets, the building" in t for t in rules)


def test_a_day_made_another_with_why_after_and_a_new_date_after_a_move_asked_with_why():
    # "actually make that Tuesday 24th, Monday I've got the dentist lol" and "Nadia needs to move the
    # gas safety checks, she's on a course on the 8th. New date is Wednesday 14 October" left the
    # old days current.
    nov = datetime(2026, 11, 15, 10, tzinfo=timezone.utc)
    ex = extract(("Helen", "annual boiler service is booked with Nadia on Monday 23 November"),
                 ("Helen", "actually make that Tuesday 24th, Monday I've got the dentist lol"), start=nov)
    assert [f.object for f in ex.facts if f.predicate == "date is"] == ["2026-11-23", "2026-11-24"]
    ex = extract(("Marcus", "Nadia needs to move the gas safety checks, she's on a course on the 8th. New date "
                            "is Wednesday 14 October"), start=datetime(2026, 10, 5, 10, tzinfo=timezone.utc))
    [moved] = [f for f in ex.facts if f.predicate == "date is"]
    assert (moved.subject, moved.object) == ("gas safety checks", "2026-10-14") and "course" not in moved.text


def test_an_invoices_sum_and_the_sum_said_again_after_wait_no():
    # Walk-through 84: "invoice INV-2026-042 to Brandt for €2,310" then "wait no, €2,420" kept no sum.
    ex = extract(("Maya", "invoice INV-2026-042 to Brandt for €2,310"),
                 ("Maya", "wait no, €2,420. forgot the 3 extra leaflets"),
                 ("Maya", "sent invoice INV-2026-041 to Lindqvist, €1,860"))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "amount is"] == [
        ("INV-2026-042", "€2,310"), ("INV-2026-042", "€2,420"), ("INV-2026-041", "€1,860")]


def test_a_day_agreed_for_checks_and_a_service_booked_for_a_day_are_their_days():
    # Re-run of walk-through 87: "ok 8 Oct for the gas safety checks then" and "Nadia's booked for the
    # annual boiler service at Flat 1 and Flat 2 on Monday 23 November" were "said" facts, so the move
    # and "make that Tuesday 24th" had no day to replace.
    ex = extract(("Helen", "ok 8 Oct for the gas safety checks then"),
                 ("Helen", "Nadia needs to move the gas safety checks, she's on a course on Thursday. New date is "
                           "Wednesday 14 October"), start=datetime(2026, 9, 22, 15, tzinfo=timezone.utc))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [
        ("gas safety checks", "2026-10-08"), ("gas safety checks", "2026-10-14")]
    ex = extract(("Helen", "Nadia's booked for the annual boiler service at Flat 1 and Flat 2 on Monday 23 November"),
                 ("Helen", "actually make that Tuesday 24th, Monday I've got the dentist lol"),
                 start=datetime(2026, 11, 13, 10, tzinfo=timezone.utc))
    assert [f.object for f in ex.facts if f.predicate == "date is"] == ["2026-11-23", "2026-11-24"]


def test_he_said_first_is_the_man_though_a_woman_was_named_last():
    # "He's a smoker, she says he only smokes outside" had made Priya, named last, the smoker.
    ex = extract(("Marcus", "Priya wants her boyfriend Jake to move in with her."),
                 ("Marcus", "he's a smoker, she says he only smokes outside"))
    smokers = {f.subject for f in ex.facts if "smoker" in f.object}
    assert smokers == {"Jake"}, smokers
