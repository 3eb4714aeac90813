"""Builders shared by blackjack's module tests (tests/controller/blackjack/): one place to
build a table at a given point of the round, and to read what it refused, so each test file
states only the rule it pins (a raised refusal: `tests.support.refusals.refusal`, read word for
word, rule and reason, because the reason is what the dealer reads on the status display).
"""

from __future__ import annotations

from typing import Any

from controller.blackjack.rules import Variants
from controller.game.records import ActionRefused
from tests.support.blackjack_script import NEXT, NO_MORE_BETS, ScriptedTable


def refused(out: list[Any]) -> list[tuple[str, str, str]]:
    """The (action, rule, reason) of each `ActionRefused` in ``out``: a button, a sensor or
    a supervisor's action the table refused, as the display shows it."""
    return [(o.action, o.rule, o.reason) for o in out if isinstance(o, ActionRefused)]


def betting(variants: Variants | None = None, **kwargs: Any) -> ScriptedTable:
    """A table with betting open (shuffled, the burn card out, NEXT pressed)."""
    script = ScriptedTable(variants, **kwargs)
    script.open()
    return script


def dealt(
    wagers: dict[tuple[int, int], int], cards: str, variants: Variants | None = None
) -> ScriptedTable:
    """Wagers keyed on the console (``(box, person): amount``), bets closed, and the
    initial deal's ``cards`` (space-separated, in deal order) out of the shoe."""
    script = betting(variants)
    for (box, person), amount in wagers.items():
        script.table.place_wager(box, person, amount)
    script.press(NO_MORE_BETS)
    script.deal(*cards.split())
    return script


# Box 1 holds a wager of 4 in each; the dealer's ace opens insurance where it must.
_TO_STATE: dict[str, tuple[str, ...]] = {
    "no_more_bets": (),
    "initial_deal": ("9s",),
    "insurance": ("9s", "Ad", "8c"),
    "boxes_acting": ("9s", "7d", "8c"),
    "dealer_second": ("9s", "7d", "8c", "NEXT"),
    "insurance_settlement": ("9s", "Ad", "8c", "insurance1", "NEXT", "NEXT", "9h"),
    "dealer_drawing": ("9s", "5d", "8c", "NEXT", "6h"),
}
ROUND_STATES = tuple(_TO_STATE)
"""The states of a round in play, from NO MORE BETS to the dealer's hand (not settled)."""


def at(state: str, variants: Variants | None = None) -> ScriptedTable:
    """A table with box 1's wager of 4 (chips sensed) played on to ``state``."""
    script = betting(variants)
    script.occupy("box1", 4)
    script.press(NO_MORE_BETS)
    for step in _TO_STATE[state]:
        if step == "NEXT":
            script.press(NEXT)
        elif step.startswith("insurance"):
            script.occupy(step, 2)
        else:
            script.deal(step)
    if script.state != state:
        raise AssertionError(f"the script reached {script.state}, not {state}")
    return script
