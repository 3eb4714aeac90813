"""`tablectl simulate GAME` comes from the registry: one sub-command per game
whose spec names a simulator, none named in controller/app/cli/simulate.py, and the built-in
games' flags and outputs as they were.

This module is itself a simulator (``HELP``, `add_arguments`, `run`) for a toy spec the
tests register, the way a new game's folder would hold one.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import game as games
from controller.app import cli
from controller.app.cli import simulate as app_simulate
from controller.blackjack.simulate import simulate as play_blackjack
from controller.errors import RuleError
from controller.game.arguments import at_least
from controller.poker.simulate import simulate as play_poker

HELP = "a coin flipped, for the test"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--flips", type=at_least(1), default=3)


@dataclasses.dataclass
class Flips:
    flips: int

    def as_dict(self) -> dict[str, Any]:
        return {"game": "coin", "flips": self.flips}

    def report(self) -> str:
        return f"coin: {self.flips} flips"


def run(args: argparse.Namespace) -> Flips:
    if args.flips > 100:
        raise RuleError("at most 100 flips (rule 0.0 of the coin)")
    return Flips(args.flips)


@pytest.fixture
def coin() -> Iterator[str]:
    """A game registered with this module as its simulator (its other parts borrowed)."""
    spec = dataclasses.replace(games.spec("blackjack"), name="coin", simulator=__name__)
    games.register(spec)
    try:
        yield "coin"
    finally:
        games.unregister("coin")


def tablectl(*argv: str) -> tuple[int, str]:
    """`tablectl` in-process: the exit code and what it printed."""
    args = cli.build_parser().parse_args(argv)
    out = io.StringIO()
    return app_simulate.run(args, out=out), out.getvalue()


def test_a_registered_game_with_a_simulator_gets_its_subcommand(coin: str) -> None:
    code, text = tablectl("simulate", coin, "--flips", "7", "--json")
    assert code == 0 and json.loads(text) == {"game": "coin", "flips": 7}
    code, text = tablectl("simulate", coin)
    assert code == 0 and text.strip() == "coin: 3 flips"


def test_a_simulators_refusal_is_one_line_naming_the_game(
    coin: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = tablectl("simulate", coin, "--flips", "101")
    assert code == 2 and text == ""
    assert capsys.readouterr().err.strip() == (
        "tablectl simulate coin: at most 100 flips (rule 0.0 of the coin)"
    )


def test_a_game_without_a_simulator_has_no_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    games.register(dataclasses.replace(games.spec("blackjack"), name="nosim", simulator=None))
    try:
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args(["simulate", "nosim"])
        assert "invalid choice: 'nosim'" in capsys.readouterr().err
    finally:
        games.unregister("nosim")


def test_a_simulator_missing_its_parts_is_named_when_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    games.register(dataclasses.replace(games.spec("blackjack"), name="bad", simulator="json"))
    try:
        code, _ = tablectl("simulate", "bad")
        err = capsys.readouterr().err.strip()
        assert code == 2
        assert err == (
            "tablectl simulate bad: the game 'bad': its simulator json lacks HELP, "
            "add_arguments, run"
        )
        assert cli.main(["simulate", "blackjack", "--rounds", "2", "--json"]) == 0  # the others
    finally:
        games.unregister("bad")


def test_blackjack_flags_and_json_as_before() -> None:
    code, text = tablectl(
        "simulate", "blackjack", "--rounds", "40", "--seed", "3", "--decks", "8", "--boxes", "2",
        "--json",
    )  # fmt: skip
    got = json.loads(text)
    want = play_blackjack(40, 3, decks=8, boxes=2).as_dict()
    assert code == 0 and got.keys() == want.keys()
    timing = {"seconds", "rounds_per_second"}
    assert {k: v for k, v in got.items() if k not in timing} == {
        k: v for k, v in want.items() if k not in timing
    }
    assert got["game"] == "blackjack" and got["decks"] == 8 and got["boxes"] == 2


def test_poker_flags_and_report_as_before() -> None:
    code, text = tablectl("simulate", "poker", "--hands", "30", "--seed", "5", "--players", "4")
    lines = text.splitlines()
    want = play_poker(30, 5, players=4).report().splitlines()
    assert code == 0 and lines[0] == want[0] == "draw poker: 30 hands, 4 players, seed 5"
    assert lines[2:] == want[2:]  # all but the timing line


def test_the_app_names_no_game_in_simulate() -> None:
    """controller/app/cli/simulate.py reads the registry; no built-in game's name is in it."""
    text = Path(app_simulate.__file__).read_text(encoding="utf-8")
    for name in games.names():
        assert f'"{name}"' not in text and f"'{name}'" not in text and f".{name}." not in text
