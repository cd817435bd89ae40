"""The `local` extractor: one MemCell's turns -> an Extraction, with rules only (no model, no I/O).

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
"""
from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone

from app.construction import lexicon as lx
from app.construction.dates import FUTURE, PAST, DateMention, absolute_text, find_dates, inline_text
from app.construction.sentences import EMOJI_CLASS as _EMOJI_CLASS
from app.construction.sentences import split_sentences  # noqa: F401 - also imported from here
from app.domain.models import EntityDraft, Extraction, FactDraft, ForesightDraft, TurnRecord

log = logging.getLogger(__name__)

__all__ = ["LocalExtractor"]

# Bounds: whatever the input, the work per turn and per cell stays small.
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


def _alt(words) -> str:
    """A regex alternation of literal words, longest first (so 'sisters' beats 'sister')."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


# ---------------------------------------------------------------------------------------------
# Text normalisation and sentence splitting

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
                         "\u2013": "-", "\u2014": " - "})
_EMOJI = re.compile(f"[{_EMOJI_CLASS}]+")
_EMOTICON = re.compile(r"(?<!\w)(?:[:;=xX8]-?[()DPpOo3/\\|*]|<3|\^_\^|:'\()(?!\w)")
_SPACES = re.compile(r"[ \t\r\f\v]+")
def _normalise(text: str) -> str:
    return text.translate(_QUOTES)


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
    r"|(?:by the way|to be honest|tbh|fun fact|guess what|big news|good news|bad news|great news|"
    r"quick update|update|oh and|and|but|so|well|also|plus|anyway|then|p\.?s\.?)\s*[,:!-]?\s+)",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^[^:\d]{1,24}:\s+(?=\S)")


def _clean_sentence(s: str) -> str:
    s = _strip_emoji(s)
    for _ in range(3):
        m = _OPENER.match(s)
        if not m or m.end() == 0:
            break
        s = s[m.end():]
    m = _LABEL.match(s)
    if m and len(m.group().split()) <= 3:
        s = s[m.end():]
    s = s.strip(" -*\u2022\"'")
    if s[:1].islower() and not re.match(r"i\b|i'", s):
        s = s[0].upper() + s[1:]
    return s


# ---------------------------------------------------------------------------------------------
# Third-person rewriting

_ADVERBS = lx.ADVERBS | {"never", "always"}
_ADV_ALT = _alt(_ADVERBS)
_PRONOUN = re.compile(
    r"(?<![\w'\x00])(I'm|I've|I'll|I'd|I|me|my|mine|myself|we're|we've|we'll|we'd|we|us|our|ours|"
    r"ourselves|you're|you've|you'll|you'd|you|your|yours|yourself|yourselves)(?![\w'])(?!\.[A-Za-z])",
    re.IGNORECASE,
)
_FOLLOW = re.compile(rf"(\s+)((?:(?:{_ADV_ALT})\s+)*)([A-Za-z][A-Za-z']*)", re.IGNORECASE)
_SUBJECT_BEFORE = re.compile(
    r"(?:^|[,;:(\"\x00]|\b(?:and|but|so|because|cause|if|when|that|then|while|since|as|or|unless|"
    r"until|before|after|where|how|why|what|think|hope|know|guess|bet|wish|maybe|now|once))\s*$",
    re.IGNORECASE,
)
_COMPOUND_BEFORE = re.compile(
    r"(?:^|[,;]\s*|\x00\d+\x00\s*|\b(?:and|but|so|because|when|then|yesterday|today)\s+)"
    r"(?:(?:my|our)\s+\w+(?:\s+[A-Z][\w']*){0,2}|[A-Z][\w']*(?:\s+[A-Z][\w']*)?|me)\s+and\s*$", re.IGNORECASE)
_CONTRACTION = {"'m": "is", "'ve": "has", "'ll": "will", "'d": "would", "'re": "is"}
_PLURAL_CONTRACTION = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_VERBISH = frozenset("""
am is are was were be been being have has had having do does did doing done get gets got getting
gotten said say says see seem seems need let make go going don't doesn't didn't haven't hasn't
""".split())


_VERB_STOPS = frozenset("need get say see seem seems let".split())


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
    """'moved', 'visited' -- but not 'need', 'feed', 'speed'."""
    return lw.endswith("ed") and not lw.endswith("eed") and lw not in ("shred", "embed", "wed", "bed")


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


def rewrite(s: str, voice: _Voice) -> str:
    """`s` with first (and, when resolvable, second) person replaced by names."""
    out: list[str] = []
    pos = 0
    for m in _PRONOUN.finditer(s):
        if m.start() < pos:
            continue
        tok = m.group(1)
        low = tok.lower()
        if tok == "US" or (low == "i" and tok == "i" and s[m.end():m.end() + 1] == "."):
            continue
        out.append(s[pos:m.start()])
        repl, end = _replace_pronoun(s, m, low, voice)
        out.append(repl)
        pos = end
    out.append(s[pos:])
    return "".join(out)


def _replace_pronoun(s: str, m: re.Match, low: str, voice: _Voice) -> tuple[str, int]:
    end = m.end()
    base, _, tail = low.partition("'")
    tail = "'" + tail if tail else ""
    if base in ("i", "me", "my", "mine", "myself"):
        name = voice.speaker
        plural = False
    elif base in ("we", "us", "our", "ours", "ourselves"):
        plural = voice.companion is not None and base in ("we", "us")
        name = f"{voice.speaker} and {voice.companion}" if plural else voice.speaker
    else:
        if voice.other is None:
            return m.group(1), end
        name = voice.other
        plural = False
    if base in ("my", "mine", "our", "ours", "your", "yours"):
        return possessive(name), end
    if base in ("myself", "ourselves", "yourself", "yourselves"):
        return "themself" if base != "ourselves" else "themselves", end
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


# ---------------------------------------------------------------------------------------------
# Dates: written inline as absolute dates

_PREP_BEFORE = re.compile(
    r"\b(on|in|at|by|since|until|till|to|during|over|for|from|before|after|around|through|of|"
    r"starting|between)\s+$", re.IGNORECASE)
_PAST_HINT = re.compile(
    r"\b(?:was|were|went|did|had|came|saw|met|took|told|ago|last|yesterday|used to|since)\b", re.IGNORECASE)
_WEAK_PAST_HINT = re.compile(r"\b(?:got|made|said|visited|\w{3,}ed)\b", re.IGNORECASE)
_FUTURE_HINT = re.compile(
    r"\b(?:will|'ll|going to|gonna|plan|plans|planning|next|tomorrow|upcoming|soon|hope to|want to|"
    r"about to|can't wait|looking forward|scheduled|due|signed up|booked|registered|reserved|"
    r"bought tickets|got tickets|enrolled)\b", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")


_PROGRESSIVE_HINT = re.compile(r"(?:\b(?:am|are|is)|'m|'re|'s)\s+(?:\w+\s+)?\w+ing\b", re.IGNORECASE)


def tense_of(s: str) -> str | None:
    """'future', 'past' or None: how to read a date phrase whose year or week is open."""
    if _FUTURE_HINT.search(s):
        return "future"
    if _PAST_HINT.search(s):
        return "past"
    if _PROGRESSIVE_HINT.search(s):
        return "future"  # "We are expecting twins in December", "are getting married in August"
    if _WEAK_PAST_HINT.search(s):
        return "past"
    return None


def _inline(m: DateMention, has_prep: bool) -> str:
    text = inline_text(m, has_preposition=has_prep)
    phrase = " ".join(m.phrase.split())
    absolute = absolute_text(m)
    if absolute.casefold().startswith(phrase.casefold()) and text.endswith(f" ({m.phrase})"):
        text = text[: -len(m.phrase) - 3]  # "in May 2024 (May)" -> "in May 2024"
    return text


def _with_placeholders(s: str, mentions: list[DateMention],
                       spans: list[tuple[int, int]] | None = None) -> tuple[str, list[str]]:
    """`s` with each date phrase (and its preposition) replaced by \\x00i\\x00; the renderings.

    `spans`, when given, receives (end in `s`, shift) per replacement, to map positions."""
    out: list[str] = []
    rendered: list[str] = []
    pos = 0
    for m in mentions:
        if m.pos < pos:
            continue
        start = m.pos
        pm = _PREP_BEFORE.search(s, max(pos, m.pos - 12), m.pos)
        if pm:
            start = pm.start()
            if m.granularity == "span" and m.start != m.end:
                text = _inline(m, True)
            else:
                text = f"{pm.group(1)} {_inline(m, True)}"
        else:
            text = _inline(m, False)
        out.append(s[pos:start])
        ph = f"\x00{len(rendered)}\x00"
        out.append(ph)
        rendered.append(text)
        if spans is not None:
            spans.append((m.end_pos, len(ph) - (m.end_pos - start)))
        pos = m.end_pos
    out.append(s[pos:])
    return "".join(out), rendered


def _fill(s: str, rendered: list[str]) -> str:
    return _PLACEHOLDER.sub(lambda m: rendered[int(m.group(1))], s)


def _unplace(s: str) -> str:
    s = _PLACEHOLDER.sub(" ", s)
    return " ".join(s.split())


# ---------------------------------------------------------------------------------------------
# Entities

_TOKEN = re.compile(r"[^\W_][\w'&-]*")
_KIN_ALT = _alt(lx.KIN)
_PET_ALT = _alt(lx.PETS)
_KIN_ADJ = ("new|little|big|older|younger|best|old|late|dear|eldest|oldest|youngest|twin|baby|"
            "step|lovely|sweet|cute|rescue|adopted|favorite|favourite|close|good|ex|future")
_OWNER = r"(?:(?i:my|our|your)|(?P<owner>[A-Z][\w-]+)'s)"
_KIN_MENTION = re.compile(
    rf"(?<![\w'])(?P<det>{_OWNER})\s+(?:(?i:{_KIN_ADJ})\s+)?(?P<kin>(?i:{_KIN_ALT}|{_PET_ALT}))(?![\w'-])")
_NAMED_AFTER = re.compile(r",?\s+(?:(?i:named|called)\s+)?(?=[A-Z])")
_PET_NAMED = re.compile(rf"(?i:\b(?:a|an|the)\s+(?:\w+\s+)?(?:{_PET_ALT})\s+(?:named|called)\s+)$")
_DROP = (lx.STOPWORDS | lx.INTERJECTIONS | lx.PRONOUNS | lx.DATE_WORDS
         | {"i'm", "i've", "i'll", "i'd", "i", "im", "ive"})
_SPLIT_AT = lx.DATE_WORDS | {"i", "i'm", "i've", "i'll", "i'd"}
_EMPHASIS = lx.STOPWORDS | lx.INTERJECTIONS | lx.COMMON_WORDS | frozenset(
    "love best omg lol lmao wtf btw idk tbh imo fyi asap diy tv ok rip nyc".split())

_A_PERSON = re.compile(
    r"^(?:'s\s+(?i:" + _KIN_ALT + r")\b|\s+(?:said|says|told|tells|asked|asks|texted|texts|called|"
    r"thinks|thought|wants|wanted|helped|helps|loves|loved|likes|liked|is my|was my|and I\b|and me\b|"
    r"who\b|herself|himself|was born|passed away|got married|gave birth|feels|felt|laughed|cried|"
    r"smiled|replied|mentioned|suggested|invited|hugged|met me|visited me|came over|came by|"
    r"recommended|agreed|knows|knew|lives|works|studies|graduated|moved|has been|is doing|was doing))")
_B_PERSON = re.compile(
    r"(?i:\b(?:and I|me and|met|meet|meeting|told|tell|asked|ask|called|call|texted|text|hugged|"
    r"married|marry|marrying|dating|date|thanks|thank|hi|hey|hello|dear|visit from|love you|miss|"
    r"talked to|talk to|talking to|spoke to|spoke with|speak to|said to|wrote to|sent|introduced|"
    r"listen to|engaged to|married to|hang out with|hung out with|hanging out with|friends with|"
    r"catch up with|caught up with|congrats|congratulations|happy birthday|thanks to|said|says|"
    r"asked|replied|according to)\s*,?\s+)$")
# "Mia couldn't come", "Ken didn't say": a negated verb only people do things with.
_A_PERSON_NOT = re.compile(
    r"^\s+(?i:couldn't|can't|didn't|doesn't|don't|won't|wouldn't|hasn't|hadn't)\s+(?i:come|make it|go|"
    r"stop|believe|remember|decide|wait|sleep|eat|say|tell|want|like|know|think|care|mind|reply|"
    r"answer|call|text|show up|turn up|feel|understand|agree)\b")
# "Mia couldn't come though, she's allergic": a name a few words before "she" or "he" after a
# comma, in the same sentence (the clause goes on about that person).
_A_PRONOUN = re.compile(r"^(?:\s+[\w'-]+){0,4}?\s*,\s+(?i:she|he)(?:'s|'d|'ll)?\s")
# "How's Rosa?": asked after as people are (a weak cue: "how's Leeds" is asked too).
_B_HOWS = re.compile(r"(?i:\bhow(?:'s|\s+is)\s+)$")
# "a studio called Pixelhaus", "a guy named Omar": the noun says what the name is.
_CALLED = re.compile(r"(?i:\b(?:a|an|the|this|that|some)\s+(?:[\w-]+\s+){0,2}?(?P<noun>[\w-]+)\s+"
                     r"(?:called|named)\s+)$")
_CALLED_TYPE = {
    **dict.fromkeys("""studio agency company startup start-up firm shop store bakery cafe café
        restaurant bar pub band club gym charity label practice clinic school team brand app
        business magazine podcast channel nonprofit organisation organization society choir
        orchestra publisher brewery consultancy""".split(), "organization"),
    **dict.fromkeys("""town village city neighbourhood neighborhood street road area island lake
        mountain beach park suburb district valley river trail crag""".split(), "place"),
    **dict.fromkeys("""guy girl woman man friend person lady bloke kid boy chap dude teacher
        doctor nurse colleague coworker neighbour neighbor""".split(), "person"),
}
_B_KIN_END = re.compile(
    rf"(?i:\b(?:my|our|your|his|her|their)\s+(?:(?:{_KIN_ADJ})\s+)?(?:{_KIN_ALT})\s*,?\s+)$")
_B_WITH = re.compile(r"(?i:\bwith\s+)$|\bwith\s+[A-Z][\w'-]*\s+and\s+$")
_B_ORG = re.compile(
    r"(?i:\b(?:work|works|worked|working|job|position|role|internship|intern|interned|employed|"
    r"hired|joined|joining|join|ceo of|founder of|founded|contract with|offer from|"
    r"interview with|interview at|interviewing at|apply to|applied to|applying to|graduated from|"
    r"notice at|notice to|resigned from|promoted to [\w ]{1,40}? at|"
    r"graduate of|studied at|studies at|study at|studying at|student at|enrolled at|degree from|"
    r"startup called|company called|firm called|business called|"
    rf"{_alt(lx.PROFESSIONS)})\s+"
    r"(?:(?:at|for|with|by|from)\s+)?)$")
_B_PROJECT = re.compile(
    r"(?i:\b(?:project|working on|work on|works on|worked on|building|launched|launching|developing|"
    r"an app called|a project called|side project)\s+)$")
_A_PROJECT = re.compile(r"^\s+(?i:project)\b")
_B_PLACE = re.compile(
    r"(?i:\b(?:in|to|from|visited|visit|visiting|near|around|across|toward|towards|into|through|"
    r"outside|inside|across|flew to|moved to|live in|living in|based in|trip to|back to)\s+(?:the\s+)?)$")
_B_AT = re.compile(r"(?i:\bat\s+(?:the\s+)?)$")

_APPOS = re.compile(
    rf",\s+(?P<det>(?i:my|our|your|his|her|their))\s+(?:(?i:{_KIN_ADJ})\s+)?(?P<kin>(?i:{_KIN_ALT}|{_PET_ALT}))(?![\w'-])")

_TYPE_ORDER = ("person", "organization", "place", "project", "thing")


@functools.lru_cache(maxsize=8192)
def _key(name: str) -> str:
    k = re.sub(r"[^\w\s']+", " ", name.casefold())
    k = " ".join(k.split())
    return k[4:] if k.startswith("the ") else k


@dataclass
class _Mention:
    start: int
    end: int
    surface: str
    key: str


@dataclass
class _Ent:
    name: str
    key: str
    order: int
    votes: dict[str, float] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    count: int = 0
    speaker: bool = False
    titled: bool = False
    kin_named: set[tuple[str, str]] = field(default_factory=set)   # ("Maya", "sister"): Maya's sister
    kin_unnamed: tuple[str, str] | None = None                    # this entity is "Maya's sister"

    @property
    def type(self) -> str:
        if not self.votes:
            return "thing"
        best = max(self.votes.values())
        return next(t for t in _TYPE_ORDER if self.votes.get(t, 0.0) == best)


class _Registry:
    """The episode's entities, by key, in order of first mention; merged at the end."""

    def __init__(self) -> None:
        self.by_key: dict[str, _Ent] = {}
        self.alias_of: dict[str, str] = {}  # key -> key of the entity it was merged into
        self._order = 0

    def add(self, name: str, votes: dict[str, float] | None = None, *, speaker: bool = False,
            titled: bool = False) -> str | None:
        key = _key(name)
        if not key or len(key) > 80:
            return None
        ent = self.by_key.get(key)
        if ent is None:
            if len(self.by_key) >= MAX_ENTITIES * 2:
                return None
            ent = _Ent(name=name, key=key, order=self._order, speaker=speaker, titled=titled)
            self._order += 1
            self.by_key[key] = ent
        ent.count += 1
        for t, v in (votes or {}).items():
            ent.votes[t] = ent.votes.get(t, 0.0) + v
        return key

    def root(self, key: str) -> str:
        seen = 0
        while key in self.alias_of and seen < 8:
            key = self.alias_of[key]
            seen += 1
        return key

    def get(self, name_or_key: str) -> _Ent | None:
        key = self.root(_key(name_or_key))
        return self.by_key.get(key)

    def canonical(self, name: str) -> str:
        ent = self.get(name)
        return ent.name if ent else name

    def _absorb(self, small: _Ent, big: _Ent) -> None:
        self.alias_of[small.key] = big.key
        for t, v in small.votes.items():
            if t != "thing":
                big.votes[t] = big.votes.get(t, 0.0) + v
        big.count += small.count
        for a in [small.name, *small.aliases]:
            if _key(a) != big.key and a not in big.aliases:
                big.aliases.append(a)
        big.kin_named |= small.kin_named

    def merge(self) -> None:
        """Short person names into the one longer name they start ("Mel" -> "Melanie Hart"),
        a surname into its titled or full name, and "Maya's sister" into the one named sister."""
        ents = sorted(self.by_key.values(), key=lambda e: e.order)
        persons = [e for e in ents if e.type == "person"]
        for small in ents:
            if small.speaker or " " in small.key or small.key in self.alias_of or small.kin_unnamed:
                continue
            other_votes = max((v for t, v in small.votes.items() if t not in ("person", "thing")),
                              default=0.0)
            if other_votes >= 4 or len(small.key) < 2:
                continue
            targets = []
            for big in persons:
                if big is small or big.key in self.alias_of or big.kin_unnamed:
                    continue
                toks = big.key.split()
                first = toks[1] if big.titled and len(toks) > 1 else toks[0]
                if (first != small.key and first.startswith(small.key)) or \
                        (len(toks) > 1 and (first == small.key or toks[-1] == small.key)):
                    targets.append(big)
            if len({t.key for t in targets}) == 1:
                self._absorb(small, targets[0])
        for e in ents:
            if not e.kin_unnamed or e.key in self.alias_of:
                continue
            named = [n for n in ents if e.kin_unnamed in n.kin_named and n.key not in self.alias_of]
            if len(named) == 1:
                self._absorb(e, named[0])

    def drafts(self, used: set[str]) -> list[EntityDraft]:
        out: list[EntityDraft] = []
        for e in sorted(self.by_key.values(), key=lambda e: e.order):
            if e.key in self.alias_of or (e.key not in used and not e.speaker):
                continue
            out.append(EntityDraft(name=e.name, type=e.type, aliases=list(e.aliases[:10])))
            if len(out) >= MAX_ENTITIES:
                break
        return out


def _owner(det: str, owner: str | None, voice: _Voice) -> str | None:
    if owner:
        return owner
    d = det.lower()
    if d in ("my", "our"):
        return voice.speaker
    return voice.other  # "your": only when it is clear who "you" is


def _cap(tok: str) -> bool:
    return tok[:1].isupper()


def _caps_after_first(text: str) -> set[str]:
    """Capitalised words not at the start of the sentence: evidence that a word is a name."""
    out = set()
    for i, m in enumerate(_TOKEN.finditer(text)):
        if i and _cap(m.group()):
            w = m.group()
            if w.endswith("'s"):
                w = w[:-2]
            if w.lower() not in _DROP:
                out.add(w)
    return out


def find_entities(text: str, voice: _Voice, reg: _Registry, known_caps: set[str],
                  speakers: set[str]) -> list[_Mention]:
    """The entity mentions of one (cleaned) sentence, registered in `reg`."""
    mentions: list[_Mention] = []
    # "my sister", "Sam's boss", "my dog Max"
    named_kin: dict[int, tuple[str, str, bool]] = {}  # name start -> (owner, kin, is_pet)
    for m in _KIN_MENTION.finditer(text):
        owner = _owner(m.group("det"), m.group("owner"), voice)
        kin = m.group("kin").lower()
        is_pet = kin in lx.PETS
        if m.group("owner"):
            k = reg.add(m.group("owner"), {"person": 5.0})
            if k:
                mentions.append(_Mention(m.start("owner"), m.end("owner"), m.group("owner"), k))
        if owner is None:
            continue
        after = _NAMED_AFTER.match(text, m.end())
        if after and after.end() < len(text) and text[after.end()].isupper():
            nxt = _TOKEN.match(text, after.end())
            if nxt and nxt.group().lower() not in _DROP:
                named_kin[after.end()] = (owner, kin, is_pet)
                continue
        if kin in ("friends", "kids", "children", "parents", "siblings", "grandparents"):
            votes = {"person": 6.0}
        else:
            votes = {"thing" if is_pet else "person": 9.0}
        name = f"{owner}'s {kin}"
        k = reg.add(name, votes)
        if k:
            reg.by_key[k].kin_unnamed = reg.by_key[k].kin_unnamed or (owner, kin)
            mentions.append(_Mention(m.start(), m.end(), text[m.start():m.end()], k))

    toks = list(_TOKEN.finditer(text))
    i = 0
    while i < len(toks):
        if not _cap(toks[i].group()):
            i += 1
            continue
        group = [i]
        j = i + 1
        while j < len(toks) and (not toks[j - 1].group().endswith("'s")
                                 or toks[j].group().lower() in lx.ORG_SUFFIXES | lx.PLACE_SUFFIXES):
            gap = text[toks[j - 1].end():toks[j].start()]
            prev = toks[j - 1].group().lower()
            # "Crumb & Co", "Dean & Sons": a firm's name; "Tom & Lena" stays two people.
            if (gap in (" & ", " and ") and _cap(toks[j].group())
                    and toks[j].group().lower() in lx.ORG_SUFFIXES | {"sons", "daughters"}):
                group.append(j)
                j += 1
                continue
            if gap == " " or (gap == ". " and prev in lx.TITLES | {"st", "mt", "jr"}):
                if _cap(toks[j].group()):
                    group.append(j)
                    j += 1
                    continue
                if (toks[j].group() in lx.NAME_CONNECTORS and j + 1 < len(toks)
                        and _cap(toks[j + 1].group())
                        and text[toks[j].end():toks[j + 1].start()] == " "):
                    group += [j, j + 1]
                    j += 2
                    continue
            break
        for chunk in _chunks(group, toks):
            mention = _group_mention(text, toks, chunk, voice, reg, known_caps, speakers, named_kin)
            if mention:
                mentions.append(mention)
        i = j
    mentions.sort(key=lambda m: (m.start, -m.end))
    out: list[_Mention] = []
    for m in mentions:
        if not out or (m.start, m.key) != (out[-1].start, out[-1].key):
            out.append(m)
    return out


def _chunks(group: list[int], toks: list[re.Match]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for idx in group:
        if toks[idx].group().lower() in _SPLIT_AT:
            out.append([])
        else:
            out[-1].append(idx)
    res = []
    for c in out:
        while c and toks[c[0]].group().lower().rstrip(".") in _DROP:
            c = c[1:]
        while c and (toks[c[-1]].group().lower() in _DROP or toks[c[-1]].group() in lx.NAME_CONNECTORS):
            c = c[:-1]
        if c:
            res.append(c)
    return res


def _group_mention(text: str, toks: list[re.Match], chunk: list[int], voice: _Voice, reg: _Registry,
                   known_caps: set[str], speakers: set[str],
                   named_kin: dict[int, tuple[str, str, bool]]) -> _Mention | None:
    start, end = toks[chunk[0]].start(), toks[chunk[-1]].end()
    words = [toks[c].group() for c in chunk]
    possessive_s = False
    if words[-1].endswith("'s") and _POSSESSED.match(text, end):
        words[-1] = words[-1][:-2]
        end -= 2
        possessive_s = True
    elif words[-1].endswith("'"):
        words[-1] = words[-1][:-1]
        end -= 1
    name = text[start:end].strip(" -'&")
    low = [w.lower() for w in words]
    if not name or len(name) < 2 or all(w in lx.DEMONYMS for w in low):
        return None
    if len(words) == 1:
        w = words[0]
        if w.isupper() and len(w) > 1 and (w.lower() in _EMPHASIS or len(w) > 6):
            return None
        if low[0] in lx.KIN_AS_NAME:
            k = reg.add(f"{voice.speaker}'s {low[0]}", {"person": 9.0})
            if k:
                reg.by_key[k].kin_unnamed = reg.by_key[k].kin_unnamed or (voice.speaker, low[0])
                return _Mention(start, end, name, k)
            return None
    is_speaker = name in speakers
    appos = _APPOS.match(text, end)
    if appos and start not in named_kin:
        det = appos.group("det")
        owner = _owner(det, None, voice) if det.lower() in ("my", "our", "your") else None
        kin_word = appos.group("kin").lower()
        named_kin[start] = (owner or "", kin_word, kin_word in lx.PETS)
    first_token = chunk[0] == 0
    if first_token and not is_speaker and name.lower() not in lx.PLACES:
        if len(words) == 1:
            if not appos and not _initial_is_name(text, end, words[0], known_caps, possessive_s):
                return None
        elif low[0].endswith(("ed", "ing", "ly")) and words[0] not in known_caps:
            return _group_mention(text, toks, chunk[1:], voice, reg, known_caps, speakers, named_kin) \
                if len(chunk) > 1 else None
    votes = _type_votes(text, start, end, words, low, is_speaker, possessive_s)
    titled = low[0].rstrip(".") in lx.TITLES and len(words) > 1
    kin = named_kin.get(start)
    if kin:
        owner, rel, is_pet = kin
        votes["thing" if is_pet else "person"] = votes.get("thing" if is_pet else "person", 0.0) + 9.0
    k = reg.add(name, votes, speaker=is_speaker, titled=titled)
    if not k:
        return None
    if kin and owner:
        ent = reg.by_key[k]
        ent.kin_named.add((owner, rel))
        if is_pet or rel in lx.UNIQUE_KIN:
            alias = f"{owner}'s {rel}"
            if alias not in ent.aliases and _key(alias) != k:
                ent.aliases.append(alias)
    return _Mention(start, end, name, k)


# "Anna's husband", "Google's office": a possessive; "at Luigi's on Friday": part of the name.
_POSSESSED = re.compile(r"\s+(?!(?:on|at|in|with|and|for|to|or|but|from|by|near|tonight|today|"
                        r"tomorrow|yesterday|last|next|this)\b)[a-z]")
_NEXT_WORD = re.compile(r"\s+([a-z][a-z']*)(?:\s+([A-Za-z]+))?")
_PERSON_NEXT = frozenset("""
said says told tells asked asks texted called thinks thought wants wanted helped helps loves
loved likes liked is was has had and who will would can could just always never really also
""".split())


_NOT_OWNERS = frozenset("""how what where who when why that there here it let this everything
nothing someone somebody everyone everybody anyone anybody something""".split())


def _initial_is_name(text: str, end: int, word: str, known_caps: set[str], possessive_s: bool) -> bool:
    """A capitalised first word of a sentence: a name only with some evidence."""
    if word in known_caps:
        return True
    lw = word.lower()
    if lw.endswith(("ly", "ing")) or lw in lx.COMMON_WORDS or lw in lx.KIN or lw in lx.PETS:
        return False
    if possessive_s:
        return lw not in _NOT_OWNERS  # "How's Rosa", "That's it": a contraction, not a possessive
    m = _NEXT_WORD.match(text, end)
    if not m:
        return False
    nxt, nxt2 = m.group(1), (m.group(2) or "").lower()
    if nxt == "and" and nxt2 in ("i", "me"):
        return True
    if nxt in ("is", "was", "has", "had", "and", "will", "would", "can", "could", "just",
               "always", "never", "really", "also"):
        return False  # "Work is hard", "Dinner was great": too often a plain noun
    return nxt in _PERSON_NEXT or (nxt.endswith("ed") and len(nxt) > 3)


def _type_votes(text: str, start: int, end: int, words: list[str], low: list[str], is_speaker: bool,
                possessive_s: bool) -> dict[str, float]:
    votes: dict[str, float] = {}

    def vote(t: str, v: float) -> None:
        votes[t] = max(votes.get(t, 0.0), v)

    name_low = " ".join(low)
    if is_speaker:
        vote("person", 20.0)
    if low[0].rstrip(".") in lx.TITLES and len(low) > 1:
        vote("person", 9.0)
    if low[0] in lx.KIN_TITLES and len(low) > 1:
        vote("person", 9.0)
    last = low[-1]
    if last in lx.ORG_SUFFIXES or any(w in lx.ORG_HEADS for w in low):
        vote("organization", 9.0)
    elif last in lx.PLACE_SUFFIXES and len(low) > 1:
        vote("place", 8.0)
    if name_low in lx.PLACES:
        vote("place", 8.0)
    before = text[max(0, start - 48):start]
    after = text[end:end + 40]
    if _B_KIN_END.search(before):
        vote("person", 9.0)
    if _PET_NAMED.search(before):
        vote("thing", 8.0)
    if _A_PERSON.match(text[end - 2:end + 40] if possessive_s else after):
        vote("person", 6.0)
    if _A_PERSON_NOT.match(after):
        vote("person", 5.0)
    if _A_PRONOUN.match(text[end:end + 60]):
        vote("person", 4.0)
    called = _CALLED.search(before)
    if called:
        # "a studio called X" is not someone being called (_B_PERSON's "called").
        noun = called.group("noun").lower()
        vote(_CALLED_TYPE.get(noun, "person" if noun in lx.KIN else "thing"), 7.0)
    elif _B_PERSON.search(before):
        vote("person", 6.0)
    if possessive_s and len(words) == 1:
        vote("person", 2.0)
    if _B_HOWS.search(before):
        vote("person", 2.0)
    if _B_WITH.search(before):
        vote("person", 3.0)
    if _B_ORG.search(before):
        vote("organization", 7.0)
    if _B_PROJECT.search(before) or _A_PROJECT.match(after):
        vote("project", 7.0)
    if _B_PLACE.search(before):
        vote("place", 4.0)
    elif _B_AT.search(before):
        vote("place", 3.0)
    if not votes:
        vote("thing", 1.0)
    return votes


# ---------------------------------------------------------------------------------------------
# Sentences and their parse: subject, predicate, object

@dataclass
class _Turn:
    turn: TurnRecord
    index: int
    speaker: str
    other: str | None
    at: datetime
    assistant: bool


@dataclass
class _Sentence:
    t: _Turn
    order: int
    text: str                       # cleaned: no emoji, no opener
    raw: str                        # before the opener was stripped (for greetings)
    question: bool
    hedged: bool
    lowercase: bool                 # texting style: no capital to begin with, names may lack one
    dates: list[DateMention]
    mentions: list[_Mention] = field(default_factory=list)
    s1: str = ""                    # text with date placeholders
    rendered: list[str] = field(default_factory=list)
    shifts: list[tuple[int, int]] = field(default_factory=list)
    companion: str | None = None    # with "we": the other person named before it

    def s1_pos(self, pos: int) -> int:
        """A position in `text` as a position in `s1`."""
        return pos + sum(d for end, d in self.shifts if end <= pos)


@dataclass
class _Parse:
    subject: str
    kind: str              # speaker | other | kin | name | possession | pronoun | reported
    predicate: str
    obj: str
    single: bool = False
    first_person: bool = False


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
    rf"^(?P<det>my|our|your)\s+(?:(?:{_KIN_ADJ})\s+)?(?P<kin>{_KIN_ALT}|{_PET_ALT})(?![\w'-])"
    r"(?:,?\s+(?:named\s+|called\s+)?)?", _I)
_MY_NOUN_BE = re.compile(
    r"^(?P<det>my|our)\s+(?P<noun>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?P<be>is|was|are|were)\s+", _I)
_HOMES = frozenset("flat apartment house home place condo".split())
_MY_NOUN = re.compile(r"^(?P<det>my|our)\s+(?P<noun>[a-z][\w-]*)\s+(?=[a-z])", _I)
_CLAUSE_FIRST = re.compile(r",\s+(?=(?:I|I'm|I've|I'll|I'd|we|we're|we've)(?![\w']))")
_IMPLIED = {"i'm": "am", "i've": "have", "i'll": "will", "i'd": "would", "we're": "are",
            "we've": "have", "we'll": "will", "we'd": "would", "you're": "are", "you've": "have",
            "you'll": "will", "you'd": "would", "he's": "is", "she's": "is"}
_PROF_ALT = _alt(lx.PROFESSIONS)

# Facts that end a single-valued one with no new value, and the predicate they end.
_ENDS = {"left job at": "works at", "moved out of": "lives in"}
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
    (rf"^{_A}(?:(?:have|has|had)\s+{_A})?(?:moved|relocated)\s+{_A}(?:back\s+)?(?:to|into)\s+(?:the\s+)?",
     "lives in", "place", True),
    (rf"^{_A}(?:(?:am|is|are|have been|has been)\s+{_A})?(?:live|lives|living|reside|resides|residing|"
     rf"based|settled|unpacked)\s+{_A}(?:in|at|near)\s+(?:the\s+)?", "lives in", "place", True),
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
    (rf"^{_A}(?:am|is|are|have been|has been)\s+{_A}(?:now\s+)?(?:an?|the)\s+(?:new\s+)?"
     rf"(?=(?:[\w-]+\s+){{0,3}}?(?:{_PROF_ALT}|head|director|chief|lead|manager|officer)\b)"
     r"(?:[\w-]+\s+){1,5}?(?:at|for|with)\s+(?:the\s+)?(?=[A-Z])",
     "works at", "named", True),
    (rf"^{_A}(?:am|is|are)\s+{_A}(?:now\s+)?(?:an?)\s+(?=(?:[\w-]+\s+){{0,2}}?(?:{_PROF_ALT})\b)",
     "job is", "job", True),
    (rf"^{_A}(?:am|is|are|have been|has been)\s+{_A}(?:dating|seeing|going out with)\s+",
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
_GENERIC = re.compile(rf"^(?P<aux>(?:(?:{_AUX_ALT}|{_ADV_ALT})\s+)*)(?P<verb>[a-z][a-z'-]*)", _I)
_TO_INF = re.compile(r"\s+(?i:to)\s+(?P<inf>[a-z][a-z'-]*)")
_PREP = re.compile(r"\s+(?P<prep>to|in|at|for|with|on|about|from|into|by|up|out|off|over|along|through|"
                   r"around|back|down|of|across|away)\b(?!\s*[.,!?]?$)", _I)
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


# Words that end a name written in lower case ("i work at wise now").
_NOT_NAME = (lx.STOPWORDS | lx.ADVERBS | lx.DATE_WORDS | lx.COMMON_WORDS | lx.PRONOUNS | lx.INTERJECTIONS
             | frozenset("""now tho though lol btw too again anymore already yet haha lmao home work school uni college
    office night weekends weekend there here""".split()))
_LOWER_NAME = re.compile(r"([a-z][a-z'&-]*(?:\s+[a-z][a-z'&-]*){0,2})")  # "the coast" is no name


# Cues that the lower-case word after them is someone's name: "how's priya", "tell dev",
# "my sister lena" (the words people are asked after, told, met or related by).
_LOWER_PERSON_CUE = re.compile(
    rf"(?<![\w'])(?:hows|how's|how\s+is|tell|told|ask|asked|texted|text|call|called|met|meet|"
    rf"(?:my|our|your)\s+(?:(?:{_KIN_ADJ})\s+)?(?:{_KIN_ALT}))\s+([a-z][a-z-]{{2,}})(?![\w'])", _I)
_NOT_PERSON = _NOT_NAME | lx.KIN | lx.PETS | frozenset(
    "life things stuff everyone family job uni mum mom dad about him her them us up back".split())


def _discover_lowercase(sent: _Sentence, reg: _Registry) -> None:
    """Persons named in lower case where a cue says the word is a name; found in every sentence
    of the episode afterwards (_known_names)."""
    for m in _LOWER_PERSON_CUE.finditer(sent.text):
        w = m.group(1).lower()
        if w in _NOT_PERSON or w in _DROP or w.endswith(("ing", "ly", "ed")):
            continue
        reg.add(w[:1].upper() + w[1:], {"person": 4.0})


def _known_names(reg: _Registry) -> re.Pattern | None:
    """The episode's names (a speaker's, one capitalised somewhere), to find where a sentence
    in lower case writes them: texting in lower case is common and names carry the graph."""
    keys = [k for k, e in reg.by_key.items()
            if len(k) >= 3 and not e.kin_unnamed and e.type != "thing"
            and not any(w in _NOT_NAME or w in _DROP for w in k.split())]
    if not keys:
        return None
    return re.compile(r"(?<![\w'])(" + "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
                      + r")(?![\w-])", _I)


def _known_in_lowercase(sent: _Sentence, known: re.Pattern, reg: _Registry) -> list[_Mention]:
    out = list(sent.mentions)
    taken = [(m.start, m.end) for m in out]
    for m in known.finditer(sent.text):
        if any(m.start() < e and b < m.end() for b, e in taken):
            continue
        key = reg.add(reg.by_key[_key(m.group(1))].name)
        if key:
            out.append(_Mention(m.start(), m.end(), m.group(1), key))
    return sorted(out, key=lambda x: (x.start, -x.end))


_THE_END = re.compile(r"\bthe\s*$", _I)  # "moved to the coast": a noun, not a name


def _lowercase_name(after: str, sent: _Sentence, reg: _Registry, etype: str) -> tuple[str, str] | None:
    """In a sentence written in lower case, the name a rule expects where it expects it ("we
    moved to clapham", "i work at wise now"): registered as an entity of the rule's type."""
    m = _LOWER_NAME.match(after.lstrip())
    if not m:
        return None
    words = []
    for w in m.group(1).split():
        if w in _NOT_NAME or w.endswith(("ing", "ly")):
            break
        words.append(w)
    if not words or len("".join(words)) < 3:
        return None
    surface = " ".join(words)
    name = " ".join(w[:1].upper() + w[1:] for w in words)
    key = reg.add(name, {etype: 5.0})
    if not key:
        return None
    start = sent.text.lower().find(surface)
    if start >= 0:
        sent.mentions = sorted([*sent.mentions, _Mention(start, start + len(surface), surface, key)],
                               key=lambda x: (x.start, -x.end))
    ent = reg.get(key)
    return ent.name, ent.type


def _entity_at(s: str, sent: _Sentence, reg: _Registry) -> tuple[str, str] | None:
    """The (canonical name, type) of the entity mentioned at the start of `s`."""
    s = s.lstrip()
    if s[:4].lower() == "the ":
        s = s[4:]
    best = None
    for m in sent.mentions:
        if s.startswith(m.surface) and (best is None or len(m.surface) > len(best.surface)):
            best = m
    if best is None:
        return None
    ent = reg.get(best.key)
    return (ent.name, ent.type) if ent else None


def _entity_in(s: str, sent: _Sentence, reg: _Registry) -> tuple[str, str] | None:
    """The first non-person entity mentioned within `s`."""
    for m in sent.mentions:
        if m.surface in s:
            ent = reg.get(m.key)
            if ent and ent.type != "person":
                return ent.name, ent.type
    return None


def parse_sentence(sent: _Sentence, reg: _Registry, recent_person: str | None) -> _Parse:
    s1 = sent.s1
    t = sent.t
    voice = _Voice(t.speaker, t.other, sent.companion)
    lead = _LEAD.match(s1)
    body = s1[lead.end():] if lead else s1
    m = _FAV_MY.match(body)
    if m:
        obj = _chunk(_unplace(rewrite(body[m.end():], voice)), max_words=8)
        return _Parse(t.speaker, "speaker", f"favorite {m.group('cat').lower()} is", obj, True, True)
    m = _FAV_IS.match(_unplace(body))
    if m and not _FIRST.match(body):
        cat = (m.group("cat") or "thing").lower()
        obj = _unplace(rewrite(m.group("obj"), voice))
        return _Parse(t.speaker, "speaker", f"favorite {cat} is", obj, True, True)
    subject, kind, rest, aux, first = _subject(body, sent, reg, voice, recent_person)
    if subject is None:
        cm = _CLAUSE_FIRST.search(body, 0, 100)
        if cm:
            subject, kind, rest, aux, first = _subject(body[cm.end():], sent, reg, voice, recent_person)
    if subject is None or rest is None:
        return _reported(sent, voice)
    if kind.startswith("noun:"):  # "My birthday is in May" -> Maya / birthday is / in May 2023
        obj = _clip(_unplace(rewrite(rest, voice)).rstrip(" .!?"), MAX_OBJECT_CHARS)
        if not obj:
            obj = " ".join(sent.rendered)
        return _Parse(subject, "speaker", kind[5:], obj, False, True)
    phrase = f"{aux} {rest}" if aux else rest
    parsed = _verb_phrase(phrase, sent, reg, voice, first)
    if parsed is None:
        return _reported(sent, voice)
    predicate, obj, single = parsed
    return _Parse(subject, kind, predicate, obj, single, first)


_LATER_CLAUSE = re.compile(
    r"(?:,|;|\band\b|\bbut\b|\bso\b)\s+(?:(?:now|currently|recently|since then|these days)\s+)?"
    r"(?=(?:I|I'm|I've|we|we're|we've)(?![\w']))", _I)


def later_single(sent: _Sentence, reg: _Registry, after: int) -> _Parse | None:
    """A single-valued fact in a later first-person clause: "I used to live in Chicago but now
    I'm based in Austin" -> lives in Austin."""
    voice = _Voice(sent.t.speaker, sent.t.other, sent.companion)
    for m in _LATER_CLAUSE.finditer(sent.s1, after):
        fm = _FIRST.match(sent.s1[m.end():])
        if not fm:
            continue
        rest = sent.s1[m.end() + fm.end():]
        aux = _IMPLIED.get(fm.group(1).lower(), "")
        parsed = _verb_phrase(f"{aux} {rest}" if aux else rest, sent, reg, voice, True)
        if parsed and parsed[2]:
            return _Parse(sent.t.speaker, "speaker", parsed[0], parsed[1], True, True)
    return None


def _reported(sent: _Sentence, voice: _Voice) -> _Parse:
    obj = _clip(_unplace(rewrite(sent.s1, voice)).rstrip(" .!?"), MAX_OBJECT_CHARS)
    return _Parse(sent.t.speaker, "reported", "said", obj)


def _subject(body: str, sent: _Sentence, reg: _Registry, voice: _Voice, recent: str | None):
    """(subject, kind, rest of the sentence, implied auxiliary, first-or-second person)."""
    t = sent.t
    m = _COMPOUND.match(body)
    if m:
        return t.speaker, "speaker", body[m.end():], "", False
    m = _FIRST.match(body)
    if m:
        return t.speaker, "speaker", body[m.end():], _IMPLIED.get(m.group(1).lower(), ""), True
    m = _MY_KIN.match(body)
    if m:
        owner = t.speaker if m.group("det").lower() in ("my", "our") else t.other
        if owner is not None:
            rest = body[m.end():]
            named = _entity_at(rest, sent, reg) if rest[:1].isupper() or sent.lowercase else None
            if named:
                surface = next((x.surface for x in sent.mentions if rest.startswith(x.surface)
                                and reg.canonical(x.surface) == named[0]), named[0])
                rest = rest[len(surface):].lstrip(" ,")
                return named[0], "name", rest, "", False
            name = reg.canonical(f"{owner}'s {m.group('kin').lower()}")
            return name, "kin", body[m.end():].lstrip(" ,"), "", False
    m = _MY_NOUN_BE.match(body)
    if m and m.group("det"):
        noun = m.group("noun").lower()
        obj = _unplace(rewrite(body[m.end():], voice))
        be = "is" if m.group("be").lower() in ("is", "are") else "was"
        if noun in ("job", "occupation", "profession") and _is_profession(obj):
            return t.speaker, "speaker", "am a " + re.sub(r"^(?:an?|the)\s+", "", obj, flags=_I), "", True
        # "My new flat is in Ancoats": where the speaker lives (not "my old flat was in Leeds").
        if (re.sub(r"^(?:new|current)\s+", "", noun) in _HOMES and be == "is"
                and re.match(r"(?i:in|near)\s+(?:the\s+)?[A-Z]", body[m.end():])):
            return t.speaker, "speaker", "live " + body[m.end():], "", True
        return t.speaker, f"noun:{noun} {be}", body[m.end():], "", True
    m = _MY_NOUN.match(body)
    if m:
        return f"{t.speaker}'s {m.group('noun').lower()}", "possession", body[m.end():], "", False
    m = _SECOND.match(body)
    if m and t.other:
        return t.other, "other", body[m.end():], _IMPLIED.get(m.group(1).lower(), ""), True
    m = _THIRD.match(body)
    if m and recent:
        return recent, "pronoun", body[m.end():], _IMPLIED.get(m.group(1).lower(), ""), False
    named = _entity_at(body, sent, reg) if body[:1].isupper() else None
    if named:
        surface = max((x.surface for x in sent.mentions
                       if body.startswith(x.surface) and reg.canonical(x.surface) == named[0]), key=len,
                      default=named[0])
        rest = body[len(surface):]
        if rest.startswith("'s "):
            noun = _MY_NOUN.match("my " + rest[3:])
            if noun:
                word = noun.group("noun")
                after = rest[3 + len(word):].lstrip()
                return f"{named[0]}'s {word.lower()}", "possession", after, "", False
            return None, "", None, "", False
        rest = _APPOS_SKIP.sub("", rest, count=1)
        return named[0], "name", rest.lstrip(" ,"), "", False
    return None, "", None, "", False


_APPOS_SKIP = re.compile(r"^,\s+(?:my|our|your|his|her|their|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+,\s*", _I)


def _is_profession(obj: str) -> bool:
    words = obj.lower().replace("a ", "", 1).split()[:3]
    return any(w.strip(".,!") in lx.PROFESSIONS for w in words)


def _verb_phrase(phrase: str, sent: _Sentence, reg: _Registry, voice: _Voice,
                 first: bool) -> tuple[str, str, bool] | None:
    for rx, predicate, mode, single in _RULES:
        m = rx.match(phrase)
        if not m:
            continue
        after = phrase[m.end():]
        if mode.startswith("ends_"):
            ended = _ended(mode, after, sent, reg)
            if ended is None:
                continue
            return ended[0] if predicate == "left" else predicate, ended[1], single
        if mode in ("place", "org_only", "named"):  # named: any entity but a person
            ent = _entity_at(after, sent, reg)
            if ent is None and sent.lowercase and not _THE_END.search(m.group(0)):
                ent = _lowercase_name(after, sent, reg, "place" if mode == "place" else "organization")
            if ent is None or ent[1] == "person" or (mode == "org_only" and ent[1] != "organization"):
                continue
            return predicate, ent[0], single
        if mode == "org":
            ent = _entity_at(after, sent, reg) or _entity_in(_chunk(after, _LIST_END, 6), sent, reg) or (
                _lowercase_name(after, sent, reg, "organization")
                if sent.lowercase and not _THE_END.search(m.group(0)) else None)
            obj = ent[0] if ent else _chunk(_unplace(rewrite(after, voice)), max_words=5)
            if not obj:
                continue
            return predicate, obj, single
        if mode == "job":
            words = _chunk(_unplace(after), max_words=5).split()
            for i, w in enumerate(words[:4]):
                if w.lower().strip(".,!") in lx.PROFESSIONS:
                    return predicate, " ".join(words[: i + 1]).lower(), single
            if predicate == "job is" and words:
                return predicate, " ".join(words[:3]).lower(), single
            continue
        if mode == "dating":
            ent = _entity_at(after, sent, reg)
            obj = ent[0] if ent else _chunk(_unplace(rewrite(after, voice)), max_words=4)
            return predicate, f"dating {obj}".strip(), single
        if mode == "status":
            status = m.group("st").lower()
            ent = _entity_at(after, sent, reg) if m.group(0).rstrip().endswith(("to", "with")) else None
            if ent:
                status += (" to " if status != "in a relationship" else " with ") + ent[0]
            return predicate, status, single
        if mode == "single":
            return predicate, "single", single
        if mode == "list":
            obj = _chunk(_unplace(rewrite(after, voice)), _LIST_END, max_words=10)
            if not obj:
                continue
            return predicate, obj, single
        if mode == "has":
            nxt = after.split(" ", 1)[0].lower()
            if nxt in lx.IRREGULAR_PAST or nxt in lx.PARTICIPLES or nxt.endswith(("ed", "en")):
                break  # "I have seen ...": a verb, not a possession
        return predicate, _object(after, voice), single
    return _generic(phrase, voice, first)


def _ended(mode: str, after: str, sent: _Sentence, reg: _Registry) -> tuple[str, str] | None:
    """(predicate, object) of a statement that a job or a home ended; "job" when the job is
    not named (it ends whichever the speaker had)."""
    ent = _entity_at(after, sent, reg)
    kind = ent[1] if ent else None
    if mode == "ends_job":
        return "left job at", ent[0] if kind == "organization" else "job"
    if mode == "ends_place":
        return ("moved out of", ent[0]) if kind == "place" else None
    if kind == "organization":
        return "left job at", ent[0]
    if kind == "place":
        return "moved out of", ent[0]
    return None


def _generic(phrase: str, voice: _Voice, first: bool) -> tuple[str, str, bool] | None:
    m = _GENERIC.match(phrase)
    if not m:
        return None
    verb = m.group("verb")
    lv = verb.lower()
    chain = [w for w in m.group("aux").split() if w.lower() not in _ADVERBS or w.lower() in _NEGATIONS]
    aux_words = [w for w in chain if w.lower() not in _NEGATIONS]
    if aux_words and aux_words[-1].lower() in ("be", "been") and lv in _LOCATIVE:
        words = [(_third(w) if first else w.lower()) for w in chain] + [lv]
        return " ".join(words[:7]), _object(phrase[m.end():], voice), False
    if (lv in lx.STOPWORDS and lv not in _VERBISH) or lv in lx.PRONOUNS or lv in lx.DATE_WORDS:
        return None
    words = [(_third(w) if first and w in aux_words else w.lower()) for w in chain]
    if first and not aux_words:
        words.append(conjugate(verb).lower())
    else:
        words.append(lv)
    end = m.end()
    if lv in _TO_VERBS:
        inf = _TO_INF.match(phrase, end)
        if inf and (inf.group("inf") not in lx.STOPWORDS or inf.group("inf") in _VERBISH):
            words += ["to", inf.group("inf").lower()]
            end = inf.end()
    prep = _PREP.match(phrase, end)
    if prep:
        words.append(prep.group("prep").lower())
        end = prep.end()
    predicate = " ".join(" ".join(words).split()[:7])
    return predicate, _object(phrase[end:], voice), False


_NEGATIONS = frozenset({"never", "not"})
_LOCATIVE = frozenset("in at on to with from near into away home back there here out".split())
_CLAUSE_END = re.compile(
    r"[;:!?()\"]|,\s*(?:and|but|so|because|which|who|when|while|although|though|then|i|we|she|he|they|"
    r"it|my|that's|it's)\b|\s(?:and|but|so)\s+(?:i|we|she|he|they|it|my|then|that)\b|"
    r"\s(?:because|although|though|whereas)\s", _I)


def _object(rest: str, voice: _Voice) -> str:
    """The rest of a clause after its verb, up to the next clause, in the third person."""
    rest = _unplace(rest)
    m = _CLAUSE_END.search(rest)
    if m and m.start() > 0:
        rest = rest[: m.start()]
    return _clip(rewrite(rest, voice).strip(" ,").rstrip(" .!?"), MAX_OBJECT_CHARS)


# ---------------------------------------------------------------------------------------------
# Foresight: standing constraints, plans and deadlines

_MARK = re.compile(
    r"(?<![\w'])(I'm|I've|I'll|I'd|I|we're|we've|we'll|we'd|we|my|our|me|you're|you've|you'll|you|your|"
    r"he's|she's|he|she)(?![\w'])", _I)
_NEGATED = re.compile(r"(?:\bnot|n't|\bno longer|\bnever been|\bno)\s+(?:\w+\s+)?$", _I)
_ALLERGY_TO = re.compile(r"\ballergic\s+to\s+(?P<x>[^.;:!?()]+)", _I)
_ALLERGY_N = re.compile(r"(?P<x>\b(?:[a-z-]+\s+){0,2}[a-z-]+)\s+allerg(?:y|ies)\b", _I)
_ALLERGY_ADJ = frozenset("""
a an my his her their our the some severe bad mild serious deadly food terrible life-threatening
slight major minor little really very have has had with got also
""".split())
_DIET_ALT = _alt(lx.DIETS)
_DIET = re.compile(
    r"\b(?:am|'m|is|are|'re|been|became|become|becoming|went|gone|going|keep|keeps|kept|eat|eats|eating|"
    r"follow|follows|following|stay|stays|now|on\s+a|being|as\s+an?)\s+"
    r"(?:(?:a|an|strictly|mostly|fully|strict|completely|totally|100%)\s+)*"
    rf"(?P<d>{_DIET_ALT})\b(?!-?\s*(?:restaurant|place|recipe|recipes|option|options|food|"
    r"foods|dish|dishes|cafe|café|menu|version|alternative|cookbook|friend|friends|bakery|burger|cheese|"
    r"meal|meals|spot|joint|diet\s+is))", _I)
_NO_EAT = re.compile(
    r"\b(?:don't|do not|doesn't|does not|can't|cannot|can not|never|won't|no longer|stopped)\s+(?:really\s+)?"
    r"(?P<v>eat|eating|drink|drinking|consume|touch)\s+(?P<x>[^.;:!?()]+)", _I)
_NO_EAT_SKIP = frozenset("out much a an the that this it anything enough there here too well as like with "
                         "before after at in late early so very right".split())
_AVOID = re.compile(r"\b(?:avoid|avoids|avoiding|hate|hates|can't stand|cannot stand|dislike|dislikes|detest)\s+"
                    r"(?P<x>[^.;:!?(),]+)", _I)
_FEAR = re.compile(r"\b(?:afraid|scared|terrified|frightened|fearful|petrified|(?:fear|phobia))\s+of\s+"
                   r"(?P<x>[^.;:!?()]+)", _I)
_PHOBIA = re.compile(r"\b(?P<p>[a-z]+phobi[ac])\b", _I)
_HEALTH_ALT = _alt(lx.HEALTH)
_HEALTH = re.compile(
    r"\b(?P<lead>am|'m|is|are|'re|diagnosed with|have|has|'ve got|have got|suffer from|suffers from|"
    r"suffering from|living with|live with|lives with|struggle with|struggles with|deal with|deals with|"
    r"dealing with|got|my|his|her|as)\s+(?:(?:a|an|type\s+[12]|chronic|severe|mild|really|pretty|very|also|still)\s+)*"
    rf"(?P<h>{_HEALTH_ALT})\b", _I)
_RULE_NEVER = re.compile(r"(?<![\w'])(?:I|we)\s+never\s+(?P<v>[a-z]+)\b[^.;!?]{0,80}", _I)
_RULE_WHEN = re.compile(
    r"(?<![\w'])(?:I|we)\s+(?:can't|cannot|can not|don't|do not|won't|will not)\s+[^.;!?]{2,60}?\s+"
    r"(?:on\s+(?:sundays|saturdays|mondays|tuesdays|wednesdays|thursdays|fridays|weekends|weekdays|"
    r"the\s+weekends?|holidays)|after\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|p\.m\.|a\.m\.)?|"
    r"before\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?|at\s+night|in\s+the\s+(?:mornings?|evenings?)|"
    r"during\s+(?:the\s+week|work\s+hours|lent|ramadan))\b", _I)
_NOT_RULE_VERBS = frozenset("""
been thought knew expected imagined realized realised understood heard saw felt said told meant noticed
considered dreamed dreamt believed liked loved got had went did made tried wanted really actually even
""".split())
_PLAN_CUE = re.compile(
    r"(?:(?<![\w'])(?:going to|gonna|planning to|planning on|plan to|plans to|hoping to|hope to|want to|"
    r"wanna|would like to|would love to|intend to|intending to|about to|thinking about|thinking of|"
    r"considering|looking forward to|can't wait to|can't wait for|will|scheduled to|supposed to|need to|"
    r"have to|has to|got to|gotta|aiming to|aim to|decided to|booked|signed up for|registered for|"
    r"preparing for|getting ready for)|'ll|'d like to|'d love to)(?![\w'])", _I)
_WEAK_CUES = frozenset({"need to", "have to", "has to", "got to", "gotta", "supposed to", "considering",
                        "thinking about", "thinking of"})
_WILL_FILLER = frozenset("""
let see check think tell say keep talk try be get do take make bet admit miss never always
probably definitely just send find figure give love like
""".split())
_DESIRE_CUES = frozenset({"want to", "wanna", "would like to", "'d like to", "hope to", "hoping to",
                          "would love to", "'d love to"})
# A verb that puts a dated event ahead: "I'm flying ... next month", "Emma starts school in May".
_SCHEDULED = re.compile(
    r"(?:(?:(?<![\w'])(?:am|are|is)|'m|'re|'s)\s+(?:(?:{})\s+)?[a-z]+ing|(?<![\w'])(?:starts?|begins?|leaves?|"
    r"arrives?|flies|returns?|opens?|graduates?|moves?|comes?|goes|is|are)|'s|'re)(?![\w'])".format(_ADV_ALT), _I)
_WORD = re.compile(r"[a-z][a-z'-]*")


@dataclass
class _Who:
    name: str
    start: int
    end: int
    person: bool  # a first person / a named person (not "you" unresolved)


def _who_before(sent: _Sentence, pos: int, reg: _Registry, recent: str | None) -> _Who | None:
    """The nearest subject-like marker before `pos`: a pronoun or a person mentioned."""
    t = sent.t
    best: _Who | None = None
    for m in _MARK.finditer(sent.text):
        if m.start() >= pos:
            break
        low = m.group(1).lower()
        base = low.split("'")[0]
        if base in ("i", "we", "my", "our", "me"):
            if low == "i" and m.group(1) == "i" and sent.text[m.end():m.end() + 1] == ".":
                continue
            best = _Who(t.speaker, m.start(), m.end(), True)
        elif base in ("you", "your"):
            best = _Who(t.other or "", m.start(), m.end(), bool(t.other))
        else:
            # "Mia couldn't come, she's allergic": the person named earlier in the sentence.
            named = [mm for mm in sent.mentions if mm.start < m.start()
                     and (e := reg.get(mm.key)) is not None and e.type == "person" and not e.speaker]
            who = reg.get(named[-1].key).name if named else recent
            best = _Who(who or "", m.start(), m.end(), bool(who))
    for mm in sent.mentions:
        if mm.start >= pos:
            break
        ent = reg.get(mm.key)
        if ent and ent.type == "person" and (best is None or mm.start >= best.start):
            best = _Who(ent.name, mm.start, mm.end, True)
    return best


def _variants(word: str) -> list[str]:
    w = word.lower()
    if len(w) < 3 or not w.isalpha() or w.endswith(("ing", "ss", "us", "is")):
        return [w]
    if w.endswith("ies"):
        return [w, w[:-3] + "y"]
    if w.endswith(("ches", "shes", "xes", "oes")):
        return [w, w[:-2]]
    if w.endswith("s") and not w.endswith("ss"):
        return [w, w[:-1]]
    return [w, w + "s"]


def _trigger(keys: list[str], extra: list[str]) -> str:
    seen: set[str] = set()
    parts: list[str] = []
    for k in keys:
        for p in lx.SITUATIONS.get(k, "").split(", "):
            if p and p not in seen:
                seen.add(p)
                parts.append(p)
    for p in extra:
        p = " ".join(p.split()).strip(" ,.")
        if p and p.lower() not in seen:
            seen.add(p.lower())
            parts.append(p)
    return ", ".join(parts)[:600]


def _content_words(text: str, limit: int = 6) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        if (len(w) >= 4 and w not in lx.STOPWORDS and w not in lx.COMMON_WORDS and w not in lx.INTERJECTIONS
                and w not in out):
            out.append(w)
            if len(out) >= limit:
                break
    return out


def _allergen_key(words: list[str]) -> str:
    for w in words:
        if w in lx.FOODS:
            return "food"
        if w in lx.PET_ALLERGENS:
            return "pets"
        if w in lx.OUTDOOR_ALLERGENS:
            return "outdoors"
        if w in lx.MEDICINES:
            return "medicine"
    return "food"


# Words without one of which no constraint pattern can match: a set test is far cheaper than
# running a dozen patterns over every sentence.
_CONSTRAINT_WORDS = frozenset("""
allergic allergy allergies vegan vegetarian pescatarian gluten-free kosher halal lactose dairy-free
keto paleo celiac coeliac teetotal sober plant-based eat eating drink drinking consume touch avoid
avoids avoiding hate hates stand dislike dislikes detest afraid scared terrified frightened fearful
petrified fear phobia never sundays saturdays mondays tuesdays wednesdays thursdays fridays weekends
weekdays weekend holidays after before night mornings evenings morning evening during
gluten dairy plant lactose-intolerant
""".split()) | frozenset(w for h in lx.HEALTH for w in h.split())


def _may_constrain(text: str) -> bool:
    words = set(_WORD.findall(text.lower()))
    if not words.isdisjoint(_CONSTRAINT_WORDS):
        return True
    return any(w.endswith(("phobia", "phobic")) for w in words)


def _constraint(sent: _Sentence, reg: _Registry, recent: str | None) -> list[ForesightDraft]:
    text = sent.text
    t = sent.t
    if not _may_constrain(text):
        return []
    found: list[tuple[str, list[str], list[str]]] = []  # (text, situation keys, trigger words)

    def add(subject: str | None, predicate: str, keys: list[str], words: list[str]) -> None:
        if subject:
            found.append((f"{subject} {predicate}", keys, words))

    def subject_at(pos: int) -> str | None:
        who = _who_before(sent, pos, reg, recent)
        if who is None:
            return t.speaker
        return who.name if who.person else None  # "she is allergic" with no one to be "she"

    for m in _ALLERGY_TO.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()):
            continue
        x = _chunk(_unplace(rewrite(m.group("x"), _Voice(t.speaker, t.other))), _LIST_END, 8)
        if x:
            words = _WORD.findall(x.lower())
            add(subject_at(m.start()), f"is allergic to {x}", [_allergen_key(words)],
                          [v for w in words if w not in lx.STOPWORDS for v in _variants(w)] + ["allergy"])
    if not found:
        for m in _ALLERGY_N.finditer(text):
            words = [w for w in m.group("x").lower().split() if w not in _ALLERGY_ADJ]
            while words and words[0] not in lx.FOODS and len(words) > 1:
                words = words[1:]
            if (not words or words[-1] in lx.STOPWORDS
                    or _NEGATED.search(text, max(0, m.start() - 20), m.start())):
                continue
            x = " ".join(words)
            add(subject_at(m.start()), f"has a {x} allergy", [_allergen_key(words)],
                          [v for w in words for v in _variants(w)] + ["allergy", "allergic"])
    for m in _DIET.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 12), m.start() + 4):
            continue
        d = m.group("d").lower()
        add(subject_at(m.start()), f"{lx.DIETS.get(d, 'is ' + d)}", ["food"], [d, "diet"])
    for m in _NO_EAT.finditer(text):
        x = _chunk(m.group("x"), _LIST_END, 6)
        first = x.split(" ", 1)[0].lower() if x else ""
        if not x or first in _NO_EAT_SKIP or first in lx.PRONOUNS:
            continue
        drink = m.group("v").lower().startswith("drink")
        neg = m.group(0).split(" ", 1)[0].lower()
        aux = {"can't": "can't", "cannot": "can't", "can": "can't", "never": "never",
               "stopped": "no longer", "no": "no longer", "won't": "won't"}.get(neg, "doesn't")
        base = "drink" if drink else "eat"
        verb = f"{aux} {base}s" if aux in ("never", "no longer") else f"{aux} {base}"
        add(subject_at(m.start()), f"{verb} {x}", ["drinks" if drink else "food"],
                      [v for w in _WORD.findall(x.lower()) if w not in lx.STOPWORDS for v in _variants(w)])
    for m in _AVOID.finditer(text):
        x = _chunk(m.group("x"), _LIST_END, 5)
        words = _WORD.findall(x.lower())
        if any(w in lx.FOODS for w in words[:2]):
            key = "food"
        elif x.lower() in lx.FEARS:
            key = lx.FEARS[x.lower()]
        else:
            continue
        verb = "avoids" if m.group(0).lower().startswith("avoid") else "dislikes"
        add(subject_at(m.start()), f"{verb} {x}", [key],
                      [v for w in words if w not in lx.STOPWORDS for v in _variants(w)])
    for m in _FEAR.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 12), m.start()):
            continue
        x = _chunk(m.group("x"), max_words=4)
        xl = x.lower()
        if not x or xl.split(" ", 1)[0] in lx.PRONOUNS | {"that", "this", "it", "what", "how", "being"}:
            continue
        key = next((v for k, v in sorted(lx.FEARS.items(), key=lambda kv: -len(kv[0]))
                    if xl == k or xl.startswith(k + " ") or k in xl.split()), None)
        add(subject_at(m.start()), f"is afraid of {x}", [key] if key else ["events"],
                      [w for w in _WORD.findall(xl) if w not in lx.STOPWORDS] + ["fear"])
    for m in _PHOBIA.finditer(text):
        p = m.group("p").lower()
        key = lx.PHOBIAS.get(p[:-1] + "a")
        if key is None:
            continue
        add(subject_at(m.start()), f"has {p[:-1] + 'a'}", [key], [p, "fear", "phobia"])
    for m in _HEALTH.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 12), m.start() + len(m.group("lead")) + 1):
            continue
        h = m.group("h").lower()
        key, phrase = lx.HEALTH[h]
        if m.group("lead").lower() in ("my", "his", "her") and not phrase.startswith("has "):
            continue  # "my blind date" is not blindness
        if m.group("lead").lower() in ("am", "'m", "is", "are", "'re", "as") and phrase.startswith("has "):
            if h not in ("diabetic", "asthmatic", "epileptic", "pregnant", "deaf", "blind", "colorblind",
                         "claustrophobic", "seasick", "celiac", "lactose intolerant"):
                continue  # "I am anxiety" is not English; "I am blind" is
        add(subject_at(m.start()), f"{phrase}", [key, "health"] if key != "health" else [key], [h])
    voice = _Voice(t.speaker, t.other)
    for rx in (_RULE_NEVER, _RULE_WHEN):
        for m in rx.finditer(text):
            if rx is _RULE_NEVER:
                v = m.group("v").lower()
                if v in _NOT_RULE_VERBS or v in lx.IRREGULAR_PAST or v.endswith("ed") or v in lx.STOPWORDS:
                    continue
            rule = _clip(rewrite(m.group(0), voice).rstrip(" ,"), 200)
            keys = [k for w in _WORD.findall(m.group(0).lower()) for k in lx.SITUATION_CUES.get(w, ())]
            found.append((rule, keys or ["schedule"], _content_words(m.group(0), 4)))
    out: list[ForesightDraft] = []
    for ftext, keys, words in found:
        out.append(ForesightDraft(
            text=_clip(ftext, MAX_TEXT_CHARS).rstrip(" .") + ".",
            trigger=_trigger(keys, words),
            turn_ids=[t.turn.id],
            valid_from=t.at,
            valid_to=None,
            kind="constraint",
        ))
    return out


def _plan(sent: _Sentence, reg: _Registry, recent: str | None) -> ForesightDraft | None:
    text = sent.text
    t = sent.t
    low_words = set(_WORD.findall(text.lower()))
    ahead = [d for d in sent.dates if d.direction in ("future", "present")]
    deadline = bool(low_words & lx.DEADLINE_WORDS)
    who: _Who | None = None
    cue = None
    for c in _PLAN_CUE.finditer(text):
        cw = " ".join(c.group().lower().split())
        before = text[max(0, c.start() - 6):c.start()].lower()
        if before.endswith(("was ", "were ")):
            continue
        if cw in _WEAK_CUES and not (ahead or deadline):
            continue
        if cw in ("will", "'ll"):
            nxt = _WORD.match(text, c.end() + 1)
            if nxt and nxt.group() in _WILL_FILLER and not ahead:
                continue
        if cw in _DESIRE_CUES and not ahead and _content_score(_chunk(text[c.end():], _LIST_END, 10)) < 2:
            continue  # "I want to show it off": too vague to plan for
        w = _who_before(sent, c.start() + (1 if cw.startswith("'") else 0), reg, recent)
        if w is None or not w.person:
            continue
        gap = text[w.end:c.start()]
        if len(gap.split()) > 3 or any(ch in gap for ch in ",;:"):
            continue
        who, cue = w, c
        break
    if cue is None:
        if not ahead:
            return None
        pos = ahead[0].pos
        w = _who_before(sent, pos, reg, recent)
        if w is None and not deadline:
            return None
        scheduled = _SCHEDULED.search(text, 0, pos) is not None
        if not (scheduled or deadline):
            return None
        who = w or _Who(t.speaker, 0, 0, True)
    voice = _Voice(t.speaker, t.other)
    clause = max(text.rfind(", ", 0, who.start), text.rfind("; ", 0, who.start))
    start = sent.s1_pos(clause + 2) if clause >= 0 else 0
    clause = sent.s1[start:]
    ftext = _fill(rewrite(clause, voice), sent.rendered).strip()
    if start > 0 and ftext[:1].islower() and not ftext.startswith((t.speaker, who.name)):
        ftext = ftext[0].upper() + ftext[1:]
    ftext = _clip(ftext.rstrip(" .!?"), MAX_TEXT_CHARS) + "."
    at = t.at
    if ahead:
        end_day = max(m.end for m in ahead) + timedelta(days=1)
        valid_to = datetime.combine(end_day, time(0, 0), tzinfo=at.tzinfo)
    else:
        valid_to = at + timedelta(days=PLAN_DEFAULT_DAYS)
    keys = []
    for w in _WORD.findall(text.lower()):
        for k in lx.SITUATION_CUES.get(w, ()):
            if k not in keys:
                keys.append(k)
    if deadline and "schedule" not in keys:
        keys.insert(0, "schedule")
    if not keys:
        keys = ["schedule"]
    extra = [absolute_text(d) for d in ahead[:2]]
    for mm in sent.mentions:
        ent = reg.get(mm.key)
        if ent and not ent.speaker:
            extra.append(ent.name)
    extra += _content_words(_unplace(sent.s1), 6)
    return ForesightDraft(
        text=ftext,
        trigger=_trigger(keys, extra),
        turn_ids=[t.turn.id],
        valid_from=at,
        valid_to=valid_to,
        kind="deadline" if deadline else "plan",
    )


# ---------------------------------------------------------------------------------------------
# The episode: facts, foresight, entities, then title, summary, keywords and importance

_HEDGE = re.compile(r"\b(?:" + "|".join(re.escape(h) for h in lx.HEDGES) + r")\b", _I)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|heya|good\s+(?:morning|afternoon|evening|night)|thanks|thank\s+you|thx|bye|"
    r"goodbye|see\s+you|see\s+ya|take\s+care|talk\s+(?:to\s+you\s+)?(?:soon|later)|congrat\w*|welcome|"
    r"nice\s+to\s+(?:meet|see|hear)|glad\s+to\s+hear|happy\s+to\s+hear|sounds\s+(?:good|great|fun))\b", _I)
_REACTION = re.compile(
    r"^(?:that|this|it|sounds|what|so|how|wow|such|same|haha|lol|aw+|cool|great|nice|awesome|amazing|glad|"
    r"happy|sorry|love|lovely|wonderful|beautiful|congrats|good|oh|yes|yeah|no|sure|true|totally|"
    r"definitely|absolutely|exactly|agreed|looks|seems|hope|can't wait|you)\b", _I)
_WE = re.compile(r"(?<![\w'])(?:we|we're|we've|we'll|we'd|us)(?![\w'])", _I)
_LIFE = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in lx.LIFE_EVENTS) + r")\b", _I)
_ASSISTANT_ROLES = frozenset({"assistant", "system", "tool"})


def _aware(at: datetime) -> datetime:
    if not isinstance(at, datetime):
        at = datetime.combine(at, time(0, 0)) if isinstance(at, date) else datetime.now(timezone.utc)
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def _content_score(text: str) -> float:
    score = 0.0
    for w in _WORD.findall(text.lower()):
        if len(w) < 3 or w in lx.STOPWORDS or w in lx.INTERJECTIONS or w in lx.PRONOUNS:
            continue
        score += 0.5 if w in lx.COMMON_WORDS else 1.0
    return score


_PRO_DROP = re.compile(
    r"(?:(?:just|really|finally|also|still|totally|honestly|actually)\s+)*(?:can't|cannot|went|got|had|"
    r"love|loved|hate|hated|need|needed|want|wanted|started|finished|bought|made|took|saw|met|visited|"
    r"tried|moved|joined|signed|booked|spent|learned|learnt|found|heard|watched|ran|did|won|lost|adopted|"
    r"graduated|quit|left|wish|hope|miss|missed|gotta)\b(?!\s+(?:is|was|are|were|has|had)\b)", _I)
_PRO_DROP_ING = re.compile(
    r"(?:(?:just|really|still|currently|finally)\s+)*(?:heading|planning|thinking|hoping|looking|working|"
    r"feeling|trying|getting|taking|starting|leaving|flying|driving|moving|learning|reading|watching|"
    r"training|studying|preparing)\b(?!\s+(?:is|was|are|were|has|had)\b)", _I)


def _pro_drop(text: str) -> str:
    """Chat often drops the 'I': "Went hiking yesterday" -> "I went hiking yesterday"."""
    if _PRO_DROP.match(text):
        return "I " + text[0].lower() + text[1:]
    if _PRO_DROP_ING.match(text):
        return "I'm " + text[0].lower() + text[1:]
    return text


def _without_mentions(text: str, mentions: list[_Mention]) -> str:
    parts, pos = [], 0
    for m in mentions:
        if m.start >= pos:
            parts.append(text[pos:m.start])
            pos = m.end
    parts.append(text[pos:])
    return " ".join(parts)


def _lowercase(raw: str) -> bool:
    """Texting in lower case: the sentence does not begin with a capital (one that simply names
    no one still does). Some names in it may be capitalised, others not."""
    first = next((c for c in raw if c.isalpha()), "")
    return first.islower()


def _sentences(turns: list[_Turn]) -> list[_Sentence]:
    out: list[_Sentence] = []
    for t in turns:
        content = t.turn.content if isinstance(t.turn.content, str) else str(t.turn.content or "")
        content = _normalise(content[:MAX_TURN_CHARS])
        for raw in split_sentences(content, MAX_SENTENCES_PER_TURN):
            if len(raw) > MAX_SENTENCE_CHARS:
                raw = _clip(raw, MAX_SENTENCE_CHARS).rstrip("\u2026")
            text = _clean_sentence(raw)
            if not text or not any(ch.isalnum() for ch in text):
                continue
            question = text.rstrip().endswith("?") and not _FIRST.match(text) \
                and not re.match(r"(?:my|our)\b", text, _I)
            if not question:
                text = _pro_drop(text)
            dates = find_dates(text, t.at, prefer=tense_of(text))
            out.append(_Sentence(t=t, order=len(out), text=text, raw=_strip_emoji(raw), question=question,
                                 hedged=bool(_HEDGE.search(raw)), dates=dates,
                                 lowercase=_lowercase(raw)))
    return out


def _fact(sent: _Sentence, parse: _Parse, reg: _Registry) -> FactDraft:
    t = sent.t
    voice = _Voice(t.speaker, t.other, sent.companion)
    text = _fill(rewrite(sent.s1, voice), sent.rendered).strip()
    if parse.kind == "pronoun":
        m = _THIRD.match(text)
        if m:
            text = f"{parse.subject} {'is ' if m.group(1).endswith(chr(39) + 's') else ''}{text[m.end():]}"
    if parse.kind == "reported":
        first = text.split(" ", 1)[0]
        w0 = sent.text.split(" ", 1)[0]
        lw = w0.lower().strip(",.!")
        if first == w0 and not w0.isupper() and not any(m.start == 0 for m in sent.mentions):
            text = text[0].lower() + text[1:]
        text = f"{t.speaker} said {text}"
    text = _clip(text.rstrip(" .!?\u2026"), MAX_TEXT_CHARS) + "."
    if sent.hedged:
        conf = CONF_HEDGED
    elif parse.kind == "reported":
        conf = CONF_REPORTED
    else:
        conf = CONF_PLAIN
    if t.assistant:
        conf = min(conf, CONF_ASSISTANT)
    ents: list[tuple[str, str]] = []

    def add(name: str, role: str) -> None:
        ent = reg.get(name)
        if ent and all(n != ent.name for n, _ in ents) and len(ents) < 10:
            ents.append((ent.name, role))

    if parse.kind == "possession":
        add(parse.subject.rsplit("'s ", 1)[0], ROLE_SUBJECT)
    else:
        add(parse.subject, ROLE_SUBJECT)
    obj_low = parse.obj.casefold()
    for mm in sent.mentions:
        ent = reg.get(mm.key)
        if ent is None:
            continue
        role = ROLE_OBJECT if parse.kind != "reported" and ent.name.casefold() in obj_low else ROLE_MENTIONED
        add(ent.name, role)
    for m in _MARK.finditer(sent.text):
        base = m.group(1).lower().split("'")[0]
        if base in ("i", "me", "my", "we", "our"):
            add(t.speaker, ROLE_MENTIONED)
        elif base in ("you", "your") and t.other:
            add(t.other, ROLE_MENTIONED)
    return FactDraft(
        subject=parse.subject,
        predicate=parse.predicate,
        object=_clip(parse.obj, MAX_OBJECT_CHARS),
        text=text,
        turn_ids=[t.turn.id],
        confidence=conf,
        valid_from=began[0] if (began := _began(parse.single or parse.predicate in _ENDS, sent, t.at)) else t.at,
        valid_from_until=began[1] if began else None,
        event_date=sent.dates[0].start if sent.dates else None,
        entities=ents,
        single_valued=parse.single,
        ends=_ENDS.get(parse.predicate),
    )


def _began(single: bool, sent: _Sentence, at: datetime) -> tuple[datetime, datetime] | None:
    """When a single-valued fact (or the end of one) began, if its sentence names a past date
    ("In 2015 I moved to Paris"): the span's first and last moments in the turn's time zone.
    Stamped with the turn's time instead, a move of years ago said today would replace where
    the speaker lives now. Or a date to come ("I'm starting at Volta Labs on Monday"): the old
    value stays what is true until that day, as an LLM's dated fact does."""
    if not single or not sent.dates or sent.dates[0].direction not in (PAST, FUTURE):
        return None
    if sent.dates[0].direction == FUTURE and (sent.hedged or tense_of(sent.text) != FUTURE):
        # "I might start at Volta in May": nothing begins; "I quit in June, I work at Wise
        # now": the date is another clause's, the fact is the present's.
        return None
    d = sent.dates[0]
    return (datetime.combine(d.start, time(0, 0), tzinfo=at.tzinfo),
            datetime.combine(d.end, time(23, 59, 59), tzinfo=at.tzinfo))


def _companion(sent: _Sentence, reg: _Registry) -> str | None:
    wm = _WE.search(sent.text)
    if not wm:
        return None
    for mm in sent.mentions:
        ent = reg.get(mm.key)
        if mm.start < wm.start() and ent and ent.type == "person" and not ent.speaker \
                and ent.name != sent.t.speaker:
            return ent.name
    return None


def _fact_score(f: FactDraft, constrained: bool) -> float:
    s = 1.0
    if _LIFE.search(f.text):
        s += 3.0
    if f.single_valued:
        s += 2.0
    if constrained:
        s += 2.0
    if f.event_date:
        s += 1.0
    s += 0.5 * min(len(f.entities), 3)
    if f.predicate == "said":
        s -= 1.5
    return s + min(len(f.object), 80) / 80 + f.confidence


def _keywords(sents: list[_Sentence], reg: _Registry) -> list[str]:
    ent_count: dict[str, int] = {}
    ent_first: dict[str, int] = {}
    name_words: set[str] = set()
    for e in reg.by_key.values():
        name_words.update(_WORD.findall(e.name.lower()))
    speakers = {e.name.lower() for e in reg.by_key.values() if e.speaker}
    word_count: dict[str, int] = {}
    word_first: dict[str, int] = {}
    pos = 0
    for s in sents:
        for mm in s.mentions:
            ent = reg.get(mm.key)
            if ent and not ent.speaker and "'s " not in ent.name:
                ent_count[ent.name] = ent_count.get(ent.name, 0) + 1
                ent_first.setdefault(ent.name, pos)
                pos += 1
        for w in _WORD.findall(_unplace(s.s1).lower()):
            w = w.strip("'-")
            if (len(w) < 3 or w in lx.STOPWORDS or w in lx.COMMON_WORDS or w in lx.INTERJECTIONS
                    or w in lx.PRONOUNS or w in lx.DATE_WORDS or w in name_words or w in speakers
                    or w.endswith("'s") or w.endswith("n't")):
                continue
            word_count[w] = word_count.get(w, 0) + 1
            word_first.setdefault(w, pos)
            pos += 1
    ents = sorted(ent_count, key=lambda n: (-ent_count[n], ent_first[n]))
    words = sorted(word_count, key=lambda w: (-word_count[w], word_first[w]))
    out: list[str] = []
    for n in ents[:5]:
        out.append(n.lower())
    for w in words:
        if len(out) >= MAX_KEYWORDS:
            break
        if w not in out:
            out.append(w)
    for n in ents[5:]:
        if len(out) >= MAX_KEYWORDS:
            break
        out.append(n.lower())
    return out[:MAX_KEYWORDS]


def _extract(records: list[TurnRecord]) -> Extraction:
    speakers: list[str] = []
    for r in records:
        name = " ".join(str(r.speaker or "").split())[:80] or "someone"
        if name not in speakers:
            speakers.append(name)
    turns: list[_Turn] = []
    for i, r in enumerate(records):
        name = " ".join(str(r.speaker or "").split())[:80] or "someone"
        others = [s for s in speakers if s != name]
        turns.append(_Turn(turn=r, index=i, speaker=name, other=others[0] if len(others) == 1 else None,
                           at=_aware(r.at), assistant=str(r.role or "").lower() in _ASSISTANT_ROLES))
    sents = _sentences(turns)
    known_caps: set[str] = set()
    for s in sents:
        known_caps |= _caps_after_first(s.text)
    reg = _Registry()
    speaker_set = set(speakers)
    for name in speakers:
        reg.add(name, {"person": 20.0}, speaker=True)
    for s in sents:
        s.mentions = find_entities(s.text, _Voice(s.t.speaker, s.t.other), reg, known_caps, speaker_set)
        s.s1, s.rendered = _with_placeholders(s.text, s.dates, s.shifts)
    lowercase = [s for s in sents if s.lowercase]  # most episodes have none: nothing to build
    for s in lowercase:
        _discover_lowercase(s, reg)
    known = _known_names(reg) if lowercase else None
    for s in lowercase:
        if known:
            s.mentions = _known_in_lowercase(s, known, reg)
    reg.merge()

    facts: list[FactDraft] = []
    scores: list[float] = []
    foresights: list[ForesightDraft] = []
    seen_facts: set[str] = set()
    seen_fs: set[tuple[str, str]] = set()
    per_turn: dict[int, int] = {}
    fs_turn: dict[int, int] = {}
    recent: str | None = None
    for s in sents:
        try:
            recent_before = recent
            for mm in s.mentions:
                ent = reg.get(mm.key)
                if ent and ent.type == "person" and not ent.speaker:
                    recent = ent.name
            if s.question:
                continue
            constrained = False
            foresaw = False
            if not s.t.assistant and len(foresights) < MAX_FORESIGHTS:
                found = _constraint(s, reg, recent_before)
                plan = _plan(s, reg, recent_before)
                if plan is not None:
                    found.append(plan)
                for fs in found:
                    key = (fs.kind, fs.text.casefold())
                    if key in seen_fs or fs_turn.get(s.t.index, 0) >= MAX_FORESIGHTS_PER_TURN:
                        continue
                    seen_fs.add(key)
                    fs_turn[s.t.index] = fs_turn.get(s.t.index, 0) + 1
                    foresights.append(fs)
                    foresaw = True
                    constrained = constrained or fs.kind == "constraint"
                foresights = foresights[:MAX_FORESIGHTS]
            if len(facts) >= MAX_FACTS or per_turn.get(s.t.index, 0) >= MAX_FACTS_PER_TURN:
                continue
            content = _content_score(_without_mentions(s.text, s.mentions))
            if _GREETING.match(s.raw) and content < 2.0:
                continue
            named = any(not (reg.get(m.key) and reg.get(m.key).speaker) for m in s.mentions)
            bonus = (1.0 if (named or s.dates) else 0.0) + (0.5 if _FIRST.match(s.text) else 0.0)
            if content + bonus < 1.5 and not foresaw:
                continue
            s.companion = _companion(s, reg)
            parse = parse_sentence(s, reg, recent_before)
            if parse.kind == "reported" and not foresaw and (
                    (_REACTION.match(s.text) and content < 3.0)
                    or (not (named or s.dates) and content < 2.0)):
                continue
            parses = [parse]
            if not parse.single:
                extra = later_single(s, reg, 1)
                if extra is not None:
                    parses.append(extra)
            for p in parses:
                f = _fact(s, p, reg)
                key = f"{f.text}\x00{f.predicate}\x00{f.object}".casefold()
                if key in seen_facts or per_turn.get(s.t.index, 0) >= MAX_FACTS_PER_TURN:
                    continue
                seen_facts.add(key)
                per_turn[s.t.index] = per_turn.get(s.t.index, 0) + 1
                facts.append(f)
                scores.append(_fact_score(f, constrained))
        except Exception:  # noqa: BLE001 - one odd sentence must not cost the whole cell
            log.warning("local extractor skipped a sentence of turn %s", s.t.turn.id, exc_info=True)

    used = {reg.root(mm.key) for s in sents for mm in s.mentions}
    entities = reg.drafts(used)
    keywords = _keywords(sents, reg)
    return Extraction(
        title=_title(facts, scores, keywords, turns, sents),
        summary=_summary(facts, scores, sents, turns),
        keywords=keywords,
        importance=_importance(facts, foresights, turns),
        facts=facts,
        entities=entities,
        foresights=foresights,
        tokens_used=0,
    )


def _best(facts: list[FactDraft], scores: list[float], n: int) -> list[int]:
    ranked = sorted(range(len(facts)), key=lambda i: (-scores[i], i))[:n]
    return sorted(ranked)


def _title(facts, scores, keywords, turns, sents) -> str:
    if facts:
        i = _best(facts, scores, 1)[0]
        text = facts[i].text.rstrip(".")
        if len(text) > MAX_TITLE_CHARS:
            for sep in ("; ", ", ", " (", " - "):
                cut = text.find(sep, 20)
                if 0 < cut <= MAX_TITLE_CHARS:
                    text = text[:cut]
                    break
        return _clip(text, MAX_TITLE_CHARS)
    if keywords:
        return _clip(", ".join(keywords[:4]).capitalize(), MAX_TITLE_CHARS)
    if sents:
        return _clip(sents[0].text, MAX_TITLE_CHARS)
    when = turns[0].at.date().isoformat() if turns else "an unknown date"
    return f"Conversation on {when}"


def _summary(facts, scores, sents, turns) -> str:
    if facts:
        parts: list[str] = []
        total = 0
        for i in _best(facts, scores, 4):
            text = facts[i].text
            if parts and total + len(text) + 1 > MAX_SUMMARY_CHARS:
                continue
            parts.append(text)
            total += len(text) + 1
        return _clip(" ".join(parts), MAX_SUMMARY_CHARS)
    lines = [f"{s.t.speaker}: {s.text}" for s in sents[:3]]
    if lines:
        return _clip(" ".join(lines), MAX_SUMMARY_CHARS)
    return ""


def _importance(facts, foresights, turns) -> float:
    if not facts and not foresights:
        return 0.1
    imp = 0.3
    if any(f.kind == "constraint" for f in foresights):
        imp += 0.25
    if any(f.kind in ("plan", "deadline") for f in foresights):
        imp += 0.15
    if any(_LIFE.search(f.text) for f in facts):
        imp += 0.25
    if any(f.single_valued for f in facts):
        imp += 0.1
    imp += min(0.15, 0.015 * len(facts))
    if all(t.assistant for t in turns):
        imp *= 0.7
    return round(min(1.0, max(0.05, imp)), 2)


class LocalExtractor:
    """Rule-based extraction: no model, no network, deterministic, well under a millisecond a turn."""

    name = "local"

    async def extract(self, turns: list[TurnRecord]) -> Extraction:
        return self.extract_sync(turns)

    def extract_sync(self, turns: list[TurnRecord]) -> Extraction:
        records = [t for t in (turns or []) if t is not None]
        try:
            return _extract(records)
        except Exception:  # noqa: BLE001 - never fail a cell over odd text; keep what is certain
            log.exception("local extractor failed; falling back to a bare extraction")
            first = records[0] if records else None
            when = _aware(first.at).date().isoformat() if first else "an unknown date"
            return Extraction(title=f"Conversation on {when}", summary="", keywords=[], importance=0.1)
