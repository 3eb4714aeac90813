"""Argument types for a game's own command-line options (`tablectl simulate <game>`).

A game's simulator adds its options to the parser the app gives it, and may not import
the app (the floors of docs/architecture.md), so the checks it needs live here, on the game kernel's
floor. A number is checked where it is parsed: a bad one is one line naming the option
(argparse puts the option's name in front of the message), never a traceback.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

Progress = Callable[[int, int], None]
"""A simulator's progress hook, ``progress(done, total)``: called every `PROGRESS_EVERY`
rounds and at the end (the app draws a bar on a terminal; ``args.progress``, or None)."""
PROGRESS_EVERY = 1000


def whole(text: str) -> int:
    """An argparse type: a whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``low`` (rounds, decks, seats)."""

    def check(text: str) -> int:
        value = whole(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more, not {value}")
        return value

    return check
