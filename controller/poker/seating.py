"""Seats, the dealer button and the live blinds, with the dead button.

Surrounding rules (Division 13): the button "moves one seat clockwise at the end of each
hand; a dead button lets the blinds move correctly past an empty seat"; the player left
of the button posts the first blind, the next player the second, and so on.

"Move correctly" is read as the cardroom dead-button rule: the last blind moves on to the
next occupied seat every hand, so nobody posts it twice or skips it; each other blind
takes the seat that posted the blind after it last hand, and the button the seat of last
hand's first blind. When that seat has emptied, the blind there is dead (not posted) or
the button is dead (it stands on an empty seat). Dealing and the draw still start at the
seat left of the button, occupied or not.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from controller.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Positions:
    button: int
    blinds: tuple[int, ...]  # seat of each blind, first blind first (may be empty: dead)


def clockwise_from(start: int, seats: int) -> list[int]:
    """Seat numbers 1..seats clockwise, beginning at ``start``."""
    return [(start - 1 + i) % seats + 1 for i in range(seats)]


def next_occupied(after: int, occupied: Collection[int], seats: int) -> int:
    for seat in clockwise_from(after % seats + 1, seats):
        if seat in occupied:
            return seat
    raise IllegalAction("11.2", "no occupied seat at the table")


def first_positions(button: int, occupied: Collection[int], seats: int, blinds: int) -> Positions:
    """The first hand: the button where the dealer puts it, blinds on the next players."""
    _check_enough(occupied, blinds)
    posted: list[int] = []
    seat = button
    for _ in range(blinds):
        seat = next_occupied(seat, occupied, seats)
        posted.append(seat)
    return Positions(button, tuple(posted))


def next_positions(previous: Positions, occupied: Collection[int], seats: int) -> Positions:
    """The button and blinds one hand on (the dead-button rule, module docstring)."""
    _check_enough(occupied, len(previous.blinds))
    last = next_occupied(previous.blinds[-1], occupied, seats)
    return Positions(previous.blinds[0], (*previous.blinds[1:], last))


def _check_enough(occupied: Collection[int], blinds: int) -> None:
    if len(occupied) < max(2, blinds):
        raise IllegalAction(
            "11.2", f"{len(occupied)} player(s) seated: a hand needs at least {max(2, blinds)}"
        )


def post_blinds(
    positions: Positions, sizes: Sequence[int], stacks: dict[int, int], occupied: Collection[int]
) -> list[tuple[int, int]]:
    """The live blinds posted, (seat, chips), taken from ``stacks``: a short stack posts
    what it has (and is all in); a blind on an emptied seat is dead, not posted."""
    posted: list[tuple[int, int]] = []
    for seat, size in zip(positions.blinds, sizes, strict=True):
        if seat in occupied:
            chips = min(size, stacks[seat])
            stacks[seat] -= chips
            posted.append((seat, chips))
    return posted
