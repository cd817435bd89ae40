"""Names said whole (session 63): a number that ends an event's or a model's name is the name's
("the Frostbite 50" had been the thing "Frostbite", "ThinkPad X1 Carbon Gen 12" "... Gen"), and
a councillor, a vicar or a sergeant is a person known by the title's given name too ("Councillor
Margaret Ellison" had been a thing and "Margaret" someone else)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.domain.models import Extraction
from tests.conversation import extracted, tell_days

NOV = datetime(2026, 11, 5, 18, 0, tzinfo=timezone.utc)  # a Thursday


def extract(*rows: tuple[str, str]) -> Extraction:
    return extracted(rows, NOV, timedelta(minutes=5))


def names(ex: Extraction) -> dict[str, tuple[str, list[str]]]:
    return {e.name: (e.type, e.aliases) for e in ex.entities}


def test_a_number_ending_an_event_or_a_model_is_its_names():
    ex = extract(("Jo", "It's called the Frostbite 50, it's on Sunday 24 January."),
                 ("Jo", "I've ordered a ThinkPad X1 Carbon Gen 12 for the route planning."),
                 ("Jo", "Then the Ridgeway 100 on Saturday is the big one."))
    found = names(ex)
    assert {"Frostbite 50", "ThinkPad X1 Carbon Gen 12", "Ridgeway 100"} <= found.keys(), found
    assert not {"Frostbite", "ThinkPad X1 Carbon Gen", "Ridgeway"} & found.keys(), found


def test_a_number_after_a_name_that_is_no_part_of_it_stays_out():
    ex = extract(("Jo", "I paid Kwame 50 quid for the wheels."),
                 ("Jo", "The Saturday 14 November ride is off, and the Smiths 20 minutes late as ever."))
    found = names(ex)
    assert "Kwame" in found and not any(n[-1].isdigit() for n in found), found


def test_a_civic_title_is_a_persons_and_her_given_name_hers():
    ex = extract(("Jo", "Councillor Margaret Ellison will open the event."),
                 ("Jo", "Margaret said she will bring the mayor's chain."))
    found = names(ex)
    assert found["Councillor Margaret Ellison"] == ("person", ["Margaret"]), found
    assert "Margaret" not in found
    said = [f for f in ex.facts if f.text.startswith("Margaret said")]
    assert [f.subject for f in said] == ["Councillor Margaret Ellison"]


async def _people(graph) -> list[tuple[str, str]]:
    rows = await graph.read("MATCH (e:Entity {tenant: $tenant}) WHERE e.key CONTAINS 'ellison' "
                            "OR e.key STARTS WITH 'frostbite' RETURN e.key AS key, e.type AS type")
    return sorted((r["key"], r["type"]) for r in rows)


async def test_a_titled_person_said_by_a_short_title_a_week_later_is_one_entity(services, graph):
    await tell_days(services, graph, [(0, "Jo", "Councillor Margaret Ellison will open the Frostbite 50."),
                                      (7, "Jo", "Cllr Ellison wants the start moved to 9am.")])
    assert await _people(graph) == [("councillor margaret ellison", "person"), ("frostbite 50", "thing")]


async def test_a_titled_person_said_short_first_is_the_one_named_in_full_later(services, graph):
    await tell_days(services, graph, [(0, "Jo", "Cllr Ellison wants the start at 9am."),
                                      (7, "Jo", "Councillor Margaret Ellison will open the Frostbite 50.")])
    keys = await _people(graph)
    assert len([k for k, _ in keys if "ellison" in k]) == 1, keys


def test_a_holder_said_at_the_same_place_holds_the_post():
    # walk-through 122: "so Isla's physio is now Tom Okafor at the same clinic" was no value of Isla's physio
    ex = extract(("Claire", "Rebecca Marsh is going on maternity leave, so Isla's physio is now Tom Okafor at the same clinic"))
    assert [(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued] == [
        ("Isla", "physio is", "Tom Okafor")]


def test_one_taking_over_at_a_firm_is_the_owner_and_at_the_firm():
    # walk-through 121: "Rebecca Stone at Carter Lowe is taking over our file" had made the firm the file's owner;
    # then (mended) no fact tied Rebecca to the firm, relatedTo("Rebecca") losing Carter Lowe
    ex = extract(("Hannah", "We've gone with Jane Fowler at Carter Lowe Solicitors for the conveyancing."),
                 ("Tom", "other news: Jane's going on maternity leave from this Friday. Rebecca Stone at Carter Lowe is "
                         "taking over our file"))
    found = {(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued}
    assert {("file", "owner is", "Rebecca Stone"), ("Rebecca Stone", "works at", "Carter Lowe Solicitors")} <= found, found


def test_one_brought_in_by_name_after_what_they_are_is_the_he_that_follows():
    # walk-through 120: "He's sorted us a dep though, Kieran Walsh, ..." "what's his number?" "07700 914362" was Dan's
    ex = extract(("Tom", "And worse news. Dan came off his bike on Saturday, broke his wrist."),
                 ("Tom", "He's sorted us a dep though, Kieran Walsh, played with him in the Ludlow Big Band."),
                 ("Jess", "what's his number?"),
                 ("Tom", "07700 914362"))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "phone is"] == [("Kieran Walsh", "07700 914362")]


def test_given_names_of_an_older_generation_are_people_and_she_is_hers():
    # Walk-through 130: "Jean Parry came to see me about costumes. She says £300 won't cover the 1930s evening wear"
    # made "Jean Parry" a thing and "Ruth says £300 won't cover ..." (Ruth a part in the play, named before)
    from tests.conversation import extracted
    ex = extracted([("Raj", "rehearsal notes: the Elvira/Ruth crossfire needs work"),
                    ("Helen", "Jean Parry came to see me about costumes. She says £300 won't cover the 1930s evening wear")],
                   datetime(2026, 10, 12, 22, 15, tzinfo=timezone.utc))
    assert [f.subject for f in ex.facts if "£300" in f.text] == ["Jean Parry"], ex.facts
    assert next(e for e in ex.entities if e.name == "Jean Parry").type == "person"
