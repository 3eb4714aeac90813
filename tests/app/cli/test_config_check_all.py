"""`tablectl config check` names every mistake it can find in one run, one line each with
its key and line; a file nested too deeply for the TOML reader is one line, not a
traceback; the shipped example configs are right, and a journal folder not made yet on
this machine is said as the one step left, with the command that makes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.cli import shipped
from controller.game import names
from tests.support.cli import tablectl

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()


def test_config_check_lists_every_mistake_in_one_run(tmp_path: Path) -> None:
    journal = tmp_path / "bj.sqlite"
    text = (
        EXAMPLE.replace("minimum = 2\n", 'minimum = "two"\n', 1)  # [limits]: a type
        .replace("[shoe]\n", "[shoe]\nspeed = 9\n", 1)  # [shoe]: an unknown key
        .replace("port = 8080\n", 'port = "http"\ncolour = 1\n', 1)  # two in [display]
        .replace("/var/lib/tablectl/bj-01.sqlite", str(journal), 1)
    )
    assert text.count("\n") > EXAMPLE.count("\n")  # the edits landed
    path = tmp_path / "bad.toml"
    path.write_text(text)
    done = tablectl("config", "check", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert all(line.startswith(f"tablectl config: {path}:") for line in lines), done.stderr
    said = "\n".join(lines)
    assert "limits.minimum: must be a whole number" in said
    assert "shoe.speed: unknown key" in said
    assert "display.colour: unknown key" in said
    assert "display.port: must be a whole number" in said
    assert len(lines) == 4


def test_config_check_lists_the_start_up_checks_mistakes_together(tmp_path: Path) -> None:
    """Past the file's shape: two of `tablectl run`'s start-up checks fail at once."""
    text = EXAMPLE.replace("/var/lib/tablectl/bj-01.sqlite", str(tmp_path / "bj.sqlite"), 1)
    text += f'\n[pit]\nbroker = "ftp://pit"\nca_file = "{tmp_path / "no-ca.pem"}"\n'
    path = tmp_path / "bad.toml"
    path.write_text(text)
    done = tablectl("config", "check", str(path))
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert any("pit.ca_file: " in line and "does not exist" in line for line in lines)
    assert any("pit.broker" in line for line in lines), done.stderr


@pytest.mark.parametrize(
    "nested", ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{b=" * 5000 + "1" + "}" * 5000]
)
def test_a_deeply_nested_file_is_one_line_not_a_traceback(tmp_path: Path, nested: str) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(nested + "\n")
    done = tablectl("config", "check", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"tablectl config: {path}: not a table config: arrays or tables nested too deeply"
    ]


@pytest.mark.parametrize("game", names())
def test_the_example_configs_check_ok_but_for_the_journal_folder(game: str) -> None:
    """The examples are right; on a machine without /var/lib/tablectl (not a Pi set up by
    docs/install.md) the one line left is the command that makes it."""
    done = tablectl("config", "check", str(shipped.example_config(game)))
    if Path("/var/lib/tablectl").is_dir():
        assert done.returncode == 0, done.stderr
        assert ": ok: table " in done.stdout
        return
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert "journal.path: the folder /var/lib/tablectl does not exist yet" in line
    assert "sudo install -d -o tablectl -g tablectl -m 0750 /var/lib/tablectl" in line


def test_with_its_folder_made_an_example_checks_ok(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(EXAMPLE.replace("/var/lib/tablectl/bj-01.sqlite", str(tmp_path / "bj.sqlite")))
    done = tablectl("config", "check", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith(f"{path}: ok: table bj-01 (blackjack)")


def test_a_journal_folder_not_made_is_the_one_step_left(tmp_path: Path) -> None:
    folder = tmp_path / "not-made"
    path = tmp_path / "table.toml"
    path.write_text(
        EXAMPLE.replace("/var/lib/tablectl/bj-01.sqlite", str(folder / "bj-01.sqlite"), 1)
    )
    line = next(n for n, text in enumerate(EXAMPLE.splitlines(), 1) if "bj-01.sqlite" in text)
    done = tablectl("config", "check", str(path))
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"tablectl config: {path}:{line}: journal.path: the folder {folder} does not exist yet: "
        "the one step left before this table runs here is `sudo install -d -o tablectl -g "
        f"tablectl -m 0750 {folder}` (or correct the path, if that is not the table's folder)"
    ]
    refused = tablectl("run", "--config", str(path), "--sim")  # run still needs it made
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f"tablectl run: {path}:{line}: journal.path: the folder {folder} does not exist "
        "(create it first)"
    ]
    assert not folder.exists()
