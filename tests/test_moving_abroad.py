"""A family's move abroad told in a group chat (session 51's walk-through): days moved in a turn of their
own, flights booked with their day in the next sentence, a rent said of "it", an offer's amount alone,
a child's school changed twice. Each had been a "said" fact, so the first value stayed current. Read
by the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.domain.models import Extraction
from tests.conversation import extracted

SEP = datetime(2026, 9, 2, 18, 0, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str]) -> Extraction:
    return extracted(rows, SEP, timedelta(days=2), assistant="Atlas")


def values(ex: Extraction, subject: str) -> list[str]:
    return [f.object for f in ex.facts if f.single_valued and f.subject == subject]


def test_an_appointment_and_flights_moved_in_other_words_are_one_timeline_each():
    ex = extract(("Claire", "And the visa appointment is booked at VFS Global in Manchester for Thursday 24 September "
                            "at 10am"),
                 ("Tom", "Flights booked! TAP from Manchester to Lisbon on Saturday 24 October, 11:20 departure"),
                 ("Claire", "Ugh, VFS emailed. They cancelled our slot and moved the visa appointment to Thursday "
                            "1 October at 2pm"),
                 ("Claire", "You won't believe it. The visa appointment has been moved AGAIN"),
                 ("Claire", "now it's Thursday 8 October at 9:30am. Same place"),
                 ("Tom", "which means we can fly later too. I moved the flights to Thursday 29 October"),
                 ("Tom", "so the flights are moved one more time, to Saturday 31 October"))
    assert values(ex, "visa appointment") == ["2026-09-24", "2026-10-01", "2026-10-08"]
    assert values(ex, "flights") == ["2026-10-24", "2026-10-29", "2026-10-31"]
    assert "The flights are booked for Saturday 2026-10-24 (24 October): TAP from Manchester to Lisbon, 11:20 " \
           "departure." in [f.text for f in ex.facts]
    assert not [f for f in ex.facts if f.predicate == "booked"]  # ("Flights booked!" said again with its day)


def test_now_its_a_day_after_another_speakers_move_or_a_turn_between_is_no_move():
    ex = extract(("Claire", "The visa appointment has been moved AGAIN"),
                 ("Atlas", "Oh no, when is it now?"),
                 ("Claire", "now it's Thursday 8 October at 9:30am"))
    assert values(ex, "visa appointment") == []


def test_a_months_amount_said_of_it_after_a_home_is_the_rent_and_an_offers_amount_alone_its_own():
    ex = extract(("Claire", "Rent is €2,100 a month for the Graça flat"),
                 ("Claire", "Disaster. The Graça flat has fallen through, the landlord sold it"),
                 ("Tom", "Rui found us another one though. Rua Saraiva de Carvalho 118, 2nd floor"),
                 ("Tom", "It's €2,350 a month. A bit more but it has a lift and a balcony"),
                 ("Claire", "Gareth rang, we've had an offer on the house. £285,000"),
                 ("Claire", "the gym is great. It's £30 a month"))
    assert values(ex, "rent") == ["€2,100", "€2,350"]  # (not the gym's: no home named before it)
    assert values(ex, "offer") == ["£285,000"]


def test_a_childs_school_changed_twice_is_one_timeline():
    ex = extract(("Claire", "School news! Maya's place at St Julian's School is confirmed, she starts year 5 in "
                            "November"),
                 ("Claire", "Leo is going to St Julian's too, for now anyway, they said year 1 might be tight"),
                 ("Claire", "So Leo is going to Escola Básica Manuel da Maia instead, it's the state school near the "
                            "new flat"),
                 ("Claire", "More school drama. Leo is switching again, Redbridge School in Campo de Ourique has a "
                            "year 1 place"),
                 ("Claire", "so Leo will be at Redbridge, not Manuel da Maia. Its bilingual which suits him better"),
                 ("Claire", "Tom is going to Lisbon on Friday"))
    assert values(ex, "Maya") == ["St Julian's School"]
    assert values(ex, "Leo") == ["St Julian's", "Escola Básica Manuel da Maia", "Redbridge School"]
    assert values(ex, "Tom") == []  # a town is no school


def test_a_medicine_running_out_in_a_month_ahead_is_a_deadline():
    ex = extract(("Claire", "we need to register with a vet here and a GP. Leo's Keppra runs out in January"),
                 ("Claire", "we ran out of milk yesterday"))
    deadlines = [f for f in ex.foresights if f.kind == "deadline"]
    assert [f.text for f in deadlines] == ["Leo's Keppra runs out in January 2027."]


def test_a_portuguese_doctors_title_ends_no_sentence():
    ex = extract(("Claire", "Leo has a new neurologist here, Dra. Marta Lopes at Hospital Dona Estefânia"))
    assert [f.text for f in ex.facts] == [
        "Leo has a new neurologist here, Dra. Marta Lopes at Hospital Dona Estefânia."]  # (it had ended at "Dra.")
    assert {e.name: e.type for e in ex.entities}["Dra. Marta Lopes"] == "person"


def test_a_start_date_confirmed_then_moved_and_an_end_date_pushed_are_one_timeline_each():
    ex = extract(("Tom", "And my start date at Feedzai is confirmed for Monday 2 November"),
                 ("Tom", "Change of plan. Feedzai asked if I can start a week later, so my first day is now Monday "
                         "9 November"),
                 ("Claire", "I've given notice, the broadband ends on Friday 23 October"),
                 ("Claire", "And I'm pushing the broadband end date to Friday 30 October, we need wifi till we leave"))
    assert [(f.predicate, f.object) for f in ex.facts if f.subject == "Tom" and f.single_valued] == [
        ("start date is", "2026-11-02"), ("start date is", "2026-11-09")]
    assert values(ex, "broadband") == ["2026-10-23", "2026-10-30"]


def test_firms_quotes_said_as_a_list_are_each_firms_and_a_revision_ends_one():
    ex = extract(("Tom", "Got three shipping quotes back today"),
                 ("Tom", "Britannia Movers £4,200, Seven Seas Worldwide £3,650 and Anglo-Iberian Removals £3,900"),
                 ("Tom", "ok we're going with Seven Seas Worldwide then. I'll sign tonight"),
                 ("Tom", "So we've switched to Anglo-Iberian Removals instead, collection on Tuesday 20 October"),
                 ("Tom", "Anglo-Iberian revised their quote to £4,150 because of the piano"),
                 ("Claire", "Tom Baker £20, Jane Doe £30 and Ana Lima £25 for the gift"))
    quotes = [(f.subject, f.object) for f in ex.facts if f.predicate == "quote is"]
    assert quotes == [("Britannia Movers", "£4,200"), ("Seven Seas Worldwide", "£3,650"),
                      ("Anglo-Iberian Removals", "£3,900"), ("Anglo-Iberian Removals", "£4,150")]
    assert {e.name: e.type for e in ex.entities}["Seven Seas Worldwide"] == "organization"
