"""Two siblings planning a party in a group chat (walk-through 111 of session 60): an answer brought back
after "ok" ("ok she says thursday 22nd at 6pm works", which had been nothing), a sum made another ("actually
let's make it £400", after "I was thinking £300", which had stayed current). Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.conversation import extracted

OCT = datetime(2026, 10, 18, 9, 30, tzinfo=timezone.utc)


def test_an_answer_brought_back_after_ok_is_said():
    ex = extracted([("Tom", "I'll ask her... ok she says thursday 22nd at 6pm works")], OCT)
    assert [f.event_date.isoformat() for f in ex.facts if "6pm works" in f.text] == ["2026-10-22"]
    # (a reaction is still none: "ok sounds good")
    assert not extracted([("Tom", "ok sounds good")], OCT).facts


def test_a_sum_made_another_ends_the_one_said_before():
    ex = extracted([("Tom", "how much do we put behind the bar? I was thinking £300"),
                    ("Rachel", "£300 is fine to start, people can buy their own after"),
                    ("Tom", "actually let's make it £400, it's her 70th")], OCT, timedelta(minutes=2))
    thinking = [(f.object, f.valid_to is not None) for f in ex.facts if f.predicate == "was thinking"]
    assert thinking == [("£300", True)]
    # (the sum decided on, said so: it had been "Tom was thinking £400")
    assert [f.text for f in ex.facts if "£400" in f.text] == ["Tom said actually let's make it £400, it's her 70th."]


def test_a_firm_named_with_an_ampersand_and_one_said_to_be_our_caterer():
    # "Mezze & More" had been the thing "Mezze", so "the owner is Leila Haddad" was Silver Spoon's owner, the firm
    # named before; "so Leila is our caterer now" held no caterer.
    ex = extracted([("Tom", "I rang Silver Spoon Catering yesterday, spoke to Dave Pritchard"),
                    ("Tom", "so Mezze & More got back to me. the owner is Leila Haddad, really nice"),
                    ("Tom", "done already. so Leila is our caterer now")], OCT)
    assert "Mezze & More" in {e.name for e in ex.entities}
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "owner is"] == [("Mezze & More", "Leila Haddad")]
    assert [f.object for f in ex.facts if f.subject == "catering"] == ["Leila"]
    # (not what "it" is: "It is our venue now")
    assert not [f for f in extracted([("Tom", "It is our venue now")], OCT).facts if f.single_valued]


def test_a_number_alone_in_a_turn_about_who_is_coming_is_the_guest_count():
    # "RSVPs are mostly in. a few can't make it, Dad's cousins in Cork aren't coming. we're down to 48" left only
    # "Tom said rSVPs are mostly in." (the 55 guests before it the answer).
    ex = extracted([("Tom", "RSVPs are mostly in. a few can't make it, Dad's cousins in Cork aren't coming. "
                            "we're down to 48")], OCT)
    assert [(f.object, f.text) for f in ex.facts if f.subject == "guest count"] == [
        ("48 guests", "Tom said the guest count is now 48 guests (we're down to 48).")]
    assert "Tom said RSVPs are mostly in." in [f.text for f in ex.facts]
    # (a number alone in a turn about anything else is none)
    assert not [f for f in extracted([("Tom", "sales are great, we're up to 48 now")], OCT).facts if f.single_valued]
