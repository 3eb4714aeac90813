"""The draw (rule 11.3) and the discard rack, kept by owner.

11.3(a): "each active player in a clockwise direction commencing with the first player to
the immediate left of the button, shall discard any or all of the cards in his/her hand,
announce the total number of cards to be replaced, pass those cards face down to the
dealer and immediately receive an identical number of replacement cards, dealt face down
from the top of the deck".

11.3(b): "if more cards are required to complete a player's draw after the last card is
dealt, only the previous discards (not including that player and subsequent player's
discards) shall be shuffled, cut and used to complete the draw."

The controller counts the stub (52 less every card out this hand: the deal, the burn,
and any card a supervisor accepted that nobody was owed, set aside dead). When a draw
needs a card and the stub is empty, it tells the dealer which discards may be shuffled:
those of the players before this one in the draw, by owner, and by identity where the
discard rack reader (or the console) reported them. From then on every card read must be
one of the discards in that reshuffle, not yet dealt again, for this player and for the
players after them: the discards of the player whose draw it completed (or of anyone
after) were never in it. Anything else is a `Violation` of 11.3(b) and holds the table.
Only when the reshuffle itself runs out does the clause apply again: the discards of every
player before the one then drawing that have not been dealt again, including those of
players who drew from the first reshuffle, are shuffled, and the controller says so with a
new `ReshuffleAllowed`. A card cannot be refused (it has left the shoe), so card handling
returns records rather than raising.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.records import Violation
from controller.poker.records import DrawTaken, Record, ReshuffleAllowed

DRAW_RULE = "11.3(a)"
RESHUFFLE_RULE = "11.3(b)"
HAND_SIZE = 5


class DiscardRack:
    """The discards of this draw, by owner: known cards, and counts not read by identity;
    the burn card; the dead cards set aside. The burn and the dead are never reshuffled."""

    def __init__(self) -> None:
        self.known: dict[int, list[Card]] = {}
        self.unknown: dict[int, int] = {}
        self.burned: list[Card] = []
        self.dead: list[Card] = []


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
        self.reshuffled = False  # the stub ran out: cards come from earlier discards
        self.pile_left = 0  # cards left, as far as the controller knows, in the reshuffle
        self.pile_seats: tuple[int, ...] = ()  # whose discards the reshuffle was made of
        self.redealt: set[Card] = set()  # known discards dealt again
        self.possible: dict[int, set[Card]] = {}  # unread discards: the cards they may be
        self.unknown_left: dict[int, int] = {}  # unread discards not yet dealt again
        self.reshuffle: ReshuffleAllowed | None = None  # the latest 11.3(b) reshuffle

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

    def discard(
        self, seat: int, count: int, cards: Sequence[Card] | None
    ) -> list[Record | Violation]:
        """Record the announcement and the discards; the seat is then owed ``count``."""
        held = self.hands[seat]
        if cards is None and count == len(held) + self.unknown_kept.get(seat, 0):
            cards = list(held)  # all discarded: the rack knows them without reading
        if cards is not None:
            self.rack.known[seat] = list(cards)
            self.hands[seat] = [c for c in held if c not in cards]
        elif count:
            self.rack.unknown[seat] = count
            self.possible[seat] = set(held)
            self.unknown_left[seat] = count
            self.hands[seat] = []
            self.unknown_kept[seat] = HAND_SIZE - count
        out: list[Record | Violation] = [
            DrawTaken(seat, count, None if cards is None else _names(cards))
        ]
        self.owed = count
        if count == 0:
            self._next()
        else:
            out += self._reshuffle_if_out()
        return out

    def card(self, card: Card) -> list[Record | Violation]:
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
        if not self.reshuffled:
            if card in self.seen:
                return [Violation(DRAW_RULE, f"{card} is already out: not from the top", str(card))]
            self.seen.add(card)
            self.stub -= 1
        elif self._take_from_discards(card):
            self.pile_left = max(0, self.pile_left - 1)
        else:
            return [
                Violation(
                    RESHUFFLE_RULE,
                    f"{card} is not among the earlier players' discards that 11.3(b) allows "
                    f"to be shuffled to complete seat {seat}'s draw",
                    str(card),
                    seat,
                )
            ]
        return self.give(card)

    def give(self, card: Card) -> list[Record | Violation]:
        """Hand ``card`` to the drawer (also used when a supervisor accepts a card)."""
        seat = self.drawer
        if seat is None or not self.owed:
            return self.set_aside(card)  # accepted but owed to nobody
        self.hands[seat].append(card)
        self.owed -= 1
        if self.owed == 0:
            self._next()
            return []
        return self._reshuffle_if_out()

    def set_aside(self, card: Card) -> list[Record | Violation]:
        """``card`` came out but nobody is owed it: dead, kept apart, never reshuffled. It
        is counted out of the stub (or of the reshuffled discards it came from), so the
        count stays true and 11.3(b) is offered when the stub is physically empty."""
        self.rack.dead.append(card)
        if self.reshuffled:
            if self._take_from_discards(card):
                self.pile_left = max(0, self.pile_left - 1)
        elif card not in self.seen:
            self.seen.add(card)
            self.stub -= 1
        return self._reshuffle_if_out() if self.owed else []

    def _next(self) -> None:
        self.index += 1
        self.owed = None

    # --- 11.3(b) ------------------------------------------------------------------------

    @property
    def pool(self) -> set[Card] | None:
        """The known discards the drawer may have (None until the stub ran out): those in
        the reshuffle, not yet dealt again."""
        if not self.reshuffled or self.done:
            return None
        return self._known_discards(self.pile_seats)

    def _known_discards(self, seats: Sequence[int]) -> set[Card]:
        return {c for s in seats for c in self.rack.known.get(s, ()) if c not in self.redealt}

    def _reshuffle_if_out(self) -> list[Record | Violation]:
        """The drawer is owed a card: when the stub (or the last reshuffle) is out, 11.3(b)."""
        if self.stub > 0 or (self.reshuffled and self.pile_left > 0) or self.done:
            return []
        seat = self.order[self.index]
        earlier = self.order[: self.index]  # "not including that player and subsequent"
        known = self._known_discards(earlier)
        owners = tuple(
            (s, n)
            for s in earlier
            if (n := sum(c in known for c in self.rack.known.get(s, ())) + self._unread(s))
        )
        record = ReshuffleAllowed(
            seat, owners, _names(sorted(known, key=str)), tuple(self.order[self.index :])
        )
        self.reshuffled = True
        self.pile_left = sum(n for _, n in owners)
        self.pile_seats = tuple(earlier)
        if record == self.reshuffle:
            return []  # nothing new to shuffle: the dealer was told already
        self.reshuffle = record
        return [record]

    def _unread(self, seat: int) -> int:
        return self.unknown_left.get(seat, 0)

    def _take_from_discards(self, card: Card) -> bool:
        """``card`` is in the reshuffle (a discard of a player before the one whose draw
        it completed), not yet dealt again: take it. A later drawer's own or the drawer
        before them's discards were never in it, until the reshuffle runs out in turn."""
        pile = self.pile_seats
        for s in pile:
            if card in self.rack.known.get(s, ()) and card not in self.redealt:
                self.redealt.add(card)
                return True
        for s in pile:
            if self._unread(s) and card in self.possible.get(s, ()):
                self.possible[s].discard(card)
                self.unknown_left[s] -= 1
                return True
        return False


def _names(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)
