"""One blackjack round's data, a part of its own: the boxes and their stakes, the dealer's
hand, the payouts and the chips wagered, the dealing order and whose turn it is, the paid
blackjacks whose cards must come off (10.1, 10.3b), and what the layout's sensors read.

The table (`controller.blackjack.table.BlackjackTable`) keeps one `Round` and works on
it; renderers read it through the table's read-only queries (``boxes``, ``dealer``,
``payouts``, ``boxes_in_play``, ``deal_order``, ``removals``...). Plain and slotted: the
simulator plays a million rounds through it.
"""

from __future__ import annotations

from typing import NoReturn

from controller.blackjack.hand import Box, Hand
from controller.blackjack.records import RoundSettled
from controller.blackjack.settlement import Payout
from controller.errors import IllegalAction

__all__ = ["Round", "refuse"]


def refuse(rule: str, message: str) -> NoReturn:
    """Refuse an action, citing the rule (the table's parts all refuse this way)."""
    raise IllegalAction(rule, message)


class Round:
    """The round in play (or the last one, until NEXT opens betting)."""

    __slots__ = (
        "box_index",
        "boxes",
        "current",
        "deal_order",
        "deal_pos",
        "dealer",
        "double_sensed",
        "hand_index",
        "in_play",
        "number",
        "payouts",
        "refused_wagers",
        "removals",
        "sensed",
        "settled",
        "wagers_in",
    )

    def __init__(self, boxes: int) -> None:
        self.number = 0  # the round's number, counted from the table's start
        self.boxes = [Box(n) for n in range(1, boxes + 1)]
        self.dealer = Hand()
        self.payouts: list[Payout] = []
        self.wagers_in = 0
        self.settled: RoundSettled | None = None
        self.in_play: list[Box] = []  # the boxes wagered on, left to right
        self.deal_order: list[Box | None] = []  # the initial deal: boxes, dealer (None), boxes
        self.deal_pos = 0
        self.box_index = 0  # whose turn: the box in `in_play`, and its hand
        self.hand_index = 0
        self.current: Hand | None = None
        self.removals: list[tuple[Box, str]] = []  # paid blackjacks' cards to remove, rule
        self.refused_wagers: dict[str, str] = {}  # spot -> why its chips are not a wager
        self.sensed: dict[tuple[int, int], int] = {}  # (box, person) -> chips on the spot
        self.double_sensed: dict[tuple[int, int], int] = {}  # the double spots' readings

    def box(self, number: int) -> Box:
        """Box ``number``; `IllegalAction` if the table has none."""
        if not 1 <= number <= len(self.boxes):
            refuse("4.1", f"no box {number} on this table")
        return self.boxes[number - 1]

    def losing_insurance(self) -> bool:
        """Insurance still on the layout, neither collected nor voided (9.5)."""
        return any(
            len(b.insurance) > len(b.insurance_collected) and not b.void for b in self.in_play
        )

    def next(self) -> None:
        """Clear the last round's hands and money for the next one (its number counts on)."""
        self.refused_wagers.clear()
        for box in self.in_play:
            box.reset()
        for box in self.boxes:
            box.hands.clear()
        self.dealer = Hand()
        self.payouts = []
        self.wagers_in = 0
        self.settled = None
        self.in_play = []
        self.current = None
        self.number += 1
