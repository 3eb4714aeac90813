"""The floor view asks the registry about the games, never by name: what a game is called,
which row ends its round and what that row says of the money. A game registered in this
process, which the pit's code has never heard of, is counted like the built-in ones."""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import game as games
from controller.app.floor import figures as pit_figures
from controller.app.floor import games as pit_games
from controller.app.floor import store as pit_store
from controller.app.floor import tables as pit_floor
from controller.app.floor import words as pit_words
from controller.app.floor.figures import settlement, shift_figures
from controller.app.floor.games import game_words
from controller.app.floor.store import PitStore
from controller.game.contract import figures_from
from tests.support import floor
from tests.support.floor import START


def row(table: str, seconds: float, kind: str, **payload: Any) -> dict[str, Any]:
    """A journal row (`floor.row`) with the hash the pit's store keys it by."""
    return {**floor.row(table, seconds, kind, **payload), "hash": f"{table}{seconds}"}


@pytest.fixture
def coin() -> Iterator[str]:
    """A game with its own round end and money fields, and a floor title."""
    spec = dataclasses.replace(
        games.spec("blackjack"),
        name="coin",
        title="Coin toss",
        round_end="CoinSettled",
        settlement_figures=figures_from("staked", "house"),
    )
    games.register(spec)
    try:
        yield "coin"
    finally:
        games.unregister("coin")


def test_a_registered_games_rounds_and_money_are_counted(coin: str) -> None:
    rows = [
        row("c-01", 60, "CoinSettled", staked=8, house=-3, void=False),
        row("c-01", 90, "CoinSettled", staked=4, house=4, void=False),
        row("c-01", 99, "CoinSettled", staked=50, house=50, void=True),  # void: not counted
    ]
    figures = shift_figures(rows, START, START + 3600)
    [table] = figures["tables"]
    assert (table["game"], table["rounds"], table["drop"], table["win"]) == (coin, 2, 12, 1)
    assert [g["key"] for g in figures["games"]] == [coin]


def test_a_game_without_settlement_figures_counts_no_money(coin: str) -> None:
    games.register(dataclasses.replace(games.spec(coin), settlement_figures=None))
    assert settlement(row("c-01", 60, "CoinSettled", staked=8, house=-3)) is None


def test_an_unknown_kind_is_no_settlement() -> None:
    assert settlement(row("x-01", 60, "SomethingSettled", wagers_in=8)) is None


def test_the_store_keeps_a_registered_games_round_end(tmp_path: Path, coin: str) -> None:
    store = PitStore(tmp_path / "pit.sqlite")
    try:
        assert store.add_row("s", "c-01", row("c-01", 60, "CoinSettled", staked=8, house=1))
        assert not store.add_row("s", "c-01", row("c-01", 61, "CardDrawn", card="Qc"))
        assert [r["kind"] for r in store.rows("")] == ["CoinSettled"]
    finally:
        store.close()


def test_the_floor_calls_a_game_by_its_title(coin: str) -> None:
    assert game_words(coin) == "Coin toss"
    assert game_words("poker") == "Draw poker"
    assert game_words("blackjack") == "Blackjack"
    assert game_words("pai_gow") == "Pai_gow"  # not installed here: its name as it is


def test_money_that_is_not_whole_chips_is_refused_naming_the_field() -> None:
    figures = figures_from("staked", "house")
    with pytest.raises(ValueError, match=r"'house' is 2\.5, not whole chips"):
        figures({"staked": 5, "house": 2.5})
    assert figures({"staked": 5}) == (5, 0)


def test_the_pit_names_no_game() -> None:
    """The floor's modules read the registry: no built-in game's name is in their code
    as a string (docstrings and comments may still say "poker")."""
    for module in (pit_figures, pit_floor, pit_games, pit_store, pit_words):
        code = Path(module.__file__ or "").read_text(encoding="utf-8")
        strings = re.findall(r"""(?<![A-Za-z_])(["'])([a-z_]+)\1""", code)
        for name in games.names():
            assert name not in {text for _, text in strings}, (module.__name__, name)


def test_the_floor_carries_the_games_words_for_the_page(coin: str) -> None:
    """The page shows what the table's view calls a round ("hand 4") and a game's title
    from the data, never from a list of games of its own (pit.js)."""
    from controller.app.floor.tables import Floor

    floor = Floor(clock=lambda: START, wall=lambda: START)
    for table, game, word in (("c-01", coin, "toss"), ("dp-01", "poker", "hand")):
        state = {"game": game, "round": 4, "view": {"state": "x", "round_word": word}}
        body = {"v": 1, "at": datetime.datetime.fromtimestamp(START, datetime.UTC).isoformat()}
        floor.take(f"casino/s/table/{table}/state", json.dumps(body | {"state": state}).encode())
    shown = {t["table"]: t for t in floor.snapshot()}
    assert (shown["c-01"]["round_word"], shown["c-01"]["game_words"]) == ("toss", "Coin toss")
    assert (shown["dp-01"]["round_word"], shown["dp-01"]["game_words"]) == ("hand", "Draw poker")
    figures = shift_figures([row("c-01", 60, "CoinSettled", staked=8, house=1)], START, START + 60)
    assert [g["words"] for g in figures["games"]] == ["Coin toss"]
    js = (Path(pit_floor.__file__).parent / "static" / "pit.js").read_text(encoding="utf-8")
    for name in games.names():
        assert f'"{name}"' not in js and f"{name}:" not in js, name


def test_a_games_states_in_its_own_words() -> None:
    """A state reads as its game says it; the same state name may read otherwise at
    another game; a state no game has words for reads as words."""
    from controller.app.floor.words import state_words

    spec = dataclasses.replace(
        games.spec("blackjack"), name="coin", state_words={"dealing": "Coin in the air"}
    )
    games.register(spec)
    try:
        assert state_words("dealing", "coin") == "Coin in the air"
        assert state_words("dealing", "poker") == "Dealing"
        assert state_words("insurance", "blackjack") == "Insurance open"
        assert state_words("a_new_state", "coin") == "A new state"
    finally:
        games.unregister("coin")
