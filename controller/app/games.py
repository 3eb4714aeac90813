"""The two games behind one face for the event loop.

Each game's table (`controller.blackjack.machine.BlackjackTable`,
`controller.poker.table.PokerTable`) takes device events through ``handle``. The console's
richer inputs arrive as `ConsoleAction` events naming a rules-API call, and supervisors'
decisions as `SupervisorAction`; this module maps them onto the table's API, allowing only
the calls listed here, so a console can never reach anything else on the table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol

from controller.blackjack.machine import BlackjackTable
from controller.blackjack.records import HoldDecision, Refused
from controller.blackjack.rules import Variants
from controller.cards import Card
from controller.errors import ConfigError, IllegalAction
from controller.journal import to_jsonable
from controller.poker.display import status as poker_status
from controller.poker.rules import PokerRules
from controller.poker.table import PokerTable
from controller.ports import ConsoleAction, Event, SupervisorAction


class Game(Protocol):
    name: str

    def handle(self, event: Event) -> list[Any]: ...
    def pending(self) -> list[Any]: ...
    def view(self) -> dict[str, Any]: ...
    @property
    def round_no(self) -> int: ...


@dataclasses.dataclass(frozen=True, slots=True)
class ActionRefused:
    """A console or supervisor input the rules refused; the dealer sees the rule."""

    action: str
    rule: str
    reason: str


def _call(method: Callable[..., Any], args: dict[str, Any]) -> Any:
    if "cards" in args:
        args = {**args, "cards": [Card.parse(c) for c in args["cards"]]}
    return method(**args)


def _shown(output: Any) -> Any:
    """A physical button's or sensor's refusal (blackjack's `Refused`) is shown and
    journaled like a console action's: an `ActionRefused` naming the button or spot."""
    if isinstance(output, Refused):
        return ActionRefused(output.action or "input", output.rule, output.message)
    return output


class BlackjackGame:
    name = "blackjack"
    CONSOLE = frozenset(
        {
            "place_wager",
            "no_more_bets",
            "insure",
            "even_money",
            "double",
            "split",
            "stand",
            "confirm_removal",
            "shuffled",
        }
    )

    def __init__(self, variants: Variants) -> None:
        self.table = BlackjackTable(variants)

    @property
    def round_no(self) -> int:
        return self.table.round

    def handle(self, event: Event) -> list[Any]:
        table = self.table
        if isinstance(event, ConsoleAction):
            if event.action not in self.CONSOLE:
                raise ConfigError(f"the blackjack console has no action {event.action!r}")
            _call(getattr(table, event.action), event.args)
            return table.take_outputs()
        if isinstance(event, SupervisorAction):
            if event.decision == "change_wager":  # a wager the layout's sensor disagrees with
                values = [event.args.get(k) for k in ("box", "person", "amount")]
                numbers = [v for v in values if type(v) is int]
                if len(numbers) != 3 or len(event.args) != 3:
                    raise IllegalAction("4.1", "change_wager takes a whole box, person, amount")
                table.change_wager(event.who, *numbers)
            else:
                box = event.args.get("box")
                if box is not None and type(box) is not int:
                    raise IllegalAction("9.6", "the box to void must be a whole number")
                table.supervisor_clear(event.who, HoldDecision(event.decision), box)
            return table.take_outputs()
        return [_shown(output) for output in table.handle(event)]

    def pending(self) -> list[Any]:
        """Outputs not yet taken (the new table's first gate and lamp states)."""
        return self.table.take_outputs()

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = to_jsonable(self.table.view())
        return view


class PokerGame:
    """The poker table takes console and supervisor actions itself
    (`controller.poker.console`); seating, which happens between hands, is added here."""

    name = "poker"
    SEATING = frozenset({"sit", "leave", "add_chips"})

    def __init__(self, rules: PokerRules) -> None:
        self.table = PokerTable(rules)

    @property
    def round_no(self) -> int:
        return self.table.hand_no

    def handle(self, event: Event) -> list[Any]:
        if isinstance(event, ConsoleAction) and event.action in self.SEATING:
            getattr(self.table, event.action)(**event.args)
            return []
        return self.table.handle(event)

    def pending(self) -> list[Any]:
        return []

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = to_jsonable(poker_status(self.table))
        return view
