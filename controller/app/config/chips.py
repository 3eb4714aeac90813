"""``[chips]`` (optional): the table's chip readers and the casino's chip
inventory.

``reader``: the line of the chip readers under the spots (docs/protocol.md: CHIPS_SENSED,
CHIP_IDS), a serial port or any pyserial URL as for the shoe, or ``sim://`` for a simulated
reader (``tablectl run --sim`` simulates it whatever it says). It needs the game's
``chip_readers`` rule on (a wager's amount then comes from the reader alone).

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

from controller.app.config.checker import Checker, Schema
from controller.errors import ConfigError
from controller.game.chips import ChipInventory

__all__ = ["SCHEMA", "apply_chips"]

SCHEMA: Schema = {"inventory": (str, ""), "reader": (str, "")}


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
    if not chips["inventory"]:
        return rules
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


def reader_url(check: Checker, doc: dict[str, Any], rules: Any) -> str:
    """``[chips] reader`` ("" when there is none); one named on a table whose rules do not
    take wagers from chip readers is refused, naming the rule to turn on."""
    if "chips" not in doc:
        return ""
    url = str(check.section(doc, "chips", SCHEMA)["reader"])
    if url and not getattr(rules, "chip_readers", False):
        raise check.error(
            "a chip reader needs the game's chip_readers = true (wagers read by value)",
            "chips",
            "reader",
        )
    return url
