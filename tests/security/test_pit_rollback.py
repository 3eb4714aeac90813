"""A rolled-back journal cannot get past the pit or the table itself.

The attack: copy a table's journal, its checkpoint and its pit cursor while it is stopped,
let it play more rounds, put the old copy back and start it again. Against a real
mosquitto, the real pit view (in this process, on its own SQLite store) and the table as a
`tablectl demo --config --journal` process:

- the table back on the broker at once: the pit raises a journal alarm at the first row
  that differs, and the shift figures count each (table, seq) once;
- the table kept off the broker (the broker down) until it has dealt past the old head,
  with the pit view restarted in between: the same, from the pit's durable store;
- the pit view down while the rolled-back table republishes (its persistent session keeps
  the rows): the restarted view raises the alarm, and it survives another restart;
- the copy put back without its cursor (the cursor says the pit saw more): `tablectl run`
  and `tablectl demo` refuse it in one line naming both rows; `tablectl journal reopen` is
  the way on, and the pit sees the new journal;
- `journal reopen` refuses while the table runs; the archiver keeps a sealed file the pit
  has not acknowledged.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app.floor.view import PitView
from controller.app.pit.cursor import cursor_path
from controller.app.runtime.journal_archive import Archiver, archive_sealed
from controller.journal.fileset import set_files
from controller.journal.store import checkpoint_path
from tests.support.cli import tablectl
from tests.support.pit import ROOT, Broker, DemoTable, folder_keys, write_config

TABLE = "bj-66"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A real mosquitto on a free loopback port, with persistence (a session survives)."""
    made = Broker(tmp_path / "broker").start()
    try:
        yield made
    finally:
        made.kill()


SITE = "demo-casino"  # examples/blackjack-table.toml


# --- the table's files ---------------------------------------------------------------------


def journal_of(folder: Path) -> Path:
    return folder / f"{TABLE}.sqlite"


def last_seq(journal: Path) -> int:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        found: int = db.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()[0]
    finally:
        db.close()
    return found


def row_hash(journal: Path, seq: int) -> str:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        found: str = db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()[0]
    finally:
        db.close()
    return found


def settled(journal: Path, first: int = 1, last: int | None = None) -> tuple[int, int, int]:
    """(rounds, drop, win) of the journal's settled rounds with a seq in first..last."""
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT payload FROM journal WHERE kind = 'RoundSettled' AND seq >= ? AND seq <= ?",
            (first, last if last is not None else 2**62),
        ).fetchall()
    finally:
        db.close()
    rounds = drop = win = 0
    for (text,) in rows:
        payload = json.loads(text)
        if not payload.get("void"):
            rounds += 1
            drop += payload["wagers_in"]
            win += payload["house_result"]
    return rounds, drop, win


def kept_files(folder: Path, cursor: bool = True) -> dict[str, bytes]:
    """The journal's files (and its pit cursor), as someone with the SD card copies them."""
    journal = journal_of(folder)
    names = [journal, journal.with_name(journal.name + "-wal"), checkpoint_path(journal)]
    if cursor:
        names += [cursor_path(journal), cursor_path(journal).with_name(
            cursor_path(journal).name + "-wal")]  # fmt: skip
    found = {p.name: p.read_bytes() for p in names if p.exists()}
    return {n: d for n, d in found.items() if d or not n.endswith("-wal")}  # empty: nothing


def put_back(folder: Path, copy: dict[str, bytes], *, cursor: bool = True) -> None:
    """The old copy in place of the journal (and of its cursor, with ``cursor``)."""
    journal = journal_of(folder)
    gone = [journal, checkpoint_path(journal)]
    if cursor:
        gone.append(cursor_path(journal))
    for path in gone:
        for item in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            item.unlink(missing_ok=True)
    for name, data in copy.items():
        if cursor or ".pit-cursor" not in name:
            (folder / name).write_bytes(data)


def one_line(result: subprocess.CompletedProcess[str], prefix: str) -> str:
    assert result.returncode != 0, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix), result.stderr
    return lines[0]


# --- the pit ---------------------------------------------------------------------------------


def seen(view: PitView) -> dict[str, Any]:
    return next((t for t in view.floor.snapshot() if t["table"] == TABLE), {})


def figures(view: PitView) -> tuple[int, int, int]:
    got = {f["key"]: f for f in view.figures()["tables"]}.get(TABLE, {})
    return got.get("rounds", 0), got.get("drop", 0), got.get("win", 0)


def caught_up(view: PitView, journal: Path, timeout: float = 30) -> bool:
    """Wait until the pit has had the journal's rows up to its last (by their seq)."""
    last = last_seq(journal)
    return view.floor.wait_for(lambda _: seen(view).get("journal_seq", 0) >= last, timeout)


def witnessed_to(view: PitView, journal: Path, timeout: float = 30) -> bool:
    """Wait until the pit's witness holds the journal's last row (its hash at that seq)."""
    last = last_seq(journal)
    digest = row_hash(journal, last)
    return view.floor.wait_for(
        lambda _: view.store.witness.witnessed_head(SITE, TABLE) == (last, digest), timeout
    )


def play(table: DemoTable, journal: Path, past: int) -> None:
    """Let the demo deal until its journal is past row ``past``."""
    while last_seq(journal) <= past:
        assert table.wait_actions(5), table.output()


def journal_alarms(view: PitView) -> list[str]:
    """The journal alarms in the pit's alarm log, oldest first."""
    return [a["message"] for a in reversed(view.floor.alarms()) if a["kind"] == "JournalHead"]


def fork_alarm(row: int) -> Callable[[Any], bool]:
    """The pit's alarm log has the fork at ``row`` (the table's row shows its latest
    journal alarm: with the table on the broker, its head going back comes next)."""
    return lambda view: any(
        a.startswith(f"journal forked at row {row}: hash ") for a in journal_alarms(view)
    )


def pit_view(broker: Broker, store: Path) -> PitView:
    """The floor view, believing the table whose journal is beside its store (its key)."""
    return PitView(broker.url, port=0, store=store, table_keys=folder_keys(store.parent, TABLE))


def played_and_copied(
    folder: Path, broker: Broker, view: PitView, *, rounds: int = 8
) -> tuple[Path, dict[str, bytes], int, Path]:
    """The table plays, stops; its files are copied; it plays on and stops. Returns its
    config, the copy, the last row of the copy, and the whole journal as it stood."""
    config = write_config(folder, "blackjack", TABLE, broker.url, keepalive=3)
    journal = journal_of(folder)
    table = DemoTable(config, journal, pace=0.01)
    assert table.wait_actions(40), table.output()
    assert table.stop() == 0
    copy, copied_to = kept_files(folder), last_seq(journal)
    table = DemoTable(config, journal, pace=0.01)
    while settled(journal, copied_to + 1)[0] < rounds:
        assert table.wait_actions(5), table.output()
    assert table.stop() == 0
    assert caught_up(view, journal), (seen(view).get("journal_seq"),
                                         last_seq(journal))  # fmt: skip
    whole = folder / "whole.sqlite"
    source, target = sqlite3.connect(f"file:{journal}?mode=ro", uri=True), sqlite3.connect(whole)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return config, copy, copied_to, whole


@pytest.mark.timeout(600)
def test_a_rollback_with_the_table_on_the_broker_alarms_and_is_counted_once(
    tmp_path: Path, broker: Broker
) -> None:
    view = pit_view(broker, tmp_path / "pit.sqlite").start()
    try:
        config, copy, copied_to, whole = played_and_copied(tmp_path, broker, view)
        head = last_seq(whole)
        assert figures(view) == settled(whole)
        assert seen(view)["journal_alarm"] == ""

        put_back(tmp_path, copy)  # the cursor too: the table starts, the pit must see it
        journal = journal_of(tmp_path)
        table = DemoTable(config, journal, pace=0.01)
        try:
            play(table, journal, head)  # dealt past the old head, on the broker throughout
        finally:
            assert table.stop() == 0
        assert view.floor.wait_for(lambda _: fork_alarm(copied_to + 1)(view), 30), seen(view)
        assert caught_up(view, journal)
        fork, *after = journal_alarms(view)
        assert fork == (
            f"journal forked at row {copied_to + 1}: hash {row_hash(journal, copied_to + 1)[:12]}"
            f", where {row_hash(whole, copied_to + 1)[:12]} was seen before (the journal was "
            "rewritten)"
        )  # one alarm for the rewrite, and the head it said going back from the old one's
        for alarm in after:  # from the last head the table said (its last state) to its new
            back = alarm.removeprefix("journal head went back from row ").split()
            assert copied_to < int(back[0]) <= head and back[1:3] == ["to", "row"], alarm
        # the first rows witnessed at each seq count: the old journal's to its head, the
        # rewritten journal's only past it
        old, new = settled(whole), settled(journal, head + 1)
        assert figures(view) == tuple(a + b for a, b in zip(old, new, strict=True))
        assert settled(journal, copied_to + 1, head)[0] >= 1  # re-dealt rounds not counted
    finally:
        view.close()


@pytest.mark.timeout(600)
def test_a_rollback_off_the_broker_past_the_old_head_alarms_after_a_pit_restart(
    tmp_path: Path, broker: Broker
) -> None:
    store = tmp_path / "pit.sqlite"
    view = pit_view(broker, store).start()
    try:
        config, copy, copied_to, whole = played_and_copied(tmp_path, broker, view)
        head = last_seq(whole)
        view.close()
        broker.stop()  # the table off the broker, the pit view away too

        put_back(tmp_path, copy)
        journal = journal_of(tmp_path)
        table = DemoTable(config, journal, pace=0.01)
        try:
            play(table, journal, head + 20)  # well past the old head, unseen
            view = pit_view(broker, store).start()  # restarted
            broker.start()  # back: the table sends the rows after its old cursor
            assert view.floor.wait_for(lambda _: fork_alarm(copied_to + 1)(view), 60), seen(view)
        finally:
            assert table.stop() == 0
        assert caught_up(view, journal)
        old, new = settled(whole), settled(journal, head + 1)
        assert figures(view) == tuple(a + b for a, b in zip(old, new, strict=True))
        alarm = seen(view)["journal_alarm"]
        view.close()
        view = pit_view(broker, store).start()  # the alarm is the store's
        assert seen(view)["journal_alarm"] == alarm
        (entry,) = [a for a in view.floor.alarms() if a["kind"] == "JournalHead"]
        assert entry["message"] == alarm and entry["alert"]
        assert figures(view) == tuple(a + b for a, b in zip(old, new, strict=True))
    finally:
        view.close()


@pytest.mark.timeout(600)
def test_a_rollback_while_the_pit_view_was_down_alarms_when_it_is_back(
    tmp_path: Path, broker: Broker
) -> None:
    store = tmp_path / "pit.sqlite"
    view = pit_view(broker, store).start()
    try:
        config, copy, copied_to, whole = played_and_copied(tmp_path, broker, view, rounds=4)
        view.close()  # its persistent session keeps what the table sends meanwhile

        put_back(tmp_path, copy)
        journal = journal_of(tmp_path)
        table = DemoTable(config, journal, pace=0.01)
        try:
            assert table.wait_actions(16), table.output()
        finally:
            assert table.stop() == 0
        view = pit_view(broker, store).start()
        assert view.floor.wait_for(lambda _: fork_alarm(copied_to + 1)(view), 30), seen(view)
        assert caught_up(view, journal)
        head = last_seq(whole)
        old, new = settled(whole), settled(journal, head + 1)
        assert figures(view) == tuple(a + b for a, b in zip(old, new, strict=True))
    finally:
        view.close()


# --- the table checks itself against its own pit cursor ------------------------------------


@pytest.mark.timeout(600)
def test_a_journal_behind_its_own_pit_cursor_is_refused_until_a_reopen(
    tmp_path: Path, broker: Broker
) -> None:
    """The issue's case: only the journal and its checkpoint put back. The cursor, newer,
    says the pit saw more than the journal has."""
    view = pit_view(broker, tmp_path / "pit.sqlite").start()
    try:
        config, copy, copied_to, whole = played_and_copied(tmp_path, broker, view, rounds=3)
        head = last_seq(whole)
        put_back(tmp_path, copy, cursor=False)
        journal = journal_of(tmp_path)
        before = kept_files(tmp_path)
        says = (
            f"the journal ends at row {copied_to}, but its pit cursor {TABLE}.sqlite.pit-cursor "
            f"says the pit's broker acknowledged rows up to row {head}: the journal was rolled "
            "back (an older copy put back, or rows cut off the end); the table does not play "
            f"on it, and {journal} is left as it is (a supervisor opens a new journal: "
            "tablectl journal reopen)"
        )
        line = one_line(tablectl("run", "--config", str(config), "--sim"), "tablectl run: ")
        assert line == f"tablectl run: {says}"
        demo = ("demo", "--config", str(config), "--journal", str(journal), "--port", "0")
        assert one_line(tablectl(*demo), "tablectl demo: ") == f"tablectl demo: {says}"
        assert kept_files(tmp_path) == before  # nothing changed, nothing published
        assert seen(view)["journal_alarm"] == ""

        done = tablectl("journal", "reopen", "--config", str(config), "--staff", "s01",
                        "--reason", "rolled back: ticket 5120", stdin="2468\n")  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"last good row {copied_to}:" in done.stdout
        assert "the journal was rolled back" in done.stdout
        asides = {p.name for p in tmp_path.iterdir() if ".refused-" in p.name}
        assert any(name.endswith(".pit-cursor") for name in asides)  # kept with the old one
        assert not cursor_path(journal).exists()  # the new journal starts its own cursor

        process = subprocess.Popen(
            [sys.executable, "-m", "controller.app.cli", "run", "--config", str(config),
             "--sim"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert process.stdout is not None and "running" in process.stdout.readline()
            opened = "a new journal was opened by s01: rolled back: ticket 5120 (the pit had "
            assert view.floor.wait_for(
                lambda _: seen(view)["journal_alarm"].startswith(opened), 30
            ), seen(view)
            assert seen(view)["journal_alarm"] == f"{opened}witnessed the old one to row {head})"
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0
            process.communicate()
        assert witnessed_to(view, journal)  # the new journal's rows: witnessed, no fork
        assert seen(view)["journal_alarm"].startswith(opened)
    finally:
        view.close()


@pytest.mark.timeout(180)
def test_journal_reopen_is_refused_while_the_table_runs(tmp_path: Path, broker: Broker) -> None:
    config = write_config(tmp_path, "blackjack", TABLE, broker.url)
    journal = journal_of(tmp_path)
    table = DemoTable(config, journal, pace=0.05)
    try:
        assert table.wait_actions(3), table.output()
        before = sorted(p.name for p in tmp_path.iterdir())
        done = tablectl("journal", "reopen", "--config", str(config), "--staff", "s01",
                        "--reason", "key rotation", stdin="2468\n")  # fmt: skip
        line = one_line(done, "tablectl journal: reopen refused: ")
        assert line == (
            f"tablectl journal: reopen refused: the table {TABLE} (pid {table.proc.pid}) is "
            f"running on the journal {journal} (it holds {TABLE}.sqlite.lock): stop it first "
            "(systemctl stop tablectl)"
        )
        assert done.returncode == 1
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing moved
        assert table.wait_actions(3), table.output()  # and the table deals on
    finally:
        assert table.stop() == 0
    done = tablectl("journal", "reopen", "--config", str(config), "--staff", "s01",
                    "--reason", "key rotation", stdin="2468\n")  # fmt: skip
    assert done.returncode == 0, done.stderr  # stopped: the way is open


# --- the archiver keeps what the pit has not acknowledged ----------------------------------


def test_the_archiver_keeps_a_sealed_file_the_pit_has_not_acknowledged(tmp_path: Path) -> None:
    from tests.app.runtime.test_journal_rotation import KEY, _keeping, _rotating

    base = tmp_path / "journal.sqlite"
    keeping = _keeping(tmp_path)
    _rotating("poker", base, keeping, rounds=20).journal.close()
    files = set_files(base)
    assert len(files) >= 3
    from controller.journal.store import Journal

    with Journal(files[0], key=KEY, readonly=True, check=False) as first:
        first_end = first.head.seq
    acked = [first_end - 1]  # the pit's broker has not yet acknowledged the file's last row
    archive_sealed(base, KEY, keeping, lambda: acked[0])
    assert set_files(base) == files  # archived, but every file kept at the table
    assert list(keeping.archive_dir.glob("*.xz")) if keeping.archive_dir else False

    archiver = Archiver(base, KEY, keeping, None, lambda: acked[0]).start()
    try:
        assert archiver.wait_passes(1, 60)
        assert set_files(base) == files
        acked[0] = first_end  # acknowledged now: the next pass may delete it
        archiver.wake()
        assert archiver.wait_passes(2, 60)
    finally:
        archiver.close()
    assert files[0] not in set_files(base)
