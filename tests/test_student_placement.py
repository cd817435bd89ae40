"""A student nurse and her flatmate in a group chat (walk-through 108 of session 60): a new practice supervisor
named in the speaker's next turn ("it's Tom Fenwick, ..."). It had been a "said" fact, so the first
supervisor stayed the answer. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timezone

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
    assert [f.single_valued for f in ex.facts if f.predicate == "hours is"] == [True]
    # (times alone on a day are no shifts: "I'm on 9 to 5 today")
    ex = extracted([("Chloe", "I'm on 9am to 5pm today, then free")], SEP)
    assert not [f for f in ex.facts if f.predicate == "shifts is"]
