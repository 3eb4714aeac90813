"""`tablectl journal last`, ``export --round``, ``replay`` and ``dealers`` read only what they
show, checked from the authenticated checkpoint and row by row; ``--full`` and ``verify``
check everything (with SQLite's own check of the file); their output is written for
people; a bad number or a missing journal is one line."""

from __future__ import annotations

import csv
import io
import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli import build_parser
from controller.app.cli import journal as journal_cli
from controller.app.cli.demo import SimHands, act, demo_config, sign_in_dealer
from controller.app.runtime.table import RunningTable
from controller.game import spec
from controller.journal.store import checkpoint_path
from sim_hardware.dealer import BlackjackDealer

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Seven rounds of blackjack (a snapshot every five), stopped at a round's settlement
    with its boxes paid out but not yet cleared."""
    journal = tmp_path_factory.mktemp("reads") / "journal.sqlite"
    table = RunningTable(demo_config("blackjack", journal, port=0), simulate=True, serve=False,
                         seed=5).start()  # fmt: skip
    try:
        sign_in_dealer(table)
        dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(6))
        while dealer.rounds_finished < 6 or table.state["view"]["state"] != "settlement":
            act(table, dealer)
        state = table.loop.snapshot()
    finally:
        table.stop()
    return journal, state


def copy_of(path: Path, folder: Path, *statements: str) -> Path:
    """The journal, its checkpoint and key copied, then edited with the guards dropped."""
    copy = folder / "copy.sqlite"
    source, target = sqlite3.connect(path), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.execute("DROP TRIGGER journal_no_update")
    target.execute("DROP TRIGGER journal_no_delete")
    for statement in statements:
        target.execute(statement)
    target.commit()
    target.close()
    for suffix in (".key", ".checkpoint"):
        shutil.copy(path.with_name(path.name + suffix), copy.with_name(copy.name + suffix))
    return copy


def cli(*argv: str) -> tuple[int, str, str]:
    """``tablectl journal ARGV`` in this process: (exit code, stdout, stderr)."""
    args = build_parser().parse_args(["journal", *argv])
    out, err = io.StringIO(), io.StringIO()
    stderr, sys.stderr = sys.stderr, err
    try:
        code = journal_cli.run(args, out=out)
    finally:
        sys.stderr = stderr
    return code, out.getvalue(), err.getvalue()


def rows_of(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(sql).fetchall()


# --- bounded: from the checkpoint, and the rows shown ------------------------------------


def test_last_and_export_round_read_what_they_show_not_the_whole_chain(
    played: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """A row changed long before the rounds shown is for verify (and --full) to find: the
    recall of the last rounds no longer waits for the whole chain, as the table's start
    does not."""
    path, state = played
    copy = copy_of(path, tmp_path, "UPDATE journal SET actor = 'x' WHERE seq = 4")
    assert json.loads(checkpoint_path(copy).read_text())["seq"] > 100  # 4 is long before it
    last_round = state["round"]
    code, text, err = cli("last", "-n", "1", str(copy))
    assert code == 0 and err == "" and text.startswith(f"round {last_round}: ")
    code, text, err = cli("export", "--round", str(last_round), str(copy))
    assert code == 0 and err == ""
    assert {json.loads(line)["round"] for line in text.splitlines()} == {last_round}
    code, text, _ = cli("replay", str(copy))  # from the snapshot, the rows after it
    assert code == 0 and "rebuilt from the snapshot at row" in text
    for argv in (("last", "-n", "1", "--full"), ("export", "--round", "2", "--full"),
                 ("replay", "--full"), ("dealers",), ("export",)):  # fmt: skip
        code, text, err = cli(*argv[:1], str(copy), *argv[1:])
        assert (code, text) == (1, ""), argv
        assert err == (
            f"tablectl journal: {copy}: journal row 4: content changed since it was written "
            "(or the row was made without the key)\n"
        ), argv
    code, text, _ = cli("verify", str(copy))
    assert code == 1 and text.startswith("BROKEN: journal row 4: content changed")


def test_a_row_changed_among_those_shown_is_refused_naming_it(
    played: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    path, state = played
    seq = rows_of(path, f"SELECT MIN(seq) FROM journal WHERE round = {state['round']}")[0][0]
    copy = copy_of(path, tmp_path, f"UPDATE journal SET wall = 'then' WHERE seq = {seq + 2}")
    for argv in (("last", "-n", "1"), ("export", "--round", str(state["round"]))):
        code, text, err = cli(argv[0], str(copy), *argv[1:])
        assert (code, text) == (1, "")
        assert err.startswith(f"tablectl journal: {copy}: journal row {seq + 2}: content changed")


def test_a_row_cut_from_the_front_of_what_is_shown_is_refused(
    played: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """The first row of the round asked for deleted: what is left of the round would
    still chain, but not to the row before it."""
    path, state = played
    seq = rows_of(path, f"SELECT MIN(seq) FROM journal WHERE round = {state['round']}")[0][0]
    copy = copy_of(path, tmp_path, f"DELETE FROM journal WHERE seq = {seq}")
    code, text, err = cli("export", "--round", str(state["round"]), str(copy))
    assert (code, text) == (1, "")
    assert err == (
        f"tablectl journal: {copy}: journal row {seq + 1}: follows row {seq - 1}: rows "
        "missing or moved\n"
    )


def test_a_round_with_no_rows_is_said_in_one_line(played: tuple[Path, dict[str, Any]]) -> None:
    path, state = played
    code, text, err = cli("export", "--round", str(state["round"] + 50), str(path))
    assert (code, text) == (1, "")
    assert err == f"tablectl journal: no row of round {state['round'] + 50} in {path}\n"


# --- verify: SQLite's own check -----------------------------------------------------------


def test_verify_refuses_a_journal_with_a_damaged_index_page_in_one_line(
    played: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    path, _ = played
    copy = copy_of(path, tmp_path)
    with sqlite3.connect(copy) as db:
        db.execute("PRAGMA journal_mode=DELETE")  # every page in the file itself
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'journal_round'")
        root = page.fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    with copy.open("r+b") as file:  # the index's root page: its cells overwritten
        file.seek((root - 1) * size + 8)
        file.write(b"\xff" * 64)
    code, text, _ = cli("verify", str(copy))
    assert code == 1 and len(text.splitlines()) == 1, text
    assert text.startswith("BROKEN: copy.sqlite: SQLite's check of the file fails: ")


# --- bad numbers, a missing journal -------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [(("last", "-n", "-3"), "argument -n: must be 1 or more, not -3"),
     (("last", "-n", "0"), "argument -n: must be 1 or more, not 0"),
     (("export", "--round", "-5"), "argument --round: must be 1 or more, not -5"),
     (("export", "--round", "0"), "argument --round: must be 1 or more, not 0")],
)  # fmt: skip
def test_a_negative_or_zero_count_is_refused_in_one_line(
    played: tuple[Path, dict[str, Any]], argv: tuple[str, ...], needle: str
) -> None:
    path, _ = played
    done = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "journal", argv[0], str(path), *argv[1:]],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and needle in done.stderr, done.stderr


@pytest.mark.parametrize("action", ["verify", "export", "replay", "last", "dealers"])
def test_every_command_says_no_such_journal_for_a_missing_file(tmp_path: Path, action: str) -> None:
    missing = tmp_path / "journal.sqlite"
    code, text, err = cli(action, str(missing))
    assert (code, text) == (2, "")
    assert err == f"tablectl journal: no such journal: {missing}\n"
    rotated = tmp_path / "journal.sqlite.000000000100"
    assert cli(action, str(rotated))[2] == f"tablectl journal: no such journal: {rotated}\n"


# --- output for people --------------------------------------------------------------------


def test_last_shows_a_snapshot_row_in_one_short_line(played: tuple[Path, dict[str, Any]]) -> None:
    path, _ = played
    code, text, _ = cli("last", "-n", "10", str(path))
    snapshots = [line for line in text.splitlines() if line.lstrip().startswith("Snapshot")]
    assert code == 0 and snapshots
    for line in snapshots:
        assert len(line) < 200 and "state=" not in line and "modules=" not in line, line
        assert "the blackjack game and the loop's state" in line


def test_replay_summarises_the_table_each_box_and_what_it_is_owed(
    played: tuple[Path, dict[str, Any]],
) -> None:
    path, state = played
    code, text, _ = cli("replay", str(path))
    lines = text.splitlines()
    words = spec("blackjack").state_words["settlement"]  # "Paying and taking"
    assert code == 0 and lines[0] == f"Blackjack table, round {state['round']}: {words}"
    assert "  dealer: Demo Dealer (d01)" in lines
    boxes = state["view"]["boxes"]
    assert boxes and len(lines) < 20
    for box in boxes:
        line = next(x for x in lines if x.startswith(f"  box {box['number']}: "))
        wagers = ", ".join(f"{k} {v}" for k, v in box["wagers"].items())
        assert f"wagers {wagers}" in line
        for what in ("owed", "collect"):
            assert (f"; {what} {box[what]}" in line) == (box[what] > 0), line
        for hand in box["hands"]:
            assert " ".join(hand["cards"]) in line
    code, raw, _ = cli("replay", str(path), "--json")
    replayed = json.loads(raw)
    assert replayed["view"] == state["view"] and replayed["round"] == state["round"]


def test_replay_summary_of_seats_says_each_seat_and_its_stack() -> None:
    from controller.journal.views import replay_summary

    view = {"state": "dealing", "seats": [
        {"type": "SeatView", "seat": 1, "stack": 254, "bet": 0, "folded": False, "in_hand": True},
        {"type": "SeatView", "seat": 2, "stack": 171, "bet": 5, "folded": True, "in_hand": False},
    ]}  # fmt: skip
    state = {"game": "poker", "round": 13, "journal_seq": 90, "dealer": None, "view": view}
    lines = replay_summary(state, 12, None)
    assert lines[0] == "Draw poker table, hand 13: Dealing"
    assert "  journal: up to row 90, rebuilt from all 12 events" in lines
    assert "  dealer: nobody signed in" in lines
    assert "  seat 1: stack 254; in hand" in lines and "  seat 2: stack 171; bet 5; folded" in lines


def test_csv_export_has_a_column_per_payload_field_in_a_stable_order(
    played: tuple[Path, dict[str, Any]],
) -> None:
    path, _ = played
    code, text, _ = cli("export", "--format", "csv", "--round", "2", str(path))
    table = list(csv.reader(io.StringIO(text)))
    header, rows = table[0], table[1:]
    fields = sorted({k for line in cli("export", "--round", "2", str(path))[1].splitlines()
                     for k in json.loads(line)["payload"]})  # fmt: skip
    assert code == 0 and header == [
        "seq", "wall", "mono", "round", "source", "kind", "actor",
        *(f"payload.{f}" for f in fields), "prev_hash", "hash",
    ]  # fmt: skip
    kind = header.index("kind")
    cards = [r[header.index("payload.card")] for r in rows if r[kind] == "CardDrawn"]
    assert cards and all(len(card) == 2 for card in cards)
    wagers = [r for r in rows if r[kind] == "WagerPlaced"]
    assert wagers and all(r[header.index("payload.amount")].isdigit() for r in wagers)
    code, whole, _ = cli("export", "--format", "csv", str(path))
    header_all = next(csv.reader(io.StringIO(whole)))
    names = [h for h in header_all if h.startswith("payload.")]
    assert code == 0 and names == sorted(names) and set(header) <= set(header_all)
    assert len(whole.splitlines()) == 1 + rows_of(path, "SELECT COUNT(*) FROM journal")[0][0]
