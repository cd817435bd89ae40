"""Values handed on or told the way an order is (session 51): "Colin did Sundays on the water rota,
Priya will take those over" had been a "said" fact, so Colin's Sundays stayed current; "4 trailer
loads, £60 each" said nothing of a count, so "5 loads now" had no value before it to end. Read by
the local extractor."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.domain.models import Extraction
from tests.conversation import extracted

SEP = datetime(2026, 9, 7, 18, 0, tzinfo=timezone.utc)  # a Monday


def extract(*rows: tuple[str, str]) -> Extraction:
    return extracted(rows, SEP, timedelta(days=1), assistant="Sprout")


def values(ex: Extraction) -> list[tuple[str, str, str]]:
    return [(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued]


def test_days_handed_on_end_the_one_who_had_them():
    ex = extract(("Dev", "right so the water rota is now: Yusuf Saturdays, Gwen Wednesdays, Colin Sundays"),
                 ("Dev", "Colin did Sundays on the water rota, Priya will take those over"),
                 ("Dev", "and Gwen is taking over Yusuf's Saturdays"))
    said = values(ex)
    assert [v for s, p, v in said if s == "Colin" and p == "rota days is"] == ["Sundays", "none"]
    assert ("Priya", "rota days is", "Sundays") in said
    assert [v for s, p, v in said if s == "Yusuf" and p == "rota days is"] == ["Saturdays", "none"]
    assert [v for s, p, v in said if s == "Gwen" and p == "rota days is"] == ["Wednesdays", "Saturdays"]
    told = {f.object: f.text for f in ex.facts if f.subject == "Priya"}
    assert told["Sundays"] == "Priya is on the rota on Sundays, taking them over from Colin."


def test_days_not_handed_on_are_no_end():
    # no one named takes them, or the one named is the one who had them
    ex = extract(("Dev", "right so the water rota is now: Yusuf Saturdays, Gwen Wednesdays, Colin Sundays"),
                 ("Dev", "Colin did Sundays on the water rota, someone will take those over"),
                 ("Dev", "Gwen did Wednesdays last year, Gwen will take them over again"))
    said = values(ex)
    assert not [v for _, _, v in said if v == "none"]


def test_a_count_told_with_its_price_each_is_the_count_said_later():
    ex = extract(("Margaret", "Hedges Farm are doing the manure delivery on the 20th"),
                 ("Margaret", "4 trailer loads, £60 each"),
                 ("Margaret", "5 loads now, he's giving us one free for the trouble"),
                 ("Margaret", "12 pots at £3 each for the stall"),
                 ("Margaret", "3 of us, £60 each"))
    said = values(ex)
    assert [v for s, _, v in said if s == "load count"] == ["4", "5"]
    assert ("pot count", "is", "12") in said
    assert not [s for s, _, _ in said if s.startswith("of ")]  # "3 of us" counts no thing


def test_the_owner_said_after_a_business_is_its_owner():
    ex = extract(("Kofi", "Morning. We've got a wholesale standing order now with The Copper Kettle, "
                          "the cafe on Harrogate Road"),
                 ("Sprout", "Great news. What's in the order?"),
                 ("Kofi", "40 croissants and 12 sourdough loaves every Tuesday, delivered by 7am"),
                 ("Kofi", "The owner is Priya Nair, she's lovely. Invoices go to her monthly"))
    assert {e.name: e.type for e in ex.entities}["Copper Kettle"] == "organization"  # "the cafe on ..."
    owned = [f for f in ex.facts if f.predicate == "owner is"]
    assert [(f.subject, f.object, f.text) for f in owned] == [
        ("Copper Kettle", "Priya Nair", "Priya Nair is the owner of Copper Kettle.")]
    assert {("Copper Kettle", "subject"), ("Priya Nair", "object")} <= set(owned[0].entities)


def test_the_owner_with_no_business_named_before_is_no_ones():
    ex = extract(("Kofi", "We went round to see Tom Hale about the van"),
                 ("Kofi", "The owner is Priya Nair, she's lovely"))
    assert not [f for f in ex.facts if f.predicate == "owner is"]


def test_a_day_asked_for_then_settled_on_after_a_doubt_is_the_things_due_date():
    ex = extract(("Ines", "Tomasz when can you have the capsule art for the steam page?"),
                 ("Tomasz", "oct 2"),
                 ("Tomasz", "wait oct 2 is a friday. oct 5 then, monday"))
    said = values(ex)
    assert [v for s, _, v in said if s == "capsule art due date"] == ["2026-10-02", "2026-10-05"]
    assert "The capsule art is due on 2026-10-05 (Oct 5)." in [f.text for f in ex.facts]
    assert [f.text for f in ex.foresights if f.kind == "deadline"] == ["The capsule art is due on 2026-10-05 (Oct 5)."]


def test_a_day_with_then_that_says_more_is_no_new_day():
    ex = extract(("Ines", "the playtest is on Saturday 10 October"),
                 ("Ines", "See you Saturday then!"),
                 ("Ines", "ok then"))
    assert [v for s, _, v in values(ex) if s == "playtest"] == ["2026-10-10"]


def test_days_said_of_she_or_he_are_the_named_ones():
    ex = extract(("Hannah", "Jess Taylor is our baker, she works Tuesday to Saturday on the early shift"),
                 ("Hannah", "And Jess asked to switch her days, she's now on Wednesday to Sunday instead of "
                            "Tuesday to Saturday"),
                 ("Kofi", "Tom is now doing Saturdays and Sundays"),
                 ("Hannah", "Tom can't do Sundays any more, he's on Fridays and Saturdays from now on"),
                 ("Hannah", "I can't do Sundays any more, I'm on Fridays now"))
    said = values(ex)
    assert [v for s, p, v in said if s == "Jess Taylor" and p == "work days is"] == [
        "Tuesday to Saturday", "Wednesday to Sunday"]
    assert [v for s, p, v in said if s == "Tom" and p == "rota days is"] == [
        "Saturdays and Sundays", "Fridays and Saturdays"]
    assert not [v for s, p, v in said if s == "Hannah" and p == "rota days is"]


def test_hours_with_still_before_their_days_are_those_days_hours():
    ex = extract(("Kofi", "Opening hours for now are Tuesday to Saturday 7:30am to 3pm, closed Sunday and Monday"),
                 ("Hannah", "Winter hours: from Tuesday 17 November we'll open 8am to 3pm, still Tuesday to Saturday"))
    said = values(ex)
    assert [v for s, _, v in said if s == "tuesday to saturday opening hours"] == ["7:30am to 3pm", "8am to 3pm"]
    winter = next(f for f in ex.facts if f.object == "8am to 3pm")
    assert winter.valid_from.date().isoformat() == "2026-11-17"  # from the day said, not its saying


def test_a_standing_orders_quantities_and_delivery_day_are_values_that_change():
    ex = extract(("Kofi", "40 croissants and 12 sourdough loaves every Tuesday, delivered by 7am"),
                 ("Kofi", "Priya came in. From next week the Copper Kettle wants 60 croissants instead of 40, and "
                          "she wants delivery on Wednesdays not Tuesdays"),
                 ("Kofi", "Priya again. The Copper Kettle is dropping to 50 croissants and she wants delivery on "
                          "Thursdays from next week"))
    said = values(ex)
    assert [v for s, _, v in said if s == "croissant count"] == ["40", "60", "50"]
    assert [v for s, _, v in said if s == "loaf count"] == ["12"]
    assert [v for s, _, v in said if s == "delivery day"] == ["Tuesday", "Wednesdays", "Thursdays"]
    sixty = next(f for f in ex.facts if f.object == "60")
    assert sixty.valid_from.date().isoformat() == "2026-09-14"  # from the week said ("from next week")
    assert sixty.text.startswith("Kofi said from the week of 2026-09-14 the Copper Kettle wants 60 croissants")


def test_counts_of_no_order_are_no_values():
    ex = extract(("Kofi", "we went to 3 shops today"), ("Kofi", "I ran 5 miles instead of 3"),
                 ("Kofi", "it dropped to 12 degrees last night"), ("Sprout", "So 40 croissants every Tuesday."))
    assert not [s for s, _, _ in values(ex) if s.endswith(" count")]


def test_an_orders_collection_day_said_next_or_beside_it_is_that_orders():
    ex = extract(("Kofi", "New order: christening cake for baby Ava, Lucy Grant is the mum. Vanilla sponge, white fondant"),
                 ("Kofi", "collection Saturday 7 November at 10am"),
                 ("Sprout", "Lovely order."),
                 ("Kofi", "Another big one: wedding cake for Daniel and Maria Ruiz, 4 tiers, collection Saturday 17 October"),
                 ("Sprout", "collection Friday then?"),
                 ("Kofi", "delivery is on Monday 9 November"))
    said = values(ex)
    assert ("christening cake collection", "date is", "2026-11-07") in said
    assert ("wedding cake collection", "date is", "2026-10-17") in said
    # (not across another's turn: the delivery is no order's named before it)
    assert ("delivery", "date is", "2026-11-09") in said and not [s for s, _, _ in said if s == "collection"]
    assert "The christening cake collection is on Saturday 2026-11-07 (7 November) at 10am." in [
        f.text for f in ex.foresights]


def test_a_correction_of_a_number_said_just_before_of_something_else_gives_no_value_anew():
    ex = extract(("Sam", "subs are going up to £50 from January"),
                 ("Elena", "I'll order 50 red scarves"),
                 ("Elena", "sorry, 55 not 50, we need spares"),
                 ("Sam", "the hall is £60 an evening"),
                 ("Sam", "sorry, 65 not 60"))
    said = values(ex)
    assert [v for s, _, v in said if s == "subs"] == ["£50"]  # (the subs had become £55)
    assert [v for s, _, v in said if s == "hall"] == ["£60", "£65"]
    assert not [f for f in ex.facts if f.corrects]  # nor does the writer look for a stored 50


def test_a_groups_rehearsals_fee_dues_and_social_said_changed_in_other_words():
    ex = extract(("Ruth", "We rehearse on Tuesdays at 7.30pm in St Aidan's church hall, term starts 8 September"),
                 ("Sam", "the hall costs us £60 an evening btw, St Aidan's invoice us monthly"),
                 ("Ruth", "St Aidan's need the hall on Tuesdays. We'll have to move rehearsals to Wednesdays from "
                          "23 September, same time 7.30"),
                 ("Sam", "also the hall fee is going up to £75 an evening from October"),
                 ("Sam", "Good news, I negotiated the hall down to £70 an evening from October"),
                 ("Sam", "subs are £40 a term"),
                 ("Sam", "AGM voted to raise subs to £45 a term starting this term"),
                 ("Ruth", "Let's say Friday 18 December for the social"),
                 ("Ruth", "Bad news. We're moving rehearsals to Thursdays from 5 November"),
                 ("Ruth", "let's move the social to Sunday 20 December then, the pub can do that"))
    said = values(ex)
    assert [v for s, _, v in said if s == "rehearsals schedule"] == ["Tuesdays", "Wednesdays", "Thursdays"]
    moved = [f for f in ex.facts if f.object == "Wednesdays"]
    assert moved[0].valid_from.date().isoformat() == "2026-09-23"  # from the day said
    assert [v for s, _, v in said if s == "hall fee"] == ["£60", "£75", "£70"]
    assert [v for s, _, v in said if s == "subs"] == ["£40", "£45"]
    assert [v for s, _, v in said if s == "social"] == ["2026-12-18", "2026-12-20"]


def test_a_new_contact_said_with_the_is_the_firms_and_a_head_count_said_as_it_grows():
    ex = extract(("Elena", "I've ordered the scores from the County Music Library, our contact there is Janet Hughes, "
                           "janet.hughes@county.gov.uk"),
                 ("Elena", "38 singers signed up so far"),
                 ("Elena", "41 singers now"),
                 ("Elena", "Janet Hughes has retired from the music library. The new contact is Kofi Mensah, "
                           "kofi.mensah@county.gov.uk"),
                 ("Elena", "45 singers tonight"))
    said = values(ex)
    assert [v for s, p, v in said if s == "County Music Library" and p == "contact is"] == [
        "Janet Hughes", "Kofi Mensah"]
    assert "Kofi Mensah is the contact at County Music Library." in [f.text for f in ex.facts]
    assert [v for s, _, v in said if s == "singer count"] == ["38", "41", "45"]


def test_a_reply_with_no_subject_to_a_question_about_him_is_his():
    ex = extract(("Dev", "bad news, Kyle is leaving us. his last day is wednesday 30 sept"),
                 ("Marta", "oh no. did he say why?"),
                 ("Dev", "got a job driving for Ocado. fair enough, better hours"),
                 ("Marta", "did you book the van?"),
                 ("Dev", "booked it for Friday"))
    said = {(f.subject, f.predicate, f.object) for f in ex.facts}
    assert ("Kyle", "got", "a job driving for Ocado") in said  # (it had been Dev's)
    assert not [f for f in ex.facts if f.subject == "Kyle" and "book" in f.predicate]


def test_an_hourly_rate_agreed_for_someone_is_their_pay():
    ex = extract(("Marta", "I've got someone in mind, Sam Brennan"),
                 ("Marta", "brilliant. I'll sort his contract. £13.50 an hour?"),
                 ("Dev", "£14, he's experienced"),
                 ("Marta", "ok £14 an hour for Sam then"),
                 ("Marta", "£20 an hour for me would be nice"))
    assert [(s, v) for s, p, v in values(ex) if p == "pay is"] == [("Sam Brennan", "£14 an hour")]


def test_a_value_proposed_then_agreed_by_another_is_the_value_and_a_review_of_tonight_no_day():
    ex = extract(("Sam", "the fundraising target is £4,000"),
                 ("Sam", "I'd like to raise the fundraising target to £4,500"),
                 ("Ruth", "yes, £4,500 it is"),
                 ("Sam", "I'd like to move the deadline to 9"),
                 ("Ruth", "ok, 10 it is"),
                 ("Elena", "Great first rehearsal tonight! 38 singers signed up so far"))
    said = values(ex)
    assert [v for s, _, v in said if s == "fundraising goal"] == ["£4,000", "£4,500"]
    assert not [s for s, _, _ in said if "deadline" in s]  # (agreed to another value than proposed)
    assert not [s for s, _, _ in said if "rehearsal" in s]
    assert not [f for f in ex.foresights if "rehearsal" in f.text]


def test_a_value_asked_for_then_agreed_by_another_is_the_value():
    # Walk-through 113 ("Can we do 5:30 instead?" "5:30 it is" made no fact): a move asked as a question and agreed
    # with its value is the value, from the day the question gives
    ex = extract(("Dana", "Mia's swimming lessons are on Tuesdays at 5pm at Riverside pool"),
                 ("Dana", "Can we move swimming to 5:30 from next week?"),
                 ("Tom", "Yes 5:30 is fine"),
                 ("Tom", "Could we push the team meeting back to 12.30?"),
                 ("Dana", "Yeah 12:30 works for me"),
                 ("Dana", "Could we move the party to 7?"),
                 ("Tom", "8 is better"),
                 ("Tom", "Can we move it to 6pm?"),
                 ("Dana", "6pm then"))
    said = values(ex)
    assert [v for s, _, v in said if s.lower() == "swimming"] == ["5:30"]
    assert [v for s, _, v in said if s.lower() == "team meeting"] == ["12:30"]
    assert not [s for s, _, _ in said if s.lower() in ("party", "it")]  # (another value; nothing named)
    # ... or said as what one wants to do (walk-through 119: "I want to nudge the entry fee up to £32" "£32 is fine")
    ex = extract(("Priya", "the entry platform has started charging us fees, so I want to nudge the entry fee up to £32"),
                 ("Tom", "£32 is fine. still cheaper than the Wexcombe Wheeler"))
    assert [(s, v) for s, _, v in values(ex)] == [("entry fee", "£32")]


def test_a_customers_quote_given_revised_and_settled_is_one_timeline():
    ex = extract(("Marta", "New job: Helen Okafor, 2 bed flat in Stoke Newington going to Walthamstow. I quoted her £850"),
                 ("Marta", "Another one: Tom Reilly, house in Highbury to St Albans. quoted £1,200, moving on Thursday "
                           "3 December"),
                 ("Marta", "Helen Okafor rang, she has way more boxes than she said plus a wardrobe to take apart. "
                           "revised her quote to £920"),
                 ("Marta", "nice. Helen Okafor asked for a bit off since she's packing the kitchen herself. I said "
                           "£880, final price"),
                 ("Marta", "I quoted myself £5 for a coffee"))
    said = values(ex)
    assert [v for s, p, v in said if s == "Helen Okafor" and p == "quote is"] == ["£850", "£920", "£880"]
    assert [v for s, p, v in said if s == "Tom Reilly" and p == "quote is"] == ["£1,200"]
    assert not [s for s, p, _ in said if s == "Marta" and p == "quote is"]


def test_a_quote_to_them_is_the_household_named_before_not_the_assistant_called_by_name():
    # Walk-through 98: "Right Bolt, you're in the group now" then "a full rewire for the Hendersons ..., quoted
    # them £4,200" made the quote the assistant's ("Bolt | quote is | £4,200").
    ex = extract(("Bethan", "Right Bolt, you're in the group now. I'm Bethan, I do Gareth's books."),
                 ("Gareth", "main thing is a full rewire for the Hendersons on Cae Mawr Road, quoted them £4,200 last week"))
    assert [(s, v) for s, p, v in values(ex) if p == "quote is"] == [("Hendersons", "£4,200")]
    # ... a quote given again or settled is the one said last ("re-quoted at £990", "agreed £950 final"), of no
    # one when none was (walk-through 98: "Dai" and "Callum", named before, had been given quotes)
    ex = extract(("Marta", "New job: Helen Okafor, 2 bed flat. I quoted her £850"),
                 ("Marta", "she added a piano so re-quoted at £990"),
                 ("Marta", "she knocked us down a bit, agreed £950 final"))
    assert [(s, v) for s, p, v in values(ex) if p == "quote is"] == [
        ("Helen Okafor", "£850"), ("Helen Okafor", "£990"), ("Helen Okafor", "£950")]
    ex = extract(("Gareth", "Day 2 at the Hendersons. going well, Dai's lad is handy"),
                 ("Gareth", "re-quoted at £4,650 for the lot"))
    assert not [v for _, p, v in values(ex) if p == "quote is"]


def test_a_head_count_said_in_a_clause_grows_and_a_proposal_or_a_supposed_day_is_no_value():
    ex = extract(("Elena", "Great first rehearsal tonight! 38 singers signed up so far"),
                 ("Elena", "first Wednesday rehearsal went well btw, 41 singers now"),
                 ("Sam", "AGM voted to raise subs to £45 a term starting this term"),
                 ("Ruth", "Let's say Friday 18 December for the social"),
                 ("Elena", "the social on the 18th would then be the night before the concert, that's awkward"),
                 ("Elena", "45 singers tonight, our biggest ever"),
                 ("Sam", "Committee proposal: raise subs to £50 a term from the spring term (January), because of "
                         "the hall fee"),
                 ("Sam", "ok, subs are £50 from January then"))
    said = values(ex)
    assert [v for s, _, v in said if s == "singer count"] == ["38", "41", "45"]
    assert [v for s, _, v in said if s == "subs"] == ["£45", "£50"]
    fifty = next(f for f in ex.facts if f.subject == "subs" and f.object == "£50")
    assert fifty.valid_from.date().isoformat() == "2027-01-01"  # from January, not from the proposal
    assert [v for s, _, v in said if s == "social"] == ["2026-12-18"]


def test_his_last_day_with_its_weekday_is_the_leavers_and_told_by_his_name():
    ex = extract(("Dev", "bad news, Kyle is leaving us. his last day is wednesday 30 sept"))
    days = [f for f in ex.facts if f.predicate == "last day is"]
    assert [(f.subject, f.object, f.text) for f in days] == [
        ("Kyle", "2026-09-30", "Kyle's last day is wednesday 2026-09-30 (30 sept).")]  # (it had been Dev's words)


def test_a_value_said_with_its_year_between_a_post_with_a_title_and_a_price_put_up():
    ex = extract(("Ben", "fundraising target this year is £2,000, mostly for new library books"),
                 ("Aisha", "So we're raising the fundraising target to £2,500"),
                 ("Aisha", "The new deputy head is Ms Priya Nair, she started this week"),
                 ("Ben", "raffle tickets are £1 a strip"),
                 ("Ben", "And I'm putting raffle tickets up to £2 a strip"))
    said = values(ex)
    assert [v for s, _, v in said if s == "fundraising goal"] == ["£2,000", "£2,500"]
    assert ("deputy head", "is", "Ms Priya Nair") in said
    assert [v for s, _, v in said if s == "raffle tickets"] == ["£1", "£2"]


def test_values_changed_as_a_photographer_a_dog_walker_and_a_pta_said_them():
    ex = extract(("Priya", "Helen Okafor has a key safe by the back gate, the code is 4471."),
                 ("Priya", "Helen changed her key safe code, it's now 9036"),
                 ("Priya", "Helen's key safe code changed AGAIN, new one is 2258. She had a workman round"),
                 ("Lena", "Gas went up again, I'm changing the travel fee to $0.65 per mile starting today"),
                 ("Lena", "Changing the travel fee again, $0.70 per mile from November 1"),
                 ("Lena", "Also Gary says rent goes up to $1,525 a month starting November 1"),
                 ("Aisha", "Mrs Okafor, the head teacher, has approved the fair for Saturday 28 November in the school "
                           "hall."),
                 ("Aisha", "So the fair is moving to Saturday 12 December. Mrs Okafor is fine with it"),
                 ("Ben", "bake stall has 3 volunteers so far incl Fatima"),
                 ("Aisha", "Bake stall now has 5 volunteers - Fatima plus four Year 3 mums"),
                 ("Aisha", "One of the bake stall mums can't make it, so bake stall is down to 4 volunteers"),
                 ("Aisha", "Fatima has 2 kids at the school"))
    said = values(ex)
    assert [v for s, p, v in said if s == "Helen Okafor" and p == "key safe code is"] == ["9036", "2258"]
    assert [v for s, _, v in said if s == "travel fee"] == ["$0.65", "$0.70"]
    assert ("rent", "is", "$1,525") in said
    assert [v for s, _, v in said if s == "fair"] == ["2026-11-28", "2026-12-12"]
    assert [v for s, _, v in said if s == "bake stall volunteer count"] == ["3", "5", "4"]
    assert not [s for s, _, _ in said if "kid" in s]  # (a person's, not a thing's count)


def test_one_put_in_anothers_place_is_their_replacement():
    # Walk-through 94: "Carla Nguyen replaces Dr Ochoa as our contact at Brightsmile" was a fact of its own.
    ex = extract(("Raj", "Dr Ochoa is the practice owner at Brightsmile"),
                 ("Raj", "Carla Nguyen replaces Dr Ochoa as our contact at Brightsmile"))
    assert ("Dr Ochoa", "replacement is", "Carla Nguyen") in values(ex)


async def test_one_put_in_anothers_place_takes_over_their_post(services, graph):
    from tests.conversation import tell_days
    await tell_days(services, graph, [(0, "Raj", "Dr Ochoa is our contact at Brightsmile Dental"),
                                      (20, "Raj", "Carla Nguyen replaces Dr Ochoa as our contact at Brightsmile")],
                    "it", SEP)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate = 'contact is' "
                            "RETURN f.object AS o, f.status AS status ORDER BY f.validFrom")
    assert [(r["o"], r["status"]) for r in rows] == [("Dr Ochoa", "superseded"), ("Carla Nguyen", "current")], rows


def test_one_found_for_a_post_and_named_next_holds_it():
    # Walk-through 100: "found an engineer!! Marek Nowak from Bake-Tech Services" kept "Tom found an engineer." only.
    ex = extract(("Tom", "found an engineer!! Marek Nowak from Bake-Tech Services. Rachel at Crust & Co swears by him"))
    assert [f.text for f in ex.facts if "Marek" in f.text] == [
        "Tom said the engineer is Marek Nowak from Bake-Tech Services."]
    ex = extract(("Tom", "found an engineer!! Not cheap though."))  # (no name next: nothing of whom)
    assert not [f for f in ex.facts if "engineer is" in f.text]


def test_a_new_one_for_a_post_named_in_the_next_turn_holds_it_and_her_number_is_hers():
    # Walk-through 104: "so we've got a new health visitor" "her name is Priya Shah. ... Her direct number is
    # 01632 960418" left Gillian the health visitor and gave her Priya's number.
    ex = extracted([("Hannah", "Our health visitor is Gillian Marsh, she does the weigh-in clinic on Thursdays"),
                    ("Hannah", "news: Gillian is moving to another patch in Harwood, so we've got a new health visitor"),
                    ("Hannah", "her name is Priya Shah. Lovely, came round this morning. Her direct number is "
                               "01632 960418")], SEP, timedelta(minutes=3))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "health visitor is"] == [
        ("Hannah", "Gillian Marsh"), ("Hannah", "Priya Shah")]
    assert [f.subject for f in ex.facts if f.predicate == "phone is"] == ["Priya Shah"]
    # a name said with no new one before it is no post's
    ex = extracted([("Hannah", "we met a lovely mum at baby group"), ("Hannah", "her name is Priya Shah")],
                   SEP, timedelta(minutes=3))
    assert not [f for f in ex.facts if f.predicate.endswith(" is") and "Priya" in f.object]


def test_one_named_then_whose_kin_they_are_is_the_he_that_follows():
    # Walk-through 105: "Rob Hale, Zac's dad. He's got his FA emergency aid badge already" gave the badge to Zac.
    ex = extracted([("Dan", "oh no. who's taking over"),
                    ("Priya", "Rob Hale, Zac's dad. He's got his FA emergency aid badge already.")],
                   SEP, timedelta(minutes=2))
    assert [f.subject for f in ex.facts if "badge" in f.text] == ["Rob Hale"]


def test_a_given_name_said_first_with_an_allergy_is_a_persons_constraint():
    # Walk-through 105: "Maisie has a nut allergy, a bad one" was "Priya said maisie has ...", no constraint
    # ("Maisie" was no name known); and "Luna and Oliver!", their pets' names, stays a fact (LoCoMo).
    ex = extracted([("Priya", "yes. Maisie has a nut allergy, a bad one, she carries an EpiPen.")], SEP)
    assert [f.text for f in ex.foresights if f.kind == "constraint"] == ["Maisie has a nut allergy."]
    ex = extracted([("Caroline", "What are their names? Pets are such a joy!"),
                    ("Melanie", "Luna and Oliver! They are so sweet and playful")], SEP, timedelta(minutes=1))
    assert [f.text for f in ex.facts if "Luna" in f.text] == ["Melanie said Luna and Oliver."]


def test_a_day_said_instead_after_anothers_question_is_the_moved_things_and_she_who_holds_a_post_named():
    # Walk-through 106: "they want to push the engagement shoot" "What did she suggest?" "Sunday the 15th instead,
    # same place, but 2:30pm" named no shoot; "she's our second shooter from now on" did not name Priya.
    ex = extracted([("Callum", "Morning. Sophie messaged, they want to push the engagement shoot, Saturday looks like "
                               "rain all day"),
                    ("Nadia", "What did she suggest?"),
                    ("Callum", "Sunday the 15th instead, same place, but 2:30pm because sunset is earlier now")],
                   datetime(2026, 11, 4, 9, 45, tzinfo=timezone.utc), timedelta(minutes=3))
    assert ("engagement shoot", "date is", "2026-11-15") in values(ex)
    ex = extracted([("Nadia", "Yes actually - Priya Mistry, she assisted at the Coleman wedding. I've just messaged her"),
                    ("Callum", "she said yes!! she's our second shooter from now on.")], SEP, timedelta(minutes=3))
    assert [f.text for f in ex.facts if f.predicate == "is" and f.object == "Priya Mistry"] == [
        "Priya Mistry is our second shooter from now on."]


def test_one_who_takes_on_a_post_another_steps_down_from_holds_it_and_a_firm_said_first_is_named():
    # Walk-through 105: "Janet is stepping down as welfare officer, she's moving to Leeds. Marcus Reid has agreed to
    # take it on" made "Marcus Reid | has agreed to take | it on"; "Goalline is our kit supplier" named no firm.
    ex = extract(("Priya", "another change too, Janet is stepping down as welfare officer, she's moving to Leeds. "
                           "Marcus Reid has agreed to take it on"))
    assert ("welfare officer", "is", "Marcus Reid") in values(ex)
    ex = extract(("Priya", "Janet is stepping down as welfare officer. We'll take it from there"))
    assert not [v for v in values(ex) if v[0] == "welfare officer"]
    ex = extract(("Priya", "Goalline is our kit supplier from now on"))
    assert "Goalline" in {e.name for e in ex.entities}
    ex = extract(("Priya", "Work is our priority this month"))
    assert "Work" not in {e.name for e in ex.entities}


def test_a_labs_manager_handed_on_and_an_examiner_named_without_an_article_are_posts():
    # Walk-through 113: "Gillian Moss is the lab manager" and "Tom Beckett takes over as lab manager" were facts
    # of their own, Gillian current; "External examiner will be Professor Ingrid Larsen" a "said" fact.
    ex = extract(("Martin", "Gillian Moss is the lab manager, if anything goes wrong call her on extension 4419"),
                 ("Martin", "Also Gill is retiring at the end of this week. Tom Beckett takes over as lab manager "
                            "from Monday the 9th"),
                 ("Martin", "External examiner will be Professor Ingrid Larsen from Uppsala University"))
    said = values(ex)
    assert [v[2] for v in said if v[0] == "lab manager"] == ["Gillian Moss", "Tom Beckett"], said
    assert [v[2] for v in said if v[0] == "external examiner"] == ["Professor Ingrid Larsen"], said


def test_a_head_of_department_starting_on_a_day_and_a_head_marshal_are_posts():
    # Walk-throughs 117 and 119: "She starts as head of department on Monday 2 November" and "Linda Moss is head
    # marshal now" made no post; the head of department's from the day she starts
    ex = extract(("Rachel", "Dr Anita Sharma is coming from Ashcombe Academy. She starts as head of department on "
                            "Monday 2 November"),
                 ("Tom", "Linda Moss is head marshal now"))
    held = {(f.subject, f.predicate, f.object, f.valid_from.date().isoformat()) for f in ex.facts if f.single_valued}
    # (the speaker's, as "Dr Sarah Lin is the new head of department" is)
    assert ("Rachel", "head of department is", "Dr Anita Sharma", "2026-11-02") in held, held
    # ... told with her name (walk-through 117's third run: "She starts as ...")
    assert [f.text for f in ex.facts if f.predicate == "head of department is"] == [
        "Dr Anita Sharma starts as head of department on Monday 2026-11-02 (2 November)."]
    assert any(s == "head marshal" and o == "Linda Moss" for s, _, o, _ in held), held


def test_a_sportives_start_time_and_its_day_said_short_are_values():
    # Walk-through 119: "start time 8.30am", "agreed, 9am start", "I'm bringing the start forward to 8:45", "It's called
    # the Frostbite 50, it's on Sunday 24 January", "they want us a week later: the Frostbite 50 is now Sunday 31
    # January" were "said" facts (or none), each value current; "a week later" was a week after the telling
    ex = extract(("Tom", "route is 62 miles, out over the Mill Lane bridge. start time 8.30am"),
                 ("Priya", "It's called the Frostbite 50, it's on Sunday 24 January"),
                 ("Tom", "also thinking we push the start from 8.30 to 9am"),
                 ("Priya", "agreed, 9am start"),
                 ("Tom", "Gas main works, so they want us a week later: the Frostbite 50 is now Sunday 31 January"),
                 ("Tom", "the council want all riders off the roads by 3pm, so I'm bringing the start forward to 8:45"),
                 ("Tom", "My finish time was 4:05 last year"))
    said = values(ex)
    assert [v for s, _, v in said if s == "start time"] == ["8.30am", "9am", "8:45"], said
    assert [v for s, _, v in said if s == "frostbite 50"] == ["2027-01-24", "2027-01-31"], said
    assert not [f for f in ex.facts if "2026-09-" in f.text and "week later" in f.text]


def test_a_count_of_entries_said_as_it_grows_is_one_value_and_a_number_put_right_at_once_takes_nothing_back():
    # Walk-through 119: "we've got 48 entries so far", "entries update: we're on 143! no wait, 134", "171 entries as
    # of tonight!!" were "said" facts or someone's things, the 48 first for "How many entries have we got?"
    ex = extract(("Priya", "yes obviously, anyone who already paid £25 keeps it. we've got 48 entries so far"),
                 ("Priya", "entries update: we're on 143! no wait, 134, I read it upside down"),
                 ("Tom", "171 entries as of tonight!!"),
                 ("Tom", "I did 3 entries in my diary"))
    counts = [(f.object, f.retracted) for f in ex.facts if f.subject == "entry count"]
    assert counts == [("48", False), ("134", False), ("171", False)], counts


def test_a_price_per_unit_put_up_from_a_month_holds_from_then():
    # Walk-through 118: "Tamsin says she's putting her price up to £65 per changeover from January" held from its
    # saying, the £60 ended at once
    ex = extract(("Helen", "Tamsin says she's putting her price up to £65 per changeover from January, laundry costs "
                           "went up"),)
    assert [(f.object, f.valid_from.date().isoformat()) for f in ex.facts if f.predicate == "price is"] == [
        ("£65", "2027-01-01")]
