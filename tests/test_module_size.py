"""No module over 500 lines in the four packages (CONTRIBUTING.md: a module has one
reason to change): a module that grows past it is split by what it does, as the config
became controller/app/config/ (one module per section) and the shoe-conformance kit its
command, its cases and its wire."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("firmware_bridge", "drivers", "controller", "sim_hardware")
LIMIT = 500


def lines_of(path: Path) -> int:
    with path.open("rb") as file:
        return sum(1 for _ in file)


def test_no_module_in_the_four_packages_is_over_500_lines() -> None:
    modules = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    assert len(modules) > 50, "the packages were not found"
    too_long = {str(path.relative_to(ROOT)): n for path in modules if (n := lines_of(path)) > LIMIT}
    assert not too_long, f"over {LIMIT} lines, split by what they do: {too_long}"
