"""What new parents tell (walk-through 85 of session 54): a baby's weight told at each weighing, a
health visitor replaced, visits called off, a remark taken back with "no wait", a milk allergy that
a formula or a cake must bring up. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.domain.models import Extraction
from tests.conversation import extracted

SEP = datetime(2026, 9, 10, 10, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str], start: datetime = SEP) -> Extraction:
    return extracted(rows, start, timedelta(days=1))


def test_each_weighing_is_the_babys_weight_never_the_speakers():
    # "Asha 3.9 kg at the pharmacy scales today", "weighed at clinic yesterday: 4.4 kg!", "nurse weighed
    # her too, 4.7 kg" were "said" facts: 3.3 kg stayed her current weight.
    ex = extract(("Priya", "Priya's daughter Asha arrived on the 8th"),
                 ("Priya", "weigh-in today, Asha is 3.3 kg! back above birth weight"),
                 ("Priya", "Asha 3.9 kg at the pharmacy scales today"),
                 ("Priya", "weighed at clinic yesterday: 4.4 kg!"),
                 ("Priya", "nurse weighed her too, 4.7 kg"),
                 ("Priya", "I weighed myself today, 61 kg"))
    weights = [(f.subject, f.object) for f in ex.facts if f.predicate == "weight is"]
    assert weights == [("Asha", "3.3 kg"), ("Asha", "3.9 kg"), ("Asha", "4.4 kg"), ("Asha", "4.7 kg")]
    assert "Asha weighed at clinic" in next(f.text for f in ex.facts if f.object == "4.4 kg")


def test_a_new_health_visitor_is_the_one_post_and_visits_called_off_plan_nothing():
    ex = extract(("Priya", "our health visitor is Karen Holt, she's doing the first home visit on Tuesday 15th"),
                 ("Priya", "our new health visitor is Joanne Pike, she said call her Jo"),
                 ("Dan", "mum and dad have to cancel tomorrow, Linda's got the flu"),
                 ("Priya", "mum wanted to come 21 November but she's cancelled, her knee op got moved forward"),
                 ("Dan", "Helen said I should also take a calcium and vitamin D supplement? no wait that was for "
                         "Priya, because of the no dairy"))
    visitors = [f for f in ex.facts if f.predicate == "health visitor is"]
    assert [(f.subject, f.object) for f in visitors] == [("Priya", "Karen Holt"), ("Priya", "Joanne Pike")]
    assert visitors[0].valid_from == SEP  # from its saying, not from the visit she is doing (re-run)
    plans = [f.text for f in ex.foresights if f.kind == "plan"]
    assert not [t for t in plans if "cancel" in t], plans
    assert not [f.text for f in ex.foresights if "wait" in f.text]  # taken back, no rule


def test_a_babys_milk_allergy_is_found_by_a_formula_or_a_cake():
    ex = extract(("Priya", "Dr Iqbal thinks Asha has cows milk protein allergy"))
    [allergy] = [f for f in ex.foresights if f.kind == "constraint"]
    assert {"formula", "cake"} <= set(allergy.trigger.split(", "))
