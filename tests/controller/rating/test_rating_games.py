"""Ratings through each game's adapter (`TableGame`): the figures come from the game's own
records, the console's rating actions and a player's card reach the book, the view marks
the rated boxes and never carries who the player is (docs/ratings.md)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import pickle
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.app.console.schema import console_actions, supervisor_decisions
from controller.baccarat.edges import exact_edges
from controller.baccarat.game import BaccaratGame
from controller.baccarat.rules import BaccaratRules, Variant
from controller.blackjack.game import BlackjackGame
from controller.blackjack.rules import Variants
from controller.cards import DECK, Card
from controller.errors import IllegalAction
from controller.game.table import TableGame
from controller.poker.game import PokerGame
from controller.poker.rules import PokerRules
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleAction,
    ConsoleButton,
    Event,
    PlayerCardPresented,
    SupervisorAction,
    TableClosed,
)
from controller.rating import Decision, RatingEnded, RatingRound, RatingSettings, half_up
from tests.support.baccarat import initial

ON = RatingSettings(enabled=True, reinvestment=Fraction(1, 10), blackjack_edge=Fraction(1, 200))
CARD = "40001234"


def t(clock: str) -> str:
    return f"2026-01-01T{clock}+00:00"


def play(game: TableGame, wall: str, *events: Event) -> list[Any]:
    out: list[Any] = []
    for event in events:
        game.at(wall, "d07")
        out += game.handle(event)
    return out


def console(action: str, **args: Any) -> ConsoleAction:
    return ConsoleAction(source="console", action=action, args=args)


def of(kind: type, out: list[Any]) -> list[Any]:
    return [o for o in out if isinstance(o, kind)]


def baccarat(**rules: Any) -> BaccaratGame:
    game = BaccaratGame(BaccaratRules(burn_by_first_card=False, **rules))
    game.rate(ON)
    return game


def coup(game: BaccaratGame, wall: str, wagers: dict[str, int], cards: list[Card]) -> list[Any]:
    out = [
        *play(
            game, wall, *(console("place_wager", box=2, bet=b, amount=a) for b, a in wagers.items())
        ),
        *play(game, wall, ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS)),
    ]
    return out + play(game, wall, *(CardDrawn(source="shoe", card=c) for c in cards))


def test_baccarat_exact_edges_are_the_published_figures() -> None:
    edges = exact_edges(BaccaratRules())
    published = {"banker": 0.010579, "player": 0.012351, "tie": 0.143596}
    for bet, figure in published.items():
        assert float(edges[bet]) == pytest.approx(figure, abs=6e-7)
    assert edges["player_pair"] == edges["banker_pair"] == Fraction(43, 415)  # 1 - 12 x 31/415
    no_commission = exact_edges(BaccaratRules(variant=Variant.NO_COMMISSION))
    assert float(no_commission["banker"]) == pytest.approx(0.014581, abs=6e-7)
    assert no_commission["player"] == edges["player"]


def test_baccarat_figures_by_hand_with_the_commission_on_the_box() -> None:
    """Coup 1: banker 100 and tie 10 on box 2; the Banker's natural 9 beats 8: won 100
    less 5 commission, the tie's 10 lost: +85. Coup 2: banker 100; the Player's 9 wins:
    -100. Handle 210, theo 200 x banker edge + 10 x tie edge, rounded once."""
    game = baccarat()
    play(game, t("10:00:00"), console("shuffled"), console("start_rating", box=2, player=""))
    first = coup(game, t("10:00:40"), {"banker": 100, "tie": 10}, initial(8, 9))
    play(game, t("10:00:45"), ButtonPressed(source="console", button=ConsoleButton.NEXT))
    second = coup(game, t("10:01:20"), {"banker": 100}, initial(9, 8))
    (one,) = of(RatingRound, first)
    (two,) = of(RatingRound, second)
    assert (one.wagers, one.win_loss, one.seconds) == ({"banker": 100, "tie": 10}, 85, 40)
    assert (two.wagers, two.win_loss, two.seconds) == ({"banker": 100}, -100, 40)
    ended = of(RatingEnded, play(game, t("10:02:00"), console("end_rating", box=2)))[0]
    edges = exact_edges(BaccaratRules(burn_by_first_card=False))
    theo = 200 * edges["banker"] + 10 * edges["tie"]  # 2.1158... + 1.4359... chips
    assert ended.theo_hundredths == half_up(theo * 100) == 355
    assert ended.comp_hundredths == half_up(theo * 100 / 10) == 36
    assert (ended.handle, ended.rounds, ended.average_bet, ended.largest_bet) == (210, 2, 105, 110)
    assert (ended.win_loss, ended.seconds, ended.reason) == (-15, 80, "dealer")
    assert ended.handle_by_bet == {"banker": 200, "tie": 10}
    assert (ended.wager_source, ended.game, ended.departures) == ("console", "baccarat", None)
    assert one.theo_hundredths + two.theo_hundredths == ended.theo_hundredths


def test_a_chip_reader_table_rates_the_chips() -> None:
    assert baccarat(chip_readers=True).ratings.wager_source == "chips"
    assert baccarat().ratings.wager_source == "console"


def judge(decision: Decision) -> Fraction | None:
    """This test's judge: a hit on 15 against a 7 is basic strategy; standing on 17 too;
    anything else costs a chip."""
    return None if decision.play in ("hit", "stand") else Fraction(1)


def test_blackjack_figures_and_plays_of_a_rated_box() -> None:
    """Box 2 wagers 6, hits 15 against the dealer's 7 (2c: 17) and stands; the dealer
    makes 17: a push. Theo 6 x the configured edge (0.5 %): 3 hundredths."""
    game = BlackjackGame(Variants(boxes=5))
    game.rate(ON, judge)
    wall = t("20:00:00")
    play(game, wall, console("shuffled"), CardDrawn(source="shoe", card=Card.parse("Qd")))
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NEXT))
    play(game, wall, PlayerCardPresented(source="reader2", box=2, number=CARD))
    play(game, wall, ChipsSensed(source="chips", spot="box1", total=4))
    play(game, wall, ChipsSensed(source="chips", spot="box2", total=6))
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NO_MORE_BETS))
    deal = [CardDrawn(source="shoe", card=Card.parse(c)) for c in ("Ts", "9s", "7d", "7c", "6h")]
    play(game, wall, *deal)
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NEXT))  # box 1 stands
    play(game, wall, CardDrawn(source="shoe", card=Card.parse("2c")))  # box 2 hits: 17
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NEXT))  # and stands
    plays = [(d.play, d.cards, d.up_card) for d in game._decisions[2]]
    seven = Card.parse("7d")
    assert plays == [
        ("hit", (Card.parse("9s"), Card.parse("6h")), seven),
        ("stand", (Card.parse("9s"), Card.parse("6h"), Card.parse("2c")), seven),
    ]
    out = play(game, t("20:01:00"), CardDrawn(source="shoe", card=Card.parse("Kd")))
    (played,) = of(RatingRound, out)
    assert (played.wagers, played.win_loss, played.departures, played.seconds) == (
        {"main": 6},
        0,
        0,
        60,
    )
    ended = of(RatingEnded, play(game, t("20:02:00"), TableClosed(source="controller")))[0]
    assert (ended.reason, ended.player, ended.theo_hundredths, ended.skill_theo_hundredths) == (
        "closed",
        CARD,
        3,
        3,
    )


def test_blackjack_insurance_edge_is_exact_for_the_decks() -> None:
    game = BlackjackGame(Variants(decks=6))
    game.rate(RatingSettings(enabled=True, blackjack_edge=Fraction(3, 1000)))
    assert game.ratings.edges == {
        "main": Fraction(3, 1000),
        "even_money": Fraction(3, 1000),
        "insurance": Fraction(23, 311),
    }


def test_every_game_offers_the_rating_actions_on_its_console() -> None:
    for name in ("blackjack", "baccarat", "poker"):
        actions = console_actions(name)
        assert {"start_rating", "name_rating", "end_rating", "move_rating"} <= set(actions)
        assert [p.name for p in actions["move_rating"].params] == ["box", "to_box"]
        assert not actions["start_rating"].params[1].required  # player: "" is anonymous
        adjust = supervisor_decisions(name)["adjust_average_bet"]
        assert [p.name for p in adjust.params] == ["box", "average_bet", "reason"]


def test_a_supervisor_adjusts_through_the_game_and_a_refusal_loses_nothing() -> None:
    game = baccarat()
    play(game, t("10:00:00"), console("start_rating", box=3, player="Ann"))
    adjust = SupervisorAction(
        source="pit",
        who="s01",
        decision="adjust_average_bet",
        reason="",
        args={"box": 3, "average_bet": 25},
    )
    with pytest.raises(IllegalAction, match="needs the reason"):
        play(game, t("10:00:01"), adjust)
    assert game.ratings.open[3].adjusted is None
    out = play(game, t("10:00:02"), dataclasses.replace(adjust, reason="seen"))
    assert out[0].average_bet == 25 and out[0].who == "s01"


def test_a_rated_game_survives_pickling_with_its_ratings() -> None:
    game = baccarat()
    play(game, t("10:00:00"), console("shuffled"), console("start_rating", box=1, player=""))
    again = pickle.loads(pickle.dumps(game))
    assert again.ratings.open.keys() == {1} and again.ratings.started == 1


def test_the_view_marks_the_rated_boxes_and_names_only_when_configured() -> None:
    game = baccarat()
    play(game, t("10:00:00"), PlayerCardPresented(source="r", box=1, number=CARD))
    play(game, t("10:00:00"), console("start_rating", box=4, player="Ann Lee"))
    assert game.view()["rated"] == [{"box": 1, "anonymous": False}, {"box": 4, "anonymous": False}]
    game.ratings.settings = RatingSettings(enabled=True, show_names=True)
    assert game.view()["rated"][1] == {"box": 4, "anonymous": False, "name": "Ann Lee"}
    assert CARD not in json.dumps(game.view())  # a card's number: never


def test_a_table_that_does_not_rate_keeps_its_view() -> None:
    assert "rated" not in BaccaratGame(BaccaratRules()).view()


PLAYERS = st.one_of(
    st.from_regex(r"[0-9]{10,14}", fullmatch=True),
    st.from_regex(r"Pl[a-z]{8,12}", fullmatch=True),
)
ACTIONS = st.lists(
    st.tuples(st.sampled_from(["card", "start", "name", "end", "move"]), st.integers(1, 7),
              st.integers(1, 7), PLAYERS),
    max_size=25,
)  # fmt: skip


@pytest.mark.hypothesis
@settings(max_examples=60, deadline=None)
@given(ACTIONS)
def test_the_read_only_view_never_carries_a_player_id(actions: list[Any]) -> None:
    """Random ratings opened by card or console, named, moved and ended: no player card
    number or name is anywhere in the view the dealer's page and read-only views get."""
    game = baccarat()
    seen: set[str] = set()
    for action, box, to_box, player in actions:
        seen.add(player)
        event: Event = {
            "card": PlayerCardPresented(source="r", box=box, number=player),
            "start": console("start_rating", box=box, player=player),
            "name": console("name_rating", box=box, player=player),
            "end": console("end_rating", box=box),
            "move": console("move_rating", box=box, to_box=to_box),
        }[action]
        with contextlib.suppress(IllegalAction):
            play(game, t("10:00:00"), event)
        text = json.dumps(game.view())
        assert not [p for p in seen if p in text]


def test_poker_seats_theo_is_their_share_of_the_rake() -> None:
    """Seats 1 to 3 sit with 100; seat 2 posts 1, seat 3 posts 2. Seat 1 raises to 10,
    seat 2 folds, seat 3 calls; both stand pat; seat 1 bets 10, seat 3 folds. The pots
    hold 21 (1 + 10 + 10), the rake is 10 % rounded down: 2, shared by the chips put in:
    2 x 1/21, 2 x 10/21, 2 x 10/21 chips (10, 95, 95 hundredths, half up). Seat 1 takes
    19 and its 10 back: +9."""
    game = PokerGame(PokerRules(rake_percent=10, rake_cap=100))
    game.rate(ON)
    wall = t("21:00:00")
    play(game, wall, *(console("sit", seat=s, stack=100) for s in (1, 2, 3)))
    play(game, wall, *(console("start_rating", box=s) for s in (1, 2, 3)))
    play(game, wall, console("start_hand", button=1))
    play(game, wall, *(CardDrawn(source="shoe", card=c) for c in DECK[:15]))
    play(game, wall, console("raise_", seat=1, amount=8), console("fold", seat=2))
    play(game, wall, console("call", seat=3))
    play(game, wall, console("discard", seat=3, count=0), console("discard", seat=1, count=0))
    play(game, wall, console("raise_", seat=1, amount=10))
    out = play(game, t("21:02:00"), console("fold", seat=3))
    rounds = {r.box: r for r in of(RatingRound, out)}
    assert {s: (r.wagers, r.win_loss, r.theo_hundredths) for s, r in rounds.items()} == {
        1: ({"pot": 10}, 9, 95),
        2: ({"pot": 1}, -1, 10),
        3: ({"pot": 10}, -10, 95),
    }
    assert rounds[1].seconds == 120
    with pytest.raises(IllegalAction, match="box 5 is not in play"):  # nobody sits there
        play(game, wall, console("start_rating", box=5))


def test_blackjack_rates_with_the_edge_calculator_and_judges_each_play() -> None:
    """Without ``[rating] blackjack_edge`` the main wager's edge is basic strategy's under
    the table's variants (the blackjack edge calculator), and every play of a rated box
    is judged against basic strategy: box 2 hits hard 17 against a 7 (basic strategy
    stands: a departure) and stands on 19 (basic strategy)."""
    from controller.blackjack import expectation

    variants = Variants(boxes=5)
    game = BlackjackGame(variants)
    game.rate(RatingSettings(enabled=True))
    edge = expectation.house_edge(variants).value
    assert game.ratings.edges["main"] == edge and 0 < edge < Fraction(1, 100)
    wall = t("22:00:00")
    play(game, wall, console("shuffled"), CardDrawn(source="shoe", card=Card.parse("Qd")))
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NEXT))
    play(game, wall, console("start_rating", box=2))
    play(game, wall, ChipsSensed(source="chips", spot="box2", total=6))
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NO_MORE_BETS))
    play(game, wall, *(CardDrawn(source="shoe", card=Card.parse(c)) for c in ("Ts", "7d", "7c")))
    play(game, wall, CardDrawn(source="shoe", card=Card.parse("2c")))  # hits 17: 19
    play(game, wall, ButtonPressed(source="gpio", button=ConsoleButton.NEXT))  # stands
    out = play(game, t("22:01:00"), CardDrawn(source="shoe", card=Card.parse("Kd")))
    (played,) = of(RatingRound, out)
    assert played.departures == 1 and played.win_loss == 6
    ended = of(RatingEnded, play(game, wall, console("end_rating", box=2)))[0]
    hit = expectation.decision_cost(
        variants, [Card.parse("Ts"), Card.parse("7c")], Card.parse("7d"), "hit",
        allowed=expectation.Allowed(double=False, split=False, stand=True),
    )  # fmt: skip
    assert hit.departs and hit.cost > 0
    assert ended.theo_hundredths == half_up(6 * edge * 100)
    assert ended.skill_theo_hundredths == half_up((6 * edge + 6 * hit.cost) * 100)
    assert ended.departures == 1
