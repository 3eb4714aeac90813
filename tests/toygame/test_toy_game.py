"""Adding a game is one folder and one registry entry: the toy game of this
folder, registered as an installed distribution registers one (a ``tablectl.games`` entry
point), dealt through `tablectl run --sim gpio` in its own process: a card from a
simulated shoe on a real pty, through the serial driver, the toy's rules, the journal and
the status display's state. Nothing in the app names it."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller import game as games
from controller.app.config import parse_config
from controller.app.runtime.journal_files import open_journal
from sim_hardware.link import PtyLink
from sim_hardware.remote import ConsoleClient
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle

HERE = Path(__file__).resolve().parent

CONFIG = """\
[table]
id = "toy-01"
game = "toy"
site = "test"

[limits]
minimum = 1
maximum = 10
denominations = [1]

[toy]
cards_per_round = 2

[shoe]
url = "{shoe}"

[display]
host = "127.0.0.1"
port = {port}

[journal]
path = "{folder}/journal.sqlite"

[pins.buttons]
next = 3

[pins.lamps]
hold = 19
"""


def install_entry(site: Path) -> None:
    """The one registry entry, as a distribution of the game would ship it."""
    info = site / "tablectl_toygame-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tablectl-toygame\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[tablectl.games]\ntoy = toygame.game:SPEC\n")


@pytest.fixture
def shoe() -> Iterator[SimulatedShoe]:
    shoe = SimulatedShoe(PtyLink(), decks=1).start()
    try:
        yield shoe
    finally:
        shoe.close()


def test_the_toy_game_is_not_known_until_registered() -> None:
    assert "toy" not in games.names()
    with pytest.raises(games.UnknownGame, match="known: baccarat, blackjack, poker"):
        games.spec("toy")


def test_a_registered_toy_game_is_checked_by_the_config_like_any_other() -> None:
    from toygame.game import SPEC, ToyRules

    games.register(SPEC)
    try:
        text = CONFIG.format(shoe="sim://", port=8080, folder="/tmp")
        config = parse_config(text)
        assert config.rules == ToyRules(cards_per_round=2)
        assert games.spec(config.game).make(config.rules).view()["state"] == "idle"
        with pytest.raises(Exception, match="toy needs the lamp 'hold'"):
            parse_config(text.replace("hold = 19", ""))
    finally:
        games.unregister("toy")


def test_the_toy_game_runs_through_tablectl_run(
    tmp_path: Path, shoe: SimulatedShoe, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    install_entry(site)
    path = os.pathsep.join([str(site), str(HERE.parent), os.environ.get("PYTHONPATH", "")])
    monkeypatch.setenv("PYTHONPATH", path)  # the controller process inherits it
    port = free_port()
    config = tmp_path / "table.toml"
    config.write_text(CONFIG.format(shoe=shoe.link.url, port=port, folder=tmp_path))
    client = ConsoleClient(f"http://127.0.0.1:{port}")
    controller = ControllerProcess(config, client)
    state = controller.start()
    try:
        assert state["game"] == "toy" and state["view"]["state"] == "idle"
        assert client.post("/api/console", {"button": "next"}), client.last_status
        first = str(shoe.draw_when_open())  # the toy unlocked the gate: NEXT went through
        second = str(shoe.draw_when_open())
        for _ in range(10):  # the second card's round end may land after one settle
            state = settle(client, state.get("journal_seq", 0))
            if state.get("round") == 1:
                break
        assert state["round"] == 1
        assert state["view"]["cards"] == [first, second]
        assert state["view"]["state"] == "idle"
    finally:
        assert controller.stop() == 0
    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        rows = [(e.kind, e.payload) for e in journal.entries()]
    kinds = [kind for kind, _ in rows]
    assert kinds[0] == "TableStarted" and rows[0][1]["game"] == "toy"
    seen = [p["card"] for kind, p in rows if kind == "ToyCardSeen"]
    assert seen == [first, second]
    assert kinds.index("ToyRoundEnded") > kinds.index("ToyCardSeen")


def test_the_toy_has_no_mechanics_of_its_own() -> None:
    """A game is its rules and its states' facts: the toy's table is the kernel's
    `GameTable` (the gate and lamps told from its facts, the outputs, the HOLD) and its
    game the kernel's `TableGame` (events in, outputs out, the view). Its module names no
    gate or lamp command, and overrides none of the mechanics."""
    from controller.game.table import GameTable, TableGame
    from toygame import game as toy

    tree = ast.parse(Path(toy.__file__).read_text(encoding="utf-8"))
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    named |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    named |= {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }  # fmt: skip
    assert not named & {"LockShoe", "UnlockShoe", "SetLamp", "Signals"}
    assert issubclass(toy.ToyTable, GameTable) and issubclass(toy.ToyGame, TableGame)
    mechanics = {"take_outputs", "signals", "violate", "begin_clear", "gate_locked"}
    assert not mechanics & vars(toy.ToyTable).keys()
    assert not {"handle", "pending", "view"} & vars(toy.ToyGame).keys()
