"""What a pet owner and a team's coach tell: a pet's weight and doses, a player's injury healed,
days cut short ("Sat 24 Oct"), a stay from the 21st to the 28th. Each from a walk-through of
session 49 (a pet-care household, a children's football team), read by the local extractor."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from app.construction.local import LocalExtractor
from app.domain.models import Extraction, TurnRecord

FRI = datetime(2026, 10, 16, 18, 0, tzinfo=timezone.utc)  # a Friday
FRI_23 = datetime(2026, 10, 23, 18, 0, tzinfo=timezone.utc)


def extract(*rows: tuple[str, str], start: datetime = FRI) -> Extraction:
    turns = [TurnRecord(id=f"t{i}", conversation_id="c", speaker=who, user_id=who.lower(), role="user",
                        content=text, at=start + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(rows)]
    return LocalExtractor().extract_sync(turns)


def values(ex: Extraction, predicate: str) -> list[tuple[str, str]]:
    return [(f.subject, f.object) for f in ex.facts if f.predicate == predicate]


def test_a_weekday_cut_short_before_a_day_gives_its_year_and_makes_the_events_day():
    # "away at Greenfield United on Sat 24 Oct" (said in October 2026, in the past tense) was
    # 24 October 2025; "The party is on Sat 12 Dec" was no day of the party.
    ex = extract(("Sam", "We've got the cup game away at Greenfield United on Sat 24 Oct instead."),
                 ("Sam", "The party is on Sat 12 Dec at the clubhouse."))
    assert {f.event_date for f in ex.facts} >= {date(2026, 10, 24), date(2026, 12, 12)}
    assert date(2025, 10, 24) not in {f.event_date for f in ex.facts}
    assert values(ex, "date is") == [("party", "2026-12-12")]
    assert "on Sat on" not in " ".join(f.text for f in ex.facts)


def test_a_days_game_to_be_moved_is_the_one_ahead():
    # Said on a Friday: "move Sunday's game" was the Sunday gone by, read "move on 2026-10-11 (Sunday)'s game".
    ex = extract(("Sam", "Kingsmead have asked to move Sunday's game again."))
    assert [f.event_date for f in ex.facts] == [date(2026, 10, 18)]
    assert "on 2026" not in ex.facts[0].text


def test_a_wrist_healed_and_back_in_goal_ends_the_injury():
    ex = extract(("Sam", "Noah hurt his wrist diving for a save, he'll be out 4-6 weeks."),
                 ("Sam", "Noah's wrist is healed, Mark cleared him."),
                 ("Sam", "Leo sprained his ankle. Leo is back in goal on Saturday."))
    assert values(ex, "injury is") == [("Noah", "hurt wrist"), ("Noah", "recovered"), ("Leo", "sprained ankle"),
                                       ("Leo", "recovered")]


def test_she_weighs_is_the_pet_named_before_never_the_speaker():
    # "she weighs 5.5 kg now" (of the cat) was Ellie's own weight; "she's 5.3 kg" was nothing.
    ex = extract(("Ellie", "Mochi weighs 5.8 kg."), ("Ellie", "she hates it lol. she weighs 5.5 kg now"),
                 ("Ellie", "she's 5.3 kg"), ("Ellie", "The suitcase limit? It's 23 kg."))
    assert values(ex, "weight is") == [("Mochi", "5.8 kg"), ("Mochi", "5.5 kg"), ("Mochi", "5.3 kg")]
    alone = extract(("Ellie", "she hates it lol. she weighs 5.5 kg now"))
    assert values(alone, "weight is") == []


def test_a_pets_dose_lowered_twice_is_one_doses_values():
    # Apoquel was no medication: "Dr Shah put Biscuit on Apoquel 16 mg" was a "put" fact, and each
    # lower dose a fact of its own, the first one current.
    ex = extract(("Tom", "Dr Shah put Biscuit on Apoquel 16 mg once a day."),
                 ("Tom", "Dr Shah called, she's lowering the Apoquel to 8 mg once a day"),
                 ("Tom", "Biscuit has been great, he can go down to 5.4 mg of Apoquel a day"))
    assert values(ex, "takes") == [("Biscuit", "Apoquel")]
    assert values(ex, "apoquel dose is") == [("Biscuit", "16 mg"), ("Biscuit", "8 mg"), ("Biscuit", "5.4 mg")]


def test_a_cats_dose_after_her_blood_result_is_hers_not_a_person_called_mochis():
    ex = extract(("Ellie", "Dr Green called, Mochi's T4 is normal now so she's going down to 2.5 mg once a day "
                           "of methimazole"))
    assert values(ex, "methimazole dose is") == [("Mochi", "2.5 mg")]
    assert "Mochi's" not in {e.name for e in ex.entities}


def test_a_stay_from_the_21st_to_the_28th_ends_after_it_begins_and_a_kennels_name_keeps_its_first_word():
    # Said on 23 October: "for the 21st to the 28th" was 21 November to 28 October, and "Happy
    # Tails Kennel" was "Tails Kennel".
    ex = extract(("Tom", "booked the dogs at Happy Tails Kennel in Millbrook for the 21st to the 28th"),
                 ("Tom", "We are away from the 28th to the 3rd."), start=FRI_23)
    texts = " ".join(f.text for f in ex.facts)
    assert "2026-11-21 (the 21st) to 2026-11-28 (the 28th)" in texts
    assert "2026-10-28 (the 28th) to 2026-11-03 (the 3rd)" in texts
    assert "Happy Tails Kennel" in {e.name for e in ex.entities}


def test_a_fee_that_goes_up_then_down_is_one_value_and_a_price_rise_from_a_month_is_this_years():
    # "Subs going up to £30 a month from October" and "subs drop to £28 from November" were "said"
    # facts (and October was last year's): "Subs are £25 a month" stayed current.
    ex = extract(("Priti", "Subs are £25 a month per kid this season."),
                 ("Priti", "Subs going up to £30 a month from October, the league fees went up."),
                 ("Claire", "Good news, we got a sponsor so subs drop to £28 from November."),
                 ("Sam", "KitZone emailed, shirts going up again to £23.50."),
                 ("Sam", "It's going up to £40 apparently."), start=datetime(2026, 9, 25, 18, tzinfo=timezone.utc))
    assert values(ex, "is") == [("subs", "£25"), ("subs", "£30"), ("subs", "£28"), ("shirts", "£23.50")]
    assert [f.event_date for f in ex.facts if f.object == "£30"] == [date(2026, 10, 1)]


def test_a_new_dog_walker_is_the_households_one_walker_and_no_one_is_our_dog():
    ex = extract(("Tom", "our dog walker is Jake Morrison, $20 per walk."),
                 ("Tom", "Priya Nair is our new dog walker, $22 a walk."),
                 ("Tom", "Priya's raising her rate to $25 from December."),
                 ("Sam", "ok Alfie is our keeper for now"))
    assert values(ex, "is") == [("dog walker", "Jake Morrison"), ("dog walker", "Priya Nair")]
    # (a position: "Alfie goes back to defence" ends it)
    assert values(ex, "position is") == [("Alfie", "goalkeeper")]
    assert values(ex, "price is") == [("Priya Nair", "$25")]  # (her rate is her price: "she charges ...")
    assert not [e for e in ex.entities if "Tom's dog" in [e.name, *e.aliases]]


def test_training_moved_to_a_weekday_from_this_week_then_corrected_is_one_slot():
    # "Training moves to Wednesday from this week" was "Sam is training moves ..."; "We're moving
    # to Tuesdays", then "sorry I meant Thursday", left Tuesdays current.
    ex = extract(("Sam", "Bad news, the floodlights are broken. Training moves to Wednesday from this week, "
                         "same time"),
                 ("Sam", "Training change again, the U13s have taken the Wednesday astro slot. "
                         "We're moving to Tuesdays"),
                 ("Sam", "sorry I meant Thursday. Thursdays 5:45pm from next week"),
                 start=datetime(2026, 9, 22, 19, tzinfo=timezone.utc))
    assert values(ex, "is")[-3:] == [("training schedule", "Wednesdays"), ("training schedule", "Tuesdays"),
                                     ("training schedule", "Thursdays")]
    assert not [f for f in ex.facts if f.predicate.startswith("is training")]


def test_what_must_go_to_every_match_is_a_standing_constraint_that_packing_for_a_trip_finds():
    ex = extract(("Priti", "Maya has asthma. Her inhaler has to be at every match, no exceptions."),
                 ("Priti", "Leo's EpiPen must come on every trip."))
    rules = {f.text: f.trigger for f in ex.foresights if f.kind == "constraint"}
    assert "Maya's inhaler has to be at every match." in rules
    assert "Leo's EpiPen must come on every trip." in rules
    assert {"packing", "trip"} <= set(rules["Maya's inhaler has to be at every match."].split(", "))
    assert {"packing", "trip"} <= set(rules["Maya has asthma."].split(", "))


def test_a_squads_line_up_is_a_position_for_each_player_and_a_move_back_is_a_new_one():
    # The line-up was one fact of Leo's: "What position does the treasurer's son play?" found none.
    ex = extract(("Sam", "Leo Barnes is our striker, Noah Kim in goal, Ethan Cole and Alfie Doyle at the back, "
                         "Maya Patel and Oscar Reid in midfield, Zara Ahmed on the wing"),
                 ("Sam", "Noah is back so Alfie goes back to defence"),
                 ("Sam", "Alfie can go in goal while he's out, he did it last season"))
    assert values(ex, "position is") == [
        ("Leo Barnes", "striker"), ("Noah Kim", "goalkeeper"), ("Ethan Cole", "defence"),
        ("Alfie Doyle", "defence"),
        ("Maya Patel", "midfield"), ("Oscar Reid", "midfield"), ("Zara Ahmed", "wing"), ("Alfie Doyle", "defence")]
    assert [f.text for f in ex.facts if f.subject == "Oscar Reid"] == ["Oscar Reid plays in midfield."]


def test_a_vet_by_title_and_a_surname_typed_in_lower_case_is_the_vet_named_before():
    # "dr green wants her on Hill's y/d" was subject "Dr" doing "green", and "Dr" an entity.
    ex = extract(("Tom", "Mochi goes to Dr. Paul Green at Oakwood Animal Hospital"),
                 ("Ellie", "dr green wants her on Hill's y/d instead of the purina"),
                 ("Ellie", "Dr green called, she is fine"))
    assert [f.subject for f in ex.facts[-2:]] == ["Dr. Paul Green", "Dr. Paul Green"]
    assert "Dr" not in {e.name for e in ex.entities}


def test_an_assistant_agreeing_x_it_is_says_back_what_it_was_told():
    # "Thursday at 5:45pm it is." was the fact "Assistant said at 5:45pm it is", dated the 15th.
    turns = [TurnRecord(id="t0", conversation_id="c", speaker="Priti", user_id="priti", role="user",
                        content="Training is Thursdays at 5:45pm from next week.", at=FRI, seq=0),
             TurnRecord(id="t1", conversation_id="c", speaker="Assistant", user_id=None, role="assistant",
                        content="Thursday at 5:45pm it is.", at=FRI + timedelta(minutes=1), seq=1)]
    ex = LocalExtractor().extract_sync(turns)
    assert ex.facts and not [f for f in ex.facts if "t1" in f.turn_ids]


def test_a_teams_fixtures_entered_refereed_and_moved_by_a_suggestion_are_plans_ahead():
    # Walk-through 64: "What's coming up in December?" found none of these (no plan was made).
    ex = extract(("Sam", "Argh. Let's just do it at the Castle Park clubhouse then. Sat 12 Dec, 3pm"),
                 ("Sam", "We've entered the Easter festival in Bournemouth, away weekend 3-5 April 2027"),
                 ("Sam", "Claire refs the home friendly against Oakfield on Sun 13 Dec"),
                 ("Sam", "Sat 12 Dec, 3pm"), start=datetime(2026, 11, 19, 10, tzinfo=timezone.utc))
    plans = [(f.text.split(",")[0].split(" on ")[0], f.valid_to.date()) for f in ex.foresights if f.kind == "plan"]
    assert plans == [("Let's just do it at the Castle Park clubhouse then", date(2026, 12, 13)),
                     ("Sam has entered the Easter festival in Bournemouth", date(2027, 4, 6)),
                     ("Claire refs the home friendly against Oakfield", date(2026, 12, 14))]


def test_a_pets_dose_said_by_we_or_after_she_is_never_the_owners_nor_the_vets():
    # Re-runs of walk-through 63: "dr shah said we can go down to 5.4 mg of Apoquel" was Tom's dose,
    # "she also put him on Apoquel 16 mg" the vet's (Dr Shah takes Apoquel).
    ex = extract(("Tom", "Dr Shah says he should lose a couple kilos. she also put him on Apoquel 16 mg once "
                         "a day"),
                 ("Tom", "biscuit's been great so dr shah said we can go down to 5.4 mg of Apoquel a day"))
    assert not [f for f in ex.facts
                if f.subject in ("Tom", "Dr Shah") and f.predicate in ("takes", "apoquel dose is")]


def test_her_dad_named_first_in_a_sentence_is_the_dad_of_the_one_named_just_before():
    # "Her dad Raj" had been nobody's dad: its owner was looked for in its own sentence only.
    ex = extract(("Sam", "Maya Patel joined the squad this week. Her dad Raj will help with lifts."),
                 ("Sam", "Leo Grant is new too. Her mum Claire is lovely."),
                 ("Sam", "Maya and Leo both came. His dad Tom drove."))
    aliases = {e.name: e.aliases for e in ex.entities}
    assert "Maya Patel's dad" in aliases["Raj"]
    assert aliases["Claire"] == [] and aliases["Tom"] == []  # "her" is not Leo's; two named before: no one's


def test_a_name_s_our_post_is_the_holder_and_he_s_been_is_has_been():
    # Walk-through 86 (a band's tour): "Sam's our drummer" was a thing "Sam's our" with a "drummer";
    # "he's been our drummer since 2022" was "Sam is been Ruth's drummer".
    ex = extract(("Ruth", "Sam's our drummer"), ("Ruth", "Dev's our tour manager, he's great"),
                 ("Ruth", "Sam says he can do tuesdays fine. he's been our drummer since 2022"))
    assert {("drummer", "Sam"), ("tour manager", "Dev")} <= set(values(ex, "is"))
    assert not [f.text for f in ex.facts if " is been " in f.text or "'s our" in f.subject]
    # (re-runs: "he has been" lost Sam, "Ruth said he's been Ruth's drummer"; then "Sam has been Ruth's
    # drummer", no post of the band's that his leaving could end)
    assert [(f.subject, f.object) for f in ex.facts if "since 2022" in f.text] == [("drummer", "Sam")]


def test_a_two_word_post_is_one_noun_and_a_promoter_named_by_the_city_is_its_holder():
    # Walk-through 86: "our tour manager lost his voice" was "Ruth's tour | manager | lost his voice";
    # (third run: "promoter" made an organisation's post broke "the Glasgow promoter is Fiona Baird")
    ex = extract(("Ruth", "our tour manager lost his voice so Ola is doing the talking"),
                 ("Ruth", "the Glasgow promoter is Fiona Baird btw, she runs the King Tut's bookings"))
    assert ("Ruth's tour manager", "lost") in {(f.subject, f.predicate) for f in ex.facts}
    assert ("Glasgow", "Fiona Baird") in values(ex, "promoter is")


def test_his_dose_changed_by_one_unnamed_is_the_pet_named_before_not_the_woman_named_first():
    # Walk-through 114: "Sophie took Otis for his check up, the vet's upped his Metacam to 2ml" was Sophie's dose
    # ("his" read as a "him" acted on, the one named last dropped as its doer); whoever has him on it, named in
    # its clause or as its "he", is still not whom the dose is for.
    ex = extract(("Tom", "also Sophie took Otis for his check up, the vet's upped his Metacam to 2ml"),
                 ("Jen", "Mum saw Dr Okafor, he put her on amlodipine 5mg."))
    assert values(ex, "metacam dose is") == [("Otis", "2 ml")]
    assert values(ex, "amlodipine dose is") == [("Jen's mum", "5 mg")]


def test_an_inhalers_puffs_upped_by_the_gp_then_split_over_the_day_are_the_childs_dose():
    # Walk-through 112: "Dr Anand has upped the brown inhaler to 2 puffs twice a day" and "They've changed the brown
    # inhaler to 2 puffs in the morning and 1 puff at night" were facts of no dose (an inhaler no medication, "changed"
    # no change of one), both current; the GP's patient is the child taken to her, not the parent telling it.
    ex = extract(("Claire", "Took Poppy to the GP this morning, Dr Anand. Her chest has been bad at night"),
                 ("Mark", "oh no is she ok?"),
                 ("Claire", "She's ok, just tired. Dr Anand has upped the brown inhaler to 2 puffs twice a day, and "
                            "wants to see her again in 6 weeks"),
                 ("Claire", "Much better. They've changed the brown inhaler to 2 puffs in the morning and 1 puff at "
                            "night"))
    assert values(ex, "inhaler dose is") == [("Poppy", "2 puffs"), ("Poppy", "2 puffs in the morning and 1 puff at night")]


def test_a_tests_reading_said_after_its_name_alone_is_its_value():
    # Walk-through 115: "INR done. It was 3.4 - no sorry, 3.8" gave no fact, "INR today. 1.9 this time" one of no
    # reading ("Gerry said INR on 2026-11-03."); "Dinner done. It was 20" is no test's.
    ex = extract(("Maggie", "INR done. It was 3.4 - no sorry, 3.8. Too high"),
                 ("Gerry", "INR today. 1.9 this time. Too low now, can't win"),
                 ("Gerry", "Dinner done. It was 20."))
    assert [(f.subject, f.object) for f in ex.facts if f.single_valued] == [("inr", "3.8"), ("inr", "1.9")]


def test_he_after_a_vet_did_something_to_an_unnamed_him_is_not_the_vet():
    # Walk-through 128: "Dr Kowalski wants to see him for a post-op check" then "And he's on Metacam for pain" had made
    # "Dr Kowalski is on Metacam" (and "Dr Kowalski takes it in a bit of cheese"); the dog was not named in the episode.
    ex = extract(("Claire", "Dr Kowalski wants to see him for a post-op check on Monday 30 November at 6pm"),
                 ("Claire", "And he's on Metacam for pain, 1.5ml once a day with food for 5 days"),
                 ("Tom", "he takes it in a bit of cheese no problem"), start=datetime(2026, 11, 20, 19, 0, tzinfo=timezone.utc))
    assert not [f for f in ex.facts if f.subject == "Dr Kowalski" and ("Metacam" in f.text or "cheese" in f.text)], ex.facts
    # she, when the one unnamed is a him, is still the vet; and he, when the vet is not whom the sentence is of
    for said in ("Dr Kowalski checked him over today. She said the wound is clean",
                 "Took him to Dr Kowalski today. He said the wound is clean"):
        assert [f.subject for f in extract(("Claire", said)).facts if "wound" in f.text] == ["Dr Kowalski"], said
