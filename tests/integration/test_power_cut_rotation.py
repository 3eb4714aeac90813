"""Pulling the plug on a journal with snapshots and a rotation in it (issue 16): a real
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

from controller.app.journal_files import open_journal
from controller.journal import EVENT_TYPES
from controller.journal_set import entries, set_files
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.link import PtyLink
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle, write_config

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
    port = free_port()
    client = ConsoleClient(f"http://127.0.0.1:{port}")
    config = write_config(tmp_path, shoe.link.url, port)
    text = config.read_text()
    line = f'path = "{tmp_path}/journal.sqlite"'
    archive = tmp_path / "archive"
    keys = f'snapshot_every = 1\narchive_dir = "{archive}"\n'
    config.write_text(text.replace(line, f"{line}\n{keys}", 1))
    _yesterdays_journal(tmp_path)
    controller = ControllerProcess(config, client)
    rng = random.Random(SEED)
    hands = RemoteHands(client, shoe, pin="2468")
    dealer = BlackjackDealer(hands, client.state, rng, insurance_sensors=False)
    state = controller.start()
    kills = exact = 0
    try:
        while kills < KILLS or dealer.rounds_finished < 4:
            seen = state.get("journal_seq", 0)
            did = dealer.step()
            if kills < KILLS and rng.random() < 0.2:  # a cut while the action is on its way
                controller.kill()
                state = controller.start()
                assert state["recovered"] is True
                kills += 1
                continue
            state = settle(client, seen, timeout=0.5 if did.startswith("wait") else 3.0)
            if kills < KILLS and rng.random() < 0.25:  # at rest: back exactly as it was
                controller.kill()
                after = controller.start()
                assert after["view"] == state["view"], (state["view"], after["view"])
                assert after["round"] == state["round"]
                assert after["journal_seq"] > state["journal_seq"]  # its TableStarted
                state = after
                kills += 1
                exact += 1
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()
    assert code == 0
    assert exact >= 3

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
    from_shoe = [r.payload["seq"] for r in rows if r.source == "shoe" and "seq" in r.payload]
    assert from_shoe == list(range(1, len(from_shoe) + 1))  # once each, in order, none lost
    assert len(from_shoe) == shoe.session.counters.sent
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
    assert not [r for r in rows if r.kind == "ControllerFault"]
