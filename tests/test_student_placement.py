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
