"""The rating book: the open player ratings of one table, per box (a seat, at poker), and
every figure they measure, worked out exactly (docs/ratings.md).

Sans-I/O like the rules: the book reads no clock. The loop tells it the wall time of each
event before the event is applied (`at`), the same time the event's journal row gets, so
a replay of the journal gives every rating the same seconds. The game tells it what each
box wagered and won when a round ends (`round_ended`, a `RoundFigures` from the game's own
records). What it produces (the records of `controller.rating.records`) waits in the
book until the game takes it (`take_outputs`), after the game's own records.

Exact arithmetic: money is whole chips; the player's result is kept in hundredths (a
baccarat commission is owed in hundredths), the theo and comp as fractions, and each is
rounded half up (`half_up`) once, where it is shown. A round's row carries its share of a
rounded running total, so a rating's rounds add up to its end's figures exactly.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from controller.cards import Card
from controller.errors import IllegalAction
from controller.rating.records import (
    RatingAdjusted,
    RatingEnded,
    RatingMoved,
    RatingNamed,
    RatingRound,
    RatingStarted,
)

__all__ = [
    "RATING_RULE",
    "BoxRound",
    "Decision",
    "DecisionCost",
    "RatingBook",
    "RatingSettings",
    "RoundFigures",
    "half_up",
    "settings_from_json",
    "settings_json",
]

RATING_RULE = "player rating (house procedure)"  # what a refused rating input cites
_MICROS = datetime.timedelta(microseconds=1)
_HOUR = 3600


def half_up(value: Fraction) -> int:
    """``value`` rounded to a whole number, a half going up (2.5 -> 3, -2.5 -> -2)."""
    return (value + Fraction(1, 2)).__floor__()


@dataclass(frozen=True)
class RatingSettings:
    """``[rating]`` (controller.app.config.rating): whether the table rates players; the
    rounds a rated box may stay empty before its rating ends; the comp's reinvestment
    rate and blackjack's main-wager edge as exact fractions (the edge None: the one the
    blackjack edge calculator gives for the table's variants); the player card's format (a regular
    expression the whole number must match); whether the dealer's page names a player
    keyed on the console."""

    enabled: bool = False
    empty_rounds: int = 3
    reinvestment: Fraction = Fraction(1, 5)
    blackjack_edge: Fraction | None = None  # None: the blackjack edge calculator's
    card_pattern: str = "[0-9]{6,20}"
    show_names: bool = False


def settings_json(settings: RatingSettings) -> dict[str, Any]:
    """``settings`` as plain JSON (the rates as exact fractions in text, "1/5"), as the
    journal's `TableStarted` row carries them, so an offline replay rates alike."""
    out: dict[str, Any] = {}
    for name in RatingSettings.__dataclass_fields__:
        value = getattr(settings, name)
        out[name] = str(value) if isinstance(value, Fraction) else value
    return out


def settings_from_json(data: Mapping[str, Any]) -> RatingSettings:
    """`settings_json`'s inverse; a key it does not know raises `TypeError`."""
    fractions = {"reinvestment", "blackjack_edge"}
    values: dict[str, Any] = {
        k: Fraction(str(v)) if k in fractions and v is not None else v for k, v in data.items()
    }
    return RatingSettings(**values)


@dataclass(frozen=True, slots=True)
class Decision:
    """One play a rated blackjack box made: ``play`` is "hit", "stand", "double",
    "split", "insurance" or "even_money"; ``cards`` the hand before it, ``up_card``
    the dealer's up card, ``stake`` the box holder's initial wager; what the table let
    the hand do then (``may_double``, ``may_split``, ``may_stand``) and how many hands
    the box had (``hands``: 2 or more after a split)."""

    box: int
    hand: int
    play: str
    cards: tuple[Card, ...]
    up_card: Card | None
    stake: int
    may_double: bool = False
    may_split: bool = False
    may_stand: bool = True
    hands: int = 1


DecisionCost = Callable[[Decision], "Fraction | None"]
"""The cost of a blackjack decision: None when it is basic strategy's play under this
table's rules, else what it gives the house in expectation, in chips (a departure). It
must pickle (a module-level function, or an object of module-level classes): the app's
snapshots pickle the game with its book."""


@dataclass(frozen=True, slots=True)
class BoxRound:
    """What one box did in one round: its wagers by bet type (chips), the player's result
    in hundredths of a chip (+ won, - lost; a commission owed counted against it), what
    the seat paid the house for the game (its share of poker's rake: its theo, in chips,
    exact; None: the theo is the edges'), and the box holder's decisions (blackjack)."""

    box: int
    wagers: Mapping[str, int]
    result_hundredths: int
    charged: Fraction | int | None = None
    decisions: tuple[Decision, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundFigures:
    """A round that ended: its number and each box's `BoxRound` (a box that wagered
    nothing may be left out). A void round (every wager back) counts for nobody."""

    round: int
    boxes: Mapping[int, BoxRound]
    void: bool = False


@dataclass
class _Open:
    """One open rating and its running totals (exact), with what its rounds have told."""

    rating: str
    box: int
    player: str | None
    source: str
    start: str
    first_round: int
    named_on_console: bool
    rounds: int = 0
    handle_by_bet: dict[str, int] = field(default_factory=dict)
    largest_bet: int = 0
    result_hundredths: int = 0
    theo: Fraction = Fraction(0)  # chips
    cost: Fraction = Fraction(0)  # the departures' cost, chips
    departures: int = 0
    micros: int = 0
    empty: int = 0  # rounds in a row the box sat out
    adjusted: int | None = None
    told_seconds: int = 0
    told_win_loss: int = 0
    told_theo: int = 0

    @property
    def handle(self) -> int:
        return sum(self.handle_by_bet.values())

    @property
    def measured_average_bet(self) -> int:
        return self.handle // self.rounds if self.rounds else 0


def _parse(wall: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(wall)


class RatingBook:
    """The open ratings of one table. ``game`` names it in the ratings; ``edges`` is each
    bet type's house edge (a fraction of the stake); ``wager_source`` says whether the
    wagers are the chip readers' ("chips") or the console's ("console");
    ``decision_cost`` judges a blackjack box's decisions (None: they are not judged)."""

    def __init__(
        self,
        game: str,
        edges: Mapping[str, Fraction],
        wager_source: str,
        settings: RatingSettings | None = None,
        decision_cost: DecisionCost | None = None,
    ) -> None:
        self.game = game
        self.edges = dict(edges)
        self.wager_source = wager_source
        self.settings = settings or RatingSettings()
        self.decision_cost = decision_cost
        self.open: dict[int, _Open] = {}
        self.started = 0  # ratings opened at this table: the next is "r<started + 1>"
        self._now = "1970-01-01T00:00:00+00:00"
        self._who = "console"
        self._last_round_end: str | None = None
        self._out: list[Any] = []

    # --- what the loop and the game tell it ----------------------------------------------

    def at(self, wall: str, who: str | None = None) -> None:
        """The wall time (ISO) of the event about to be applied, and who acts in it (the
        journal row's actor; None: nobody signed in, "console" is named)."""
        self._now = wall
        self._who = who or "console"

    def take_outputs(self) -> list[Any]:
        taken = self._out.copy()
        self._out.clear()
        return taken

    # --- opening, naming, ending ---------------------------------------------------------

    def _verify_enabled(self) -> None:
        if not self.settings.enabled:
            raise IllegalAction(RATING_RULE, "player ratings are off at this table ([rating])")

    def _verify_in_play(self, box: int, in_play: Collection[int]) -> None:
        if box not in in_play:
            raise IllegalAction(RATING_RULE, f"box {box} is not in play at this table")

    def _rating_at(self, box: int) -> _Open:
        rating = self.open.get(box)
        if rating is None:
            raise IllegalAction(RATING_RULE, f"box {box} has no rating open")
        return rating

    def card_presented(
        self, box: int, card: str, reader: str, in_play: Collection[int], round_no: int
    ) -> None:
        """A player's card at ``box``: it opens a rating, or ends the one it opened. The
        refusals never quote the card (it is who the player is)."""
        self._verify_enabled()
        if re.fullmatch(self.settings.card_pattern, card) is None:
            raise IllegalAction(
                RATING_RULE,
                f"the card read by {reader} at box {box} is not a player card of this "
                "casino's format ([rating] card_pattern): not rated",
            )
        self._verify_in_play(box, in_play)
        rating = self.open.get(box)
        if rating is not None:
            if rating.source == "card" and rating.player == card:
                self._end(rating, "card")
                return
            raise IllegalAction(
                RATING_RULE, f"two cards at one box: box {box} is already rated (end it first)"
            )
        for other in self.open.values():
            if other.source == "card" and other.player == card:
                raise IllegalAction(
                    RATING_RULE,
                    f"that card is already rated at box {other.box}: one rating per card "
                    "at a table (move it on the console)",
                )
        self._start(box, card, "card", round_no, named_on_console=False)

    def start_rating(self, box: int, player: str, in_play: Collection[int], round_no: int) -> None:
        """The console opens a rating at ``box``; ``player`` empty: anonymous."""
        self._verify_enabled()
        self._verify_in_play(box, in_play)
        if box in self.open:
            raise IllegalAction(
                RATING_RULE, f"box {box} is already rated (end or move its rating first)"
            )
        name = player.strip() or None
        self._start(box, name, "console", round_no, named_on_console=name is not None)

    def name_rating(self, box: int, player: str) -> None:
        """Give box ``box``'s open rating its player (an anonymous one named)."""
        self._verify_enabled()
        rating = self._rating_at(box)
        name = player.strip()
        if not name:
            raise IllegalAction(RATING_RULE, "name_rating needs the player's name or card")
        rating.player = name
        rating.named_on_console = True
        self._out.append(RatingNamed(rating.rating, box, name, self._who))

    def end_rating(self, box: int) -> None:
        """The dealer ends box ``box``'s rating."""
        self._verify_enabled()
        self._end(self._rating_at(box), "dealer")

    def move_rating(self, box: int, to_box: int, in_play: Collection[int], round_no: int) -> None:
        """The player at ``box`` moved to ``to_box``: one rating ends, another begins."""
        self._verify_enabled()
        rating = self._rating_at(box)
        self._verify_in_play(to_box, in_play)
        if to_box in self.open:
            raise IllegalAction(RATING_RULE, f"box {to_box} is already rated")
        self._end(rating, "moved")
        moved = self._start(to_box, rating.player, rating.source, round_no, rating.named_on_console)
        self._out.append(RatingMoved(rating.rating, box, moved.rating, to_box))

    def adjust_average_bet(self, who: str, box: int, average_bet: int, reason: str) -> None:
        """A supervisor's average bet for box ``box``'s rating, with the reason; the
        measured figure is kept beside it."""
        self._verify_enabled()
        rating = self._rating_at(box)
        if type(average_bet) is not int or average_bet < 0:
            raise IllegalAction(
                RATING_RULE, "the average bet is a whole number of chips, 0 or more"
            )
        if not reason.strip():
            raise IllegalAction(RATING_RULE, "an adjusted average bet needs the reason")
        rating.adjusted = average_bet
        self._out.append(
            RatingAdjusted(
                rating.rating, box, average_bet, rating.measured_average_bet, who, reason.strip()
            )
        )

    def close(self) -> None:
        """The table closes: every open rating ends."""
        for rating in list(self.open.values()):
            self._end(rating, "closed")

    def _start(
        self, box: int, player: str | None, source: str, round_no: int, named_on_console: bool
    ) -> _Open:
        self.started += 1
        rating = _Open(
            f"r{self.started}", box, player, source, self._now, round_no, named_on_console
        )
        self.open[box] = rating
        self._out.append(RatingStarted(rating.rating, box, player, source, self._now, round_no))
        return rating

    # --- rounds ----------------------------------------------------------------------------

    def round_ended(self, figures: RoundFigures) -> None:
        """A round ended at the time told (`at`): each open rating counts it if its box
        wagered (its time: from the last round's end, or the rating's start if later, to
        now), or counts an empty round (after `RatingSettings.empty_rounds` in a row the
        rating ends). A void round counts for nobody."""
        now = self._now
        for rating in list(self.open.values()):
            if figures.void:
                continue
            played = figures.boxes.get(rating.box)
            if played is None or not any(played.wagers.values()):
                rating.empty += 1
                if rating.empty >= self.settings.empty_rounds:
                    self._end(rating, "empty")
                continue
            rating.empty = 0
            since = rating.start
            if self._last_round_end is not None and _parse(self._last_round_end) > _parse(since):
                since = self._last_round_end
            self._count(
                rating, figures.round, played, max(0, (_parse(now) - _parse(since)) // _MICROS)
            )
        self._last_round_end = now

    def _count(self, rating: _Open, round_no: int, played: BoxRound, micros: int) -> None:
        wagers = {bet: amount for bet, amount in played.wagers.items() if amount}
        rating.rounds += 1
        for bet, amount in wagers.items():
            rating.handle_by_bet[bet] = rating.handle_by_bet.get(bet, 0) + amount
        rating.largest_bet = max(rating.largest_bet, sum(wagers.values()))
        rating.result_hundredths += played.result_hundredths
        if played.charged is not None:
            rating.theo += played.charged
        else:
            rating.theo += sum(
                (amount * self.edges[bet] for bet, amount in wagers.items()), Fraction(0)
            )
        departures: int | None = None
        if self.decision_cost is not None:
            departures = 0
            for decision in played.decisions:
                cost = self.decision_cost(decision)
                if cost is not None:
                    departures += 1
                    rating.cost += cost
            rating.departures += departures
        rating.micros += micros
        seconds = rating.micros // 1_000_000 - rating.told_seconds
        win_loss = half_up(Fraction(rating.result_hundredths, 100)) - rating.told_win_loss
        theo = half_up(rating.theo * 100) - rating.told_theo
        rating.told_seconds += seconds
        rating.told_win_loss += win_loss
        rating.told_theo += theo
        self._out.append(
            RatingRound(
                rating.rating, rating.box, round_no, wagers, win_loss, theo, departures, seconds
            )
        )

    def _end(self, rating: _Open, reason: str) -> None:
        del self.open[rating.box]
        seconds = rating.micros // 1_000_000
        measured = rating.measured_average_bet
        judged = self.decision_cost is not None
        self._out.append(
            RatingEnded(
                rating=rating.rating,
                box=rating.box,
                player=rating.player,
                reason=reason,
                start=rating.start,
                end=self._now,
                seconds=seconds,
                rounds=rating.rounds,
                handle=rating.handle,
                handle_by_bet=dict(sorted(rating.handle_by_bet.items())),
                average_bet=measured if rating.adjusted is None else rating.adjusted,
                measured_average_bet=measured,
                adjusted=rating.adjusted is not None,
                largest_bet=rating.largest_bet,
                win_loss=half_up(Fraction(rating.result_hundredths, 100)),
                theo_hundredths=half_up(rating.theo * 100),
                skill_theo_hundredths=half_up((rating.theo + rating.cost) * 100)
                if judged
                else None,
                departures=rating.departures if judged else None,
                decisions_per_hour=rating.rounds * _HOUR // seconds if seconds else 0,
                comp_hundredths=half_up(rating.theo * 100 * self.settings.reinvestment),
                wager_source=self.wager_source,
                game=self.game,
            )
        )

    # --- what the dealer's page may see ----------------------------------------------------

    def marks(self) -> list[dict[str, Any]]:
        """The rated boxes for the game's view: a mark per box, never who the player is,
        except a name keyed on the console when ``show_names`` is set (a card's number,
        never)."""
        out: list[dict[str, Any]] = []
        for box in sorted(self.open):
            rating = self.open[box]
            mark: dict[str, Any] = {"box": box, "anonymous": rating.player is None}
            if self.settings.show_names and rating.named_on_console and rating.player:
                mark["name"] = rating.player
            out.append(mark)
        return out
