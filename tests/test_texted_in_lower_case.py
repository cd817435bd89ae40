"""Chat texted in lower case (walk-through 100 of session 58): a first word that is an English word and no
one's name is no person, though the sentence's first letter is written capital; a question without its
mark is a question. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timezone

from tests.conversation import extracted

AT = datetime(2026, 10, 1, 9, tzinfo=timezone.utc)


def _people(ex) -> set[str]:
    return {e.name for e in ex.entities if e.type == "person"}


def test_an_english_word_first_is_no_one_but_a_name_first_is_someone():
    ex = extracted([("Tom", "and I've told Jamie the loaf price is going up. flour's costing us more now")], AT)
    assert _people(ex) == {"Tom", "Jamie"}
    assert not [f for f in ex.facts if "Flour" in f.text or "Tom and" in f.text]
    ex = extracted([("Tom", "priya's coming at 5, jamie too")], AT)
    assert "Priya" in _people(ex)


def test_a_question_without_its_mark_is_no_fact():
    ex = extracted([("Nadia", "Oscar's cake is done, it's in the sealed box in the top fridge"),
                    ("Tom", "did you use the clean tins")], AT)
    assert not [f for f in ex.facts if "tins" in f.text]
    ex = extracted([("Tom", "did you know that Jamie sold the van")], AT)  # (what was told, asked or not)
    assert [f for f in ex.facts if "van" in f.text]
