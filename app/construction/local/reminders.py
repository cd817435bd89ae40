"""Reminders asked for: "Remind me to call the dentist tomorrow", "Can you remind me that Mum's
birthday is on June 3rd?". A plan by what it asks, though no plan cue says so (the sentence's
subject is whoever is asked), and often said as a question, which the plan rules skip."""
from __future__ import annotations

import re

from app.construction.dates import absolute_text
from app.construction.local.bounds import MAX_TEXT_CHARS
from app.construction.local.fact_patterns import _I
from app.construction.local.foresight import _trigger, plan_until, situation_cues
from app.construction.local.inline_dates import _fill, _unplace
from app.construction.local.sentence import _Sentence
from app.construction.local.text import _WORD, _clip
from app.construction.local.voice import _Voice, rewrite
from app.domain.models import ForesightDraft

_REMIND = re.compile(
    r"^(?:(?:please|pls|also|and|oh|so|btw|hey|ok|okay)[,]?\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|(?:don't|do not)\s+(?:let\s+me\s+)?forget\s+to\s+)?"
    r"remind\s+(?P<who>me|us)\s+(?P<how>to|that|about|of)\s+", _I)
_HOW = {"to": "to", "that": "that", "about": "about", "of": "about"}


def reminder(sent: _Sentence) -> ForesightDraft | None:
    """The plan the reminder asked for in `sent` holds, if it asks for one."""
    m = _REMIND.match(sent.text)
    if not m:
        return None
    t = sent.t
    what = _fill(rewrite(sent.s1[sent.s1_pos(m.end()):], _Voice(t.speaker, t.other)), sent.rendered)
    what = what.strip().rstrip(" .!?")
    if len(_WORD.findall(what)) < 2:  # "remind me about it": of what, it does not say
        return None
    # The day to be reminded on is the first named: "next month, it expires in August".
    ahead = [d for d in sent.dates if d.direction in ("future", "present")][:1]
    keys, words = situation_cues(_unplace(sent.s1[sent.s1_pos(m.end()):]))
    text = f"{t.speaker} asked to be reminded {_HOW[m.group('how').lower()]} {what}"
    # "remind me to stretch after sessions", "... every morning": each time, not once.
    standing = not ahead and _EACH_TIME.search(what)
    return ForesightDraft(text=_clip(text, MAX_TEXT_CHARS) + ".",
                          trigger=_trigger(keys or ["schedule"], [absolute_text(d) for d in ahead] + words),
                          turn_ids=[t.turn.id], valid_from=t.at,
                          valid_to=None if standing else plan_until(t.at, ahead), kind="plan")


_EACH_TIME = re.compile(r"\b(?:every|each|whenever|always)\b|\b(?:after|before)\s+(?:my\s+|our\s+|the\s+)?"
                        r"(?:sessions|workouts|runs|meals|classes|games|races|shifts|meetings|lessons)\b", re.I)
