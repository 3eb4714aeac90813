"""The shipped files have one copy: examples/ and deploy/ at the top of the repository, and
the package reaches them through two links (controller/app/examples, controller/app/deploy)
that the wheel resolves into package data."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from controller.app.cli import shipped
from controller.game import names
from tests.needs import unavailable

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("folder", ["examples", "deploy"])
def test_the_package_folder_is_a_link_to_the_top_level_one(folder: str) -> None:
    link = ROOT / "controller" / "app" / folder
    assert link.is_symlink()
    assert os.readlink(link) == f"../../{folder}"
    assert link.resolve() == (ROOT / folder).resolve()


def test_git_holds_no_second_copy() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "controller/app/examples", "controller/app/deploy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not tracked:  # a copy of the tree without git (CI and a clone always have it)
        unavailable("not a git checkout: git cannot say what it tracks")
    assert sorted(tracked) == ["controller/app/deploy", "controller/app/examples"]


def test_the_commands_read_the_top_level_files() -> None:
    for game in names():
        resource = shipped.example_config(game)
        assert Path(str(resource)).resolve() == (ROOT / "examples" / f"{game}-table.toml")
    assert (
        Path(str(shipped.example_deck())).resolve() == ROOT / "examples" / "deck-rfid-example.txt"
    )
    listed = {name for name, _ in shipped.deploy_files()}
    on_disk = {
        str(p.relative_to(ROOT / "deploy")) for p in (ROOT / "deploy").rglob("*") if p.is_file()
    }
    assert listed == on_disk
