"""The touch console's rules-API calls (`controller.ports.ConsoleAction`) for poker.

Only the whitelisted actions below reach the table; each still goes through its verify
step, so a refused one raises `IllegalAction` naming the rule, as a direct call would.
This is poker's console step in its adapter (`controller.poker.game.PokerGame`) because the
kernel's `call_console` calls a method by the action's own name, and the console's
``raise`` and ``chop`` name ``raise_`` and ``request_chop``. What a call produced stays on
the table, taken as every game's is (`controller.game.table.GameTable.take_outputs`).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.records import NOT_ON_CONSOLE
from controller.ports import ConsoleAction

if TYPE_CHECKING:
    from controller.poker.table import PokerTable

CONSOLE_ACTIONS = {
    name: name
    for name in (
        "call", "check", "fold", "raise_", "discard", "expose", "request_chop", "start_hand",
        "request_to_see",
    )
} | {"raise": "raise_", "chop": "request_chop"}  # fmt: skip


def apply_console(table: PokerTable, event: ConsoleAction) -> None:
    """The touch console's rules-API calls: ``call``/``check``/``fold`` {seat},
    ``raise_`` {seat, amount}, ``discard`` {seat, count, cards?}, ``expose`` {seat,
    cards}, ``request_chop`` {}, ``start_hand`` {button?}, ``request_to_see`` {by_seat,
    seat?} (11.4(c); no seat: all the hands in the showdown). Cards are given as text."""
    args = dict(event.args)
    if "cards" in args and args["cards"] is not None:
        args["cards"] = [Card.parse(str(text)) for text in args["cards"]]
    method = CONSOLE_ACTIONS.get(event.action)
    if method is None:
        raise IllegalAction(NOT_ON_CONSOLE, f"no poker console action {event.action!r}")
    action = getattr(table, method)
    try:
        inspect.signature(action).bind(**args)
    except TypeError as exc:
        raise IllegalAction(NOT_ON_CONSOLE, f"{event.action}: bad arguments {args}") from exc
    action(**args)
