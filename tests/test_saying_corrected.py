"""A number told in someone's words (a `said` fact, on no timeline) and corrected sessions later
("start at 8 instead of 8:30"): the saying ends where the correction begins. From walk-throughs
105 and 107 of session 59, where both stayed current and the old saying ranked first."""
from __future__ import annotations

from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import DAY1, extracted, tell_days


async def _said(graph, number: str) -> list[tuple[str, str]]:
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS $n "
                            "RETURN f.text AS text, f.status AS status ORDER BY f.validFrom", n=number)
    return [(r["text"], r["status"]) for r in rows]


async def test_a_time_told_in_someones_words_is_ended_by_its_correction(services, graph):
    await tell_days(services, graph, [
        (0, "Priya", "Basics first: home games are Saturday mornings, kick off 10:30 at Lansbury Rec"),
        (0, "Hannah", "Gareth also said his lads will arrive at 8:30 each morning"),
        (0, "Hannah", "the skip is booked for 10:30 on Friday"),
        (21, "Priya", "league says from 1 November home games kick off at 10am not 10:30, because of the light"),
        (22, "Hannah", "Gareth's asked if his lads can start at 8 instead of 8:30 from now on, I said yes")],
        group="club")
    old = dict(await _said(graph, "10:30"))
    assert old["Priya said home games are Saturday mornings, kick off 10:30 at Lansbury Rec."] == "superseded", old
    # (another saying of 10:30 that shares none of the correction's words stays)
    assert [s for t, s in old.items() if "skip" in t] == ["current"], old
    assert [s for t, s in await _said(graph, "8:30") if "arrive" in t] == ["superseded"]
    ended = await graph.read(
        "MATCH (o:Fact {tenant: $tenant})-[:SUPERSEDED_BY]->(n:Fact {tenant: $tenant}) "
        "WHERE o.text CONTAINS 'Lansbury' RETURN n.text AS text, o.validTo = n.validFrom AS meets")
    assert [(r["text"].count("10am"), r["meets"]) for r in ended] == [(1, True)], ended
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="What time do home games kick off?", method=Method.HYBRID, top_k=5, group_id="club"),
        record_access=False)
    texts = [h.node.get("text", "") for h in res.hits if h.kind == "fact"]
    assert texts and "10am" in texts[0], texts


async def test_a_correction_sharing_one_word_with_a_saying_leaves_it(services, graph):
    # "Mia said 4 of us are going" holds a 4; "subs are £5 not 4" shares no more than a number with it
    await tell_days(services, graph, [
        (0, "Mia", "Tom said 4 of us are going to the quiz night"),
        (3, "Mia", "sorry the subs are 5 not 4 this term")], group="quiz")
    assert [s for _, s in await _said(graph, "quiz night")] == ["current"]


def test_a_time_corrected_with_its_half_of_the_day_keeps_it():
    # "kick off at 10am not 10:30" had made the value "kick off 10 at Lansbury Rec"
    ex = extracted([("Priya", "home games kick off 10:30 at Lansbury Rec"),
                    ("Priya", "sorry, kick off at 10am not 10:30")], DAY1)
    assert [f.text for f in ex.facts if "kick off" in f.text][-1].count("kick off 10am at Lansbury Rec") == 1


async def test_a_value_said_with_the_number_it_replaces_ends_the_saying_of_it(services, graph):
    # Walk-through 107: "order 15 boxes not 12" made the box count 15; "Showroom said 12 boxes for
    # the splashback" stayed current and ranked first.
    await tell_days(services, graph, [
        (0, "Hannah", "showroom said 12 boxes for the splashback and the bit behind the range"),
        (28, "Hannah", "I went back to the tile showroom, they said order 15 boxes not 12, for wastage")],
        group="kitchen")
    assert [s for t, s in await _said(graph, "12 boxes")] == ["superseded"]
    assert [(r["v"], r["s"]) for r in await graph.read(
        "MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued RETURN f.object AS v, f.status AS s")] == [
        ("15", "current")]


async def test_a_fact_of_no_value_holding_the_old_sum_ends_and_one_sharing_only_its_unit_stays(services, graph):
    # Walk-through 108: "it's £24 a month now instead of £30" left "broadband is separate, £30 a month"
    # the answer.
    await tell_days(services, graph, [
        (0, "Hannah", "nope, broadband is separate, £30 a month, we split it"),
        (0, "Hannah", "I pay £30 a month for the gym"),
        (29, "Hannah", "also I switched us to Zen broadband, it's £24 a month now instead of £30, starts Tuesday")],
        group="flat")
    said = await _said(graph, "£30")
    assert [s for t, s in said if "separate" in t] == ["superseded"], said
    assert [s for t, s in said if "gym" in t] == ["current"], said


async def test_a_saying_ended_by_a_correction_holds_again_when_the_correction_is_forgotten(services, graph):
    from app.lifecycle.forget import ForgetSelection, forget
    await tell_days(services, graph, [
        (0, "Hannah", "Gareth also said his lads will arrive at 8:30 each morning"),
        (22, "Hannah", "Gareth's asked if his lads can start at 8 instead of 8:30 from now on, I said yes")],
        group="kitchen")
    assert [s for t, s in await _said(graph, "arrive at 8:30")] == ["superseded"]
    await forget(graph, ForgetSelection(conversation_id="c22"))
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS 'arrive at 8:30' "
                            "RETURN f.status AS s, f.validTo AS to, EXISTS { (f)-[:SUPERSEDED_BY]->() } AS ended")
    assert [(r["s"], r["to"], r["ended"]) for r in rows] == [("current", None, False)]


def test_a_times_minutes_said_just_before_are_no_old_number_of_the_episode():
    # Walk-through 108's re-run: "I'm on 1pm to 9:30pm" just before "it's £24 a month now instead of £30" was read as
    # the 30 said in the episode, so the writer never looked for the broadband's £30.
    ex = extracted([("Chloe", "so I'm on 1pm to 9:30pm Tuesday to Friday from this week"),
                    ("Hannah", "also I switched us to Zen broadband, it's £24 a month now instead of £30")], DAY1)
    assert [f.corrects for f in ex.facts if "Zen" in f.text] == [("30", "24")]


async def test_the_name_a_correction_is_said_of_is_a_word_it_shares_not_its_speakers(services, graph):
    # The correction's subject had been left out of its words as if it were its speaker's name: "Gareth wants his
    # lads to start at 8 instead of 8:30" then shared only "lads" with "Gareth also said his lads will arrive at 8:30".
    await tell_days(services, graph, [
        (0, "Hannah", "Gareth also said his lads will arrive at 8:30 each morning"),
        (14, "Hannah", "Gareth wants his lads to start at 8 instead of 8:30 from now on")], group="kitchen")
    assert [s for t, s in await _said(graph, "arrive at 8:30")] == ["superseded"]


def test_a_value_corrected_at_once_says_again_the_words_just_before_that_held_the_old_number():
    # Walk-through 112: "£285 in total, deposit of £40 due by 20 November" "sorry, deposit is £45 not £40" made the
    # deposit £45, and the saying of £40 (and its deadline) stayed, first for "how much is the deposit?".
    ex = extracted([("Claire", "£285 in total, deposit of £40 due by 20 November, rest in instalments"),
                    ("Claire", "sorry, deposit is £45 not £40, just reread it")], DAY1)
    held = [(f.text, f.valid_to) for f in ex.facts if "deposit of" in f.text]
    assert [(t.count("£40"), t.count("£45"), to is None) for t, to in held] == [(1, 0, False), (0, 1, True)], held
    assert [f.object for f in ex.facts if f.single_valued] == ["£45"]
    assert [p.text.count("£45") for p in ex.foresights if "deposit" in p.text] == [1]


def test_a_share_made_another_is_said_again_and_no_sum_of_the_value_before():
    # Walk-through 116: "let's make it 25% of everything from now on, not 20" had made the day rate said before
    # "£25", and the 20% set aside stayed
    ex = extracted([("Dan", "also from every payment that comes in we put 20% aside for tax, into the Marcus account"),
                    ("Lena", "yes, I'm raising my day rate to £340 from 1 November"),
                    ("Dan", "money talk: with the new rate coming we should put aside more. let's make it 25% of "
                            "everything from now on, not 20")], DAY1)
    assert not [f for f in ex.facts if "£25" in f.text]
    aside = [(f.text.count("20%"), f.text.count("25%"), f.valid_to is None) for f in ex.facts if "aside for tax" in f.text]
    assert aside == [(1, 0, False), (0, 1, True)], aside


async def test_a_sum_of_three_digits_corrected_ends_a_saying_sharing_one_word_with_it(services, graph):
    # Walk-through 112: "the total is £260 now, not £285" shared only "total" with "£285 in total, deposit of £45
    # due by 20 November", which stayed current; a saying of a sum of two digits still needs two words.
    await tell_days(services, graph, [
        (0, "Claire", "£285 in total, deposit of £45 due by 20 November, rest in instalments"),
        (0, "Claire", "the taxi was £28 in total"),
        (30, "Claire", "the school says the PTA is subsidising the trip, so the total is £260 now, not £285"),
        (31, "Claire", "sorry the total is £30 not £28")], group="kids")
    assert [s for _, s in await _said(graph, "deposit of £45")] == ["superseded"]
    assert [s for _, s in await _said(graph, "taxi")] == ["current"]


async def test_a_time_off_the_hour_corrected_ends_a_saying_sharing_one_word_with_it(services, graph):
    # Walk-through 115: "pickup is now 7:45 not 8:15" shared only "pickup" with "Pickup 8:15 on Friday 15th January,
    # they'll take us to the Mayflower terminal", which stayed current; one of half past needs two words still.
    await tell_days(services, graph, [
        (0, "Maggie", "Pickup 8:15 on Friday 15th January, they'll take us to the Mayflower terminal"),
        (0, "Maggie", "Dave said the airport run leaves at 10:30"),
        (15, "Maggie", "Solent Cars said they'd rather leave earlier for the traffic, so pickup is now 7:45 not 8:15"),
        (16, "Maggie", "sorry the run is at 11:00 not 10:30")], group="cruise")
    assert [s for _, s in await _said(graph, "Mayflower")] == ["superseded"]
    assert [s for _, s in await _said(graph, "airport run")] == ["current"]


async def test_a_saying_ended_in_its_episode_keeps_its_end_when_a_later_correction_closes_its_sequel(services, graph):
    # Walk-through 112's re-run: the £40 saying, ended by "sorry, deposit is £45 not £40" the same evening, was ended
    # again by "the total is £260 now, not £285" a month later, and so was current, first, as of a day between.
    await tell_days(services, graph, [
        (0, "Claire", "£285 in total, deposit of £40 due by 20 November, rest in instalments"),
        (0, "Claire", "sorry, deposit is £45 not £40, just reread it"),
        (30, "Claire", "the school says the PTA is subsidising the trip, so the total is £260 now, not £285")],
        group="kids")
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS 'deposit of' "
                            "RETURN f.text AS t, f.validTo AS to, f.validFrom AS since")
    ends = {("£40" in r["t"]): (r["to"].to_native() - r["since"].to_native()).days for r in rows}
    assert ends == {True: 0, False: 30}, rows
