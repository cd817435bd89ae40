"""What a scene says about itself: a topic, a consensus of what is currently true, a status.

Topic: the member cells' keywords weighted by how specific they are to this scene within its
group (tf x idf), so words every episode of a conversation uses ("photo", "family") do not name
every scene. Consensus (local backend): extractive, from the scene's current facts, state facts
(single-valued: works on, lives in, ...) first, newest first. Status: a scene is archived when
its state was taken over elsewhere: some of its facts were superseded by facts of another scene
and none of its single-valued facts is current any more (Athena -> Lyra); otherwise active.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime

CONSENSUS_FACTS = 6
TOPIC_WORDS = 3


@dataclass
class SceneFacts:
    current: list[dict]  # {text, singleValued, validFrom, confidence}
    has_current_state: bool  # a single-valued fact of the scene is still current
    superseded_elsewhere: bool  # a fact of the scene was superseded by another scene's fact


def _day(v) -> str:
    v = v.to_native() if hasattr(v, "to_native") else v
    if isinstance(v, datetime):
        return v.date().isoformat()
    if isinstance(v, date):
        return v.isoformat()
    return ""


def topic(cells: list[dict], df: Counter, n_cells: int) -> str:
    tf: Counter = Counter()
    first_seen: dict[str, int] = {}
    for c in cells:
        for kw in c.get("keywords") or []:
            k = kw.strip().lower()
            if k:
                tf[k] += 1
                first_seen.setdefault(k, len(first_seen))
    if not tf:
        return (cells[0].get("title") or "untitled") if cells else "untitled"

    def weight(k: str) -> float:
        return tf[k] * (math.log((n_cells + 1) / (df.get(k, 0) + 1)) + 1.0)

    best = sorted(tf, key=lambda k: (-weight(k), first_seen[k]))[:TOPIC_WORDS]
    return ", ".join(best)


def consensus(facts: SceneFacts) -> str:
    ranked = sorted(facts.current, key=lambda f: (
        not f.get("singleValued"), -(_ordinal(f.get("validFrom"))), -(f.get("confidence") or 0.0),
        f.get("text") or ""))
    lines, seen = [], set()
    for f in ranked:
        text = (f.get("text") or "").strip()
        if not text or text.lower() in seen:
            continue
        seen.add(text.lower())
        since = _day(f.get("validFrom"))
        lines.append(f"- {text}" + (f" (since {since})" if since else ""))
        if len(lines) == CONSENSUS_FACTS:
            break
    return "\n".join(lines)


def _ordinal(v) -> int:
    s = _day(v)
    return date.fromisoformat(s).toordinal() if s else 0


def status(facts: SceneFacts) -> str:
    return "archived" if facts.superseded_elsewhere and not facts.has_current_state else "active"
