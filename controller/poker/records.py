"""Frozen records the poker table returns for the journal (pokerkit style: x() returns one).

Every field is a plain int, str, bool, None or tuple of those, so ``as_dict`` is
JSON-serialisable as it stands. The HOLD's records (`Violation`, `HoldCleared`) are every
game's: `controller.game.records`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from controller.game.records import CARD_MARK, public_mark

_CATEGORY = public_mark("the winning hand's category the dealer announces (11.4(c)), not its cards")


@dataclass(frozen=True, slots=True)
class Record:
    def as_dict(self) -> dict[str, Any]:
        return {"record": type(self).__name__, **asdict(self)}


@dataclass(frozen=True, slots=True)
class HandStarted(Record):
    hand: int
    button: int
    button_dead: bool
    blinds: tuple[tuple[int, int], ...]  # (seat, chips posted); a dead blind is not posted
    seats: tuple[int, ...]  # seats dealt in, in dealing order (11.3(a): left of the button)


@dataclass(frozen=True, slots=True)
class ActionTaken(Record):
    """A call, raise (a bet when nothing was bet), check or fold; ``rule`` allowed it."""

    seat: int
    action: str
    chips: int  # chips the seat put in by this action
    bet_to: int  # the round's bet level afterwards
    all_in: bool
    rule: str


@dataclass(frozen=True, slots=True)
class DrawTaken(Record):
    """11.3(a): the seat announced ``count`` cards; ``discards`` when the rack read them."""

    seat: int
    count: int
    discards: tuple[str, ...] | None = field(metadata=CARD_MARK)


@dataclass(frozen=True, slots=True)
class ReshuffleAllowed(Record):
    """11.3(b): the stub ran out; only these earlier discards may be shuffled and cut."""

    seat: int  # the player whose draw could not be completed from the stub
    owners: tuple[tuple[int, int], ...]  # (seat, discards eligible), earlier players only
    cards: tuple[str, ...] = field(metadata=CARD_MARK)  # the eligible discards known by identity
    excluded_seats: tuple[int, ...]  # this player and the later ones: not to be shuffled


@dataclass(frozen=True, slots=True)
class CardSetAside(Record):
    """A card a supervisor accepted that no seat was owed (it came out while players bet,
    before a draw announcement, or during a HOLD): dead, kept apart, never reshuffled
    (11.3(b)), and counted out of the stub."""

    card: str = field(metadata=CARD_MARK)
    rule: str  # the rule of the HOLD it came out under


@dataclass(frozen=True, slots=True)
class ShowdownOrder(Record):
    """11.4(c): who exposes, in order, and the winning hand(s) the dealer announces."""

    called: int
    must_expose: tuple[int, ...]
    may_muck: tuple[int, ...]
    winners: tuple[int, ...]  # winners of the main pot
    winning_hand: str = field(metadata=_CATEGORY)


@dataclass(frozen=True, slots=True)
class HandsRequested(Record):
    """11.4(c): "Any player at the table may request to see any or all hands involved in
    the final showdown." ``by_seat`` asked; the dealer exposes ``seats``' hands."""

    by_seat: int
    seats: tuple[int, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class PotAward(Record):
    """One pot divided under 11.4(d): equal shares to the chip unit, the odd chip by suit."""

    pot: int  # 0 the main pot, then the side pots in order
    amount: int
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    odd_chip_seat: int | None
    odd_chip: int
    # the winning category, or "uncontested" (11.2(c)(i) / 11.4(b)(i))
    hand: str = field(metadata=_CATEGORY)


@dataclass(frozen=True, slots=True)
class HandSettled(Record):
    """The hand's money: chips in = pots awarded + uncalled bets returned + rake."""

    hand: int
    chips_in: int
    awards: tuple[PotAward, ...]
    returned: tuple[tuple[int, int], ...]
    rake: int
    void: bool = False


class HoldDecision(StrEnum):
    """What a supervisor may decide when clearing a HOLD."""

    ACCEPT = "accept"  # the card stands where it went (or is set aside if owed to nobody)
    VOID_HAND = "void_hand"  # the hand is void: every chip goes back to whoever put it in
