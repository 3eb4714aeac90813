"""Pulling the plug on a journal with snapshots and a rotation in it: a real
`tablectl run` process SIGKILLed at seeded points, restarted each time on the same set of
files, with a snapshot after every round and the journal rolling over to a new file at the
first round end of a new trading day.

The table must come back exactly where it was (from its last snapshot: each restart
replays only the events after it), nothing the shoe sent may be lost or doubled across the
files, and ``tablectl journal verify`` over the set must be ok."""

from __future__ import annotations

import datetime
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.runtime.journal_files import open_journal
from controller.journal.fileset import entries, set_files
from controller.journal.store import EVENT_TYPES
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import write_config
from tests.integration.power_cuts import check_shoe_rows, deal_with_cuts, table_process

ROOT = Path(__file__).resolve().parents[2]
KILLS = 14
SEED = 20261201


@pytest.fixture
def shoe() -> Iterator[SimulatedShoe]:
    with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(SEED)) as device:
        yield device


def _yesterdays_journal(folder: Path) -> None:
    """The table's journal as yesterday left it: one row, a day old, so the first round
    end of today rotates it (the trading day changed while the table was off)."""
    yesterday = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=1)
    stamp = yesterday.isoformat(timespec="microseconds")
    with open_journal(folder / "journal.sqlite", create=True) as journal:
        journal._wall = lambda: stamp
        journal.append("Note", {"text": "closed for the night"}, source="supervisor",
                       actor="pit boss")  # fmt: skip
        journal.checkpoint()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_sigkill_with_snapshots_and_a_rotation_comes_back_exactly(
    tmp_path: Path, shoe: SimulatedShoe
) -> None:
    archive = tmp_path / "archive"

    def config(port: int) -> Path:
        path = write_config(tmp_path, shoe.link.url, port)
        line = f'path = "{tmp_path}/journal.sqlite"'
        keys = f'snapshot_every = 1\narchive_dir = "{archive}"\n'
        path.write_text(path.read_text().replace(line, f"{line}\n{keys}", 1))
        return path

    client, controller, hands = table_process(shoe, config)
    _yesterdays_journal(tmp_path)
    rng = random.Random(SEED)
    dealer = BlackjackDealer(hands, client.state, rng, insurance_sensors=False)
    try:
        run = deal_with_cuts(
            controller, client, dealer, rng, controller.start(),
            shoe=shoe, kills=KILLS, rounds=4, in_flight=0.2, at_rest=0.25,
        )  # fmt: skip
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()
    assert code == 0
    assert run.exact >= 3

    files = set_files(tmp_path / "journal.sqlite")
    assert len(files) >= 2, files  # the rotation happened
    verify = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "journal", "verify",
         str(tmp_path / "journal.sqlite")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.startswith("ok: ") and f"in {len(files)} files" in verify.stdout
    # the sealed file went to the archive (verified there), and stays at the table: the
    # files after it hold fewer than 10 rounds (GLI-24)
    archived = sorted(archive.glob("journal.sqlite.*.xz"))
    assert [a.name for a in archived] == ["journal.sqlite.000000000001.xz"]
    assert files[0].exists()
    with_archive = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "journal", "verify",
         str(archived[0]), "--key-file", str(tmp_path / "journal.sqlite.key")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert with_archive.returncode == 0, with_archive.stdout + with_archive.stderr
    with open_journal(files[0], readonly=True) as first:
        key = first._key
    rows = list(entries(files, key))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert sum(r.kind == "JournalRotated" for r in rows) == len(files) - 1
    assert sum(r.kind == "Snapshot" for r in rows) >= 4
    check_shoe_rows(rows, shoe)  # once each, in order, none lost; no ControllerFault
    # every restart replayed exactly the events after the last snapshot before it
    since_snapshot, starts, snapshots_used = 0, 0, 0
    for row in rows:
        if row.kind == "Snapshot":
            since_snapshot = 0
            snapshots_used += 1
        elif row.kind == "TableStarted":
            assert row.payload["replayed_events"] == since_snapshot, row
            assert row.round is not None and row.round >= 0
            starts += 1
        elif row.kind in EVENT_TYPES:
            since_snapshot += 1
    assert starts == KILLS + 1 and snapshots_used >= 4
