"""Rules told to the assistant in a chat of two users (session 63's walk-throughs): "One thing I want you to
ALWAYS do though: whenever you help with a menu, a specials board or an allergen sheet, label sesame" is a
rule for the assistant ("you" had been the other user, Tom, and no constraint made); "Which reminds me -
please never book or suggest anything for Isla on a Sunday morning" (after a dash); "in general we want
everything from the agent in writing" a standing wish."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.domain.models import Extraction
from tests.conversation import extracted

SEP = datetime(2026, 9, 29, 14, 0, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str]) -> Extraction:
    return extracted(rows, SEP, timedelta(minutes=1), assistant="Basil")


def rules(ex: Extraction) -> list[str]:
    return [f.text for f in ex.foresights if f.kind == "constraint"]


def test_an_always_said_before_its_errand_and_its_occasion_is_the_assistants_rule():
    ex = extract(("Rachel", "Hi Basil! Tom our head chef is in this chat too."),
                 ("Basil", "Understood. Anything else changing on the menu?"),
                 ("Rachel", "Not yet. One thing I want you to ALWAYS do though: whenever you help with a menu, a "
                            "specials board or an allergen sheet, label sesame. Even in dressings and breads."),
                 ("Tom", "also for rotas: Sam our kitchen porter has Wednesdays and Thursdays off"))
    assert rules(ex) == ["Rachel asked to always label sesame, when you help with a menu, a specials board or an "
                         "allergen sheet."], rules(ex)
    assert not [f.text for f in ex.facts if "Tom" in f.text and "sesame" in f.text]


def test_a_rule_after_a_dash_and_a_wish_in_general_are_standing():
    ex = extract(("Claire", "Which reminds me - please never book or suggest anything for Isla on a Sunday morning."),
                 ("Basil", "Noted."),
                 ("Hannah", "yes please. and in general we want everything from the agent in writing, not just "
                            "promises on the phone"))
    assert rules(ex) == ["Claire asked never to book or suggest anything for Isla on a Sunday morning.",
                         "Hannah wants everything from the agent in writing, not just promises on the phone."], rules(ex)


def test_a_wish_for_once_is_no_standing_rule():
    ex = extract(("Hannah", "in general we want to go with the cheaper quote"), ("Basil", "Noted."))
    assert rules(ex) == []


async def test_it_called_off_in_a_reply_to_the_assistants_question_ends_that_plan(services, graph):
    # walk-through 121: "Do you still need the damp specialist on Monday?" "nah, I've cancelled it." ended nothing
    from app.construction.ingest import Ingestor
    ingestor = Ingestor(services)
    rows = [(0, "Tom", "user", "ok I've booked a damp specialist, Bristol Damp Solutions, for next Monday at 10am"),
            (0, "Tom", "user", "and I've booked the removals van for Friday 27 November"),
            (4, "Nest", "assistant", "That's a good outcome. Do you still need the damp specialist on Monday?"),
            (4, "Tom", "user", "nah, I've cancelled it. no point paying for a quote now")]
    for day in (0, 4):
        await ingestor.memorize(graph.tenant, f"c{day}", [
            {"id": f"m{i}", "speaker": who, "role": role, "content": text,
             "timestamp": SEP + timedelta(days=d, minutes=i)}
            for i, (d, who, role, text) in enumerate(rows) if d == day], group_id="house", flush=True)
    plans = await graph.read("MATCH (x:Foresight {tenant: $tenant, kind: 'plan'}) "
                             "RETURN x.text AS text, x.endedAt IS NOT NULL AS ended ORDER BY x.text")
    assert [(p["text"][:40], p["ended"]) for p in plans] == [
        ("Tom has booked a damp specialist, Bristo", True),
        ("Tom has booked the removals van for Frid", False)], plans


def test_a_rule_after_its_label_and_colon_is_told_and_found_by_what_it_rules():
    # walk-through 123: "Can we put a rule in: no deliveries before 8am. Ever." was "Tom set a rule: Can Tom put a rule
    # in: ...", found by "put, rule, deliveries" (not by "ask Ian to drop the fish off at 7am")
    ex = extract(("Tom", "Morning all. Can we put a rule in: no deliveries before 8am. Ever."),
                 ("Basil", "Understood, no deliveries before 8am."))
    [rule] = [f for f in ex.foresights if f.kind == "constraint"]
    assert rule.text == "Tom set a rule: No deliveries before 8am, ever."
    assert {"deliveries", "drop off"} <= set(rule.trigger.split(", ")) and "put" not in rule.trigger.split(", ")


def test_a_rule_for_a_while_or_over_a_limit_is_a_constraint_that_ends_or_stands():
    # walk-through 122: "no butterfly for 3 weeks at least" and "no fly sets longer than 100m for now" were "said" facts
    ex = extract(("Basil", "Good news that it's not serious. What did she recommend?"),
                 ("Isla", "no butterfly for 3 weeks at least, and band exercises every day, 3 sets of 12"),
                 ("Claire", "He's cleared her to swim butterfly again but only light, no fly sets longer than 100m for now"))
    found = {f.text: (f.valid_to and f.valid_to.date().isoformat(), f.trigger) for f in ex.foresights
             if f.kind == "constraint"}
    assert found["Isla set a rule: No butterfly for 3 weeks at least, and band exercises every day, 3 sets of 12."][0] \
        == "2026-10-20", found
    until, trigger = found["Claire set a rule: No fly sets longer than 100m for now."]
    assert until is None and "butterfly" in trigger and "flights" not in trigger, found


def test_a_shouted_not_said_to_someone_is_a_rule_found_by_what_it_rules():
    # walk-through 121: "you're NOT lifting anything heavy on the day, the physio was very clear" was a "said" fact
    ex = extract(("Hannah", "Tom remember your back. you're NOT lifting anything heavy on the day, the physio was very clear"),
                 ("Basil", "Noted."),
                 ("Tom", "you're not coming tonight then?"))
    [rule] = [f for f in ex.foresights if f.kind == "constraint"]
    assert "NOT lifting anything heavy" in rule.text and "lifting" in rule.trigger.split(", "), rule


def test_no_visits_in_a_span_of_hours_is_a_rule():
    # Walk-through 132: "So no visits 2-3pm please" (his afternoon nap) made no constraint
    ex = extract(("Sarah", "Dorothy said he naps every afternoon from 2 to 3. So no visits 2-3pm please"))
    assert [r for r in rules(ex) if "2-3pm" in r], rules(ex)
    assert not rules(extract(("Sarah", "no visits yet, 2-3 people asked though")))


def test_a_card_payments_rule_is_found_by_paying_and_fees_that_eat_a_margin_are_no_meal():
    # Walk-through 133: "Never take card payments under £5, the fees eat the margin" surfaced for dinner ("eat") and not
    # for "A customer wants to pay £3.80 for two valve caps on contactless"
    ex = extract(("Basil", "Hi both! What should I keep in mind for the shop?"),
                 ("Gareth", "Couple of house rules. Never take card payments under £5, the fees eat the margin."))
    [rule] = [o for o in ex.foresights if o.kind == "constraint"]
    assert "contactless" in rule.trigger and "restaurant" not in rule.trigger, rule.trigger
