"""`tablectl journal`: verify, export, replay and last-game recall on a real journal, and
each of them refusing a journal that does not check out under its key."""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
import sqlite3
from argparse import Namespace
from pathlib import Path

import pytest

from controller.app.cli import journal as journal_cli
from controller.app.cli.demo import SimHands, act, demo_config, sign_in_dealer
from controller.app.runtime.table import RunningTable
from controller.journal.store import Head
from sim_hardware.dealer import BlackjackDealer


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:  # type: ignore[type-arg]
    journal = tmp_path_factory.mktemp("journal") / "journal.sqlite"
    table = RunningTable(demo_config("blackjack", journal, port=0), simulate=True, serve=False,
                         seed=3).start()  # fmt: skip
    try:
        sign_in_dealer(table)
        dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(4))
        while dealer.rounds_finished < 2:
            act(table, dealer)
        state = table.loop.snapshot()
    finally:
        table.stop()
    return journal, state


def run(action: str, path: Path, **extra: object) -> tuple[int, str]:
    out = io.StringIO()
    args = Namespace(
        journal_command=action, path=path, round=None, format="jsonl", n=10, key_file=None,
        head=None,
    )  # fmt: skip
    for key, value in extra.items():
        setattr(args, key, value)
    code = journal_cli.run(args, out=out)
    return code, out.getvalue()


def test_verify_says_ok_and_names_a_tampered_row(played, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, _ = played
    code, text = run("verify", path)
    assert code == 0 and text.startswith("ok: ")
    copy = tampered_copy(path, tmp_path, """UPDATE journal SET payload = '{"card":"As"}'
                                            WHERE seq = 12""")  # fmt: skip
    code, text = run("verify", copy)
    assert code == 1 and "BROKEN: journal row 12" in text


def tampered_copy(path: Path, folder: Path, *statements: str) -> Path:
    """A copy of the journal and its key, edited with sqlite3 after dropping the guards."""
    copy = folder / "copy.sqlite"
    source = sqlite3.connect(path)
    target = sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.execute("DROP TRIGGER journal_no_update")
    target.execute("DROP TRIGGER journal_no_delete")
    for statement in statements:
        target.execute(statement)
    target.commit()
    target.close()
    shutil.copy(path.with_name(path.name + ".key"), copy.with_name(copy.name + ".key"))
    return copy


def test_verify_prints_the_head_and_checks_a_head_given(played) -> None:  # type: ignore[no-untyped-def]
    path, state = played
    code, text = run("verify", path)
    head = Head.parse(text.split("head ")[-1].strip())
    assert head == Head(state["journal_seq"] + 0, head.hash) or head.seq >= state["journal_seq"]
    code, text = run("verify", path, head=head)
    assert code == 0 and f"reaches the head given (row {head.seq})" in text
    code, text = run("verify", path, head=Head(head.seq + 5, head.hash))
    assert code == 1
    assert f"BROKEN: journal row {head.seq + 1}: missing: the journal ends at row {head.seq}" in (
        text
    )
    code, text = run("verify", path, head=Head(3, "0" * 64))
    assert code == 1 and "BROKEN: journal row 3: its hash is not the one the head given" in text


@pytest.mark.parametrize("action", ["replay", "export", "last"])
def test_every_action_refuses_a_tampered_journal_naming_the_row(  # type: ignore[no-untyped-def]
    played, tmp_path: Path, action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    copy = tampered_copy(path, tmp_path, "DELETE FROM journal WHERE seq = 7")
    code, text = run(action, copy)
    err = capsys.readouterr().err
    assert code == 1 and text == ""
    assert err.strip().splitlines() == [
        f"tablectl journal: {copy}: journal row 8: follows row 6: rows missing or moved"
    ]


def test_a_journal_without_its_key_is_refused(  # type: ignore[no-untyped-def]
    played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = played
    copy = tampered_copy(path, tmp_path)
    copy.with_name(copy.name + ".key").unlink()
    code, text = run("replay", copy)
    assert code == 2 and text == ""
    assert "the key of the journal" in capsys.readouterr().err


def test_export_jsonl_and_csv(played) -> None:  # type: ignore[no-untyped-def]
    path, _ = played
    _, text = run("export", path)
    rows = [json.loads(line) for line in text.splitlines()]
    assert rows[0]["seq"] == 1 and rows[-1]["seq"] == len(rows)
    _, text = run("export", path, format="csv", round=1)
    table = list(csv.DictReader(io.StringIO(text)))
    assert table and all(row["round"] == "1" for row in table)
    assert any(row["payload.card"] for row in table)


def test_replay_prints_the_state_the_table_was_in(played) -> None:  # type: ignore[no-untyped-def]
    path, state = played
    code, text = run("replay", path, json=True)
    replayed = json.loads(text)
    assert code == 0
    assert replayed["view"] == state["view"] and replayed["round"] == state["round"]


def test_last_recalls_each_round_with_its_cards_and_settlement(played) -> None:  # type: ignore[no-untyped-def]
    path, _ = played
    _, text = run("last", path, n=2)
    assert text.count("round ") >= 2
    assert "cards: " in text and "RoundSettled" in text
