"""An event's figures the group holds one at a time, said short by any of its people: the time it starts ("start
time 8.30am", "agreed, 9am start", "bringing the start forward to 8:45") and how many have entered so far ("we've
got 48 entries so far", "entries update: we're on 134"). Readers of local/group_values.py's events, each given the
sentence's values (`_Values`)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (measures.py reads with these: no import back at run time)
    from app.construction.local.measures import _Values


# The time a day's event starts, the group's, said short: "start time 8.30am", "also thinking we push the start from
# 8.30 to 9am" "agreed, 9am start", "I'm bringing the start forward to 8:45" (a "said" fact each, or none).
_CLOCK = r"(?:\d{1,2}(?:[:.]\d\d)?\s*(?i:am|pm)|\d{1,2}[:.]\d\d)"
_STARTS = r"(?i:start|kick-?off|tee-?off|departure|registration|briefing|check-?in|check-?out)"
_START_TIMES = (
    re.compile(rf"(?:^|[,;:.]\s+|\b(?:and|so)\s+)(?:(?i:the|our)\s+)?(?P<x>{_STARTS})\s+(?i:time)\s+"
               rf"(?:(?i:is|'s|will\s+be)\s+)?(?:(?i:now|still)\s+)?(?P<v>{_CLOCK})(?![\w:.])"),
    re.compile(r"\b(?i:push|pushes|pushing|pushed|move|moves|moving|moved|bring|brings|bringing|brought|put|putting|"
               rf"change|changes|changing|changed)\s+(?i:the|our)\s+(?P<x>{_STARTS})(?:\s+(?i:time))?\s+"
               rf"(?:(?i:back|forward)\s+)?(?:(?i:from)\s+{_CLOCK}\s+)?(?i:to)\s+(?P<v>{_CLOCK})(?![\w:.])"),
    re.compile(r"^(?:(?i:ok|okay|agreed|yes|yep|fine|great|right|so)[,!.]?\s+)*"
               rf"(?P<v>{_CLOCK})\s+(?P<x>{_STARTS})(?:\s+(?i:time))?(?=\s*(?:$|[,;.!]|(?i:then|it\s+is)\b))"))


# How many have entered an event so far, the group's count: "we've got 48 entries so far", "entries update: we're on
# 134", "171 entries as of tonight!!" (each a "said" fact or someone's things: the first stayed the answer).
_ENTRY_WORDS = r"(?i:entries|entrants|sign-?ups|registrations|riders|runners)"
_ENTRIES = (
    re.compile(r"(?<![\w'])(?P<lead>(?i:we've\s+got|we\s+have|we're\s+on|we\s+are\s+on|we're\s+at|we\s+are\s+at|now\s+at|"
               r"up\s+to|there\s+are|that's)\s+)?(?:(?i:now)\s+)?(?P<num>\d{1,5})\s+" + _ENTRY_WORDS +
               r"(?:(?P<tail>\s+(?i:so\s+far|now|as(?:\s+of)?|confirmed|and\s+counting|already)\b)|(?=\s*[!.,]|\s*$))"),
    # ("entries update: we're on 134": the label said what)
    re.compile(r"^\s*" + _ENTRY_WORDS + r"(?:\s+(?i:update|count|so\s+far))?\s*:\s*(?:(?i:we're|we\s+are)\s+)?"
               r"(?:(?i:on|at|now)\s+)*(?P<num>\d{1,5})\b(?![\d:.%])"))
_ENTRY_SINGULAR = {"entries": "entry", "entrants": "entrant", "riders": "rider", "runners": "runner",
                   "registrations": "registration"}


def entry_counts(v: _Values) -> None:
    """How many have entered, said as it grows: the group's "entry count" (or riders', sign-ups' ...)."""
    if v.sent.t.assistant:
        return
    for rx in _ENTRIES:
        for m in rx.finditer(v.text if rx is _ENTRIES[0] else v.sent.raw):
            if rx is _ENTRIES[0] and not (m.group("lead") or m.group("tail") or m.start() == 0):
                continue  # ("I did 3 entries in my diary": a count of what was done, not of who entered)
            what = re.search(_ENTRY_WORDS, m.group(0)).group(0).lower().replace("signups", "sign-ups")
            v.add(None, f"{_ENTRY_SINGULAR.get(what, 'sign-up')} count", m.group("num"),
                  m.start() if rx is _ENTRIES[0] else 0, end=m.end() if rx is _ENTRIES[0] else None, unowned=True)


_THOUGHT_OF = re.compile(r"\b(?i:thinking|wondering|might|maybe|perhaps|could|should\s+we|what\s+if|how\s+about)\b")


def start_times(v: _Values) -> None:
    """When the event starts, said short or moved: the group's "start time" (or kick-off's, check-in's ...)."""
    if v.sent.t.assistant:
        return
    for rx in _START_TIMES:
        for m in rx.finditer(v.text):
            if _THOUGHT_OF.search(v.text, 0, m.start()):
                continue  # ("also thinking we push the start from 8.30 to 9am": not yet, till agreed)
            what = m.group("x").lower().replace(" ", "-")
            v.add(None, f"{'kick-off' if what == 'kickoff' else what} time", m.group("v").replace(" ", ""),
                  m.start(), end=m.end(), unowned=True)  # (the event's, no runner's time)
