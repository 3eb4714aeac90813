"""Helpers for the baccarat tests: a table at betting, cards by point value, a coup dealt
card by card through `BaccaratTable.handle` (as the event loop gives it)."""

from __future__ import annotations

from typing import Any

from controller.baccarat.rules import BaccaratRules
from controller.baccarat.table import BaccaratTable
from controller.cards import Card
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleButton,
    ShoeStatusChanged,
    SpotCleared,
    SpotOccupied,
)

# one card of each point value; 0 has two ranks so a two-card 0 need not be a pair
VALUE_RANKS = {0: "KQ", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def card(value: int, suit: str = "s", second: bool = False) -> Card:
    ranks = VALUE_RANKS[value]
    return Card.parse((ranks[1] if second and len(ranks) > 1 else ranks[0]) + suit)


def two(total: int, suit: str = "h") -> tuple[Card, Card]:
    """Two cards, not a pair, whose point count is ``total``: a ten and the total (or a
    king and a queen for 0)."""
    if total == 0:
        return card(0, suit), card(0, suit, second=True)
    return Card.parse("T" + suit), card(total, suit)


def initial(player: int, banker: int) -> list[Card]:
    """The Initial Deal's four cards in the rules' order: Player, Banker, Player, Banker."""
    p1, p2 = two(player, "h")
    b1, b2 = two(banker, "d")
    return [p1, b1, p2, b2]


def betting_table(**rules: Any) -> BaccaratTable:
    """A table whose shoe is shuffled (no burn unless asked) and whose betting is open."""
    rules.setdefault("burn_by_first_card", False)
    table = BaccaratTable(BaccaratRules(**rules))
    table.shuffled()
    table.take_outputs()
    return table


def deal(table: BaccaratTable, *cards: Card) -> list[Any]:
    out: list[Any] = []
    for c in cards:
        out += table.handle(CardDrawn(source="shoe", card=c))
    return out


def press(table: BaccaratTable, button: ConsoleButton) -> list[Any]:
    return table.handle(ButtonPressed(source="console", button=button))


def cut_card(table: BaccaratTable) -> list[Any]:
    return table.handle(
        ShoeStatusChanged(
            source="shoe", cut_card_seen=True, shoe_empty=False, door_open=False,
            gate_locked=False,
        )
    )  # fmt: skip


def of(kind: type, out: list[Any]) -> list[Any]:
    return [o for o in out if isinstance(o, kind)]


def chips(table: BaccaratTable, spot: str, total: int) -> list[Any]:
    """The chip reader under ``spot`` reads ``total`` (0: the spot is empty)."""
    return table.handle(ChipsSensed(source="chips", spot=spot, total=total))


def covered(table: BaccaratTable, spot: str, on: bool = True) -> list[Any]:
    """A presence sensor under ``spot`` reports chips put on (or taken off)."""
    event = (
        SpotOccupied(source="sensors", spot=spot)
        if on
        else SpotCleared(source="sensors", spot=spot)
    )
    return table.handle(event)


def reader_table(**rules: Any) -> BaccaratTable:
    """A table at betting with chip readers under its spots and the settlement checked."""
    rules.setdefault("chip_readers", True)
    rules.setdefault("settlement_check", True)
    return betting_table(**rules)
