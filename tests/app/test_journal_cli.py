"""`tablectl journal`: verify, export, replay and last-game recall on a real journal."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
from argparse import Namespace
from pathlib import Path

import pytest

from controller.app import journal_cli
from controller.app.demo import SimHands, act, demo_config
from controller.app.table import RunningTable
from sim_hardware.dealer import BlackjackDealer


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:  # type: ignore[type-arg]
    journal = tmp_path_factory.mktemp("journal") / "journal.sqlite"
    table = RunningTable(demo_config("blackjack", journal, port=0), simulate=True, serve=False,
                         seed=3).start()  # fmt: skip
    try:
        dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(4))
        while dealer.rounds_finished < 2:
            act(table, dealer)
        state = table.loop.snapshot()
    finally:
        table.stop()
    return journal, state


def run(action: str, path: Path, **extra: object) -> tuple[int, str]:
    out = io.StringIO()
    args = Namespace(journal_command=action, path=path, round=None, format="jsonl", n=10)
    for key, value in extra.items():
        setattr(args, key, value)
    code = journal_cli.run(args, out=out)
    return code, out.getvalue()


def test_verify_says_ok_and_names_a_tampered_row(played, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, _ = played
    code, text = run("verify", path)
    assert code == 0 and text.startswith("ok: ")
    copy = tmp_path / "copy.sqlite"
    source = sqlite3.connect(path)
    target = sqlite3.connect(copy)
    source.backup(target)
    target.execute("DROP TRIGGER journal_no_update")
    target.execute("""UPDATE journal SET payload = '{"card":"As"}' WHERE seq = 12""")
    target.commit()
    target.close()
    code, text = run("verify", copy)
    assert code == 1 and "BROKEN: journal row 12" in text


def test_export_jsonl_and_csv(played) -> None:  # type: ignore[no-untyped-def]
    path, _ = played
    _, text = run("export", path)
    rows = [json.loads(line) for line in text.splitlines()]
    assert rows[0]["seq"] == 1 and rows[-1]["seq"] == len(rows)
    _, text = run("export", path, format="csv", round=1)
    table = list(csv.DictReader(io.StringIO(text)))
    assert table and all(row["round"] == "1" for row in table)
    assert any(json.loads(row["payload"]).get("card") for row in table)


def test_replay_prints_the_state_the_table_was_in(played) -> None:  # type: ignore[no-untyped-def]
    path, state = played
    code, text = run("replay", path)
    replayed = json.loads(text)
    assert code == 0
    assert replayed["view"] == state["view"] and replayed["round"] == state["round"]


def test_last_recalls_each_round_with_its_cards_and_settlement(played) -> None:  # type: ignore[no-untyped-def]
    path, _ = played
    _, text = run("last", path, n=2)
    assert text.count("round ") >= 2
    assert "cards: " in text and "RoundSettled" in text
