"""Helpers for the poker tests: set a table, deal chosen hands through the shoe events, and
read what one call produced (`act`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.cards import DECK, Card
from controller.poker.betting import BettingRound
from controller.poker.draw import Draw
from controller.poker.rules import PokerRules
from controller.poker.table import Output, PokerTable
from controller.ports import CardDrawn


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def table_with(stacks: Mapping[int, int], **rules: object) -> PokerTable:
    table = PokerTable(PokerRules(**rules))  # type: ignore[arg-type]
    for seat, chips in stacks.items():
        table.sit(seat, chips)
    return table


def act(table: PokerTable, method: str, *args: Any, **kwargs: Any) -> list[Output]:
    """Call ``method`` on the table and return what that call produced, in order (its
    records, then the gate and lamp commands: `take_outputs`), as the event loop takes it
    after each step; what earlier calls left is taken first, so it is not counted here.
    ``handle`` takes its outputs itself and returns them."""
    table.take_outputs()
    done = getattr(table, method)(*args, **kwargs)
    return [*done, *table.take_outputs()] if method == "handle" else table.take_outputs()


def shoe(table: PokerTable, card: Card) -> list[Output]:
    return act(table, "handle", CardDrawn(source="test-shoe", card=card))


def deal(table: PokerTable, hands: Mapping[int, str] | None = None) -> list[Output]:
    """Deal five cards to each seat in the table's dealing order, one at a time.

    ``hands`` gives some seats' cards ("As Kd ..."); the others get unused cards in deck
    order."""
    chosen = {seat: cards(text) for seat, text in (hands or {}).items()}
    used = {c for cs in chosen.values() for c in cs}
    spare = iter(c for c in DECK if c not in used)
    for seat in table.in_hand:
        if seat not in chosen:
            chosen[seat] = [next(spare) for _ in range(5)]
    out: list[Output] = []
    for index in range(5):
        for seat in table.in_hand:
            out += shoe(table, chosen[seat][index])
    return out


def unseen(table: PokerTable) -> list[Card]:
    return [c for c in DECK if c not in table.seen]


def flat_call(table: PokerTable) -> list[Output]:
    """Everybody calls or checks until the betting round ends."""
    out: list[Output] = []
    while table.betting is not None and table.state in ("first_round", "final_round"):
        seat = table.betting.to_act
        if seat is None:
            break
        out += act(table, "call" if table.betting.to_call(seat) else "check", seat)
    return out


def stand_pat(table: PokerTable) -> list[Output]:
    out: list[Output] = []
    while table.state == "drawing" and table.draw is not None and table.draw.drawer:
        out += act(table, "discard", table.draw.drawer, 0)
    return out


def seats_of(records: Sequence[object], kind: type) -> list[object]:
    return [r for r in records if isinstance(r, kind)]


def betting(table: PokerTable) -> BettingRound:
    if table.betting is None:
        raise AssertionError(f"no betting round ({table.state})")
    return table.betting


def drawing(table: PokerTable) -> Draw:
    if table.draw is None:
        raise AssertionError(f"no draw ({table.state})")
    return table.draw


def to_act(table: PokerTable) -> int:
    seat = betting(table).to_act
    if seat is None:
        raise AssertionError("nobody to act")
    return seat
