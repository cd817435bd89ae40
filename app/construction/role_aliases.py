"""Aliases that name a role one person holds for someone at a time: "Maya's boss", "Tom's mum".

"My boss Jonas Weber" gives Jonas the alias "Maya's boss" (local/entities.py), and the API's
entity(name: "Maya's boss") and the graph channel find him by it. When someone else is later
called so ("My new manager is Sofia Rossi": "Maya's manager"), the alias moves: the newest
holder takes it, and every word for the same role with it (boss, manager, supervisor), from
whoever held it. An alias has no time of its own; who held the role when is the owner's
timeline (Maya, "boss is"), which keeps the old holder as superseded.

Only the words of lexicon.UNIQUE_KIN are such roles; "Maya's sister" or "Maya's dog" may name
several at once and never move.
"""
from __future__ import annotations

from app.construction import lexicon as lx

# The kin words by the role they name: {"boss": {"boss", "manager", "supervisor"}, ...}.
_WORDS: dict[str, set[str]] = {}
for _kin in lx.UNIQUE_KIN:
    _WORDS.setdefault(lx.SAME_ROLE.get(_kin, _kin), set()).add(_kin)


def role_keys(alias_key: str) -> frozenset[str]:
    """For the key of an alias naming a one-holder role (entity_resolution.normalize_key of
    "Maya's manager": "maya's manager"), the keys of every alias naming that role of that owner
    ("maya's boss", "maya's manager", "maya's supervisor"); empty for any other key."""
    owner, sep, kin = alias_key.rpartition("'s ")
    if not sep or not owner or kin not in lx.UNIQUE_KIN:
        return frozenset()
    return frozenset(f"{owner}'s {word}" for word in _WORDS[lx.SAME_ROLE.get(kin, kin)])


def canonical_role(alias_key: str) -> str:
    """The role's own word for an alias key role_keys() knows: "maya's manager" -> "maya's boss",
    the alias a client asking for "Maya's boss" names."""
    owner, _, kin = alias_key.rpartition("'s ")
    return f"{owner}'s {lx.SAME_ROLE.get(kin, kin)}"

