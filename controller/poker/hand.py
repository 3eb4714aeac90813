"""One poker hand's data, a part of its own: who was dealt in, their cards, the chips they
put in, who folded or is all in, the betting round and the draw in progress, the showdown
(11.4(c)) and the requests to see hands.

The table (`controller.poker.table.PokerTable`) starts a fresh `PokerHand` for every hand
and works on it; the operations here touch this data only (the dealing order, the next
betting round's order, the draw's stub). Renderers read it through the table's read-only
`HandField`s (``table.in_hand``, ``table.betting``...), never by assigning to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from controller.cards import Card
from controller.poker.betting import BettingRound
from controller.poker.draw import HAND_SIZE, Draw
from controller.poker.records import HandsRequested
from controller.poker.rules import PokerRules
from controller.poker.seating import Positions, clockwise_from

__all__ = ["DECK_SIZE", "HandField", "PokerHand"]

DECK_SIZE = 52
T = TypeVar("T")


@dataclass(slots=True, eq=False)
class PokerHand:
    """The hand in play (or the last one, until the next starts)."""

    in_hand: list[int] = field(default_factory=list)  # seats dealt in, in dealing order
    hands: dict[int, list[Card]] = field(default_factory=dict)
    unknown_kept: dict[int, int] = field(default_factory=dict)  # cards kept, not read
    seen: set[Card] = field(default_factory=set)
    contributed: dict[int, int] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    deal_count: int = 0
    betting: BettingRound | None = None
    draw: Draw | None = None
    ended_first_round: bool = False
    stacks_at_start: int = 0
    aggressor: int | None = None
    blind_bets: dict[int, int] = field(default_factory=dict)
    showdown_seats: tuple[int, ...] = ()  # 11.4(c): hands in the final showdown
    requests: list[HandsRequested] = field(default_factory=list)  # 11.4(c)

    def live(self) -> list[int]:
        """The seats dealt in that have not folded, in dealing order."""
        return [s for s in self.in_hand if s not in self.folded]

    def deal(self, card: Card) -> None:
        """The next card of the deal, one at a time clockwise (the caller has put it in
        `seen`)."""
        seat = self.in_hand[self.deal_count % len(self.in_hand)]
        self.hands[seat].append(card)
        self.deal_count += 1

    @property
    def dealt(self) -> bool:
        """Every seat has its five cards."""
        return self.deal_count >= HAND_SIZE * len(self.in_hand)

    def open_round(
        self,
        rules: PokerRules,
        positions: Positions,
        stacks: dict[int, int],
        bets: dict[int, int],
        rule: str,
        opener: str | None,
    ) -> BettingRound:
        """A betting round starting left of the last blind, over the seats still in."""
        start = positions.blinds[-1] % rules.seats + 1
        seats = clockwise_from(start, rules.seats)
        order = [s for s in seats if s in self.hands and s not in self.folded]
        return BettingRound(
            rules, order, stacks, self.contributed, self.folded, self.all_in,
            dict(bets), rule, opener,
        )  # fmt: skip

    def start_draw(self, rules: PokerRules) -> Draw:
        """The draw (11.3) for the seats still in; the stub is the deck less what was seen."""
        return Draw(
            self.live(), self.hands, self.unknown_kept, self.seen,
            DECK_SIZE - len(self.seen), rules.burn_before_draw,
        )  # fmt: skip

    @property
    def awaiting_exposure(self) -> bool:
        """A live hand the controller could not follow (discards not read) is not shown."""
        return any(self.unknown_kept.get(s) for s in self.live())


class HandField(Generic[T]):
    """A read-only view, on the table, of one field of its current `PokerHand`."""

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, table: None, owner: type) -> HandField[T]: ...
    @overload
    def __get__(self, table: object, owner: type) -> T: ...
    def __get__(self, table: Any, owner: type) -> Any:
        if table is None:
            return self
        return getattr(table.hand, self.name)

    def __set__(self, table: object, value: T) -> None:
        raise AttributeError(f"{self.name} is the hand's (PokerHand): read-only on the table")
