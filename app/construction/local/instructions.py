"""Standing instructions to whoever helps: "Always book aisle seats for me", "Never schedule
meetings on Fridays", "Please don't call before 9am", and standing preferences told to it: "I
prefer window seats on long flights". Said once to an assistant, each must hold the next time
that errand is done, as a constraint does: a user of an agent says them more than any allergy."""
from __future__ import annotations

import re

from app.construction.local.fact_patterns import _I
from app.construction.local.foresight import situation_cues
from app.construction.local.sentence import _Sentence
from app.construction.local.voice import _Voice, rewrite

# Verbs of errands only: "never give up", "don't worry", "always be kind" are no instruction.
ERRANDS = ("book|schedule|reschedule|call|ring|phone|email|e-mail|text|message|send|order|buy|"
           "reserve|pick|choose|use|put|add|invite|cc|copy|reply|forward|share|post|pay|charge|"
           "spend|plan|recommend|suggest|wake|remind|contact|seat|serve|cook|get|bring|tell|"
           "include|accept|take|set|leave|offer|quote|discount|deploy|ship|release|merge|sign|approve")
_HOW_ALT = r"always|never|don't|dont|do not"
# At a clause's start: the sentence's, after a colon ("Two things: always book ..."), or after
# another instruction (", and never schedule ..."), each up to the next one or the sentence's end.
_INSTRUCTION = re.compile(
    r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+)(?:(?:please|pls|also|and|oh|so|just|btw)[,]?\s+)*"
    rf"(?P<how>{_HOW_ALT})\s+(?:ever\s+)?(?:(?:please|again)\s+)?(?P<v>{ERRANDS})\b"
    rf"(?P<rest>[^.;!?]{{0,100}}?)(?=\s*(?:[.;!?]|$|,?\s*(?:and\s+)?(?:{_HOW_ALT})\s))", _I)
_HOW = {"always": "to always", "never": "never to", "don't": "not to", "dont": "not to", "do not": "not to"}


def instructions(sent: _Sentence, recent: str | None = None) -> list[tuple[str, list[str], list[str]]]:
    """(text, situation keys, trigger words) of each instruction `sent` gives. `recent`: the
    person named last before it, whom "her" or "him" in it stands for ("never call her")."""
    told = [_one(sent, m, recent) for m in _INSTRUCTION.finditer(sent.text.strip())]
    for m in _WISH.finditer(sent.text):  # "Marta said never call her": a wish of hers, reported
        who, verb = m.group("who"), m.group("v").lower()
        keys, words = situation_cues(verb)
        told.append((f"{who} asked not to be {_CONTACTED[verb]}", keys, words))
    return told


# A person's wish about being reached, reported: "Marta said never call her", "Jonas says don't
# phone him, email only".
_CONTACTED = {"call": "called", "phone": "phoned", "ring": "rung", "text": "texted", "email": "emailed",
              "message": "messaged", "contact": "contacted"}
_WISH = re.compile(rf"(?P<who>[A-Z][\w'-]+)\s+(?:said|says|asked|wants|told\s+(?:me|us))\s+(?:us\s+|me\s+)?"
                   rf"(?:to\s+)?(?:never|don't|do\s+not|not\s+to)\s+(?:ever\s+)?(?P<v>{'|'.join(_CONTACTED)})"
                   r"\s+(?:her|him)\b")


# "him", and "her" where it is no possessive ("call her", "email her before 9", not "her office").
_THIRD_OBJECT = re.compile(r"\bhim\b|\bher\b(?=\s*(?:$|[,.;!?]|(?:about|on|before|after|at|in|until|again|"
                           r"directly|back|first|tomorrow|today|tonight|ever|or|and)\b))", _I)


def _one(sent: _Sentence, m: re.Match, recent: str | None) -> tuple[str, list[str], list[str]]:
    rest = rewrite(m.group("rest"), _Voice(sent.t.speaker, sent.t.other)).rstrip(" ,")
    if recent and recent != sent.t.speaker:
        rest = _THIRD_OBJECT.sub(recent, rest)
    what = f"{m.group('v').lower()}{rest}"
    keys, words = situation_cues(f"{m.group('v')}{m.group('rest')}")  # as said: "me" is no word of the errand
    return f"{sent.t.speaker} asked {_HOW[' '.join(m.group('how').lower().split())]} {what}", keys, words


# "I prefer X", "we usually prefer X": standing. "I'd prefer", "would prefer" ask for this once.
_PREFER = re.compile(
    r"(?<![\w'])(?:I|we)\s+(?:(?:usually|always|generally|really|strongly|much|definitely)\s+)?"
    r"prefer\s+(?P<x>[^.;!?]{3,100})", _I)
_THIS_TIME = re.compile(r"\b(?:this\s+time|today|tonight|tomorrow|for\s+now)\b", _I)


def preferences(sent: _Sentence) -> list[tuple[str, list[str], list[str]]]:
    """(text, situation keys, trigger words) of each standing preference `sent` tells."""
    out = []
    for m in _PREFER.finditer(sent.text):
        x = m.group("x").rstrip(" ,")
        if _THIS_TIME.search(x):
            continue
        text = f"{sent.t.speaker} prefers {rewrite(x, _Voice(sent.t.speaker, sent.t.other))}"
        out.append((text, *situation_cues(x)))
    return out
