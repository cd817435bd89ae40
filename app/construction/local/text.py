"""Text normalisation: emoji, openers, labels, clipping."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.sentences import EMOJI_CLASS as _EMOJI_CLASS
from app.construction.local.bounds import LETTER, _alt


_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
                         "\u2013": "-", "\u2014": " - "})
_EMOJI = re.compile(f"[{_EMOJI_CLASS}]+")
# ("8)" is a face, "83" a number: "Weight's 83.1 today" lost its 83.)
_EMOTICON = re.compile(r"(?<!\w)(?:[:;=xX]-?[()DPpOo3/\\|*]|8-?[()DPp]|<3|\^_\^|:'\()(?!\w)")
_SPACES = re.compile(r"[ \t\r\f\v]+")
# Texting drops the apostrophe ("i dont eat meat", "cant make it"): put back, the rules for
# "don't" and "can't" read them (a constraint, a verb that is not conjugated).
_NO_APOSTROPHE = re.compile(r"\b(do|does|did|is|was|were|are|has|have|had|could|would|should|ca|wo)nt\b", re.I)


def _apostrophe(m: re.Match) -> str:
    head = m.group(1)  # "ca" + "n't", "do" + "n't"
    return head + ("N'T" if head.isupper() else "n't")


def _normalise(text: str) -> str:
    return _NO_APOSTROPHE.sub(_apostrophe, text.translate(_QUOTES))


def _strip_emoji(s: str) -> str:
    s = _EMOJI.sub(" ", s)
    s = _EMOTICON.sub(" ", s)
    return _SPACES.sub(" ", s).strip()


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:-") + "\u2026"


# Openers that carry no content: "Yes, ", "Oh wow! ", "By the way, ", "Big news: ".
_OPENER_WORDS = _alt(w for w in lx.INTERJECTIONS if w not in lx.DATE_WORDS)
_OPENER = re.compile(
    rf"^(?:(?:{_OPENER_WORDS})(?:\s+(?:{_OPENER_WORDS}))*(?:\s*[,!.:;\-]+\s*|\s+(?=(?:I|I'm|I've|I'll|I'd|we|we're|my|our)\b))"
    r"|@[\w.-]+[,:]?\s+(?=[a-z]|please\b|can\b|could\b)"  # "@Orbit please never ...": whom it is said to
    r"|(?:by the way|between us|between you and me|to be honest|tbh|fun fact|guess what|big news|good news|"
    r"bad news|great news|quick one|quick question|quick note|quick thing|heads up|one more thing|"
    r"quick update|update|oh and|and|but|so|well|also|plus|anyway|then|p\.?s\.?)\s*[,:!-]?\s+"
    r"|(?:done|all\s+done|all\s+set)\s*[,!:]\s+"  # an assistant's "Done, I upgraded your plan to ..."
    # a word that marks what follows, with its stop: "Yes important - Leon Marsh has a severe peanut allergy"
    rf"|(?:(?:{_OPENER_WORDS})[\s,]+)*(?:(?:very|really|super|most)\s+)?(?:important|importantly|crucially|urgent|fyi|psa|nb)"
    r"\s*[,:!\-–—]+\s*)",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^[^:\d]{1,24}:\s+(?=\S)")
_ABOUT_LABEL = re.compile(r"^(?:(?i:on|about|re|regarding|for|(?:an?\s+)?update\s+on|news\s+(?:on|about))\s+"
                          r"(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)|"
                          # ("Dan update: his physio is Dr Fiona Blake")
                          r"(?P<name2>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+(?i:update|news))\s*:\s*")
_PRONOUN_LEAD = re.compile(r"(?:(?:he|she|they)(?P<v>'s|'re|'ll|\s)|(?P<whose>his|her|their)\s)", re.IGNORECASE)
# A pronoun's verb written out where a name takes the pronoun's place ("he's" -> "Omar is").
PRONOUN_VERB = {"'s": " is", "'re": " are", "'ll": " will", "'d": " would"}
# "Severe sesame allergy: tahini, hummus, ...": the label is the point, not a heading.
_CONSTRAINT_LABEL = re.compile(r"(?i)\b(?:allerg\w*|intoleran\w*|vegan|vegetarian|coeliac|celiac|diabet\w*)\b")
# ("updated burn: $72k a month now, we added two contractors")
_LABELLED_VALUE = re.compile(r"[$£€]?\d[\d,.]*(?:\s*[a-zA-Z%]{1,6})?(?:\s+(?:a|an|per)\s+[a-z]+)?(?:\s+now)?"
                             r"\s*(?:for\b|x\s*\d|[.!,;]|$)")
# A label that says the value is new: "burn update: ...", "updated burn: ..." (the value's "burn").
_UPDATE_WORD = re.compile(r"^(?i:updated|new|latest|revised)\s+|\s+(?i:update|updates)(?=:)")
# The same said last: "Sam is vegan, by the way." is "Sam is vegan."
_CLOSER = re.compile(r"\s*,\s*(?:by the way|btw|to be honest|tbh|haha|lol|though)\s*(?=[.!?]*$)", re.IGNORECASE)
# ... and said between commas: "I'm allergic to shellfish, by the way, keep that in mind",
# "Also, between us, I'm interviewing" ("us" was the speaker: "Between Sofia, ...").
_ASIDE = re.compile(r"\s*,\s*(?:by the way|btw|between us|between you and me|to be honest|tbh|honestly)\s*,",
                    re.IGNORECASE)
# "Sam's our drummer", "Dev's the tour manager": "is" (nothing of Sam's is "our" anything).
_NAME_IS_OUR = re.compile(r"\b([A-Z][\w-]+)['’]s\s+(?=(?:our|my|the|your)\s+(?:[\w-]+\s+){0,2}[\w-]+\s*(?:[,.;!?]|$))")
# "@Jun": Jun, as a name said ("thanks @Jun"; not an address, "ana@acme.com").
_AT_NAME = re.compile(r"(?<![\w.@])@(?=[A-Za-z])")


def _clean_sentence(s: str) -> str:
    s = _strip_emoji(s)
    for _ in range(3):
        m = _OPENER.match(s)
        if not m or m.end() == 0:
            break
        s = s[m.end():]
    m = _LABEL.match(s)
    if (about := _ABOUT_LABEL.match(s)) and (he := _PRONOUN_LEAD.match(s, about.end())):
        # "Big news on Omar: he's dropping ...": "Omar is dropping ..." (the label named whom)
        name = about.group("name") or about.group("name2")
        s = (f"{name}'s {s[he.end():]}" if he.group("whose")
             else f"{name}{PRONOUN_VERB.get(he.group('v').lower(), ' ')}{s[he.end():]}")
    elif m and len(m.group().split()) <= 3 and not _CONSTRAINT_LABEL.search(m.group()):
        # "New squat PR: 87 kg for 5": the label is what the value is of ("... is 87 kg").
        s = (f"{_UPDATE_WORD.sub('', m.group()).rstrip()[:-1]} is {s[m.end():]}" if _LABELLED_VALUE.match(s, m.end())
             else s[m.end():])
    s = _NAME_IS_OUR.sub(lambda m: m.group() if m.group(1).lower() in lx.STOPWORDS else f"{m.group(1)} is ",
                         _CLOSER.sub("", _ASIDE.sub(",", s)))
    s = _AT_NAME.sub("", s)
    s = s.strip(" -*\u2022\"'")
    if s[:1].islower() and not re.match(r"i\b|i'", s):
        s = s[0].upper() + s[1:]
    return s


_WORD = re.compile(rf"{LETTER}(?:{LETTER}|['-])*")


def _content_score(text: str) -> float:
    score = 0.0
    for w in _WORD.findall(text.lower()):
        if len(w) < 3 or w in lx.STOPWORDS or w in lx.INTERJECTIONS or w in lx.PRONOUNS:
            continue
        score += 0.5 if w in lx.COMMON_WORDS else 1.0
    return score


def held_number(old: str) -> re.Pattern:
    """The number `old` as a value holds it, whole and never a part of a day or a time ("2026-11-30"
    holds no 30 to correct, "3:50" no 50): what a correction ("42 not 30") replaces, in the episode
    (local/measures.py) and at write time (construction/corrections.py) alike."""
    return re.compile(rf"(?<![\d.,:-]){re.escape(old)}(?![\d,:-]|\.\d)")


_MERIDIEM = re.compile(r"\d\s?[ap]\.?m$", re.I)


def said_meridiem(time: str) -> bool:
    """Whether a time ends with its half of the day ("10am", "6:30 pm")."""
    return _MERIDIEM.search(time) is not None


def put_instead(text: str, old: str, new: str) -> str:
    """`text` with the number `old` (as held_number finds it) said as `new`, once; a new time that
    says its half of the day ("10am not 10:30") takes the old one's too ("kick off 10:30am" is
    "kick off 10am", not "10amam")."""
    then = r"(?:\s?[ap]\.?m\b)?" if said_meridiem(new) else ""
    return re.sub(held_number(old).pattern + then, lambda _: new, text, count=1)

