"""A user's own words in a question. "Where do I work now?", asked with a userId, is asked of
that user by name, "Where does Jun work now?", for what reads the names a query says: entity
linking and the value asked after (channels/graph.py), whose constraints come first
(channels/foresight.py), the ranker's speaker columns and the keyword channel. The vector
channel keeps the user's words: their turns say "I". The name is the one the user's own turns
are spoken under."""
from __future__ import annotations

import re
import time

from app.store.graph import TenantGraph

FIRST_PERSON = re.compile(r"(?<![\w'’-])(?:I|i|I['’](?:m|ve|ll|d)|me|my|mine|myself)(?![\w'’-])")

# An auxiliary before "I" agrees with the name: "do I" -> "does Jun", "am I" -> "is Jun".
_AUX = {"do": "does", "am": "is", "have": "has", "were": "was", "Do": "Does", "Am": "Is", "Have": "Has",
        "Were": "Was"}
_AUX_I = re.compile(r"(?<![\w'’])(do|am|have|were|Do|Am|Have|Were)\s+(?:I|i)(?![\w'’])")
_CONTRACTED = {"m": "is", "ve": "has", "ll": "will", "d": "would"}


def as_named(query: str, name: str) -> str:
    """`query` with the first person as `name` ("What am I allergic to?" -> "What is Jun
    allergic to?", "Where should my parcel go?" -> "Where should Jun's parcel go?")."""
    query = _AUX_I.sub(lambda m: f"{_AUX[m.group(1)]} {name}", query)

    def one(m: re.Match) -> str:
        w = m.group(0)
        low = w.lower().replace("’", "'")
        if low in ("my", "mine"):
            return f"{name}'s"
        if low.startswith("i'"):
            return f"{name} {_CONTRACTED[low[2:]]}"
        return name

    return FIRST_PERSON.sub(one, query)


USER_NAME = """
MATCH (t:Turn) WHERE t.tenant = $tenant AND t.userId = $userId AND t.role = 'user'
RETURN t.speaker AS speaker LIMIT 1
"""

# How long a user's name is remembered (a renamed user is read again after it).
NAME_TTL_S = 300.0


class UserNames:
    """The name each user's turns are spoken under, remembered for NAME_TTL_S."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, str], tuple[str | None, float]] = {}

    async def of(self, graph: TenantGraph, user_id: str) -> str | None:
        key = (graph.tenant, user_id)
        now = time.monotonic()
        hit = self._known.get(key)
        if hit is not None and hit[1] > now:
            return hit[0]
        if len(self._known) > 10_000:  # (bounded: a server with many users forgets the oldest)
            self._known = {k: v for k, v in self._known.items() if v[1] > now}
        rows = await graph.read(USER_NAME, userId=user_id)
        name = rows[0]["speaker"] if rows else None
        self._known[key] = (name, now + NAME_TTL_S)
        return name
