"""A short reply to a question, read as the sentence it answers: "What's your rent at the
moment?" "1,210 a month" says "My rent is 1,210 a month"; "Is training on a set day?" "yep
Tuesdays 6pm" says "Training is on Tuesdays 6pm". Alone, the reply names nothing, so the
sentence rules read it as nothing, and the value, later changed in words of its own ("training's
moving to Wednesdays"), had nothing to replace. Only a question asking for one thing's value, and a
reply that is nothing but the value, are read so: anything longer says more than an answer."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.fact_patterns import _I

# What is asked about: "your rent", "the venue", "Mia's shoe size", "training".
_THING = r"(?P<x>(?:(?:your|the|our|his|her|their|[A-Z][a-z]+'s)\s+)?[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}?)"
_NOW = r"(?:\s+(?:now|these\s+days|at\s+the\s+moment|currently|right\s+now|again))?"
_OPEN = r"^(?:(?:and|so|ok|okay|great|cool|nice|right|also|oh)[,!]?\s+)*"
# (question, how the answer is joined to the thing: "is", "is on", "is at")
_ASKS = [
    # "who's got the PA at the moment?" "It's in my garage": the PA is in my garage ("Jess": with Jess)
    (re.compile(_OPEN + rf"(?:who|where)(?:'s|\s+has|\s+have)\s+got\s+{_THING}{_NOW}\s*\?+$", _I), "is with"),
    (re.compile(_OPEN + rf"(?:what|who)(?:'s|\s+is|\s+are)\s+(?!got\s){_THING}{_NOW}\s*\?+$", _I), "is"),
    (re.compile(_OPEN + rf"how\s+much\s+(?:is|are)\s+{_THING}{_NOW}\s*\?+$", _I), "is"),
    (re.compile(_OPEN + rf"how\s+old\s+is\s+{_THING}{_NOW}\s*\?+$", _I), "is"),
    (re.compile(_OPEN + rf"where(?:'s|\s+is|\s+are)\s+{_THING}(?:\s+(?:held|based))?{_NOW}\s*\?+$", _I), "is at"),
    (re.compile(_OPEN + rf"(?:what|which)\s+days?\s+(?:is|are)\s+{_THING}(?:\s+on)?{_NOW}\s*\?+$", _I), "is on"),
    (re.compile(_OPEN + rf"(?:what|which)\s+time\s+(?:is|are)\s+{_THING}(?:\s+at)?{_NOW}\s*\?+$", _I), "is at"),
    (re.compile(_OPEN + rf"(?:is|are)\s+{_THING}\s+on\s+a\s+(?:set|particular|regular|fixed|specific)\s+"
                r"(?:day|night|evening)s?\s*\?+$", _I), "is on"),
    (re.compile(_OPEN + rf"when(?:'s|\s+is|\s+are)\s+{_THING}{_NOW}\s*\?+$", _I), "is"),
    # "When can Aisha come out?" "she said Thursday the 22nd": when she can come (then "no wait, it's Friday the 23rd" has
    # a day to put right; both had been "... said on <day>" of nothing)
    (re.compile(_OPEN + r"when\s+(?:can|could|will|would)\s+(?P<x>(?-i:[A-Z])[a-z]+)\s+"
                r"(?P<v>come(?:\s+(?:out|round|over|in))?|start|visit|do\s+it)\s*\?+$", _I), "can {v} on"),
    # "Tomasz when can you have the capsule art for the steam page?" "oct 2": when it is due
    (re.compile(_OPEN + r"(?:[A-Z][a-z]+,?\s+)?when\s+(?:can|could|will|would)\s+(?:you|he|she|they)\s+"
                rf"(?:have|get|send|finish|deliver)\s+{_THING}(?:\s+(?:done|ready|finished|sent|over))?"
                r"(?:\s+(?:for|to)\s+[^?]{1,40}?)?\s*\?+$", _I), "is due on"),
]
# Said before the value, not part of it: "yep Tuesdays 6pm", "it's Dr Okafor", "currently 1,210".
_LEAD = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|yea|sure|ok|okay|um+|uh+|oh|hmm+|well|so|right|correct|it's|its|it\s+is|"
    r"that's|thats|that\s+is|they're|they\s+are|currently|right\s+now|at\s+the\s+moment|still|now|just|"
    r"(?:she|he|they)\s+(?:said|says))"  # ("she said Thursday the 22nd": the answer she gave)
    r"[,!.:]*\s+)+", _I)
_TAIL = re.compile(r"[\s,]*(?:\b(?:lol|haha+|atm|for\s+now|at\s+the\s+moment|currently)\b[\s,]*)*[.!\s]*$", _I)
# A reply that says more, or doubts, is no bare value: "not sure", "no idea", "I think Tuesdays",
# "we haven't decided", "depends on the week".
_NO_VALUE = frozenset(
    "i i'm i've we we're we've he she they you is are was were be been have has had do does did don't "
    "doesn't didn't not no none nope dunno idea sure maybe think guess probably depends decided yet "
    "unknown unsure tbc tbd what who why how when where if or "
    # a courtesy is no value: "Thanks, Mell!" to "What's your plan to pitch in?"
    "thanks thank thx wow aw aww hi hey hello great cool nice awesome glad sorry sounds love".split())
_PLACE_PREP = re.compile(r"(?:at|in|on|near|by|outside|behind|opposite|next\s+to)\s", _I)
_DAY_FIRST = re.compile(r"(?:on|every|each|from)\s", _I)
_WEEKDAY = re.compile(rf"(?:{lx.WEEKDAY_ALT})s?\b", _I)


def asked_value(question: str) -> tuple[str, str] | None:
    """(the thing, how its answer joins it) when `question` asks for one thing's value."""
    text = " ".join(question.split())
    for pattern, join in _ASKS:
        m = pattern.match(text)
        if m is None:
            continue
        x = m.group("x")
        if "{v}" in join:  # (whom it is asked of, by name: what they can do)
            return x, join.format(v=" ".join(m.group("v").lower().split()))
        head = x.split()[0].lower()
        # "What's up?", "Who's coming?", "What is it?": nothing asked of a thing
        # ("What's your plan to pitch in?": a plan is told in a sentence, not a value)
        # ("What's the weather like?": how it is, no value of it)
        if head in _NOT_A_THING or " to " in f" {x.lower()} " or x.lower().endswith(" like") or (
                len(x.split()) == 1 and x.lower() not in _BARE_THINGS and not x.endswith("ing")):
            return None
        return x, join
    return None


_NOT_A_THING = frozenset("it that this up going coming happening wrong new there he she they you".split())
# A thing asked of with no determiner: "When is training?", "How much is rent now?"
_BARE_THINGS = frozenset(
    "rent training practice practise rehearsal rehearsals kickoff kick-off lunch dinner breakfast "
    "school work church choir class classes mass parking pickup drop-off dropoff registration payday "
    "subs fees membership tuition childcare nursery".split())


def as_answer(question: str, reply: str) -> str | None:
    """The sentence `reply` says when it answers `question` with nothing but a value, else None."""
    asked = asked_value(question)
    if asked is None:
        return None
    x, join = asked
    value = _TAIL.sub("", _LEAD.sub("", reply.strip()))
    words = re.findall(r"[\w'-]+", value.lower())
    if not words or len(words) > 6 or any(w in _NO_VALUE for w in words):
        return None
    if words[0] in lx.STOPWORDS and words[0] not in ("on", "at", "in", "every", "the", "a", "an", "from"):
        return None
    # "your" asked is "my" answered; the sentence is the one who replies
    thing = re.sub(r"\byour\b", "my", x, flags=re.I)
    if join in ("is at", "is with") and _PLACE_PREP.match(value + " "):
        join = "is"
    elif join == "is on" and _DAY_FIRST.match(value + " "):
        join = "is"
    elif join == "is due on" and re.match(r"(?:on|by|before)\s", value, _I):
        join = "is due"
    elif join == "is" and question.lstrip().lower().startswith("when") and _WEEKDAY.match(value):
        join = "is on"  # "When's training?" "Tuesdays": on Tuesdays
    return f"{thing[0].upper()}{thing[1:]} {join} {value}."


# A value proposed, then agreed in a short reply by another: "I'd like to raise the fundraising target
# to £4,500" "yes, £4,500 it is" (the reply said nothing; the proposal was a plan); asked too: "Can we move
# swimming to 5:30 from next week?" "Yes 5:30 is fine".
_VALUE = r"(?:[£$€]?\s?\d[\d,]*(?:\.\d+)?k?%?(?:\s*(?:am|pm))?|\d{1,2}[:.]\d\d(?:\s*(?:am|pm))?)"
_PROPOSED = re.compile(r"\b(?:raise|increase|lower|cut|reduce|change|set|move|bump|put|up|drop|push|bring|shift|nudge|hike|knock)\s+"
                       r"(?:up\s+|down\s+)?(?P<whose>(?:the|our|my|his|her|their|[A-Z][a-z]+'s)\s+)?"
                       r"(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:up\s+|down\s+|back\s+|forward\s+)?to\s+"
                       rf"(?P<v>{_VALUE})(?![\d:])(?P<tail>\s+(?:from|starting|as\s+of)\s+[^?.!,;]+)?", _I)
_YES = r"(?:yes|yeah|yep|yup|ok|okay|fine|agreed|great|sure|done|perfect)\b"
_AGREED = re.compile(rf"^(?:{_YES}[\s,!.]*)*"
                     rf"(?P<v>{_VALUE})(?:\s+(?:it\s+is|then|it\s+shall\s+be|is\s+(?:fine|good|great|perfect|ok|okay|better)"
                     r"(?:\s+(?:for|with|by)\s+(?:me|us))?|works(?:\s+for\s+(?:me|us))?|suits(?:\s+(?:me|us))?))?"
                     r"(?:,?\s+(?:then|thanks|cheers))?[\s.!]*$", _I)


def _same_value(a: str, b: str) -> bool:
    def plain(v: str) -> str:
        return re.sub(r"\s+", "", v).rstrip(".,").lower().replace(".", ":")
    return plain(a) == plain(b)


def as_agreed(proposal: str, reply: str) -> str | None:
    """The sentence `reply` says when it agrees to the value `proposal` put forward, else None."""
    said = _AGREED.match(reply.strip())
    if said is None or (said.group(0).strip() == said.group("v") and not proposal.rstrip().endswith("?")):
        return None  # (a number alone answers no proposal told: "I'd like to move the deadline to 9" "10")
    put = next((m for m in _PROPOSED.finditer(proposal) if _same_value(m.group("v"), said.group("v"))), None)
    if put is None or put.group("attr").split()[0].lower() in lx.STOPWORDS:
        return None
    # ("raise the target": the target; "move Mia's swimming": hers; "move swimming": swimming)
    whose = (put.group("whose") or "").strip()
    owner = "the" if whose.lower() in ("the", "our", "my") else whose
    thing = f"{owner} {put.group('attr').lower()}".strip()
    return f"{thing[:1].upper()}{thing[1:]} is {said.group('v').strip()}{(put.group('tail') or '').rstrip()}."
