"""Every way a test can skip is explained in the README ("Tests that are skipped, and
when"): a tool that `tests.needs.missing` names, and each file that skips for another
reason (`tests.needs.unavailable`, ``pytest.skip``, ``skipif``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIPPERS = {"unavailable", "skip", "skipif"}


def skips_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Tests that are skipped, and when")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def name_of(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def test_every_skip_is_explained_in_the_readme() -> None:
    section = skips_section()
    unexplained = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "needs.py":
            continue
        where = path.relative_to(ROOT).as_posix()
        for call in calls(path):
            name = name_of(call)
            if name == "missing" and call.args and isinstance(call.args[0], ast.Constant):
                tool = str(call.args[0].value).removeprefix("Debian's ").split()[0]
                if f"`{tool}`" not in section:
                    unexplained.append(f"{where}: missing {tool!r}")
            elif name in SKIPPERS:
                place = where.removesuffix("/conftest.py")
                if place not in section:
                    unexplained.append(f"{where}: {name}")
    assert not unexplained, unexplained
