"""The table's poker configuration: what is on the table sign and the house's rake.

Frozen, validated on construction (a wrong value raises `ConfigError` naming the key), and
shared by every hand at the table. All amounts are integer chip units.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.errors import ConfigError

MAX_SEATS = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class PokerRules:
    """Per-table rules.

    - ``seats``: seats at the table, numbered 1..seats clockwise (at most 10).
    - ``blinds``: the live blinds posted left of the button, first blind first; how many
      there are "is shown on a sign at the table" (surrounding rules, Division 13).
    - ``minimum_wager`` / ``maximum_wager``: the table notice of rule 11.5(a). Every bet and
      every raise (the amount added above the call) lies between them, except an all-in.
      A blind is a wager too: none may be above the maximum. A blind below the minimum is
      allowed (the first blind is by custom a fraction of the last; docs/poker.md).
    - ``raise_cap``: bets plus raises allowed in one betting round (cardroom practice; None
      for no cap). The blinds do not count; an all-in below the minimum does not count.
    - ``rake_percent``, ``rake_cap``: the house takes ``rake_percent`` % of the pots,
      rounded down to ``chip_unit``, at most ``rake_cap``.
    - ``no_rake_first_round``: the "no flop, no drop" equivalent: no rake when the hand
      ends in the first betting round.
    - ``chip_unit``: the lowest chip denomination in play at the table (rule 11.4(d): pots
      are divided "equally to the lowest chip denomination in play").
    - ``burn_before_draw``: the dealer burns one card before the draw (surrounding rules:
      an assumption, so configurable). The burn card is kept apart from the discards and
      is never reshuffled (11.3(b)).
    """

    seats: int = 6
    blinds: tuple[int, ...] = (1, 2)
    minimum_wager: int = 2
    maximum_wager: int = 10
    raise_cap: int | None = 4
    rake_percent: int = 5
    rake_cap: int = 5
    no_rake_first_round: bool = True
    chip_unit: int = 1
    burn_before_draw: bool = True

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= MAX_SEATS:
            raise ConfigError(f"poker.seats: 2 to {MAX_SEATS} seats, not {self.seats}")
        if not self.blinds or any(b <= 0 for b in self.blinds):
            raise ConfigError(f"poker.blinds: at least one positive blind, not {self.blinds}")
        if len(self.blinds) >= self.seats:
            raise ConfigError(f"poker.blinds: {len(self.blinds)} blinds need more seats")
        if self.chip_unit <= 0:
            raise ConfigError(f"poker.chip_unit: must be positive, not {self.chip_unit}")
        if not 0 < self.minimum_wager <= self.maximum_wager:
            raise ConfigError(
                "poker.minimum_wager/maximum_wager (rule 11.5): need 0 < minimum <= maximum, "
                f"not {self.minimum_wager}/{self.maximum_wager}"
            )
        for name in ("minimum_wager", "maximum_wager", "rake_cap"):
            if getattr(self, name) % self.chip_unit:
                raise ConfigError(f"poker.{name}: not a multiple of chip_unit {self.chip_unit}")
        if any(b % self.chip_unit for b in self.blinds):
            raise ConfigError(f"poker.blinds: not multiples of chip_unit {self.chip_unit}")
        over = [b for b in self.blinds if b > self.maximum_wager]
        if over:  # a blind is a wager ("a bet placed before the first card is dealt")
            raise ConfigError(
                f"poker.blinds: the blind {over[0]} is above the table notice's maximum wager "
                f"{self.maximum_wager} (rule 11.5(a); the maximum is limits.maximum)"
            )
        if self.raise_cap is not None and self.raise_cap < 1:
            raise ConfigError(f"poker.raise_cap: at least 1 or none, not {self.raise_cap}")
        if not 0 <= self.rake_percent <= 100 or self.rake_cap < 0:
            raise ConfigError(
                f"poker.rake_percent/rake_cap: 0-100 and >= 0, not "
                f"{self.rake_percent}/{self.rake_cap}"
            )

    @property
    def last_blind(self) -> int:
        return self.blinds[-1]
