"""A question after one thing of someone's that holds one value at a time, or a few: "Who is
Raj's doctor?", "Where does Dad live?", "Where does Priya work?", "What medication does Raj take
now?", "How much insulin does Dad take?". The answer is that thing's current value on the
person's timeline (supersession.py), which the graph channel pins among the first hits
(channels/graph.py): ranked by its words and vector alone, "Raj has type 2 diabetes" (whose
turn names his old doctor) came first, and the fact naming the new one fourth."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.entity_resolution import normalize_key
from app.construction.local.assignments import work_key
from app.construction.local.measures import attribute_key
from app.construction.local.medication import one_medication

_I = re.IGNORECASE
_ONE_HOLDER = lx.UNIQUE_KIN | lx.ORG_ROLES  # roles asked after as "Who is X's ...?"
MAX_CHARS = 200  # of a query, read for such a question
_ROLE = re.compile(r"\bwho(?:'s|\s+is|\s+was)\s+(?:the\s+)?\S.*?['’]s\s+(?:new\s+|current\s+|main\s+)?"
                   r"(?P<role>[\w-]+)\b", _I)
_ASKED = (
    (re.compile(r"\bwhere\s+(?:does|did|do|is|are)\s+\S.*?\s+(?:live|living|stay|staying|reside|residing)\b",
                _I), ("lives in",)),
    # (where: the employer, or the office, "the Berlin office")
    (re.compile(r"\bwhere\s+(?:does|did|do|is|are)\s+\S.*?\s+(?:work|working)\b", _I), ("works at", "office is")),
    (re.compile(r"\bwho\s+does\s+\S.*?\s+work\s+for\b", _I), ("works at",)),
    # an address, or where someone's things go ("Where should Ana's parcel go?": measures.py)
    (re.compile(r"\b(?:what|where)(?:'s|\s+is|\s+was)\s+\S.*?['’]s\s+(?:(?:new|current|delivery|shipping|home|"
                r"postal|mailing)\s+)?address\b|\bwhere\s+(?:should|do|does|will|shall|can)\s+\S.*?\s+(?:parcels?|"
                r"packages?|orders?|deliveries|things|post|mail)\s+(?:go|be\s+sent|be\s+delivered|be\s+shipped)\b",
                _I),
     ("address is",)),
    (re.compile(r"\b(?:which|what)\s+office\b|\bwhere(?:'s|\s+is)\s+\S.*?['’]s\s+office\b", _I), ("office is",)),
    (re.compile(r"\bwhat\s+(?:medications?|medicines?|meds|drugs|pills|tablets)\b|"
                r"\bwhat\s+(?:does|is)\s+\S.*?\s+(?:taking|take)\b"
                r"(?!\s+(?:to|for|with|on|in|at|part|place|up|off))", _I), ("takes",)),
    (re.compile(r"\bwhat(?:'s|\s+is)\s+\S.*?['’]s\s+(?:job|occupation|profession)\b|"
                r"\bwhat\s+does\s+\S.*?\s+do\s+for\s+(?:a\s+)?(?:living|work)\b", _I), ("job is", "works at")),
)


# "How much insulin does Dad take?", "What dose of metformin is Raj on?", "What's Mum's
# amlodipine dosage?": that medication's dose (medication.py: "insulin dose is").
_DOSE_WORDS = re.compile(r"\b(?:how\s+much|how\s+many|doses?|dosages?|units|mg)\b", _I)


def asked_predicates(query: str) -> tuple[str, ...]:
    """The predicates whose current value answers `query`, or () when it asks no such thing."""
    # Such a question is short; the patterns' lazy middles cost time quadratic in a long text
    # (26 ms for 4,000 characters of "where does x"), on every search.
    query = query[:MAX_CHARS]
    if _DOSE_WORDS.search(query):
        meds = [w for w in re.findall(r"[a-z]+", query.lower()) if w in lx.MEDICATIONS]
        if meds:
            return (f"{one_medication(meds[0])} dose is",)
    m = _ROLE.search(query)
    if m and m.group("role").lower() in _ONE_HOLDER:
        role = m.group("role").lower()
        return (f"{lx.SAME_ROLE.get(role, role)} is",)
    return next((predicates for rx, predicates in _ASKED if rx.search(query)), ())


# "Who owns billing?", "Who's on the mobile app now?", "What database are we using for billing?":
# a piece of work's owner, or what it uses (construction/local/assignments.py), whose timeline is
# the work's own, not a person's.
_OWNER = re.compile(r"\bwho(?:'s|\s+is)?\s+(?:owns|owning|(?:on|in\s+charge\s+of|leading|running|handling|"
                    r"working\s+on)\b)\s+(?P<x>[\w' -]{1,60}?)\s*(?:now|these\s+days|currently|at\s+the\s+moment)?"
                    r"\s*[?.!]*$", _I)
# ("Which design tool do I use for Brightwave?", "... does Lena Park use for ...": a client's tool)
_USED_FOR = re.compile(r"\b(?:what|which)\s+(?:[\w-]+\s+){0,2}?(?:(?:are|do|did)\s+(?:we|I|you)|is\s+\S+|"
                       r"(?:does|did)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+"
                       r"(?:using|use|built\s+on|running\s+on|going\s+with)\s+for\s+(?P<x>[\w' -]{1,60}?)"
                       r"\s*(?:now|these\s+days|currently)?\s*[?.!]*$", _I)


# "When is launch?", "When's the Globex demo now?": the day of something scheduled ("date is").
_WHEN = re.compile(r"\bwhen(?:'s|\s+is|\s+was|\s+will)\s+(?:the\s+|our\s+)?(?P<x>[\w' -]{1,60}?)\s*"
                   r"(?:be|happening|taking\s+place|now|again)?\s*[?.!]*$", _I)


def asked_work(query: str) -> tuple[str, tuple[str, ...]] | None:
    """(the piece of work's key, the predicates whose value answers `query`), or None."""
    query = query[:MAX_CHARS].strip()
    for rx, predicates in ((_OWNER, ("owner is",)), (_USED_FOR, ("uses",)), (_WHEN, ("date is",))):
        m = rx.search(query)
        # "When is the QBR with Brightwave?": the QBR's day (whom it is with said by its group)
        if m is None:
            continue
        x = re.sub(r"\s+(?:with|for|at)\s+.*$", "", m.group("x"), flags=_I) if rx is _WHEN else m.group("x")
        if (key := work_key(x)) and (rx is not _WHEN or set(key.split()) & lx.SCHEDULED_EVENTS):
            return key, predicates
    return None


# A value that changes, asked after (construction/local/measures.py): "What's Nadia's squat PR?",
# "What is the status of LUM-4821?", "What plan is Harbor on?", "How many seats does Brightwave
# have?", "What does Nadia weigh now?", "What's the renewal date?" (its group's).
_NOW = r"\s*(?:(?i:now|these\s+days|currently|at\s+the\s+moment|today)\s*)?[?.!]*$"
# A ticket or order asked by its number, with the word for it: "my order #A-10293", "ticket QL-118".
_TICKET_SAID = (rf"(?:(?:(?:my|our|your|the|this|that|(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)?['’]s)\s+)?(?:order|ticket|case|complaint|issue|request|return|bug|"
                rf"parcel|package)\s+#?|#)(?=(?-i:{lx.TICKET_ID})\b)")
_X = (rf"(?:{_TICKET_SAID})?(?P<x>(?-i:{lx.TICKET_ID})\b|(?:\d{{1,4}}[A-Za-z]?\s+)?(?-i:[A-Z])[\w-]*"
      r"(?:\s+(?:(?-i:[A-Z])[\w-]*|\d{1,4}[A-Za-z]?\b)){0,2})")  # ("Flat 2", "14 Elm Road", "LUM-4821")
_A = r"(?P<a>[\w-]+(?:\s+[\w-]+){0,3}?)"
_VALUE_ASKED = (
    re.compile(rf"\bwhat(?:'s|\s+is|\s+was|\s+are)\s+{_X}['’]s\s+(?:(?i:current|new|latest)\s+)?{_A}{_NOW}", _I),
    re.compile(rf"\bwhat(?:'s|\s+is|\s+was)\s+(?i:the\s+)?(?:(?i:current|new|latest)\s+)?{_A}\s+"
               r"(?i:of|for|on|at|in)\s+"
               rf"{_X}{_NOW}", _I),
    re.compile(rf"\b(?:what|which)\s+{_A}\s+(?i:is|are|does|do)\s+{_X}\s+(?i:on|using|running|use|in|have)\b", _I),
    re.compile(rf"\bhow\s+many\s+{_A}\s+(?i:does|do|did)\s+{_X}\s+(?i:have|has|use|got)\b", _I),
)
# A person's step in a process and the pay they ask (measures.py): "What stage is Priya at?",
# "Where is Tom in the process?", "How much does Priya want?", "What salary is Tom asking for?".
_OF_A_PERSON = (
    (re.compile(rf"\bwhat\s+(?:stage|step|status)\s+(?:is|'s)\s+{_X}\s+(?:at|in|on)\b", _I), "status is"),
    (re.compile(rf"\bwhere\s+(?:is|'s)\s+{_X}\s+(?:at\s+)?in\s+the\s+(?:process|pipeline|funnel)", _I),
     "status is"),
    (re.compile(rf"\bhow\s+much\s+(?:does|did|is)\s+{_X}\s+(?:want|asking|expect)", _I), "expectation is"),
    (re.compile(rf"\bwhat\s+(?:salary|pay|rate)\s+(?:does|did|is)\s+{_X}\s+(?:want|asking|expect)", _I),
     "expectation is"),
)
_WEIGH_ASKED = re.compile(rf"\b(?:what|how\s+much)\s+(?i:does|did)\s+{_X}\s+weigh\b", _I)
# A lift's best, asked as what can be lifted: "How much can Mei deadlift now?" (the day's lift
# said in passing, "Deadlifted 70 kg this morning!", ranked above the best, 75 kg).
_LIFT_ASKED = re.compile(rf"\bhow\s+(?:much|heavy)\s+(?i:can|could|does|do)\s+{_X}\s+"
                         r"(?P<lift>squat|bench(?:\s+press)?|deadlift|overhead\s+press|press|clean|snatch)\b", _I)
_GROUP_VALUE = re.compile(rf"^\s*(?:what(?:'s|\s+is|\s+was)|when(?:'s|\s+is))\s+(?i:the|our)\s+"
                          rf"(?:(?i:current|new|latest)\s+)?{_A}{_NOW}", _I)


# Whom a thing has in a post ("Who is the hiring manager for the designer role?", "Who's the
# tenant in Flat 3 now?": construction/local/assignments.py), the thing's own timeline.
_HOLDER_ASKED = re.compile(
    rf"\bwho(?:'s|\s+is|\s+was)\s+(?:the\s+|our\s+)?(?:(?:current|new|latest)\s+)?(?P<role>{lx.HOLDER_ROLES})\s+"
    rf"(?:for|of|on|at|in)\s+(?:the\s+|our\s+)?(?P<x>[\w' -]{{1,60}}?){_NOW}", _I)
# "What's the status of the boiler at Elm Road?": the boiler's value there.
_STATUS_OF = re.compile(r"^(?:status|state|condition)\s+of\s+(?:the\s+)?", _I)


def asked_value(query: str, in_group: bool = False) -> list[tuple[str, str]]:
    """(the key of whose value it is, the predicate) for each timeline whose value now answers
    `query`; in a group, the group's own value too ("the plan" said of no one: measures.py)."""
    query = query[:MAX_CHARS].strip()
    m = _HOLDER_ASKED.search(query)
    if m and (key := work_key(m.group("x"))):
        return [(key, f"{' '.join(m.group('role').lower().split())} is")]
    m = _WEIGH_ASKED.search(query)
    if m:
        return [(normalize_key(m.group("x")), "weight is")]
    m = _LIFT_ASKED.search(query)
    if m:
        return [(normalize_key(m.group("x")), f"{attribute_key(m.group('lift') + ' pr')} is")]
    for rx, predicate in _OF_A_PERSON:
        if m := rx.search(query):
            return [(normalize_key(m.group("x")), predicate)]
    for rx in _VALUE_ASKED:
        m = rx.search(query)
        if m and (attr := attribute_key(_STATUS_OF.sub("", m.group("a")))) and attr.split()[-1] not in _NOT_VALUE:
            pairs = [(normalize_key(m.group("x")), f"{attr} is")]
            return pairs + ([(attr, "is")] if in_group else [])
    m = _GROUP_VALUE.search(query)
    if m and (attr := attribute_key(m.group("a"))) and attr.split()[-1] not in _NOT_VALUE:
        return [(attr, "is")]
    return []


# What a value question is not after: a person's one-holder role or a job (asked_predicates),
# nor a thing of no single value.
_NOT_VALUE = _ONE_HOLDER | lx.KIN | frozenset("job occupation profession name problem deal story".split())
