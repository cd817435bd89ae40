"""A value said again later, in other words. Extraction reads a changed value as one timeline only
in the phrasings it knows; said otherwise ("the hall costs us £60 an evening", weeks later "I
negotiated the hall down to £70 an evening"), both stay current and the older, often the wordier,
ranked first. Here two hits that say a value of the same kind (money, a share, a count of the same
things, a code, a measure; a day of the year, a time of day or days of the week, when the later
tells a change: "Luton MOT is now Wednesday 14 October") about the same words, with different
values, in one group and not each naming others, are read as two sayings of one value: the older
is marked with the later (`Hit.revised_by`: the context block and the API say so, so a reader is
never shown the older as the last word), and for a question about now or as of a moment they are
put in the order they were said, the later first. Only a mark and a reordering: the older stays in
the results (a question about a period, the past or what came first keeps the fused order:
search.py)."""
from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import NamedTuple

from app.construction import lexicon as lx
from app.domain.models import ASSISTANT_ROLES

# How many hits are read: an older saying below these is out of the answer's view already.
LOOKED_AT = 10
_MONEY = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?k?")
_SHARE = re.compile(r"\b\d{1,3}(?:\.\d+)?%")
# A number and the things it counts, next to it or one word on ("150 hampers this year", "3 red
# scarves"; not "bus" nor "glass").
_COUNT = re.compile(r"\b(\d{1,5})\s+(?:([a-z]{2,}(?<![su])s)\b|[a-z]+\s+([a-z]{2,}(?<![su])s)\b)")
# ... or the things first and the number after ("parcels last week were up to 110", "parcels in
# the week of 2026-10-26 hit 140"), not a number of something else ("140 miles", "3pm").
_COUNT_AFTER = re.compile(r"\b([a-z]{2,}(?<![su])s)\b(?:\s+[\w'-]+){0,5}?\s+(?:up\s+to|hit|reached|were|was|are|"
                          r"is|now|at)\s+(\d{1,5})\b(?![.,:]?\d|\s*(?:%|[ap]\.?m\b|[a-z£$€]))")
_WORD = re.compile(r"[a-z][a-z'-]{2,}")
# A count added to another, no value of its own: "Millbrook confirmed the extra 20 loaves" (it had marked "36 loaves a
# week" as out of date).
_ADDED = re.compile(r"\b(?:extra|more|another|additional|further|spare)\s+$")
# Words that say nothing of what a value is of.
_FILLER = frozenset("""now still just also really new old btw lol haha yes yeah yep okay
said says think going got get news good great day daily""".split()
                    # how news came, not what of ("Elm Street Dental called, ... moved to 10 November at 2pm" and
                    # "Lena doesn't do calls before 10am": a check-up, calls)
                    + "called rang phoned emailed texted messaged".split()
                    # nor the words of any deal ("he agreed £2,050 instead of £2,100" for the rent and "we agreed
                    # ... Callum pays £630 a month instead of £650" for his share of it)
                    + "agreed agree instead rather".split())
# Nor, of a day or a time, the words of a change, nor days and months: two sayings of other
# things "moved to Thursday" share no subject ("a month", "tonight" do say what a sum or a count is of).
_WHEN_FILLER_WORDS = frozenset("""move moved moving moves changed change changing instead pushed push
switched switch switching date time day days""".split()) | lx.DATE_WORDS | lx.WEEKDAYS_SHORT

_DIGIT = re.compile(r"\d")
# A measure and its unit: a dose, a weight, a distance ("put the amlodipine up to 7.5mg").
# (not a ratio's: "14 units" had been marked as changed by "1 unit for 8g", a carb ratio)
_MEASURE = re.compile(r"\b(\d+(?:\.\d+)?)\s?(mg|mcg|ml|kg|g|km|cm|mm|lbs?|oz|mph|units?)\b"
                      r"(?!\s*(?:for|per|to|:|/)\s*(?:every\s+)?\d)")
# A code or a number said alone, four to six digits and no year ("New code is 8302", "it's 7351 now").
_CODE_NAMED = re.compile(r"\b(?:code|pin|passcode|combination)\b\W+(?:[a-z']+\W+){0,2}?(\d{4,6})\b(?![.,:/-]?\d)")
# (not a piece of a phone number: "Megan's number is 07700 900 318" and Dr Shah's "01829 555 740" had been
# two codes, the first marked as changed by the second)
_CODE = re.compile(r"(?<![\d.,:£$€/-])(?<!\d\s)\b(?!(?:19|20)\d\d\b)(\d{4,6})\b(?![.,:/-]?\d|\s\d|\s?(?:%|[ap]\.?m\b))")
_TIME = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s?([ap])\.?m\b|\b(\d{1,2}):(\d\d)\b")  # (of lower case)
# (Month and day names are read by their first letters, then looked up: an alternation of every
# name is several times slower, on every hit of every search.)
_MONTHISH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_DATE = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTHISH})\b|\b({_MONTHISH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b|"
                   r"\b20\d\d-(\d\d)-(\d\d)\b")
_STARTS_FROM = re.compile(r"\b(?:from|starting|as\s+of|effective)\s+(?:(?:the\s+)?week\s+of\s+|the\s+)?"
                          r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?$")
_MONTH_NUMBER = {m: "jan feb mar apr may jun jul aug sep oct nov dec".split().index(m[:3]) + 1 for m in lx.MONTHS}
# Days of the week said as a routine's ("Tuesdays", "every Tuesday", "Tue/Thu"), not as a date's
# ("Friday 9 October").
_WEEKDAY = re.compile(r"\b(every\s+)?((?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)\b"
                      r"(?!\.?\s+(?:the\s+)?\d{1,2}(?![\d:.]|\s?[ap]\.?m))")  # (a time after it: "Tue/Thu 12pm")
_DAY_NAMES = {d: d[:3] for d in lx.WEEKDAYS | lx.WEEKDAYS_SHORT}
_DAY_NAMES.update({d + "s": d[:3] for d in lx.WEEKDAYS})
# A day, time or days told as a change: a day said later of the same words without one is as
# often another thing's ("Grooming for Biscuit booked for Dec 5" after Pepper's on Sept 19).
_CHANGED = re.compile(r"\b(?:mov(?:e|ed|es|ing)|now|instead|push(?:ed|es|ing)?|postponed|rescheduled|"
                      r"chang(?:e|ed|es|ing)|new\s+(?:date|time|day)|again|switch(?:ed|es|ing)?|slip(?:s|ped)?|"
                      r"brought\s+forward|put\s+back|from\s+now\s+on|going\s+forward|as\s+of|starting|"
                      # a value from a day on ("Winter hours: from 2 November we'll open 8am to 3pm")
                      r"from\s+(?:the\s+)?(?:\d|next|this|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|"
                      r"sep|oct|nov|dec))", re.IGNORECASE)
# A change said with what it replaces, or as done to the value.
_SAID_INSTEAD = re.compile(r"\b(?:instead|rather\s+than|not\s+\d|mov(?:e|ed|es|ing)|chang(?:e|ed|es|ing)|switch(?:ed|es|ing)?|"
                           r"upped|increased|raised|lowered|reduced|dropped|bumped|went\s+(?:up|down))\b", re.IGNORECASE)
# Kinds whose change is read only when the later saying tells one.
_WHEN_KINDS = frozenset({"date", "time", "days"})
_ANCHORED_KINDS = frozenset({"share", "code", "measure in mg", "measure in mcg", "measure in ml",
                             "measure in kg", "measure in g", "measure in lb", "measure in unit"})


def _values(text: str) -> dict[str, set[str]]:
    """The values `text` says, by kind."""
    found: dict[str, set[str]] = {}
    low = text.lower()
    said = [(every, _DAY_NAMES[d], d.endswith("s") and d in lx.DATE_WORDS)
            for every, d in _WEEKDAY.findall(low) if d in _DAY_NAMES]
    days = {d for _, d, _ in said}
    # (one day alone is a routine's only said as one: "the op on Friday" is a day gone by)
    if len(days) > 1 or any(every or plural for every, _, plural in said):
        found["days"] = {" ".join(sorted(days))}  # (the days together are the value)
    if _DIGIT.search(text) is None:
        return found  # (every other value has a number)
    for m in _MONEY.finditer(text):
        found.setdefault("money", set()).add(m.group().replace(" ", "").rstrip(".,"))
    if "%" in text:
        for m in _SHARE.finditer(text):
            found.setdefault("share", set()).add(m.group())
    for m in _COUNT.finditer(low):
        things = m.group(2) or m.group(3)
        if things not in lx.STOPWORDS and not _ADDED.search(low, max(0, m.start() - 16), m.start()):
            found.setdefault(f"count of {things}", set()).add(m.group(1))
    for m in _COUNT_AFTER.finditer(low):
        if m.group(1) not in lx.STOPWORDS and m.group(1) not in lx.DATE_WORDS and f"count of {m.group(1)}" not in found:
            found.setdefault(f"count of {m.group(1)}", set()).add(m.group(2))
    for m in _MEASURE.finditer(low):
        found.setdefault(f"measure in {m.group(2).rstrip('s')}", set()).add(m.group(1))
    for m in _CODE.finditer(low):
        found.setdefault("code", set()).add(m.group(1))
    for m in _CODE_NAMED.finditer(low):  # ("New code is 2086": no year)
        found.setdefault("code", set()).add(m.group(1))
    for m in _TIME.finditer(low):
        if m.group(3):
            hour, minute = int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0), m.group(2) or "00"
        else:
            hour, minute = int(m.group(4)), m.group(5)
        found.setdefault("time", set()).add(f"{hour:02d}:{minute}")
    for m in _DATE.finditer(low):
        if _STARTS_FROM.search(low, max(0, m.start() - 24), m.start()):
            continue  # the day a change holds from, no value of a day ("handover moves to 5pm from the week of 9 November")
        if m.group(5):
            month, day = int(m.group(5)), int(m.group(6))
        else:
            name, day = (m.group(2), m.group(1)) if m.group(1) else (m.group(3), m.group(4))
            if name not in _MONTH_NUMBER:
                continue
            month, day = _MONTH_NUMBER[name], int(day)
        found.setdefault("date", set()).add(f"{month:02d}-{day:02d}")
    return found


# Who said it, told first: "Lena said the Full Day package is $4,200" (two sayings of one speaker
# share that word, not what they are about).
_SAID_BY = re.compile(r"^\s*\S+(?:\s+[A-Z]\S*)?\s+(?:said|says|thinks|wants|reckons|mentioned)\s+")


def _words(text: str) -> set[str]:
    text = _SAID_BY.sub("", text)
    stems = (_stem(w) for w in _WORD.findall(text.lower()) if w not in lx.STOPWORDS and w not in _FILLER)
    return {w for w in stems if w not in _FILLER}  # (nor their plurals: "6 days at £425" and "£400 a day")


_ENDING = re.compile(r"(?:['’]s|ing|ed|es|s)$")


def _stem(word: str) -> str:
    """A word without its owner's "'s" or a common ending: "Marcus's editing days" and "Marcus
    edits" share Marcus and edit."""
    word = re.sub(r"['’]s$", "", word)
    stem = _ENDING.sub("", word)
    return stem if len(stem) >= 3 else word


_WHEN_FILLER = frozenset(_stem(w) for w in _WHEN_FILLER_WORDS)


# A word of a sentence, with its owner's "'s" ("Priya's deposit came in").
_TOKEN = re.compile(r"[A-Za-z]+(?:['’]s\b)?")
_SENTENCES = re.compile(r"(?<=[.!?:])\s+|\n+")


# ("still Tue/Thu 12pm"; "It's 5196 now", "That's ...": no one's)
_NOT_NAMES = lx.DATE_WORDS | lx.WEEKDAYS_SHORT | lx.PRONOUNS | frozenset("that there here what who where let".split())


@lru_cache(maxsize=4096)
def _names(text: str) -> frozenset[str]:
    """The names `text` gives: a capitalised word inside a sentence, one owning something wherever
    it stands, a sentence's first word before another name ("Pennine Dairy price rise") or a given
    name ("Mike knocked it down"); a sentence's first word alone may be any word ("Gas went up
    again"). Not days, months or "I"."""
    found: set[str] = set()
    for sentence in _SENTENCES.split(text):
        words = [(tok[:-2], True) if tok[-2:] in ("'s", "’s") else (tok, False) for tok in _TOKEN.findall(sentence)]
        named = [len(w) > 1 and w[0].isupper() and w[1:].islower() and w.lower() not in _NOT_NAMES
                 for w, _ in words]
        for i, ((word, owner), name) in enumerate(zip(words, named)):
            if name and (i or owner or len(named) > 1 and named[1] or word.lower() in lx.GIVEN_NAMES):
                found.add(word)
    return frozenset(found)


def _said(hit) -> tuple[str, datetime | None, str]:
    """What a hit says, when, and the words of its turn beside it (a fact's: "Tunde said new code
    is 8302." of "alarm code changed today after the break-in scare. New code is 8302")."""
    node = hit.node
    text = node.get("content") if hit.kind == "turn" else node.get("text") if hit.kind == "fact" else None
    when = node.get("at") if hit.kind == "turn" else node.get("statedAt") or node.get("validFrom")
    turn = (hit.evidence[0].get("content") or "") if hit.kind == "fact" and hit.evidence else ""
    # (not a value of a timeline that keeps one of another kind: "Quarry Lane is Dan Okafor." of "...
    # Quarry Lane is Dan Okafor at £720" was taken for a rent, revised by "Quarry Lane goes up to £750")
    valued = (node.get("predicate") or "") == "is" or (node.get("predicate") or "").endswith(" is")
    if turn and text and not _read(text)[0] and not (valued and node.get("object")):
        # A fact that kept no value of its turn's ("Grace said the alarm code changed again, the
        # installer reset the panel." of "... It's 5196 now."): its turn says it.
        text, when, turn = turn, hit.evidence[0].get("at"), ""
    when = when.to_native() if hasattr(when, "to_native") else when
    return (text or "", when if isinstance(when, datetime) else None, turn)


class _Saying(NamedTuple):
    text: str
    values: dict[str, set[str]]
    words: frozenset[str]
    tells_change: bool  # (_CHANGED)
    when: datetime
    speaker: str = ""  # a turn's: whom its "my" names

    @property
    def names(self) -> frozenset[str]:
        return _names(self.text)

    @property
    def mine(self) -> str | None:
        """Whose a turn's "my" is: its speaker's."""
        return self.speaker if self.speaker and _FIRST_PERSON.search(self.text) else None

    @property
    def owned(self) -> frozenset[tuple[str, str]]:
        """(name, the word of what it owns) the saying says ("Maya's rate": Maya, rate)."""
        return frozenset((m.group(1), _stem(m.group(2).lower())) for m in _OWNER.finditer(self.text))

    @property
    def anchors(self) -> frozenset[str]:
        return _anchors(self.text)

    @property
    def subject(self) -> set[str]:
        """Its words that may say what a day or a time is of."""
        return self.words - _WHEN_FILLER


_FIRST_PERSON = re.compile(r"\b(?:[Mm]y|I)\b")  # (not "our": a household's rent is any of its own)
_OWNER = re.compile(r"\b([A-Z][\w-]*)['’]s\s+([\w-]+)")


def _saying(text: str, when: datetime, turn: str = "", speaker: str = "") -> _Saying:
    values, words, tells_change = _read(text)
    return _Saying(text, values, words | _read(turn)[1] if turn else words, tells_change, when, speaker)


# The same turns and facts come back search after search: each text is read once while it does.
@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[dict[str, set[str]], frozenset[str], bool]:
    return _values(text), frozenset(_words(text)), _CHANGED.search(text) is not None


_NUMBER = re.compile(r"\d[\d,.:]*")


@lru_cache(maxsize=4096)
def _anchors(text: str) -> frozenset[str]:
    """The words a number in `text` is said of: the nearest word of substance before it (within
    six words) and the first after it (within two): "contingency" of "yes 10% contingency on top"
    and of "bumping the contingency to 20% now"."""
    low = _SAID_BY.sub("", text).lower()
    words = [(m.start(), m.end(), _stem(m.group())) for m in _WORD.finditer(low)
             if m.group() not in lx.STOPWORDS and m.group() not in _FILLER and m.group() not in _WHEN_FILLER_WORDS]
    found: set[str] = set()
    for n in _NUMBER.finditer(low):
        before = [w for start, end, w in words if end <= n.start() and len(low[end:n.start()].split()) <= 6]
        after = [w for start, end, w in words if start >= n.end() and len(low[n.end():start].split()) <= 2]
        found.update(before[-1:] + after[:1])
    return frozenset(found)


def _same_thing(a: _Saying, b: _Saying, asked: frozenset[str] = frozenset()) -> bool:
    """Whether two sayings, the older first, give values of one kind, different ones, about the
    same words, and, but for counts, do not each name others: "Priya's deposit came in, $1,000"
    and "Chloe and Ben paid their deposit, $1,200" are two couples' deposits. With `asked` (the
    kinds of value the question asks after), a value of one of those kinds."""
    if not a.when < b.when:
        return False
    changed = {k for k in set(a.values) & set(b.values)
               if not a.values[k] & _moved_to(b, k) and (b.tells_change or k not in _WHEN_KINDS)}
    if "date" in changed and _gone_by(a):
        changed.discard("date")  # ("Rhys capped the hob on 2026-10-09", said after: done, no day to move)
    if asked:
        # "What was the pitch fee at Frome?": a turn of its day and its £45, whose day a later
        # saying moved, still says the fee (it had been marked out of date, Bristol's £60 first)
        changed = {k for k in changed if k.split()[0] in asked}
    if not changed:
        return False  # (no kind in common, or each said again: no change)
    if (la := _labels(a.text)) and (lb := _labels(b.text)) and not la & lb:
        return False  # "invoice #1042 ... $2,430" and "invoice #1057 ... $11,900": two invoices
    if not any(k.startswith("count") for k in changed) and _others(a, b):
        # Two sayings each naming others are of two things ("Helen has a key safe ..., the code is
        # 4471", "Anika's address is 3 Holland Mews, there's a key safe there too, code 6120"); whom
        # a count names are often its members ("Bake stall now has 5 volunteers, Nina joined").
        return False
    left = _left(b.text)
    if any(a.values[k] <= left.get(k, set()) for k in changed) and a.words & b.words:
        return True  # the later says it left the older's value ("Graham wants to keep £320 of Jess's deposit",
        # "Graham came down from £320 to £150 after Jess sent him the check-in photos")
    if "money" in changed and _rate_units(a.text) & _rate_units(b.text):
        return True  # a price of one thing by its unit ("wholesale at £2.40 a loaf", "£2.80 a loaf from December")
    if "money" in changed and _time_rates(a.text) & _time_rates(b.text) and (a.names & b.names) - {a.speaker, b.speaker}:
        return True  # one person's day or hour rate ("Lena Marsh quoted £425 a day", "Lena agreed £400 a day")
    wa, wb = (a.words, b.words) if changed - _WHEN_KINDS else (a.subject, b.subject)
    shared = wa & wb
    if len(shared) > 1 and shared <= {_stem(n.lower()) for n in a.names | b.names} and not _SAID_INSTEAD.search(b.text):
        # Whom both name is not what both say, unless the later says what it replaces ("8pm for Poppy yes. Ollie is
        # 8:45 on school nights" and "Now Ollie has Sunday league matches that finish at 4:30, 6pm is too late for
        # Poppy": a bedtime, a match's end; "Sophie wants Otis walked at 1pm" and "Sophie asked if Otis can be
        # 12:30 instead of 1": his walk)
        return False
    if len(shared) == 1 and shared <= {_stem(k.split()[-1]) for k in changed if k.startswith("count of ")} \
            and not a.mine and not b.mine and not _HOLDER.search(a.text) and not _HOLDER.search(b.text) \
            and not _others(a, b):
        # A count of one thing, in no one's words ("we're at 55 guests", "48 guests confirmed"): the
        # things it counts say what it is of (not "I have 2 kids" of one and "Sara has 3 kids" of another)
        return True
    if len(shared) == 1:
        # One word in common is enough for a share, a measure or a code both said their numbers of
        # ("yes 10% contingency on top" and "bumping the contingency to 20% now"), else too little
        # ("Apixaban 2.5mg ... blood thinner" and "Amlodipine 5mg ... blood pressure"; sums and
        # days are said of too many things: "£45 a month" and "keep £550 a month").
        return bool(changed & _ANCHORED_KINDS) and shared <= a.anchors & b.anchors
    return len(shared) >= 2 and len(shared) >= 0.15 * len(wa | wb)


# Someone who holds the things a count counts: "Sara has 3 kids".
_HOLDER = re.compile(r"\b[A-Z][\w-]*\s+(?:has|had|owns|keeps|got)\s+(?:got\s+)?\d")


def _moved_to(b: _Saying, kind: str) -> set[str]:
    """The values of `kind` `b` says, but of a day told as a change, the days after the change: "Rhys can't do
    Thursday 2026-11-12, he's moved the hob fitting to Monday 2026-11-16" moved it to the 16th (the 12th it
    says too had kept the fitting of the 12th unmarked); and not a value it says it left ("came down from £320
    to £150")."""
    if kind != "date" or not b.tells_change:
        return b.values[kind] - _left(b.text).get(kind, set()) or b.values[kind]
    return _days_after_change(b.text) or b.values[kind]


# A value a change says it leaves: "Graham came down from £320 to £150", "went up from 5mg", "£70 instead of
# £60", "£150 not £320" (not a range: "tickets from £8 to £12" tells no change).
_LEFT = re.compile(r"(?:\b(?:down|up|went|gone|came|dropped|fell|rose|reduced|increased|raised|lowered|cut|moved|"
                   r"changed|bumped|knocked|brought|negotiated)\b(?:\s+[\w'-]+){0,3}?\s+from|\binstead\s+of|"
                   r"\brather\s+than|\bnot(?=\s*[£$€]))\s+((?:[£$€]\s?)?\d[\d,]*(?:\.\d+)?"
                   r"(?:k\b|%|\s?(?:mg|mcg|ml|kg|g|km|lbs?|units?)\b)?)", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _left(text: str) -> dict[str, set[str]]:
    """The values, by kind, `text` says a change left (_LEFT)."""
    found: dict[str, set[str]] = {}
    for m in _LEFT.finditer(text):
        for kind, values in _values(m.group(1)).items():
            found.setdefault(kind, set()).update(values)
    return found


@lru_cache(maxsize=4096)
def _days_after_change(text: str) -> frozenset[str]:
    """The days `text` says after its first word of a change (read once per text: the same hits come back)."""
    told = _CHANGED.search(text)
    return frozenset(_values(text[told.end():]).get("date", ())) if told is not None else frozenset()


_ISO_DAY = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")


def _gone_by(a: _Saying) -> bool:
    """Whether every day `a` names in full was over when it was said (an event told done, no plan)."""
    last = _last_full_day(a.text)
    return last is not None and last < (a.when.year, a.when.month, a.when.day)


@lru_cache(maxsize=4096)
def _last_full_day(text: str) -> tuple[int, int, int] | None:
    """The latest day `text` names in full (read once per text, as the others are)."""
    return max(((int(y), int(m), int(d)) for y, m, d in _ISO_DAY.findall(text)), default=None)


# A sum a unit of a thing costs: "£2.40 a loaf", "£16.40 a 16kg bag", "£1.10 each" is none (of what?); nor a
# month's, an hour's or a person's, which many things cost.
_RATE = re.compile(r"[£$€]\s?\d[\d,.]*\s+(?:a|an|per)\s+(?:\d+\s*(?:kg|g|l|ml|lb)\s+)?([a-z]{3,})\b")
_ANY_RATE = frozenset("""month week day year hour night session person head time visit lesson class term evening
morning go pop piece""".split())


# ... or a day's or an hour's work: whose it is says of what.
_TIME_RATE = re.compile(r"[£$€]\s?\d[\d,.]*k?\s+(?:a|an|per)\s+(day|hour)\b")


@lru_cache(maxsize=4096)
def _time_rates(text: str) -> frozenset[str]:
    return frozenset(_TIME_RATE.findall(text.lower()))


@lru_cache(maxsize=4096)
def _rate_units(text: str) -> frozenset[str]:
    return frozenset(_stem(m.group(1)) for m in _RATE.finditer(text.lower()) if m.group(1) not in _ANY_RATE)


# What names one of several things of a kind by its number: "invoice #1042", "ticket 4533", "order
# no. 7781" (each invoice's sum, each ticket's state, is its own).
_LABEL = re.compile(r"(?:#\s?|\b(?:invoice|ticket|order|case|claim|job|po)\s+(?:is\s+|no\.?\s*|number\s+(?:is\s+)?|#\s?)?)"
                    r"([A-Z]{0,4}-?\d{3,}(?:[-/]\d+)*)\b"
                    # ... or a code alone, its letters said in capitals: "yes INV-2026-041, £1,850"
                    r"|(?<![\w-])((?-i:[A-Z]{2,5})-\d{2,}(?:[-/]\d+)*)\b", re.I)


@lru_cache(maxsize=4096)
def _labels(text: str) -> frozenset[str]:
    return frozenset((m.group(1) or m.group(2)).lower() for m in _LABEL.finditer(text))


def _others(a: _Saying, b: _Saying) -> bool:
    """Whether each saying names someone or something the other does not say, written either way
    ("Kev Doyle" and "kev's first fix" are one Kev); or one is a turn's "my" and the other says
    someone else's (Tomasz's "my rate for subcontracted legal is €0.09 a word" and "Lindqvist raised
    Maya's rate to €0.14 per word": it had been marked revised by it)."""
    for x, y in ((a, b), (b, a)):
        # (of the thing both say: "St Aidan's invoice" is no owner of "I negotiated the hall down")
        if x.mine and any(word in x.words and name != x.mine for name, word in y.owned):
            return True
    # (not who told it: "Tom will tell him £2.80 a loaf" names no other thing than the loaf price Tom said before)
    names_a, names_b = a.names - {a.speaker, b.speaker}, b.names - {a.speaker, b.speaker}
    if not names_a or not names_b or names_a & names_b:
        return False
    return not {_stem(n.lower()) for n in names_a} & b.words and not {_stem(n.lower()) for n in names_b} & a.words


# What a question asks after, by its words: a sum or a day (the kinds of _values). A question of
# neither (or of both) weighs every kind. (Not a count: "How many hours a week does Aisha TA?" had
# its "4 hours ... £17.50" marked by the later "hours went up to 6 a week ... £19" only through
# the pay, its "6 a week" no count _values reads.)
_ASKS_KIND = (("money", re.compile(r"\b(?:how\s+much|cost|costs|price|prices|fee|fees|rate|rent|charge|charges|"
                                    r"salary|pay|paid|budget|quote)\b", re.I)),
              ("date", re.compile(r"^\W*(?:when\b|what\s+(?:day|date)\b)|\bwhat\s+date\b", re.I)))
# The kinds of _values each asks after (a day's time and weekdays with it).
_WEIGHED = {"money": frozenset({"money"}), "date": frozenset({"date", "time", "days"})}


def asked_kinds(query: str) -> frozenset[str]:
    """The one kind of value `query` asks after ("What was the pitch fee at Frome?": money), else
    none (every kind weighed)."""
    kinds = [kind for kind, said in _ASKS_KIND if said.search(query)]
    return _WEIGHED[kinds[0]] if len(kinds) == 1 else frozenset()


def _asks_or_echoes(hit) -> bool:
    """A hit that says no value anew: an assistant's turn, or a question."""
    if hit.kind == "turn" and hit.node.get("role") in ASSISTANT_ROLES:
        return True
    text = hit.node.get("content") if hit.kind == "turn" else hit.node.get("text")
    return (text or "").rstrip().endswith("?")


def later_values(hits: list, reorder: bool, asked: frozenset[str] = frozenset()) -> list:
    """`hits`, each older saying of a value marked with the latest later one among the first
    hits; with `reorder` (a question about now or as of a moment), an older saying and its later one changing
    places when the later ranked lower (the others keep theirs: a later saying from far below
    displaces no answer between). `asked`: the kinds of value the question asks after (asked_kinds)."""
    top = hits[:LOOKED_AT]
    read: list[_Saying | None] = []
    for h in top:
        if h.kind == "turn" and h.node.get("slip"):
            read.append(None)  # (a value taken back at once: no saying of it, hydrate.TURNS)
            continue
        text, when, turn = _said(h)
        speaker = (h.node.get("speaker") or "") if h.kind == "turn" else (
            (h.evidence[0].get("speaker") or "") if h.kind == "fact" and h.evidence else "")
        read.append(_saying(text, when, turn, speaker) if text and when else None)
    # Two groups' sayings are two groups' things (a search of no group reads every group's).
    groups = [h.node.get("groupId") for h in top]
    # (older place, later place) of every two sayings of one value, each pair weighed once; never later an
    # assistant's turn, which says again or works out what users said ("So that's £1.60 more per bag than
    # Millbrook's £14.20" had marked the £15.80 it came from), nor a question
    pairs = {(k, j) for j in range(len(top)) if read[j] is not None and read[j].values and not _asks_or_echoes(top[j])
             for k in range(len(top)) if k != j and read[k] is not None and groups[k] == groups[j]
             and _same_thing(read[k], read[j], asked)}
    later: dict[int, int] = {}  # an older saying's place -> its latest later saying's
    for k, j in pairs:
        if k not in later or read[later[k]].when < read[j].when:
            later[k] = j
    for k, j in later.items():
        top[k].revised_by = top[j]
    if not reorder or not later:
        return hits
    order = list(range(len(top)))
    for j in range(1, len(top)):
        pos = order.index(j)
        # the highest-ranked older saying of the same thing it says anew
        older = next((k for k in order[:pos] if (k, j) in pairs), None)
        if older is not None:  # the two change places, the rest keep theirs
            i = order.index(older)
            order[i], order[pos] = j, older
    if order == list(range(len(top))):
        return hits
    ordered = [top[i] for i in order] + hits[LOOKED_AT:]
    for i, h in enumerate(ordered, 1):
        h.rank = i
    return ordered
