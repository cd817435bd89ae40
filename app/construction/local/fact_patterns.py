"""The patterns of the fact rules: subjects, predicates, and where an object ends."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.bounds import LETTER, _alt
from app.construction.local.voice import _ADV_ALT, LY_ADVERB
from app.construction.local.entities import _KIN_ADJ, _KIN_ALT, _PET_ALT

# A name a value may be of: "Brightwave", "Harbor Logistics", "Flat 2" (a place by its number).
NAME = r"(?:\d{1,4}[A-Za-z]?\s+(?=[A-Z]))?[A-Z][\w-]*(?:\s+(?:[A-Z][\w-]*|\d{1,4}[A-Za-z]?\b))?"
# A day of the week, or its days ("Wednesdays").
DAY = rf"(?:{'|'.join(sorted(lx.WEEKDAYS | lx.WEEKDAYS_SHORT, key=len, reverse=True))})s?"


_A = rf"(?:(?:{_ADV_ALT})\s+)*"
_I = re.IGNORECASE
_LEAD = re.compile(r"^(?:\x00\d+\x00\s*,?\s*)+")
_FAV_MY = re.compile(
    r"^(?:my|our)\s+(?:all-time\s+|absolute\s+|new\s+|current\s+)?favou?rite\s+"
    r"(?P<cat>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:is|are|was|has to be|would be|right now is)\s+", _I)
_FAV_IS = re.compile(
    r"^(?P<obj>[^,;]{2,60}?)\s+(?:is|are)\s+(?:definitely\s+|probably\s+|still\s+)?my\s+"
    r"(?:all-time\s+|absolute\s+|new\s+)?favou?rite(?:\s+(?P<cat>[a-z][\w-]*(?:\s+[a-z][\w-]*)?))?\s*[.!]?$", _I)
_COMPOUND = re.compile(
    rf"^(?:(?i:my|our)\s+(?:(?i:{_KIN_ADJ})\s+)?[\w-]+(?:\s+[A-Z][\w'-]*){{0,2}}|[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
    r"\s+and\s+(?:I|me)(?![\w'])\s*"
    rf"|^(?i:me|I)\s+and\s+(?:(?i:my|our)\s+(?:(?i:{_KIN_ADJ})\s+)?[\w-]+|[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)?\s+(?=[a-z])")
_FIRST = re.compile(r"^(I'm|I've|I'll|I'd|I|we're|we've|we'll|we'd|we)(?![\w'])\s*", _I)
_SECOND = re.compile(r"^(you're|you've|you'll|you'd|you)(?![\w'])\s*", _I)
_THIRD = re.compile(r"^(he's|she's|he|she)(?![\w'])\s*", _I)
_MY_KIN = re.compile(
    rf"^(?P<det>my|our|your|his|her)\s+(?:(?:{_KIN_ADJ})\s+)?(?P<kin>{_KIN_ALT}|{_PET_ALT})(?![\w'-])"
    r"(?:,?\s+(?:named\s+|called\s+)?)?", _I)
_MY_NOUN_BE = re.compile(
    # ("my advisor there is Daniel Okoro": the advisor's, at the bank said before)
    r"^(?P<det>my|our)\s+(?P<noun>[a-z][\w-]*(?:\s+(?!(?:there|here)\b)[a-z][\w-]*)?)(?:\s+(?:there|here))?"
    r"\s+(?P<be>is|was|are|were)\s+", _I)
_HOMES = frozenset("flat apartment house home place condo".split())
# "I live in a flat in Hackney", "we moved into a tiny studio near Lloyd Park": the place is
# where the home is.
_A_HOME = (r"(?:(?:a|an|our|my|his|her|their)\s+(?:[\w-]+\s+){0,2}?"
           r"(?:flat|apartment|house|home|place|condo|studio|bungalow|cottage)\s+(?:in|near|on)\s+)?")
OFFICE_WORDS = ("office", "branch", "site", "campus", "hq", "headquarters")
_OFFICE_AHEAD = rf"(?=(?:[\w-]+\s+){{0,2}}(?i:{'|'.join(OFFICE_WORDS)})\b)"
# (a role of two words is one noun: "our tour manager lost his voice" was "Ruth's tour | manager")
_MY_NOUN = re.compile(r"^(?P<det>my|our)\s+(?P<noun>[a-z][\w-]*(?:\s+(?:manager|engineer|director|designer|visitor|"
                      r"agent|nurse|porter|chef|officer|secretary|assistant)(?=\s))?)\s+(?=[a-z])", _I)
_CLAUSE_FIRST = re.compile(r",\s+(?=(?:I|I'm|I've|I'll|I'd|we|we're|we've)(?![\w']))")
_IMPLIED = {"i'm": "am", "i've": "have", "i'll": "will", "i'd": "would", "we're": "are",
            "we've": "have", "we'll": "will", "we'd": "would", "you're": "are", "you've": "have",
            "you'll": "will", "you'd": "would", "he's": "is", "she's": "is"}
_PROF_ALT = _alt(lx.PROFESSIONS)

# Facts that end a single-valued one with no new value, and the predicate they end.
# A value's adjective of its being the latest, no part of what it is of: "My new goal is to
# deadlift 80 kg" is the goal's timeline, whose old value it ends (it was "new goal is", a
# timeline of its own, and "lose weight" stayed current).
RENEWED = re.compile(r"^(?:new|current|latest|updated|revised|actual|real|present)\s+(?=\S+.*\sis$)")
_ENDS = {"left job at": "works at", "moved out of": "lives in", "stopped taking": "takes"}
_LEAVE = r"(?:quit|left|resigned\s+from)"

# (pattern on the verb phrase, predicate, object mode, single-valued), tried in order
_RULE_SPECS: list[tuple[str, str, str, bool]] = [
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?{_LEAVE}\s+(?:my|his|her|their|the|a)\s+(?:(?:old|last|current)\s+)?"
     r"(?:job|position|role|company)\b(?:\s+(?:at|with|in)\s+(?:the\s+)?)?", "left job at", "ends_job", False),
    # "I handed in my notice at Siemens": the job ends (the day it takes effect is not said).
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?(?:handed\s+in|gave|given|put\s+in)\s+(?:my|his|her|their)\s+"
     r"notice\b(?:\s+(?:at|to|with)\s+(?:the\s+)?)?", "left job at", "ends_job", False),
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?{_LEAVE}\s+(?:the\s+)?(?=[A-Z])", "left", "ends_either", False),
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?moved\s+(?:out\s+of|away\s+from)\s+(?:the\s+)?",
     "moved out of", "ends_place", False),
    (rf"^{_A}no\s+longer\s+{_A}(?:work|works|working)\s+(?:at|for)\s+(?:the\s+)?", "left job at", "ends_job", False),
    (rf"^{_A}no\s+longer\s+{_A}(?:live|lives|living)\s+(?:in|at)\s+(?:the\s+)?", "moved out of", "ends_place",
     False),
    # "I moved to the Berlin office", "I'm still in the London office", "I work out of the Lisbon
    # office": where someone works, one office at a time, not a home nor an employer (the Berlin
    # office is no company that would end Acme).
    (rf"^{_A}(?:(?:have|has|had|am|is|are|was|were)\s+{_A})?(?:(?:moved|moving|relocated|relocating|transferred|"
     rf"transferring|switched|switching|gone|going|went|back)\s+{_A}(?:back\s+)?(?:to|into)|(?:work|works|working|"
     rf"based|sitting|sit|sits)\s+{_A}(?:at|in|from|out\s+of)|in|at)\s+the\s+{_OFFICE_AHEAD}",
     "office is", "office", True),
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?(?:moved|relocated)\s+{_A}(?:back\s+)?(?:to|into)\s+{_A_HOME}(?:the\s+)?",
     "lives in", "place", True),
    # "he lives with me in Edison", "Dad is settled in at Sunrise Gardens now": where, beside whom.
    (rf"^{_A}(?:(?:am|is|are|have been|has been)\s+{_A})?(?:live|lives|living|reside|resides|residing|"
     rf"based|settled(?:\s+in(?=\s+at\b))?|unpacked)\s+{_A}"
     r"(?:with\s+(?:me|us|him|her|them|(?:my|his|her|their|our)\s+[\w-]+(?:\s+[A-Z][\w'-]*)?|"
     r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+)?"
     rf"(?:in|at|near)\s+{_A_HOME}(?:the\s+)?", "lives in", "place", True),
    (rf"^{_A}(?:(?:am|is|are|have been|has been)\s+{_A})?(?:work|works|working)\s+{_A}(?:at|for)\s+(?:the\s+)?",
     "works at", "org", True),
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?(?:got|landed|accepted|started|began|took|have|has|found)\s+"
     r"(?:a|an|the|my|his|her)\s+(?:(?:new|full-time|part-time|dream|first|great)\s+)*"
     r"(?:job|position|role|internship|gig)\s+(?:as\s+an?\s+[\w-]+(?:\s+[\w-]+)?\s+)?(?:at|with|for)\s+(?:the\s+)?",
     "works at", "org", True),
    (rf"^{_A}(?:(?:have|has)\s+)?(?:started|began)\s+(?:working|work|a\s+job)\s+(?:at|for|with)\s+(?:the\s+)?",
     "works at", "org", True),
    (rf"^{_A}(?:was|were|got|have been|has been|just got)\s+{_A}hired\s+(?:at|by)\s+(?:the\s+)?",
     "works at", "org", True),
    (rf"^{_A}(?:(?:have|has)\s+)?joined\s+(?:the\s+)?(?=[A-Z])", "works at", "org_only", True),
    # "I'm starting at Volta Labs on Monday", "she started at Pixelhaus": a named organisation
    # only ("started at 9" is not a job).
    (rf"^{_A}(?:(?:am|is|are|have|has)\s+{_A})?(?:start|starts|started|starting)\s+{_A}"
     r"(?:(?:work|working|a\s+new\s+job)\s+)?at\s+(?:the\s+)?(?=[A-Z])", "works at", "org_only", True),
    # "she got promoted to head nurse at Santa Maria": the post is at the place named.
    (rf"^{_A}(?:(?:was|were|got|have been|has been|just got)\s+{_A})promoted\s+to\s+"
     r"(?:[\w-]+\s+){1,5}?(?:at|with|in)\s+(?:the\s+)?(?=[A-Z])", "works at", "named", True),
    (rf"^{_A}(?:(?:am|is|are|have been|has been)\s+{_A})?(?:work|works|working)\s+{_A}as\s+(?:an?\s+)?",
     "job is", "job", True),
    # "I'm the new head of design at Quill", "she's been a data analyst at Rivet Labs": a post
    # (a profession's word among its first words) held at a named organisation.
    # Without an article, a title said as one ("he's now VP Ops at Globex").
    (rf"^{_A}(?:am|is|are|have been|has been)\s+{_A}(?:now\s+)?(?:(?:an?|the)\s+(?:new\s+)?|"
     r"(?=(?:VP|SVP|EVP|Head|Director|Chief|CEO|CFO|CTO|COO|CMO)\b))"
     rf"(?=(?:[\w-]+\s+){{0,3}}?(?:{_PROF_ALT}|head|director|chief|lead|manager|officer|vp|svp|evp)\b)"
     r"(?:[\w-]+\s+){1,5}?(?:at|for|with)\s+(?:the\s+)?(?=[A-Z])",
     "works at", "named", True),
    (rf"^{_A}(?:am|is|are)\s+{_A}(?:now\s+)?(?:an?)\s+(?=(?:[\w-]+\s+){{0,2}}?(?:{_PROF_ALT})\b)",
     "job is", "job", True),
    # "seeing a physio" is no relationship.
    (rf"^{_A}(?:am|is|are|have been|has been)\s+{_A}(?:dating|seeing|going out with)\s+"
     rf"(?!(?:a|an|the|my|his|her|their|our)\s+(?:new\s+)?(?:{_PROF_ALT}|physio|gp|specialist)\b)",
     "relationship status is", "dating", True),
    (rf"^{_A}(?:am|is|are|got|have been|has been|just got|recently got)\s+{_A}"
     r"(?P<st>married|engaged|divorced|separated|widowed)\b(?:\s+to\s+)?",
     "relationship status is", "status", True),
    (rf"^{_A}(?:am|is|are)\s+{_A}(?:happily\s+)?(?P<st>single|in a relationship)\b(?:\s+with\s+)?",
     "relationship status is", "status", True),
    (rf"^{_A}(?:(?:have|has|had)\s+)?(?:broke|broken|split)\s+up\b", "relationship status is", "single", True),
    (rf"^{_A}(?:am|is|are|was|were)\s+{_A}(?:severely\s+|very\s+|deathly\s+|highly\s+|mildly\s+|"
     r"super\s+|extremely\s+)?allergic\s+to\s+", "is allergic to", "list", False),
    (rf"^{_A}(?:like|likes|enjoy|enjoys)\s+(?!to\b)", "likes", "rest", False),
    (rf"^{_A}(?:love|loves|adore|adores)\s+(?!to\b)", "loves", "rest", False),
    (rf"^{_A}(?:hate|hates|dislike|dislikes|can't stand|cannot stand|detest|detests)\s+", "dislikes", "rest", False),
    (rf"^{_A}(?:am|is|are)\s+{_A}(?:really\s+|so\s+|very\s+)?(?:into|a\s+(?:big\s+|huge\s+)?fan\s+of)\s+",
     "likes", "rest", False),
    (rf"^{_A}(?:have|has|have got|has got)\s+(?!to\b|been\b|had\b|got\b|{_ADV_ALT}\b)(?=[a-z\x00])",
     "has", "has", False),
    (rf"^{_A}(?:am|is|are)\s+{_A}(?!\w+ing\b|not\b)", "is", "rest", False),
    (rf"^{_A}(?:was|were)\s+{_A}(?!\w+ing\b|not\b)", "was", "rest", False),
]
_RULES = [(re.compile(p, _I), pred, mode, single) for p, pred, mode, single in _RULE_SPECS]

_AUX_ALT = ("have to|has to|had to|got to|ought to|used to|"
            "am|is|are|was|were|have|has|had|will|would|can|could|should|must|might|may|do|does|did|"
            "don't|doesn't|didn't|won't|can't|couldn't|wouldn't|shouldn't|haven't|hasn't|hadn't|"
            "wasn't|isn't|aren't|been|be|being|gonna|wanna|not|cannot")
_GENERIC = re.compile(rf"^(?P<aux>(?:(?:{_AUX_ALT}|{_ADV_ALT}|{LY_ADVERB.pattern})\s+)*)"
                      rf"(?P<verb>{LETTER}(?:{LETTER}|['-])*)", _I)
_TO_INF = re.compile(rf"\s+(?i:to)\s+(?P<inf>[a-z](?:{LETTER}|['-])*)")
_PREP = re.compile(r"\s+(?P<prep>to|in|at|for|with|on|about|from|into|by|up|out|off|over|along|through|"
                   r"around|back|down|of|across|away)\b(?!-)(?!\s*[.,!?]?$)", _I)  # ("on-call": a word)
_TO_VERBS = frozenset("""
going want wants wanted need needs needed plan plans planning planned hope hopes hoping hoped try
tries trying tried decided decide decides started start starts began begin love loves loved like
likes liked used have has had got learn learning learned managed continue continued wish wishes
expect expects intend intends forgot remember remembered agreed promised refuse refused afford
prefer prefers prefered preferred going gonna able
""".split())
_AUX_3RD = {"am": "is", "are": "is", "have": "has", "do": "does", "don't": "doesn't", "haven't": "hasn't",
            "aren't": "isn't", "were": "was", "weren't": "wasn't", "gonna": "is going to",
            "wanna": "wants to", "'m": "is", "'ve": "has", "'re": "is"}
_CHUNK_END = re.compile(
    r"[,;:.!?()\x00\"]|\s(?:and|but|so|because|since|which|who|when|while|where|although|though|if|"
    r"as|or|until|after|before|with|for|to|from|at|in|on|by|that)\s", _I)
_LIST_END = re.compile(
    r"[;:.!?()\x00\"]|,\s*(?:so|but|and\s+(?:i|we|my|he|she|they|it))\b|\s(?:but|so|because|since|which|"
    r"who|when|while|although|though|if|until)\s|\s(?:tho|lol|haha|btw|lmao)\b|"
    r"\s(?:and|or)\s+(?:i|we|my|he|she|they|it|that|this|these|those|there|half|most|all|none|"
    r"everything|nothing|anything)\b", _I)


def _chunk(s: str, pattern: re.Pattern = _CHUNK_END, max_words: int = 6) -> str:
    m = pattern.search(s)
    part = s[: m.start()] if m else s
    words = part.split()[:max_words]
    return " ".join(words).strip(" '\"-")


def _third(word: str) -> str:
    return _AUX_3RD.get(word.lower(), word.lower())
