"""`tablectl example-config` and `tablectl deploy-files` give out the shipped files without
overwriting a table's own: an existing --out file, or a deploy file edited for the table,
is left as it is (deploy-files --force overwrites)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.cli import main

ROOT = Path(__file__).resolve().parents[3]


def test_example_config_prints_the_game_and_the_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["example-config", "poker"]) == 0
    assert capsys.readouterr().out == (ROOT / "examples" / "poker-table.toml").read_text()
    assert main(["example-config", "--deck"]) == 0
    assert capsys.readouterr().out == (ROOT / "examples" / "deck-rfid-example.txt").read_text()


def test_example_config_never_overwrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "table.toml"
    mine.write_text("# my table\n")
    assert main(["example-config", "blackjack", "--out", str(mine)]) == 1
    assert mine.read_text() == "# my table\n"
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"tablectl example-config: {mine} exists: not overwritten"]


def test_an_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["example-config", "roulette"])
    assert done.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_deploy_files_keeps_an_edited_file_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deploy-files", str(tmp_path)]) == 0
    unit = tmp_path / "tablectl.service"
    unit.write_text("# edited for this table\n")
    assert main(["deploy-files", str(tmp_path)]) == 1
    assert unit.read_text() == "# edited for this table\n"
    assert "tablectl.service" in capsys.readouterr().err
    assert main(["deploy-files", str(tmp_path), "--force"]) == 0
    assert unit.read_bytes() == (ROOT / "deploy" / "tablectl.service").read_bytes()
