"""Baccarat is the proof of the game kernel: a folder and one registry entry. The app names
no game, the registry finds it, its spec's console and decisions reach the table through
`handle`, and its view carries the hands, the bets, the results and the roads."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from controller import game as games
from controller.baccarat.game import SPEC, BaccaratGame
from controller.baccarat.rules import BaccaratRules
from controller.cards import Card
from controller.errors import ConfigError, IllegalAction
from controller.game.contract import Game
from controller.game.registry import BUILTIN
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleAction,
    ConsoleButton,
    SupervisorAction,
)
from tests.support.baccarat import initial

ROOT = Path(__file__).resolve().parents[3]


def _code_names(path: Path) -> list[str]:
    """The imports and string constants of a module, its docstrings left out (prose may
    mention a game; code may not)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                names.append(node.value)
        elif isinstance(node, ast.Name | ast.Attribute):
            names.append(node.id if isinstance(node, ast.Name) else node.attr)
    return names


def test_the_app_names_no_baccarat() -> None:
    named = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "controller" / "app").rglob("*.py")
        if any("baccarat" in name.lower() for name in _code_names(path))
    ]
    assert named == []


def test_one_registry_entry_finds_it() -> None:
    assert BUILTIN["baccarat"] == "controller.baccarat.game:SPEC"
    assert games.spec("baccarat") is SPEC and "baccarat" in games.names()
    assert SPEC.simulator == "controller.baccarat.simulate"


def play(game: Game, *events: object) -> list[object]:
    out: list[object] = []
    for event in events:
        out += game.handle(event)  # type: ignore[arg-type]
    return out


def console(action: str, **args: object) -> ConsoleAction:
    return ConsoleAction(source="console", action=action, args=args)


def test_a_coup_through_the_games_handle_and_its_view() -> None:
    game = SPEC.make(BaccaratRules(burn_by_first_card=False))
    assert isinstance(game, BaccaratGame)
    play(game, console("shuffled"), console("place_wager", box=2, bet="banker", amount=20))
    play(game, ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS))
    view = game.view()
    assert view["next_action"].startswith("Player's first card")
    assert view["boxes"][0]["bets"] == {"banker": 20}
    cards = initial(4, 5)
    play(game, *(CardDrawn(source="shoe", card=c) for c in cards))
    view = game.view()
    assert view["player"]["due"] and view["player"]["total"] == 4
    play(game, CardDrawn(source="shoe", card=Card.parse("5c")))  # Player's third: 5 -> 9
    view = game.view()
    assert view["next_action"] == "Banker draws: 5 against the Player's third card 5 " \
        "(Table of Play)"  # fmt: skip
    play(game, CardDrawn(source="shoe", card=Card.parse("Kc")))
    view = game.view()
    assert view["state"] == "settlement" and view["result"]["winner"] == "player"
    assert view["results"] == [{k: v for k, v in view["result"].items() if k != "coup"}]
    assert view["roads"]["big_road"]["columns"] == 1
    assert view["renderer"] == "baccarat" and view["round_word"] == "coup"
    # the HOLD's decisions, and the supervisor's shuffle between coups (no commission owed)
    offered = {d["decision"] for d in view["decisions"]}
    assert offered == {"burn_card", "void_hand", "order_shuffle"}
    json.dumps(view)  # plain JSON for the page and the pit


def test_supervisor_decisions_reach_the_table() -> None:
    game = SPEC.make(BaccaratRules(burn_by_first_card=False))
    play(game, console("shuffled"), CardDrawn(source="shoe", card=Card.parse("2s")))
    view = game.view()
    assert view["state"] == "hold"
    # the view's HOLD names the rule and what broke it, as the other games' do
    held = view["hold"]
    assert (held["rule"], held["card"], held["state"], held["held_from"]) == (
        view["violations"][0]["rule"],
        "2s",
        "betting",
        "betting",
    )
    assert held["message"] == view["violations"][0]["message"] and held["message"]
    play(game, SupervisorAction(source="pit", who="s01", decision="burn_card"))
    assert game.view()["state"] == "betting"


def test_the_console_reaches_nothing_else() -> None:
    game = SPEC.make(BaccaratRules())
    with pytest.raises(ConfigError, match="no action 'violate'"):
        game.handle(console("violate", rule="x", message="y"))
    with pytest.raises(IllegalAction):
        game.handle(console("place_wager", box=1, bet="banker", amount=10))  # shuffle first


def test_the_example_config_is_a_baccarat_table() -> None:
    from controller.app.config import load_config

    config = load_config(ROOT / "examples" / "baccarat-table.toml")
    assert config.game == "baccarat"
    assert config.rules == BaccaratRules(minimum_wager=10, maximum_wager=1000, chip_unit=5)


def test_every_state_has_the_floors_words() -> None:
    from controller.baccarat.phases import STATES

    assert set(SPEC.state_words) == set(STATES)


def test_a_table_survives_pickling_mid_coup() -> None:
    """The app's snapshots pickle the game; a coup half dealt goes on after loading."""
    import pickle

    game = SPEC.make(BaccaratRules(burn_by_first_card=False))
    play(game, console("shuffled"), console("place_wager", box=1, bet="tie", amount=10))
    play(game, ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS))
    play(game, *(CardDrawn(source="shoe", card=c) for c in initial(6, 6)[:2]))
    again = pickle.loads(pickle.dumps(game))
    play(again, *(CardDrawn(source="shoe", card=c) for c in initial(6, 6)[2:]))
    view = again.view()
    assert view["result"]["winner"] == "tie" and view["boxes"][0]["payouts"][0]["won"] == 80
