"""Standing rules said in other forms than an order (walk-throughs 100, 101 and 103 of session 58): asked
as a question, reported ("pharmacist said absolutely no ..."), an obligation of the speaker's, what always
goes in hand luggage, what a pet must not be given; whom "he" is when two users tell the assistant of one
of them; and what is no rule (no bites on a car for sale) or holds one day only. Read by the local extractor."""
from __future__ import annotations

from datetime import datetime, timezone

from tests.conversation import extracted

AT = datetime(2026, 9, 29, 20, 10, tzinfo=timezone.utc)


def _rules(rows) -> list[str]:
    """The constraints of `rows` told after the assistant's greeting."""
    rows = [("Juniper", "Hi both! What would you like me to keep track of?"), *rows]
    return [o.text for o in extracted(rows, AT, assistant="Juniper").foresights if o.kind == "constraint"]


def test_he_told_of_as_a_patient_is_the_other_user_not_his_consultant():
    rows = [("Callum", "hey Juniper, Priya added you to our chat so you can help us keep track of my diabetes stuff"),
            ("Juniper", "Hi Callum, hi Priya! Happy to help."),
            ("Priya", "and his consultant at the diabetes centre is Dr Martin Okafor, he's been seeing him for years"),
            ("Priya", "the important bit Juniper: he is NOT allowed to drive if his sugar is under 5. five to drive. "
                      "he checks before every trip"),
            ("Callum", "she's right, that's basically the DVLA rule"),
            ("Priya", "his new consultant is Dr Helen Strachan")]
    ex = extracted(rows, AT, assistant="Juniper")
    assert [o.text for o in ex.foresights if o.kind == "constraint"] == ["Callum must not drive if his sugar is under 5."]
    assert [(f.subject, f.object) for f in ex.facts if "consultant" in f.predicate] == [
        ("Callum", "Dr Martin Okafor"), ("Callum", "Dr Helen Strachan")]
    assert not [f for f in ex.facts if "Juniper" in f.text and "allowed" in f.text]
    # ... and so is the turn's next "he" (walk-through 103, second run: "Dr Martin Okafor checks before every trip");
    # "she" is never a man's title-named ("Dr Martin Okafor is right")
    assert [f.subject for f in ex.facts if "every trip" in f.text] == ["Callum"]
    assert not [f for f in ex.facts if "right" in f.text and "Okafor" in f.text]


def test_rules_asked_reported_owed_or_packed_are_constraints():
    assert _rules([("Callum", "oh one more thing, can you never suggest diet drinks with aspartame for me? they give "
                              "me migraines")]) == ["Callum asked never to suggest diet drinks with aspartame for Callum."]
    assert _rules([("Callum", "also the GP started me on simvastatin last week for my cholesterol. pharmacist said "
                              "absolutely no grapefruit juice with it")]) == [
        "Callum set a rule: Pharmacist said absolutely no grapefruit juice with it."]
    assert _rules([("Callum", "and I always have to carry glucose tablets, I keep Dextro in every jacket")]) == [
        "Callum always has to carry glucose tablets, Callum keeps Dextro in every jacket."]
    assert _rules([("Priya", "and the insulin ALWAYS goes in hand luggage, never in the hold. it freezes down there")]) == [
        "The insulin ALWAYS goes in hand luggage, never in the hold."]
    assert _rules([("Hannah", "Fiona said one really important thing: Mochi must NOT be given any sedatives or calming "
                              "tablets before the flight")]) == ["Mochi must not have sedatives or calming tablets."]


def test_no_bites_on_a_sale_is_no_rule_and_a_day_someone_cannot_do_ends_with_it():
    assert _rules([("Tom", "No bites on the car at £9,500 so I've dropped it to £8,950")]) == []
    ex = extracted([("Tom", "Marek texted. he can't do next Tuesday after all, he's moved us to Thursday 12th November")],
                   datetime(2026, 11, 2, 19, 56, tzinfo=timezone.utc), assistant="Crumb")
    [cant] = [o for o in ex.foresights if o.kind == "constraint"]
    assert cant.valid_to is not None and cant.valid_to.date().isoformat() == "2026-11-10"


def test_she_of_a_rule_after_a_pets_rule_is_the_pet_not_the_vet_who_said_it():
    # Walk-through 101 (second run): "she can't have anything with chicken in it" became "Dr Fiona Kerr can't have
    # chicken." (before, no rule at all).
    assert _rules([("Hannah", "Fiona said one really important thing: Mochi must NOT be given any sedatives or calming "
                               "tablets before the flight"),
                   ("Hannah", "also reminder for everyone, she can't have anything with chicken in it, she gets the "
                              "itchy rash")]) == ["Mochi must not have sedatives or calming tablets.",
                                                  "Mochi can't have chicken."]
    # ... the vet named in full with her title (walk-through 101, third run: no rule at all)
    assert _rules([("Hannah", "Our vet is Dr Fiona Kerr at Headingley Vets"),
                   ("Hannah", "Fiona said one really important thing: Mochi must NOT be given any sedatives"),
                   ("Hannah", "also reminder for everyone, she can't have anything with chicken in it")])[-1] == (
        "Mochi can't have chicken.")


def test_what_the_vet_says_a_dog_must_not_eat_is_no_rule_of_the_speakers_own():
    # Walk-through 103 (second run, tenant B): "the vet says no grapes or raisins EVER, they're toxic for dogs" was
    # "Priya must avoid grapes or."
    assert _rules([("Priya", "and the vet says no grapes or raisins EVER, they're toxic for dogs")]) == [
        "Priya set a rule: The vet says no grapes or raisins EVER, they're toxic for dogs."]


def test_sentences_after_a_pets_rule_are_read(caplog):
    # Walk-through 101 (third run): the pet's rule had clobbered the values parsed so far, and every later sentence
    # that parsed a value was skipped with an AttributeError ("Never book anything for Tom on a Wednesday" lost).
    ex = extracted([("Juniper", "Hi both!"),
                    ("Hannah", "Mochi must NOT be given any sedatives or calming tablets before the flight"),
                    ("Tom", "one rule though: never book anything for me on a Wednesday, I'm at the Manchester office"),
                    ("Tom", "my rent is £900 a month")], AT, assistant="Juniper")
    assert not [r for r in caplog.records if "skipped a sentence" in r.getMessage()]
    assert {"Tom's rent is £900 a month."} <= {f.text for f in ex.facts}
    assert any(f.text.startswith("Never book anything for Tom") for f in ex.facts)


def test_a_rule_numbered_or_said_as_ones_own_is_a_rule_and_what_some_or_a_card_do_is_none():
    # Walk-throughs 109, 110 and 111 of session 60: "Rule 1: Dan never runs two days in a row ..." and "one rule
    # from me ...: any spend over £100 needs two committee signatures" were no rules; "half the aunties don't
    # drive in the dark" was "Rachel must not drive after dark", "everything goes on Tom's card" how to reach her.
    assert _rules([("Rachel", "Rule 1: Dan never runs two days in a row while the shin heals."),
                   ("Dev", "one rule from me while we're setting up: any spend over £100 needs two committee "
                           "signatures before we order anything. no exceptions")]) == [
        "Rachel set a rule: Rule 1: Dan never runs two days in a row while the shin heals.",
        "Dev set a rule: Any spend over £100 needs two committee signatures before Dev orders anything."]
    assert _rules([("Rachel", "Also Auntie Bernie asked if we can start earlier, half the aunties don't drive in "
                              "the dark"),
                   ("Rachel", "let's keep payments simple: everything goes on Tom's card and we split it 50/50")]) == []
    assert _rules([("Rachel", "all communication goes through their Slack workspace")]) == [
        "Rachel prefers to be contacted on Slack only."]
