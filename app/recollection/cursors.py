"""Cursors of the API's pages: an opaque (position, id) pair, so a cursor stays valid while the
list changes (what was inserted before it is not seen again, nothing after it is skipped)."""
from __future__ import annotations

import base64
import json


class CursorError(ValueError):
    pass


def encode_cursor(at: int, node_id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([at, node_id]).encode()).decode()


# Longer than any cursor encode_cursor makes of an id the API accepts: refused before decoding.
MAX_CURSOR = 1024


def decode_cursor(cursor: str) -> tuple[int, str]:
    try:
        if len(cursor) > MAX_CURSOR:
            raise ValueError
        at, node_id = json.loads(base64.urlsafe_b64decode(cursor.encode()).decode())
        if (not isinstance(at, int) or isinstance(at, bool) or not isinstance(node_id, str)
                or not -2**63 <= at < 2**63):  # what Neo4j's integers hold
            raise TypeError
        return at, node_id
    except (ValueError, TypeError, UnicodeError):
        raise CursorError("after is not a cursor this API returned") from None
