"""A switch to someone or something new, said sessions after the value it replaces and without it
as a value: "I'm switching to Tomasz Nowak, Karen's too far away now" after "My physio is Karen
Lowe". The new one is the value the sentence names, by its holder or by what it is; both had stayed
current (session 60's walk-throughs: a physio, gels, a grant request). Local extractor, real Neo4j."""
from __future__ import annotations

from datetime import datetime, timezone

from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import tell_days

OCT = datetime(2026, 10, 9, 14, 0, tzinfo=timezone.utc)


async def _values(graph, predicate: str) -> dict[str, str]:
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant, predicate: $p}) WHERE f.singleValued "
                            "RETURN f.object AS object, f.status AS status, f.groupId AS g", p=predicate)
    return {f"{r['object']}@{r['g']}": r["status"] for r in rows}


async def test_one_switched_to_is_the_value_whose_holder_the_sentence_names(services, graph):
    await tell_days(services, graph, [
        (0, "Dan", "My physio is Karen Lowe, I see her on Thursdays."),
        (9, "Dan", "I'm switching to Tomasz Nowak, Karen's too far away now.")], group="run")
    assert await _values(graph, "physio is") == {"Karen Lowe@run": "superseded", "Tomasz Nowak@run": "current"}
    ended = await graph.read("MATCH (o:Fact {tenant: $tenant, object: 'Karen Lowe'})-[:SUPERSEDED_BY]->(n:Fact) "
                             "RETURN n.text AS text")
    # (the sentence kept: why, and what it costs)
    assert [r["text"] for r in ended] == ["Dan's physio is Tomasz Nowak, switched from Karen Lowe: "
                                          "Dan is switching to Tomasz Nowak, Karen's too far away now."]
    hits = (await SearchService(services).search(graph.tenant, SearchRequest(
        query="Who is Dan's physio?", method=Method.HYBRID, top_k=5))).hits
    facts = [h.node.get("text", "") for h in hits if h.kind == "fact"]
    assert facts and facts[0].startswith("Dan's physio is Tomasz Nowak"), facts


async def test_one_switched_to_is_the_value_of_what_the_sentence_names(services, graph):
    await tell_days(services, graph, [
        (0, "Sue", "Our van insurance is with Direct Line, renews 1 March."),
        (30, "Sue", "Renewed the van insurance, went with Admiral this year, £412.")], group="vans")
    values = await _values(graph, "is")
    assert values == {"Direct Line@vans": "superseded", "Admiral@vans": "current"}, values


async def test_a_switch_naming_two_values_or_none_or_only_thought_of_ends_nothing(services, graph):
    await tell_days(services, graph, [
        (0, "Dan", "My physio is Karen Lowe."),
        (0, "Dan", "My dentist is Karen Price."),
        (5, "Dan", "I'm switching to Tomasz Nowak, Karen's too far away now."),
        (6, "Dan", "Thinking of switching to Ben Ito, the dentist keeps cancelling."),
        (7, "Dan", "I went with Tom to the match on Saturday.")], group="run")
    # (a Karen holds Dan's physio and his dentist: the switch says not which; the dentist named is
    # only thought of; Tom is whom he went with)
    assert await _values(graph, "physio is") == {"Karen Lowe@run": "current"}
    assert await _values(graph, "dentist is") == {"Karen Price@run": "current"}


async def test_a_switch_in_one_group_leaves_anothers_value_named_alike(services, graph):
    await tell_days(services, graph, [(2, "Ana", "My physio is Karen Lowe.")], group="other")
    await tell_days(services, graph, [
        (0, "Dan", "My physio is Karen Lowe."),
        (9, "Dan", "I'm switching to Tomasz Nowak, Karen's too far away now.")], group="run")
    assert await _values(graph, "physio is") == {"Karen Lowe@other": "current", "Karen Lowe@run": "superseded",
                                                 "Tomasz Nowak@run": "current"}


def test_a_firm_gone_with_is_no_company_of_us():
    # Walk-through 115: "Gone with AllClear instead, £395 for both of us" had been "for Gerry and AllClear both"
    from tests.conversation import DAY1, extracted
    ex = extracted([("Gerry", "Gone with AllClear instead, £395 for both of us with the AF declared"),
                    ("Gerry", "I went with Tom to the match and we loved it")], DAY1)
    texts = [f.text for f in ex.facts]
    assert [t for t in texts if "£395 for Gerry and another" in t], texts
    assert [f.switches_to for f in ex.facts if "£395" in f.text] == ["AllClear"]
    assert [t for t in texts if "Gerry and Tom loved" in t], texts


async def test_who_did_the_switching_keeps_the_post_the_sentence_names_them_by(services, graph):
    # walk-through 121: "Marcus has moved us to Nationwide, 4.19% fixed" made Nationwide the broker, "switched
    # from Marcus Bell"
    await tell_days(services, graph, [
        (0, "Hannah", "Our broker is Marcus Bell, he got us an agreement in principle with Halifax."),
        (20, "Hannah", "good news on the mortgage! Marcus has moved us to Nationwide, 4.19% fixed for 5 years.")],
        group="house")
    values = await _values(graph, "is")
    assert values == {"Marcus Bell@house": "current"}, values


async def test_a_last_day_said_ends_the_post_held_on_that_day(services, graph):
    # walk-through 123: "Jamie Fletcher is our sous chef ... His last day is Friday 30th October" left him the sous
    # chef ever after
    await tell_days(services, graph, [
        (0, "Rachel", "Jamie Fletcher is our sous chef. His last day is Friday 30th October. He's going to a hotel."),
        (0, "Rachel", "Mo Khan is our kitchen porter.")], group="kitchen", start=OCT)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued AND f.object IN "
                            "['Jamie Fletcher', 'Mo Khan'] RETURN f.object AS who, f.status AS status, "
                            "f.validTo AS validTo ORDER BY who")
    assert [(r["who"], r["status"], r["validTo"] and r["validTo"].to_native().date().isoformat()) for r in rows] == [
        ("Jamie Fletcher", "superseded", "2026-10-30"), ("Mo Khan", "current", None)], rows
