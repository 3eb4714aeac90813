"""The table's record is for the service and its group only (docs/security.md, "Files"):
after a real run, the journal (it holds players' cards), its checkpoint and the pit's
cursor are 0640 or tighter whatever the umask of whoever started it (here 022, which
leaves a file 0644); an archive of a sealed file too; a file left 0644 by an older
version is tightened when the table opens it."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.pit.cursor import cursor_path
from controller.app.runtime.journal_archive import write_archive
from controller.journal.store import Journal, checkpoint_path
from sim_hardware.testbed import free_port, write_config
from tests.support.pit import Broker

ROOT = Path(__file__).resolve().parents[2]
KEY = bytes(range(32))

pytestmark = pytest.mark.timeout(180)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def private(path: Path) -> bool:
    """Nothing beyond read and write for the owner and read for the group."""
    return mode(path) & ~0o640 == 0


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_the_journal_checkpoint_and_pit_cursor_are_private_after_a_real_run(
    tmp_path: Path,
) -> None:
    broker = Broker(tmp_path / "broker").start()
    try:
        pit = f'\n[pit]\nbroker = "{broker.url}"\n'
        config = write_config(tmp_path, "sim://", free_port(), pit)
        journal = tmp_path / "journal.sqlite"
        command = [sys.executable, "-m", "controller.app.cli", "demo", "--config", str(config)]
        command += ["--journal", str(journal), "--port", "0", "--pace", "0", "--rounds", "2"]
        result = subprocess.run(
            command,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=150,
            preexec_fn=lambda: os.umask(0o022),  # as a shell would start it
        )
    finally:
        broker.kill()
    assert result.returncode == 0, result.stderr
    files = [journal, checkpoint_path(journal), cursor_path(journal)]
    files += [p for p in tmp_path.iterdir() if p.name.endswith(("-wal", "-shm"))]
    assert all(p.exists() for p in files[:3]), sorted(p.name for p in tmp_path.iterdir())
    assert {p.name: oct(mode(p)) for p in files if not private(p)} == {}


def test_an_archive_is_private(tmp_path: Path, umask_022: None) -> None:
    with Journal(tmp_path / "journal.sqlite", key=KEY) as journal:
        journal.append("Note", {"text": "a row"}, source="controller")
    target = tmp_path / "archive" / "journal.sqlite.xz"
    write_archive(tmp_path / "journal.sqlite", target)
    assert private(target), oct(mode(target))


def test_a_journal_left_0644_is_tightened_when_it_is_opened(
    tmp_path: Path, umask_022: None
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path, key=KEY) as journal:
        journal.append("Note", {"text": "a row"}, source="controller")
        journal.checkpoint()
    for item in (path, checkpoint_path(path)):
        item.chmod(0o644)
    with Journal(path, key=KEY) as journal:
        journal.checkpoint()
        journal.append("Note", {"text": "another"}, source="controller")
        journal.checkpoint()
        assert private(path) and private(checkpoint_path(path))
