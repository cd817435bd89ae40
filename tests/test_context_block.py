"""The context block for a prompt: what fits a token budget, and in what order."""
from datetime import datetime, timezone

from app.recollection.context import build_context
from app.recollection.search import Hit

AT = datetime(2026, 11, 28, 9, 30, tzinfo=timezone.utc)


def hit(rank: int, kind: str, node: dict, evidence: list[dict] = ()) -> Hit:
    return Hit(rank=rank, score=1.0 / rank, kind=kind, node=node, evidence=list(evidence), channels=[])


VISIT = hit(1, "fact", {"text": "Priya's sister visits on 2026-12-14 (on the 14th).", "validFrom": AT})
EPISODE = hit(2, "memcell", {"title": "Moving to Hamburg", "summary": "Priya moved to Hamburg. " * 30,
                             "startedAt": AT},
              [{"at": AT, "speaker": "Priya", "content": "We finally moved to Hamburg! " * 10}])
DIET = hit(3, "foresight", {"kind": "constraint", "text": "Marco is vegetarian.", "validTo": None},
           [{"at": AT, "speaker": "Priya", "content": "Marco is vegetarian, by the way."}])


def test_a_hit_too_long_for_the_budget_leaves_room_for_the_short_ones_after_it():
    block = build_context([VISIT, EPISODE, DIET], 80)
    # The episode does not fit even without its turns; the constraint after it does, with its turn.
    assert block.splitlines() == [
        "1. [fact, valid 2026-11-28 to now] Priya's sister visits on 2026-12-14 (on the 14th).",
        "3. [keep in mind: constraint, no end date] Marco is vegetarian.",
        "   - 2026-11-28 09:30 Priya: Marco is vegetarian, by the way."]
    assert len(block) <= 80 * 4


def test_a_hit_whose_turns_do_not_fit_comes_without_them():
    block = build_context([DIET, EPISODE], 30)
    assert block == "1. [keep in mind: constraint, no end date] Marco is vegetarian."


def test_the_best_hit_is_always_given_cut_at_a_word():
    block = build_context([VISIT, DIET], 12)
    assert block.endswith("\u2026") and len(block) <= 12 * 4
    assert block.startswith("1. [fact, valid 2026-11-28 to now]") and not block[:-1].endswith(" ")
    # Whole words only: the date is not cut in the middle.
    assert block.rstrip("\u2026").split()[-1] in VISIT.node["text"].split() + ["now]"]


def test_without_a_budget_every_hit_comes_with_its_turns():
    block = build_context([VISIT, EPISODE, DIET], None)
    assert [line[:3] for line in block.splitlines() if not line.startswith("   ")] == ["1. ", "2. ", "3. "]
    assert block.count("   - ") == 2


def test_a_standing_constraint_keeps_its_line_under_a_small_budget():
    # At 64 tokens the block was the assistant's own earlier suggestion, and no allergy.
    chat = hit(1, "turn", {"at": AT, "speaker": "Pip", "content": "How about Green Fig in Hackney? " * 6})
    tip = hit(2, "fact", {"text": "Maya likes Green Fig in Hackney, a lovely place for dinner.", "validFrom": AT})
    nuts = hit(3, "foresight", {"kind": "constraint", "text": "Maya is allergic to peanuts.", "validTo": None})
    block = build_context([chat, tip, nuts], 64)
    lines = block.splitlines()
    assert lines[0].startswith("1. [message") and lines[-1].endswith("Maya is allergic to peanuts.")
    assert not any(line.startswith("2. ") for line in lines)  # its room went to the constraint
    assert len(block) <= 64 * 4
    # With room for everything, everything in rank order, as before.
    assert [line[:3] for line in build_context([chat, tip, nuts], 400).splitlines()] == ["1. ", "2. ", "3. "]


def test_hits_of_several_groups_say_whose_they_are():
    berlin = hit(1, "fact", {"text": "Jun moved to the Berlin office.", "validFrom": AT, "groupId": "platform"})
    lisbon = hit(2, "fact", {"text": "Jun moved to the Lisbon office.", "validFrom": AT, "groupId": "data"})
    assert build_context([berlin, lisbon], None).splitlines() == [
        "1. (group platform) [fact, valid 2026-11-28 to now] Jun moved to the Berlin office.",
        "2. (group data) [fact, valid 2026-11-28 to now] Jun moved to the Lisbon office."]
    # one group (or none): nothing to tell apart
    assert build_context([berlin], None) == "1. [fact, valid 2026-11-28 to now] Jun moved to the Berlin office."
