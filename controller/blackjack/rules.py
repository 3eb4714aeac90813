"""The casino's blackjack variants: one frozen config object, with the usual defaults.

The Gazette rules (9.2-10.3, 4.1-4.2, 7.1) are fixed; what a casino may choose is here.
Every field's default is drawn from the New Zealand casinos' own player guides
(docs/rules/surrounding.md); docs/blackjack.md ("Variants") lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.errors import ConfigError
from controller.game.chips import WinningsPaid

__all__ = ["FOREIGN_CARD_RULE", "DealerBlackjackTakes", "DoubleOn", "OddStakes", "Variants"]

FOREIGN_CARD_RULE = "3.3"
"""The rule a card the shoe cannot hold breaks (`controller.shoe_audit`): the amended rule
3.3 (NZ Gazette 1999 No. 9 p. 230) fixes the shoe at 4 to 8 decks, so a card beyond N
decks' copies is not of the shoe (the 1994 rule 3.3, "no player or spectator handles,
alters or withdraws cards", is the neighbouring clause a substituted card also breaks).
An unknown RFID tag, or a reader lost with the gate open, holds the table under it too."""


class DoubleOn(StrEnum):
    """Which two-card hands may be doubled."""

    ANY_TWO_NO_ACE = "any_two_no_ace"  # any two cards without an ace (NZ player guides)
    ANY_TWO = "any_two"
    NINE_TO_ELEVEN = "nine_to_eleven"  # hard 9, 10 or 11 only


class DealerBlackjackTakes(StrEnum):
    """What a dealer blackjack takes from a box that doubled or split (no hole card).

    - ORIGINAL_ONLY: only the original wager; every extra wager is returned (NZ default).
    - EVERYTHING: every wager on every hand of the box.
    - BUSTED_PLUS_ONE: every wager on hands that already busted, plus one original wager
      from the hands still standing; the rest is returned.
    """

    ORIGINAL_ONLY = "original_only"
    EVERYTHING = "everything"
    BUSTED_PLUS_ONE = "busted_plus_one"


class OddStakes(StrEnum):
    """What the table does with a wager whose 3 to 2 (10.1) is not a whole number of the
    table's smallest chip (a 5 at 3 to 2 is 7.5). The Gazette has no rounding clause for
    blackjack, so nothing is rounded unless the casino names its rounding here.

    - REFUSE: such a wager is refused at betting, with the reason on the display (default).
    - ROUND_DOWN / ROUND_UP: the casino's rounding to the smallest chip; the display shows
      the exact amount owed beside the rounded one.
    """

    REFUSE = "refuse"
    ROUND_DOWN = "round_down"
    ROUND_UP = "round_up"


@dataclass(frozen=True, slots=True)
class Variants:
    """A table's blackjack variants. Frozen: a table changes rules only between sessions.

    ``chip_readers``: the table's spots have chip readers, so a wager's amount comes only
    from `ChipsSensed` (a bare `SpotOccupied` is ignored). ``units_per_spot`` is the
    wager counted for an occupied box spot on a table without chip readers. Its default
    is 2 chip units so that half of it (the largest insurance, rule 9.3a) is still
    payable in chips (9.3b), and a blackjack's 3 to 2 is whole.

    ``odd_stakes``: see `OddStakes`. ``burn_cards``: cards burned after every shuffle
    (surrounding rules: "a burn after the shuffle"), before the next round's first card.
    ``double_spots``: the layout has a chip reader on each box's double spot (``double3``),
    so DOUBLE takes the extra wager sensed there ("up to the original wager").
    ``spot_sensors``: the box spots have presence sensors or chip readers, so the layout
    must back every wager keyed on the console (a wager on an empty spot is refused).

    ``minimum_wager`` and ``maximum_wager``: the table's limits, from ``[limits]`` (the
    limit sign): every wager, a supervisor's change included, is refused outside them
    unless a supervisor overrides it with a reason (`LimitOverridden`). No maximum (None)
    only for the rules alone, outside a table config.

    ``settlement_check``: after the result, the spots are checked against what
    each is owed (`controller.game.chips`): with ``chip_readers`` every over- or
    under-payment and uncollected losing wager, with ``spot_sensors`` alone an uncollected
    losing wager; NEXT is refused (4.1) until the spot reads right or a supervisor accepts.
    ``winnings_paid``: winnings stacked on the spot (checked) or handed over (the stake
    alone is checked). ``chip_inventory``: the casino's chip inventory as CSV text
    (``chip_id,value``), put here by the app from the ``[chips] inventory`` file; a chip a
    reader reports that is not in it, or carries another value, is a `ChipAlarm`.
    """

    decks: int = 6
    cutting_cards: int = 1
    cut_card_from_end: int = 78  # cards behind the cutting card (1.5 decks of 6)
    boxes: int = 7
    people_per_box: int = 3
    dealer_hits_soft_17: bool = False
    double_on: DoubleOn = DoubleOn.ANY_TWO_NO_ACE
    double_after_split: bool = False
    max_split_hands: int = 3
    must_draw_to: int = 11
    dealer_blackjack_takes: DealerBlackjackTakes = DealerBlackjackTakes.ORIGINAL_ONLY
    insurance_sensors: bool = True
    discard_rack_reader: bool = False
    chip_readers: bool = False
    units_per_spot: int = 2
    smallest_chip: int = 1
    odd_stakes: OddStakes = OddStakes.REFUSE
    burn_cards: int = 1
    double_spots: bool = False
    spot_sensors: bool = False
    settlement_check: bool = False
    winnings_paid: WinningsPaid = WinningsPaid.ON_SPOT
    chip_inventory: str = ""
    minimum_wager: int = 1
    maximum_wager: int | None = None

    def __post_init__(self) -> None:
        checks = (
            (4 <= self.decks <= 8, "decks", "4 to 8 decks (rule 3.1)"),
            (self.cutting_cards in (1, 2), "cutting_cards", "one or two cutting cards"),
            (
                0 < self.cut_card_from_end < self.decks * 52,
                "cut_card_from_end",
                "inside the shoe",
            ),
            (1 <= self.boxes <= 7, "boxes", "1 to 7 boxes"),
            (1 <= self.people_per_box <= 3, "people_per_box", "1 to 3 people per box"),
            (2 <= self.max_split_hands <= 4, "max_split_hands", "2 to 4 hands"),
            (0 <= self.must_draw_to <= 20, "must_draw_to", "0 to 20"),
            (self.units_per_spot >= 1, "units_per_spot", "at least 1"),
            (self.smallest_chip >= 1, "smallest_chip", "at least 1"),
            (0 <= self.burn_cards <= 5, "burn_cards", "0 to 5 cards"),
            (self.minimum_wager >= 1, "minimum_wager", "at least 1"),
            (
                self.maximum_wager is None or self.maximum_wager >= self.minimum_wager,
                "maximum_wager",
                "at least the minimum wager",
            ),
        )
        for ok, key, expected in checks:
            if not ok:
                raise ConfigError(f"blackjack variant {key}={getattr(self, key)!r}: {expected}")
