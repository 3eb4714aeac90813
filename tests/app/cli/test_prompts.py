"""Every prompt of the CLI (pin-hash's PIN twice, journal reopen's supervisor PIN) ends on
Ctrl-D or Ctrl-C with one line saying so, never a traceback, and without a terminal it says
how to give the PIN instead of reading it, echoed, from a pipe."""

from __future__ import annotations

import fcntl
import getpass
import io
import os
import pty
import select
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from controller.app.cli import journal_reopen, main, prompt

TABLECTL = [sys.executable, "-m", "controller.app.cli"]
ROOT = Path(__file__).resolve().parents[3]


def raising(error: type[BaseException]):  # type: ignore[no-untyped-def]
    def ask(question: str) -> str:
        raise error

    return ask


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [(EOFError, 1, "input ended (Ctrl-D)"), (KeyboardInterrupt, 130, "(Ctrl-C)")],
)
def test_pin_hash_ends_at_the_prompt_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: type[BaseException],
    code: int,
    words: str,
) -> None:
    monkeypatch.setattr(prompt, "has_terminal", lambda: True)
    monkeypatch.setattr(getpass, "getpass", raising(error))
    assert main(["pin-hash"]) == code
    captured = capsys.readouterr()
    assert captured.out == ""  # no hash written
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablectl pin-hash: ")
    assert words in lines[0]


def test_journal_reopen_ends_at_its_prompt_with_prompt_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(prompt, "has_terminal", lambda: True)
    monkeypatch.setattr(getpass, "getpass", raising(EOFError))
    with pytest.raises(prompt.PromptEnded, match="Ctrl-D"):
        journal_reopen.read_pin(Terminal())


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_pin_hash_without_a_terminal_says_to_use_stdin() -> None:
    done = subprocess.run(
        [*TABLECTL, "pin-hash"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        start_new_session=True,  # no controlling terminal, as under a service or a pipe
        env=env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "tablectl pin-hash: no terminal to ask on: give it on standard input with --stdin"
    ]


def take_terminal() -> None:
    """In the child (a new session): make its standard input, the pty, its terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 30.0) -> None:
    while wanted not in seen:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            raise AssertionError(f"no {wanted!r} within {timeout} s: {bytes(seen)!r}")
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the child is gone and the pty closed
            return
        if not chunk:
            return
        seen += chunk


@pytest.mark.parametrize(("key", "code"), [(b"\x04", 1), (b"\x03", 130)])
def test_pin_hash_at_a_real_terminal_ends_on_ctrl_d_and_ctrl_c(key: bytes, code: int) -> None:
    terminal, line = pty.openpty()
    child = subprocess.Popen(
        [*TABLECTL, "pin-hash"],
        stdin=line,
        stdout=line,
        stderr=line,
        start_new_session=True,
        preexec_fn=take_terminal,
        env=env(),
    )
    os.close(line)
    seen = bytearray()
    try:
        read_until(terminal, b"PIN: ", seen)
        os.write(terminal, key)
        assert child.wait(timeout=30) == code
        read_until(terminal, b"nothing done", seen, timeout=5.0)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(terminal)
    text = bytes(seen).decode(errors="replace")
    assert "Traceback" not in text
    assert "tablectl pin-hash: " in text and "nothing done" in text
