"""The draw (rule 11.3) and the discard rack, kept by owner.

11.3(a): "each active player in a clockwise direction commencing with the first player to
the immediate left of the button, shall discard any or all of the cards in his/her hand,
announce the total number of cards to be replaced, pass those cards face down to the
dealer and immediately receive an identical number of replacement cards, dealt face down
from the top of the deck".

11.3(b): "if more cards are required to complete a player's draw after the last card is
dealt, only the previous discards (not including that player and subsequent player's
discards) shall be shuffled, cut and used to complete the draw."

The controller counts the stub (52 less every card read this hand, the burn included).
When a draw needs a card and the stub is empty, it tells the dealer which discards may be
shuffled: those of the players before this one in the draw, by owner, and by identity
where the discard rack reader (or the console) reported them. From then on every card
read must be one of them; anything else is a `Violation` of 11.3(b) and holds the table.
A card cannot be refused (it has left the shoe), so card handling returns records rather
than raising.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card
from controller.errors import IllegalAction
from controller.poker.records import DrawTaken, Record, ReshuffleAllowed, Violation

DRAW_RULE = "11.3(a)"
RESHUFFLE_RULE = "11.3(b)"
HAND_SIZE = 5


class DiscardRack:
    """The discards of this draw, by owner: known cards, and counts not read by identity."""

    def __init__(self) -> None:
        self.known: dict[int, list[Card]] = {}
        self.unknown: dict[int, int] = {}
        self.burned: list[Card] = []


class Draw:
    def __init__(
        self,
        order: Sequence[int],
        hands: dict[int, list[Card]],
        unknown_kept: dict[int, int],
        seen: set[Card],
        stub: int,
        burn: bool,
    ) -> None:
        self.order = list(order)
        self.hands = hands
        self.unknown_kept = unknown_kept
        self.seen = seen
        self.stub = stub
        self.burn_due = burn
        self.index = 0
        self.owed: int | None = None  # None: the drawer has not announced yet
        self.rack = DiscardRack()
        self._old_hands: dict[int, tuple[Card, ...]] = {}
        self.pool: set[Card] | None = None  # eligible discards once the stub ran out
        self.pool_possible: dict[int, set[Card]] = {}
        self.pool_unknown: dict[int, int] = {}
        self.reshuffle: ReshuffleAllowed | None = None

    @property
    def drawer(self) -> int | None:
        return self.order[self.index] if self.index < len(self.order) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.order)

    def verify_discard(self, seat: int, count: int, cards: Sequence[Card] | None) -> None:
        if self.done:
            raise IllegalAction(DRAW_RULE, "the draw is over")
        if seat != self.drawer or self.owed is not None:
            raise IllegalAction(
                DRAW_RULE,
                f"seat {seat} draws out of turn: the draw goes clockwise from left of the "
                f"button and seat {self.drawer} is drawing",
            )
        if not 0 <= count <= HAND_SIZE:
            raise IllegalAction(DRAW_RULE, f"a player replaces 0 to 5 cards, not {count}")
        if cards is not None:
            held = self.hands[seat]
            if len(cards) != count or len(set(cards)) != count or any(c not in held for c in cards):
                raise IllegalAction(
                    DRAW_RULE,
                    f"seat {seat} announced {count} but the discards read are "
                    f"{[str(c) for c in cards]}, not {count} of the cards held",
                )

    def discard(self, seat: int, count: int, cards: Sequence[Card] | None) -> list[Record]:
        """Record the announcement and the discards; the seat is then owed ``count``."""
        held = self.hands[seat]
        if cards is None and count == len(held) + self.unknown_kept.get(seat, 0):
            cards = list(held)  # all discarded: the rack knows them without reading
        if cards is not None:
            self.rack.known[seat] = list(cards)
            self.hands[seat] = [c for c in held if c not in cards]
        elif count:
            self.rack.unknown[seat] = count
            self._old_hands[seat] = tuple(held)
            self.hands[seat] = []
            self.unknown_kept[seat] = HAND_SIZE - count
        out: list[Record] = [DrawTaken(seat, count, None if cards is None else _names(cards))]
        self.owed = count
        if count == 0:
            self._next()
        elif self.stub == 0 and self.pool is None:
            out.append(self._open_pool())
        return out

    def card(self, card: Card) -> list[Record]:
        """A card read during the draw: the burn, a replacement, or a violation."""
        if self.burn_due:
            self.burn_due = False
            self.rack.burned.append(card)
            if card in self.seen:
                return [Violation(DRAW_RULE, f"burn card {card} was already dealt", str(card))]
            self.seen.add(card)
            self.stub -= 1
            return []
        seat = self.drawer
        if seat is None or not self.owed:
            return [
                Violation(
                    DRAW_RULE,
                    f"{card} drawn but no replacement card is due "
                    f"(seat {seat} has not announced its discards)",
                    str(card),
                    seat,
                )
            ]
        if self.pool is None:
            if card in self.seen:
                return [Violation(DRAW_RULE, f"{card} is already out: not from the top", str(card))]
            self.seen.add(card)
            self.stub -= 1
        else:
            violation = self._take_from_pool(card, seat)
            if violation is not None:
                return [violation]
        return self.give(card)

    def give(self, card: Card) -> list[Record]:
        """Hand ``card`` to the drawer (also used when a supervisor accepts a card)."""
        seat = self.drawer
        if seat is None or not self.owed:
            self.rack.burned.append(card)  # accepted but owed to nobody: set aside, dead
            return []
        self.hands[seat].append(card)
        self.owed -= 1
        if self.owed == 0:
            self._next()
        elif self.stub <= 0 and self.pool is None:
            return [self._open_pool()]
        return []

    def _next(self) -> None:
        self.index += 1
        self.owed = None

    def _open_pool(self) -> ReshuffleAllowed:
        """11.3(b): only the previous players' discards may be shuffled, cut and used."""
        seat = self.order[self.index]
        earlier = self.order[: self.index]
        self.pool = {c for s in earlier for c in self.rack.known.get(s, ())}
        for s in earlier:
            if self.rack.unknown.get(s):
                self.pool_unknown[s] = self.rack.unknown[s]
                self.pool_possible[s] = set(self._old_hands[s])
        owners = tuple(
            (s, len(self.rack.known.get(s, ())) + self.rack.unknown.get(s, 0))
            for s in earlier
            if self.rack.known.get(s) or self.rack.unknown.get(s)
        )
        self.reshuffle = ReshuffleAllowed(
            seat, owners, _names(sorted(self.pool, key=str)), tuple(self.order[self.index :])
        )
        return self.reshuffle

    def _take_from_pool(self, card: Card, seat: int) -> Violation | None:
        if self.pool is not None and card in self.pool:
            self.pool.remove(card)
            return None
        for owner, possible in self.pool_possible.items():
            if self.pool_unknown[owner] and card in possible:
                possible.remove(card)
                self.pool_unknown[owner] -= 1
                return None
        return Violation(
            RESHUFFLE_RULE,
            f"{card} is not among the earlier players' discards that 11.3(b) allows to be "
            f"shuffled to complete seat {seat}'s draw",
            str(card),
            seat,
        )


def _names(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)
