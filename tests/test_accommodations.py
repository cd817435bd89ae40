"""A pupil's needs a teacher must plan around: colour-blindness for a practical that reads
colours, extra time for a test. Standing constraints, extracted locally, brought back by the
situation on the real Neo4j (walk-through 50: both were plain facts, and the litmus practical
brought neither)."""
from tests.test_extract_local import extract, turn
from tests.test_foresight_concerns import _tell, foresight_finder


def test_colour_blindness_and_extra_time_are_standing_constraints():
    said = {"Ben Walsh is colour-blind, red-green, so he struggles with colour changes.": "Ben Walsh is colour-blind.",
            "Amir Adeyemi needs 25% extra time in all tests.": "Amir Adeyemi needs 25% extra time in all tests.",
            "I need extra time to think about it.": None}
    for text, rule in said.items():
        found = [fs.text for fs in extract([turn(text, speaker="Hana")]).foresights if fs.kind == "constraint"]
        assert found == ([rule] if rule else []), text


async def test_a_practical_brings_the_colour_blind_pupil_and_a_test_the_extra_time(services, graph):
    rules = foresight_finder(services, graph)
    await _tell(services, graph, [
        ("p1", "Hana", "Ben Walsh is colour-blind, red-green, so he struggles with colour changes.", 0),
        ("p2", "Hana", "Amir Adeyemi needs 25% extra time in all tests.", 0),
        ("p3", "Hana", "Chloe is allergic to nuts.", 0)])


    assert "Ben Walsh is colour-blind." in await rules("Set up the indicator practical with litmus paper")
    assert "Amir Adeyemi needs 25% extra time in all tests." in await rules("Plan the seating for Friday's chemistry test")
    assert (await rules("Plan the baking lab"))[:1] == ["Chloe is allergic to nuts."]
