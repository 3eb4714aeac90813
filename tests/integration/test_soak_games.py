"""The soak beyond blackjack (tools/soak.py ``--game``): a few seconds of baccarat
(and of poker) through the injected faults end with nothing lost, nothing doubled and
every round balanced; the checks read the game's round-end record through its spec and
do fail a run whose rounds do not balance or whose shoe sent a card the journal lacks; a
game the soak cannot play is refused in one line saying why."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.errors import ConfigError
from controller.game import registry
from tools.soak import Rates, main, report, run_soak
from tools.soak_checks import Observed, figures, unbalanced
from tools.soak_games import soak_game

# Raised so that a few seconds see cards out of order, an unknown tag and a doctored shoe
# (baccarat starts with a shuffle), while still dealing a few coups.
BUSY = Rates(out_of_order=0.05, unknown_tag=0.02, kill=0.01, foreign_shoe=1.0)


@pytest.mark.timeout(60)
def test_a_short_baccarat_soak_loses_nothing_and_every_coup_balances(tmp_path: Path) -> None:
    result = run_soak(5.0, seed=20261202, rates=BUSY, folder=tmp_path, game="baccarat")
    text = report(result)
    assert result.game == "baccarat" and text.startswith("soak (baccarat): 5 s"), text
    assert result.rounds_played > 0, text  # CoupSettled rows (the spec's round_end)
    assert result.shoe_messages_sent > 4 * result.rounds_played, text  # 4+ cards a coup
    assert result.events_lost == 0 and result.events_duplicated == 0, text
    assert result.rounds_unbalanced == 0 and result.controller_faults == 0, text
    assert result.unaccounted == [], text
    assert "(a 9th As;" in text  # 8 decks: the doctored shoe's extra ace is the ninth
    assert result.ok and text.endswith("RESULT: PASS"), text

    # The same journal, checked with a wrong account of it, must fail: the checks are real.
    game = soak_game("baccarat")
    seen = Observed(
        Counter(result.faults),
        foreign_dealt=result.foreign_cards_dealt,
        shoe_sent=result.shoe_messages_sent,
    )
    journal = tmp_path / "journal.sqlite"
    again = figures(journal, game, seen, result.seconds, result.seed)
    assert (again.rounds_played, again.rounds_unbalanced) == (result.rounds_played, 0)
    one_chip_short = dataclasses.replace(
        game, profile=dataclasses.replace(game.profile, paid_out=lambda p: p["paid_out"] + 1)
    )
    short = figures(journal, one_chip_short, seen, result.seconds, result.seed)
    assert short.rounds_unbalanced == result.rounds_played and not short.ok
    assert "RESULT: FAIL" in report(short)
    one_more_card = dataclasses.replace(seen, shoe_sent=seen.shoe_sent + 1)
    lost = figures(journal, game, one_more_card, result.seconds, result.seed)
    assert lost.events_lost == 1 and not lost.ok


def coup(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {"coup": 7, "winner": "banker", "wagers_in": 60,
                               "paid_out": 50, "house_result": 10, "commission": 125}  # fmt: skip
    return {**base, **fields}


def test_a_coup_balances_when_chips_in_are_chips_out_plus_the_house() -> None:
    """Money balances (docs/architecture.md): chips in = chips out + house result, read from
    CoupSettled by the spec's settlement figures (drop = wagers_in, win = house_result)."""
    game = soak_game("baccarat")
    assert unbalanced(game, coup()) is None
    assert unbalanced(game, coup(house_result=-20, paid_out=80)) is None  # the players won
    assert unbalanced(game, coup(paid_out=49)) == "60 in but 49 paid out and 10 to the house"
    # a void coup hands every wager back, checked by the same fields
    assert unbalanced(game, coup(winner=None, void=True, paid_out=60, house_result=0)) is None
    wrong_void = unbalanced(game, coup(winner=None, void=True, paid_out=55, house_result=0))
    assert wrong_void == "60 in but 55 paid out and 0 to the house"
    assert "not whole chips" in str(unbalanced(game, coup(paid_out=49.5)))


def test_rule_11_4_d_a_poker_hand_balances_by_its_pots_returns_and_rake() -> None:
    """Poker's HandSettled: chips in = pots awarded (11.4(d)) + uncalled bets returned +
    rake (the spec's figures: drop = chips_in, win = rake)."""
    game = soak_game("poker")
    hand = {"hand": 3, "chips_in": 24, "rake": 1, "void": False,
            "awards": [{"pot": 0, "amount": 20}], "returned": [[2, 3]]}  # fmt: skip
    assert unbalanced(game, hand) is None
    assert unbalanced(game, {**hand, "rake": 2}) == "24 in but 23 paid out and 2 to the house"
    assert unbalanced(game, {**hand, "returned": []}) == "24 in but 20 paid out and 1 to the house"


@pytest.fixture
def toy_games() -> Iterator[None]:
    base = registry.spec("baccarat")
    registry.register(dataclasses.replace(base, name="soak-no-dealer", sim_dealer=None))
    registry.register(
        dataclasses.replace(
            base, name="soak-no-profile", sim_dealer="sim_hardware.remote:ConsoleClient"
        )
    )
    registry.register(dataclasses.replace(base, name="soak-no-money", settlement_figures=None))
    yield
    for name in ("soak-no-dealer", "soak-no-profile", "soak-no-money"):
        registry.unregister(name)


@pytest.mark.usefixtures("toy_games")
def test_a_game_the_soak_cannot_play_is_refused_saying_why() -> None:
    with pytest.raises(ConfigError, match=r"unknown game 'nosuch'.*baccarat"):
        soak_game("nosuch")
    with pytest.raises(ConfigError, match="names no scripted dealer"):
        soak_game("soak-no-dealer")
    with pytest.raises(ConfigError, match=r"ConsoleClient has no soak_profile\(\)"):
        soak_game("soak-no-profile")
    with pytest.raises(ConfigError, match="could not check that every round balances"):
        soak_game("soak-no-money")


def test_the_command_line_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--game", "nosuch", "--seconds", "1"])
    assert exited.value.code == 2
    assert "invalid choice: 'nosuch'" in capsys.readouterr().err


@pytest.mark.timeout(90)
def test_a_short_poker_soak_loses_nothing_and_every_hand_balances(tmp_path: Path) -> None:
    """Poker soaks too (PokerDealer.soak_profile): HandSettled rows, one deck a hand."""
    result = run_soak(10.0, seed=20261203, folder=tmp_path, game="poker")
    text = report(result)
    assert result.game == "poker" and result.rounds_played > 0, text
    assert result.events_lost == 0 and result.events_duplicated == 0, text
    assert result.rounds_unbalanced == 0 and result.unaccounted == [], text
    assert "(a 2nd As;" in text and result.ok, text
