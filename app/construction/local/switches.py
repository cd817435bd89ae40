"""A switch to someone or something new, said without the one it replaces as a value: "I'm switching
to Tomasz Nowak, Karen's too far away now" (sessions after "My physio is Karen Lowe"), "I've
switched our travel insurance to AllClear, Staysure wanted £600", "Renewed the van insurance, went
with Admiral this year". Each had stayed a fact of its own, the old physio and insurer current.
The extractor marks the sentence's fact with the new one's name (FactDraft.switches_to); the
writer gives it to the group's value the sentence names, by its holder ("Karen") or by what it is
("insurance") (construction/replacements.py, adopt_switches). With none, the fact stays as said."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.sentence import _Sentence

# The new one: a proper name of up to four words, a title before it ("Dr Obi", "Parkview Dental",
# "Mezze & More").
_NAME = (r"(?P<v>(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+)?(?-i:[A-Z])[\w'’.-]*"
         r"(?:\s+(?:&\s+)?(?-i:[A-Z])[\w'’.-]*){0,3})")
# Whom or what is switched, between the verb and "to": "our travel insurance", "the kids", "him".
_WHAT = r"\s+(?:our|my|the|his|her|their|him|them|us|physios|dentists|gps|vets|insurers|providers|suppliers)\b(?:\s+[a-z][\w'-]*){0,3}?"
# ... to "a new dentist, Parkview Dental", "a new physio called Tomasz".
_A_NEW = r"(?:a|an|the)\s+new\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?,?\s+(?:(?:called|named)\s+)?"
_SWITCHES = re.compile(
    r"(?<![\w'])(?i:"
    # "switching to Tomasz Nowak", "switched our travel insurance to AllClear", "moved the kids to a new
    # dentist, Parkview Dental" (but "moving to Leeds" is where one lives: moved, only something moved)
    r"(?:switch|switching|switched|change|changing|changed|swap|swapping|swapped)"
    rf"(?:\s+over)?(?:{_WHAT})?\s+(?:over\s+)?to\s+(?:{_A_NEW})?"
    rf"|(?:move|moving|moved)(?:{_WHAT}\s+to\s+(?:{_A_NEW})?|\s+to\s+{_A_NEW})"
    # "went with Admiral this year", "decided to go with Harbour Lettings" (not one gone with: a person)
    r"|(?P<with>(?:went|gone|going|go|opted|opting)\s+(?:with|for)\s+)"
    # "ditching the SiS gels for Maurten", "replaced Karen with Tomasz"
    r"|(?:ditching|ditched|dropping|dropped|replacing|replaced|swapping|swapped)\s+[\w'’-]+(?:\s+[\w'’-]+){0,3}?"
    r"\s+(?:for|with)\s+)"
    rf"{_NAME}(?![\w'’-])")
# Names that are no one's or nothing's value: days, months, the speaker.
_NOT_A_VALUE = frozenset(lx.WEEKDAYS | lx.WEEKDAYS_SHORT | lx.MONTHS | {"i", "christmas", "easter"})


# ... not when only thought of ("thinking of switching to Octopus", "we might go with Admiral").
_PONDERED = re.compile(r"\b(?i:thinking|think|considering|consider|might|may|could|should|would|maybe|perhaps|if|"
                       r"whether|not|never|don't|won't|didn't|can't|wanted|want|shall|rather)\b[^,.;]{0,25}$")


def switched_to(s: _Sentence, reg) -> str | None:
    """The name of the one the sentence says is switched to, or None; `reg`: the episode's names."""
    if s.question or s.hedged:
        return None
    for m in _SWITCHES.finditer(s.text):
        if _PONDERED.search(s.text, 0, m.start()):
            continue
        name = re.sub(r"['’]s$", "", m.group("v")).rstrip(".")
        if name.split()[0].lower() in _NOT_A_VALUE:
            continue
        if m.group("with") and name.split()[0].lower() in lx.GIVEN_NAMES and (
                (e := reg.get(name)) is None or e.type == "person"):
            continue  # ("I went with Tom to the match")
        return name
    return None
