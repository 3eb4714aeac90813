"""The baccarat shoe: what the table knows of it (`ShoeState`). The cards themselves, for
the simulator and the tests, are the kernel's `controller.game.shoe.Shoe`.

None of this is NZ text we have (the division's shuffle, cut and burn pages were not
found; docs/rules/baccarat.md), so it follows the published casino procedure and
each number is a setting:

- a new shoe is shuffled and the dealer confirms it (SHUFFLED on the console);
- the burn: the first card is exposed and its point value says how many cards are burned
  face down after it, a ten-value card 10 (``burn_by_first_card``);
- the cutting card goes ``cut_card_from_end`` cards from the end (16 by default); when it
  comes out during a coup, that coup is finished and ``coups_after_cut_card`` more are
  dealt (1); out where a coup's first card would be, that coup is the last (with the
  default); then the shoe ends, its audit is reported, and a new shoe is due.
"""

from __future__ import annotations

from controller.baccarat.records import CardBurned, CutCardOut
from controller.baccarat.rules import BaccaratRules
from controller.baccarat.tableau import POINTS
from controller.cards import Card

__all__ = ["ShoeState"]


class ShoeState:
    """The table's shoe: its number, coups, results (for the roads), burn and cut card."""

    __slots__ = (
        "burn_first",
        "burns_due",
        "coups",
        "cut_card_out",
        "last_coup",
        "number",
        "results",
        "rules",
    )

    def __init__(self, rules: BaccaratRules) -> None:
        self.rules = rules
        self.number = 0  # shoes counted from the table's start
        self.coups = 0  # coups settled in this shoe
        self.results: list[dict[str, object]] = []  # one per coup since the new shoe
        self.burns_due = 0
        self.burn_first = False  # the new shoe's first card, exposed, is due
        self.cut_card_out = False
        self.last_coup: int | None = None  # the shoe's last coup, once the cut card is out

    def new_shoe(self) -> None:
        """Shuffled: the history, the cut card and the burn start afresh."""
        self.number += 1
        self.coups = 0
        self.results = []
        self.cut_card_out = False
        self.last_coup = None
        self.burns_due = 0
        self.burn_first = self.rules.burn_by_first_card

    @property
    def burn_done(self) -> bool:
        return not self.burn_first and self.burns_due == 0

    def burn(self, card: Card) -> CardBurned:
        """One burn card: the first one exposed sets how many follow."""
        if self.burn_first:
            self.burn_first = False
            self.burns_due = POINTS[card.rank] or 10
            return CardBurned(str(card), True, self.burns_due)
        self.burns_due -= 1
        return CardBurned(str(card), False, self.burns_due)

    def cutting_card(self, when: str, coup: int) -> CutCardOut | None:
        """The cutting card came out ``when`` ("before" the first card of coup ``coup``,
        "during" it, or "after" it): which coup is the shoe's last. Once per shoe."""
        if self.cut_card_out:
            return None
        self.cut_card_out = True
        after = self.rules.coups_after_cut_card
        if when == "during":
            last = coup + after
        elif when == "before":  # where this coup's first card would be
            last = coup + max(after - 1, 0)
        else:  # between coups: where the next coup's first card would be
            last = coup + max(after, 1)
        self.last_coup = last
        return CutCardOut(coup, last)

    def is_last(self, coup: int) -> bool:
        return self.last_coup is not None and coup >= self.last_coup
