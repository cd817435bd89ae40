"""Bounds on the work per turn and per cell, confidences, and the helpers every part shares."""
from __future__ import annotations

import re

# Whatever the input, the work per turn and per cell stays small.
MAX_TURN_CHARS = 6000          # the part of a turn that is read
MAX_SENTENCES_PER_TURN = 48
MAX_SENTENCE_CHARS = 400
MAX_FACTS_PER_TURN = 12
MAX_FACTS = 200
MAX_ENTITIES = 60
MAX_FORESIGHTS = 24
MAX_FORESIGHTS_PER_TURN = 4
MAX_OBJECT_CHARS = 200
MAX_TEXT_CHARS = 500
MAX_TITLE_CHARS = 80
MAX_SUMMARY_CHARS = 600
MAX_KEYWORDS = 10
PLAN_DEFAULT_DAYS = 30

CONF_PLAIN = 0.9
CONF_HEDGED = 0.5
CONF_REPORTED = 0.7       # "Maya said ...": a sentence without a clear subject
CONF_ASSISTANT = 0.6      # what an assistant turn states

ROLE_SUBJECT, ROLE_OBJECT, ROLE_MENTIONED = "subject", "object", "mentioned"

# A letter of any alphabet: a word runs on through "ê" and "ü" ("crème brûlée" is two words, not
# "cr", "me", "br", "l" and "e", and a sentence of such words is not left without content).
LETTER = r"[^\W\d_]"


def _alt(words) -> str:
    """A regex alternation of literal words, longest first (so 'sisters' beats 'sister')."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))
