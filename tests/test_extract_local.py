"""The `local` extractor: rules only, no model. Each test is a small worked example."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.construction.local import LocalExtractor
from app.construction.local.voice import conjugate
from app.construction.sentences import split_sentences
from app.domain.models import EntityDraft, Extraction, TurnRecord

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)  # a Monday


def turn(content: str, speaker: str = "Maya", at: datetime = T0, i: int = 0, role: str = "user") -> TurnRecord:
    return TurnRecord(id=f"t{i}", conversation_id="conv", speaker=speaker, user_id=None, role=role,
                      content=content, at=at, seq=i)


def episode(*rows: tuple[str, str], start: datetime = T0) -> list[TurnRecord]:
    """Turns (speaker, text), one minute apart."""
    return [turn(text, speaker, start + timedelta(minutes=i), i) for i, (speaker, text) in enumerate(rows)]


def extract(turns: list[TurnRecord]) -> Extraction:
    return LocalExtractor().extract_sync(turns)


def facts_with(ex: Extraction, predicate: str):
    return [f for f in ex.facts if f.predicate == predicate]


def entity(ex: Extraction, name: str):
    found = [e for e in ex.entities if e.name == name]
    assert found, f"no entity {name!r} in {[e.name for e in ex.entities]}"
    return found[0]


# --------------------------------------------------------------------------------------------
# facts, speakers and dates

def test_yesterday_becomes_an_absolute_date_and_i_becomes_the_speaker():
    ex = extract([turn("I went to the support group yesterday.")])
    [f] = ex.facts
    assert f.subject == "Maya"
    assert f.predicate == "went to"
    assert f.object == "the support group"
    assert f.event_date == date(2023, 5, 7)
    assert "Maya" in f.text and "2023-05-07" in f.text
    assert f.text == "Maya went to the support group on 2023-05-07."
    assert f.turn_ids == ["t0"]
    assert f.valid_from == T0
    assert f.confidence == pytest.approx(0.9)
    assert ("Maya", "subject") in f.entities


def test_what_someone_is_getting_ready_for_lies_ahead_though_the_sentence_is_past():
    # Said on 8 May 2023: "started" read the sentence as past, and the marathon as September 2022.
    [f] = extract([turn("I just started training for the Berlin marathon in September.")]).facts
    assert "September 2023" in f.text, f.text
    [f] = extract([turn("I was training for the marathon in September.")]).facts
    assert "September 2022" in f.text, f.text  # said in the past: the one before


def test_my_sister_is_a_person_entity_named_after_the_speaker():
    ex = extract([turn("My sister visited me.")])
    sister = entity(ex, "Maya's sister")
    assert sister.type == "person"
    [f] = ex.facts
    assert f.subject == "Maya's sister"
    assert f.text == "Maya's sister visited Maya."


def test_my_boss_is_a_name_says_who_holds_the_role():
    # Every word a mention or a role: the sentence was no fact at all, and Carlos no person.
    ex = extract(episode(("Lea", "My boss is Carlos Ruiz."), ("Lea", "Carlos wants the report by Friday.")))
    assert "Lea's boss is Carlos Ruiz." in [f.text for f in ex.facts]
    carlos = entity(ex, "Carlos Ruiz")
    assert carlos.type == "person" and "Lea's boss" in carlos.aliases
    ex = extract([turn("My manager is Ana Lima.", "Lea")])
    assert [f.text for f in ex.facts] == ["Lea's manager is Ana Lima."]
    assert entity(ex, "Ana Lima").type == "person"
    ex = extract([turn("My sister is German.", "Lea")])  # a demonym, no name
    assert [e.name for e in ex.entities] == ["Lea"]


def test_my_dog_max_is_a_pet_with_an_alias():
    ex = extract([turn("My dog Max loves the beach.")])
    max_ = entity(ex, "Max")
    assert max_.type == "thing"
    assert "Maya's dog" in max_.aliases


def test_a_move_then_a_new_home_are_single_valued_lives_in_facts():
    ex = extract(episode(("Maya", "I moved to Berlin last week, the flat is tiny but lovely."),
                         ("Maya", "I live in Lisbon now.")))
    lives = facts_with(ex, "lives in")
    assert [f.object for f in lives] == ["Berlin", "Lisbon"]
    assert all(f.single_valued for f in lives)
    assert all(f.subject == "Maya" for f in lives)
    assert lives[0].event_date == date(2023, 5, 1)  # the Monday of last week


def test_a_new_job_is_a_works_at_fact_and_an_organization():
    ex = extract([turn("I got a job at Siemens!")])
    assert entity(ex, "Siemens").type == "organization"
    [f] = facts_with(ex, "works at")
    assert f.object == "Siemens" and f.single_valued and f.subject == "Maya"
    assert ("Siemens", "object") in f.entities


@pytest.mark.parametrize("text, predicate, obj", [
    ("I work for Acme Corp as a tester.", "works at", "Acme Corp"),
    ("I'm a nurse at the city hospital.", "job is", "nurse"),
    ("I work as a software engineer.", "job is", "software engineer"),
    ("I'm dating Alex.", "relationship status is", "dating Alex"),
    ("We got married last June!", "relationship status is", "married"),
    ("My favorite color is green.", "favorite color is", "green"),
    ("I'm allergic to peanuts and shellfish.", "is allergic to", "peanuts and shellfish"),
    ("I really like hiking in the mountains.", "likes", "hiking in the mountains"),
    ("I have two cats.", "has", "two cats"),
])
def test_predicates_are_normalised(text, predicate, obj):
    ex = extract([turn(text)])
    [f] = ex.facts
    assert (f.predicate, f.object) == (predicate, obj)
    single = predicate in ("works at", "job is", "relationship status is") or predicate.startswith("favorite")
    assert f.single_valued is single


@pytest.mark.parametrize("text, predicate, obj", [
    # a post held at a named organisation is where one works
    ("I'm the new head of design at Quill.", "works at", "Quill"),
    ("I've been a data analyst at Rivet Labs for two years.", "works at", "Rivet Labs"),
    ("I am a teacher at Lincoln High.", "works at", "Lincoln High"),
    ("I'm a regular at Joe's Diner.", "is", "a regular at Joe's Diner"),  # no post: no job
    ("I'm the only vegan at Acme.", "is", "the only vegan at Acme"),
    # a home of one's own is where one lives
    ("My new flat is in Ancoats.", "lives in", "Ancoats"),
    ("Our house is in Porto.", "lives in", "Porto"),
    ("My old flat was in Leeds.", "old flat was", "in Leeds"),  # past: not where one lives
    ("My place is in a mess.", "place is", "in a mess"),  # no place named
    # "after five years" is how long, not when: no date five years on
    ("We're leaving Headingley after five years.", "is leaving", "Headingley after five years"),
])
def test_jobs_and_homes_said_without_work_or_live(text, predicate, obj):
    ex = extract([turn(text)])
    assert [(f.predicate, f.object) for f in ex.facts] == [(predicate, obj)]
    assert ex.foresights == []


def test_a_firms_name_with_an_ampersand_is_one_entity():
    ex = extract([turn("I bought the table at Dean & Sons in Leeds.")])
    assert entity(ex, "Dean & Sons").type != "person"
    assert not [e for e in ex.entities if e.name in ("Dean", "Sons")]


def test_third_person_rewrite_keeps_the_rest_of_the_sentence():
    ex = extract([turn("I'm so proud of my brother, I've told him that I have his back.")])
    [f] = ex.facts
    assert f.text == "Maya is so proud of Maya's brother, Maya has told him that Maya has his back."


def test_hedged_statements_get_lower_confidence():
    ex = extract([turn("I think I might move to Denver in the fall."), turn("I love jazz music.", i=1)])
    hedged, plain = ex.facts
    assert hedged.confidence == pytest.approx(0.5)
    assert plain.confidence == pytest.approx(0.9)


def test_you_is_the_other_speaker_when_there_are_exactly_two():
    ex = extract(episode(("Sam", "How was your weekend?"),
                         ("Maya", "You were right about the museum, you have great taste.")))
    [f] = ex.facts
    assert f.subject == "Sam"
    assert f.text == "Sam was right about the museum, Sam has great taste."
    assert ("Sam", "subject") in f.entities


def test_you_stays_you_when_it_is_unclear_who_is_meant():
    ex = extract(episode(("Sam", "Hi all!"), ("Ana", "Hello!"),
                         ("Maya", "You were right about the museum, the modern art wing was stunning.")))
    [f] = ex.facts
    assert f.subject == "Maya" and f.predicate == "said"
    assert f.text == "Maya said you were right about the museum, the modern art wing was stunning."


def test_greetings_thanks_questions_and_filler_make_no_facts():
    ex = extract(episode(("Maya", "Hi Sam!"), ("Sam", "Thanks so much!"),
                         ("Maya", "How are you doing these days?"), ("Sam", "That's great!"),
                         ("Maya", "I love it.")))
    assert ex.facts == []
    assert ex.importance < 0.3


def test_at_most_twelve_facts_per_turn():
    text = " ".join(f"I visited museum number {i} in Paris." for i in range(30))
    ex = extract([turn(text)])
    assert len(ex.facts) == 12


def test_chat_that_drops_the_i_still_has_a_subject():
    ex = extract([turn("Just got back from Hawaii!"), turn("Went hiking with Jake yesterday.", i=1)])
    assert [f.text for f in ex.facts] == [
        "Maya just got back from Hawaii.", "Maya went hiking with Jake on 2023-05-07."]
    assert all(f.subject == "Maya" for f in ex.facts)


def test_negations_stay_in_the_predicate():
    ex = extract([turn("I've never been to Italy."), turn("I didn't go to the gym yesterday.", i=1)])
    assert [(f.predicate, f.object) for f in ex.facts] == [
        ("has never been to", "Italy"), ("didn't go to", "the gym")]


def test_a_later_clause_can_carry_the_current_home():
    ex = extract([turn("I used to live in Chicago but now I'm based in Austin, Texas.")])
    [lives] = facts_with(ex, "lives in")
    assert lives.object == "Austin" and lives.single_valued
    assert facts_with(ex, "used to live in")


def test_we_with_a_named_companion():
    ex = extract([turn("My friend Ana came over and we baked bread.")])
    [f] = ex.facts
    assert f.text == "Maya's friend Ana came over and Maya and Ana baked bread."


@pytest.mark.parametrize("said, told", [
    # no one "we" is with: named after "for", named again after "we", or "him"/"her" after it
    ("For Priya we're going with 125k.", "Hannah said for Priya Hannah is going with 125k."),
    ("Tom had a family thing so we moved Tom's onsite to Friday.", "Hannah moved Tom's onsite"),
    ("Tom uses a wheelchair, so make sure any room we book for him is accessible.",
     "any room Hannah books for him"),
    # ... nor one named in the clause before "while we", "if we" (walk-throughs 93, 95: "while Geoff
    # and Linda are away", "asking if Sofia and Hannah Okafor want more sessions")
    ("Linda next door has said she'll have Biscuit while we're away.", "while Hannah is away"),
    ("Daniel Reyes emailed asking if we want more sessions.", "asking if Hannah wants more sessions"),
    ("ABC had a flood at the yard so we've moved it.", "so Hannah has moved it"),
    # ... nor "you" in a saying ("mind you", "as a thank you"; third run of 95: "mind Ann")
    # but "her" of hers, and one named before "and we", still are
    ("Siobhan wants a cat, we have been at a stalemate since Christmas, and her latest argument is "
     "that a cat won't need walking.", "Hannah and Siobhan have been at a stalemate"),
])
def test_we_is_not_someone_named_as_whom_it_is_about(said, told):
    ex = extract([turn(said, speaker="Hannah")])
    assert any(told in f.text for f in ex.facts), [f.text for f in ex.facts]


def test_a_progressive_verb_puts_a_bare_month_ahead():
    ex = extract([turn("Sarah and I are getting married in August!")])
    [f] = ex.facts
    assert f.event_date == date(2023, 8, 1)
    [p] = ex.foresights
    assert p.kind == "plan" and p.valid_to == datetime(2023, 9, 1, tzinfo=timezone.utc)
    assert entity(ex, "Sarah").type == "person"


def test_names_with_a_possessive_s():
    ex = extract([turn("I started a new job as a nurse at St. Mary's Hospital."),
                  turn("Dinner at Luigi's on Friday with Tom.", i=1)])
    assert entity(ex, "St. Mary's Hospital").type == "organization"
    assert facts_with(ex, "works at")[0].object == "St. Mary's Hospital"
    assert entity(ex, "Luigi's").type == "place"
    assert entity(ex, "Tom").type == "person"


# --------------------------------------------------------------------------------------------
# entities

def test_a_short_name_becomes_an_alias_of_the_full_name():
    ex = extract(episode(("Maya", "My friend Melanie Hart visited me yesterday."),
                         ("Sam", "Does Mel know already?"),
                         ("Maya", "Mel helped me pack, she is the best.")))
    persons = [e for e in ex.entities if e.name in ("Melanie Hart", "Mel")]
    assert len(persons) == 1
    mel = persons[0]
    assert mel.name == "Melanie Hart" and mel.type == "person" and "Mel" in mel.aliases
    helped = [f for f in ex.facts if f.predicate == "helped"]
    assert helped and helped[0].subject == "Melanie Hart"


@pytest.mark.parametrize("text, name, etype", [
    ("I'm flying to Tokyo next month.", "Tokyo", "place"),
    ("We had a picnic in Golden Gate Park.", "Golden Gate Park", "place"),
    ("She studies at Stanford University.", "Stanford University", "organization"),
    ("I had a checkup with Dr. Patel.", "Dr. Patel", "person"),
    ("Jenny said the concert was amazing.", "Jenny", "person"),
    ("I'm working on Project Phoenix this month.", "Project Phoenix", "project"),
    ("I started working at Brightwave last year.", "Brightwave", "organization"),
    ("I grew up in Portugal.", "Portugal", "place"),
])
def test_entity_types_come_from_cues(text, name, etype):
    ex = extract([turn(text)])
    assert entity(ex, name).type == etype


def test_sentence_initial_words_and_nationalities_are_not_entities():
    ex = extract([turn("Honestly, Thai food is the best. Yesterday was fun. Cooking relaxes me.")])
    assert [e.name for e in ex.entities] == ["Maya"]


def test_the_same_entity_mentioned_twice_is_one_entity():
    ex = extract(episode(("Maya", "I love Lisbon."), ("Sam", "Lisbon is beautiful in spring.")))
    assert [e.name for e in ex.entities].count("Lisbon") == 1


# --------------------------------------------------------------------------------------------
# foresight

def test_an_allergy_is_a_standing_constraint_triggered_by_food_situations():
    ex = extract([turn("I'm allergic to peanuts.")])
    [c] = [fs for fs in ex.foresights if fs.kind == "constraint"]
    assert c.text == "Maya is allergic to peanuts."
    assert c.valid_to is None and c.valid_from == T0
    assert "restaurant" in c.trigger and "dinner" in c.trigger and "peanuts" in c.trigger
    assert c.turn_ids == ["t0"]
    assert ex.importance >= 0.5


@pytest.mark.parametrize("text, expected, situation", [
    ("I'm vegan, so no cheese for me.", "Maya is vegan.", "restaurant"),
    ("I've had a severe shellfish allergy since I was a kid.", "Maya has a shellfish allergy.", "restaurant"),
    ("I don't eat pork.", "Maya doesn't eat pork.", "recipe"),
    ("I'm terrified of flying.", "Maya is afraid of flying.", "flights"),
    ("I was diagnosed with diabetes in 2020.", "Maya has diabetes.", "desserts"),
    ("My son has asthma.", "Maya's son has asthma.", "exercise"),
    ("I never work on Sundays.", "Maya never works on Sundays.", "schedule"),
    ("Eating out is hard with me being vegan.", "Maya is vegan.", "restaurant"),
    ("As a vegetarian, I skip the burgers.", "Maya is vegetarian.", "restaurant"),
    # Said in passing, in the forms people use (session 28: read from conversations written
    # for fitting, where a later question needed them and none was found).
    ("I haven't had a drink since New Year's Eve.", "Maya does not drink alcohol.", "alcohol"),
    ("Coming up on 2 yrs off the booze now.", "Maya does not drink alcohol.", "bar"),
    ("I don't drink, so lime sodas for me.", "Maya does not drink alcohol.", "wine"),
    ("I get horribly seasick, even on a flat calm day.", "Maya gets seasick.", "boat"),
    ("I've been veggie since New Year.", "Maya is vegetarian.", "restaurant"),
    ("I don't drive, so it's trains for me.", "Maya does not drive.", "car"),
    ("I never learned to drive.", "Maya does not drive.", "transport"),
    # A doctor's order (session 36: a caregiver's "must not drive for three months" was a fact).
    ("The ER doctor said I must not drive.", "Maya must not drive.", "car"),
    ("I'm not allowed to drive until the scan.", "Maya must not drive.", "car"),
    ("No driving for now, the surgeon says.", "Maya must not drive.", "car"),
    ("I'm not supposed to pick up anything heavier than ten kilos.", "Maya can't lift heavy things.",
     "furniture"),
    ("It turns out I've got a herniated disc.", "Maya has a herniated disc.", "lifting"),
    ("Nana was diagnosed with heart failure in December.", "Maya's nana has heart failure.", "doctor"),
    ("I was diagnosed with diabetes in 2020, and it's fine.", "Maya has diabetes.", "desserts"),
    ("My physio told me to avoid long steep descents.", "Maya has been told to avoid long steep descents.",
     "hiking"),
    # Session 29, from the next written training sets' misses, in other words than theirs.
    ("I don't fly any more, so it's the Eurostar or nothing.", "Maya does not fly.", "flights"),
    ("The GP put me on warfarin after the clot.", "Maya takes a blood thinner: no ibuprofen or aspirin.",
     "pharmacy"),
    ("Remember, no ibuprofen for me, only paracetamol.", "Maya must not take ibuprofen.",
     "ibuprofen"),
    ("The cardiologist wants me off the salt completely.", "Maya is on a low-salt diet.", "restaurant"),
    ("My eyes are going, so no driving after dark until the op.", "Maya must not drive after dark.", "car"),
    ("I'm type 1, so I always carry jelly babies.", "Maya has diabetes.", "snacks"),
    ("You know what I'm like with heights, I'll wait at the bottom.", "Maya is afraid of heights.", "climbing"),
    ("I'm not good with boats at all.", "Maya is afraid of boats.", "ferry"),
    ("Mum had her hip replaced in May, so no long walks yet.", "Maya's mum has had a hip replacement.", "walking"),
    # a sore part of the body (a coach's leg workout did not bring it)
    ("My right knee hurts when I go down stairs.",
     "Maya has a sore right knee: it hurts when Maya goes down stairs.", "workout"),
    ("My back is killing me after the deadlifts.", "Maya has a sore back: it hurts after the deadlifts.", "gym"),
])
def test_constraints(text, expected, situation):
    ex = extract([turn(text)])
    found = [fs for fs in ex.foresights if fs.kind == "constraint"]
    assert [fs.text for fs in found] == [expected]
    assert found[0].valid_to is None
    assert situation in found[0].trigger


def test_a_rule_said_as_a_reminder_to_the_listener_is_the_listeners():
    ex = extract(episode(("Walter", "The eye clinic went fine."),
                         ("Helen", "Good. And remember, still no driving once it's dark, not till Mr Dalton "
                                   "says so.")))
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ["Walter must not drive after dark."]


def test_a_rule_someone_says_is_the_speakers_to_keep():
    # "He says no driving after dark": the optician who said it is not who must keep it.
    ex = extract([turn("Mr Dalton at the opticians had a look. He says no driving after dark for now.")])
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ["Maya must not drive after dark."]


def test_he_is_not_a_relative_named_as_a_woman():
    # "He's coeliac" after "my mum" was "Maya's mum has coeliac disease"; no one is better.
    ex = extract(episode(("Maya", "My mum says hi."), ("Maya", "He's coeliac, it turns out.")))
    assert not [fs for fs in ex.foresights if "mum" in fs.text]
    ex = extract(episode(("Maya", "My brother called."), ("Maya", "He's coeliac, it turns out.")))
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ["Maya's brother has coeliac disease."]


def test_words_shouted_in_capitals_are_not_names():
    ex = extract([turn("The nurse says the LEFT ear is the bad one, so I wear my DRESSING GOWN and TURN IT UP. "
                       "TOBIAS came round, and later Tobias said LGBT rights matter to him.")])
    names = {e.name for e in ex.entities}
    assert not names & {"LEFT", "DRESSING GOWN"}
    assert "Tobias" in names and "LGBT" in names
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ["Maya is hard of hearing."]


def test_a_name_said_to_be_a_relative_is_that_relative():
    # "Priya is my sister." was no name at all (a sentence's first word needs evidence), the
    # relative "Maya's sister" had no name, and the fact read "Maya said priya is ...".
    ex = extract([turn("Priya is my sister.")])
    assert ("Priya", ["Maya's sister"]) in [(e.name, e.aliases) for e in ex.entities]
    assert [f.text for f in ex.facts] == ["Priya is Maya's sister."]
    assert "Tobias" in {e.name for e in extract([turn("I think Tobias is my favourite neighbour.")]).entities}


@pytest.mark.parametrize("text, subject, predicate, obj", [
    ("Sam's brother Tom lives in Leeds.", "Tom", "lives in", "Leeds"),
    ("Sam's sister, Jo, works at Acme.", "Jo", "works at", "Acme"),
    ("Priya's dad Venkat is quieter.", "Venkat", "is", "quieter"),
])
def test_someones_relative_named_after_the_kin_word_is_the_subject(text, subject, predicate, obj):
    # The name was read as the predicate ("Sam's brother" | "tom" | "lives in Leeds").
    [f] = extract([turn(text)]).facts
    assert (f.subject, f.predicate, f.object) == (subject, predicate, obj)
    assert f.entities[0] == (subject, "subject") and (text.split("'")[0], "mentioned") in f.entities


@pytest.mark.parametrize("text, fact", [
    # Where someone lives, beside whom (session 36: "lives with Priya in Edison" was no home).
    ("My father Raj lives with me in Edison.", ("Raj", "lives in", "Edison")),
    ("I live with my partner Tom in Leeds.", ("Maya", "lives in", "Leeds")),
    ("Dad is settled in at Sunrise Gardens now.", ("Maya's dad", "lives in", "Sunrise Gardens")),
    # A later clause of "he" or "she" after someone named: theirs.
    ("My father Raj is 78 and he lives with me in Edison.", ("Raj", "lives in", "Edison")),
    ("I met Sofia today and she works at Google.", ("Sofia", "works at", "Google")),
])
def test_a_home_said_beside_whom_and_in_a_clause_of_he_or_she(text, fact):
    assert fact in {(f.subject, f.predicate, f.object) for f in extract([turn(text)]).facts}


@pytest.mark.parametrize("text, subject, predicate", [
    ("Rosie's leaving Leeds.", "Rosie", "is leaving"),
    ("Ellie's coming for the first week.", "Ellie", "is coming for"),
    ("Tessa's editor Priya negotiated it.", "Priya", "negotiated"),
])
def test_a_names_s_before_a_doing_is_is_not_a_possession(text, subject, predicate):
    # "Rosie's leaving" was Rosie's thing "leaving" doing "leeds", or only "Maya said ...".
    [f] = extract([turn(text)]).facts
    assert (f.subject, f.predicate) == (subject, predicate)


@pytest.mark.parametrize("text, subject, predicate, obj", [
    ("The Hobbit is one of my favorites too.", "Hobbit", "is", "one of Maya's favorites too"),
    ("The Lego has already been claimed by Pim.", "Lego", "has been claimed by", "Pim"),
])
def test_a_name_after_the_is_read_from_where_it_begins(text, subject, predicate, obj):
    # The rest of the sentence was cut four letters into the name: "Hobbit" | "bbit" | "is one ...".
    [f] = extract([turn(text)]).facts
    assert (f.subject, f.predicate, f.object) == (subject, predicate, obj)


@pytest.mark.parametrize("text, subject, predicate, obj", [
    ("Mia plays bass and Kai does vocals.", "Mia", "plays", "bass"),
    ("Kai sings and Theo plays drums.", "Kai", "sings", ""),
])
def test_an_object_ends_where_another_named_persons_clause_begins(text, subject, predicate, obj):
    # The other's clause was the object: "Mia" | "plays" | "bass and Kai does vocals".
    [f] = extract([turn(text)]).facts
    assert (f.subject, f.predicate, f.object) == (subject, predicate, obj)


def test_a_names_s_before_a_thing_stays_a_possession():
    assert all(not f.predicate.startswith("is ") for f in extract([turn("Sam's wedding was lovely.")]).facts)
    assert all(f.subject != "Sam" for f in extract([turn("Sam's back hurts again.")]).facts)


def test_a_relatives_verb_is_not_their_name_in_lower_case():
    ex = extract([turn("ok next. my mum turns 60 next month and she lives in whitby now")])
    assert "Turns" not in {e.name for e in ex.entities}


def test_a_trip_next_month_is_a_plan_until_the_end_of_that_month():
    ex = extract([turn("I'm flying to Tokyo next month.")])
    [p] = ex.foresights
    assert p.kind == "plan"
    assert p.valid_from == T0
    assert p.valid_to == datetime(2023, 7, 1, tzinfo=timezone.utc)
    assert p.valid_to.tzinfo is not None
    assert "travel" in p.trigger and "Tokyo" in p.trigger
    assert p.text == "Maya is flying to Tokyo in June 2023."
    assert entity(ex, "Tokyo").type == "place"


def test_an_exam_on_friday_is_a_deadline():
    ex = extract([turn("My exam is on Friday.")])
    [d] = ex.foresights
    assert d.kind == "deadline"
    assert d.valid_to == datetime(2023, 5, 13, tzinfo=timezone.utc)  # Friday 12 May, + 1 day
    assert "schedule" in d.trigger and "availability" in d.trigger
    assert "2023-05-12" in d.text


def test_a_plan_without_a_date_holds_for_thirty_days():
    ex = extract([turn("I'm planning to learn Spanish.")])
    [p] = ex.foresights
    assert p.kind == "plan"
    assert p.valid_to == T0 + timedelta(days=30)
    assert p.text == "Maya is planning to learn Spanish."


def test_a_contracted_will_with_a_date_is_a_plan():
    ex = extract([turn("Thanks for the recipe, I'll try it tonight!")])
    [p] = ex.foresights
    assert p.text == "Maya will try it on 2023-05-08."
    assert p.valid_to == datetime(2023, 5, 9, tzinfo=timezone.utc)
    assert "recipe" in p.trigger


def test_someone_elses_constraint_is_not_the_speakers():
    ex = extract([turn("She said she is allergic to nuts.")])
    assert ex.foresights == []
    ex = extract([turn("My mom is allergic to cats.")])
    [c] = ex.foresights
    assert c.text == "Maya's mom is allergic to cats." and "pets" in c.trigger


def test_a_constraint_said_of_a_name_first_seen_at_a_sentences_start_is_never_the_speakers():
    # "Melanie" opens the sentence and is met nowhere else: no rule reads her as a person, and
    # the constraint went to the speaker ("Sam can't eat gluten.", "Maya is vegan."). "Mel is
    # vegan" is said only of a person, and Melanie is a common given name: hers (Mel is Melanie).
    ex = extract(episode(("Sam", "Melanie can't eat gluten."), ("Maya", "Mel is vegan."),
                         ("Maya", "Also, I'm vegan."), ("Sam", "Honestly? Can't eat gluten at all.")))
    assert sorted(fs.text for fs in ex.foresights if fs.kind == "constraint") == [
        "Maya is vegan.", "Melanie can't eat gluten.", "Melanie is vegan.", "Sam can't eat gluten at all."]


def test_a_constraint_belongs_to_the_name_just_before_it():
    # Before: "Pim" (met with no cue of a person) was no one, and the allergy went to the speaker.
    ex = extract([turn("Sanne and Pim had friends round. One mum brought cashew cupcakes - Pim is "
                       "allergic to tree nuts, so I whisked them away.")])
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ["Pim is allergic to tree nuts."]


def test_a_diet_said_alone_in_a_request_is_the_speakers():
    ex = extract([turn("dinner tonight, 20 min max. vegetarian. have chickpeas, spinach, feta")])
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ["Maya is vegetarian."]
    # and the fact of it reads as the constraint does (it was "Maya said vegetarian.")
    assert "Maya is vegetarian." in [f.text for f in ex.facts]
    assert not [f for f in ex.facts if "said vegetarian" in f.text.lower()]
    # Not a diet of someone: a word in a list or a question.
    assert not [fs for fs in extract([turn("Is the vegetarian one any good?")]).foresights if fs.kind == "constraint"]


def test_failing_hearing_is_a_constraint_on_calling():
    ex = extract([turn("One thing you should know: Nana's hearing has gone right downhill.")])
    [c] = [fs for fs in ex.foresights if fs.kind == "constraint"]
    assert c.text == "Maya's nana is hard of hearing." and "phone calls" in c.trigger


def test_seeing_a_physio_is_no_relationship():
    ex = extract([turn("I'm seeing a physio now, at a clinic in Withington.")])
    assert facts_with(ex, "relationship status is") == []
    ex = extract([turn("I'm seeing someone new, his name is Leo.")])
    assert facts_with(ex, "relationship status is")


def test_a_name_with_s_before_an_adverb_or_a_participle_has_done_something():
    ex = extract([turn("Oh, and Hannah's finally converted me to oat milk.")])
    [f] = ex.facts
    assert (f.subject, f.predicate, f.object) == ("Hannah", "has converted", "Maya to oat milk")
    [f] = extract([turn("Sam's been promoted to head of sales.")]).facts
    assert (f.subject, f.predicate) == ("Sam", "has been promoted to")
    [f] = extract([turn("Sam's dog is called Rex.")]).facts
    assert f.subject == "Sam's dog"


def test_small_talk_with_will_is_not_a_plan():
    ex = extract([turn("It will be fun. I'll let you know.")])
    assert ex.foresights == []


def _asked(*rows: tuple[str, str, str]) -> Extraction:
    """Turns (speaker, role, text), one minute apart."""
    return extract([turn(text, who, T0 + timedelta(minutes=i), i, role=role)
                    for i, (who, role, text) in enumerate(rows)])


def test_an_allergy_said_as_the_answer_to_a_question_is_a_constraint():
    # "Yes, tree nuts." names no allergy: it was the fact "Ana said tree nuts." and no constraint.
    ex = _asked(("assistant", "assistant", "Any allergies I should know about?"),
                ("Ana", "user", "Yes, tree nuts. My partner Jonas eats everything though."))
    [c] = ex.foresights
    assert c.text == "Ana is allergic to tree nuts."
    assert c.kind == "constraint" and c.turn_ids == ["t1"] and c.valid_from == T0 + timedelta(minutes=1)
    assert "restaurant" in c.trigger and "nuts" in c.trigger
    assert "Ana is allergic to tree nuts." in [f.text for f in ex.facts]
    assert not [f for f in ex.facts if "said tree nuts" in f.text]
    # a list, a softener after it; whom: the one the question names, else who answers
    ex = _asked(("Sam", "user", "Does Jonas have any food allergies?"),
                ("Maya", "user", "Peanuts, eggs, and sesame, sadly."))
    assert [c.text for c in ex.foresights] == ["Jonas is allergic to peanuts, eggs and sesame."]
    ex = _asked(("Sam", "user", "Are you allergic to anything?"), ("Maya", "user", "Just cats."))
    assert [c.text for c in ex.foresights] == ["Maya is allergic to cats."]
    ex = _asked(("Sam", "user", "Any allergies?"), ("Maya", "user", "Brazil nuts only."))
    assert [c.text for c in ex.foresights] == ["Maya is allergic to Brazil nuts."]


@pytest.mark.parametrize("rows", [
    [("Sam", "No, none.")],  # no allergy
    [("Sam", "Not that I know of.")],
    [("Sam", "Let me check."), ("Maya", "ok"), ("Sam", "Peanuts.")],  # not the next turn
    [("Maya", "Peanuts.")],  # the asker's own next turn
    [("Sam", "Peanuts and a big salad, and then we can watch a film together tonight.")],  # more than an answer
])
def test_what_does_not_answer_an_allergy_question_makes_no_constraint(rows):
    ex = _asked(("Maya", "user", "Any allergies?"), *((who, "user", text) for who, text in rows))
    assert ex.foresights == []
    ex = _asked(("Maya", "user", "What do you want for dinner?"), ("Sam", "user", "Peanuts."))
    assert ex.foresights == []  # not asked about allergies


def test_a_rule_about_race_gels_and_caffeine_surfaces_for_a_race_and_sleep():
    # Walk-through 58: "Pack my bag for the marathon" did not surface it.
    ex = _asked(("Aoife", "user", "Please never give me gels with caffeine after 4pm, they wreck my sleep."),
                ("assistant", "assistant", "Noted."))
    [c] = ex.foresights
    assert {"marathon", "race", "sleep"} <= set(c.trigger.split(", "))


@pytest.mark.parametrize("said, expected, word", [
    ("Always book aisle seats for me.", "Lea asked to always book aisle seats for Lea.", "seats"),
    ("Never schedule meetings on Fridays.", "Lea asked never to schedule meetings on Fridays.", "meetings"),
    ("Please don't call before 9am.", "Lea asked not to call before 9am.", "call"),
    # (walk-through 58: "give me" was no errand, and no constraint came of it)
    ("Please never give me gels with caffeine after 4pm, they wreck my sleep.",
     "Lea asked never to give Lea gels with caffeine after 4pm, they wreck Lea's sleep.", "gels"),
])
def test_an_instruction_to_an_assistant_is_a_standing_constraint(said, expected, word):
    ex = _asked(("Lea", "user", said), ("assistant", "assistant", "Noted, I'll remember that."))
    [c] = ex.foresights
    assert (c.text, c.kind, c.valid_to) == (expected, "constraint", None)
    assert word in c.trigger.split(", ") and "lea" not in c.trigger.lower()


def test_an_instruction_about_her_or_him_is_about_the_person_named_before():
    ex = _asked(("Sam", "user", "Laura Chen is the CFO at Acme Logistics."), ("assistant", "assistant", "Got it."),
                ("Sam", "user", "Email only with her, never call her. And never offer Globex discounts above 10%."),
                ("assistant", "assistant", "Noted."))
    assert sorted(c.text for c in ex.foresights if c.kind == "constraint") == [
        "Laura Chen prefers to be contacted by email only.", "Sam asked never to call Laura Chen.",
        "Sam asked never to offer Globex discounts above 10%."]



def test_a_wish_about_being_reached_reported_is_that_persons_constraint():
    ex = _asked(("Dana", "user", "Important: Marta said never call her. Email only."),
                ("assistant", "assistant", "Noted."),
                ("Dana", "user", "Jonas says don't phone him either."), ("assistant", "assistant", "Noted."))
    assert sorted(c.text for c in ex.foresights if c.kind == "constraint") == sorted([
        "Marta prefers to be contacted by email only.", "Jonas asked not to be phoned.", "Marta asked not to be called."])


@pytest.mark.parametrize("rows, expected", [
    # how someone is to be reached: the person named, the one "her" is, or the speaker's own wish
    ([("Owen", "Mrs Patel in Flat 1 is hard of hearing, text don't call.")],
     ["Mrs Patel prefers to be contacted by text, not by phone.", "Mrs Patel is hard of hearing."]),
    ([("Owen", "No phone calls please, email only.")], ["Owen prefers to be contacted by email only, not by phone."]),
    ([("Owen", "Jess Byrne moved in. She prefers WhatsApp only.")], ["Jess Byrne prefers to be contacted on WhatsApp only."]),
    # the way asked for from now on
    ([("Ben Okafor", "Next time please call me instead, my number is +44 7700 900123.")],
     ["Ben Okafor prefers to be contacted by phone."]),
    ([("Ben", "From now on just text me.")], ["Ben prefers to be contacted by text."]),
    ([("Ben", "Can you call me back?")], []),
    ([("Ana Lima", "Perfeito. And please write to me in Portuguese when you can, my English is so-so.")],
     ["Ana Lima prefers to be written to in Portuguese."]),
    ([("Ana Lima", "Please write to me at my work address.")], []),
    # an organisation's way, said by whom deals with it
    ([("Lena", "Brightwave asked that all communication goes through their Slack workspace, no email please.")],
     ["Brightwave prefers to be contacted on Slack only, not by email."]),
    ([("Lena", "No emails yet from Halden.")], []),
    # a standing rule said as "no <things> <where or when>", told with its reason
    ([("Owen", "The Flat 4 tenant works nights, no visits before noon.")],
     ["Owen set a rule: The Flat 4 tenant works nights, no visits before noon."]),
    ([("Owen", "No pets at Maple Court per the head lease.")],
     ["Owen set a rule: No pets at Maple Court per the head lease."]),
    ([("Owen", "Also, no pets are allowed anywhere at Maple Court, per the head lease.")],
     ["Owen set a rule: No pets are allowed anywhere at Maple Court, per the head lease."]),
    ([("Owen", "Mrs Patel in Flat 1 is hard of hearing, so always text her, don't call her.")],
     ["Mrs Patel prefers to be contacted by text, not by phone.", "Mrs Patel is hard of hearing."]),
    ([("Owen", "Never give out the owner's phone number.")], ["Owen asked never to give out the owner's phone number."]),
    # ("Mr Okoro" is Emeka Okoro, the one Okoro named: walk-through 48's Mr Okafor was two people)
    ([("Sadia", "Emeka Okoro rents Unit 2B. Mr Okoro prefers WhatsApp, he never picks up calls.")],
     ["Emeka Okoro prefers to be contacted on WhatsApp."]),
    ([("Dana", "So Marta Silva is Harbor's main contact. She prefers email, don't call her.")],
     ["Dana asked not to call Marta Silva.", "Marta Silva prefers to be contacted by email, not by phone."]),
    ([("Sadia", "Smoking is banned inside 41 Mill Street.")],
     ["Sadia set a rule: Smoking is banned inside 41 Mill Street."]),
    ([("Sadia", "Dogs are fine at Harbour View but no cats.")],
     ["Sadia set a rule: Dogs are fine at Harbour View but no cats."]),
    # when someone can only do something, and how they get about
    ([("Hannah", "Priya can only interview after 4pm UK time.")], ["Priya can only interview after 4pm UK time."]),
    ([("Hannah", "Sam Reid is only available on Tuesdays.")], ["Sam Reid is only available on Tuesdays."]),
    ([("Hannah", "Priya Sharma applied for the backend role."),
      ("Hannah", "Priya wants 120k. Also she can only interview after 4pm UK time, so never schedule her before then.")],
     ["Priya Sharma can only interview after 4pm UK time."]),
    ([("Hannah", "Tom uses a wheelchair, make sure the onsite room is accessible.")], ["Tom uses a wheelchair."]),
    # no rules
    ([("Owen", "No worries at all, no changes on my side.")], []),
    ([("Owen", "No calls yet from the agency. We had no visitors at the weekend.")], []),
    ([("Owen", "No problem at the moment, thanks.")], []),
])
def test_how_to_reach_someone_and_standing_rules_are_constraints(rows, expected):
    ex = _asked(*((who, "user", text) for who, text in rows), ("assistant", "assistant", "Noted."))
    assert sorted(c.text for c in ex.foresights if c.kind == "constraint") == sorted(expected)


def test_an_assistant_saying_again_what_the_user_said_makes_no_fact_of_its_own():
    ex = _asked(("Sam", "user", "We booked the Globex demo with Laura Chen."),
                ("assistant", "assistant", "Got it, the Globex demo with Laura Chen is booked."),
                ("Sam", "user", "What should I bring to the Globex demo?"),
                ("assistant", "assistant", "Bring the Globex case study and the pricing sheet from Diane."))
    said = [f.text for f in ex.facts if f.text.lower().startswith("assistant")]
    # Only what the assistant said of its own.
    assert len(said) == 1 and "Diane" in said[0], [f.text for f in ex.facts]
    # With a day: the same day the user named, said again, is no fact of its own ("It's now the
    # 21st instead" after "The Globex demo moved" is the demo's day, the user's: session 51); a
    # day it worked out is ("Laura will send the new day" ... "the demo is on May 21").
    ex = _asked(("Dana", "user", "QBR with Brightwave is scheduled for next Thursday at 3pm CET."),
                ("assistant", "assistant", "QBR with Brightwave on Thursday May 18 at 3pm CET, noted."),
                ("Sam", "user", "The Globex demo moved. It's now the 21st instead."),
                ("assistant", "assistant", "Updated: the Globex demo is on May 21."),
                ("Sam", "user", "The Initech review moved too, Laura will send the new day."),
                ("assistant", "assistant", "Updated: the Initech review is on May 24."))
    by_turn = {t: [f.text for f in ex.facts if f.turn_ids == [t]] for t in ("t1", "t2", "t3", "t5")}
    assert by_turn["t1"] == [] and by_turn["t3"] == [], by_turn
    assert any("05-21" in said for said in by_turn["t2"]) and any("05-24" in said for said in by_turn["t5"]), by_turn
    # With a number: the user's own, said again, is no fact (under a predicate of its own the
    # echo stayed current once the amount changed); a sum it worked out is one.
    ex = _asked(("Jordan", "user", "The deal amount for Northwind is now $150k, they added 20 seats."),
                ("assistant", "assistant", "Updated: Northwind deal at $150k."),
                ("Jordan", "user", "Laura Chen is the CFO and she signs off on anything above $100k."),
                ("assistant", "assistant", "Noted: Laura Chen is the CFO and signs off above $100k."),
                ("Jordan", "user", "Seats are $40 each for the 20 new ones."),
                ("assistant", "assistant", "The Northwind invoice will go up by $800 a month."))
    by_turn = {t: [f.text for f in ex.facts if f.turn_ids == [t]] for t in ("t1", "t3", "t5")}
    assert by_turn["t1"] == [] and by_turn["t3"] == [] and "$800" in " ".join(by_turn["t5"]), by_turn
    # A summary of what several said since the assistant last spoke is theirs too (walk-through
    # 78: "64 guests and a final RSVP deadline of 21 October." after "wow ok" had become a fact,
    # and stayed current once the count changed); what it says of its own is kept.
    ex = _asked(("Hannah", "user", "fine. 21 October, final"),
                ("Omar", "user", "guest count right now is 64 confirmed"),
                ("Hannah", "user", "wow ok"),
                ("assistant", "assistant", "64 guests and a final RSVP deadline of 21 October."),
                ("Omar", "user", "ok"),
                ("assistant", "assistant", "The caterer needs the final guest count by 14 November."))
    by_turn = {t: [f.text for f in ex.facts if f.turn_ids == [t]] for t in ("t3", "t5")}
    assert by_turn["t3"] == [] and by_turn["t5"], by_turn


def test_a_standing_preference_told_to_an_assistant_is_a_constraint():
    ex = _asked(("Lea", "user", "I prefer window seats on long flights."), ("assistant", "assistant", "Noted."))
    [c] = ex.foresights
    assert c.text == "Lea prefers window seats on long flights." and c.kind == "constraint"
    assert {"flights", "seats"} <= set(c.trigger.split(", "))
    # for once, or between people: no rule
    assert _asked(("Lea", "user", "I'd prefer a hotel near the station this time."),
                  ("assistant", "assistant", "Sure.")).foresights == []
    assert _asked(("Lea", "user", "I prefer it this way for now."), ("assistant", "assistant", "OK.")).foresights == []
    assert _asked(("Lea", "user", "I prefer window seats on long flights."), ("Sam", "user", "Me too.")).foresights == []


def test_instructions_after_a_colon_and_one_after_another_are_each_a_constraint():
    ex = _asked(("Lea", "user", "Two things: always book aisle seats for me, and never schedule anything "
                                "before 9am."), ("assistant", "assistant", "Noted."))
    assert [c.text for c in ex.foresights] == ["Lea asked to always book aisle seats for Lea.",
                                               "Lea asked never to schedule anything before 9am."]


@pytest.mark.parametrize("said, words", [
    ("Forget what I said about aisle seats, window is fine.", ["aisle", "seats"]),
    ("No need to book aisle seats any more.", ["aisle", "seats"]),  # what it was about, not "book"
    ("You can schedule meetings on Fridays again.", ["meetings", "fridays"]),
    ("Forget it.", None),  # what?
])
def test_an_instruction_taken_back_is_the_end_of_a_constraint_of_the_speaker(said, words):
    ends = extract([turn(said, "Lea")]).foresight_ends
    assert [(e.who, e.words, e.kind) for e in ends] == ([("Lea", words, "constraint")] if words else [])


@pytest.mark.parametrize("rows", [
    [("Lea", "user", "Don't worry about it."), ("assistant", "assistant", "Thanks!")],  # no errand
    [("Lea", "user", "Never give up!"), ("assistant", "assistant", "I won't.")],
    [("Lea", "user", "Don't tell Josh."), ("Sam", "user", "My lips are sealed.")],  # between people
])
def test_what_is_no_instruction_to_an_assistant_makes_no_constraint(rows):
    assert _asked(*rows).foresights == []


@pytest.mark.parametrize("said, expected, until", [
    ("Remind me to call the dentist tomorrow.",
     "Lea asked to be reminded to call the dentist on 2023-05-09.", date(2023, 5, 10)),
    # asked as a question, which the plan rules skip
    ("Can you remind me that my mom's birthday is on June 3rd?",
     "Lea asked to be reminded that Lea's mom's birthday is on 2023-06-03 (June 3rd).", date(2023, 6, 4)),
    ("Please remind me about the parking permit renewal.",  # no day: the plans' default window
     "Lea asked to be reminded about the parking permit renewal.", date(2023, 6, 7)),
])
def test_a_reminder_asked_for_is_a_plan_until_its_day(said, expected, until):
    ex = _asked(("Lea", "user", said), ("assistant", "assistant", "Will do!"))
    [p] = ex.foresights  # one: the renewal is no deadline of its own beside it
    assert (p.text, p.kind, p.valid_to.date()) == (expected, "plan", until)
    assert [f.text for f in ex.facts if f.subject == "Lea"] in ([], [expected])  # not "Lea said remind Lea"
    assert _asked(("Lea", "user", "Remind me about it."), ("assistant", "assistant", "Sure.")).foresights == []


def test_a_reminder_lasts_until_the_day_to_be_reminded_on_not_a_later_day_it_names():
    ex = _asked(("Lea", "user", "Remind me to renew my passport next month, it expires in August."),
                ("assistant", "assistant", "Will do."))
    [p] = ex.foresights
    assert p.valid_to.date() == date(2023, 7, 1) and "August 2023" in p.text


def test_a_reminder_for_each_time_stands():
    ex = _asked(("Lea", "user", "And remind me to stretch after sessions, I always skip it."),
                ("assistant", "assistant", "Will do."))
    [p] = ex.foresights
    assert p.kind == "plan" and p.valid_to is None


def test_assistant_turns_make_no_foresight():
    ex = extract([turn("I will remind you about the dentist tomorrow.", speaker="assistant", role="assistant")])
    assert ex.foresights == []


# --------------------------------------------------------------------------------------------
# the cell: title, summary, keywords, importance

def test_title_summary_and_keywords_describe_the_cell():
    ex = extract(episode(
        ("Maya", "Hi Sam! I moved to Berlin last week, the flat is tiny but lovely."),
        ("Sam", "That's exciting! How is the new job at Siemens going?"),
        ("Maya", "I love it. My friend Melanie Hart visited me yesterday and we walked along the Spree."),
        ("Maya", "By the way, I'm allergic to peanuts, so no satay for me at the office party."),
    ))
    assert 0 < len(ex.title) <= 80
    assert "Berlin" in ex.title
    assert 0 < len(ex.summary) <= 600
    assert "Maya" in ex.summary and "2023-05-01" in ex.summary
    assert "I " not in ex.summary and "yesterday (" not in ex.summary
    assert len(ex.keywords) <= 10
    assert "berlin" in ex.keywords and "siemens" in ex.keywords
    assert all(k == k.lower() for k in ex.keywords)
    assert 0.7 <= ex.importance <= 1.0


def test_importance_rises_with_life_events():
    small = extract([turn("The weather is nice and sunny here today.")])
    big = extract([turn("We got married last weekend in Porto.")])
    assert small.importance < big.importance


# --------------------------------------------------------------------------------------------
# properties: deterministic, robust, fast

def test_sentence_splitting():
    assert split_sentences("Dr. Smith said hi. It costs 3.5 euros! Really? e.g. this one") == [
        "Dr. Smith said hi.", "It costs 3.5 euros!", "Really?", "e.g. this one"]
    assert split_sentences("Great news 🎉 We won") == ["Great news 🎉", "We won"]
    assert split_sentences("no punctuation at all") == ["no punctuation at all"]



def test_we_after_a_face_typed_in_letters_is_no_one_named_before():
    # Session 57: "Zofia is leaving at half term :( we've found someone new" was "Lucy and Zofia have found ...".
    ex = extract(episode(("Lucy", "Zofia is leaving at half term :( we've found someone new, Grace Bell")))
    texts = [f.text for f in ex.facts]
    assert not [t for t in texts if "Zofia have" in t or "and Zofia" in t], texts


def test_we_after_a_death_is_not_with_the_one_who_died():
    # Walk-through 99: "Dad passed away on the 28th of August and we're trying to keep on top of everything"
    # was "Daniel and Daniel's dad are trying ...".
    ex = extract(episode(("Daniel", "Dad passed away on the 28th of August and we're trying to keep on top of "
                                    "everything with the estate.")))
    assert not [f.text for f in ex.facts if "Daniel's dad are" in f.text], [f.text for f in ex.facts]


def test_a_pronoun_in_a_name_or_a_title_is_no_ones():
    # Walk-throughs 97 and 99: "NS&Daniel will pay", "a Joie Rob-Snug 2", "The Lord's Margaret's Shepherd and
    # Abide with Margaret"; a self-introduction's second clause, "Gail Pritchard is Gail Pritchard runs ..."
    ex = extract(episode(("Margaret", "Richard wanted The Lord's my Shepherd and Abide with Me."),
                         ("Daniel", "Anita says NS&I will pay them out to the estate."),
                         ("Rob", "The car seat is a Joie i-Snug 2, it fits her Corsa."),
                         ("Rob", "Tom and I went to see my mum in Leeds.")))
    texts = " ".join(f.text for f in ex.facts)
    assert "The Lord's my Shepherd and Abide with Me" in texts and "NS&I" in texts, texts
    assert "Margaret's Shepherd" not in texts and "NS&Daniel" not in texts and "Rob-Snug" not in texts, texts
    assert "Rob's mum" in texts, texts
    ex = extract(episode(("Gail", "Hi, I'm Gail Pritchard, I run Oakfield Livery where Bramble lives"),
                         ("Bethan", "I'm Bethan, I do Gareth's books for Pryce Electrical")))
    assert [f.text for f in ex.facts] == ["Gail Pritchard runs Oakfield Livery where Bramble lives.",
                                          "Bethan does Gareth's books for Pryce Electrical."]


def test_conjugation():
    assert [conjugate(w) for w in ("love", "go", "have", "study", "play", "miss", "went", "can")] == [
        "loves", "goes", "has", "studies", "plays", "misses", "went", "can"]


def same_input_turns() -> list[TurnRecord]:
    return episode(("Maya", "I moved to Berlin last week. My friend Mel visited."),
                   ("Sam", "Are you going to Tokyo next month?"),
                   ("Maya", "Yes! I'm allergic to peanuts though, and I'm scared of flying."))


def canonical(ex: Extraction) -> str:
    """An extraction as text: equal texts, equal extractions (lists in their order)."""
    return json.dumps(dataclasses.asdict(ex), default=str, sort_keys=True)


# Run in a fresh interpreter: prints the extraction of same_input_turns().
_EXTRACT_IN_A_PROCESS = """
from tests.test_extract_local import canonical, extract, same_input_turns
print(canonical(extract(same_input_turns())))
"""


def test_same_input_same_output():
    # Within one process, iterating a set of strings gives the same order every time; across
    # processes it need not (string hashes are salted per process). Processes with different
    # salts must still extract the same, in the same order, as this one.
    root = Path(__file__).resolve().parent.parent
    here = canonical(extract(same_input_turns()))
    assert json.loads(here)["facts"] and json.loads(here)["entities"]  # something to compare
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", _EXTRACT_IN_A_PROCESS], cwd=root,
                              env={**os.environ, "PYTHONHASHSEED": seed},
                              capture_output=True, text=True, timeout=120, check=True)
        assert done.stdout.strip() == here, f"PYTHONHASHSEED={seed}"


@pytest.mark.parametrize("content", [
    "", " ", "\n\n", "...", "🎉🎉🎉 😀", "你好，我昨天去了北京。我很喜欢那里！", "Привет! Я живу в Москве.",
    "a" * 32_768, ("I moved to Berlin. " * 2000)[:32_768], "I'm allergic to " + "x " * 5000,
    "My My My my my I I I you you", "\x00\x01 weird \ufffd bytes", "I'm. I've. I'll. I'd.",
    "Mr. . Dr. . St. .", "(((", "I " + "very " * 3000 + "like it",
])
def test_odd_input_never_raises(content):
    ex = extract([turn(content), turn(content, speaker="Sam", i=1)])
    assert isinstance(ex, Extraction)
    assert len(ex.title) <= 80 and len(ex.summary) <= 600 and len(ex.keywords) <= 10
    assert 0.0 <= ex.importance <= 1.0
    assert len(ex.facts) <= 24


def test_no_turns_and_naive_timestamps():
    # Nothing said: nothing extracted, and a title that names no date it cannot know.
    assert extract([]) == Extraction(title="Conversation on an unknown date", summary="", keywords=[],
                                     importance=0.1, facts=[], entities=[], foresights=[], tokens_used=0)
    naive = turn("I'm flying to Rome tomorrow.", at=datetime(2023, 5, 8, 12, 0))
    [p] = extract([naive]).foresights
    assert p.valid_to == datetime(2023, 5, 10, tzinfo=timezone.utc)


def test_the_async_interface_matches_the_sync_one():
    turns = [turn("I got a job at Siemens!")]
    extractor = LocalExtractor()
    assert extractor.name == "local"
    assert asyncio.run(extractor.extract(turns)) == extractor.extract_sync(turns)


# --------------------------------------------------------------------------------------------
# names first met in passing

def test_a_name_first_met_with_a_negated_verb_is_a_person_and_takes_the_later_she():
    # Before: Mia was a "thing" (no cue the rules read), so "she's allergic" went to the last
    # person named before the sentence (Yumi), and "She left Deloitte" too.
    ex = extract(episode(
        ("Ken", "My sister Yumi showed me around Kyoto."),
        ("Ken", "Mia couldn't come though, she's allergic to sesame and half the menu has it."),
        ("Ana", "Where's Mia working these days?"),
        ("Ken", "She left Deloitte in May and started at a small studio called Pixelhaus."),
    ))
    assert entity(ex, "Mia").type == "person"
    [allergy] = [f for f in ex.foresights if f.kind == "constraint"]
    assert allergy.text == "Mia is allergic to sesame."  # the list ends where a clause begins
    [left] = [f for f in ex.facts if "Deloitte" in f.text]
    assert left.subject == "Mia"


@pytest.mark.parametrize("text, name, etype", [
    ("She started at a small studio called Pixelhaus.", "Pixelhaus", "organization"),
    ("We stayed in a village called Ashwell for a week.", "Ashwell", "place"),
    ("I met a guy named Omar at the gym.", "Omar", "person"),
    ("Then I called Omar to ask.", "Omar", "person"),
])
def test_what_a_name_is_called_says_its_type(text, name, etype):
    assert entity(extract([turn(text)]), name).type == etype


def test_notice_handed_in_ends_the_job_and_a_start_on_a_coming_day_begins_then():
    ex = extract(episode(
        ("Ken", "I handed in my notice at Siemens."),
        ("Ken", "I'm starting at Volta Labs on Monday."),  # T0 is a Monday: the next one
        ("Ana", "I started at 9 today, so tired."),
    ))
    assert entity(ex, "Siemens").type == "organization"
    [left] = facts_with(ex, "left job at")
    assert (left.subject, left.object) == ("Ken", "Siemens")
    [works] = facts_with(ex, "works at")
    assert (works.subject, works.object) == ("Ken", "Volta Labs")
    # Siemens stays where Ken works until that day (true now is not the latest thing said).
    assert works.valid_from == datetime(2023, 5, 15, tzinfo=timezone.utc)
    assert not any(f.object == "9" and f.predicate == "works at" for f in ex.facts)


def test_a_promotion_at_a_named_place_is_where_one_works():
    ex = extract(episode(("Ana", "How's Rosa?"),
                         ("Ken", "She got promoted to head nurse at Santa Maria hospital.")))
    assert entity(ex, "Rosa").type == "person"
    [works] = facts_with(ex, "works at")
    assert (works.subject, works.object) == ("Rosa", "Santa Maria")


def test_texting_in_lower_case_still_names_places_employers_and_people():
    # Before: "clapham", "wise" and "priya" were no entities, so nothing was where anyone
    # lived or worked, and the graph had nothing to link a question's names to.
    ex = extract(episode(
        ("Jo", "Priya says hi! She's at Monzo too."),
        ("Sam", "we finally moved to clapham last weekend"),
        ("Sam", "nah i quit monzo in june, i work at wise now"),
        ("Sam", "priya got a job at wise as well lol"),
        ("Jo", "How's Priya? That's great."),
    ))
    [home] = facts_with(ex, "lives in")
    assert (home.subject, home.object) == ("Sam", "Clapham")
    assert entity(ex, "Clapham").type == "place"
    works = {(f.subject, f.object) for f in facts_with(ex, "works at")}
    assert {("Sam", "Wise"), ("Priya", "Wise")} <= works
    assert entity(ex, "Wise").type == "organization"
    # "now" ends the name; a date of another clause does not postpone the present
    assert all(f.valid_from <= T0 + timedelta(minutes=3) for f in facts_with(ex, "works at"))
    # "How's", "That's": contractions, not someone's
    assert not {"How", "That"} & {e.name for e in ex.entities}


def test_a_sentence_that_names_no_one_is_not_taken_for_lower_case_texting():
    ex = extract([turn("I'm a nurse at the city hospital.")])
    assert facts_with(ex, "job is") and not facts_with(ex, "works at")


def test_names_first_written_in_lower_case_are_found_by_what_is_said_around_them():
    ex = extract(episode(
        ("Jo", "hows priya doing"),
        ("Sam", "she's good, she's allergic to shellfish tho so no paella night"),
        ("Jo", "my sister lena just moved to glasgow btw"),
    ))
    assert entity(ex, "Priya").type == "person"
    [allergy] = [f for f in ex.foresights if f.kind == "constraint"]
    assert allergy.text == "Priya is allergic to shellfish."
    [home] = facts_with(ex, "lives in")
    assert (home.subject, home.object) == ("Lena", "Glasgow")


def test_a_lower_case_noun_after_the_is_not_taken_for_a_name():
    ex = extract([turn("we moved to the coast in may", speaker="Jo")])
    assert "Coast" not in {e.name for e in ex.entities}
    assert not facts_with(ex, "lives in")


# --------------------------------------------------------------------------------------------
# letters beyond a-z: a word runs on through accents

def test_words_with_accents_are_read_whole():
    ex = extract(episode(
        ("Ana", "I love crème brûlée and pâté."),
        ("Ana", "I'm allergic to crème fraîche."),
        ("Ana", "We had crêpes at the café."),
    ))
    [love] = facts_with(ex, "loves")
    assert (love.subject, love.object) == ("Ana", "crème brûlée and pâté")
    [allergy] = [fs for fs in ex.foresights if fs.kind == "constraint"]
    words = {w.strip() for w in allergy.trigger.split(",")}
    assert {"crème", "fraîche"} <= words
    assert not words & {"cr", "me", "fra", "che"}
    assert [f.predicate for f in ex.facts if f.text.startswith("Ana had")] == ["had crêpes at"]


def test_names_with_accents_written_in_lower_case_are_found_like_plain_ones():
    ex = extract(episode(
        ("Jo", "hows zoë doing"),
        ("Sam", "she's good, she's allergic to shellfish tho"),
        ("Jo", "my sister renée just moved to zürich btw"),
    ))
    assert entity(ex, "Zoë").type == "person"
    [allergy] = [f for f in ex.foresights if f.kind == "constraint"]
    assert allergy.text == "Zoë is allergic to shellfish."
    [home] = facts_with(ex, "lives in")
    assert (home.subject, home.object) == ("Renée", "Zürich")


def test_a_name_with_accents_first_in_a_sentence_is_a_name_a_loanword_is_not():
    ex = extract(episode(
        ("Ana", "José is coming over tonight."),
        ("Ana", "Zoë has a new job at Nestlé."),
        ("Ana", "Café was packed this morning."),
        ("Ana", "Olá from Lisbon!"),
    ))
    assert entity(ex, "José").type == "person" and entity(ex, "Zoë").type == "person"
    assert {e.name for e in ex.entities} >= {"José", "Zoë", "Nestlé"}
    assert not {e.name for e in ex.entities} & {"Café", "Olá"}
    [job] = facts_with(ex, "works at")
    assert (job.subject, job.object) == ("Zoë", "Nestlé")


def test_only_the_finite_verb_agrees_and_an_ly_word_is_no_verb():
    ex = extract(episode(
        ("Ana", "I'll have to check out the new bakery."),
        ("Ana", "I don't have to decide before Friday."),
        ("Ana", "I highly recommend the Hickling walk."),
    ))
    assert [f.predicate for f in ex.facts] == ["will have to check out", "doesn't have to decide", "recommends"]
    assert ex.facts[2].text == "Ana highly recommends the Hickling walk."


def test_texting_without_apostrophes_reads_as_with_them():
    ex = extract(episode(("Kai", "i dont eat meat"), ("Kai", "cant sleep at all")))
    [meat] = [fs for fs in ex.foresights if fs.kind == "constraint"]
    assert meat.text == "Kai doesn't eat meat."
    assert "Kai can't sleep at all." in {f.text for f in ex.facts}


def test_wanna_and_gotta_agree_as_want_to_and_have_to():
    ex = extract(episode(("Jon", "I wanna start a dance studio."), ("Jon", "I gotta check the floor quality.")))
    assert {f.text for f in ex.facts} >= {"Jon wants to start a dance studio.", "Jon has to check the floor quality."}


# --------------------------------------------------------------------------------------------
# a move and a new job in one sentence, an assistant's offers, names known from earlier cells

def test_a_home_with_whom_one_lives_is_still_where_one_lives():
    # "he" after Tom is Tom: Leeds was taken for a person, and "lives in" was no single value,
    # so the later move to Bristol superseded nothing.
    ex = extract([turn("I live in Leeds with my partner Tom, he is a nurse at St James's.")])
    [lives] = facts_with(ex, "lives in")
    assert (lives.object, lives.single_valued) == ("Leeds", True)
    assert entity(ex, "Leeds").type == "place" and entity(ex, "Tom").type == "person"


def test_a_second_single_value_in_a_later_clause_is_a_fact_of_its_own():
    ex = extract([turn("Update: we moved to Bristol last month and I now work at Harbourline as a team lead.")])
    [lives], [works] = facts_with(ex, "lives in"), facts_with(ex, "works at")
    assert (lives.object, works.object) == ("Bristol", "Harbourline")
    assert works.single_valued and works.text == "Maya now works at Harbourline as a team lead."
    # One value said twice in one sentence is one fact.
    ex = extract([turn("I moved to Lisbon in May, I live in Lisbon now.")])
    assert [f.object for f in facts_with(ex, "lives in")] == ["Lisbon"]


@pytest.mark.parametrize("said", [
    "Nice, I can look for shows that weekend.",
    "I'd be happy to help with that.",
    "Let me know if you want more options.",
    "I could compare a few hotels near the station.",
    "I'm sorry to hear that.",
    "I'll keep that in mind.",
    "Sounds like a full house.",
    "I understand how you feel.",
    "Lisbon is lovely in winter.",
    "Porto is a great choice.",
    "Lloyd Park should be nice for easy runs.",  # its opinions too
])
def test_an_assistants_offers_and_courtesies_are_no_facts(said):
    ex = _asked(("Maya", "user", "I need a hotel in Porto for the 12th."), ("assistant", "assistant", said))
    assert [f.subject for f in ex.facts] == ["Maya"], [f.text for f in ex.facts]


def test_a_persons_opinion_of_a_place_stays_a_fact():
    ex = _asked(("Maya", "user", "Lisbon is lovely in winter."), ("Maya", "user", "Porto is a great choice."))
    assert [f.text for f in ex.facts] == ["Lisbon is lovely in winter.", "Porto is a great choice."]


def test_what_an_assistant_did_or_recommends_stays_a_fact():
    ex = _asked(("Maya", "user", "Any ideas for Friday?"),
                ("assistant", "assistant", "I booked a table at Nando's for Friday at 7pm."),
                ("assistant", "assistant", "I would recommend the Hotel Infante Sagres, it is central."),
                ("assistant", "assistant", "I've added the dentist to your calendar."),
                ("assistant", "assistant", "Your flight to Lisbon leaves at 9am on Tuesday."))
    assert [f.predicate for f in ex.facts if f.subject == "assistant"] == [
        "booked", "would recommend", "has added", "said"]
    # The same words from a person are about that person: "I can swim 5km" is a fact.
    assert facts_with(extract([turn("I can swim 5km without stopping.")]), "can swim")


def test_a_name_known_from_earlier_cells_is_a_name_first_in_a_sentence():
    said = [turn("Rainy but great. Bram found a job at Southmead Hospital."),
            turn("Leeds was grey when we left.", i=1)]
    alone = extract(said)
    # Alone, a capital first in a sentence proves nothing but for a common given name ("Tom"):
    # "Maya said bram found a job ...".
    assert [f.subject for f in alone.facts] == ["Maya", "Maya"]
    known = [EntityDraft("Bram", "person"), EntityDraft("Leeds", "place"), EntityDraft("Melanie Hart", "person")]
    ex = LocalExtractor().extract_sync(said, known)
    [job] = facts_with(ex, "works at")
    assert (job.subject, job.object) == ("Bram", "Southmead Hospital")
    assert job.text == "Bram found a job at Southmead Hospital."
    assert entity(ex, "Bram").type == "person" and entity(ex, "Leeds").type == "place"
    # Only the names the cell says become its entities; "Melanie" of a known full name is a person.
    assert "Melanie Hart" not in [e.name for e in ex.entities]
    ex = LocalExtractor().extract_sync([turn("Melanie sent me the photos.")], known)
    assert entity(ex, "Melanie").type == "person"
    # A new full name beginning with a known person's first name is a person's.
    said = [turn("Zephyrine Marques joined the team as well.")]
    assert entity(extract(said), "Zephyrine Marques").type == "thing"
    known.append(EntityDraft("Zephyrine Hart", "person"))
    assert entity(LocalExtractor().extract_sync(said, known), "Zephyrine Marques").type == "person"


def test_a_known_type_gives_way_to_the_cells_own_cues():
    # Told wrong once ("Leeds" a person), the cell's "live in" still makes it a place.
    ex = LocalExtractor().extract_sync([turn("I live in Leeds.")], [EntityDraft("Leeds", "person")])
    assert entity(ex, "Leeds").type == "place"
    # Things are not taken as names: a word once capitalised is not a name wherever it starts.
    ex = LocalExtractor().extract_sync([turn("Work was busy today.")], [EntityDraft("Work", "thing")])
    assert [e.name for e in ex.entities] == ["Maya"]


def test_a_new_holder_of_a_one_holder_role_is_a_single_value():
    ex = extract([turn("My boss is Jonas Weber."), turn("My boss is Sofia Rossi now.", i=1),
                  turn("My new manager is Priya Shah.", i=2)])
    # One timeline, the owner's: a manager is a boss.
    assert [(f.subject, f.predicate, f.object, f.single_valued) for f in ex.facts] == [
        ("Maya", "boss is", "Jonas Weber", True), ("Maya", "boss is", "Sofia Rossi", True),
        ("Maya", "boss is", "Priya Shah", True)]
    assert ex.facts[1].text == "Maya's boss is Sofia Rossi now."
    # What the role is like is no holder; a sister is not one of a kind.
    assert not any(f.single_valued for f in extract([turn("My sister is Anika Weber.")]).facts)
    # A coach too, and where the holder is comes after the name, not in it.
    ex = extract([turn("My coach is Mark Hughes at Riverside Runners."), turn("My new coach is Priya Shah.", i=1)])
    assert [(f.subject, f.predicate, f.object, f.single_valued) for f in ex.facts] == [
        ("Maya", "coach is", "Mark Hughes", True), ("Maya", "coach is", "Priya Shah", True)]


@pytest.mark.parametrize("said, where", [
    ("I live in a flat in Hackney, so I usually run along the canal.", "Hackney"),
    ("We moved into a tiny studio near Lloyd Park.", "Lloyd Park"),
    ("I live in Leeds with my partner Tom.", "Leeds"),
])
def test_the_place_of_a_home_is_where_one_lives(said, where):
    [lives] = [f for f in extract([turn(said)]).facts if f.predicate == "lives in"]
    assert lives.object == where and lives.single_valued


def test_a_request_verb_and_a_routines_days_are_no_names():
    ex = extract([turn("Yes please, and remember Sophie is vegetarian."),
                  turn("Tell Mark I'm late. We do intervals on Tuesdays and a long run on Sundays.", i=1),
                  turn("There's a new seafood place on Call Lane.", i=2)])
    names = {e.name for e in ex.entities}
    assert {"Sophie", "Mark", "Call Lane"} <= names
    assert not names & {"Remember Sophie", "Tell Mark", "Tuesdays", "Sundays"}
    assert "Sophie is vegetarian." in [f.text for f in ex.foresights]


@pytest.mark.parametrize("said, until", [
    # Said in October: the coming December, not the last (session 36: 2025-12-14, and no end).
    ("Mum is not allowed to drive until her eye test on 14 December.", datetime(2026, 12, 14, 23, 59, 59)),
    ("Dad is not allowed to drive until 14 December.", datetime(2026, 12, 14, 23, 59, 59)),
    ("I must not drive until the scan.", None),  # an event, no day: it stands
])
def test_a_constraint_said_to_hold_until_a_day_ends_on_it(said, until):
    at = datetime(2026, 10, 1, 10, tzinfo=timezone.utc)
    [c] = extract([turn(said, at=at)]).foresights
    assert c.valid_to == (until.replace(tzinfo=timezone.utc) if until else None)


def test_a_constraint_said_for_a_span_ends_with_it():
    ex = extract([turn("She told me to avoid downhill running for two weeks and to do squats every day."),
                  turn("I cannot lift anything heavy for six weeks after the surgery.", i=1),
                  turn("I have been vegetarian for two years.", i=2),
                  turn("The ER doctor said I must not drive for three months.", i=3)])
    ends = {f.text: f.valid_to for f in ex.foresights}
    assert ends["Maya must not drive."] == T0 + timedelta(days=90)
    assert ends["Maya has been told to avoid downhill running for two weeks."] == T0 + timedelta(days=14)
    assert ends["Maya can't lift heavy things."] == T0 + timedelta(days=42)
    assert ends["Maya is vegetarian."] is None  # held two years already: it stands


def test_a_restriction_told_by_a_carer_or_of_oneself_is_a_constraint_for_its_span():
    ex = extract([turn("I tweaked my knee. Physio says no jumping for 3 weeks."),
                  turn("Running is ok if it's flat. No lunges for now either.", i=1),
                  turn("My doctor told me not to run for two weeks.", i=2),
                  turn("No worries for now, and no plans until Friday.", i=3)])
    ends = {f.text: f.valid_to for f in ex.foresights if f.kind == "constraint"}
    assert ends == {"Maya must avoid jumping.": T0 + timedelta(days=21), "Maya must avoid lunges.": None,
                    "Maya must not run.": T0 + timedelta(days=14)}
    # Cleared, the restriction ends ("I can jump again").
    [end] = extract([turn("Physio cleared me! Knee is fine, I can jump again.")]).foresight_ends
    assert (end.who, end.words, end.kind) == ("Maya", ["jump"], "constraint")


@pytest.mark.parametrize("said", [
    "My sister Anika visits on December 14th.",
    "My dog Rex needs his vaccine on December 18th.",
    "We have a dinner with the Joneses on Friday.",
])
def test_a_present_tense_with_a_day_ahead_is_a_plan(said):
    [plan] = extract([turn(said)]).foresights
    assert plan.kind in ("plan", "deadline") and plan.valid_to > T0


def test_a_filler_said_last_is_left_out_of_the_fact():
    ex = extract([turn("I'm vegan, by the way."), turn("I moved to Leeds, haha.", i=1)])
    assert [f.text for f in ex.facts] == ["Maya is vegan.", "Maya moved to Leeds."]
    assert [f.text for f in ex.foresights] == ["Maya is vegan."]


def test_her_husband_named_after_one_person_is_that_persons():
    ex = extract([turn("My sister Anika lives in Lisbon with her husband Marco."),
                  turn("I met Sarah Hale at the gym with her boss Leo.", i=1)])
    assert entity(ex, "Marco").aliases == ["Anika's husband"]
    assert entity(ex, "Leo").aliases == ["Sarah Hale's boss"]
    # Two people named before "her": whose is not known, and no alias is made.
    ex = extract([turn("Maya told Ana about her husband Tom.", speaker="Priya")])
    assert entity(ex, "Tom").aliases == []
    ex = extract([turn("I met Sarah and Nadia, and later her boss Leo came by.")])
    assert entity(ex, "Leo").aliases == []


@pytest.mark.parametrize("said, text", [
    # Whom a person told or invited is not who is "us" with the speaker (session 36: "Dr. Lee
    # also told Priya and Dr. Lee he is retiring").
    ("Dr. Lee also told us he is retiring.", "Dr. Lee also told Maya he is retiring."),
    ("Anna invited us to her wedding.", "Anna invited Maya to her wedding."),
    ("Tom and I are moving, wish us luck.", "Tom and Maya are moving, wish Maya and Tom luck."),
    # ... nor what one the sentence opens with does for us (walk-through 118: "for Helen and Jenny Polglase")
    ("Jenny is giving up cleaning for us.", "Jenny is giving up cleaning for Maya."),
])
def test_us_is_the_speaker_and_who_is_with_them_not_who_acts_on_them(said, text):
    assert text in [f.text for f in extract([turn(said)]).facts]


@pytest.mark.parametrize("said, text", [
    # "us both" is not one person (walk-through 46: "signed Tomás both up").
    ("Dr. Lee told us both to rest.", "Dr. Lee told Maya and another to rest."),
    # ... and a partner acting on "us both" is one of them
    ("My partner Tom signed us both up for the Lisbon half marathon in March.",
     "Maya's partner Tom signed Maya and Tom both up for the Lisbon half marathon in March 2024."),
])
def test_us_both_is_the_speaker_and_another(said, text):
    assert text in [f.text for f in extract([turn(said)]).facts]


def test_signed_someone_up_for_an_event_puts_it_ahead_and_is_a_plan():
    ex = extract([turn("Tom signed me up for the Lisbon half marathon in March.")])
    assert [f.text for f in ex.foresights] == ["Tom signed Maya up for the Lisbon half marathon in March 2024."]


def test_a_firm_called_without_its_trade_is_that_firm_and_its_ask_a_deadline():
    # Walk-throughs 45/46: "Brightwave Coffee" typed a person, "Halden" a person beside "Halden
    # Architects", and a client's "wants ... by Friday" no deadline once the client was a firm.
    ex = extract(episode(("Maya", "Brightwave Coffee is my biggest client."),
                         ("Maya", "Brightwave wants the labels by Friday."),
                         ("Maya", "Halden Architects sent the brief, and Halden needs the plans by Monday.")))
    assert {e.name: e.type for e in ex.entities} == {
        "Maya": "person", "Brightwave Coffee": "organization", "Halden Architects": "organization"}
    assert entity(ex, "Brightwave Coffee").aliases == ["Brightwave"]
    assert {(f.kind, f.valid_to.date()) for f in ex.foresights} == {
        ("deadline", date(2023, 5, 13)), ("deadline", date(2023, 5, 16))}
    # A place is no firm's short name.
    ex = extract([turn("Lisbon Bakery makes the best pastries in Lisbon.")])
    assert {e.name for e in ex.entities} >= {"Lisbon Bakery", "Lisbon"}


def test_how_it_went_said_in_a_word_is_no_fact_but_what_came_with_it_is():
    # Walk-through 46: "Tomás said fine so far." crowded a person's facts.
    ex = extract(episode(("Vita", "How did the run go?"), ("Maya", "Fine so far."),
                         ("Maya", "Not bad, thanks."), ("Maya", "Okay, my knee hurts after 5 km though.")))
    assert [f.text for f in ex.facts] == ["Maya's knee hurts after 5 km though."]


@pytest.mark.parametrize("said, constraint", [
    # Walk-through 48: each was "Aisha has ..." / "Dmitri is vegetarian".
    ("Mr Okafor, one of our regulars, has a severe sesame allergy.", "Mr Okafor has a sesame allergy."),
    ("The Patel booking is for 12, one of their guests is coeliac.", "One of their guests has coeliac disease."),
    ("The bride is vegan.", "The bride is vegan."),
    ("The pumpkin risotto is vegetarian and gluten-free.", None),
    ("I'm vegan.", "Maya is vegan."),
])
def test_a_constraint_is_whose_its_subject_names(said, constraint):
    texts = [f.text for f in extract([turn(said)]).foresights if f.kind == "constraint"]
    assert texts == ([constraint] if constraint else [])


def test_a_household_s_solicitor_is_one_at_a_time_and_a_firm_with_an_ampersand_one_name():
    # Walk-through 47: the old solicitor stayed current; "Harper & Lowe" was a place and a thing.
    ex = extract(episode(("Jonas", "Our solicitor is Claire Dunn at Harper & Lowe."),
                         ("Jonas", "Our new solicitor is Marcus Bell at Fenwick Legal."),
                         ("Jonas", "Tom is our mortgage broker.")))
    assert [(f.subject, f.predicate, f.object, f.single_valued) for f in ex.facts if f.single_valued] == [
        ("solicitor", "is", "Claire Dunn", True), ("solicitor", "is", "Marcus Bell", True),  # (the household's:
        ("broker", "is", "Tom", True)]  # its other person's "our new solicitor" is the same timeline)
    assert entity(ex, "Harper & Lowe").type == "organization"
    # two given names stay two people
    ex = extract([turn("We had dinner with Tom & Lena at Marks & Spencer.")])
    assert {"Tom", "Lena"} <= {e.name for e in ex.entities} and entity(ex, "Marks & Spencer").type == "organization"


def test_our_budget_is_one_value_of_the_group_whoever_of_it_says_it():
    # Walk-through 47: "Jonas | budget is | £420,000 for now, and ..." stayed current beside the
    # group's "budget | is" that the partner's "we've cut our budget" replaced ("jonas's" too). Told
    # as Jonas's words, "our" is the group's, not "Jonas's budget" (session 47).
    ex = extract(episode(("Jonas", "Our budget is £420,000 for now, and we've saved £48,000 for the deposit."),
                         ("Priya", "So we've cut our budget to £440,000.")))
    assert [(f.subject, f.predicate, f.object, f.text) for f in ex.facts] == [
        ("budget", "is", "£420,000",
         "Jonas said our budget is £420,000 for now, and we've saved £48,000 for the deposit."),
        ("budget", "is", "£440,000", "Priya has cut Priya's budget to £440,000.")]


def test_a_groups_value_told_as_someones_words_keeps_we_and_our():
    # Walk-through 55: "Jess said Jess hires Jess's van from Cargo Hire now": the band's van.
    [f] = extract([turn("We hire our van from Cargo Hire now.", speaker="Jess")]).facts
    assert (f.subject, f.object) == ("van supplier", "Cargo Hire")
    assert f.text == "Jess said we hire our van from Cargo Hire now."
    # the speaker's own value stays theirs
    [f] = [f for f in extract([turn("My rent is 900 a month.", speaker="Jess")]).facts if f.predicate == "rent is"]
    assert f.text == "Jess's rent is 900 a month."


def test_a_contact_at_a_firm_said_first_and_the_firm_by_its_first_words():
    # Walk-through 48: "At Blue Harbour my contact is Niamh Kelly" was the speaker's "contact is",
    # "Blue Harbour" a place beside "Blue Harbour Fish Co", and leaving it moving house.
    ex = extract(episode(("Carla", "We're switching our fish supplier to Blue Harbour Fish Co. next week."),
                         ("Carla", "At Blue Harbour my contact is Niamh Kelly."),
                         ("Carla", "Niamh has left Blue Harbour.")))
    assert [(f.subject, f.predicate, f.object) for f in ex.facts[1:]] == [
        ("Carla", "contact at Blue Harbour Fish Co is", "Niamh Kelly"),
        ("Niamh Kelly", "left job at", "Blue Harbour Fish Co")]
    assert entity(ex, "Blue Harbour Fish Co").aliases == ["Blue Harbour"]
    # ... and in a later episode, where the group knows the firm by both names (the re-run: the new
    # contact was "contact at Blue Harbour is", the old one's "contact at Blue Harbour Fish Co is")
    known = [EntityDraft(name="Blue Harbour Fish Co", type="organization", aliases=["Blue Harbour"])]
    said = "Niamh has left Blue Harbour. Our new contact at Blue Harbour is Connor Walsh."
    ex = LocalExtractor().extract_sync([turn(said, speaker="Carla")], known)
    assert [(f.predicate, f.object) for f in ex.facts][:2] == [
        ("left job at", "Blue Harbour"), ("contact at Blue Harbour Fish Co is", "Connor Walsh")]


def test_an_assistants_confirmation_of_the_days_the_user_gave_is_no_fact():
    # Walk-through 48: "Lume Ops got it, Dmitri works on 2026-10-06 (Tuesday) to ..." and "Lume Ops
    # said A cake for the Okafor table on 2026-12-12" were current facts.
    said = ["Please order a birthday cake for the Okafor table on 12 December.",
            "Got it, Dmitri works Tuesday to Sunday and Marta Wednesday to Sunday.",
            "Okay, a cake for the Okafor table on 12 December.",
            "Okay, I booked the cake for 11 December, they can't do the 12th."]
    ex = extract([turn(text, "Aisha" if i == 0 else "Lume Ops", T0 + timedelta(minutes=i), i,
                       "user" if i == 0 else "assistant") for i, text in enumerate(said)])
    assert [f.text for f in ex.facts] == [
        "Lume Ops booked the cake for 2023-12-11 (11 December), they can't do the 12th."]


def test_an_assistants_summary_acknowledgement_or_reminder_of_what_it_was_told_is_no_fact():
    # Walk-throughs 56, 57: "Vow said ceremony at 1:30pm on 2026-06-12 (12 June)" (the day said in
    # an earlier episode, and a year behind), "Pilot said thursdays for Hana, got it", "Pilot said
    # remember Tom is in Lisbon" (the top hit for "Where does Tom live?").
    said = [("Marco", "user", "The ceremony moves to 1:30pm. Same day, same place."),
            ("Vow", "assistant", "Okay, ceremony at 1:30pm on 12 June at Hartley Manor."),
            ("Ravi", "user", "Hana prefers Thursdays for her one-to-ones."),
            ("Pilot", "assistant", "Thursdays for Hana, got it."),
            ("Pilot", "assistant", "Will do. Remember Tom is in Lisbon, an hour behind."),
            ("Pilot", "assistant", "Okay, I booked the minibus for 12 June.")]
    ex = extract([turn(text, who, T0 + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    assert [f.subject for f in ex.facts if f.subject in ("Vow", "Pilot")] == ["Pilot"]
    assert [f.predicate for f in ex.facts if f.subject == "Pilot"] == ["booked"]  # what it did stays


def test_an_address_to_the_assistant_by_name_is_no_part_of_what_is_said():
    # Walk-throughs 56, 57: "Ravi said pilot, Sofia Alvarez is joining Ravi": reported, no fact of Sofia's.
    said = [("Pilot", "assistant", "Hello Ravi!"),
            ("Ravi", "user", "Pilot, Sofia Alvarez is joining us next week."),
            ("Clara", "user", "Okay Pilot: the hen do is booked for eight of us.")]
    ex = extract([turn(text, who, T0 + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    texts = [f.text for f in ex.facts]
    assert texts[0].startswith("Sofia Alvarez is joining Ravi"), texts
    assert "Clara said the hen do is booked for eight of Clara's group." in texts, texts  # (not "of Clara")


def test_a_rule_asked_of_the_assistant_by_name_with_no_comma_is_a_rule_and_an_idiom_none():
    # Walk-through 81: "Mise never put an order in with Harbour again" was a fact of Mise's, and
    # "dont get me started" the rule "Marco asked not to get Marco started".
    said = [("Mise", "assistant", "How was the service last night?"),
            ("Marco", "user", "dont get me started"),
            ("Marco", "user", "Mise never put an order in with Harbour again. we're done with them")]
    ex = extract([turn(text, who, T0 + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    assert [c.text for c in ex.foresights] == ["Marco asked never to put an order in with Harbour again."]
    assert not [f for f in ex.facts if f.subject == "Mise"]


def test_what_nobody_does_is_no_rule_and_a_name_set_off_by_what_she_is_holds_her_allergy():
    # Walk-through 81: "beef cheek is off the menu, nobody orders it" was a standing rule, top for
    # nine questions; "Eleanor, the regular at table 3, is allergic to shellfish" the speaker's.
    ex = extract([turn("beef cheek is off the menu, nobody orders it in the warm weather", speaker="Marco")])
    assert not ex.foresights
    ex = extract([turn("Eleanor, the regular at table 3, is allergic to shellfish", speaker="Aisha")])
    assert [c.text for c in ex.foresights] == ["Eleanor is allergic to shellfish."]
    # (still a rule said of everyone)
    ex = extract([turn("One rule for everyone: nobody lifts anything over 25 kg alone", speaker="Marco")])
    assert len(ex.foresights) == 1


def test_a_rule_against_strobes_surfaces_for_the_lighting():
    # Walk-through 82: "no strobes or flashing effects" had no word of lights: missed by "planning the
    # lighting design".
    [c] = extract([turn("Important: Poppy has photosensitive epilepsy so absolutely no strobes or flashing "
                        "effects anywhere in the show", speaker="Fiona")]).foresights
    assert {"lighting", "lighting design", "effects"} <= set(c.trigger.split(", ")), c.trigger


def test_two_words_of_no_ones_are_no_fact_and_a_trade_said_first_no_name():
    # Walk-through 56: "Florist sorted." (a firm "Florist") was the top hit for the florist.
    ex = extract(episode(("Lena", "Florist sorted! Our florist is Petal & Stem in Witney.")))
    assert [f.object for f in ex.facts] == ["Petal & Stem"] and "Florist" not in {e.name for e in ex.entities}


def test_a_titled_surname_and_the_surname_alone_are_the_one_full_name_with_it():
    ex = extract(episode(("Aisha", "Mr Okafor, one of our regulars, has a severe sesame allergy."),
                         ("Aisha", "Okafor booked for Saturday."),
                         ("Aisha", "His first name is Samuel, Samuel Okafor.")))
    assert [e.name for e in ex.entities if e.name != "Aisha"] == ["Samuel Okafor"]
    # two of the surname: whom "Mr Okafor" is, not said
    ex = extract(episode(("Aisha", "Samuel Okafor and Mary Okafor came in. Mr Okafor paid.")))
    assert not [e for e in ex.entities if "Mr Okafor" in e.aliases]
    # a title of the other sex is another person (walk-through 50: Mrs Adeyemi became her son),
    # a doctor's is either
    ex = extract(episode(("Hana", "Amir Adeyemi is allergic to shellfish."),
                         ("Hana", "Mrs Adeyemi prefers phone calls, never email."),
                         ("Hana", "Dr Sarah Lin is our new head. Dr Lin starts on Monday.")))
    assert {e.name: e.aliases for e in ex.entities if e.name != "Hana"} == {
        "Amir Adeyemi": [], "Mrs Adeyemi": [], "Dr Sarah Lin": ["Dr Lin"]}


def test_a_day_said_by_someone_else_is_the_events_and_an_apology_no_part_of_its_plan():
    # Re-run of walk-through 47/48: "marcus says the exchange | date is" never met "exchange", and
    # "Aisha got it wrong earlier: the Okafor booking is on ..." was a plan of Aisha's.
    ex = extract(episode(("Jonas", "Marcus says the exchange has moved to 11 December."),
                         ("Aisha", "Sorry, I got it wrong earlier: the Okafor booking is on Sunday 13 December.")))
    assert [(f.subject, f.predicate) for f in ex.facts] == [("exchange", "date is"), ("okafor booking", "date is")]
    assert ex.foresights[-1].text == "The Okafor booking is on Sunday 2023-12-13 (13 December)."


def test_a_repair_booked_and_moved_is_one_events_days_and_a_plan_names_whom_he_is():
    # Walk-through 51: "The boiler repair is booked for Thursday 12 November" was no day of the
    # repair (nor its move), read "for Thursday on 2026-11-12"; "Rafael gave notice, he's moving
    # out on ..." was a plan "He's moving out".
    ex = extract(episode(("Aisha", "The boiler repair is booked for Thursday 12 April."),
                         ("Aisha", "The engineer called, the boiler repair moved to Monday 16 April."),
                         ("Tom", "Rafael gave notice, he's moving out on 30 April.")))
    days = [(f.subject, f.predicate, f.object[5:]) for f in ex.facts if f.predicate == "date is"]
    assert days == [("boiler repair", "date is", "04-12"), ("boiler repair", "date is", "04-16")]
    assert [re.sub(r"\d{4}-", "", f.text) for f in ex.foresights] == [
        "The boiler repair is booked for Thursday 04-12 (12 April).",
        "The engineer called, the boiler repair moved to Monday 04-16 (16 April).",
        "Rafael is moving out on 04-30 (30 April)."]


def test_a_pets_and_a_trades_events_booked_for_a_day_are_days_and_plans():
    # Session 49: "The plastering is booked for ..." and "Grooming for Rex is on ..." were only
    # someone's words: no day of the event (a move could end nothing) and no plan ahead.
    ex = extract(episode(("Aisha", "The plastering is booked for Tuesday 17 April."),
                         ("Aisha", "Grooming for Rex is on Friday 20 April at 10am."),
                         ("Aisha", "The vaccination is moved to Thursday 19 April.")))
    days = [(f.subject, f.object[5:]) for f in ex.facts if f.predicate == "date is"]
    assert days == [("plastering", "04-17"), ("rex grooming", "04-20"), ("vaccination", "04-19")]
    assert [f.text.split(" 2")[0] for f in ex.foresights if f.kind == "plan"] == [
        "The plastering is booked for Tuesday", "Grooming for Rex is on Friday",
        "The vaccination is moved to Thursday"]


def test_a_plans_he_or_she_is_who_was_named_before_not_whom_the_plan_names():
    # Walk-through 57: "Priya Shah started today! She's shadowing Hana this week." was the plan
    # "Hana is shadowing Hana in the week of ...".
    ex = extract(episode(("Ravi", "Priya Shah started today! She's shadowing Hana this week.")))
    assert [f.text.split(" in the week")[0] for f in ex.foresights] == ["Priya Shah is shadowing Hana"]


@pytest.mark.parametrize("said, at, day", [
    # Walk-through 51: a day arranged lies ahead, whatever the verb's tense (each read last year's);
    # a day someone did not come on is gone by (read as the Wednesday ahead).
    ("Keyhouse confirmed 4 December for the inspection.", datetime(2026, 11, 17, 10, tzinfo=timezone.utc),
     date(2026, 12, 4)),
    ("Coastline Bank offered us 3.89%, completing on 1 December.", datetime(2026, 11, 2, 10, tzinfo=timezone.utc),
     date(2026, 12, 1)),
    ("The plumber didn't turn up on Wednesday.", datetime(2026, 10, 9, 10, tzinfo=timezone.utc), date(2026, 10, 7)),
    # Walk-through 53: "extended ... to 19 December" (past tense) was last year's
    ("CLAIR extended the submission deadline to 19 December.", datetime(2026, 11, 2, 10, tzinfo=timezone.utc),
     date(2026, 12, 19)),
])
def test_a_day_arranged_lies_ahead_and_a_day_missed_behind(said, at, day):
    ex = extract([turn(said, speaker="Tom", at=at)])
    assert day.isoformat() in " ".join(f.text for f in ex.facts), [f.text for f in ex.facts]


def test_where_work_runs_is_one_place_at_a_time_and_his_thesis_is_his():
    # Walk-through 53: "all our experiments now run on Hydra" and "moved ... to the university
    # cluster" were "said" facts beside AWS; "His thesis is on ..." was the supervisor's.
    ex = extract(episode(("Nadia", "All our experiments run on AWS at the moment."),
                         ("Nadia", "Migration is finished: all our experiments now run on Hydra."),
                         ("Nadia", "We moved our experiments from Hydra to the university cluster."),
                         ("Nadia", "I supervise a PhD student, Omar Haddad. "
                                   "His thesis is on traffic forecasting.")))
    assert [(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued] == [
        ("experiments", "uses", "AWS"), ("experiments", "uses", "Hydra"),
        ("experiments", "uses", "university cluster"), ("Omar Haddad", "thesis topic is", "traffic forecasting")]
    assert ex.facts[-1].text == "Omar Haddad's thesis is on traffic forecasting."


@pytest.mark.parametrize("said, constraint", [
    # Walk-through 53: only "never email me at weekends" was kept of it
    ("Please contact me on Slack, not by email, and never email me at weekends.",
     "Martin prefers to be contacted on Slack, not by email."),
    ("Martin prefers Slack.", "Martin prefers to be contacted on Slack."),
])
def test_a_channel_asked_for_is_how_to_reach_them(said, constraint):
    ex = extract([turn(said, speaker="Martin", i=0), turn("Noted.", speaker="Scholar", i=1, role="assistant")])
    assert constraint in [f.text for f in ex.foresights if f.kind == "constraint"]


def test_how_someone_is_to_be_reached_is_kept_without_an_assistant_too():
    # Re-run of walk-through 51: said in a turn of an episode with no assistant's reply, "Rafael
    # wants texts only" was no constraint.
    ex = extract([turn("Rafael Souza wants texts only, and never call him before 10am.", speaker="Tom")])
    assert [f.text for f in ex.foresights if f.kind == "constraint"] == [
        "Rafael Souza prefers to be contacted by text only."]


def test_a_latex_allergy_comes_with_dental_work_and_tomorrow_is_no_one():
    # Walk-through 54: its trigger was a pharmacy's (medicine, prescription ...), so "Book Mr Osei
    # in for a filling" brought another patient's rule; walk-through 55: "Tomorrow's the
    # Roundhouse" made a person "Tomorrow", who then took Tom Becker's name.
    ex = extract([turn("Mr Kwame Osei is allergic to latex, so he needs nitrile gloves.", speaker="Olivia"),
                  turn("Tomorrow's the Roundhouse, fingers crossed.", speaker="Olivia", i=1)])
    [c] = [fs for fs in ex.foresights if fs.kind == "constraint"]
    assert {"filling", "dentist", "gloves"} <= set(c.trigger.split(", ")), c.trigger
    assert "Tomorrow" not in {e.name for e in ex.entities}


@pytest.mark.parametrize("said, at, day", [
    # Walk-through 55: shows got in October for November read as last November's
    ("Priya got us two more shows: The Haunt on Friday 20 November and Thekla on Friday 27 November.",
     datetime(2026, 10, 13, 10, tzinfo=timezone.utc), "2026-11-20"),
    # ... but a day of a month just gone by stays behind
    ("We went to the Haunt on 20 September.", datetime(2026, 10, 13, 10, tzinfo=timezone.utc), "2026-09-20"),
])
def test_a_day_got_in_the_past_tense_weeks_ahead_is_that_day(said, at, day):
    assert day in " ".join(f.text for f in extract([turn(said, speaker="Jess", at=at)]).facts)


@pytest.mark.parametrize("said, text", [
    # Walk-through 55: a week's availability was one dated week ("from 2026-11-10 (Tuesday) to ...")
    ("I'm only available for gigs from Tuesday to Sunday.",
     "Theo is only available for gigs from Tuesday to Sunday."),
    # ... while days of a week named stay that week's
    ("I'm free from Monday to Wednesday next week.",
     "Theo is free from 2023-05-15 (Monday) to 2023-05-17 (Wednesday)"),
])
def test_a_weeks_availability_is_no_one_week(said, text):
    assert [f.text for f in extract([turn(said, speaker="Theo")]).facts][0].startswith(text)


def test_pity_is_no_part_of_a_name_and_a_match_won_is_gone_by():
    # Walk-through 52: "Poor Ethan" was an entity; "We beat Oakwood 3-1 on Saturday" the Saturday ahead.
    ex = extract([turn("Poor Ethan twisted his knee. We beat Oakwood 3-1 on Saturday.", speaker="Grace")])
    assert "Ethan" in {e.name for e in ex.entities} and "Poor Ethan" not in {e.name for e in ex.entities}
    beat = next(f for f in ex.facts if "Oakwood" in f.text)
    assert (T0.date() - timedelta(days=2)).isoformat() in beat.text  # (T0 is a Monday)


@pytest.mark.parametrize("said, text", [
    # a gerund that is the subject is no dropped "I'm" (LoCoMo: "Caroline is taking care of
    # themselves is so important"; walk-through 52: "Grace is driving in November ... is ...")
    ("Taking care of yourself is so important.", "Maya said taking care of yourself is so important."),
    ("Heading to Leeds for the match.", "Maya is heading to Leeds for the match."),
])
def test_a_sentence_opened_by_a_gerund_drops_an_i_unless_the_gerund_is_its_subject(said, text):
    assert [f.text for f in extract([turn(said)]).facts] == [text]


def test_a_rule_for_whom_a_sentence_opens_with_is_theirs_and_a_day_now_after_a_why_is_the_moved_ones():
    # Walk-through 51: Mei's no-mornings rule was "Tom set a rule: ..." (Tom's, not hers), and
    # "the boiler repair moved again. Dale's van broke down, it's now Friday 11 December" no day.
    said = ["Mei Chen moved in. Mei works nights, so no visits or viewings in the morning.", "Noted.",
            "Ugh, the boiler repair moved again. Dale's van broke down, it's now Friday 16 June."]
    ex = extract([turn(text, "Keystone" if i == 1 else "Tom", T0 + timedelta(minutes=i), i,
                       role="assistant" if i == 1 else "user") for i, text in enumerate(said)])
    assert [f.text for f in ex.foresights if f.kind == "constraint"] == [
        "Mei Chen's rule: Mei works nights, so no visits or viewings in the morning."]
    assert [(f.subject, f.object[5:]) for f in ex.facts if f.predicate == "date is"] == [("boiler repair", "06-16")]


def test_a_match_against_a_team_is_one_event_however_it_is_named():
    # Walk-through 52: "The cup match against Eastfield is on Saturday 31 October" was no day of
    # "the Eastfield cup match", which was then rescheduled (both days stayed current).
    ex = extract(episode(("Grace", "The cup match against Eastfield is on Saturday 10 June at 11am."),
                         ("Grace", "The Eastfield cup match has been rescheduled to Saturday 17 June at 11am.")))
    assert [(f.subject, f.object[5:]) for f in ex.facts if f.predicate == "date is"] == [
        ("eastfield cup match", "06-10"), ("eastfield cup match", "06-17")]


def test_a_label_that_names_whom_says_whom_he_is():
    # Re-run of walk-through 53: "Big news on Omar: he's dropping traffic forecasting. His thesis is
    # now on causal discovery" lost "on Omar" with its label: both were "Nadia said ...".
    ex = extract([turn("Big news on Omar Haddad: he's dropping traffic forecasting. "
                       "His thesis is now on causal discovery.", speaker="Nadia")])
    assert [f.text for f in ex.facts] == ["Omar Haddad is dropping traffic forecasting.",
                                          "Omar Haddad's thesis is on causal discovery."]


def test_an_update_labelled_with_a_name_and_a_post_in_brackets_say_whom_a_pronoun_is():
    # Walk-throughs 119 and 117: "Dan update: his physio is Dr Fiona Blake" was a village's ("Bramford's physio"),
    # "Beverley Moss (lab technician) told me she works Mon, Wed and Fri" the last woman named before (a thing's
    # name in brackets), and "she'll be in Tuesdays and Thursdays only" no days at all
    ex = extract(episode(("Tom", "Bramford stays as feed 2"),
                         ("Priya", "Dan update: his physio is Dr Fiona Blake at the Ashcombe clinic."),
                         ("Rachel", "Dr Anita Sharma starts as head of department on Monday 2 November"),
                         ("Tom", "also Beverley Moss (lab technician) told me she works Mon, Wed and Fri this term"),
                         ("Rachel", "Another change: Bev's days are changing after half term, she'll be in Tuesdays and "
                                    "Thursdays only")))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "physio is"] == [
        ("Dan", "Dr Fiona Blake")]
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "work days is"] == [
        ("Beverley Moss", "Mon, Wed and Fri"), ("Beverley Moss", "Tuesdays and Thursdays")]
    assert entity(ex, "Beverley Moss").type == "person"
    # ... and her post is one of its own, which a change of her days leaves (walk-through 117's re-run: "Who is the lab
    # technician?" had lost its answer with the days it was told in)
    assert [(f.subject, f.object, f.text) for f in ex.facts if f.subject == "lab technician"] == [
        ("lab technician", "Beverley Moss", "Beverley Moss is the lab technician.")]


def test_a_thing_named_alone_then_said_of_as_it_is_what_it_is():
    # Walk-through 117: "yes, the Year 10 coursework deadline. It's Friday 6 November, Graham set it" had been two
    # "said" facts, no deadline's day; "The store's doing great! It's a wild ride." names no thing
    ex = extract([turn("yes, the Year 10 coursework deadline. It's Monday 6 November, Graham set it", "Rachel"),
                  turn("The Year 10 ecology field trip. It's to Larkspur Field Centre on Saturday 11 November", "Rachel",
                       i=1),
                  turn("The store's doing great! It's a wild ride.", "Gina", i=2),
                  turn("And the dress fitting moved again! It's June 23rd now, the seamstress is off.", "Lena", i=3)])
    texts = [f.text for f in ex.facts]
    assert "Rachel said the Year 10 coursework deadline is Monday 2023-11-06 (6 November), Graham set it." in texts
    assert [(f.subject, f.object) for f in ex.facts if f.single_valued] == [("year 10 coursework deadline", "2023-11-06"),
                                                                             ("dress fitting", "2023-06-23")]
    assert any(t.endswith("the Year 10 ecology field trip is to Larkspur Field Centre on Saturday 2023-11-11 "
                          "(11 November).") for t in texts)
    assert not [t for t in texts if t.rstrip(".").endswith(("deadline", "field trip"))]  # (no thing named alone)
    assert not [t for t in texts if "doing great is" in t or "moved again is" in t], texts


def test_an_appointment_with_her_has_its_day():
    # Walk-through 116: "first check-up with her is on 3 November at 9:15" was a "said" fact, no day of a check-up
    ex = extract([turn("first check-up with her is on 3 November at 9:15", "Lena")])
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "date is"] == [("first check up", "2023-11-03")]


def test_a_cheer_said_as_what_will_be_is_no_plan():
    # Walk-through 117: "you'll smash it" was the plan "Rachel will smash it.", ranked above the rules asked after
    ex = extract(episode(("Rachel", "Dr Sharma wants to observe my Y11 lesson on Tuesday 17th, period 3"),
                         ("Tom", "you'll smash it"),
                         ("Tom", "you'll be fine x"),
                         ("Tom", "you'll present it on Friday")))
    plans = [f.text for f in ex.foresights]
    assert not [p for p in plans if "smash" in p or "fine" in p], plans
    assert any("present it" in p for p in plans), plans


def test_a_release_named_alone_has_its_day_and_its_day_pushed_back():
    # Walk-through 55: "Glasshouse comes out on 14 November", then "Glasshouse is pushed back to
    # 15 January 2027" were "said" facts, 14 November the answer to "When is the single out?".
    ex = extract(episode(("Jess", "Glasshouse comes out on 14 June."),
                         ("Jess", "Glasshouse is pushed back to 15 July.")))
    assert [(f.subject, f.object[5:]) for f in ex.facts if f.predicate == "date is"] == [
        ("glasshouse", "06-14"), ("glasshouse", "07-15")]


def test_a_match_called_off_has_its_day_cancelled():
    ex = extract([turn("The Eastfield cup match on Saturday is cancelled, their pitch is waterlogged.", "Grace")])
    assert [(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued] == [
        ("eastfield cup match", "date is", "cancelled")]


def test_a_contact_at_a_firm_said_by_its_name_without_its_trade_is_the_firms():
    # Re-run of walk-through 51: "My contact at Keyhouse is Priya Nair" (in the episode that named
    # Keyhouse Lettings), then later "Our new contact at Keyhouse is Ben Carter": two predicates,
    # both current.
    known = [EntityDraft(name="Keyhouse Lettings", type="organization", aliases=[])]
    ex = LocalExtractor().extract_sync([turn("Our new contact at Keyhouse is Ben Carter.", speaker="Tom")], known)
    assert ("Tom", "contact at Keyhouse Lettings is", "Ben Carter") in {
        (f.subject, f.predicate, f.object) for f in ex.facts}


def test_registration_closing_is_a_deadline_and_its_day_corrected_the_old_ones_end():
    # Walk-through 52: neither was a deadline, and the 20th's stayed.
    ex = extract(episode(("Grace", "Registration for the summer tournament closes on 20 June."),
                         ("Grace", "Registration closes on 27 June, not the 20th.")))
    assert [fs.kind for fs in ex.foresights] == ["deadline", "deadline"]
    assert [(e.words, e.day[5:]) for e in ex.foresight_ends] == [(["registration", "closes"], "06-20")]
    assert [(f.subject, f.object[5:]) for f in ex.facts if f.predicate == "date is"] == [("registration", "06-27")]


def test_never_call_her_is_whom_the_sentence_or_the_one_before_names_and_came_in_today_no_plan():
    # Walk-through 50: "Hana asked never to call her during work hours" (hers, the teacher's), a
    # plan "Mrs Funmi Adeyemi, came in 2026-10-02", and "never call her" after "Mrs Patel prefers
    # email" given to the person named a turn before.
    said = ["Amir's mum, Mrs Funmi Adeyemi, came in today. She prefers email, and please never call her during "
            "work hours.", "Noted.", "Mrs Patel prefers email, never call her."]
    ex = extract([turn(text, "Tutorly" if i == 1 else "Hana", T0 + timedelta(minutes=i), i,
                       "assistant" if i == 1 else "user") for i, text in enumerate(said)])
    assert [fs.text for fs in ex.foresights if fs.text.startswith("Hana asked")] == [
        "Hana asked never to call Mrs Funmi Adeyemi during work hours.", "Hana asked never to call Mrs Patel."]
    assert not [fs for fs in ex.foresights if fs.kind == "plan"]


def test_a_booking_done_is_no_plan_and_an_engagement_holds_from_its_saying():
    # Walk-through 49: "We booked Satin Strings instead" was a 30-day plan that led "What's due?",
    # and "engaged" held from next June, the wedding's month.
    ex = extract(episode(("Daniel", "We booked Satin Strings instead, our contact there is Leo Grant."),
                         ("Sofia", "Daniel and I just got engaged and we want to get married next June."),
                         ("Daniel", "I booked flights to Rome for April.")))
    plans = [fs.text for fs in ex.foresights if fs.kind == "plan"]
    assert plans[-1:] == ["Daniel booked flights to Rome for April 2024."]
    assert not [fs for fs in ex.foresights if "Satin" in fs.text]
    [engaged] = [f for f in ex.facts if f.predicate == "relationship status is"]
    assert engaged.valid_from == T0 + timedelta(minutes=1)


def test_an_assistants_echo_of_a_value_just_told_is_no_fact():
    # Walk-through 50: "Amir's target is now a 7." (the assistant's) was a current fact of its own,
    # "Tutorly said brilliant news for Amir" another.
    said = ["Amir has been flying lately, so I've raised his target grade from 6 to 7.",
            "Amir's target is now a 7.", "Brilliant news for Amir!"]
    ex = extract([turn(text, "Tutorly" if i else "Hana", T0 + timedelta(minutes=i), i, "assistant" if i else "user")
                  for i, text in enumerate(said)])
    assert [(f.subject, f.predicate, f.object) for f in ex.facts] == [("Amir", "goal grade is", "7")]


def test_a_groomsman_named_is_a_person_and_his_first_name_him():
    # Walk-through 49: "Tunde Bakare" was a thing, apart from the person "Tunde" of the suit fitting.
    ex = extract(episode(("Daniel", "My groomsman Tunde Bakare has a severe shellfish allergy."),
                         ("Daniel", "Tunde's suit fitting is on Friday.")))
    assert entity(ex, "Tunde Bakare").type == "person" and "Tunde" not in {e.name for e in ex.entities}


def test_whom_a_speaker_welcomes_is_a_person_and_he_is_them():
    ex = extract([turn("Welcome Dev! He's joining from Stripe and will pair with Ben.", speaker="Ana")])
    assert entity(ex, "Dev").type == "person" and "Welcome Dev" not in {e.name for e in ex.entities}
    assert ("Dev", "is joining from") in {(f.subject, f.predicate) for f in ex.facts}


@pytest.mark.parametrize("said, constraint", [
    ("Tom is vegan.", "Tom is vegan."), ("Tom is allergic to shellfish.", "Tom is allergic to shellfish."),
    # (how she is to be reached is hers, said to an assistant or not)
    ("Laura hates phone calls, email only.", "Laura prefers to be contacted by email only.")])
def test_a_one_line_note_opening_with_a_first_name_is_about_that_person(said, constraint):
    # A capital opening a sentence proves nothing ("Work is hard"), but what is said of it can.
    ex = extract([turn(said, speaker="Sam")])
    name = said.split()[0]
    assert entity(ex, name).type == "person" and {f.subject for f in ex.facts} == {name}
    assert [fs.text for fs in ex.foresights if fs.kind == "constraint"] == ([constraint] if constraint else [])


def test_an_acronym_is_no_short_name_of_a_person():
    ex = extract([turn("Priya approved headcount for two more engineers.", speaker="Ana"),
                  turn("We're dropping the two-approval rule, one approval per PR is enough again.", speaker="Ana", i=1)])
    assert "PR" in {e.name for e in ex.entities} and "PR" not in entity(ex, "Priya").aliases


def test_a_promise_due_by_a_day_is_a_deadline_over_on_that_day():
    at = datetime(2026, 10, 5, 9, 0, tzinfo=timezone.utc)
    ex = extract([turn("I promised Priya a revised price sheet by December 10th, she wants to revisit next year.",
                       speaker="Sam", at=at)])
    [d] = ex.foresights
    assert d.kind == "deadline" and d.valid_to == datetime(2026, 12, 11, tzinfo=timezone.utc)


def test_a_place_known_by_its_number_keeps_it():
    """"Flat 3" is not "Flat" (every flat of a building would be one place), and a house's
    number is its address's ("14 Elm Road", not the road)."""
    ex = extract([turn("The Okafors are moving out of Flat 3 and the boiler at 14 Elm Road is broken."),
                  turn("Flat 2's rent goes up next month, Unit 4B is empty.", i=1)])
    names = {e.name: e.type for e in ex.entities}
    assert {names.get(n) for n in ("Flat 3", "14 Elm Road", "Flat 2", "Unit 4B")} == {"place"}
    assert "Flat" not in names and "Elm Road" not in names


def test_people_and_firms_known_by_their_names_and_what_is_said_after_them():
    """Common given names ("Kelly Henderson rang" kept whole, though "Kelly" ends in -ly),
    what a name is said to be right after it ("Gareth Price the plumber", "TalentBridge, the
    agency Megan Cole runs"), firms' last words ("Northgate Lettings", "Dave Marsh Roofing");
    weekdays are no one ("Thursday's viewing")."""
    ex = extract([turn("Kelly Henderson rang this morning, she has no hot water.", speaker="Owen"),
                  turn("Gareth Price the plumber looks after Elm Road.", speaker="Owen", i=1),
                  turn("We got two candidates from TalentBridge, the agency Megan Cole runs.", speaker="Owen", i=2),
                  turn("Northgate Lettings will find a tenant, and Dave Marsh Roofing quoted £1,800.", speaker="Owen",
                       i=3),
                  turn("Thursday's viewing is off. Jess Byrne is going to be the new tenant.", speaker="Owen", i=4)])
    types = {e.name: e.type for e in ex.entities}
    assert {n: types.get(n) for n in ("Kelly Henderson", "Gareth Price", "Megan Cole", "Jess Byrne")} == dict.fromkeys(
        ("Kelly Henderson", "Gareth Price", "Megan Cole", "Jess Byrne"), "person")
    assert {n: types.get(n) for n in ("TalentBridge", "Northgate Lettings", "Dave Marsh Roofing")} == dict.fromkeys(
        ("TalentBridge", "Northgate Lettings", "Dave Marsh Roofing"), "organization")
    assert "Thursday" not in types and "Henderson" not in types


def test_a_duty_within_a_time_is_a_deadline_that_long_after_its_saying():
    ex = _asked(("Owen", "user", "Her deposit is £1,260. Remember the deposit must be protected within 30 days."),
                ("assistant", "assistant", "Will do."),
                ("Owen", "user", "It arrived within two days, amazing."))
    [d] = ex.foresights
    assert d.kind == "deadline" and "protected within 30 days" in d.text
    assert d.valid_to - d.valid_from == timedelta(days=30)
    # "We agreed £1,100": a past in -eed is no present ("Owen agreeds £1,100")
    ex = extract([turn("We agreed £1,100 instead of £1,150.", speaker="Owen")])
    assert all("agreeds" not in f.text for f in ex.facts) and any("Owen agreed" in f.text for f in ex.facts)


def test_keys_hashes_and_links_pasted_in_a_message_name_no_entity():
    # Each capitalised piece of a base64 blob became an entity ("T1BWummoyP4Bpv...").
    ex = extract(episode(
        ("Maya", "Here is the key: T1BWummoyP4BpvHtgBvOW6HVEO0NH/0L9Xm7uZtJzVtDd2adDHPD5UaQx42Zm6Ct+NvzBFya "
                 "please keep it for Priya."),
        ("Maya", "My token is eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
        ("Maya", "The doc is at https://docs.example.com/d/1AbCdEfGhIjKlMnOp/Edit and Sam from McDonald's "
                 "has the PlayStation."),
    ))
    names = {e.name for e in ex.entities}
    assert {"Maya", "Priya", "Sam"} <= names
    assert not [n for n in names if any(c.isdigit() for c in n) or n in ("Edit", "AbCdEfGhIjKlMnOp")], names


@pytest.mark.parametrize("rows, person, nick", [
    ((("Aisha", "My contact at Harbor is Elizabeth Moreno. Everyone calls her Liz."),
      ("Aisha", "Liz wants the renewal quote by Friday.")), "Elizabeth Moreno", "Liz"),
    ((("Aisha", "I met Robert Jones, aka Bob, at the conference."), ("Aisha", "Bob works at Tidewater.")),
     "Robert Jones", "Bob"),
    ((("Aisha", "Catherine Hall (Kate) runs procurement there."), ("Aisha", "Kate is away until May.")),
     "Catherine Hall", "Kate"),
    ((("Aisha", "Hi, please call me Ash."), ("Aisha", "I live in Leeds.")), "Aisha", "Ash"),
])
def test_a_nickname_someone_is_said_to_go_by_is_their_alias(rows, person, nick):
    # "Liz" was a person of her own, with her own facts.
    ex = extract(episode(*rows))
    by_name = {e.name: e for e in ex.entities}
    assert nick not in by_name and nick in by_name[person].aliases, [(e.name, e.aliases) for e in ex.entities]
    assert all(nick not in (f.subject, f.object) for f in ex.facts), [(f.subject, f.object) for f in ex.facts]


@pytest.mark.parametrize("said, person, org", [
    # A post with capitals, as business notes write it: "Director" was an entity, and the
    # sentence no fact at all.
    ("Priya Nair is the Director of IT at Northwind.", "Priya Nair", "Northwind"),
    ("Elizabeth Moreno is Head of Operations at Harbor.", "Elizabeth Moreno", "Harbor"),
    ("Daniel Ortiz is the new Chief Financial Officer at Northwind.", "Daniel Ortiz", "Northwind"),
])
def test_a_post_written_with_capitals_names_no_one(said, person, org):
    ex = extract([turn(said, speaker="Aisha")])
    assert {e.name for e in ex.entities} == {"Aisha", person, org}
    assert [(f.subject, f.predicate, f.object) for f in ex.facts] == [(person, "works at", org)]
    assert said.rstrip(".") in ex.facts[0].text  # the post kept in its words


def test_an_agents_chatter_errands_and_confirmations_make_no_facts():
    # An assistant app's session, a turn a call: 11 of 79 facts were its courtesies, 4 the
    # weather, 8 errands said again ("Maya said suggest a restaurant ..." ranked first).
    ex = _asked(("Maya", "user", "First important thing: I'm allergic to peanuts, a proper allergy, "
                                 "I carry an EpiPen."),
                ("Pip", "assistant", "Got it, a peanut allergy with an EpiPen. I'll keep that in mind for food."),
                ("Maya", "user", "Ugh, the weather is grim today, it hasn't stopped raining since Saturday."),
                ("Pip", "assistant", "Sorry to hear that, a grey Monday. At least it's a good day for a "
                                     "hot drink."),
                ("Maya", "user", "It's cold again this morning, I need more coffee."),
                ("Maya", "user", "Can you find me a hotel near the venue, something quiet?"),
                ("Maya", "user", "Pip, suggest somewhere for dinner near the new flat tonight."),
                ("Maya", "user", "My manager there is Sofia Rossi, she's very sharp."),
                ("Pip", "assistant", "Sofia Rossi, your manager, noted."),
                ("Maya", "user", "It's cold in Lisbon in winter, so I moved my trip to May."))
    by_turn = sorted({t for f in ex.facts for t in f.turn_ids})
    assert by_turn == ["t0", "t7", "t9"], [(f.turn_ids, f.text) for f in ex.facts]
    # (the trip moved to May is a plan of May's, the errands none)
    assert [(f.kind, f.valid_to and f.valid_to.month) for f in ex.foresights] == [("constraint", None), ("plan", 6)]


def test_a_greeting_with_a_name_is_no_fact_and_an_emphatic_myself_no_object():
    ex = extract(episode(("Priya", "Welcome to Berlin Jun! I'm still in the London office myself."),
                         ("Priya", "Hey Jun, that offsite in Porto last weekend was insane."),
                         ("Jun", "Congratulations on Priya's win in the chess tournament."),
                         ("Jun", "I'm trying to accept myself."),
                         ("Jun", "I'm proud of myself.")))
    texts = [f.text for f in ex.facts]
    assert not [t for t in texts if "welcome" in t.lower()], texts
    office = [f for f in ex.facts if "London office" in f.text]
    assert [f.text for f in office] == ["Priya is still in the London office."]
    assert "themself" not in office[0].object
    # a greeting with news after it, and congratulations (what happened to whom), stay; a
    # "myself" a verb or a preposition takes stays its object
    assert any("Porto" in t for t in texts) and any("tournament" in t for t in texts), texts
    assert "Jun is trying to accept themself." in texts and "Jun is proud of themself." in texts


def test_a_team_chats_words_addresses_asides_confirmations_and_on_call():
    said = [("Orbit", "Happy to help with the dinner."),
            ("Priya", "@Orbit please never schedule team meetings before 10am."),
            ("Sofia", "Also, between us, I'm interviewing with Globex next week."),
            ("Marco", "I'm allergic to shellfish, by the way, keep that in mind for team dinners."),
            ("Marco", "Marco takes on-call this week."),
            ("Orbit", "Got it, aisle seats from now on."),
            ("Orbit", "Noted: Sofia is vegetarian and Marco doesn't drink."),
            ("Orbit", "Done, I booked a table at Nopi for 8pm.")]
    ex = extract([turn(text, who, T0 + timedelta(minutes=i), i, "assistant" if who == "Orbit" else "user")
                  for i, (who, text) in enumerate(said)])
    texts = [f.text for f in ex.facts]
    # an @address is whom it is said to: the instruction is Priya's rule
    assert any(f.kind == "constraint" and "10am" in f.text for f in ex.foresights), ex.foresights
    assert not [t for t in texts if "@" in t or "Between" in t], texts
    allergy = [f for f in ex.foresights if "shellfish" in f.text]
    assert allergy and "by the way" not in allergy[0].text
    assert [(f.predicate, f.object) for f in ex.facts if "on-call" in f.text] == [("takes", "on-call")]
    # what the assistant confirms is the users' own words; what it did stays
    assert not [t for t in texts if t.startswith("Orbit got") or "doesn't drink" in t], texts
    assert any("Nopi" in t for t in texts), texts


def test_what_someone_owns_in_their_own_words():
    ex = extract(episode(("Priya", "I own the deploy pipeline myself until we hire someone."),
                         ("Priya", "Good. Aisha owns the auth gateway then, Jun stays as backup."),
                         ("Priya", "I'll own the release train from now on.")))
    owners = {(f.subject, f.object) for f in ex.facts if f.predicate == "owner is"}
    assert owners == {("deploy pipeline", "Priya"), ("auth gateway", "Aisha"), ("release train", "Priya")}


def test_a_move_at_work_is_no_move_of_house():
    ex = extract(episode(("Jun", "I'm handing the auth gateway over to Aisha next week, "
                                 "I'm moving to the identity project."),
                         ("Maya", "We're moving to a new flat in Leeds next month.")))
    triggers = {f.text.split()[0]: f.trigger for f in ex.foresights}
    assert "housing" not in triggers["Jun"] and "work" in triggers["Jun"], triggers
    assert "housing" in triggers["Maya"], triggers


def test_a_support_desks_customers_in_their_words():
    day = datetime(2026, 11, 15, 7, 50, tzinfo=timezone.utc)
    said = [("Chen Wei", "user", "The crackers are good. I'm also lactose intolerant."),
            ("Sam", "assistant", "I've escalated your complaint to my supervisor, Karen Diaz. She will email you."),
            ("Fay Morgan", "user", "Email, yes. Remember, no calls."),
            ("Ben Carter", "user", "I'd like to upgrade to Premium."),
            ("Sam", "assistant", "Done, I upgraded your subscription from Snack Box Basic to Snack Box Premium."),
            ("Ana Lima", "user", "And please write to me in Portuguese when you can, my English is so-so."),
            ("Sam", "assistant", "Claro, Ana! I'll answer in Portuguese whenever possible.")]
    ex = extract([turn(text, who, day + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    constraints = [f.text for f in ex.foresights if f.kind == "constraint"]
    assert "Chen Wei is lactose intolerant." in constraints, constraints  # ("also" hid it)
    # a rule said by the customer after the assistant named someone is the customer's own
    assert [t for t in constraints if "contacted" in t] == ["Fay Morgan prefers to be contacted another way, "
                                                           "not by phone."], constraints
    # what the assistant did, announced with "Done", stays
    assert any("upgraded" in f.text for f in ex.facts), [f.text for f in ex.facts]
    # how a customer is to be written to is no errand
    assert any("Portuguese" in f.text for f in ex.facts), [f.text for f in ex.facts]


def test_what_the_assistant_promises_for_a_day_is_its_plan():
    day = datetime(2026, 11, 2, 15, 6, tzinfo=timezone.utc)  # a Monday
    said = [("Ben", "user", "Do I need to return the broken one?"),
            ("Sam", "assistant", "No need, please recycle it. I'll follow up by Friday with the tracking number."),
            ("Sam", "assistant", "I'll keep that in mind for next time."),
            ("Sam", "assistant", "I'll look into it.")]
    ex = extract([turn(text, who, day + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    plans = [f.text for f in ex.foresights]
    assert plans == ["Sam will follow up by 2026-11-06 (Friday) with the tracking number."], plans


def test_a_customers_texted_errand_is_no_fact_and_a_carrier_no_person():
    day = datetime(2026, 11, 10, 22, 40, tzinfo=timezone.utc)
    said = [("Sam", "assistant", "Hi Eli, how can I help?"),
            ("eli", "user", "ugh ok. also can u upgrade my gamer pass to plus"),
            ("Sam", "assistant", "Order #A-10293 shipped this morning with DHL.")]
    ex = extract([turn(text, who, day + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    assert not [f.text for f in ex.facts if "gamer pass" in f.text.lower()], [f.text for f in ex.facts]
    assert {e.name: e.type for e in ex.entities}.get("DHL") == "organization", ex.entities
    # the errand done is the memory: the assistant saying so restates no fact of the user's
    done = [("eli", "user", "and cancel that gamer pass plus thing i dont use it"),
            ("Sam", "assistant", "Done, your Gamer Pass Plus subscription is cancelled as of today.")]
    ex = extract([turn(text, who, day + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(done)])
    assert [f.text for f in ex.facts if "cancelled" in f.text], [f.text for f in ex.facts]


def test_a_promise_told_back_as_broken_is_no_plan_and_its_day_is_gone():
    monday = datetime(2026, 11, 9, 10, 0, tzinfo=timezone.utc)
    ex = extract([turn("Hi Sam, it's Ben again. You said you'd follow up by Friday about the replacement but "
                       "I heard nothing.", "Ben", monday)])
    assert ex.foresights == [], ex.foresights  # (a deadline on the Friday after)
    assert any("2026-11-06 (Friday)" in f.text for f in ex.facts), [f.text for f in ex.facts]


def test_a_wish_asked_of_the_assistant_is_no_plan_to_remind_of():
    said = [("Sam", "assistant", "How can I help?"),
            ("Dina", "user", "I'd like to file a complaint about it, this is the second time."),
            ("Fay", "user", "I want to speak to a supervisor."),
            ("Maya", "user", "I want to visit Lisbon in May.")]
    ex = extract([turn(text, who, T0 + timedelta(minutes=i), i, role) for i, (who, role, text) in enumerate(said)])
    assert [f.text.split()[0] for f in ex.foresights] == ["Maya"], ex.foresights


def test_an_assistant_hailing_whom_it_speaks_to_is_no_fact():
    # Said on a Sunday: it was "Vita said on <next Sunday> check-in, Mei."
    sunday = datetime(2026, 11, 22, 9, 0, tzinfo=timezone.utc)
    ex = extract([turn("Sunday check-in, Mei! How was your week?", "Vita", sunday, 0, role="assistant"),
                  turn("Good, I trained three times.", "Mei", sunday + timedelta(minutes=5), 1),
                  turn("Your physio moved to Thursday, Mei.", "Vita", sunday + timedelta(minutes=6), 2,
                       role="assistant")])
    assert not [f.text for f in ex.facts if "check-in" in f.text], [f.text for f in ex.facts]
    assert [f for f in ex.facts if "physio" in f.text.lower()], [f.text for f in ex.facts]


def test_an_assistants_summary_after_a_colon_is_no_fact_though_it_names_a_month():
    day = datetime(2026, 10, 27, 10, 51, tzinfo=timezone.utc)
    ex = extract([turn("From November 1 my day rate goes up to €520.", "Lena", day, 0),
                  turn("Brightwave keeps the old rate of €450 though.", "Lena", day + timedelta(minutes=1), 1),
                  turn("Understood: €520 from November, Brightwave stays at €450.", "Ori",
                       day + timedelta(minutes=2), 2, role="assistant")])
    assert not [f.text for f in ex.facts if f.turn_ids == ["t2"]], [f.text for f in ex.facts]


def test_a_firm_named_by_its_trade_is_an_organisation():
    ex = extract([turn("Halden Architects want the brand guidelines, and Okafor Engineers the site plan.")])
    types = {e.name: e.type for e in ex.entities}
    assert types.get("Halden Architects") == "organization" and types.get("Okafor Engineers") == "organization", types


def test_a_venue_said_with_the_is_the_groups_and_one_booked_instead_after_it_fell_through_replaces_it():
    # Walk-through 56, left then: "Our venue is the Old Mill" was Maya's fact of her own, so
    # "the Old Mill fell through, so we booked Hartley Manor instead" had no venue to take over.
    ex = extract(episode(("Maya", "Our venue is the Old Mill in Hexham."),
                         ("Maya", "Bad news, the Old Mill fell through, so we booked Hartley Manor instead.")))
    assert [(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued] == [
        ("venue", "is", "Old Mill"), ("venue", "is", "Hartley Manor")]


def test_an_event_confirmed_for_a_day_then_moving_from_it_has_both_days():
    # Walk-through 61: "confirmed the kitchen fitting for Monday 7 December" and "the kitchen fitting
    # moves from 7 December to Monday 14 December" were "said" facts ("moves" was no move); "next
    # physio is 2 December" (walk-through 60) had no day of the physio.
    ex = extract(episode(("Owen", "Moss & Grain confirmed the kitchen fitting for Monday 10 June."),
                         ("Owen", "So the kitchen fitting moves from 10 June to Monday 17 June."),
                         ("Ines", "next physio is 2 July at 4pm.")))
    assert [(f.subject, f.object[5:]) for f in ex.facts if f.predicate == "date is"] == [
        ("kitchen fitting", "06-10"), ("kitchen fitting", "06-17"), ("physio", "07-02")]


def test_a_person_named_before_he_or_her_in_the_next_sentence_is_whom_they_are():
    # Walk-throughs 59, 60: "We interviewed Ravi Menon yesterday. He was sous at the Copper Pot" was
    # Piotr's (named a turn before; Ravi Menon a thing), and "Lou Marchetti is leaving Verdant. Her
    # last day is 30 November" Lena's.
    ex = extract(episode(("Nadia", "Funny thing, Lena's brother Piotr drives the van for Mill Lane."),
                         ("Nadia", "We interviewed Ravi Menon yesterday. "
                                   "He was sous at the Copper Pot for three years."),
                         ("Ines", "Lou Marchetti is leaving Verdant. Her last day is 30 November.")))
    said = {(f.subject, f.predicate) for f in ex.facts}
    assert ("Ravi Menon", "was") in said and ("Lou Marchetti", "last day is") in said, said
    assert entity(ex, "Ravi Menon").type == "person" and entity(ex, "Lou Marchetti").type == "person"


def test_a_number_said_instead_of_another_never_corrects_a_day_and_some_guests_are_no_ones_diet():
    # Walk-through 59: "now 42 guests instead of 30", after "her last day is 30 November", had made
    # "Lena's last day is 2026-11-42"; "8 of the guests are vegetarian" a constraint "Nadia is vegetarian".
    ex = extract(episode(("Nadia", "Lena is leaving. Her last day is 30 November."),
                         ("Nadia", "Ingrid's party is growing: now 42 guests instead of 30."),
                         ("Nadia", "Update: 8 of the guests are vegetarian.")))
    assert [f.object for f in ex.facts if f.predicate == "last day is"] == ["2023-11-30"]
    assert ("guest count", "is", "42 guests") in {(f.subject, f.predicate, f.object) for f in ex.facts}
    assert not [c.text for c in ex.foresights if "vegetarian" in c.text]


def test_an_agreements_end_is_one_day_at_a_time_and_a_firms_name_keeps_its_ampersand():
    # Walk-throughs 60, 61: "lease runs until 31 December", then "Lease now ends 28 February 2027"
    # (a "said" fact with its day stripped); "the retainer ends on 31 October" after a past clause
    # (2025's); "switched the kitchen to Moss & Grain" used "Moss".
    ex = extract(episode(("Priya", "Rent is £1,450 a month, lease runs until 31 December."),
                         ("Priya", "Lease now ends 28 February 2024."),
                         ("Ines", "Priya says the budget got cut and the retainer ends on 31 October."),
                         ("Priya", "We've switched the kitchen to Moss & Grain in Bristol.")))
    assert [(f.subject, f.object, f.valid_from.date() == T0.date()) for f in ex.facts
            if f.predicate == "end date is"] == [
        ("lease", "2023-12-31", True), ("lease", "2024-02-28", True), ("retainer", "2023-10-31", True)]
    assert ("kitchen", "uses", "Moss & Grain") in {(f.subject, f.predicate, f.object) for f in ex.facts}


@pytest.mark.parametrize("said, expected", [
    # Walk-through 61: a house rule told between people, with no assistant in the episode, was a
    # "said" fact only ("work" ended in no -s; "sanding, demolition or plastering" was no list)
    ("Important thing: Arjun's asthma. No dusty work at the house while he's home, so no sanding, "
     "demolition or plastering at weekends.",
     ["Priya set a rule: No dusty work at the house while he's home, so no sanding, demolition or plastering "
      "at weekends."]),
    ("Biscuit must be kept away from the site.", ["Priya set a rule: Biscuit must be kept away from the site."]),
    # Walk-throughs 74, 79, 75: a dog to be kept away or in, said otherwise than "must"; a doctor's
    # ban reported ("she" the doctor), each a "said" fact only
    ("Biscuit needs to be kept well away from the site once work starts",
     ["Priya set a rule: Biscuit needs to be kept well away from the site once work starts."]),
    ("She's got a spaniel called Biscuit, it has to be kept inside while we're working.",
     ["Priya set a rule: She's got a spaniel called Biscuit, it has to be kept inside while Priya is working."]),
    ("oh and she was very clear, no grapefruit or grapefruit juice at all because of the simvastatin",
     ["Priya set a rule: She was very clear, no grapefruit or grapefruit juice at all because of the "
      "simvastatin."]),
    ("Drove up yesterday, no traffic at all, lovely.", []),
    ("I was clear with him, no problem at all.", []),
    ("It has to be kept in the fridge.", []),
    ("No worries at all, no changes on my side.", []),
    ("No calls yet from the agency. We had no visitors at the weekend.", []),
    ("Tom can't come to the party on Saturday.", []),
])
def test_a_house_rule_told_between_people_is_a_constraint(said, expected):
    ex = extract([turn(said, speaker="Priya")])
    assert [c.text for c in ex.foresights if c.kind == "constraint"] == expected


def test_a_headline_of_a_noun_granted_is_no_plan_and_a_name_brought_in_as_a_post_is_a_person():
    # Walk-through 61: "Planning permission granted this morning!!" was "Lena is planning permission
    # granted", and a plan; "Farid Nasser as structural engineer" a place.
    ex = extract(episode(("Lena", "Planning permission granted this morning!!"),
                         ("Lena", "I brought in Farid Nasser as structural engineer, "
                                  "we worked together at Carver.")))
    assert not ex.foresights and not [f for f in ex.facts if f.predicate.startswith("is planning")]
    assert entity(ex, "Farid Nasser").type == "person"


def test_her_relative_said_after_a_person_is_that_persons():
    # Walk-through 60: "my editor there is Martha Kiel. her boss is Graham Otieno" was "Ines said
    # her boss is ...", so no one was Martha's boss.
    ex = extract(episode(("Ines", "Martha Kiel is my editor. Her boss is Graham Otieno.")))
    assert "Martha Kiel's boss is Graham Otieno." in [f.text for f in ex.facts]
    # ... said as the walk-through did ("Martha" a name we did not know, so Martha Kiel was a thing)
    ex = extract(episode(("Ines", "and my editor there is Martha Kiel. her boss is Graham Otieno, the publisher")))
    assert "Martha Kiel's boss is Graham Otieno, the publisher." in [f.text for f in ex.facts]
    # (not a man's: "Daniel ... her boss" is no one named)
    ex = extract(episode(("Ines", "I met Daniel Ferreira today. Her boss is Graham Otieno.")))
    assert not [f for f in ex.facts if f.subject.startswith("Daniel")]


def test_a_meeting_asked_of_the_assistant_on_a_day_a_short_reply_agrees_is_a_plan():
    # Walk-through 60: "can you book a call with Martha ...?", "What time suits you?", "thursday
    # 11am" was the fact "Ines said on 2026-12-03 (Thursday) 11am", and no plan. (T0: Monday 8 May.)
    ex = _asked(("Ines", "user", "can you book a call with Martha to go through the cover sketches? "
                                 "she's free Thursday or Friday"),
                ("assistant", "assistant", "Sure. What time suits you?"),
                ("Ines", "user", "thursday 11am"))
    assert "Ines has a call with Martha on 2023-05-11 (Thursday) at 11am." in [p.text for p in ex.foresights]
    # (a day said in the errand's own turn agrees nothing; nor does a question)
    ex = _asked(("Ines", "user", "can you set up a call with Priya? she suggested Friday the 12th"),
                ("assistant", "assistant", "Shall I suggest Thursday 11 May instead?"),
                ("Ines", "user", "thursday?"))
    assert not [p.text for p in ex.foresights if "has a call" in p.text]


def test_a_sesame_allergy_surfaces_for_what_sesame_hides_in():
    # Walk-through 59: a tahini dressing brought no one's sesame allergy ("hummus" was its only dish).
    [c] = extract([turn("Daniel Okafor is allergic to sesame.", speaker="Nadia")]).foresights
    assert {"tahini", "dressing", "halva"} <= set(c.trigger.split(", ")), c.trigger


def test_a_rule_of_keeping_someone_away_is_triggered_by_whom_and_where_only():
    # Re-run of walk-through 61: "..., full stop" gave the rule the trigger word "stop", which
    # brought it to "Why did they stop working with Marek Kowalski?".
    [c] = extract([turn("Biscuit must be kept away from the site, full stop.", speaker="Priya")]).foresights
    assert c.trigger.split(", ") == ["biscuit", "site"], c.trigger


def test_a_ban_on_a_food_surfaces_for_a_shop_and_a_pet_kept_away_by_its_name_and_place():
    # Walk-through 75: "no grapefruit ... at all" had no situation a breakfast shop could find.
    [c] = extract([turn("she was very clear, no grapefruit or grapefruit juice at all because of the "
                        "simvastatin", speaker="Luis")]).foresights
    assert {"groceries", "grapefruit"} <= set(c.trigger.split(", ")), c.trigger
    [c] = extract([turn("Biscuit needs to be kept well away from the site.", speaker="Jo")]).foresights
    assert c.trigger.split(", ") == ["biscuit", "site"], c.trigger


def test_a_day_that_will_not_be_kept_is_no_deadline():
    # Re-run of walk-through 61: "he won't finish by 18 December" was a deadline of that day, active
    # and first for "When will the renovation be finished?" beside the new completion date.
    ex = extract([turn("Dan says with the planning delay he won't finish by 18 December. "
                       "New completion date is 29 January", speaker="Owen")])
    assert [p.text for p in ex.foresights] == ["New completion date is on 2024-01-29 (29 January)."]


def test_the_tool_someone_does_everything_in_is_theirs_said_with_no_subject_too():
    # Re-run of walk-through 60: "Doing everything in Clip Studio Paint now" named neither Ines nor a
    # tool, and was not in the first 60 for "What software does Ines use now?".
    ex = extract(episode(("Ines", "For software I do everything in Photoshop."),
                         ("Ines", "I've stopped using Procreate. Doing everything in Clip Studio Paint now.")))
    assert [(f.object, f.text) for f in ex.facts if f.predicate == "main tool is"] == [
        ("Photoshop", "For software Ines does everything in Photoshop."),
        ("Clip Studio Paint", "Ines's main tool is Clip Studio Paint: Doing everything in Clip Studio Paint now.")]


def test_a_bare_nth_is_the_day_another_sentence_of_the_turn_names_with_its_month():
    # Walk-through 77: "... a coach free on the 24th. So Snowdonia is now Saturday 24 October", said
    # on 1 October, had put the coach on 24 September (the sentence alone, read in the past).
    ex = extract([turn("also we need to move Snowdonia, Hillside only had a coach free on the 24th. "
                       "So Snowdonia is now Saturday 24 October", "Lin", datetime(2026, 10, 1, 9, tzinfo=timezone.utc), 0)])
    said = " ".join(f.text for f in ex.facts)
    assert "2026-10-24 (on the 24th)" in said and "2026-09-24" not in said, said


def test_a_bare_nth_next_to_the_days_a_turn_names_is_of_their_month():
    # Walk-through 80: "it's 11-17 November. I'd fly out on the 10th and come back on the 18th", said
    # on 18 September, flew out on 10 October and came back the day it was said.
    ex = extract([turn("it's 11-17 November. I'd fly out on the 10th and come back on the 18th", "Karin",
                       datetime(2026, 9, 18, 9, tzinfo=timezone.utc), 0)])
    said = " ".join(f.text for f in ex.facts)
    assert "2026-11-10 (on the 10th)" in said and "2026-11-18 (on the 18th)" in said, said
    # (a day far from them keeps its own reading)
    ex = extract([turn("it's 11-17 November. The invoice is due on the 30th", "Karin",
                       datetime(2026, 9, 18, 9, tzinfo=timezone.utc), 0)])
    assert "2026-09-30" in " ".join(f.text for f in ex.facts)


@pytest.mark.parametrize("said, at, day", [
    # Walk-through 83: the asking or the calling off is past, the days are not (each was 2025's)
    ("the Fletchers asked to move their stay a week later, so 26 Sept to 3 Oct at Swallow",
     datetime(2026, 9, 17, 9, tzinfo=timezone.utc), "2026-09-26"),
    ("a Mr Ellis asked if he can bring 2 dogs to Heron 27 Nov - 4 Dec", datetime(2026, 11, 9, 9, tzinfo=timezone.utc),
     "2026-11-27"),
    ("The Barretts have cancelled their Heron booking, 2-9 October", datetime(2026, 9, 24, 9, tzinfo=timezone.utc),
     "2026-10-02"),
    # ... and what is wanted done by a day lies ahead ("updated": January gone by)
    ("they want the photos updated before January", datetime(2026, 11, 18, 9, tzinfo=timezone.utc), "January 2027"),
    # (a day asked after far from now is one gone by; a month called off just ahead is that one)
    ("She asked to see the invoice from 3 March", datetime(2026, 11, 18, 9, tzinfo=timezone.utc), "2026-03-03"),
    ("They cancelled their booking for October", datetime(2026, 9, 24, 9, tzinfo=timezone.utc), "October 2026"),
])
def test_a_day_asked_for_called_off_or_wanted_by_is_the_nearest_or_ahead(said, at, day):
    ex = extract([turn(said, "Rhys", at, 0)])
    assert day in " ".join(f.text for f in ex.facts), [f.text for f in ex.facts]


def test_a_diet_said_as_ones_own_from_now_on_is_a_constraint_and_a_dog_allergy_found_by_a_labrador():
    # Walk-through 80: "completely gluten free from now on, no exceptions, even crumbs" was a "said"
    # fact; walk-through 83: "Can the Hendersons bring their labrador?" found no one's dog allergy.
    for said in ("completely gluten free from now on, no exceptions, even crumbs",
                 "the dietitian says strictly gluten free"):
        assert [c.text for c in extract([turn(said, speaker="Karin")]).foresights] == ["Karin eats gluten-free."], said
    assert not extract([turn("gluten free bread is expensive, even at Lidl", speaker="Karin")]).foresights
    [c] = extract([turn("Mrs Okafor has a severe dog allergy", speaker="Rhys")]).foresights
    assert {"labrador", "bringing a dog"} <= set(c.trigger.split(", ")), c.trigger


def test_a_booking_called_off_plans_nothing():
    # Re-run of walk-through 83: "The Barretts have cancelled their Heron booking, 2-9 October", its
    # days read ahead, became a plan of those days.
    ex = extract([turn("The Barretts have cancelled their Heron booking, 2-9 October", "Rhys",
                       datetime(2026, 9, 24, 9, tzinfo=timezone.utc), 0)])
    assert not ex.foresights and ex.foresight_ends


def test_a_womans_or_mans_name_is_a_given_name_and_she_is_the_one_just_introduced():
    # Walk-through 92: "Grace Okafor" was a thing (her name only in the list of women's names), and
    # "she works at Riverside Physio" was Leila's.
    ex = extract([turn("my sister Leila recommended a physio, Grace Okafor. she works at Riverside Physio on Mill Lane",
                       speaker="Nadia")])
    assert entity(ex, "Grace Okafor").type == "person"
    assert [f.subject for f in ex.facts if f.predicate == "works at"] == ["Grace Okafor"]


def test_your_among_two_users_and_an_assistant_is_the_other_users():
    # Walk-through 92: "Ollie is bumping your weekly mileage" kept "your", whose no one knew.
    ex = extract([turn("hi Stride, Ollie is my coach", speaker="Nadia", i=0),
                  turn("Hi both!", speaker="Stride", i=1, role="assistant"),
                  turn("I'm bumping your weekly mileage to 55 km", speaker="Ollie", i=2)])
    assert any("Nadia's weekly mileage" in f.text for f in ex.facts), [f.text for f in ex.facts]
    # ... but the assistant's, when the turn calls it by name (third run of 94: "Beth wants Beth to keep track")
    ex = extract([turn("hi Stride, Ollie is my coach", speaker="Nadia", i=0),
                  turn("Hi both!", speaker="Stride", i=1, role="assistant"),
                  turn("Morning Stride. Nadia and I want you to keep track of her training", speaker="Ollie", i=2)])
    assert not any("want Nadia to keep track" in f.text for f in ex.facts), [f.text for f in ex.facts]
    # ... and no one's in a saying (third run of 95: "at breakfast mind Ann", "just so Ollie knows")
    ex = extract([turn("hi Stride, Ollie is my coach", speaker="Nadia", i=0),
                  turn("Hi both!", speaker="Stride", i=1, role="assistant"),
                  turn("I'm allergic to penicillin, just so you know", speaker="Nadia", i=2),
                  turn("she does miss her chocolate at breakfast mind you", speaker="Ollie", i=3)])
    assert not [f.text for f in ex.facts if "so Ollie" in f.text or "mind Nadia" in f.text], [f.text for f in ex.facts]


def test_a_new_holder_of_a_role_said_without_my_or_with_where_they_are_is_the_speakers():
    # Walk-throughs 96, 98, 99: "My rep at Edmundson's is Dave Morgan" made no fact, "new rep is Sian Griffiths"
    # and "The new carer is Precious" only "said" ones (the old holder stayed current); "Megan's the new sharer"
    # had the subject "Megan's the".
    ex = extract(episode(("Gareth", "My rep at Edmundson's is Dave Morgan"),
                         ("Gareth", "Dave from Edmundson's has left. new rep is Sian Griffiths"),
                         ("Margaret", "The new carer is Precious."),
                         ("Hannah", "So Megan's the new sharer from this week")))
    facts = {(f.subject, f.predicate, f.object) for f in ex.facts}
    assert {("Gareth", "rep is", "Dave Morgan"), ("Gareth", "rep is", "Sian Griffiths"),
            ("Margaret", "carer is", "Precious")} <= facts, facts
    assert ("Megan", "is", "the new sharer") in facts, facts
    assert {e.name: e.type for e in ex.entities}["Precious"] == "person"


def test_a_reverend_is_a_person_and_a_bank_an_organisation():
    # Walk-through 99: "Reverend Paul Whitby" was a thing, Barclays and NS&I people.
    ex = extract(episode(("Daniel", "The vicar is Reverend Paul Whitby, he's lovely."),
                         ("Daniel", "I rang Barclays and Nationwide today. Anita says NS&I will pay them out.")))
    types = {e.name: e.type for e in ex.entities}
    assert types["Reverend Paul Whitby"] == "person", types
    assert types["Barclays"] == types["Nationwide"] == types["NS&I"] == "organization", types


def test_a_list_the_assistant_draws_up_under_a_label_is_no_fact():
    # Second run of walk-through 97: "Nursery bag for Finn: nappies and wipes, ..." (the assistant's) was a fact
    # of no one's, the top hit for the nursery's address.
    ex = extract([turn("Can you write a list of what Finn needs in his nursery bag?", "Claire", T0, 0),
                  turn("Nursery bag for Finn: nappies and wipes, two changes of clothes, his comforter, and a labelled "
                       "bag for dirty clothes.", "Nest", T0 + timedelta(minutes=1), 1, role="assistant")])
    assert not [f.text for f in ex.facts if "nappies" in f.text], [f.text for f in ex.facts]


def test_a_sentence_that_only_announces_news_is_no_fact():
    # Walk-through 99: "More news on the house." was the fact that ranked first for "What's the house valued at
    # now?", the value only in its turn.
    ex = extract(episode(("Daniel", "More news on the house. Anita asked for a full RICS report, and the new figure "
                                    "is £472,500."),
                         ("Margaret", "Bit of a change with the carer. The new carer is Precious.")))
    texts = [f.text for f in ex.facts]
    # (no fact of its own: the next sentence's fact carries its words, session 64: "More news on the house: ...")
    assert not [t for t in texts if t.rstrip(".") in ("More news on the house", "Bit of a change with the carer")
                or "£472,500" not in t and "news on" in t], texts
    assert [t for t in texts if "£472,500" in t] and [t for t in texts if "Precious" in t], texts


def test_a_nursery_named_in_full_and_by_its_first_words_is_one_organisation():
    # Walk-through 97: "Little Acorns Nursery" and "Little Acorns" were two places.
    ex = extract(episode(("Claire", "Isla goes to Little Acorns Nursery on Mondays."),
                         ("Rob", "Letter from Little Acorns today about fees")))
    ents = {e.name: (e.type, e.aliases) for e in ex.entities}
    assert ents["Little Acorns Nursery"] == ("organization", ["Little Acorns"]), ents
