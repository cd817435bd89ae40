"""The API's DateTime: ISO 8601 with a time of day. strawberry's own also takes a date alone
("2026-11-20") as its midnight, in UTC when no offset is given: for a message that is the
evening before for a client west of Greenwich, where its "tomorrow" and "tonight" would then be
read; for asOf, from and to, a moment the client did not say. Such a value is refused, with
what to send instead."""
from __future__ import annotations

from datetime import datetime

import dateutil.parser
import strawberry

from app.domain.models import DATE_ONLY, DATE_ONLY_MESSAGE


def _parse(value: object) -> datetime:
    if not isinstance(value, str):
        raise ValueError(f'DateTime must be an ISO 8601 string, not "{value}"')
    if DATE_ONLY.fullmatch(value):
        raise ValueError(f'"{value}" {DATE_ONLY_MESSAGE}')
    try:
        return dateutil.parser.isoparse(value)
    except (ValueError, OverflowError):
        raise ValueError(f'"{value}" is no ISO 8601 date and time (e.g. 2026-11-20T09:30:00-08:00)') from None


DateTime = strawberry.scalar(datetime, name="DateTime", description="Date with time (isoformat)",
                             serialize=lambda v: v.isoformat(), parse_value=_parse)
