"""A whole table in one process on the simulators: the scripted dealer plays rounds through
the simulated shoe (a real pty and the real serial driver) and the simulated GPIO (the real
GPIO driver on MockFactory); the journal, the loop and recovery are the real ones."""

from __future__ import annotations

import dataclasses
import random
import threading
from pathlib import Path

import pytest

from controller.app.cli.demo import SimHands, act, demo_config, make_dealer
from controller.app.runtime.devices import shoe_resume
from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.loop import TableLoop
from controller.app.runtime.table import RunningTable, make_game
from sim_hardware.dealer import BlackjackDealer


def play_rounds(table: RunningTable, rounds: int, seed: int) -> BlackjackDealer:
    dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(seed))
    for _ in range(300 * rounds):
        if dealer.rounds_finished >= rounds:
            return dealer
        act(table, dealer)
    raise AssertionError(f"stuck at: {table.state.get('view', {}).get('next_action')}")


@pytest.fixture
def config(tmp_path: Path):  # type: ignore[no-untyped-def]
    return demo_config("blackjack", tmp_path / "journal.sqlite", port=0)


def test_rounds_are_played_journaled_and_acknowledged(config) -> None:  # type: ignore[no-untyped-def]
    table = RunningTable(config, simulate=True, serve=False, seed=11).start()
    try:
        play_rounds(table, rounds=3, seed=12)
        assert table.devices is not None and table.devices.sim_shoe is not None
        assert table.devices.sim_shoe.wait_until_acknowledged(5.0)
        state = table.state
    finally:
        table.stop()
    with open_journal(config.journal_path, create=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    kinds = [row.kind for row in rows]
    assert "ControllerFault" not in kinds
    assert "ActionRefused" not in kinds, [r.payload for r in rows if r.kind == "ActionRefused"]
    cards = [row.payload["seq"] for row in rows if row.kind == "CardDrawn"]
    assert cards == sorted(set(cards))  # each card journaled once, in order
    assert state["view"]["state"] in ("round_over", "betting")
    assert sum(row.kind == "RoundSettled" for row in rows) == 3  # each round settled, once


def test_a_restarted_table_comes_back_in_the_same_state(config) -> None:  # type: ignore[no-untyped-def]
    table = RunningTable(config, simulate=True, serve=False, seed=21).start()
    try:
        play_rounds(table, rounds=2, seed=22)
        before = table.loop.snapshot()
    finally:
        table.stop()
    with open_journal(config.journal_path, create=True) as journal:
        loop = TableLoop(make_game(config), journal, events=None)  # type: ignore[arg-type]
        assert loop.replay() > 0
        after = loop.snapshot()
        assert shoe_resume(journal) is not None
    assert after["view"] == before["view"]
    assert after["round"] == before["round"]


def test_the_demo_config_is_the_example_with_a_temporary_journal(tmp_path: Path) -> None:
    config = demo_config("blackjack", tmp_path / "j.sqlite", port=0)
    assert config.journal_path == tmp_path / "j.sqlite"
    assert dataclasses.replace(config, display_port=1).display_port == 1


def test_a_poker_table_plays_hands_on_the_simulators(tmp_path: Path) -> None:
    config = demo_config("poker", tmp_path / "poker.sqlite", port=0)
    table = RunningTable(config, simulate=True, serve=False, seed=31).start()
    try:
        dealer = make_dealer(table, random.Random(32))
        for _ in range(2000):
            if dealer.rounds_finished >= 2:
                break
            act(table, dealer)
        assert dealer.rounds_finished >= 2
    finally:
        table.stop()
    with open_journal(config.journal_path, create=True) as journal:
        assert journal.verify() > 0
        kinds = [row.kind for row in journal.entries()]
    assert kinds.count("HandSettled") >= 2
    assert not {"ActionRefused", "Violation", "ControllerFault"} & set(kinds)


# --- drivers.realtime: the controller thread asks for the real-time policy ------------------


def test_the_controller_thread_asks_for_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked: list[str] = []
    monkeypatch.setattr(
        "controller.app.runtime.table.use_realtime",
        lambda what: asked.append(f"{what} on {threading.current_thread().name}") or False,
    )
    monkeypatch.setattr("drivers.card_source.use_realtime", lambda what: False)
    config = demo_config("blackjack", tmp_path / "journal.sqlite", port=0)
    table = RunningTable(config, simulate=True, serve=False, seed=3).start()
    table.stop()
    assert asked == ["controller thread on controller"]
