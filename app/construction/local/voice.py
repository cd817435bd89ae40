"""Third-person rewriting: "I" as the speaker, "you" as the other, verbs agreeing."""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.construction import lexicon as lx
from app.construction.local.bounds import _alt


_ADVERBS = lx.ADVERBS | {"never", "always"}
_ADV_ALT = _alt(_ADVERBS)
_PRONOUN = re.compile(
    r"(?<![\w'\x00])(I'm|I've|I'll|I'd|I|me|my|mine|myself|we're|we've|we'll|we'd|we|us|our|ours|"
    r"ourselves|you're|you've|you'll|you'd|you|your|yours|yourself|yourselves)(?![\w'])(?!\.[A-Za-z])",
    re.IGNORECASE,
)
# A word in -ly before the verb is an adverb ("I highly recommend", "I fully agree"), but for
# the verbs that end so.
LY_ADVERB = re.compile(r"(?!(?:rely|apply|reply|supply|fly|comply|imply|multiply|ally|bully|rally|tally|"
                       r"sully|dally)\b)[a-z]{2,}ly", re.IGNORECASE)
_FOLLOW = re.compile(rf"(\s+)((?:(?:{_ADV_ALT}|{LY_ADVERB.pattern})\s+)*)([A-Za-z][A-Za-z']*)", re.IGNORECASE)
_SUBJECT_BEFORE = re.compile(
    r"(?:^|[,;:(\"\x00]|\b(?:and|but|so|because|cause|if|when|that|then|while|since|as|or|unless|"
    r"until|before|after|where|how|why|what|think|hope|know|guess|bet|wish|maybe|now|once))\s*$",
    re.IGNORECASE,
)
_COMPOUND_BEFORE = re.compile(
    r"(?:^|[,;]\s*|\x00\d+\x00\s*|\b(?:and|but|so|because|when|then|yesterday|today)\s+)"
    r"(?:(?:my|our)\s+\w+(?:\s+[A-Z][\w']*){0,2}|[A-Z][\w']*(?:\s+[A-Z][\w']*)?|me)\s+and\s*$", re.IGNORECASE)
# "both of us", said as "us both"
_BOTH_OF_US = re.compile(r"\bboth\s+of\s+(us|you)\b", re.I)
# "us both", "us all": the speaker and others (not "us all day", "us all the details")
US_ALL = re.compile(r"\s+(both|all)\b(?!\s+(?:of|the|my|our|day|week|year)\b)", re.I)
_QUANTITY_OF = re.compile(r"(?<![\w'])(?:all|each|some|most|many|few|none|one|two|three|four|five|six|"
                          r"seven|eight|nine|ten|eleven|twelve|twenty|thirty|\d+)\s+of\s+$", re.IGNORECASE)
_CONTRACTION = {"'m": "is", "'ve": "has", "'ll": "will", "'d": "would", "'re": "is"}
_PLURAL_CONTRACTION = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_VERBISH = frozenset("""
am is are was were be been being have has had having do does did doing done get gets got getting
gotten said say says see seem seems need let make go going don't doesn't didn't haven't hasn't
""".split())


_VERB_STOPS = frozenset("need get say see seem seems let own".split())


def conjugate(word: str) -> str:
    """The third-person singular of a present-tense verb after 'I'/'you' ('love' -> 'loves')."""
    lw = word.lower()
    if lw in lx.THIRD_PERSON:
        return lx.THIRD_PERSON[lw]
    if ((lw in lx.STOPWORDS and lw not in _VERB_STOPS) or lw in lx.IRREGULAR_PAST or lw in lx.PRONOUNS
            or not lw.isalpha()
            or _looks_past(lw) or lw.endswith("ing") or len(lw) < 2 or _prefixed_past(lw)):
        return word
    if lw.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if lw.endswith("y") and lw[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _looks_past(lw: str) -> bool:
    """'moved', 'visited', 'agreed', 'freed' -- but not 'need', 'feed', 'speed'."""
    return (lw.endswith("ed") and (not lw.endswith("eed") or lw.endswith(_EED_PAST))
            and lw not in ("shred", "embed", "wed", "bed"))


# Verbs in -ee whose past ends in -eed ("agreed": "Owen agreeds" was made of "we agreed").
_EED_PAST = ("agreed", "freed", "decreed", "guaranteed", "refereed", "disagreed")


def _prefixed_past(lw: str) -> bool:
    for prefix in ("re", "over", "under", "out", "mis", "with", "for", "up", "un"):
        if lw.startswith(prefix) and lw[len(prefix):] in lx.IRREGULAR_PAST:
            return True
    return False


def possessive(name: str) -> str:
    return f"{name}'s"


@dataclass
class _Voice:
    """Who the pronouns of one sentence refer to."""

    speaker: str
    other: str | None = None       # "you"
    companion: str | None = None   # with "we": the other person in the sentence
    # "we" and "our" kept as said, in a value told as someone's words ("Jess said we hire our
    # van from Cargo Hire"): the group's, not the speaker's ("Jess hires Jess's van").
    keep_we: bool = False


def rewrite(s: str, voice: _Voice) -> str:
    """`s` with first (and, when resolvable, second) person replaced by names."""
    s = _BOTH_OF_US.sub(r"\1 both", s)  # ("send reminders to both of us" had been "to both of Claire")
    out: list[str] = []
    pos = 0
    for m in _PRONOUN.finditer(s):
        if m.start() < pos:
            continue
        tok = m.group(1)
        low = tok.lower()
        if tok == "US" or (low == "i" and tok == "i" and s[m.end():m.end() + 1] == ".") or _in_a_name(s, m):
            continue
        out.append(s[pos:m.start()])
        repl, end = _replace_pronoun(s, m, low, voice)
        out.append(repl)
        pos = end
    out.append(s[pos:])
    return "".join(out)


# A pronoun that is part of a name or a title, no one's: "NS&I", "a Joie i-Snug 2", "Abide with Me",
# "Love Me Tender", "The Lord's my Shepherd" (each had been the speaker's name).
_JOINED_AFTER = re.compile(r"&|-(?=[A-Za-z0-9])")  # ("i-Snug", "me-time"; not "happening--I'm exploring")
_JOINED_BEFORE = re.compile(r"(?:&|(?<=[A-Za-z0-9])-)$")
_TITLE_CASE = frozenset("Me My Mine Myself We Us Our You Your".split())
_WORD_BEFORE = re.compile(r"([\w'’]+)\s+$")
_SENTENCE_START = re.compile(r"(?:^|[.!?\"“(]\s*)$")
_WORD_AFTER = re.compile(r"\s+([\w'’]+)")


def _in_a_name(s: str, m: re.Match) -> bool:
    if _JOINED_AFTER.match(s, m.end()) or _JOINED_BEFORE.search(s, 0, m.start()):
        return True
    before, after = _WORD_BEFORE.search(s, 0, m.start()), _WORD_AFTER.match(s, m.end())
    if before is None or _SENTENCE_START.search(s, 0, before.start()):
        return False  # a sentence's first word, or the one after it ("Finding my Zen is ...")
    if m.group(1) in _TITLE_CASE:
        return True  # capitalised inside a sentence
    return (m.group(1).lower() in ("my", "our", "your") and before.group(1)[:1].isupper()
            and after is not None and after.group(1)[:1].isupper() and before.group(1).lower() not in _LOWER_OK)


# ... not after a word that is capitalised for other reasons ("I" itself, a greeting: "Hi my Mum ...")
_LOWER_OK = frozenset("i hi hey thanks dear".split())


# An emphatic "myself" ends a clause that says what the speaker is ("I'm still in the London
# office myself", "I'm vegetarian myself"): after a form of "be" in that clause, with no verb or
# preposition right before it that would take it as an object ("I'm proud of myself", "I'm
# going to treat myself", "I'm teaching myself").
_EMPHATIC = re.compile(
    r"\b(?:I'm|I\s+am|I\s+was|I've\s+been)\s[^,;:.!?]*?(?<![\w'])(?!(?:by|for|to|with|about|of|on|from|at|in|"
    r"into|onto|against|like|than|as|behind|before|after|between|among|around|near|over|under|upon|without|"
    r"within|toward|towards|me|you|be|been|being|myself|help|keep|make|let|get|find|see|treat|enjoy|remind|"
    r"push|force|allow|hurt|blame|consider|call)\s+$)(?![a-z']*(?:ing|ed)\s+$)(?<!\bto\s)(?<!\bto\s\s)"
    r"(?!I'm\s+$)[A-Za-z][a-z']*\s+$", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*(?:[,.;!?)]|$|\s(?:and|but|so|too|as\s+well)\b)")
_MYSELF = re.compile(r"\s+myself\b", re.IGNORECASE)


def without_emphatic(text: str) -> str:
    """`text` without an emphatic "myself", which would be the object of what it says."""
    for m in reversed(list(_MYSELF.finditer(text))):
        if _EMPHATIC.search(text, 0, m.start() + 1) and _CLAUSE_END.match(text, m.end()):
            text = text[:m.start()] + text[m.end():]
    return text


def _replace_pronoun(s: str, m: re.Match, low: str, voice: _Voice) -> tuple[str, int]:
    end = m.end()
    base, _, tail = low.partition("'")
    tail = "'" + tail if tail else ""
    if base in ("i", "me", "my", "mine", "myself"):
        name = voice.speaker
        plural = False
    elif base in ("we", "us", "our", "ours", "ourselves"):
        if voice.keep_we and voice.companion is None:
            return m.group(1), end
        plural = voice.companion is not None and base in ("we", "us")
        name = f"{voice.speaker} and {voice.companion}" if plural else voice.speaker
    else:
        if voice.other is None or (base == "you" and _YOU_IDIOM.search(s, 0, m.start())):
            return m.group(1), end  # ("as a thank you", "mind you": no one's)
        name = voice.other
        plural = False
    if base in ("my", "mine", "our", "ours", "your", "yours"):
        return possessive(name), end
    if base in ("myself", "ourselves", "yourself", "yourselves"):
        return "themself" if base != "ourselves" else "themselves", end
    if base == "us" and not plural and (both := US_ALL.match(s, end)):
        # "Dr. Lee saw us both": the speaker and someone not named, not "saw Tomás both"
        return f"{name} and {'another' if both.group(1).lower() == 'both' else 'others'}", both.end()
    if base == "us" and not plural and _QUANTITY_OF.search(s, 0, m.start()):
        return f"{possessive(name)} group", end  # "for eight of us": not "for eight of Clara"
    if base in ("me", "us"):
        return name, end
    if tail:
        verb = (_PLURAL_CONTRACTION if plural else _CONTRACTION).get(tail, "")
        return (f"{name} {verb}" if verb else name), end
    # a bare subject pronoun: I / we / you, maybe followed by a verb to put in the third person
    if base == "you" and not _SUBJECT_BEFORE.search(s, 0, m.start()):
        return name, end
    if plural:
        return name, end
    if base == "i" and _COMPOUND_BEFORE.search(s, 0, m.start()):
        return name, end  # "Mel and I went": a plural subject, the verb stays
    f = _FOLLOW.match(s, end)
    if not f:
        return name, end
    word = f.group(3)
    lw = word.lower()
    if lw in lx.PRONOUNS or (lw in lx.STOPWORDS and lw not in lx.THIRD_PERSON and lw not in _VERB_STOPS):
        return name, end
    return f"{name}{f.group(1)}{f.group(2)}{conjugate(word)}", f.end()


# "you" of a saying, no one addressed: "mind you", "as a thank you", "bless you" (a "thank you" or "see you"
# is said to whom it thanks).
_YOU_IDIOM = re.compile(r"\b(?:mind|an?\s+thank|bless|just\s+so)\s+$", re.IGNORECASE)  # ("just so you know")


# "him", and "her" where it is no possessive: "call her", "Petra referred her", "any room we book
# for him", "talking about her" (not "her office", "her latest argument").
OBJECT_PRONOUN = re.compile(
    r"\bhim\b|\bher\b(?=\s*(?:$|[,.;!?]|(?:about|on|before|after|at|in|until|during|outside|again|directly|back|"
    r"first|tomorrow|"
    r"today|tonight|ever|or|and|to|for|with|up|down|out|off|too|instead|now|is|was)\b))", re.IGNORECASE)
