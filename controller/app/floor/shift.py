"""A shift's start as a pit manager gives it (`tablectl pit`, POST ``/api/shift``).

The page sends ``"now"`` or the time typed, placed within the last 24 hours; the view
takes it only within `SHIFT_BACK_HOURS` before now and never in the future, and refuses
anything else with `SHIFT_TIME_WORDS` (400).
"""

from __future__ import annotations

import datetime
from typing import Any

__all__ = ["SHIFT_BACK_HOURS", "SHIFT_TIME_WORDS", "shift_time"]

SHIFT_BACK_HOURS = 48  # a shift's start is at most this long ago
CLOCK_GRACE = 60.0  # seconds a start may lie ahead of the view's clock (the browser's)

SHIFT_TIME_WORDS = (
    "start: 'now' or an ISO 8601 time with its offset (2026-12-01T18:00:00+13:00), "
    f"not in the future and not more than {SHIFT_BACK_HOURS} hours ago"
)


def shift_time(start: Any, now: float) -> float | None:
    """A shift's start as a POSIX time: ``"now"``, or an ISO 8601 time with its offset
    (``Z``, ``+13:00``) no later than ``now`` (a minute's grace for the browser's clock)
    and no earlier than `SHIFT_BACK_HOURS` before it: a shift is at most half a day, and
    the page sends a time of day it places within the last 24 hours, so two days back
    covers a late correction; a start in year 1 or 1970 is a mistake, not a shift. None
    for anything else."""
    if start == "now":
        return now
    if not isinstance(start, str) or len(start) > 40:
        return None
    try:
        stamp = datetime.datetime.fromisoformat(start)
        if stamp.tzinfo is None:
            return None  # a time with no offset is ambiguous
        seconds = stamp.timestamp()
    except (ValueError, OverflowError, OSError):
        return None
    if not now - SHIFT_BACK_HOURS * 3600 <= seconds <= now + CLOCK_GRACE:
        return None
    return seconds
