"""The shoe's shuffle triggers of rule 7.1.

The cards themselves (for the simulator and tests; a real shoe is read by its driver) are
the kernel's `controller.game.shoe.Shoe`, dealt with ``rule="7.1"``. `ShuffleTracker` is
what the table controller knows: it is told when the cutting card comes out and when a
round starts and ends, and says when a shuffle is due:

- 7.1(a) when play starts;
- 7.1(b) when the cutting card (or the first of two) comes out as the first card of a
  new round: shuffle at once, before that round is dealt;
- 7.1(c) at the end of the round in which the cutting card came out otherwise.
"""

from __future__ import annotations

__all__ = ["ShuffleTracker"]


class ShuffleTracker:
    """When rule 7.1 says the shoe must be shuffled. Pure bookkeeping, no cards."""

    __slots__ = ("burns_due", "cards_this_round", "cut_card_seen", "due")

    def __init__(self) -> None:
        self.due: str | None = "7.1(a)"  # play starts with a shuffle
        self.cut_card_seen = False
        self.cards_this_round = 0
        self.burns_due = 0  # cards to burn after the shuffle, before the next round's first

    def round_started(self) -> None:
        self.cards_this_round = 0

    def card_drawn(self) -> None:
        self.cards_this_round += 1

    def cutting_card_out(self) -> str | None:
        """The cutting card came out. Returns "7.1(b)" when a shuffle is due at once."""
        self.cut_card_seen = True
        if self.cards_this_round == 0:
            self.due = "7.1(b)"
            return self.due
        return None

    def round_ended(self) -> str | None:
        """The round is over; "7.1(c)" when the cutting card came out during it."""
        if self.cut_card_seen and self.due is None:
            self.due = "7.1(c)"
        return self.due

    def shuffled(self, burns: int = 0) -> None:
        """The shuffle was confirmed (by the dealer or the shoe, never by NEXT)."""
        self.due = None
        self.cut_card_seen = False
        self.burns_due = burns
