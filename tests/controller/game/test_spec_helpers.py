"""The kernel's small helpers for a game's spec and its ``handle``: the table notice's
limits as the wager rules name them (11.5), and the console's rules-API call, which
reaches only the game's listed actions."""

from __future__ import annotations

from typing import Any

import pytest

from controller.cards import Card
from controller.errors import ConfigError
from controller.game import spec
from controller.game.contract import call_console, wager_limits
from controller.ports import ConsoleAction


class _Table:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def stand(self, box: int) -> None:
        self.calls.append(("stand", {"box": box}))

    def expose(self, cards: list[Card]) -> None:
        self.calls.append(("expose", {"cards": cards}))

    def secret(self) -> None:
        self.calls.append(("secret", {}))


def action(name: str, **args: Any) -> ConsoleAction:
    return ConsoleAction(source="console", action=name, args=args)


def test_rule_11_5_the_notices_limits_become_the_wager_rules_fields() -> None:
    assert wager_limits(5, 500, 1) == {"minimum_wager": 5, "maximum_wager": 500, "chip_unit": 1}
    fields = {"minimum_wager": 10, "maximum_wager": 200, "chip_unit": 5}
    assert spec("poker").from_limits(10, 200, 5) == fields
    assert spec("baccarat").from_limits(10, 200, 5) == fields
    assert spec("blackjack").from_limits(10, 200, 5) == {  # the table's limits bind it too
        "smallest_chip": 5,
        "minimum_wager": 10,
        "maximum_wager": 200,
    }


def test_the_console_calls_a_listed_action_with_its_cards_parsed() -> None:
    table = _Table()
    actions = frozenset({"stand", "expose"})
    call_console("toy", actions, table, action("stand", box=3))
    call_console("toy", actions, table, action("expose", cards=["AS", "10h"]))
    assert table.calls == [
        ("stand", {"box": 3}),
        ("expose", {"cards": [Card.parse("AS"), Card.parse("Th")]}),
    ]


def test_the_console_reaches_nothing_off_its_list() -> None:
    table = _Table()
    with pytest.raises(ConfigError, match="the toy console has no action 'secret'"):
        call_console("toy", frozenset({"stand"}), table, action("secret"))
    assert table.calls == []
