"""``[chips]`` (optional, issue 18): the casino's chip inventory, for tables whose chip
readers report each chip's tag (CHIP_IDS, docs/protocol.md).

``inventory``: a CSV file ``chip_id,value`` (each chip's 64-bit UID as 16 hex digits, its
value in chip units; `controller.game.chips.ChipInventory`), relative to the config file.
It is read and checked here, whole, before anything starts (a bad line is named), and its
text goes into the game's rules (``chip_inventory``), so the journal's TableStarted row
records the inventory the table ran with, and the game stays free of file I/O. A chip the
inventory does not list, or whose value is not the one listed, is a `ChipAlarm`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema
from controller.errors import ConfigError
from controller.game.chips import ChipInventory

__all__ = ["SCHEMA", "apply_chips"]

SCHEMA: Schema = {"inventory": (str, REQUIRED)}


def apply_chips(
    check: Checker, doc: dict[str, Any], base: Path | None, game: str, rules: Any
) -> Any:
    """``rules`` with the ``[chips]`` inventory's text in ``chip_inventory`` (unchanged
    when the section is left out); a game that reads no chips is refused by name."""
    if "chips" not in doc:
        return rules
    chips = check.section(doc, "chips", SCHEMA)
    if "chip_inventory" not in {f.name for f in dataclasses.fields(rules)}:
        raise check.error(f"the game {game!r} reads no chips: leave [chips] out", "chips")
    path = Path(chips["inventory"])
    if not path.is_absolute() and base is not None:
        path = base / path
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = f"cannot read the chip inventory {path}: {exc}"
        raise check.error(why, "chips", "inventory") from None
    try:
        ChipInventory.parse(text, source=str(path))
    except ConfigError as exc:
        raise check.error(str(exc), "chips", "inventory") from None
    return dataclasses.replace(rules, chip_inventory=text)
