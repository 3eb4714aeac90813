"""Idle connections cannot stop a table, and the pit view holds them to the same caps.

Real processes under ``prlimit --nofile=128`` (a tenth of the unit's LimitNOFILE): a
simulated table (`tablectl demo`) with 150 idle TCP connections to its port keeps dealing,
its journal verifies afterwards and SIGTERM stops it at once; the log says once that it is
refusing connections. The pit view (`tablectl pit`) keeps one address to `PER_CLIENT`
connections, closes one that sends nothing after `IDLE_SECONDS` and one whose request
head does not come after `HEADER_SECONDS`.

Without the caps the table ran out of descriptors: its checkpoint and the journal's size
check could not open a file, the journal failed and the table stopped, and asyncio logged
every failed accept (tens of thousands of lines).
"""

from __future__ import annotations

import selectors
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.console.connections import (
    HEADER_SECONDS,
    IDLE_SECONDS,
    PER_CLIENT,
    RESERVED_FDS,
)
from controller.journal.checkpoint import read_checkpoint
from controller.journal.store import Journal
from sim_hardware.testbed import free_port
from tests.needs import missing
from tests.support.processes import Watched

ROOT = Path(__file__).resolve().parents[2]
NOFILE = 128
HELD = 150
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]  # 15 each: under the per-client cap
REFUSING = "refusing connections"


class Served(Watched):
    """A tablectl command with a web server, under ``prlimit --nofile=128``; its output
    (stdout and the log) kept line by line, to wait on."""

    def __init__(self, *args: str) -> None:
        prlimit = shutil.which("prlimit")
        if prlimit is None:
            missing("prlimit (util-linux)")
        command = [prlimit, f"--nofile={NOFILE}", sys.executable, "-m", "controller.app.cli"]
        super().__init__([*command, *args], name="served-output", cwd=ROOT)

    def log(self) -> list[str]:
        """Every line but the demo's own play-by-play (``round ...``)."""
        with self.changed:
            return [line for line in self.lines if not line.startswith("round")]

    def stop(self, timeout: float = 30.0) -> float:  # type: ignore[override]
        """SIGTERM; how long it took to exit (infinite if it had to be killed)."""
        began = time.monotonic()
        if super().stop(timeout) is None:
            return float("inf")
        return time.monotonic() - began


def rounds_played(lines: list[str]) -> int:
    """The demo's round number in its last line of play (``round  12  hit: 4h ...``)."""
    for line in reversed(lines):
        if line.startswith("round"):
            number = line.split()[1]
            return int(number) if number.isdigit() else 0
    return 0


def connect_idle(port: int, addresses: list[str], count: int) -> list[socket.socket]:
    """``count`` TCP connections that send nothing, from ``addresses`` in turn."""
    held = []
    for n in range(count):
        sock = socket.socket()
        sock.bind((addresses[n % len(addresses)], 0))
        sock.connect(("127.0.0.1", port))
        held.append(sock)
    return held


def closed_by_server(socks: list[socket.socket], count: int, timeout: float) -> list[int]:
    """Wait until ``count`` of ``socks`` have been closed by the server (end of file, or
    reset); their indexes."""
    closed: list[int] = []
    with selectors.DefaultSelector() as selector:
        for index, sock in enumerate(socks):
            selector.register(sock, selectors.EVENT_READ, index)
        deadline = time.monotonic() + timeout
        while len(closed) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in selector.select(left):
                try:
                    data = key.fileobj.recv(4096)  # type: ignore[union-attr]
                except ConnectionError:
                    data = b""
                if not data:
                    selector.unregister(key.fileobj)
                    closed.append(key.data)
    return closed


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    made: list[socket.socket] = []
    yield made
    for sock in made:
        sock.close()


def test_150_idle_connections_under_128_descriptors_do_not_stop_the_table(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    journal = tmp_path / "journal.sqlite"
    port = free_port()
    table = Served(
        "demo", "--pace", "0", "--seed", "25", "--journal", str(journal), "--port", str(port)
    )
    try:
        assert table.wait_for(lambda lines: rounds_played(lines) >= 2), table.log()[-20:]
        before = rounds_played(table.lines)
        sockets += connect_idle(port, ADDRESSES, HELD)
        held_from = time.monotonic()
        # refused at once: all but what the process budget leaves its servers
        refused = closed_by_server(sockets, HELD - (NOFILE - RESERVED_FDS), timeout=10)
        assert len(refused) == HELD - (NOFILE - RESERVED_FDS)
        # the table deals on while the rest are held, then outlives their idle timeout
        assert table.wait_for(lambda lines: rounds_played(lines) >= before + 5, timeout=60), (
            table.log()[-20:]
        )
        held = [sock for n, sock in enumerate(sockets) if n not in refused]
        assert len(closed_by_server(held, len(held), timeout=IDLE_SECONDS + 15)) == len(held)
        dealt_while_held = rounds_played(table.lines) - before
        held_for = time.monotonic() - held_from
        seconds = table.stop()
    finally:
        table.kill()
    log = table.log()
    refusing = [line for line in log if REFUSING in line]
    print(
        f"{HELD} connections from {len(ADDRESSES)} addresses, {HELD - len(refused)} held "
        f"for {held_for:.1f} s: {dealt_while_held} rounds dealt; {len(log)} log lines, "
        f"{len(refusing)} saying it refuses; SIGTERM to exit {seconds:.2f} s"
    )
    assert seconds < 5.0
    assert len(refusing) == 1, refusing
    assert len(log) < 20, "".join(log[-20:])
    assert not [line for line in log if "Too many open files" in line or "stops" in line]
    verify = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "journal", "verify", str(journal)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    with sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True) as db:
        settled = db.execute("SELECT COUNT(*) FROM journal WHERE kind = 'RoundSettled'").fetchone()
    assert settled[0] >= before + 5


def test_the_pit_view_takes_16_connections_from_one_address_and_times_them_out(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    port = free_port()
    broker = f"mqtt://127.0.0.1:{free_port()}"  # nothing there: the view waits for it
    view = Served(
        "pit", "--broker", broker, "--port", str(port), "--store", str(tmp_path / "pit.sqlite")
    )
    try:
        assert view.wait_for(lambda lines: any("pit floor view:" in x for x in lines))
        opened = time.monotonic()
        sockets += connect_idle(port, ["127.0.0.1"], HELD)
        refused = closed_by_server(sockets, HELD - PER_CLIENT, timeout=10)
        assert len(refused) == HELD - PER_CLIENT
        held = [sock for n, sock in enumerate(sockets) if n not in refused]
        asked = held.pop()  # one of those held is served
        asked.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        asked.settimeout(10)
        assert asked.recv(12).startswith(b"HTTP/1.1 ")
        # the rest, sending nothing, are closed once they have been idle long enough
        assert len(closed_by_server(held, len(held), timeout=IDLE_SECONDS + 15)) == len(held)
        idle_for = time.monotonic() - opened
        assert IDLE_SECONDS - 1 <= idle_for <= IDLE_SECONDS + 10
        # a request head that never ends is closed too
        slow = connect_idle(port, ["127.0.0.1"], 1)
        sockets += slow
        slow[0].sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        began = time.monotonic()
        assert closed_by_server(slow, 1, timeout=HEADER_SECONDS + 15) == [0]
        head_for = time.monotonic() - began
        assert HEADER_SECONDS - 1 <= head_for <= HEADER_SECONDS + 10
        seconds = view.stop()
    finally:
        view.kill()
    refusing = [line for line in view.log() if REFUSING in line]
    assert len(refusing) == 1, refusing
    assert seconds < 5.0


NO_SPARE_DESCRIPTOR = """
import os, sys
from pathlib import Path
from controller.app.config.journal import JournalKeeping
from controller.app.runtime.journal_rotation import Rotation
from controller.journal.store import Journal

journal = Journal(Path(sys.argv[1]), key=bytes(32))
journal.append("Note", {"n": 0}, source="controller")
journal.checkpoint()
rotation = Rotation(JournalKeeping(rotate_daily=False, rotate_bytes=1 << 30), bytes(32))
taken = []
try:
    while True:  # every descriptor the limit allows
        taken.append(os.open(os.devnull, os.O_RDONLY))
except OSError as exc:
    print("descriptors left: none (" + exc.strerror + ")")
for n in range(1, 21):  # twenty rounds' ends: a row, the checkpoint, the size check
    journal.append("Note", {"n": n}, source="controller")
    journal.checkpoint()
    rotation.due(journal)
print("rows", journal.last_seq)
"""


def test_the_journal_writes_and_checkpoints_with_no_descriptor_to_spare(tmp_path: Path) -> None:
    """With every descriptor of the process taken (by anything: the web side, a leak),
    rows are written, the checkpoint moves and the rotation's size check runs."""
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        missing("prlimit (util-linux)")
    journal = tmp_path / "journal.sqlite"
    done = subprocess.run(
        [prlimit, "--nofile=64", sys.executable, "-c", NO_SPARE_DESCRIPTOR, str(journal)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "descriptors left: none" in done.stdout
    assert "rows 21" in done.stdout
    checkpoint = read_checkpoint(journal, bytes(32))
    assert checkpoint is not None and checkpoint.seq == 21
    with Journal(journal, key=bytes(32), readonly=True, check=False) as written:
        assert written.verify() == 21
