"""docs/baccarat.md's state diagram is the machine's own (regenerate it with
``python -m controller.baccarat.diagram``), and the page says every default's source."""

from __future__ import annotations

import dataclasses

from controller.baccarat.diagram import DOC_PATH, updated
from controller.baccarat.phases import TRANSITIONS
from controller.baccarat.rules import BaccaratRules


def test_the_diagram_in_the_docs_is_fresh() -> None:
    page = DOC_PATH.read_text(encoding="utf-8")
    assert updated(page) == page, "run: python -m controller.baccarat.diagram"
    for transition in TRANSITIONS[:10]:
        assert f": {transition['trigger']}" in page


def test_every_setting_is_in_the_defaults_table() -> None:
    page = DOC_PATH.read_text(encoding="utf-8")
    for field in dataclasses.fields(BaccaratRules):
        assert f"`{field.name}`" in page, field.name
