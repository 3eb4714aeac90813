"""Builders shared by the blackjack ``*_bites.py`` files (issue 20): one place to build a
table at a given point of the round, and to read a refusal exactly, so each bites file
states only the rule it pins.

A refusal is read word for word (rule and reason) because the reason is what the dealer
reads on the status display: a changed or dropped reason is a fault the tests must see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bj_script import NO_MORE_BETS, ScriptedTable

from controller.blackjack.rules import Variants
from controller.errors import IllegalAction
from controller.game.records import ActionRefused


def refusal(action: Callable[[], Any]) -> tuple[str, str]:
    """The (rule, reason) of the `IllegalAction` ``action`` raises; fails if it does not
    (a `TypeError` or any other error is not a refusal and propagates)."""
    try:
        action()
    except IllegalAction as exc:
        return exc.rule, exc.reason
    raise AssertionError("the action was allowed; a refusal was expected")


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
