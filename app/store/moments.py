"""Moments read from Neo4j that are written back."""
from __future__ import annotations

from datetime import datetime, timezone


def rewritable(v):
    """A DateTime read from Neo4j as a Python datetime fit to be stored again. Neo4j returns UTC
    moments in the named zone 'UTC'; stored back like that, one compares as not equal to the same
    instant written with offset Z (`<=` is false at the equal instant: an asOf exactly at a
    scene's end or a fact's end missed it), so they go back with offset 0."""
    if v is None:
        return None
    v = v.to_native() if hasattr(v, "to_native") else v
    if isinstance(v, datetime) and v.tzinfo is not None and v.utcoffset().total_seconds() == 0:
        return v.astimezone(timezone.utc)
    return v
