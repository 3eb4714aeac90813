"""docs/blackjack.md's Interface block names only what exists: each ``table.x(...)`` a
method of `BlackjackTable`, each bare call a name of the module its comment names."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from controller.blackjack.table import BlackjackTable

DOC = Path(__file__).resolve().parents[3] / "docs" / "blackjack.md"


def interface() -> str:
    text = DOC.read_text()
    block = text.split("## Interface", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    return block


def test_the_interface_block_calls_only_methods_the_table_has() -> None:
    called = set(re.findall(r"\btable\.(\w+)\(", interface()))
    assert called, "the Interface block shows no call on the table"
    assert sorted(n for n in called if not hasattr(BlackjackTable, n)) == []


def test_the_interface_block_s_free_functions_are_in_the_modules_it_names() -> None:
    found = re.findall(r"= (\w+)\(table\)\s+# (controller(?:\.\w+)+)", interface())
    assert found, "the Interface block shows no function of the table"
    for name, module in found:
        assert hasattr(importlib.import_module(module), name), f"{module} has no {name}"
