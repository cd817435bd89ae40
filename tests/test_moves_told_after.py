"""A move told in one turn and its new day in the speaker's next (walk-throughs 100 and 103 of session 58):
the event's day, not a fact of no one's ("Nadia said new date Tuesday 3 November"); and a day corrected in
the next turn by the other user. Read by the local extractor."""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from tests.conversation import extracted


@pytest.mark.parametrize("moved, said, event, day", [
    ("and Dr Strachan's secretary rang, the consultant appointment on the 1st is moved, she's at a conference",
     "it's now Thursday 10th December at 9:15", "consultant appointment", date(2026, 12, 10)),
    ("pump training moved AGAIN. the pumps haven't been delivered to the centre",
     "it's now Monday 9th November at 9:30am", "pump training", date(2026, 11, 9)),
    ("Ugh, the inspection's moved AGAIN. Lorna Fisher is off sick so Mr Samuel Adeyemi is doing it instead",
     "new date Tuesday 3rd November at 2pm", "inspection", date(2026, 11, 3)),
])
def test_the_new_day_said_next_is_the_moved_events(moved, said, event, day):
    ex = extracted([("Callum", moved), ("Callum", said)], datetime(2026, 10, 28, 9, tzinfo=timezone.utc))
    [new] = [f for f in ex.facts if f.turn_ids == ["t1"]]
    assert (new.subject, new.predicate, new.event_date) == (event, "date is", day)
    assert new.text.startswith(f"The {event} is")


def test_a_day_the_other_user_corrects_next_is_the_plans_and_its_facts():
    ex = extracted([("Priya", "ok holiday planning time!! we've booked Lisbon"),
                    ("Priya", "flying out from Edinburgh on Friday 18th December"),
                    ("Callum", "no, it's the 19th, Saturday. the 18th was the one we didn't book because of my work party")],
                   datetime(2026, 10, 26, 20, 30, tzinfo=timezone.utc))
    flying = [f for f in ex.facts if "flying out" in f.text]
    assert [f.event_date for f in flying] == [date(2026, 12, 18), date(2026, 12, 19)]
    assert flying[0].valid_to is not None and flying[1].valid_to is None
    assert [o.text for o in ex.foresights if "flying" in o.text] == [
        "Priya is flying out from Edinburgh on 2026-12-19 (the 19th)."]
