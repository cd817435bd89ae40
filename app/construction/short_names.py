"""A thing named shorter than before is the same thing: "New shed code: 9032", then "changed the
code again, it's 1188 now", said after "The shed lock code is 4471"; "The manure delivery is moved
to Saturday 17 October" after "I booked the Hedges Farm manure delivery for Saturday 10 October";
"my goal is £4,500 now" after "my savings goal is £6,000". Each had been a timeline of its own
("shed code", "code", "shed lock code"), so every value stayed current and the first one said still
answered "what's the shed code?". Here a value whose thing (or attribute) is named by some of the
words of one named before in its group, ending in the same word, none of the others a qualifier
(a "target weight" is no weight), with values of the same kind (a share is no
price: "our fee ... 1.69%" is not the market's "pitch fee", £35), goes on that one's timeline, and
supersession (supersession.py) ends the old value. When two such are held ("the code": the shed's
and the gate's), or the short name has values of its own, it stays as said. Read in the writer's
transaction under the tenant's write lock, as value_owner.py is."""
from __future__ import annotations

import re
from typing import Awaitable, Callable

from app.construction.entity_resolution import normalize_key, thing_key

# Words that say which value, not which thing: "the new code", "our current goal".
_NOT_NAMING = frozenset("new current old latest actual real our my his her their the a an".split())

# The group's current values of things whose name ends in the same word ("shed lock code" for
# "code"; an event's day by each of its heads: "recce", "recce ride"), by the (tenant, subjectHead) index
# (migration 0020), one seek a head.
THINGS = """
UNWIND $asks AS a
UNWIND a.heads AS head
MATCH (f:Fact {tenant: $tenant, subjectHead: head})
WHERE f.status = 'current' AND coalesce(f.forgotten, false) = false AND f.predicate = a.predicate
  AND f.singleValued AND f.validFrom <= a.at
RETURN a.i AS i, collect(DISTINCT {key: f.subjectKey, name: f.subject, object: f.object}) AS named
"""
# A subject's current values of attributes ending in the same word ("savings goal is" for "goal
# is"), by the (tenant, subjectKey, predicate) index (migration 0013).
ATTRIBUTES = """
UNWIND $asks AS a
MATCH (f:Fact {tenant: $tenant, subjectKey: a.subjectKey})
WHERE f.status = 'current' AND coalesce(f.forgotten, false) = false AND f.singleValued
  AND f.predicate ENDS WITH a.tail AND f.validFrom <= a.at
RETURN a.i AS i, collect(DISTINCT {predicate: f.predicate, object: f.object}) AS named
"""


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def value_kind(value: str) -> str:
    """What kind of value it is: a day, a share, an amount of a currency, a number or words.
    A value goes only on a timeline of its kind ("they've dropped our fee to 1.69%" is no value
    of the market's "pitch fee", £35)."""
    v = value.strip()
    if _ISO_DAY.fullmatch(v) or v == "cancelled":  # (a day called off: "demo day is cancelled")
        return "day"
    if v.endswith("%"):
        return "share"
    if v[:1] in "£$€":
        return "money" + v[0]
    return "number" if any(c.isdigit() for c in v) else "words"


def _words(name: str) -> tuple[str, ...]:
    words = tuple(w for w in normalize_key(name).split() if w not in _NOT_NAMING)
    # (a due date is a deadline: "chapter 3 draft is due on 30 October", then "moving the chapter 3 deadline to 13
    # November")
    return words[:-2] + ("deadline",) if words[-2:] == ("due", "date") else words


# What a thing said of no entity holds: a value, or a day ("the manure delivery | date is").
_THING_PREDICATES = ("is", "date is")


def _thing(f: dict) -> bool:
    """A value of the group's thing: "<thing> | is | <value>", its subject no entity."""
    # (an event's day, its name an entity's or not: "Founders Demo Day is on 5 November", then
    # "demo day is cancelled")
    return (f["predicate"] in _THING_PREDICATES and f["singleValued"] and not f.get("ends")
            and f["subjectKey"] == thing_key(f["subject"], f.get("groupId"))
            and (f["predicate"] == "date is" or not any(a["role"] == "subject" for a in f["about"])))


def subject_head(f: dict) -> str | None:
    """The index key of a thing's value (the last word of its name, in its group), else None."""
    words = _words(f["subject"]) if _thing(f) else ()
    return thing_key(words[-1], f.get("groupId")) if words else None


# Words that make another value of a thing, not another name of it: a "target weight" is no weight,
# a "max heart rate" no heart rate (a "savings goal" is the goal, a "shed lock code" the code).
_QUALIFIERS = frozenset("""target goal aim max maximum min minimum average avg resting peak best ideal expected
estimated projected previous original starting initial limit cap planned""".split())


# What an event is called after its name, left out when it is said short: "Let's move the recce to
# Sunday the 15th" is "the recce ride"'s day; "the quiz" is "the quiz night".
_EVENT_TAILS = frozenset("ride day night evening weekend session".split())


def _shortens(short: tuple[str, ...], long: tuple[str, ...], day: bool = False) -> bool:
    """`short` names what `long` does with fewer of its words, the last the same (or, of an event's
    `day`, the last before its tail), and none of the others a qualifier."""
    if day and len(long) > 1 and long[-1] in _EVENT_TAILS and (short == long[:-1] or _shortens(short, long[:-1])):
        return True
    return (len(short) < len(long) and short[-1] == long[-1] and set(short) <= set(long)
            and not (set(long) - set(short)) & _QUALIFIERS)


def _heads(f: dict) -> list[str]:
    """The heads a thing's value may be found under: its own, and for an event's day, its
    name's with each tail after it ("recce" is found as "recce ride")."""
    heads = [f["subjectHead"]]
    if f["predicate"] == "date is":
        heads += [thing_key(t, f.get("groupId")) for t in sorted(_EVENT_TAILS)]
    return heads


def _one(short: tuple[str, ...], named: list[tuple[str, str, str]], value: str) -> tuple[str, str] | None:
    """The one (key, name) of `named` ((key, name, a value of it)) that `short` shortens, its
    values of `value`'s kind; None with none or two."""
    found = {key: name for key, name, obj in named
             if _shortens(short, _words(name), value_kind(value) == "day") and value_kind(obj) == value_kind(value)}
    return next(iter(found.items())) if len(found) == 1 else None


async def adopt_long_names(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> int:
    """Put each value of `facts` (the writer's rows, in order) whose thing or attribute is named
    short on the timeline of the one it shortens; mutates the rows. Returns how many moved."""
    for f in facts:
        f["subjectHead"] = subject_head(f)
    # (a correction, "now on the 28th, not the 27th", finds what it corrects by the old value:
    # corrections.py, after this)
    # (a value said with the number it replaces is its own: "order 15 boxes not 12")
    free = [i for i, f in enumerate(facts) if len(f.get("corrects") or ()) != 2 and not f.get("movesTo")]
    things = [{"i": i, "heads": _heads(facts[i]), "predicate": facts[i]["predicate"],
               "at": facts[i]["validFrom"]} for i in free if facts[i]["subjectHead"]]
    attrs = [{"i": i, "subjectKey": f["subjectKey"], "tail": f["predicate"].split()[-2] + " is",
              "at": f["validFrom"]} for i in free if (f := facts[i])["singleValued"] and not f.get("ends")
             and f["predicate"].endswith(" is") and len(f["predicate"].split()) >= 2]
    if not things and not attrs:
        return 0
    stored = {}
    if things:
        stored.update({("t", r["i"]): [(n["key"], n["name"], n["object"]) for n in r["named"]]
                       for r in await read(THINGS, asks=things)})
    if attrs:
        stored.update({("a", r["i"]): [(n["predicate"], n["predicate"][:-3], n["object"]) for n in r["named"]]
                       for r in await read(ATTRIBUTES, asks=attrs)})
    moved = 0
    for a in things:
        f = facts[a["i"]]
        short = _words(f["subject"])
        # named before in this episode too, and none of the short name's own
        # (not its own sentence's: "my monthly rent is 1,210" is "rent is" too, said at once)
        here = [(g["subjectKey"], g["subject"], g["object"]) for g in facts[:a["i"]]
                if g.get("subjectHead") in a["heads"] and g["predicate"] == f["predicate"]
                and g["text"] != f["text"]]
        named = stored.get(("t", a["i"]), []) + here
        one = _one(short, named, f["object"])
        if one is not None and all(key != f["subjectKey"] for key, _, _ in named):
            f["subjectKey"], f["subject"] = one
            moved += 1
    for a in attrs:
        f = facts[a["i"]]
        short = _words(f["predicate"][:-3])
        here = [(g["predicate"], g["predicate"][:-3], g["object"]) for g in facts[:a["i"]]
                if g["subjectKey"] == f["subjectKey"] and g["singleValued"] and g["predicate"].endswith(a["tail"])
                and g["text"] != f["text"]]
        named = stored.get(("a", a["i"]), []) + here
        one = _one(short, named, f["object"])
        if one is not None and all(p != f["predicate"] for p, _, _ in named):
            f["predicate"] = one[0]
            moved += 1
    return moved

