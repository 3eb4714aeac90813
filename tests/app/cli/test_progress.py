"""Progress on long work: a bar on a terminal, nothing extra anywhere else.

Each command runs as a process with its stderr on a real pseudo-terminal (`pty.openpty`,
80 columns) and its stdout on a pipe: the bar is drawn on the terminal. Run again with
both on pipes, it prints the same stdout (byte for byte where the output has no timings)
and nothing on stderr; with ``--json`` the terminal gets nothing at all.
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

from controller.app.cli import build_parser
from controller.app.tools.deck import run as deck_run
from sim_hardware.rdm6300 import SimulatedRdm6300, sim_tag

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT = 120


def on_a_terminal(*argv: str, script: str = "") -> tuple[int, bytes, bytes]:
    """Run ``tablectl ARGV`` (or the ``script``) with stderr on a pty: (exit code, stdout,
    what the pty got)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    command = [script] if script else ["-m", "controller.app.cli"]
    proc = subprocess.Popen(
        [sys.executable, *command, *argv],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    stdout: list[bytes] = []
    reader = threading.Thread(target=lambda: stdout.append(proc.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the process closed the terminal's last descriptor
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    code = proc.wait(timeout=TIMEOUT)
    reader.join(TIMEOUT)
    return code, stdout[0], bytes(seen)


def piped(*argv: str) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", *argv],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=TIMEOUT,
    )
    return done.returncode, done.stdout, done.stderr


def is_bar(seen: bytes, unit: str) -> bool:
    """tqdm's bar: ``desc: 40%|####      | 1.2k/3k [00:01<00:02, 1.1k rounds/s]``."""
    return re.search(rb"\d+%\|.*\| *[\d.]+k?/[\d.]+k? \[", seen) is not None and unit.encode() in (
        seen
    )


def no_figures(text: bytes) -> bytes:
    """The output with its timings (every number) taken out, to compare two runs."""
    return re.sub(rb"[-+]?[\d][\d,.]*", b"#", text)


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "journal.sqlite"
    made = piped("demo", "--journal", str(path), "--rounds", "3", "--pace", "0", "--port", "0")
    assert made[0] == 0, made
    return path


@pytest.mark.parametrize(
    ("game", "count", "unit"),
    [("blackjack", "--rounds", "rounds"), ("poker", "--hands", "hands"),
     ("baccarat", "--rounds", "coups")],
)  # fmt: skip
def test_simulate_shows_a_bar_on_a_terminal_and_nothing_extra_when_piped(
    game: str, count: str, unit: str
) -> None:
    args = ("simulate", game, count, "600", "--seed", "3")
    code, out, seen = on_a_terminal(*args)
    assert code == 0 and is_bar(seen, unit), seen[-400:]
    assert f"simulate {game}".encode() in seen
    code, plain, errors = piped(*args)
    assert code == 0 and errors == b""
    assert no_figures(plain) == no_figures(out)
    code, out, seen = on_a_terminal(*args, "--json")
    assert code == 0 and seen == b"" and out.startswith(b"{")


@pytest.mark.parametrize(
    "argv",
    [("verify",), ("export",), ("export", "--format", "csv"), ("replay",),
     ("dealers",), ("last", "--full")],
)  # fmt: skip
def test_journal_commands_show_a_bar_on_a_terminal_and_print_the_same_bytes_piped(
    journal: Path, argv: tuple[str, ...]
) -> None:
    command = ("journal", argv[0], str(journal), *argv[1:])
    code, out, seen = on_a_terminal(*command)
    assert code == 0 and is_bar(seen, "rows"), seen[-400:]
    code, plain, errors = piped(*command)
    assert code == 0 and errors == b"" and plain == out


def test_journal_json_output_draws_no_bar(journal: Path) -> None:
    for action in ("replay", "dealers"):
        code, out, seen = on_a_terminal("journal", action, str(journal), "--json")
        assert code == 0 and seen == b"" and out.lstrip().startswith((b"{", b"["))


def test_deck_enrol_shows_its_count_on_a_terminal_and_writes_the_same_prompts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def enrol(deck: Path) -> str:
        args = build_parser().parse_args(
            ["deck", "enrol", "--reader", sim.path, "--out", str(deck), "--idle", "1"]
        )
        out = io.StringIO()
        done = threading.Event()

        def command() -> None:
            deck_run(args, out=out)
            done.set()

        threading.Thread(target=command, daemon=True).start()
        while "pass card 1 of 52" not in out.getvalue():  # the port is open
            assert not done.wait(0.01), out.getvalue()  # polling the command's own output
        for i in range(52):
            sim.present(sim_tag(0, i), repeats=2)
        assert done.wait(60), out.getvalue()
        return out.getvalue()

    with SimulatedRdm6300() as sim:
        plain = enrol(tmp_path / "plain.toml")
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        terminal = open(slave, "w", encoding="utf-8", closefd=True)  # noqa: SIM115
        monkeypatch.setattr(sys, "stderr", terminal)
        seen = bytearray()
        reading = threading.Thread(target=_drain, args=(master, seen), daemon=True)
        reading.start()
        try:
            shown = enrol(tmp_path / "shown.toml")
        finally:
            monkeypatch.setattr(sys, "stderr", sys.__stderr__)
            terminal.close()
        reading.join(10)
    assert "deck enrolled: 52 tags" in plain and shown == plain.replace("plain.toml", "shown.toml")
    assert is_bar(bytes(seen), "cards"), bytes(seen)[-400:]


def test_the_recovery_bench_shows_its_build_and_replay_on_a_terminal(tmp_path: Path) -> None:
    args = ("--rows", "3000", "--games", "blackjack", "--rounds", "6", "--full-rows", "0")
    bench = str(ROOT / "bench" / "recovery.py")
    code, out, seen = on_a_terminal(*args, "--cache", str(tmp_path / "a"), script=bench)
    assert code == 0 and b"blackjack: 3," in out
    assert is_bar(seen, "building the journal") and is_bar(seen, "full replay"), seen[-400:]
    code, out, seen = on_a_terminal(*args, "--json", "--cache", str(tmp_path / "b"), script=bench)
    assert code == 0 and out.startswith(b"{")
    assert b"building the journal" not in seen and b"full replay" not in seen


def _drain(master: int, into: bytearray) -> None:
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        into += chunk
    os.close(master)
