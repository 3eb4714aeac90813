"""The JSON form of events, records and views is the kernel's (controller/game/jsonable.py):
the games build their views with it and import nothing of the journal, and the journal's
rows are made with the same function, so a row and a view cannot drift apart."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import controller
from controller.game import jsonable
from controller.game.records import Violation
from controller.journal import rows as journal_rows

ROOT = Path(controller.__file__).resolve().parent
KERNEL_AND_GAMES = ("game", "blackjack", "poker", "baccarat")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
    return found


@pytest.mark.parametrize("package", KERNEL_AND_GAMES)
def test_the_kernel_and_the_games_import_nothing_of_the_journal(package: str) -> None:
    for path in sorted((ROOT / package).rglob("*.py")):
        journal = {
            name
            for name in _imports(path)
            if name == "controller.journal" or name.startswith("controller.journal.")
        }
        assert not journal, f"{path.relative_to(ROOT)} imports {sorted(journal)}"


@pytest.mark.parametrize("game", ["blackjack", "poker", "baccarat"])
def test_each_game_builds_its_view_with_the_kernels_to_jsonable(game: str) -> None:
    module = importlib.import_module(f"controller.{game}.game")
    # the module that builds its view: the game's own, or the kernel's adapter's
    builder = importlib.import_module(module.SPEC.make.view.__module__)
    assert builder.to_jsonable is jsonable.to_jsonable


def test_the_journal_makes_its_rows_with_the_kernels_to_jsonable() -> None:
    assert journal_rows.to_jsonable is jsonable.to_jsonable
    violation = Violation("9.2", "a card while insurance was open", "As", state="insurance")
    kind, payload, *_ = journal_rows.as_row(violation, source="game")
    assert {"type": kind, **payload} == jsonable.to_jsonable(violation)
