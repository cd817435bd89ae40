"""A value said again later, in other words, comes first for a question about now
(recollection/newer_values.py): the later saying changes places with the older when both give an
amount of one kind about the same words; the rest of the order kept."""
from __future__ import annotations

from datetime import datetime, timezone

from app.recollection.newer_values import LOOKED_AT, newer_values_first
from app.recollection.search import Hit


def said(text: str, day: int, kind: str = "turn") -> Hit:
    at = datetime(2026, 9, day, 18, 0, tzinfo=timezone.utc)
    node = {"content": text, "at": at} if kind == "turn" else {"text": text, "validFrom": at}
    return Hit(0, 0.0, kind, node, [], [])


def texts(hits: list[Hit]) -> list[str]:
    return [h.node.get("content") or h.node.get("text") for h in hits]


def test_the_later_amount_of_the_same_thing_comes_first():
    hits = [said("the hall costs us £60 an evening btw, St Aidan's invoice us monthly", 1),
            said("choir is great tonight", 2),
            said("Good news, I negotiated the hall down to £70 an evening from October", 20),
            said("bake stall has 3 volunteers so far incl Fatima", 4),
            said("Bake stall now has 5 volunteers, Nina joined", 12, kind="fact")]
    out = newer_values_first(hits)
    # (each pair changes places, the rest keep theirs: the hit between stays second)
    assert texts(out) == [texts(hits)[i] for i in (2, 1, 0, 4, 3)]
    assert [h.rank for h in out] == [1, 2, 3, 4, 5]


def test_the_speaker_said_first_is_no_word_of_what_is_said():
    hits = [said("Lena said the Full Day package is $4,200 for the day", 3, kind="fact"),
            said("Lena said Diego charges $400 for the day", 9, kind="fact")]
    assert newer_values_first(hits) is hits


def test_amounts_of_other_things_or_the_same_amount_again_keep_their_order():
    hits = [said("Britannia Movers quoted £4,200 for the move", 3),
            said("I paid £20 for the hall key", 25),  # (one word shared with nothing of its kind)
            said("the hall costs us £60 an evening", 1),
            said("the hall costs £60 an evening, St Aidan's confirmed", 9),  # the same amount said again
            said("we need 3 volunteers", 2), said("we have 5 tables", 8)]  # counts of other things
    assert newer_values_first(hits) is hits


def test_only_the_first_hits_are_read():
    filler = [said(f"unrelated note number {i}", 2) for i in range(LOOKED_AT)]
    hits = [said("the hall costs us £60 an evening", 1), *filler[1:], said("the hall is now £70 an evening", 20)]
    assert newer_values_first(hits) is hits  # (the later saying is past the tenth)
