"""What a home must be, said as the speaker's rule ("so the flat has to be on the ground floor or
have a lift", "no flats with a no pets lease", "my commute can't be more than 40 minutes"): a
standing constraint that a viewing or a listing brings back. Extracted locally, searched on the
real Neo4j."""
import pytest

from tests.test_extract_local import extract, turn
from tests.test_foresight_concerns import _tell, foresight_finder


@pytest.mark.parametrize("said, rule", [
    ("I use a wheelchair on bad days, so the flat has to be on the ground floor or have a lift.",
     "Maya's requirement: the flat has to be on the ground floor or have a lift."),
    ("And we have a cat, Miso, so no flats with a no pets lease.",
     "Maya's requirement: no flats with a no pets lease."),
    ("I work at the Royal Free, and my commute can't be more than 40 minutes.",
     "Maya's commute can't be more than 40 minutes."),
    ("The car must be back by Friday.", None),  # a day to keep: no standing rule
])
def test_what_a_home_must_be_is_a_standing_rule(said, rule):
    rules = [fs.text for fs in extract([turn(said)]).foresights
             if fs.kind == "constraint" and ("requirement" in fs.text or "commute" in fs.text)]
    assert rules == ([rule] if rule else [])


async def test_a_viewing_brings_the_homes_rules_and_a_run_does_not(services, graph):
    rules = foresight_finder(services, graph)
    # Walk-through 47: "Book a viewing for Saturday morning" surfaced none of them.
    await _tell(services, graph, [
        ("h1", "Priya", "I use a wheelchair on bad days, so the flat has to be on the ground floor or have a lift.", 0),
        ("h2", "Jonas", "And we have a cat, Miso, so no flats with a no pets lease.", 0),
        ("h3", "Priya", "I run three mornings a week before work.", 1)])


    found = await rules("Book a viewing for Saturday morning")
    assert "Priya's requirement: the flat has to be on the ground floor or have a lift." in found, found
    assert "Jonas's requirement: no flats with a no pets lease." in found, found
    assert not [t for t in await rules("Where should I go running this weekend?") if "requirement" in t]
    # each is its speaker's (re-run of walk-through 47: "For Jonas, ..." concerned no one)
    rows = await graph.read("MATCH (f:Foresight {tenant: $tenant})-[:CONCERNS]->(e:Entity) "
                            "WHERE f.text CONTAINS 'requirement' RETURN e.name AS whose ORDER BY whose")
    assert [r["whose"] for r in rows] == ["Jonas", "Priya"]
