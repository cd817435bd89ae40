"""A value said as the short reply to a question ("Is training on a set day?" "yep Tuesdays
6pm"), read by the local extractor as the sentence it answers, so that a later change in words
of its own replaces it (session 49's walk-throughs: training, kit prices, rent)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.construction.local import LocalExtractor
from app.construction.local.replies import as_answer
from app.domain.models import Extraction, TurnRecord

MON = datetime(2026, 9, 7, 18, 0, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str]) -> Extraction:
    turns = [TurnRecord(id=f"t{i}", conversation_id="c", speaker=who,
                        user_id=None if who == "Assistant" else who.lower(),
                        role="assistant" if who == "Assistant" else "user", content=text,
                        at=MON + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(rows)]
    return LocalExtractor().extract_sync(turns)


def values(ex: Extraction, predicate: str) -> list[tuple[str, str]]:
    return [(f.subject, f.object) for f in ex.facts if f.predicate == predicate]


def test_a_slot_said_as_a_reply_is_the_slot_a_later_move_replaces():
    ex = extract(("Sam", "We've got the under-11s this season."),
                 ("Assistant", "Great! Is training on a set day?"),
                 ("Sam", "yep Tuesdays 6pm"),
                 ("Sam", "Training is moving to Wednesdays from next week."))
    # one timeline, the reply's value first: the move hands over what the reply said
    slots = [f for f in ex.facts if f.subject == "training schedule"]
    assert [f.object for f in slots] == ["Tuesdays", "Wednesdays"]
    assert all(f.single_valued and f.predicate == "is" for f in slots)
    assert ex.facts[1].text.startswith("Sam said training is on Tuesdays")


def test_a_value_and_a_person_said_as_replies_are_the_speakers():
    ex = extract(("Assistant", "What's your rent at the moment?"),
                 ("Dana", "1,210 a month"),
                 ("Assistant", "And who is your landlord?"),
                 ("Dana", "it's Greenhill Lettings"))
    assert ("Dana", "1,210") in values(ex, "rent is")
    assert values(ex, "landlord is") == [("Dana", "Greenhill Lettings")]


def test_a_reply_between_people_counts_too_but_never_the_askers_own_next_words():
    ex = extract(("Priti", "Where's training now?"),
                 ("Sam", "Hackney Marshes"),
                 ("Sam", "When's the next match?"),
                 ("Sam", "No idea, I'll ask the league."))
    assert any("Training is at Hackney Marshes" in f.text or "training is at Hackney Marshes" in f.text
               for f in ex.facts)
    assert not any("next match is" in f.text.lower() for f in ex.facts)


def test_no_value_replies_say_nothing():
    # doubt, a courtesy, more than a value, a question asked of no thing
    assert as_answer("What's your rent at the moment?", "not sure tbh") is None
    assert as_answer("What's your plan to pitch in?", "Thanks, Mell!") is None
    assert as_answer("What's up?", "nothing much") is None
    assert as_answer("Who's your landlord?", "we rent from my aunt, she owns the building") is None
    assert as_answer("What is it?", "a spreadsheet") is None
    assert as_answer("What's the weather like?", "sunny") is None
    assert as_answer("Where's the party?", "at Maya's") == "The party is at Maya's."
    assert as_answer("When's training?", "Tuesdays") == "Training is on Tuesdays."


def test_who_has_got_a_thing_is_answered_by_where_it_is_or_with_whom():
    # walk-through 120: "who's got the PA at the moment?" "It's in my garage" had been "Tom got the PA is in Tom's garage"
    assert as_answer("who's got the PA at the moment?", "It's in my garage") == "The PA is in my garage."
    assert as_answer("who's got the PA at the moment?", "Dan") == "The PA is with Dan."
    assert as_answer("Who's coming on Saturday?", "Dan") is None  # (no thing asked of)
    ex = extract(("Jess", "who's got the PA at the moment?"), ("Tom", "It's in my garage. The mic case too"))
    assert [f.text for f in ex.facts if "PA" in f.text] == ["The PA is in Tom's garage."]


def test_when_someone_can_come_answered_by_what_she_said_is_her_day_put_right_after():
    # walk-through 121: "When can Aisha come out?" "she said Thursday the 22nd" "no wait, it's Friday the 23rd" was
    # "Tom said on 2026-10-23", of no one and nothing
    assert as_answer("When can Aisha come out?", "she said Thursday the 22nd") == \
        "Aisha can come out on Thursday the 22nd."
    ex = extract(("Hannah", "so we've got a new surveyor, Aisha Rahman from Westbury Surveys."),
                 ("Assistant", "A Level 3 for £720 is good value. When can Aisha come out?"),
                 ("Tom", "she said Thursday the 22nd"),
                 ("Tom", "no wait, it's Friday the 23rd. the 22nd was full"))
    held = [(f.text, f.retracted) for f in ex.facts if "come out" in f.text]
    assert held == [("Aisha can come out on 2026-10-22 (on Thursday the 22nd).", True),
                    ("Aisha can come out on 2026-10-23 (Friday the 23rd).", False)], held
