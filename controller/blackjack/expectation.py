"""What basic strategy is worth under a table's variants, and what a departure from it costs.

Exact expected values for an infinite shoe: every card is drawn with its full-shoe
probability (2-9 and ace 1/13 each, a ten-valued card 4/13) whatever has been dealt, so
the values are rational numbers, computed as `Fraction` in about a tenth of a second,
and the same for 4 to 8 decks. A real shoe of N decks differs by card removal (the player's
own cards and the up card change what is left); docs/blackjack.md ("Edges for rating")
gives the simulator's figures beside this one.

The game is the table's: no hole card (the dealer's second card comes after the boxes
act), blackjack 3 to 2 (10.1, 10.2), blackjack against blackjack pushes (4.1), a
dealer blackjack takes per `DealerBlackjackTakes`, doubles and splits per `Variants`
(aces split once, one card each; a split hand's 21 is not blackjack), a player must
draw to ``must_draw_to``, no surrender. The strategy valued is the project's own
(`controller.blackjack.strategy`), played as the simulator plays it: a double the table
refuses is a hit, a stand it refuses is a hit.

Used by player rating: `house_edge` for the flat theoretical win (theo = handle x edge),
`decision_cost` for play recognition (what a decision that departs from basic strategy
costs), `skill_adjusted_theo` for the theo that the player's own decisions give.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from controller.blackjack.rules import DealerBlackjackTakes, DoubleOn, Variants
from controller.blackjack.strategy import Action, basic_strategy_table, decide
from controller.cards import ACE, Card
from controller.errors import RuleError

__all__ = [
    "DEALER_TOTALS",
    "Allowed",
    "Decision",
    "Departure",
    "Disagreement",
    "Edge",
    "ExpectationError",
    "card_probability",
    "dealer_outcomes",
    "decision_cost",
    "decision_values",
    "house_edge",
    "skill_adjusted_theo",
    "table_disagreements",
]

ZERO = Fraction(0)
ONE = Fraction(1)
RANK = Fraction(1, 13)  # one rank of the thirteen: the chance the next card is that rank
VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)  # card values, ace 11
DEALER_TOTALS = (17, 18, 19, 20, 21, 22)  # a dealer's final totals; 22 is any bust
INFINITE_SHOE = (
    "exact expected value for an infinite shoe (every card 1/13, ten-valued cards 4/13, "
    "whatever was dealt), no hole card"
)


class ExpectationError(RuleError, ValueError):
    """A decision the calculator cannot value: the hand or action named is impossible."""


class Decision(StrEnum):
    """A player's decision as play recognition names it."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    INSURANCE = "insurance"  # insurance taken (9.2)
    EVEN_MONEY = "even_money"  # a blackjack paid 1 to 1 at once (10.3a)
    DECLINE = "decline"  # insurance or even money offered and declined


_ACTION_DECISION = {
    Action.HIT: Decision.HIT,
    Action.STAND: Decision.STAND,
    Action.DOUBLE: Decision.DOUBLE,
    Action.SPLIT: Decision.SPLIT,
}


def card_probability(value: int) -> Fraction:
    """The chance that the next card has ``value`` (2-11, ace 11) in an infinite shoe."""
    return 4 * RANK if value == 10 else RANK


@dataclass(frozen=True, slots=True)
class Edge:
    """The house edge of basic strategy per unit of initial wager (positive: the house's).

    ``standard_error`` is 0 for a computed figure; ``method`` says how it was obtained, in
    words the docs, the rating and the pit can show.
    """

    value: Fraction
    standard_error: Fraction
    method: str

    @property
    def percent(self) -> float:
        return float(self.value * 100)

    def describe(self) -> str:
        return f"house edge {self.percent:.4f}% ({self.method})"


@dataclass(frozen=True, slots=True)
class Allowed:
    """What the table lets the acting hand do (the rules API's ``can_double``,
    ``can_split``, ``can_stand``); ``hands`` is how many hands the box has now (2 or more
    after a split: the split limit counts them, and a split hand is never blackjack)."""

    double: bool = False
    split: bool = False
    stand: bool = True
    hands: int = 1


@dataclass(frozen=True, slots=True)
class Departure:
    """One decision judged against basic strategy: the strategy tables' decision, the
    player's, and what the player's costs in expectation per unit of the box's initial
    wager (EV of basic minus EV of the decision, basic strategy played after it).
    ``cost`` is negative where the tables are not the better play under this calculator."""

    basic: Decision
    action: Decision
    cost: Fraction

    @property
    def departs(self) -> bool:
        return self.action is not self.basic


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A hand where the strategy tables' decision is not the one of highest expected value
    (basic strategy played afterwards): ``gap`` is what the tables' decision gives up."""

    kind: str  # "hard", "soft" or "pair"
    player: int  # the total (pair: the card's value, ace 11)
    up: int  # the dealer's up card, ace 11
    basic: Decision
    best: Decision
    gap: Fraction


class DealerOutcome(NamedTuple):
    blackjack: Fraction  # the chance the dealer's two cards are blackjack
    totals: tuple[Fraction, ...]  # final totals 17..21, bust, given no blackjack


class _Play(NamedTuple):
    """One hand played to its end: expected result against a dealer without blackjack,
    expected stake, expected stake lost to a bust, chance of busting (per unit stake)."""

    ev: Fraction
    stake: Fraction
    bust_stake: Fraction
    bust: Fraction


class _Split(NamedTuple):
    """A split played out: the sums over its hands, and the chance every hand busts."""

    ev: Fraction
    stake: Fraction
    bust_stake: Fraction
    all_bust: Fraction


class _Rules(NamedTuple):
    """The variants the expected values depend on (the rest is the layout's)."""

    hits_soft_17: bool
    double_on: DoubleOn
    double_after_split: bool
    max_split_hands: int
    must_draw_to: int
    takes: DealerBlackjackTakes

    @staticmethod
    def of(v: Variants) -> _Rules:
        return _Rules(
            v.dealer_hits_soft_17,
            v.double_on,
            v.double_after_split,
            v.max_split_hands,
            v.must_draw_to,
            v.dealer_blackjack_takes,
        )


def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


@cache
def _dealer_from(hard: int, ace: bool, hits_soft_17: bool) -> tuple[Fraction, ...]:
    """Final totals 17..21, bust of a dealer hand (hard total, holds an ace) drawing on."""
    if hard > 21:
        return (ZERO,) * 5 + (ONE,)
    total = _total(hard, ace)
    soft = ace and hard <= 11
    if total > 17 or (total == 17 and not (hits_soft_17 and soft)):
        return tuple(ONE if t == total else ZERO for t in DEALER_TOTALS)
    out = [ZERO] * 6
    for value in VALUES:
        p = card_probability(value)
        for i, q in enumerate(
            _dealer_from(hard + (1 if value == 11 else value), ace or value == 11, hits_soft_17)
        ):
            out[i] += p * q
    return tuple(out)


@cache
def dealer_outcomes(up: int, hits_soft_17: bool) -> DealerOutcome:
    """The dealer's chance of blackjack with ``up`` (2-11, ace 11) showing, and the final
    totals given no blackjack: the second card is drawn after the boxes act (no hole card),
    so a player deciding does not know it."""
    blackjack = card_probability(10) if up == 11 else card_probability(11) if up == 10 else ZERO
    out = [ZERO] * 6
    for value in VALUES:
        if (up == 11 and value == 10) or (up == 10 and value == 11):
            continue
        p = card_probability(value) / (1 - blackjack)
        hard = (1 if up == 11 else up) + (1 if value == 11 else value)
        for i, q in enumerate(_dealer_from(hard, up == 11 or value == 11, hits_soft_17)):
            out[i] += p * q
    return DealerOutcome(blackjack, tuple(out))


class _Versus:
    """Expected values of basic strategy's hands against one up card under one set of
    rules, memoised: every figure the edge and the departures need."""

    def __init__(self, rules: _Rules, up: int) -> None:
        self.rules = rules
        self.up = up
        self.table = basic_strategy_table(rules.takes)
        dealer = dealer_outcomes(up, rules.hits_soft_17)
        self.blackjack = dealer.blackjack
        totals = dealer.totals
        self._stand: dict[int, Fraction] = {}
        for t in range(4, 22):
            win = totals[5] + sum(totals[i] for i, d in enumerate(DEALER_TOTALS[:5]) if d < t)
            lose = sum(totals[i] for i, d in enumerate(DEALER_TOTALS[:5]) if d > t)
            self._stand[t] = win - lose
        self._after_hit: dict[tuple[int, bool], _Play] = {}
        self._drawn: dict[tuple[int, bool, str], _Play] = {}
        self._splits: dict[tuple[int, int], _Split] = {}

    # --- hands played to their end ------------------------------------------------------

    def stand(self, hard: int, ace: bool) -> _Play:
        return _Play(self._stand[_total(hard, ace)], ONE, ZERO, ZERO)

    def draw(self, hard: int, ace: bool, then: str) -> tuple[Fraction, Fraction]:
        """One more card to (hard, ace), then ``then``: "stand" or "play" (basic
        strategy's hit/stand). Returns (expected result, chance of busting)."""
        ev = bust = ZERO
        for value in VALUES:
            p = card_probability(value)
            h, a = hard + (1 if value == 11 else value), ace or value == 11
            if h > 21:
                ev -= p
                bust += p
                continue
            play = self.stand(h, a) if then == "stand" else self.after_hit(h, a)
            ev += p * play.ev
            bust += p * play.bust
        return ev, bust

    def hit(self, hard: int, ace: bool) -> _Play:
        key = (hard, ace, "hit")
        play = self._drawn.get(key)
        if play is None:
            ev, bust = self.draw(hard, ace, "play")
            play = self._drawn[key] = _Play(ev, ONE, bust, bust)
        return play

    def double(self, hard: int, ace: bool) -> _Play:
        key = (hard, ace, "double")
        play = self._drawn.get(key)
        if play is None:
            ev, bust = self.draw(hard, ace, "stand")
            play = self._drawn[key] = _Play(2 * ev, 2 * ONE, 2 * bust, bust)
        return play

    def may_stand(self, hard: int, ace: bool) -> bool:
        return _total(hard, ace) > self.rules.must_draw_to

    def after_hit(self, hard: int, ace: bool) -> _Play:
        """A hand of three or more cards (or one that may not double) under basic
        strategy: hit or stand only; 21 stands by itself."""
        key = (hard, ace)
        play = self._after_hit.get(key)
        if play is None:
            action = decide(self.table, hard, ace and hard <= 11, 0, self.up)  # 21: STAND
            if action is Action.STAND and self.may_stand(hard, ace):
                play = self.stand(hard, ace)
            else:
                play = self.hit(hard, ace)
            self._after_hit[key] = play
        return play

    # --- two-card hands -----------------------------------------------------------------

    def may_double(self, hard: int, ace: bool, from_split: bool) -> bool:
        rules = self.rules
        if from_split and not rules.double_after_split:
            return False
        if rules.double_on is DoubleOn.ANY_TWO_NO_ACE:
            return not ace
        if rules.double_on is DoubleOn.NINE_TO_ELEVEN:
            return not (ace and hard <= 11) and 9 <= hard <= 11
        return True

    def plays(self, hard: int, ace: bool, allowed: Allowed) -> dict[Decision, _Play]:
        """Every hit, stand and double ``allowed`` for a hand, played out by basic strategy."""
        out = {Decision.HIT: self.hit(hard, ace)}
        if allowed.stand:
            out[Decision.STAND] = self.stand(hard, ace)
        if allowed.double:
            out[Decision.DOUBLE] = self.double(hard, ace)
        return out

    def basic(self, hard: int, ace: bool, pair: int, allowed: Allowed) -> Decision:
        """The strategy tables' decision, as the simulator plays it: a double the table
        refuses is a hit, so is a stand; a hand of 21 stands."""
        if _total(hard, ace) == 21:
            return Decision.STAND
        action = decide(self.table, hard, ace and hard <= 11, pair if allowed.split else 0, self.up)
        if action is Action.DOUBLE and not allowed.double:
            return Decision.HIT
        if action is Action.STAND and not allowed.stand:
            return Decision.HIT
        return _ACTION_DECISION[action]

    def split_hand(self, pair: int, value: int) -> _Play:
        """A split hand of the pair's card and ``value`` that is not split again."""
        hard = (1 if pair == 11 else pair) + (1 if value == 11 else value)
        ace = 11 in (pair, value)
        if pair == 11:  # split aces: one card each (variants)
            return self.stand(hard, ace)
        allowed = Allowed(self.may_double(hard, ace, True), False, self.may_stand(hard, ace), 2)
        return self.plays(hard, ace, allowed)[self.basic(hard, ace, 0, allowed)]

    def split(self, pair: int, hands: int) -> _Split:
        """Split a pair of ``pair`` (value, ace 11) on a box that has ``hands`` hands now:
        each hand draws its second card; a card of the same rank is split again while the
        box has fewer than ``max_split_hands`` and the tables say split (never aces)."""
        key = (pair, hands)
        found = self._splits.get(key)
        if found is None:
            other = [ZERO] * 4  # weighted sums over second cards not of the pair's rank
            for value in VALUES:
                p = card_probability(value) - (RANK if value == pair else ZERO)
                if p:
                    play = self.split_hand(pair, value)
                    other = [o + p * x for o, x in zip(other, play, strict=True)]
            again = (
                pair != 11 and decide(self.table, 2 * pair, False, pair, self.up) is Action.SPLIT
            )
            same = self.split_hand(pair, pair)
            memo: dict[tuple[int, int], _Split] = {}
            found = self._pending(_Play(*other), same, again, hands + 1, 2, memo)
            self._splits[key] = found
        return found

    def _pending(
        self,
        other: _Play,
        same: _Play,
        again: bool,
        count: int,
        waiting: int,
        memo: dict[tuple[int, int], _Split],
    ) -> _Split:
        """The hands that ``waiting`` split hands still to get their second card end as,
        ``count`` hands on the box: sums over the hands, and the chance all of them bust.
        ``other``: a hand's weighted sums over second cards not of the pair's rank; ``same``:
        a hand whose second card is of the pair's rank and is not split again."""
        if waiting == 0:
            return _Split(ZERO, ZERO, ZERO, ONE)
        found = memo.get((count, waiting))
        if found is not None:
            return found
        rest = self._pending(other, same, again, count, waiting - 1, memo)
        if again and count < self.rules.max_split_hands:  # split again: one more hand
            more = self._pending(other, same, again, count + 1, waiting + 1, memo)
            found = _Split(
                other.ev + (1 - RANK) * rest.ev + RANK * more.ev,
                other.stake + (1 - RANK) * rest.stake + RANK * more.stake,
                other.bust_stake + (1 - RANK) * rest.bust_stake + RANK * more.bust_stake,
                other.bust * rest.all_bust + RANK * more.all_bust,
            )
        else:
            found = _Split(
                other.ev + RANK * same.ev + rest.ev,
                other.stake + RANK * same.stake + rest.stake,
                other.bust_stake + RANK * same.bust_stake + rest.bust_stake,
                (other.bust + RANK * same.bust) * rest.all_bust,
            )
        memo[(count, waiting)] = found
        return found

    # --- against a dealer blackjack -----------------------------------------------------

    def box_value(self, play: _Play | _Split, from_split: bool) -> Fraction:
        """Expected result of a decision for the box, a dealer blackjack included: with
        probability ``blackjack`` the dealer takes per `DealerBlackjackTakes`. For a hand
        already split, the part of the loss that hand's decision changes."""
        takes = self.rules.takes
        if takes is DealerBlackjackTakes.EVERYTHING:
            loss = play.stake
        elif takes is DealerBlackjackTakes.BUSTED_PLUS_ONE:
            rest = play.all_bust if isinstance(play, _Split) else play.bust
            loss = play.bust_stake + (ZERO if from_split else 1 - rest)
        else:
            loss = ZERO if from_split else ONE
        return (1 - self.blackjack) * play.ev - self.blackjack * loss


@cache
def _versus(rules: _Rules, up: int) -> _Versus:
    return _Versus(rules, up)


def _value(card: Card) -> int:
    return 11 if card.rank == ACE else min(card.rank, 10)


def _hard_ace(cards: Sequence[Card]) -> tuple[int, bool]:
    """A hand's hard total (aces 1, rule 3.2) and whether it holds an ace."""
    return sum(1 if c.rank == ACE else min(c.rank, 10) for c in cards), any(
        c.rank == ACE for c in cards
    )


def _up_value(up: Card | int) -> int:
    if isinstance(up, Card):
        return _value(up)
    if up not in VALUES:
        raise ExpectationError(f"up card value {up!r}: expected 2 to 11 (ace 11)")
    return up


def decision_values(
    rules: Variants, cards: Sequence[Card], up: Card | int, allowed: Allowed
) -> dict[Decision, Fraction]:
    """The expected value, per unit of the box's initial wager, of every decision
    ``allowed`` for the hand ``cards`` against ``up``, basic strategy played after it
    (for a hand already split: that hand's part of the box's value)."""
    if not cards:
        raise ExpectationError("a hand with no cards has no decision")
    v = _versus(_Rules.of(rules), _up_value(up))
    hard, ace = _hard_ace(cards)
    if hard > 21:
        raise ExpectationError(f"a hand of {hard} is bust: it has no decision")
    from_split = allowed.hands > 1
    two = len(cards) == 2
    if two and not from_split and ace and hard == 11:
        raise ExpectationError("a blackjack is paid, not played: its only decision is even money")
    if not two and (allowed.double or allowed.split):
        raise ExpectationError("only a two-card hand may double or split")
    if allowed.split and not (two and cards[0].rank == cards[1].rank):
        raise ExpectationError("only a pair of equal rank may be split")
    out = {d: v.box_value(p, from_split) for d, p in v.plays(hard, ace, allowed).items()}
    if allowed.split:
        split = v.split(_value(cards[0]), allowed.hands)
        out[Decision.SPLIT] = v.box_value(split, from_split)
    return out


def _blackjack_offer(
    rules: Variants, up: int, action: Decision, insured: Fraction, blackjack: bool
) -> Departure:
    v = _versus(_Rules.of(rules), up)
    if up != 11:
        raise ExpectationError("insurance and even money are offered on a dealer ace only (9.2)")
    if action is Decision.EVEN_MONEY and not blackjack:
        raise ExpectationError("even money is offered on a blackjack only (10.3a)")
    if action is Decision.EVEN_MONEY:
        # 1 to 1 now against 3 to 2 unless the dealer has blackjack (then a push)
        return Departure(Decision.DECLINE, action, (1 - v.blackjack) * Fraction(3, 2) - 1)
    if action is Decision.INSURANCE:
        if not 0 < insured <= Fraction(1, 2):
            raise ExpectationError(f"insurance of {insured} of the wager: at most half (9.3a)")
        # 2 to 1 (9.4) on the insurance wager, lost unless the dealer has blackjack
        return Departure(Decision.DECLINE, action, -insured * (3 * v.blackjack - 1))
    return Departure(Decision.DECLINE, action, ZERO)


def decision_cost(
    rules: Variants,
    cards: Sequence[Card],
    up: Card | int,
    action: Decision | str,
    *,
    allowed: Allowed,
    insured: Fraction = Fraction(1, 2),
) -> Departure:
    """Judge one decision of a box against basic strategy under ``rules``.

    ``cards``: the acting hand; ``up``: the dealer's up card; ``allowed``: what the table
    let the hand do. Insurance and even money (``action`` "insurance", "even_money" or
    "decline", a dealer ace showing) are judged on the dealer's chance of blackjack in an
    infinite shoe, 4/13: insurance pays 2 to 1 (9.4) on ``insured`` (the insurance wager
    over the initial wager, at most half, 9.3a), so it costs ``insured`` x 1/13; even money
    costs 1/26 of the wager. Basic strategy declines both.
    """
    try:
        decision = Decision(action)
    except ValueError:
        names = ", ".join(d.value for d in Decision)
        raise ExpectationError(f"unknown decision {action!r}: expected one of {names}") from None
    up_value = _up_value(up)
    if decision in (Decision.INSURANCE, Decision.EVEN_MONEY, Decision.DECLINE):
        blackjack = sorted(_value(c) for c in cards) == [10, 11] and allowed.hands == 1
        return _blackjack_offer(rules, up_value, decision, insured, blackjack)
    values = decision_values(rules, cards, up_value, allowed)
    if decision not in values:
        raise ExpectationError(f"{decision.value} is not allowed for this hand at this table")
    v = _versus(_Rules.of(rules), up_value)
    hard, ace = _hard_ace(cards)
    pair = _value(cards[0]) if allowed.split else 0
    basic = v.basic(hard, ace, pair, allowed)
    return Departure(basic, decision, values[basic] - values[decision])


def _initial_value(rules: _Rules, first: int, second: int, same_rank: bool, up: int) -> Fraction:
    """A box's expected result with two cards of values ``first``, ``second`` under basic
    strategy, a dealer blackjack included."""
    v = _versus(rules, up)
    if {first, second} == {10, 11}:  # blackjack: 3 to 2, a push against blackjack
        return (1 - v.blackjack) * Fraction(3, 2)
    hard = (1 if first == 11 else first) + (1 if second == 11 else second)
    ace = 11 in (first, second)
    allowed = Allowed(
        double=v.may_double(hard, ace, False), split=same_rank, stand=v.may_stand(hard, ace)
    )
    decision = v.basic(hard, ace, first if same_rank else 0, allowed)
    if decision is Decision.SPLIT:
        return v.box_value(v.split(first, 1), False)
    return v.box_value(v.plays(hard, ace, allowed)[decision], False)


@cache
def _edge(rules: _Rules) -> Fraction:
    total = ZERO
    for up in VALUES:
        p_up = card_probability(up)
        for first in VALUES:
            for second in VALUES:
                p = card_probability(first) * card_probability(second)
                if first == second:  # a pair of equal rank: a quarter of two tens
                    same = RANK * RANK * (4 if first == 10 else 1)
                    total += p_up * same * _initial_value(rules, first, second, True, up)
                    p -= same
                    if not p:
                        continue
                total += p_up * p * _initial_value(rules, first, second, False, up)
    return -total


def house_edge(rules: Variants) -> Edge:
    """The house edge of the project's basic strategy under ``rules`` (decks aside: the
    shoe is infinite), exact; never insuring, never taking even money."""
    return Edge(_edge(_Rules.of(rules)), ZERO, INFINITE_SHOE)


def _hand_for(kind: str, player: int) -> list[Card]:
    """A two-card hand of that kind and total (no pair unless ``kind`` is "pair")."""
    rank = {11: ACE}.get
    if kind == "pair":
        card = Card(rank(player, player), "s")
        return [card, Card(card.rank, "h")]
    if kind == "soft":
        return [Card(ACE, "s"), Card(player - 11, "h")]
    if player == 20:
        return [Card(12, "s"), Card(13, "h")]  # queen and king: twenty, not a pair
    low = 2 if player <= 11 else player - 10
    return [Card(low, "s"), Card(player - low, "h")]


def table_disagreements(rules: Variants) -> list[Disagreement]:
    """Every two-card hand (hard 5-20, soft 13-20, every pair) against every up card where
    the strategy tables' decision is not the highest expected value under ``rules``."""
    out: list[Disagreement] = []
    hands: Iterable[tuple[str, int]] = (
        [("hard", t) for t in range(5, 21)]
        + [("soft", t) for t in range(13, 21)]
        + [("pair", p) for p in VALUES]
    )
    r = _Rules.of(rules)
    for kind, player in hands:
        cards = _hand_for(kind, player)
        for up in VALUES:
            v = _versus(r, up)
            hard, ace = _hard_ace(cards)
            allowed = Allowed(
                double=v.may_double(hard, ace, False),
                split=kind == "pair",
                stand=v.may_stand(hard, ace),
            )
            values = decision_values(rules, cards, up, allowed)
            basic = v.basic(hard, ace, _value(cards[0]) if kind == "pair" else 0, allowed)
            best = max(values, key=lambda d: values[d])
            if values[best] > values[basic]:
                out.append(
                    Disagreement(kind, player, up, basic, best, values[best] - values[basic])
                )
    return out


def skill_adjusted_theo(
    edge: Fraction, handle: int, departures: Iterable[tuple[Fraction, int]]
) -> Fraction:
    """Theoretical win with the player's own decisions: the flat theo (``handle`` x
    ``edge``, basic strategy) plus, for each departure, its cost per unit of initial
    wager x that box's initial wager (``departures``: (cost, stake) pairs, chip units)."""
    return edge * handle + sum((cost * stake for cost, stake in departures), ZERO)
