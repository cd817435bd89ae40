"""A student nurse and her flatmate in a group chat (walk-through 108 of session 60): a new practice supervisor
named in the speaker's next turn ("it's Tom Fenwick, ..."). It had been a "said" fact, so the first
supervisor stayed the answer. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.conversation import extracted

SEP = datetime(2026, 9, 28, 18, 43, tzinfo=timezone.utc)


def test_a_new_supervisor_named_next_as_it_is_ends_the_one_before():
    ex = extracted([("Chloe", "my practice supervisor is Staff Nurse Gemma Doyle, she seems lovely but v strict"),
                    ("Chloe", "bad news from the ward. Gemma's off on long term sick, so I've got a new practice "
                              "supervisor"),
                    ("Chloe", "it's Tom Fenwick, he's a charge nurse on 4B. seems chill")], SEP)
    held = [(f.object, f.single_valued) for f in ex.facts if f.subject == "Chloe" and f.predicate == "boss is"]
    assert held == [("Staff Nurse Gemma Doyle", True), ("Tom Fenwick", True)]
    assert any("practice supervisor is Tom Fenwick" in f.text for f in ex.facts)
    # (a name said as "it's" after no new post is no holder of one)
    ex = extracted([("Chloe", "so I've got a new phone"), ("Chloe", "it's Tom Fenwick's old one")], SEP)
    assert not [f for f in ex.facts if f.single_valued and "Tom Fenwick" in f.object]


def test_shifts_said_as_what_one_is_on_are_one_value_and_their_weekdays_no_dates():
    # Walk-through 108: "I'm on earlies now, 7am to 3:30pm Monday to Thursday" was a fact of no value, its days
    # one week's Monday to Thursday; "I'm on 1pm to 9:30pm Tuesday to Friday" the same, the earlies current beside it.
    ex = extracted([("Chloe", "no more long days, I'm on earlies now, 7am to 3:30pm Monday to Thursday"),
                    ("Chloe", "new ward new shifts. Larch does lates for students, so I'm on 1pm to 9:30pm Tuesday "
                              "to Friday from this week"),
                    ("Chloe", "my hours are 8am to 4pm Monday to Friday")], SEP)
    assert [(f.object, f.single_valued) for f in ex.facts if f.predicate == "shifts is"] == [
        ("earlies, 7am to 3:30pm, Monday to Thursday", True), ("1pm to 9:30pm, Tuesday to Friday", True)]
    assert not [f for f in ex.facts if "2026-10-0" in f.text or "(Monday)" in f.text]
    # ("from this week", said on its Sunday, holds from then: it had begun on the Monday before, closing the earlies)
    [lates] = [f for f in ex.facts if f.predicate == "shifts is" and "1pm" in f.object]
    assert lates.valid_from == SEP + timedelta(minutes=1)
    assert [f.single_valued for f in ex.facts if f.predicate == "hours is"] == [True]
    # (times alone on a day are no shifts: "I'm on 9 to 5 today")
    ex = extracted([("Chloe", "I'm on 9am to 5pm today, then free")], SEP)
    assert not [f for f in ex.facts if f.predicate == "shifts is"]


async def test_a_party_announced_then_its_day_is_a_plan_that_its_being_off_ends(services, graph):
    # "also, halloween party! saturday 31st, here, 8pm" made no plan and no day of the party; "the party's off"
    # a week later ended nothing.
    from tests.conversation import tell_days
    await tell_days(services, graph, [
        (0, "Hannah", "also, halloween party! saturday 31st, here, 8pm. I'm inviting the netball lot"),
        (6, "Hannah", "and the party's off, sorry. half the netball girls have covid. cancelling it")],
        group="flat", start=datetime(2026, 10, 19, 17, 43, tzinfo=timezone.utc))
    days = await graph.read("MATCH (f:Fact {tenant: $tenant, predicate: 'date is'}) RETURN f.object AS v, "
                            "f.status AS s ORDER BY f.validFrom")
    assert [(r["v"], r["s"]) for r in days] == [("2026-10-31", "superseded"), ("cancelled", "current")]
    plans = await graph.read("MATCH (p:Foresight {tenant: $tenant}) WHERE p.text CONTAINS 'party' "
                             "RETURN p.status AS s, p.validTo AS to")
    assert plans and all(r["s"] != "active" or r["to"].to_native().date().isoformat() <= "2026-10-25"
                         for r in plans), plans


def test_weekly_chores_and_nights_of_a_week_are_no_dates():
    # "bins out on Tuesday night" had been that week's Tuesday (a plan over by Thursday), "(Sunday to Thursday
    # nights)" the Sunday before.
    ex = extracted([("Hannah", "no overnight guests on weeknights (Sunday to Thursday nights), that's the deal we made"),
                    ("Hannah", "and bins out on Tuesday night, collection is Wednesday morning")], SEP)
    assert not [f for f in ex.facts if "2026-" in f.text]
    assert not [fs for fs in ex.foresights if fs.kind == "plan"]


def test_what_one_was_on_before_one_went_onto_another_asks_after_an_earlier_value():
    # Walk-through 108's re-run: "What shifts was Chloe on before she went onto lates?" put the earlies' turn, its
    # value replaced, last of 50.
    from app.recollection.search import asks_earlier
    assert [asks_earlier(q) for q in ("What shifts was Chloe on before she went onto lates?",
                                      "Where did Dan live before Tom moved in?",
                                      "What did Tom say before the meeting?", "What shifts is Chloe on?")] == [
        True, True, False, False]


def test_an_event_announced_alone_then_no_day_has_no_day():
    # ("this time" is no day: it had made "The halloween party is on this time it's at Tom's")
    ex = extracted([("Hannah", "also, halloween party! this time it's at Tom's flat, 8pm")], SEP)
    assert not [f for f in ex.facts if f.predicate == "date is"]
    assert not [f for f in ex.facts if "party is on" in f.text]
