"""An organisation's one-holder posts ("Acme's CFO is Laura Chen") and the speaker's contact at
one ("My contact at Northwind is Tom Baker") change hands like a person's doctor: the new holder
ends the old, and "Who is Acme's CFO?" has the holder of now among the first hits. Local
extractor; the timelines and a search on the real Neo4j."""
from datetime import timedelta

from app.construction.ingest import Ingestor
from app.recollection.request import Method, SearchRequest
from app.recollection.search import SearchService
from tests.conversation import DAY1
from tests.test_extract_local import extract, turn


def test_a_post_is_read_either_way_round_and_from_a_later_clause():
    ex = extract([turn(t, speaker="Sam", i=i) for i, t in enumerate([
        "Acme's CFO is Laura Chen.", "Tom Baker is the CTO at Globex Foods.",
        "Laura moved to the CEO role at Acme last week, their new CFO is Daniel Ortiz.",
        "My contact at Northwind is Tom Baker, head of procurement."])])
    facts = {(f.subject, f.predicate, f.object) for f in ex.facts}
    # "Laura" is Laura Chen, named before in the episode.
    assert {("Acme", "cfo is", "Laura Chen"), ("Globex Foods", "cto is", "Tom Baker"),
            ("Acme", "ceo is", "Laura Chen"),
            ("Acme", "cfo is", "Daniel Ortiz"),
            ("Sam", "contact at Northwind is", "Tom Baker")} <= facts
    types = {e.name: e.type for e in ex.entities}
    assert types["Acme"] == "organization" and types["Daniel Ortiz"] == "person"
    assert not {"CFO", "CEO", "CTO"} & set(types)  # a post is no name
    # No "works at" twin of the post: its text, the post's, would stay current when the post moves.
    assert not [f for f in facts if f[1] == "works at"]


async def test_a_new_holder_ends_the_old_and_is_the_answer(services, graph):
    said = [(0, "Acme's CFO is Laura Chen, she signs off anything over 50k."),
            (0, "My contact at Northwind is Tom Baker, head of procurement."),
            (20, "Big news: Laura moved to the CEO role at Acme, their new CFO is Daniel Ortiz."),
            (20, "Tom left Northwind, so my new contact at Northwind is Priya Nair.")]
    ingestor = Ingestor(services)
    for day in (0, 20):
        await ingestor.memorize(graph.tenant, "sales", [
            {"id": f"s{i}", "speaker": "Sam", "content": text, "timestamp": DAY1 + timedelta(days=d, minutes=i)}
            for i, (d, text) in enumerate(said) if d == day], flush=True)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) "
                            "WHERE f.predicate IN ['cfo is', 'contact at Northwind is'] "
                            "RETURN f.predicate AS p, f.object AS holder, f.status AS status")
    assert {(r["p"], r["holder"]): r["status"] for r in rows} == {
        ("cfo is", "Laura Chen"): "superseded", ("cfo is", "Daniel Ortiz"): "current",
        ("contact at Northwind is", "Tom Baker"): "superseded",
        ("contact at Northwind is", "Priya Nair"): "current"}
    res = await SearchService(services).search(graph.tenant, SearchRequest(
        query="Who is Acme's CFO?", method=Method.HYBRID, top_k=5), record_access=False)
    first = [h.node.get("text", "") for h in res.hits[:3]]
    assert any("Daniel Ortiz" in t for t in first), first
    assert not [h for h in res.hits if h.kind == "fact" and h.node.get("text") == said[0][1]]


async def test_a_contact_at_a_firm_is_the_groups_whoever_of_it_says_so(services, graph):
    # Walk-through 57: Ravi's "Our contact at Acme Freight is Mark Doyle" stayed current beside
    # Sofia's "Our new contact at Acme Freight is Laura Chen", and ranked first.
    ingestor = Ingestor(services)
    for d, who, text in ((0, "Ravi", "Our contact at Acme Freight is Mark Doyle."),
                         (20, "Sofia", "Our new contact at Acme Freight is Laura Chen.")):
        await ingestor.memorize(graph.tenant, "team", [
            {"id": f"c{d}", "speaker": who, "content": text, "timestamp": DAY1 + timedelta(days=d)}],
            group_id="northwind", flush=True)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate = 'contact at Acme Freight is' "
                            "RETURN f.subject AS who, f.object AS holder, f.status AS status")
    assert {(r["who"], r["holder"], r["status"]) for r in rows} == {
        ("Ravi", "Mark Doyle", "superseded"), ("Sofia", "Laura Chen", "current")}


async def test_someone_leaving_the_band_ends_the_post_they_held_there_and_nothing_else(services, graph):
    # Walk-through 86: "Sam is leaving the band", sessions after "Sam is our drummer", left Sam the
    # drummer; the post stayed his beside no one until Kit was named.
    ingestor = Ingestor(services)
    for day, text in ((0, "Sam is our drummer."), (0, "My boss is Sam."),
                      (0, "Dev Okafor is our tour manager."), (30, "bad news. Sam is leaving the band.")):
        await ingestor.memorize(graph.tenant, f"band{day}", [
            {"id": f"b{day}-{text[:5]}", "speaker": "Ruth", "content": text,
             "timestamp": DAY1 + timedelta(days=day, minutes=len(text))}], group_id="lanterns", flush=True)
    rows = await graph.read("""MATCH (f:Fact {tenant: $tenant}) WHERE f.predicate IN ['is', 'boss is']
                               RETURN f.subject AS post, f.object AS holder, f.status AS status,
                                      f.validTo IS NOT NULL AS ended""")
    held = {(r["post"], r["holder"]): (r["status"], r["ended"]) for r in rows}
    assert held[("drummer", "Sam")] == ("superseded", True)
    assert held[("tour manager", "Dev Okafor")] == ("current", False)
    assert [v for (post, who), v in held.items() if post == "Ruth"] == [("current", False)]  # her boss, Sam too
