"""Standing instructions to whoever helps: "Always book aisle seats for me", "Never schedule
meetings on Fridays", "Please don't call before 9am". Said once to an assistant (or a person
running errands), each must hold the next time that errand is done, as a constraint does: a
user of an agent says them more than any allergy."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.fact_patterns import _I
from app.construction.local.sentence import _Sentence
from app.construction.local.text import _WORD
from app.construction.local.voice import _Voice, rewrite

# Verbs of errands only: "never give up", "don't worry", "always be kind" are no instruction.
_ERRANDS = ("book|schedule|reschedule|call|ring|phone|email|e-mail|text|message|send|order|buy|"
            "reserve|pick|choose|use|put|add|invite|cc|copy|reply|forward|share|post|pay|charge|"
            "spend|plan|recommend|suggest|wake|remind|contact|seat|serve|cook|get|bring|tell|"
            "include|accept|take|set|leave")
_INSTRUCTION = re.compile(
    r"^(?:(?:please|pls|also|and|oh|so|just|btw)[,]?\s+)*(?P<how>always|never|don't|dont|do not)\s+"
    rf"(?:ever\s+)?(?:(?:please|again)\s+)?(?P<v>{_ERRANDS})\b(?P<rest>[^.;!?]{{0,100}})", _I)
_HOW = {"always": "to always", "never": "never to", "don't": "not to", "dont": "not to", "do not": "not to"}


def instruction(sent: _Sentence) -> tuple[str, list[str], list[str]] | None:
    """(text, situation keys, trigger words) of the instruction `sent` gives, if it gives one."""
    m = _INSTRUCTION.match(sent.text.strip())
    if not m:
        return None
    rest = rewrite(m.group("rest"), _Voice(sent.t.speaker, sent.t.other)).rstrip(" ,")
    what = f"{m.group('v').lower()}{rest}"
    said = f"{m.group('v')}{m.group('rest')}".lower()  # as said: "me" is no word of the errand
    words = [w for w in _WORD.findall(said) if w not in lx.STOPWORDS and w not in lx.PRONOUNS and len(w) > 2]
    keys = list(dict.fromkeys(k for w in words for k in lx.SITUATION_CUES.get(w, ())))
    return f"{sent.t.speaker} asked {_HOW[' '.join(m.group('how').lower().split())]} {what}", keys, words[:6]
