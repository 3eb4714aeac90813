"""The floors of DESIGN.md, checked on the source: no import runs back up.

- firmware_bridge imports only the standard library;
- controller (outside controller/app, the composition root) imports neither drivers nor
  sim_hardware;
- drivers may import firmware_bridge and the ground floor of controller (ports, cards,
  errors), nothing else of it, and never sim_hardware;
- sim_hardware may import firmware_bridge, drivers and the controller's ground floor.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GROUND = {"controller", "controller.ports", "controller.cards", "controller.errors"}
OWN = ("firmware_bridge", "drivers", "controller", "sim_hardware")


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            # "from controller import cards" imports controller.cards
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def forbidden(package: str, path: Path, module: str) -> str | None:
    top = module.split(".")[0]
    rel = path.relative_to(ROOT).as_posix()
    if package == "firmware_bridge":
        if top != "firmware_bridge" and top not in sys.stdlib_module_names:
            return "firmware_bridge may import only the standard library"
    elif package == "controller" and not rel.startswith("controller/app/"):
        if top in ("drivers", "sim_hardware") or module.startswith("controller.app"):
            return "the rules layer must not import devices, simulators or the app"
    elif package in ("drivers", "sim_hardware"):
        if top == "controller" and module not in GROUND and not _is_name(module):
            return f"{package} may import only controller.ports/cards/errors"
        if package == "drivers" and top == "sim_hardware":
            return "drivers must not import the simulators"
    return None


def _is_name(module: str) -> bool:
    # "from controller.ports import CardDrawn" also yields "controller.ports.CardDrawn"
    parent = module.rsplit(".", 1)[0]
    return parent in GROUND and parent != "controller"


def all_sources() -> list[tuple[str, Path]]:
    return [(pkg, path) for pkg in OWN for path in sorted((ROOT / pkg).rglob("*.py"))]


@pytest.mark.parametrize(("package", "path"), all_sources(), ids=lambda v: str(v))
def test_imports_respect_the_floors(package: str, path: Path) -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{line}: imports {module}: {why}"
        for line, module in imports_of(path)
        if (why := forbidden(package, path, module))
    ]
    assert not problems, "\n".join(problems)


def test_the_checker_catches_a_violation(tmp_path: Path) -> None:
    fake = ROOT / "controller" / "blackjack" / "x.py"
    assert forbidden("controller", fake, "drivers.serial_device")
    assert forbidden("firmware_bridge", ROOT / "firmware_bridge" / "x.py", "serial")
    assert forbidden("drivers", ROOT / "drivers" / "x.py", "controller.blackjack.machine")
    assert forbidden("drivers", ROOT / "drivers" / "x.py", "sim_hardware.shoe")
    assert not forbidden("drivers", ROOT / "drivers" / "x.py", "controller.ports.CardDrawn")
    app = ROOT / "controller" / "app" / "x.py"
    assert not forbidden("controller", app, "drivers.serial_device")
