"""The `local` extractor (`ENGRAM_EXTRACTOR=local`): one MemCell's turns -> an Extraction, with
rules only (no model, no I/O).

Deterministic and fast: precompiled patterns, bounded work per turn. What it does, per turn:

1. splits the text into sentences and strips openers ("Yes, ", "By the way, ", emoji);
2. resolves date phrases against the turn's time (`dates.find_dates`) and writes them inline as
   absolute dates ("on 2023-05-07 (yesterday)");
3. finds entities (capitalised names, "my sister", "my dog Max"), types them from cues and
   merges them across the episode ("Mel" -> "Melanie Hart");
4. writes one fact per informative sentence in the third person ("I" -> the speaker, "you" -> the
   other speaker when there is exactly one), with a normalised predicate; where someone lives,
   works, their job and relationship status are single-valued;
5. finds foresight: standing constraints (allergies, diets, fears, health, rules) and plans or
   deadlines with a validity window, each with a trigger of situations where it matters;
6. derives title, summary, keywords and importance for the cell.

One module per stage, in the order a cell goes through them: bounds (limits shared by all), text,
voice (third person), inline_dates, entities, sentence (the records a parse works on),
fact_patterns, lowercase (texting without capitals), parse, foresight, turn_sentences, facts,
episode (LocalExtractor).
"""
from app.construction.local.episode import LocalExtractor

__all__ = ["LocalExtractor"]
