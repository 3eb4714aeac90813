"""The floors of docs/architecture.md, the games' independence and no import cycles: the
import-linter contracts in pyproject.toml (``[tool.importlinter]``), checked on the whole
import graph, TYPE_CHECKING imports included. `make lint` runs ``lint-imports``; this runs
the same check under pytest, and shows that the contracts still say what
docs/architecture.md says."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_the_import_graph_keeps_every_contract() -> None:
    """In its own process: lint-imports configures logging for the whole interpreter."""
    command = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports"
               "; sys.exit(lint_imports(no_logo=True, no_cache=True))"]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_are_the_floors_of_the_design() -> None:
    found = contracts()
    floors = found["floors"]["layers"]
    assert isinstance(floors, list)
    assert floors[0] == "controller.app" and floors[1] == "sim_hardware"
    assert "firmware_bridge" in floors[-1] and "controller.ports" in floors[-1]
    games = {"controller.blackjack", "controller.poker"}
    assert games <= set(found["games-apart"]["modules"])  # type: ignore[call-overload]
    ancestors = set(found["acyclic"]["ancestors"])  # type: ignore[call-overload]
    assert ancestors == {"firmware_bridge", "drivers", "controller", "sim_hardware"}
    app = found["app-floors"]
    assert app["containers"] == ["controller.app"] and app["exhaustive"] is True
    assert app["layers"][0] == "floor : tools" and app["layers"][-1] == "secrets : pin_hashes"
