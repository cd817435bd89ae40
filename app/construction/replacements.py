"""Someone's replacement takes over what they held: "Tom Ashby is leaving Brightline, his replacement
is Priya Nair", sessions after "My contact at Brightline Coffee is Tom Ashby", makes Priya Nair
the contact (a new value on that timeline: supersession.py ends Tom's); a thing switched to another
does too ("I've switched from Photoshop to Procreate", after "I do everything in Photoshop"). The
extractor reads the sentence as the fact (Tom Ashby | replacement is | Priya Nair); here the
group's current single-valued fact said before it whose value is the one replaced becomes the new
holder's. With none, or more than one that it cannot tell apart, the fact stays as said. Read in
the writer's transaction under the tenant's write lock, as corrections.py is."""
from __future__ import annotations

import re
from typing import Awaitable, Callable

from app.construction import lexicon as lx
from app.construction.entity_resolution import normalize_key, timeline_of
from app.construction.short_names import subject_head, value_kind

# The extractor's facts that hand a value on, and how the value's text says so.
HANDED_ON = {"replacement is": "{old}'s replacement", "switched to": "switched from {old}"}
# ... and those of someone leaving the group their post is of ("Sam is leaving the band", sessions
# after "Sam is our drummer": the drummer's post was Sam's ever after). The group's post held by
# them (a value "<post> | is | <them>") ends then.
LEAVES = frozenset({"is leaving", "has left", "left", "is quitting", "has quit", "quit"})
_GROUP_WORDS = frozenset("""band team group club choir kitchen company cast show crew committee society
business firm practice shop office""".split())

# The group's current values held by the one replaced (in a conversation of no group, those of no
# group: a person's values are the tenant's then, as their timelines are), the latest first: read by
# the (tenant, objectKey) index (migration 0019).
# A fact of the asking row's group, or of none when it has none.
SAME_GROUP = "(f.groupId = a.groupId OR (a.groupId IS NULL AND f.groupId IS NULL))"
HELD = """
UNWIND $asks AS a
MATCH (f:Fact {tenant: $tenant, objectKey: a.heldBy})
WHERE """ + SAME_GROUP + """
  AND f.singleValued AND f.status = 'current' AND coalesce(f.forgotten, false) = false
  AND NOT f.predicate IN $handedOn AND f.validFrom < a.at
WITH a, f ORDER BY f.validFrom DESC
WITH a, collect({subject: f.subject, subjectKey: f.subjectKey, predicate: f.predicate,
                 about: [(f)-[r:ABOUT]->(e:Entity) | {key: e.key, role: r.role}]})[..5] AS found
RETURN a.i AS i, found
"""


async def adopt_replacements(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each fact row that hands a value on (HANDED_ON) the value its new holder takes over;
    mutates the rows. Returns the indexes of the rows changed (their words are to be counted again)."""
    # (by the name its entity holds: "Jonathan's replacement is Priya Nair" is Jonathan Pike's)
    asks = [{"i": i, "heldBy": _held_by(f), "groupId": f.get("groupId"), "at": f["statedAt"]}
            for i, f in enumerate(facts) if f["predicate"] in HANDED_ON and f["singleValued"] or _leaves(f)]
    if not asks:
        return []
    found = {row["i"]: row["found"] for row in await read(HELD, asks=asks, handedOn=list(HANDED_ON))}
    changed = []
    for a in asks:
        if _leaves(facts[a["i"]]):
            # (a post said in the same episode: "Jamie Fletcher is our sous chef ... His last day is Friday 30th October")
            here = [g for g in reversed(facts[:a["i"]])
                    if g["singleValued"] and g["objectKey"] == a["heldBy"] and g["predicate"] == "is"]
            if _post_left(facts[a["i"]], here[:1] or found.get(a["i"]) or []):
                changed.append(a["i"])
            continue
        # said before it in the same episode ("I do everything in Photoshop. I've switched from
        # Photoshop to Procreate"), else in the graph
        here = [g for g in reversed(facts[:a["i"]])
                if g["singleValued"] and g["objectKey"] == a["heldBy"] and g["predicate"] not in HANDED_ON]
        held_by = here[:1] or found.get(a["i"]) or []
        # one value held, or several of one timeline; two posts of the one replaced are not told apart
        if not held_by or len({(c["subjectKey"], c["predicate"]) for c in held_by}) != 1:
            continue
        f, held = facts[a["i"]], held_by[0]
        old, new = f["subject"], f["object"]
        how = HANDED_ON[f["predicate"]].format(old=old)
        take_over(f, held, predicate=held["predicate"], text=_value_text(held, new, how))
        changed.append(a["i"])
    return changed


def _value_text(held: dict, new: str, how: str) -> str:
    """The text of `new` as the value of `held`'s timeline: "Dan's physio is Tomasz Nowak, <how>."."""
    said = held["subject"] if held["predicate"] == "is" else f"{held['subject']}'s {held['predicate'][:-3]}"
    return f"{said[:1].upper()}{said[1:]} is {new}, {how}."


# The facts of the asking row's group (in a conversation of no group, that conversation's): by the
# (tenant, groupId) or (tenant, conversationId) index, not the tenant's every fact.
GROUP_FACTS = """
CALL (a) {
  MATCH (f:Fact {tenant: $tenant, groupId: a.groupId}) RETURN f
  UNION
  MATCH (f:Fact {tenant: $tenant, conversationId: a.conversationId}) WHERE a.groupId IS NULL AND f.groupId IS NULL
  RETURN f
}
"""

# The group's current values of words said before a switch (in a conversation of no group, that
# conversation's), the latest first: by the (tenant, groupId) or (tenant, conversationId) index.
SWITCHABLE = """
UNWIND $asks AS a
""" + GROUP_FACTS + """WITH a, f
WHERE f.singleValued AND f.status = 'current' AND coalesce(f.forgotten, false) = false
  AND (f.predicate = 'is' OR f.predicate ENDS WITH ' is') AND NOT f.predicate IN ['date is', 'end date is']
  AND f.objectKey <> a.newKey AND coalesce(f.statedAt, f.validFrom) < a.at
WITH a, f ORDER BY f.validFrom DESC
WITH a, collect({subject: f.subject, subjectKey: f.subjectKey, predicate: f.predicate, object: f.object,
                 about: [(f)-[r:ABOUT]->(e:Entity) | {key: e.key, role: r.role}]})[..200] AS found
RETURN a.i AS i, found
"""
# Words of what a value is that name no one thing ("insurance provider": the insurance).
_GENERIC = frozenset("name number contact provider current main new old usual regular".split())


async def adopt_switches(read: Callable[..., Awaitable[list[dict]]], facts: list[dict]) -> list[int]:
    """Make each fact row marked `switchesTo` (local/switches.py) the new value of the group's value
    its sentence names: by its holder ("Karen's too far away now", of "Dan's physio is Karen Lowe"),
    else by what it is ("renewed the van insurance, went with Admiral", of "insurance provider is
    Direct Line"); one timeline so named, or none is taken. Mutates the rows; returns the indexes of
    the rows changed (their words are to be counted again)."""
    asks = [{"i": i, "newKey": normalize_key(f["switchesTo"]), "groupId": f.get("groupId"),
             "conversationId": f["conversationId"], "at": f["statedAt"]}
            for i, f in enumerate(facts) if f.get("switchesTo")]
    if not asks:
        return []
    changed = []
    for row in await read(SWITCHABLE, asks=asks):
        f = facts[row["i"]]
        # (the sentence as said: a transaction run again finds the row already retold)
        text = f.setdefault("switchSaid", f["text"]).replace("’", "'")
        said = f" {normalize_key(text)} ".replace("'s ", " ")
        values = [c for c in row["found"] if value_kind(c["object"]) == "words"]
        # (not who did the switching: "Marcus has moved us to Nationwide" is no new broker, Marcus the broker)
        held = _one_timeline([c for c in values if _holder_named(c["object"], said) and not _switcher(c["object"], text)]) \
            or _one_timeline([c for c in values if _thing_named(c, said)])
        if held is None:
            continue
        new = f["switchesTo"]
        take_over(f, held, predicate=held["predicate"], object=new, objectKey=normalize_key(new),
                  singleValued=True,  # (the sentence kept: why, and what it costs now)
                  text=f"{_value_text(held, new, 'switched from ' + held['object'])[:-1]}: {f['switchSaid']}")
        changed.append(row["i"])
    return changed


def _one_timeline(found: list[dict]) -> dict | None:
    """The latest of `found` when all are of one timeline, else None."""
    return found[0] if found and len({(c["subjectKey"], c["predicate"]) for c in found}) == 1 else None


def _holder_named(value: str, said: str) -> bool:
    """Whether the sentence (normalised, padded with spaces) names who or what holds the value: its
    name, or a person's given name ("Karen's too far away now", of Karen Lowe)."""
    words = [w for w in normalize_key(value).split() if w not in lx.TITLES]
    return bool(words) and (f" {' '.join(words)} " in said
                            or len(words) in (2, 3) and words[0] in lx.GIVEN_NAMES and f" {words[0]} " in said)


# (the fact's text names whom: "Marcus has moved Hannah to Nationwide")
_SWITCHED_BY = (r"\s+(?:(?:has|have|had|just|now|finally)\s+)*(?:moved|switched|changed|swapped|put|got)\s+"
                r"(?:us|me|him|her|them|(?-i:[A-Z])[\w'-]*)\b")


def _switcher(value: str, text: str) -> bool:
    """Whether the one holding `value` is who the sentence says did the switching, by a name of theirs."""
    words = [w for w in value.split() if w.lower() not in lx.TITLES]
    names = {" ".join(words), words[0]} if words else set()
    return any(re.search(rf"(?<![\w'])(?i:{re.escape(n)}){_SWITCHED_BY}", text) for n in names)


def _thing_named(held: dict, said: str) -> bool:
    """Whether the sentence names what the value is ("the van insurance", of "insurance provider")."""
    what = timeline_of(held["subjectKey"]) if held["predicate"] == "is" else held["predicate"][:-3]
    words = [w for w in normalize_key(what).split() if len(w) >= 4 and w not in _GENERIC and w not in lx.STOPWORDS]
    return any(f" {w} " in said or f" {w}s " in said for w in words)


def _leaves(f: dict) -> bool:
    """Whether the fact row says its subject leaves the group ("Sam | is leaving | the band", "us")."""
    said = (f.get("object") or "").lower().split()
    return f["predicate"] in LEAVES and (said == ["us"] or len(said) == 2 and said[0] in ("the", "our")
                                         and said[1] in _GROUP_WORDS)


def _post_left(f: dict, held: list[dict]) -> bool:
    """Make the row the end of the one group post its subject held (a value "<post> | is | <them>");
    False when they held none or several."""
    posts = [h for h in held if h["predicate"] == "is"]
    if len({h["subjectKey"] for h in posts}) != 1:
        return False
    who = _held_by(f)
    # (who left stays named by it, no longer its subject: the post is)
    f["about"] = [{**r, "role": "mentioned"} if r["role"] == "subject" else r for r in f["about"]]
    take_over(f, posts[0], ends="is", objectKey=who)
    return True


def _held_by(f: dict) -> str:
    """The object key a value held by `f`'s subject has: its entity's key, else its words."""
    key = timeline_of(f.get("subjectKey") or "")
    return key if key and any(a["role"] == "subject" and timeline_of(a["key"]) == key
                              for a in f.get("about", [])) else normalize_key(f["subject"])


def take_over(f: dict, held: dict, **values) -> None:
    """Make the fact row `f` a value on `held`'s timeline: its subject, and its subject's entities
    with `f`'s others."""
    f.update(dict(subject=held["subject"], subjectKey=held["subjectKey"], ends=None,
                  about=[dict(r) for r in held["about"] if r["role"] == "subject"]
                  + [r for r in f["about"] if r["role"] != "subject"]), **values)  # (`values` may set `ends`)
    f["subjectHead"] = subject_head(f)  # (found by its thing's short name later: short_names.py)
