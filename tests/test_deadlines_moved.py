"""A thing's deadline said as what is due, moved as a deadline, then moved again said only by the thing's name
("chapter 3 moves again, now Friday 27 November"): one timeline. From walk-through 113 (a PhD student and her
supervisor), where the three were a "said" fact, "chapter 3 deadline" and a "said" fact again, the first current
and first for "When is chapter 3 due?". Local extractor, real Neo4j."""
from __future__ import annotations

from datetime import datetime, timezone

from tests.conversation import tell_days

SEP = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)


async def _deadlines(graph) -> list[tuple[str, str]]:
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued AND f.subjectHead STARTS WITH "
                            "'deadline' RETURN f.object AS day, f.status AS status, f.subjectKey AS key "
                            "ORDER BY f.validFrom")
    return [(r["day"], r["status"], r["key"]) for r in rows]


async def test_a_due_date_moved_as_a_deadline_then_by_the_things_name_is_one_timeline(services, graph):
    await tell_days(services, graph, [
        (0, "Aisha", "hi! ok so first thing, chapter 3 draft is due to Martin on Friday 30 October"),
        (0, "Aisha", "and the ethics form is due on Friday 9 October"),
        (15, "Martin", "Quick update after today's meeting: we're moving the chapter 3 deadline to Friday 13 November"),
        (45, "Martin", "After the meeting: chapter 3 moves again, now Friday 27 November. I'm on the grant panel")],
        group="phd", start=SEP)
    said = await _deadlines(graph)
    chapter = [(day, status) for day, status, key in said if key.startswith("chapter 3")]
    assert chapter == [("2026-10-30", "superseded"), ("2026-11-13", "superseded"), ("2026-11-27", "current")], said
    assert [(day, status) for day, status, key in said if key.startswith("ethics")] == [("2026-10-09", "current")]


async def test_a_deadline_named_alone_then_extended_is_one_timeline(services, graph):
    # Walk-through 117: "yes, the Year 10 coursework deadline. It's Friday 6 November", then "Graham agreed on his last
    # day to extend the coursework deadline to Friday 20 November": the extension was a "said" fact, 6 November current
    await tell_days(services, graph, [
        (10, "Rachel", "yes, the Year 10 coursework deadline. It's Friday 6 November, Graham set it"),
        (25, "Rachel", "before I forget - Graham agreed on his last day to extend the coursework deadline to Friday "
                       "20 November")], group="science", start=SEP)
    rows = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.singleValued AND f.subjectKey CONTAINS "
                            "'coursework deadline' RETURN f.object AS day, f.status AS status ORDER BY f.validFrom")
    assert [(r["day"], r["status"]) for r in rows] == [("2026-11-06", "superseded"), ("2026-11-20", "current")], rows
