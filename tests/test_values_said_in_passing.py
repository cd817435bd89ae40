"""Values, rules and days said in passing, as a bakery, a game studio and an allotment committee
said them to their assistant (session 50's walk-throughs): each had been a "said" fact, so the
value before it stayed current. Read by the local extractor."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from app.construction.dates import find_dates
from app.construction.local import LocalExtractor
from app.construction.local.inline_dates import tense_at, tense_of
from app.domain.models import Extraction, TurnRecord

SEP = datetime(2026, 9, 7, 18, 0, tzinfo=timezone.utc)  # a Monday


def extract(*rows: tuple[str, str], start: datetime = SEP) -> Extraction:
    turns = [TurnRecord(id=f"t{i}", conversation_id="c", speaker=who,
                        user_id=None if who == "Sprout" else who.lower(),
                        role="assistant" if who == "Sprout" else "user", content=text,
                        at=start + timedelta(minutes=i), seq=i) for i, (who, text) in enumerate(rows)]
    return LocalExtractor().extract_sync(turns)


def values(ex: Extraction) -> list[tuple[str, str, str]]:
    return [(f.subject, f.predicate, f.object) for f in ex.facts if f.single_valued]


def test_a_price_said_beside_its_supplier_then_changed_in_few_words_is_one_timeline():
    ex = extract(("Kofi", "and butter is from Pennine Dairy, £4.10 a block"),
                 ("Hannah", "Flour from Marriage's is £18.50 a sack."),
                 ("Hannah", "card fee's dropping to 1.4% from November"),
                 ("Hannah", "SumUp have cut the fee again, to 1.29%"))
    said = values(ex)
    assert ("butter", "is", "£4.10") in said and ("butter supplier", "is", "Pennine Dairy") in said
    # the supplier told without the price, which would keep the old price's words current
    assert [f.text for f in ex.facts[:2]] == ["Kofi said butter is from Pennine Dairy.",
                                              "Butter is £4.10 a block."]
    assert ("flour", "is", "£18.50") in said and ("flour supplier", "is", "Marriage's") in said
    assert ("card fee", "is", "1.4%") in said and ("fee", "is", "1.29%") in said


def test_counts_said_with_now_at_or_first_are_one_count_each():
    ex = extract(("Ines", "wishlists are at 1,240 right now"), ("Ines", "wishlists now 2,650"),
                 ("Ines", "wishlists at 3,480!!"), ("Ines", "47 bugs logged so far"),
                 ("Ines", "bug count is down to 31 open"), ("Ines", "bug count down to 12"),
                 ("Dev", "waiting list is at 23 people at the moment"),
                 ("Dev", "the local paper did a piece on us and the waiting list jumped to 26!"),
                 ("Ines", "dinner at 7 tonight"))
    said = values(ex)
    assert [v for s, _, v in said if s == "wishlists"] == ["1,240", "2,650", "3,480"]
    assert [v for s, _, v in said if s == "bug count"] == ["47", "31", "12"]
    assert [v for s, _, v in said if s == "waiting list"] == ["23 people", "26"]
    assert not [s for s, _, _ in said if "dinner" in s]  # a time of day, no count


def test_a_project_upgraded_to_a_version_is_the_projects_one_version():
    ex = extract(("Ines", "we're on Godot 4.3, release target is March 12 2027 on Steam."),
                 ("Ines", "I upgraded the project to Godot 4.4"),
                 ("Ines", "also upgraded to Godot 4.5 yesterday, the water flicker is finally fixed"))
    assert [v for s, p, v in values(ex) if p == "is" and s == "version"] == ["Godot 4.3", "Godot 4.4", "Godot 4.5"]


def test_opening_hours_either_way_round_and_days_shut_are_no_dates():
    ex = extract(("Hannah", "Opening hours for now are Tuesday to Saturday 7:30am to 3pm, closed Sunday and "
                            "Monday."),
                 ("Hannah", "New hours from Monday 19 October: open 7am to 4pm, Tuesday to Saturday."))
    assert [(s, v) for s, _, v in values(ex) if s.endswith("opening hours")] == [
        ("tuesday to saturday opening hours", "7:30am to 3pm"), ("tuesday to saturday opening hours", "7am to 4pm")]
    assert date(2026, 9, 8) not in {f.event_date for f in ex.facts}  # "Tuesday" is no Tuesday
    assert ex.facts[-1].valid_from.date() == date(2026, 10, 19)  # the new hours from the day they begin
    assert "2026-09-06" not in ex.facts[0].text and "Sunday and Monday" in ex.facts[0].text


def test_a_deadline_extended_a_show_moved_and_a_post_voted_in_are_new_values():
    ex = extract(("Margaret", "The autumn show is on Saturday 26 September at the village hall."),
                 ("Margaret", "Bad news, the village hall is double booked. The autumn show moves to Saturday "
                              "3 October."),
                 ("Dev", "Good news: the council extended the grant deadline to 13 November"),
                 ("Margaret", "And our treasurer is Brian Cole, he's done it since 2019."),
                 ("Margaret", "Committee meeting last night: Aisha Rahman was voted in as treasurer, "
                              "starting today."))
    said = values(ex)
    assert [v for s, p, v in said if s == "autumn show"] == ["2026-09-26", "2026-10-03"]
    assert ("grant deadline", "is", "2026-11-13") in said
    assert [v for s, _, v in said if s == "treasurer"] == ["Brian Cole", "Aisha Rahman"]


def test_a_day_agreed_as_x_it_is_or_corrected_as_he_said_moves_the_plan_before():
    ex = extract(("Dev", "Next committee meeting is Thursday 3 December at the pavilion, 7pm"),
                 ("Margaret", "I can't do the 3rd, can we make it Tuesday 8 December?"),
                 ("Dev", "ok, Tuesday 8 December it is"), start=datetime(2026, 11, 20, 10, tzinfo=timezone.utc))
    assert [v for s, _, v in values(ex) if s == "committee meeting"] == ["2026-12-03", "2026-12-08"]
    assert any(e.day == "2026-12-03" for e in ex.foresight_ends)
    ex = extract(("Kofi", "Gareth is coming back on Monday 23 November at 9am"),
                 ("Hannah", "sorry no, he said Tuesday 24th, Monday he's in Bradford"),
                 start=datetime(2026, 11, 16, 10, tzinfo=timezone.utc))
    [plan] = [f for f in ex.foresights if "Gareth" in f.text]
    assert "2026-11-24" in plan.text and plan.valid_to.date() == date(2026, 11, 25)
    assert [(e.day, "gareth" in e.words) for e in ex.foresight_ends] == [("2026-11-23", True)]


def test_a_weekday_with_its_ordinal_is_that_day_of_the_month_it_falls_in():
    [d] = find_dates("he said Tuesday 24th", date(2026, 11, 16))
    assert d.start == date(2026, 11, 24)
    [d] = find_dates("first playtest is this saturday the 19th, 8 testers", date(2026, 9, 14))
    assert (d.start, d.phrase) == (date(2026, 9, 19), "this saturday the 19th")


def test_a_state_due_by_a_day_and_a_day_moved_to_after_a_past_clause_are_ahead():
    assert tense_of("yes, demo build locked by Oct 12") == "future"
    assert tense_of("we locked it by Oct 12") == "past"
    s = "was supposed to be this saturday (oct 10) but we moved it to oct 24"
    assert tense_at(s)(s.index("oct 24")) == "future"
    assert tense_of("playtest 2 done (saturday)") == "past"


def test_rules_allowed_only_then_or_nothing_before_a_sign_off_and_no_exceptions_is_none():
    ex = extract(("Margaret", "Bonfires are only allowed on Sundays before 10am."),
                 ("Sprout", "Noted!"),
                 ("Ines", "also important rule: nothing gets announced publicly before Brightmoss signs off. "
                          "no exceptions, its in the contract"))
    rules = {f.text: f.trigger for f in ex.foresights if f.kind == "constraint"}
    assert "Margaret set a rule: Bonfires are only allowed on Sundays before 10am." in rules
    assert "Ines set a rule: Nothing gets announced publicly before Brightmoss signs off." in rules
    assert not any("exceptions" in t for t in rules)
    # found by what a rule is about, though the question shares none of its words
    assert "burning" in rules["Margaret set a rule: Bonfires are only allowed on Sundays before 10am."]
    assert "trailer" in rules["Ines set a rule: Nothing gets announced publicly before Brightmoss signs off."]


def test_he_is_the_one_who_speaks_in_the_group_when_named_and_never_the_speaker():
    ex = extract(("Ines", "Publisher is Brightmoss Publishing, my contact there is Daniel Reyes."),
                 ("Ines", "Tomasz does the art part time, he's in this chat too. he lives in Kraków"),
                 ("Tomasz", "hi all"))
    assert [(f.subject, f.object) for f in ex.facts if f.predicate == "lives in"] == [("Tomasz", "Kraków")]


def test_whose_things_are_said_after_are_is_no_name_with_an_s():
    ex = extract(("Yusuf", "the hives are Len Ford's, he's our beekeeper."))
    assert "Len Ford" in {e.name for e in ex.entities} and "Len Ford's" not in {e.name for e in ex.entities}


def test_it_or_the_new_date_after_a_sentence_naming_the_thing_is_that_things_value():
    ex = extract(("Hannah", "Our flour comes from Millbrook Mills, £18.50 a sack (16kg)"),
                 ("Hannah", "Ugh and Millbrook just put flour up. It's £19.80 a sack now"),
                 ("Ines", "we're on Godot 4.3, release target is March 12 2027 on Steam."),
                 ("Ines", "Brightmoss wants the release moved. new date is April 23 2027"),
                 ("Ines", "Priya says Brightmoss wants to push the release again. May 28 2027 now, something "
                          "about their Q2 slate"),
                 ("Ines", "The party went well. It's £5 entry next time"))  # no price put up before
    said = values(ex)
    assert [v for s, _, v in said if s == "flour"] == ["£18.50", "£19.80"]
    assert [v for s, p, v in said if (s, p) == ("release", "date is")] == ["2027-03-12", "2027-04-23", "2027-05-28"]
    assert not [s for s, _, _ in said if s in ("party", "entry")]


def test_us_after_she_or_we_after_says_is_not_her():
    ex = extract(("Hannah", "Lucy loved the christening cake, she's left us a review"),
                 ("Ines", "Priya says we're in Steam Next Fest with the demo"),
                 ("Ines", "Priya and I think we're ready"))
    assert "Hannah and Lucy" not in ex.facts[0].text
    assert "Ines and Priya are in" not in ex.facts[1].text
    assert "Ines and Priya are ready" in ex.facts[2].text  # (with her, "we" is both)


def test_a_rotas_days_said_per_person_or_as_a_list_are_each_persons_one_value():
    ex = extract(("Dev", "Water rota for the troughs: Yusuf does Tuesdays, Gwen does Thursdays, Colin does "
                         "Saturdays."),
                 ("Dev", "fine, Yusuf is on Wednesdays from now on"),
                 ("Dev", "right so the water rota is now: Yusuf Saturdays, Gwen Wednesdays, Colin Sundays"))
    rota = [(s, v) for s, p, v in values(ex) if p == "rota days is"]
    assert [v for s, v in rota if s == "Yusuf"] == ["Tuesdays", "Wednesdays", "Saturdays"]
    assert [v for s, v in rota if s == "Gwen"] == ["Thursdays", "Wednesdays"]


def test_a_shops_weekday_post_is_no_day_and_he_taking_it_over_is_its_new_holder():
    ex = extract(("Hannah", "Staff stuff. Megan Doyle is our Saturday assistant, she does the counter 8 till 3"),
                 ("Hannah", "We interviewed Tom Briggs this week and he's taking over as Saturday assistant, "
                            "starting Saturday 3 October"))
    assert [v for s, _, v in values(ex) if s == "saturday assistant"] == ["Megan Doyle", "Tom Briggs"]
    assert "2026-09-12" not in ex.facts[0].text  # "our Saturday assistant" is no Saturday


def test_a_numbered_plots_holder_from_a_list_a_hand_over_or_a_taking_is_one_at_a_time():
    ex = extract(("Dev", "Plot list for reference: plot 7 is Irene Walsh, plot 9 is Gwen Price."),
                 ("Margaret", "Plot 7 goes to the first person on the waiting list, Tomasz Nowak."),
                 ("Dev", "Hannah Lee from the waiting list is taking plot 7."))
    assert [v for s, _, v in values(ex) if s == "plot 7 holder"] == ["Irene Walsh", "Tomasz Nowak", "Hannah Lee"]
    assert ("plot 9 holder", "is", "Gwen Price") in values(ex)
    # each plot's fact names its holder only, not every name of the list
    assert [sorted(n for n, _ in f.entities) for f in ex.facts[:2]] == [["Irene Walsh"], ["Gwen Price"]]
    ex = extract(("Hannah", "Jess Taylor is our baker, she works Tuesday to Saturday on the early shift"))
    assert ex.facts[-1].text == "Jess Taylor works Tuesday to Saturday on the early shift."


def test_days_in_brackets_moved_for_a_reason_or_waited_for_and_a_meeting_tonight_gone_by():
    ex = extract(("Ines", "the second playtest was supposed to be this saturday (oct 10) but we moved it to "
                          "oct 24, demo build wasnt stable"),
                 ("Dev", "orchard pruning half done, Len says the rest waits till february"),
                 ("Margaret", "The AGM tonight voted the annual fee up to £55, not £52."),
                 start=datetime(2026, 10, 12, 20, tzinfo=timezone.utc))
    days = {f.event_date for f in ex.facts}
    assert {date(2026, 10, 10), date(2027, 2, 1)} <= days and date(2026, 10, 17) not in days
    assert "2026-10-24" in ex.facts[0].text
    assert ("annual fee", "is", "£55") in values(ex)
    assert not [f for f in ex.foresights if "AGM" in f.text]  # over: no plan of it
    ex = extract(("Yusuf", "the hives are Len Ford's, he's our beekeeper."),
                 ("Yusuf", "Len wrapped the hives today."))
    assert {e.name: e.type for e in ex.entities}.get("Len Ford") == "person"
    assert ex.facts[-1].subject == "Len Ford"


def test_my_contact_there_after_the_firm_in_the_sentence_is_my_contact_at_it():
    ex = extract(("Ines", "publisher is Brightmoss Publishing, my contact there is Daniel Reyes"))
    assert ("Ines", "contact at Brightmoss Publishing is", "Daniel Reyes") in values(ex)
