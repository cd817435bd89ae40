"""A small conversation written for the tests: two days, a move, an allergy, a trip, a sister."""
from datetime import datetime, timedelta, timezone

DAY1 = datetime(2024, 3, 4, 10, 0, tzinfo=timezone.utc)  # a Monday
DAY2 = datetime(2024, 6, 10, 18, 30, tzinfo=timezone.utc)


def _msgs(start: datetime, rows: list[tuple[str, str, str]]) -> list[dict]:
    return [{"id": mid, "speaker": who, "content": text, "timestamp": start + timedelta(minutes=2 * i)}
            for i, (mid, who, text) in enumerate(rows)]


def maya_and_sam() -> list[dict]:
    return _msgs(DAY1, [
        ("m1", "Maya", "Hi Sam! I moved to Berlin last week, the flat is tiny but lovely."),
        ("m2", "Sam", "That's exciting! How is the new job at Siemens going?"),
        ("m3", "Maya", "I love it. My friend Melanie Hart visited me yesterday and we walked along the Spree."),
        ("m4", "Maya", "By the way, I'm allergic to peanuts, so no satay for me at the office party."),
        ("m5", "Sam", "Noted! Are you still planning that trip?"),
        ("m6", "Maya", "Yes, I'm flying to Tokyo next month for a robotics conference."),
    ]) + _msgs(DAY2, [
        ("m7", "Maya", "Big news: I moved to Lisbon in May, I live in Lisbon now."),
        ("m8", "Sam", "Wow! Does Mel know already?"),
        ("m9", "Maya", "Mel helped me pack, she is the best."),
    ])


def extracted(rows: list[tuple[str, str]] | tuple[tuple[str, str], ...], start: datetime,
              step: timedelta = timedelta(minutes=1), assistant: str | None = None):
    """(speaker, text) rows, one turn each `step` apart from `start` (`assistant`'s turns the
    assistant's), through the local extractor: its Extraction."""
    from app.construction.local import LocalExtractor
    from app.domain.models import TurnRecord
    turns = [TurnRecord(id=f"t{i}", conversation_id="c", speaker=who,
                        user_id=None if who == assistant else who.lower(),
                        role="assistant" if who == assistant else "user", content=text,
                        at=start + step * i, seq=i) for i, (who, text) in enumerate(rows)]
    return LocalExtractor().extract_sync(turns)


async def tell_days(services, graph, said, group: str | None = None, start: datetime = DAY1) -> None:
    """(day, speaker, text) rows memorized one conversation a day, `day` days after `start`, each
    flushed before the next day's: values said sessions apart, as a user says them."""
    from app.construction.ingest import Ingestor
    ingestor = Ingestor(services)
    for day in sorted({d for d, _, _ in said}):
        await ingestor.memorize(graph.tenant, f"c{day}", [
            {"id": f"m{i}", "speaker": who, "content": text, "timestamp": start + timedelta(days=d, minutes=i)}
            for i, (d, who, text) in enumerate(said) if d == day], group_id=group, flush=True)
