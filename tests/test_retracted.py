"""A value taken back at once is retracted, not superseded (construction/local/slips.py): walk-through
103's "she's dropped my Tresiba to 15 units from tonight", then "no wait, 16." The 15 was never the
dose: stored `retracted`, on no timeline (the 16 replaces the 18), never the value held before, and
its turn never the answer nor the later value of one. The local extractor, then the real Neo4j."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.api.types import Fact
from app.construction.ingest import Ingestor
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import extracted

OCT = datetime(2026, 10, 1, 21, tzinfo=timezone.utc)

DOSES = [(0, "Callum", "I'm on Tresiba, 18 units every night at 10pm"),
         (2, "Callum", "nurse rang. she's dropped my Tresiba to 15 units from tonight"),
         (2, "Callum", "no wait, 16. 15 is what she said we might go to next if the lows continue. 16 units from tonight")]


def _doses(ex) -> list[tuple[str, bool]]:
    return [(f.object, f.retracted) for f in ex.facts if f.predicate == "tresiba dose is"]


def test_a_value_taken_back_by_a_correction_is_retracted_and_the_one_before_it_is_not():
    ex = extracted([(who, text) for _, who, text in DOSES], OCT)
    assert _doses(ex) == [("18 units", False), ("15 units", True), ("16 units", False)]
    slip = next(f for f in ex.facts if f.object == "15 units")
    assert slip.valid_to == OCT + timedelta(minutes=2)  # taken back when the correction came
    # a sum said again after "wait no" (a fact of no value: the extractor ended it at the correction)
    ex = extracted([("Beth", "Sent Pinewood invoice #1042 for the router swap, $2,340"),
                    ("Beth", "wait no, it's $2,430. I transposed the digits")], OCT)
    assert [("$2,340" in f.text, f.retracted) for f in ex.facts if "#1042" in f.text] == [(True, True), (False, False)]


def test_a_value_changed_without_a_correction_or_long_after_is_not_retracted():
    # a change told plainly: the 15 held until it
    ex = extracted([("Callum", "she's dropped my Tresiba to 15 units from tonight"),
                    ("Callum", "she's put my Tresiba up to 16 units now, the lows stopped")], OCT)
    assert _doses(ex) == [("15 units", False), ("16 units", False)]
    # "sorry" that corrects nothing ("sorry I'm late")
    ex = extracted([("Callum", "she's dropped my Tresiba to 15 units from tonight"),
                    ("Callum", "Sorry I'm late replying. My Tresiba is 16 units now")], OCT)
    assert _doses(ex) == [("15 units", False), ("16 units", False)]
    # a correction four turns on takes back no value said that long before
    ex = extracted([("Callum", "she's dropped my Tresiba to 15 units from tonight"), ("Priya", "ok"),
                    ("Callum", "the lows were bad"), ("Priya", "poor you"),
                    ("Callum", "no wait, my Tresiba is 16 units now")], OCT)
    assert _doses(ex) == [("15 units", False), ("16 units", False)]


async def _tell(services, graph):
    await Ingestor(services).memorize(graph.tenant, "diabetes", [
        {"id": f"m{i}", "speaker": who, "content": text, "timestamp": OCT + timedelta(days=d, minutes=i)}
        for i, (d, who, text) in enumerate(DOSES)], group_id="home", flush=True)


async def test_a_retracted_value_is_on_no_timeline_and_no_value_held_before(services, graph):
    await _tell(services, graph)
    rows = await graph.read(
        "MATCH (f:Fact {tenant: $tenant, predicate: 'tresiba dose is'}) "
        "OPTIONAL MATCH (f)-[:SUPERSEDED_BY]->(n:Fact) "
        "RETURN f.object AS v, f.status AS s, n.object AS next ORDER BY f.validFrom, f.object", )
    # (the 16 may be said twice: "she's dropped ... to 16", "16 units from tonight", one value)
    assert sorted({(r["v"], r["s"], r["next"]) for r in rows}) == [
        ("15 units", "retracted", None), ("16 units", "current", None), ("18 units", "superseded", "16 units")]
    slip = await graph.read("MATCH (f:Fact {tenant: $tenant, object: '15 units'}) RETURN f {.*} AS f")
    assert Fact.of(slip[0]["f"]).status == "retracted"  # as the API tells it
    searcher = SearchService(services)
    # Asked after the value before the last change: the 18, never the 15
    res = await searcher.search(graph.tenant, SearchRequest(
        query="What was Callum's Tresiba dose originally?", method=Method.HYBRID, top_k=10), record_access=False)
    values = [h.node.get("object") for h in res.hits if h.kind == "fact"]
    assert "18 units" in values and "15 units" not in values, values
    turns = [h for h in res.hits if h.kind == "turn"]
    slip_turn = next((h for h in turns if "15 units from tonight" in h.node["content"]), None)
    if slip_turn is not None:  # (the last, if among the hits at all)
        assert slip_turn is res.hits[-1] and slip_turn.node["slip"], res.context
        assert "taken back by a correction" in res.context
    assert all(h.revised_by is None or "15 units" not in (h.revised_by.node.get("content") or "")
               for h in res.hits), res.context  # no value's later saying
    # the episode's title and summary say the dose that held
    cells = [h.node for h in res.hits if h.kind == "memcell"]
    assert cells and not [c for c in cells if "15 units" in c["title"] + c["summary"]], cells
    # the slip's turn, asked after directly, comes after what held
    res = await searcher.search(graph.tenant, SearchRequest(
        query="Tresiba dropped to 15 units", method=Method.KEYWORD, kinds=("turn",), top_k=10), record_access=False)
    slip_turn = next((h for h in res.hits if h.kind == "turn" and "15 units from tonight" in h.node["content"]), None)
    assert slip_turn is not None, res.context
    assert slip_turn.node["slip"] and all(h.kind != "turn" or h.node.get("slip") for h in res.hits[slip_turn.rank - 1:])
    # everything included: the slip is there, said to be one
    res = await searcher.search(graph.tenant, SearchRequest(
        query="Tresiba units", method=Method.KEYWORD, kinds=("fact",), top_k=10, include_superseded=True),
        record_access=False)
    assert any(h.kind == "fact" and h.node.get("status") == "retracted" for h in res.hits), res.context
    assert "[fact, said in error, taken back" in res.context


def test_a_code_said_again_after_sorry_no_or_a_typo_takes_the_one_before_back():
    # Walk-throughs 108 and 109: "sorry no, 22047751. always mix up the last two" made "Chloe is
    # 22047751nd year ..." of her year of study and a rule "always mix up the last two"; "sorry typo,
    # it's 4127" changed nothing (the bib stayed 4172).
    ex = extracted([("Chloe", "I'm a 2nd year adult nursing student"),
                    ("Chloe", "my student number is 22047715"),
                    ("Chloe", "sorry no, 22047751. always mix up the last two")], OCT)
    assert [(f.object, f.retracted) for f in ex.facts if f.predicate == "student number is"] == [
        ("22047715", True), ("22047751", False)]
    assert not [f for f in ex.facts if "22047751nd" in f.text]
    assert not [fs for fs in ex.foresights if fs.kind == "constraint"]
    ex = extracted([("Dan", "Race pack email arrived! My bib number is 4172 for the 2026 race"),
                    ("Dan", "sorry typo, it's 4127")], OCT)
    assert [(f.object, f.retracted) for f in ex.facts if f.predicate == "bib number is"] == [
        ("4172", True), ("4127", False)]


def test_a_value_taken_back_in_its_sentence_or_said_again_as_what_it_was():
    # Walk-through 111: "leila's number is 07700 914382, no wait, 07700 914832 ..." kept the wrong number in a
    # current fact; "no wait, it was £250, I checked my banking app" left the £200 deposit current.
    ex = extracted([("Tom", "yeah. leila's number is 07700 914382, no wait, 07700 914832 if you want to ring her")], OCT)
    assert [f.object for f in ex.facts if f.predicate == "phone is"] == ["07700 914832"]
    assert not [f for f in ex.facts if "914382" in f.text]
    ex = extracted([("Rachel", "I paid the Fernleigh deposit on Friday, £200"),
                    ("Rachel", "no wait, it was £250, I checked my banking app")], OCT)
    assert [("£250" in f.text, f.retracted) for f in ex.facts if "deposit" in f.text] == [(False, True), (True, False)]
    # (a value of another shape after "sorry" is no slip of it: "at 6, sorry, 6:30" stays as said)
    ex = extracted([("Tom", "we meet at 6 sorry 6:30 on Friday")], OCT)
    assert any("6:30" in f.text for f in ex.facts)


def test_weekdays_said_again_take_the_list_before_back():
    # Walk-through 114: "Walks on Mondays and Thursdays" "no wait, Mondays and Fridays, she works from home on
    # Thursdays" left the Thursday walks current, and the correction a fact of no days' ("Claire said mondays ...").
    ex = extracted([("Claire", "She's starting Monday 2nd November. Walks on Mondays and Thursdays"),
                    ("Claire", "no wait, Mondays and Fridays, she works from home on Thursdays. Sorry")], OCT)
    walks = [(f.text, f.retracted) for f in ex.facts if f.text.startswith("Claire said walks on")]
    assert walks == [("Claire said walks on Mondays and Thursdays.", True),
                     ("Claire said walks on Mondays and Fridays.", False)], walks


def test_a_name_taken_back_is_said_again_in_its_sentence_and_a_marked_opener_says_nothing():
    # Walk-through 117: "Leo Marsh has a severe peanut allergy. no wait, it's Leon Marsh" took back the whole
    # sentence, the allergy with it; "Yes important - " before it had made it no fact and no constraint
    ex = extracted([("Rachel", "Yes important - Leo Marsh has a severe peanut allergy. no wait, it's Leon Marsh, "
                               "Leo is the one in 9C. Leon carries two EpiPens"),
                    ("Tom", "My GP is Dr Patel. sorry I mean Dr Shah"),
                    ("Tom", "We meet on Tuesday. no wait, it's Thursday")], OCT)
    said = {(f.subject, f.predicate, f.object) for f in ex.facts}
    assert ("Leon Marsh", "has", "a severe peanut allergy") in said
    assert not [f for f in ex.facts if "Leo Marsh" in f.text]
    assert [f.text for f in ex.foresights if f.kind == "constraint"] == ["Leon Marsh has a peanut allergy."]
    assert ("Tom", "doctor is", "Dr Shah") in said and not [f for f in ex.facts if "Patel" in f.text]
    assert not [f for f in ex.facts if "Tuesday" in f.text and "Thursday" not in f.text]  # (no name: as before)


def test_a_name_put_right_in_the_turn_after_is_said_right_in_the_turn_before():
    # Walk-through 119: "feed 2 at Bramley village hall at mile 41", then "sorry, not Bramley, I meant Bramford
    # village hall": the plan kept Bramley, and the putting right was a fact of its own
    ex = extracted([("Tom", "feed stations, I'm thinking feed 1 at the Mill Lane layby around mile 20 and feed 2 at "
                            "Bramley village hall at mile 41"),
                    ("Tom", "sorry, not Bramley, I meant Bramford village hall. Bramley's the one on the other side "
                            "of the valley"),
                    ("Priya", "The rehearsal is at Sutton Hall on Friday"),
                    ("Cog", "Noted."),
                    ("Priya", "oops, I meant Dutton Hall, not Sutton Hall")], OCT, assistant="Cog")
    texts = [f.text for f in ex.facts]
    assert [t for t in texts if "feed 2" in t] == [
        "Feed stations, Tom is thinking feed 1 at the Mill Lane layby around mile 20 and feed 2 at Bramford village "
        "hall at mile 41."]
    assert not [t for t in texts if "meant" in t or "Sutton" in t]
    assert [t for t in texts if "Dutton Hall" in t]


def test_a_sum_said_again_after_a_slip_is_every_value_read_of_it():
    # Walk-through 116: "I'm raising my day rate to £340 from 1 November" is a day rate and a price; "sorry, £350"
    # made the price £350 and left the day rate £340 current
    ex = extracted([("Lena", "yes, I'm raising my day rate to £340 from 1 November"),
                    ("Lena", "sorry, £350. I did the maths wrong, it's £350 from 1 Nov")], OCT)
    held = sorted((f.predicate, f.object, f.retracted) for f in ex.facts if f.single_valued)
    assert held == [("day rate is", "£340", True), ("day rate is", "£350", False),
                    ("price is", "£340", True), ("price is", "£350", False)], held
    # ... from the day the slip was to hold from (it had been the apology's day, £350 at once)
    assert {f.valid_from.date().isoformat() for f in ex.facts if f.object == "£350"} == {"2026-11-01"}


def test_a_sum_taken_back_is_the_one_of_the_speakers_last_turn_with_one():
    # Walk-through 128: "We're with PetGuard at £38.50 a month" "renewal is 1 November and they want £46.80 a month"
    # "no wait, £48.60, I swapped the digits": two sums of that shape among the speaker's facts, so nothing was put
    # right (the £46.80 stayed current, its deadline too).
    ex = extracted([("Tom", "Pet insurance renewal letter came. We're with PetGuard at £38.50 a month at the moment"),
                    ("Tom", "renewal is 1 November and they want £46.80 a month"),
                    ("Tom", "no wait, £48.60, I swapped the digits. even worse")], OCT)
    said = [(f.text, f.retracted) for f in ex.facts if "£" in f.text]
    assert [t for t, retracted in said if not retracted and "£4" in t] == [
        next(t for t, _ in said if "£48.60" in t)] and any(r for t, r in said if "£46.80" in t), said
    assert any("£38.50" in t and not r for t, r in said), said  # (the sum of another turn kept)


async def test_a_value_put_right_in_another_turn_is_found_by_its_own_words(services, graph):
    # Walk-through 133: "Kieran's rate's going up to £13.15 an hour from December" "Sorry, typo - £13.50, not £13.15":
    # the value said right took the vector of the apology's sentence, and ranked 19th for "What will Kieran's hourly
    # rate be from December?"
    import numpy as np
    await Ingestor(services).memorize(graph.tenant, "shop", [
        {"id": "m1", "speaker": "Gareth", "content": "Kieran's rate's going up to £13.15 an hour from December",
         "timestamp": OCT},
        {"id": "m2", "speaker": "Gareth", "content": "Sorry, typo - £13.50, not £13.15",
         "timestamp": OCT + timedelta(minutes=1)}], group_id="shop", flush=True)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS '13.50' AND f.status = 'current' "
                            "RETURN f.text AS text, f.embedding AS v")
    assert rows, await graph.read("MATCH (f:Fact {tenant: $tenant}) RETURN f.text AS t")
    embed = services.require_embedder().embed
    own, apology = embed([rows[0]["text"], "Sorry, typo - £13.50, not £13.15"])
    v = np.asarray(rows[0]["v"])
    assert float(v @ own) > 0.99 and float(v @ apology) < 0.9, (rows[0]["text"], float(v @ own), float(v @ apology))
