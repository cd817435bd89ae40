"""A runner and his coach in a group chat (walk-through 109 of session 60): the coach changing "your" target
pace. It had been a fact of the coach's, "Rachel | is changing | your target marathon pace to 5", the old pace
current beside it. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.conversation import extracted

SEP = datetime(2026, 9, 28, 18, 2, tzinfo=timezone.utc)


def test_a_value_the_other_user_changes_as_yours_is_theirs():
    ex = extracted([("Dan", "Hi all! Rachel, this is the assistant I mentioned"),
                    ("Rachel", "I'm changing your target marathon pace to 5:30 per km. That's about 3:52"),
                    ("Rachel", "And let's be realistic with pace. New target marathon pace is 5:35 per km")],
                   SEP, timedelta(days=10))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate.endswith("pace is")] == [
        ("Dan", "5:30"), ("Dan", "5:35")]
    assert not [f for f in ex.facts if f.subject == "Rachel" and "5:3" in f.text]


def test_a_weekly_check_in_call_is_a_slot_of_one_timeline():
    # "Our weekly check-in call is Mondays at 7pm" had been "Rachel's weekly | check-in | call is Mondays ...".
    ex = extracted([("Rachel", "Our weekly check-in call is Mondays at 7pm"),
                    ("Rachel", "From next week our check-in call is Tuesdays at 7:30pm")], SEP, timedelta(days=14))
    assert [(f.subject, f.object) for f in ex.facts if f.single_valued] == [
        ("check-in call schedule", "Mondays at 7pm"), ("check-in call schedule", "Tuesdays at 7:30pm")]
