"""Bad input gets one clear line and a non-zero exit, never a traceback.

Each test runs the real command line in a subprocess. `config check` and `run` share one
preflight (`controller.app.runtime.preflight`): what `run` refuses before it opens a device,
`config check` refuses too, naming the same key and line.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import tablectl

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()
EXAMPLE_JOURNAL = "/var/lib/tablectl/bj-01.sqlite"


def one_line(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The failure is one line on stderr naming the problem, and a non-zero exit."""
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def write_config(folder: Path, text: str = EXAMPLE, name: str = "table.toml") -> Path:
    """The example config with its journal in ``folder`` (which exists)."""
    assert EXAMPLE_JOURNAL in text
    path = folder / name
    path.write_text(text.replace(EXAMPLE_JOURNAL, str(folder / "bj.sqlite")))
    return path


def line_of(path: Path, needle: str) -> int:
    text = path.read_text()
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port some other program is listening on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        yield other.getsockname()[1]


# --- config check and run: one preflight -------------------------------------------------


def test_a_pin_where_its_hash_belongs_is_refused_by_check_and_run_at_its_line(
    tmp_path: Path,
) -> None:
    text, count = re.subn(r'(?m)^pin_hash = ".*"$', 'pin_hash = "2468"', EXAMPLE, count=1)
    assert count == 1
    path = write_config(tmp_path, text)
    pin_line = line_of(path, 'pin_hash = "2468"')
    at = f"{path}:{pin_line}"
    check = one_line(tablectl("config", "check", str(path)), at, "pin_hash")
    assert check.startswith("tablectl config: ")
    run = one_line(tablectl("run", "--config", str(path), "--sim"), at, "pin_hash")
    assert run.removeprefix("tablectl run: ") == check.removeprefix("tablectl config: ")
    assert not (tmp_path / "bj.sqlite").exists()  # refused before anything was opened


def test_a_journal_in_a_folder_that_does_not_exist_is_refused_and_not_created(
    tmp_path: Path,
) -> None:
    typo = tmp_path / "jurnal" / "bj.sqlite"
    path = tmp_path / "table.toml"
    path.write_text(EXAMPLE.replace(EXAMPLE_JOURNAL, str(typo)))
    at = f"{path}:{line_of(path, str(typo))}"
    one_line(tablectl("config", "check", str(path)), at, "journal.path", str(typo.parent))
    one_line(tablectl("run", "--config", str(path), "--sim"), at, "journal.path")
    assert not typo.parent.exists()


@pytest.mark.parametrize(
    ("section_text", "needle", "key"),
    [
        ('[pit]\nbroker = "http://pit.floor.lan"\n', 'broker = "http', "pit.broker"),
        ('[pit]\nbroker = "mqtt://pit"\nkeepalive = 0\n', "keepalive", "pit.keepalive"),
        (
            '[pit]\nbroker = "mqtts://pit"\nca_file = "/nonexistent/floor-ca.crt"\n',
            'ca_file = "/nonexistent',  # the example's commented [pit] names ca_file too
            "pit.ca_file",
        ),
        ('[pit]\nbroker = "mqtt://pit"\nprefix = "casino/+"\n', "prefix =", "pit.prefix"),
    ],
    ids=["broker-url", "keepalive", "missing-ca-file", "topic-wildcard"],
)
def test_what_run_checks_before_opening_devices_config_check_checks_too(
    tmp_path: Path, section_text: str, needle: str, key: str
) -> None:
    path = write_config(tmp_path, EXAMPLE + "\n" + section_text)
    at = f"{path}:{line_of(path, needle)}"
    one_line(tablectl("config", "check", str(path)), at, key)
    one_line(tablectl("run", "--config", str(path), "--sim"), at, key)


def test_a_config_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    text = path.read_bytes()
    line = text.count(b"\n", 0, text.index(b"[limits]")) + 1
    path.write_bytes(text.replace(b"[limits]", b"[limits] # caf\xe9", 1))  # Latin-1
    for command in (("config", "check", str(path)), ("run", "--config", str(path))):
        one_line(tablectl(*command), f"{path}:{line}", "not UTF-8")


# --- ports, counts, files ------------------------------------------------------------------


def test_demo_on_a_port_in_use_says_so_and_leaves_nothing_behind(
    tmp_path: Path, busy_port: int
) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = tablectl("demo", "--port", str(busy_port), "--rounds", "1", env=env)
    one_line(result, "tablectl demo: ", f"127.0.0.1:{busy_port}", "--port")
    assert not list(tmp_path.glob("tablectl-demo-*"))


def test_demo_journal_in_a_folder_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    typo = tmp_path / "nope" / "j.sqlite"
    one_line(tablectl("demo", "--journal", str(typo), "--port", "0"), "--journal", str(typo.parent))
    assert not typo.parent.exists()


def test_sim_shoe_on_a_tcp_port_in_use_says_so(busy_port: int) -> None:
    one_line(tablectl("sim-shoe", "--tcp", str(busy_port)), f"127.0.0.1:{busy_port}", "in use")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("demo", "--port", "99999"), "--port: 99999 is not a TCP port"),
        (("demo", "--rounds", "-1"), "--rounds: must be 0 or more"),
        (("demo", "--pace", "-1"), "--pace"),
        (("sim-shoe", "--tcp", "99999"), "--tcp: 99999 is not a TCP port"),
        (("sim-shoe", "--pty", "--decks", "0"), "--decks: must be 1 or more, not 0"),
        (("sim-shoe", "--pty", "--deal-every", "-2"), "--deal-every"),
        (("sim-shoe", "--pty", "--count", "-3"), "--count"),
        (("simulate", "blackjack", "--rounds", "-5"), "--rounds: must be 1 or more, not -5"),
        (("simulate", "blackjack", "--rounds", "10", "--decks", "3"), "rule 3.1"),
        (("simulate", "poker", "--hands", "0"), "--hands"),
        (("simulate", "poker", "--players", "1"), "--players"),
        (("pit", "--broker", "mqtt://pit", "--port", "70000"), "--port: 70000"),
        (("pit", "--broker", "mqtt://pit", "--quiet-after", "-1"), "--quiet-after"),
        (("shoe-monitor", "loop://", "--count", "-1"), "--count"),
        (("shoe-monitor", "loop://", "--baud", "0"), "--baud"),
        (("rfid-monitor", "--sim", "--count", "-2"), "--count"),
        (("io-test", "--config", "x.toml", "--step", "-1"), "--step"),
        (("demo", "--port", "eighty"), "'eighty' is not a whole number"),
    ],
    ids=lambda value: "_".join(value) if isinstance(value, tuple) else None,
)
def test_a_bad_number_is_one_line_naming_the_option(args: tuple[str, ...], needle: str) -> None:
    one_line(tablectl(*args), needle)


def test_simulate_never_prints_a_negative_rate() -> None:
    result = tablectl("simulate", "blackjack", "--rounds", "-5", "--json")
    one_line(result)
    assert result.stdout == ""


# --- a closed pipe -------------------------------------------------------------------------


def test_journal_export_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``tablectl journal export ... | head``: when the reader goes, the export stops with
    nothing on stderr (no BrokenPipeError), and a non-zero exit as a Unix tool has."""
    path = tmp_path / "j.sqlite"  # a real table's journal, made the way a table makes it
    made = tablectl("demo", "--journal", str(path), "--rounds", "1", "--pace", "0", "--port", "0")
    assert made.returncode == 0, made.stderr
    for fmt in ("jsonl", "csv"):
        export = ("journal", "export", str(path), "--format", fmt)
        proc = subprocess.Popen(
            [sys.executable, "-m", "controller.app.cli", *export],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        proc.stdout.close()  # `| head -0`: the reader has gone before the first line
        _, errors = proc.communicate(timeout=60)
        assert errors == ""
        assert proc.returncode != 0


# --- the pit's password --------------------------------------------------------------------


def test_pit_password_env_naming_an_unset_variable_is_an_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_SUCH_PIT_PASSWORD"}
    result = tablectl(
        "pit", "--broker", "mqtt://127.0.0.1:1", "--password-env", "NO_SUCH_PIT_PASSWORD", env=env
    )
    one_line(result, "tablectl pit: ", "NO_SUCH_PIT_PASSWORD", "not set")


def test_pit_username_without_its_password_is_an_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TABLECTL_PIT_PASSWORD"}
    result = tablectl("pit", "--broker", "mqtt://127.0.0.1:1", "--username", "pit", env=env)
    one_line(result, "TABLECTL_PIT_PASSWORD", "not set")


def test_an_rfid_shoe_without_its_enrolled_decks_is_refused_by_check_and_run(
    tmp_path: Path,
) -> None:
    """`[shoe] decks` must list one enrolled deck file per deck of the shoe: `config check`
    says so at the line, as `run` does, before any device opens."""
    text, count = re.subn(
        r'(?m)^protocol = "tablectl".*$',
        'protocol = "rdm6300"\ndecks = ["deck-1.toml"]',
        EXAMPLE,
        count=1,
    )
    assert count == 1
    path = write_config(tmp_path, text)
    at = f"{path}:{line_of(path, 'decks = [')}"
    one_line(tablectl("config", "check", str(path)), at, "shoe.decks", "1 deck file(s)")
    one_line(tablectl("run", "--config", str(path)), at, "shoe.decks", "1 deck file(s)")
