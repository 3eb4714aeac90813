"""A record that refuses to be rewritten: a journal changed, cut short,
reordered, or forged without its key is refused by a real `tablectl run --config ... --sim`
process, with a non-zero exit and one line naming the row, and the files are left as they
were; `journal replay` and `demo --config` refuse it too.

The journal is played once (in-process, on the simulators, through the real devices) to
the middle of its third round, so that it ends with rows after its checkpoint (written at
each round's end), as after a power cut. Tampering with those rows is seen by the check at
start; tampering with rows before the checkpoint is seen by the full check that runs in the
background after the start, which stops the table (exit 1, the row named) and remembers
it, so the next start is refused at once.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli.demo import SimHands, act, sign_in_dealer
from controller.app.cli.run import JOURNAL_REFUSED
from controller.app.config import load_config
from controller.app.runtime.table import RunningTable
from controller.journal.store import checkpoint_path, plain_row_hash, row_hash
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.testbed import free_port, write_config
from tests.support.cli import tablectl

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the config, the journal (two rounds and part of a third), its key and
    its checkpoint."""
    folder = tmp_path_factory.mktemp("played")
    config_path = write_config(folder, "sim://", free_port())
    table = RunningTable(load_config(config_path), simulate=True, serve=False, seed=5).start()
    try:
        sign_in_dealer(table)
        dealer = BlackjackDealer(
            SimHands(table), lambda: table.state, random.Random(6), insurance_sensors=False
        )
        while dealer.rounds_finished < 2:
            act(table, dealer)
        for _ in range(6):  # into the third round
            act(table, dealer)
    finally:
        table.stop()
    return folder


@pytest.fixture
def table(played: Path, tmp_path: Path) -> Path:
    """A copy of the played folder (config rewritten to point at the copy); its config."""
    for item in played.iterdir():
        shutil.copy2(item, tmp_path / item.name)
    config = tmp_path / "table.toml"
    text = config.read_text().replace(str(played), str(tmp_path))
    config.write_text(re.sub(r"(?m)^port = \d+$", "port = 0", text))  # any free port
    return config


def journal_of(config: Path) -> Path:
    return config.parent / "journal.sqlite"


def checkpoint_seq(config: Path) -> int:
    seq: int = json.loads(checkpoint_path(journal_of(config)).read_text())["seq"]
    return seq


def last_seq(config: Path) -> int:
    with sqlite3.connect(journal_of(config)) as db:
        last: int = db.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    return last


def tamper(config: Path, *statements: str) -> None:
    """What someone with the SD card and sqlite3 can do: drop the guards, edit rows."""
    db = sqlite3.connect(journal_of(config), isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("DROP TRIGGER journal_no_delete")
    for statement in statements:
        db.execute(statement)
    db.close()


def forge(config: Path, seq: int, digest: Any) -> None:
    """Change row ``seq``'s card and recompute it and every row after it with ``digest``:
    a chain that holds together, made without the journal's key."""
    db = sqlite3.connect(journal_of(config), isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    rows = db.execute(
        "SELECT seq, wall, mono, round, source, kind, payload, actor, prev_hash FROM journal "
        "WHERE seq >= ? ORDER BY seq",
        (seq,),
    ).fetchall()
    prev = rows[0][8]
    for number, wall, mono, round_, source, kind, payload, actor, _ in rows:
        data = json.loads(payload)
        if number == seq:
            data["forged"] = True
        fields = [number, wall, mono, round_, source, kind, data, actor]
        new = digest(prev, fields)
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        db.execute(
            "UPDATE journal SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
            (text, prev, new, number),
        )
        prev = new
    db.close()


def files(config: Path) -> dict[str, bytes]:
    """The table's files byte for byte (not SQLite's -shm index, which readers write, nor
    an empty -wal, which the last connection to close removes)."""
    found = {p.name: p.read_bytes() for p in config.parent.iterdir()}
    return {
        name: data
        for name, data in found.items()
        if not name.endswith("-shm") and (data or not name.endswith("-wal"))
    }


def refused(result: subprocess.CompletedProcess[str], prefix: str, *needles: str) -> str:
    """A non-zero exit and exactly one line on stderr, naming what was refused."""
    assert result.returncode != 0, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(prefix), lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def refused_at_start(config: Path, *needles: str, replay: str | None = None) -> None:
    """`tablectl run` refuses it (exit 2, one line), `journal replay` and `demo --config`
    too (exit non-zero, one line), and none of them changes a byte of it."""
    before = files(config)
    refused(tablectl("run", "--config", str(config), "--sim"), "tablectl run: ", *needles)
    assert files(config) == before
    result = tablectl("journal", "replay", str(journal_of(config)))
    assert result.stdout == ""
    refused(result, "tablectl journal: ", replay or needles[0])
    demo = ("demo", "--config", str(config), "--journal", str(journal_of(config)), "--port", "0")
    refused(tablectl(*demo), "tablectl demo: ", *needles)
    assert files(config) == before


# --- what the check at start sees: the rows after the checkpoint -------------------------


def test_the_played_journal_ends_after_its_checkpoint(table: Path) -> None:
    assert checkpoint_seq(table) + 3 <= last_seq(table)
    result = tablectl("journal", "verify", str(journal_of(table)))
    assert result.returncode == 0 and result.stdout.startswith("ok: "), result


def test_an_intact_journal_starts_and_stops_cleanly(table: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.app.cli", "run", "--config", str(table), "--sim"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert "running" in process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.communicate()


def test_a_changed_row_is_refused_at_start(table: Path) -> None:
    row = checkpoint_seq(table) + 2
    tamper(table, f"UPDATE journal SET round = 77 WHERE seq = {row}")
    refused_at_start(table, f"journal row {row}: content changed", "left as it is")


def test_a_deleted_row_is_refused_at_start(table: Path) -> None:
    row = checkpoint_seq(table) + 1
    tamper(table, f"DELETE FROM journal WHERE seq = {row}")
    refused_at_start(table, f"journal row {row + 1}: follows row {row - 1}: rows missing")


def test_swapped_rows_are_refused_at_start(table: Path) -> None:
    a = checkpoint_seq(table) + 1
    b = a + 1
    tamper(
        table,
        f"UPDATE journal SET seq = -1 WHERE seq = {a}",
        f"UPDATE journal SET seq = {a} WHERE seq = {b}",
        f"UPDATE journal SET seq = {b} WHERE seq = -1",
    )
    refused_at_start(table, f"journal row {a}: does not follow the row before it")


def test_a_truncated_tail_is_refused_at_start(table: Path) -> None:
    """Rows cut off back past the checkpoint (a shorter chain, valid on its own)."""
    cut = checkpoint_seq(table) - 2
    tamper(table, f"DELETE FROM journal WHERE seq >= {cut}")
    refused_at_start(
        table,
        f"journal row {cut}: missing: the journal ends at row {cut - 1} but the checkpoint "
        f"is at row {checkpoint_seq(table)}",
    )


@pytest.mark.parametrize(
    "digest",
    [plain_row_hash, lambda prev, fields: row_hash(b"w" * 32, prev, fields)],
    ids=["plain-sha256", "wrong-key"],
)
def test_a_row_forged_without_the_key_is_refused_at_start(table: Path, digest: Any) -> None:
    row = checkpoint_seq(table) + 1
    forge(table, row, digest)
    refused_at_start(table, f"journal row {row}: content changed since it was written")


def test_a_missing_key_is_refused_at_start(table: Path) -> None:
    key = journal_of(table).with_name("journal.sqlite.key")
    key.unlink()
    before = files(table)
    line = refused(tablectl("run", "--config", str(table), "--sim"), "tablectl run: ", "is missing")
    assert str(key) in line and "cannot be checked" in line
    assert files(table) == before
    refused(tablectl("journal", "replay", str(journal_of(table))), "tablectl journal: ", str(key))
    refused(tablectl("config", "check", str(table)), "tablectl config: ", str(key))


def test_a_forged_checkpoint_is_refused_at_start(table: Path) -> None:
    """A checkpoint moved up to the last row, so that the start would check nothing: its
    MAC cannot be made without the key."""
    row = checkpoint_seq(table) + 1
    tamper(table, f"UPDATE journal SET round = 77 WHERE seq = {row}")
    with sqlite3.connect(journal_of(table)) as db:
        seq, digest = db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC").fetchone()
    body = {"seq": seq, "hash": digest, "broken_seq": None, "broken": None}
    body["mac"] = hashlib.sha256(json.dumps(body).encode()).hexdigest()
    checkpoint_path(journal_of(table)).write_text(json.dumps(body))
    refused_at_start(  # replay checks every row, and meets the changed one first
        table, f"journal row {seq}: the checkpoint", "forged", replay=f"journal row {row}: "
    )


def test_a_missing_checkpoint_means_a_full_check_at_start(table: Path) -> None:
    """Deleting the checkpoint to hide an older change only makes the start check all."""
    tamper(table, "UPDATE journal SET round = 77 WHERE seq = 3")
    checkpoint_path(journal_of(table)).unlink()
    refused_at_start(table, "journal row 3: content changed")


# --- what the full check after the start sees: the rows before the checkpoint -----------


def test_an_older_changed_row_stops_the_table_and_the_next_start_is_refused(
    table: Path,
) -> None:
    tamper(table, "UPDATE journal SET round = 77 WHERE seq = 4")
    result = tablectl("run", "--config", str(table), "--sim", timeout=90)
    assert result.returncode == JOURNAL_REFUSED, result  # the unit does not restart it
    assert "running" in result.stdout
    line = [x for x in result.stderr.splitlines() if x.startswith("tablectl run: ")]
    assert line == ["tablectl run: stopped: journal row 4: content changed since it was "
                    "written (or the row was made without the key)"], result.stderr  # fmt: skip
    with sqlite3.connect(journal_of(table)) as db:
        kinds = [k for (k,) in db.execute("SELECT kind FROM journal ORDER BY seq DESC LIMIT 2")]
    assert kinds[0] == "JournalBroken"  # journaled (and on the pit's alarm topic)
    refused_at_start(
        table, "journal row 4: content changed", "found by the full check after an earlier"
    )


# --- journal verify --head -------------------------------------------------------------


def test_journal_verify_with_the_head_seen_elsewhere(table: Path) -> None:
    path = str(journal_of(table))
    result = tablectl("journal", "verify", path)
    head = result.stdout.strip().rsplit("head ", 1)[1]
    seq = int(head.split(":")[0])
    ok = tablectl("journal", "verify", path, "--head", head)
    assert ok.returncode == 0 and "reaches the head given" in ok.stdout
    tamper(table, f"DELETE FROM journal WHERE seq >= {seq - 1}")  # after the checkpoint
    checkpoint_path(journal_of(table)).unlink()
    assert tablectl("journal", "verify", path).returncode == 0  # alone, it cannot tell
    cut = tablectl("journal", "verify", path, "--head", head)
    assert cut.returncode == 1
    assert f"BROKEN: journal row {seq - 1}: missing: the journal ends at row {seq - 2}" in (
        cut.stdout
    )
    bad = tablectl("journal", "verify", path, "--head", "12:zz")
    assert bad.returncode == 2 and "SEQ:HASH" in bad.stderr


# --- a new journal, opened by a supervisor -------------------------------------------------


def reopen(config: Path, staff: str, pin: str, reason: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "journal", "reopen", "--config",
         str(config), "--staff", staff, "--reason", reason],
        cwd=ROOT, input=pin + "\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_a_supervisor_opens_a_new_journal_and_the_refused_one_is_kept(table: Path) -> None:
    row = checkpoint_seq(table) + 2
    tamper(table, f"UPDATE journal SET round = 77 WHERE seq = {row}")
    rows = last_seq(table)
    old = files(table)
    assert tablectl("run", "--config", str(table), "--sim").returncode == JOURNAL_REFUSED

    done = reopen(table, "s01", "2468", "row changed: ticket 4411")  # the example's supervisor
    assert done.returncode == 0, done.stderr
    asides = sorted(p for p in table.parent.iterdir() if ".refused-" in p.name)
    stamp = asides[0].name.split(".refused-")[1][:16]
    aside = table.parent / f"journal.sqlite.refused-{stamp}"
    kept = {p.name.replace(f".refused-{stamp}", ""): p.read_bytes() for p in asides}
    assert {n: d for n, d in kept.items() if not n.endswith("-shm") and d} == {
        n: d for n, d in old.items() if n.startswith("journal.sqlite") and d
    }  # every file moved aside as it was, none deleted
    assert f"kept the old journal as {aside}" in done.stdout

    checked = tablectl("journal", "verify", str(aside))  # its key moved with it
    assert checked.returncode == 1 and f"BROKEN: journal row {row}: content changed" in (
        checked.stdout
    )
    exported = tablectl("journal", "export", str(journal_of(table)))
    first = json.loads(exported.stdout.splitlines()[0])
    assert first["seq"] == 1 and first["kind"] == "JournalReopened"
    assert first["actor"] == "s01" and first["source"] == "supervisor"
    payload = first["payload"]
    assert payload["old_file"] == str(aside) and payload["old_rows"] == rows
    assert payload["last_good_seq"] == row - 1 and payload["staff_id"] == "s01"
    assert payload["reason"] == "row changed: ticket 4411"
    assert payload["refused"].startswith(f"journal row {row}: content changed")
    key = journal_of(table).with_name("journal.sqlite.key")
    assert key.read_bytes() != kept["journal.sqlite.key"]  # a new key with the new journal

    process = subprocess.Popen(
        [sys.executable, "-m", "controller.app.cli", "run", "--config", str(table), "--sim"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None and "running" in process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.communicate()


@pytest.mark.parametrize(
    ("staff", "pin", "reason", "code", "says"),
    [
        ("s01", "0000", "x", 1, "reopen refused: wrong staff id or PIN"),
        ("d01", "1357", "x", 1, "reopen refused: d01 is not a supervisor"),
        ("nobody", "2468", "x", 1, "reopen refused: wrong staff id or PIN"),
        ("s01", "2468", "  ", 2, "--reason: say why"),
    ],
)
def test_reopen_needs_a_supervisor_and_a_reason(
    table: Path, staff: str, pin: str, reason: str, code: int, says: str
) -> None:
    tamper(table, "UPDATE journal SET round = 77 WHERE seq = 2")
    before = files(table)
    done = reopen(table, staff, pin, reason)
    assert done.returncode == code
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tablectl journal: {says}"), lines
    assert files(table) == before
