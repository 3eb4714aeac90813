"""The rating book on hand-worked examples: every figure, every ending, every refusal
(docs/ratings.md). Times are told to the book as the loop tells them (`RatingBook.at`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from controller.errors import IllegalAction
from controller.rating import (
    BoxRound,
    Decision,
    RatingAdjusted,
    RatingBook,
    RatingEnded,
    RatingMoved,
    RatingNamed,
    RatingRound,
    RatingSettings,
    RatingStarted,
    RoundFigures,
    half_up,
)

BOXES = range(1, 8)
EDGES = {"a": Fraction(1, 50), "b": Fraction(1, 8)}
SETTINGS = RatingSettings(enabled=True, empty_rounds=2, reinvestment=Fraction(1, 4))
CARD = "12345678"


def book(**changes: Any) -> RatingBook:
    settings = RatingSettings(**{**SETTINGS.__dict__, **changes})
    return RatingBook("testgame", EDGES, "console", settings)


def t(clock: str) -> str:
    return f"2026-01-01T{clock}+00:00"


def of(kind: type, out: list[Any]) -> list[Any]:
    return [o for o in out if isinstance(o, kind)]


def round_(number: int, **boxes: tuple[dict[str, int], int]) -> RoundFigures:
    """A round's figures: ``b3=({"a": 100}, -10000)`` is box 3's wagers and result."""
    return RoundFigures(
        number,
        {int(k[1:]): BoxRound(int(k[1:]), wagers, result) for k, (wagers, result) in boxes.items()},
    )


def test_every_figure_of_a_hand_worked_rating() -> None:
    """Round 1: 100 on a, 10 on b, lost 110 in 30 s. Round 2: sat out (no time). Round 3:
    50 on a, won 50.50 in 40.2 s. Theo 100/50 + 10/8 + 50/50 = 4.25 chips; comp a quarter
    of it, 1.0625 -> 106 hundredths; result -59.50 -> -59 (half up); 70.2 s -> 70."""
    ratings = book()
    ratings.at(t("10:00:00"), "d07")
    ratings.start_rating(3, "", BOXES, 1)
    (started,) = ratings.take_outputs()
    assert started == RatingStarted("r1", 3, None, "console", t("10:00:00"), 1)
    ratings.at(t("10:00:30"))
    ratings.round_ended(round_(1, b3=({"a": 100, "b": 10}, -11000)))
    ratings.at(t("10:01:10.500000"))
    ratings.round_ended(round_(2))
    ratings.at(t("10:01:50.700000"))
    ratings.round_ended(round_(3, b3=({"a": 50}, 5050)))
    first, second = ratings.take_outputs()
    assert first == RatingRound("r1", 3, 1, {"a": 100, "b": 10}, -110, 325, None, 30)
    assert second == RatingRound("r1", 3, 3, {"a": 50}, 51, 100, None, 40)
    ratings.at(t("10:01:55"), "d07")
    ratings.name_rating(3, "Jane Roe")
    ratings.adjust_average_bet("s01", 3, 90, "watched the box: 90 a hand")
    ratings.at(t("10:02:00"), "d07")
    ratings.end_rating(3)
    named, adjusted, ended = ratings.take_outputs()
    assert named == RatingNamed("r1", 3, "Jane Roe", "d07")
    assert adjusted == RatingAdjusted("r1", 3, 90, 80, "s01", "watched the box: 90 a hand")
    assert ended == RatingEnded(
        rating="r1",
        box=3,
        player="Jane Roe",
        reason="dealer",
        start=t("10:00:00"),
        end=t("10:02:00"),
        seconds=70,
        rounds=2,
        handle=160,
        handle_by_bet={"a": 150, "b": 10},
        average_bet=90,
        measured_average_bet=80,
        adjusted=True,
        largest_bet=110,
        win_loss=-59,
        theo_hundredths=425,
        skill_theo_hundredths=None,
        departures=None,
        decisions_per_hour=2 * 3600 // 70,
        comp_hundredths=106,
        wager_source="console",
        game="testgame",
    )
    # the rounds' rows add up to the end's figures exactly
    assert first.seconds + second.seconds == ended.seconds
    assert first.win_loss + second.win_loss == ended.win_loss
    assert first.theo_hundredths + second.theo_hundredths == ended.theo_hundredths


def test_half_up_rounds_a_half_towards_plus_infinity() -> None:
    assert [half_up(Fraction(n, 2)) for n in (-3, -1, 1, 3, 5)] == [-1, 0, 1, 2, 3]
    assert half_up(Fraction(-5951, 100)) == -60


def test_a_card_tapped_again_ends_its_rating() -> None:
    ratings = book()
    ratings.at(t("10:00:00"))
    ratings.card_presented(2, CARD, "reader2", BOXES, 4)
    ratings.at(t("10:05:00"))
    ratings.card_presented(2, CARD, "reader2", BOXES, 4)
    started, ended = ratings.take_outputs()
    assert started == RatingStarted("r1", 2, CARD, "card", t("10:00:00"), 4)
    assert (ended.reason, ended.player, ended.end, ended.rounds) == ("card", CARD, t("10:05:00"), 0)
    assert not ratings.open


def test_a_box_empty_for_the_configured_rounds_ends_its_rating() -> None:
    ratings = book(empty_rounds=2)
    ratings.at(t("10:00:00"))
    ratings.start_rating(1, "", BOXES, 1)
    ratings.at(t("10:01:00"))
    ratings.round_ended(round_(1))  # one empty round: still open
    assert 1 in ratings.open
    ratings.at(t("10:02:00"))
    ratings.round_ended(round_(2, b1=({"a": 10}, 1000)))  # played: the count starts again
    ratings.at(t("10:03:00"))
    ratings.round_ended(round_(3))
    assert 1 in ratings.open
    ratings.at(t("10:04:00"))
    ratings.round_ended(round_(4))
    (ended,) = of(RatingEnded, ratings.take_outputs())
    assert (ended.reason, ended.end, ended.rounds, ended.seconds) == ("empty", t("10:04:00"), 1, 60)
    assert not ratings.open


def test_a_void_round_counts_for_nobody() -> None:
    ratings = book(empty_rounds=1)
    ratings.at(t("10:00:00"))
    ratings.start_rating(1, "", BOXES, 1)
    ratings.take_outputs()
    ratings.at(t("10:01:00"))
    ratings.round_ended(RoundFigures(1, {}, void=True))
    assert ratings.take_outputs() == [] and 1 in ratings.open


def test_the_table_closing_ends_every_rating() -> None:
    ratings = book()
    ratings.at(t("10:00:00"))
    ratings.start_rating(1, "", BOXES, 1)
    ratings.card_presented(5, CARD, "reader5", BOXES, 1)
    ratings.at(t("11:00:00"))
    ratings.close()
    ended = of(RatingEnded, ratings.take_outputs())
    assert [(e.box, e.reason, e.end) for e in ended] == [
        (1, "closed", t("11:00:00")),
        (5, "closed", t("11:00:00")),
    ]


def test_a_move_ends_one_rating_and_starts_another_for_the_same_player() -> None:
    ratings = book()
    ratings.at(t("10:00:00"))
    ratings.card_presented(2, CARD, "reader2", BOXES, 1)
    ratings.at(t("10:01:00"))
    ratings.round_ended(round_(1, b2=({"a": 20}, 2000)))
    ratings.take_outputs()
    ratings.at(t("10:02:00"))
    ratings.move_rating(2, 6, BOXES, 2)
    ended, started, moved = ratings.take_outputs()
    assert (ended.rating, ended.reason, ended.rounds, ended.handle) == ("r1", "moved", 1, 20)
    assert started == RatingStarted("r2", 6, CARD, "card", t("10:02:00"), 2)
    assert moved == RatingMoved("r1", 2, "r2", 6)
    assert set(ratings.open) == {6}
    ratings.card_presented(6, CARD, "reader6", BOXES, 2)  # the card ends it where it is now
    assert of(RatingEnded, ratings.take_outputs())[0].reason == "card"


def test_anonymous_then_named() -> None:
    ratings = book()
    ratings.at(t("10:00:00"), "d07")
    ratings.start_rating(4, "  ", BOXES, 1)
    ratings.name_rating(4, "Player 88")
    ratings.end_rating(4)
    started, named, ended = ratings.take_outputs()
    assert started.player is None and started.source == "console"
    assert named == RatingNamed("r1", 4, "Player 88", "d07")
    assert ended.player == "Player 88"


def test_two_cards_at_one_box_are_refused_and_the_rating_goes_on() -> None:
    ratings = book()
    ratings.card_presented(2, CARD, "reader2", BOXES, 1)
    with pytest.raises(IllegalAction, match="two cards at one box: box 2 is already rated"):
        ratings.card_presented(2, "87654321", "reader2", BOXES, 1)
    assert ratings.open[2].player == CARD


def test_a_card_at_a_box_not_in_play_is_refused() -> None:
    ratings = book()
    with pytest.raises(IllegalAction, match="box 9 is not in play"):
        ratings.card_presented(9, CARD, "reader9", BOXES, 1)
    assert not ratings.open and ratings.take_outputs() == []


def test_an_unknown_card_format_is_refused_without_quoting_the_card() -> None:
    ratings = book(card_pattern="[0-9]{8}")
    with pytest.raises(IllegalAction) as refused:
        ratings.card_presented(2, "ABC-99", "reader2", BOXES, 1)
    message = str(refused.value)
    assert "not a player card of this casino's format ([rating] card_pattern)" in message
    assert "reader2" in message and "ABC-99" not in message
    assert not ratings.open


def test_one_card_is_rated_at_one_box_at_a_time() -> None:
    ratings = book()
    ratings.card_presented(2, CARD, "reader2", BOXES, 1)
    with pytest.raises(IllegalAction, match="already rated at box 2"):
        ratings.card_presented(3, CARD, "reader3", BOXES, 1)


def test_ratings_off_refuse_everything() -> None:
    ratings = book(enabled=False)
    with pytest.raises(IllegalAction, match="player ratings are off"):
        ratings.start_rating(1, "", BOXES, 1)
    with pytest.raises(IllegalAction, match="player ratings are off"):
        ratings.card_presented(1, CARD, "reader1", BOXES, 1)


def test_an_adjustment_needs_a_reason_and_a_rating() -> None:
    ratings = book()
    with pytest.raises(IllegalAction, match="box 1 has no rating open"):
        ratings.adjust_average_bet("s01", 1, 50, "why")
    ratings.start_rating(1, "", BOXES, 1)
    with pytest.raises(IllegalAction, match="needs the reason"):
        ratings.adjust_average_bet("s01", 1, 50, " ")
    with pytest.raises(IllegalAction, match="whole number"):
        ratings.adjust_average_bet("s01", 1, -5, "why")


def test_a_move_to_a_rated_box_or_off_the_table_is_refused() -> None:
    ratings = book()
    ratings.start_rating(1, "", BOXES, 1)
    ratings.start_rating(2, "", BOXES, 1)
    with pytest.raises(IllegalAction, match="box 2 is already rated"):
        ratings.move_rating(1, 2, BOXES, 1)
    with pytest.raises(IllegalAction, match="box 8 is not in play"):
        ratings.move_rating(1, 8, BOXES, 1)
    assert set(ratings.open) == {1, 2}


def test_departures_and_the_skill_adjusted_theo_from_the_decision_cost() -> None:
    """A hit costs a tenth of the stake (this test's judge); a stand costs nothing."""

    def cost(decision: Decision) -> Fraction | None:
        return Fraction(decision.stake, 10) if decision.play == "hit" else None

    ratings = RatingBook("blackjack", {"main": Fraction(1, 200)}, "chips", SETTINGS, cost)
    ratings.at(t("10:00:00"))
    ratings.start_rating(1, "", BOXES, 1)
    hit = Decision(1, 1, "hit", (), None, 40)
    stand = Decision(1, 1, "stand", (), None, 40)
    ratings.at(t("10:01:00"))
    ratings.round_ended(
        RoundFigures(1, {1: BoxRound(1, {"main": 40}, -4000, decisions=(hit, hit, stand))})
    )
    ratings.end_rating(1)
    _, played, ended = ratings.take_outputs()
    assert played.departures == 2
    # theo 40 / 200 = 0.20; skill theo adds 2 x 4 = 8 chips
    assert (ended.theo_hundredths, ended.skill_theo_hundredths) == (20, 820)
    assert ended.departures == 2 and ended.wager_source == "chips"


def test_a_seats_charge_is_its_theo() -> None:
    """Poker's seat pays the rake: its theo is what it paid, not an edge."""
    ratings = book()
    ratings.start_rating(1, "", BOXES, 1)
    ratings.round_ended(RoundFigures(1, {1: BoxRound(1, {"pot": 30}, 4500, charged=3)}))
    ratings.end_rating(1)
    ended = of(RatingEnded, ratings.take_outputs())[0]
    assert (ended.theo_hundredths, ended.win_loss, ended.handle) == (300, 45, 30)
