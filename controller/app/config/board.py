"""``[board]`` (optional): the players' board, the second screen facing the players
(docs/display.md, "The players' board").

- ``name``: the table's name as the players read it (default: ``[table] id``);
- ``casino``: the casino's name at the top of the board (default: none shown);
- ``language``: the board's words, one of `LANGUAGES` (English, Simplified Chinese);
- ``background``, ``foreground``, ``accent``: the casino's colours, CSS hex only
  (``#1b5e20``, ``#fff``), so nothing but a colour can reach the page's style;
- ``closed_after``: seconds without a word from the table before the board reads
  TABLE CLOSED to the players (a lost network, a table switched off).

The limits shown are ``[limits]``'s, never a second copy. Left out, every key keeps its
default: a table without the section still has a board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from controller.app.config.checker import Checker, Schema, defaults

__all__ = ["LANGUAGES", "SCHEMA", "BoardConfig", "parse_board"]

LANGUAGES = ("en", "zh-Hans")
COLOURS = ("background", "foreground", "accent")
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
MAX_NAME = 40  # characters: one line of big type on a 1080-pixel-wide portrait screen

SCHEMA: Schema = {
    "name": (str, ""),
    "casino": (str, ""),
    "language": (str, "en"),
    "background": (str, "#0b3d2e"),
    "foreground": (str, "#ffffff"),
    "accent": (str, "#ffc400"),
    "closed_after": (int, 3),
}


@dataclass(frozen=True)
class BoardConfig:
    """The checked ``[board]``."""

    name: str = ""  # "": the table's id
    casino: str = ""
    language: str = "en"
    background: str = "#0b3d2e"
    foreground: str = "#ffffff"
    accent: str = "#ffc400"
    closed_after: int = 3

    @property
    def colours(self) -> dict[str, str]:
        return {key: getattr(self, key) for key in COLOURS}


def parse_board(check: Checker, doc: dict[str, Any]) -> BoardConfig:
    """``[board]``, every value checked: a colour that is not CSS hex, a language the board
    has no words for, a name too long for one line, each named by its key."""
    board = check.section(doc, "board", SCHEMA) if "board" in doc else defaults(SCHEMA)
    if board["language"] not in LANGUAGES:
        raise check.error(f"must be one of {', '.join(LANGUAGES)}", "board", "language")
    for key in COLOURS:
        if not _HEX.fullmatch(board[key]):
            raise check.error(
                f"{board[key]!r} is not a CSS hex colour (#rgb or #rrggbb)", "board", key
            )
    for key in ("name", "casino"):
        text = board[key]
        if len(text) > MAX_NAME or not text.isprintable():
            raise check.error(
                f"must be printable text of at most {MAX_NAME} characters", "board", key
            )
    if not 1 <= board["closed_after"] <= 60:
        raise check.error("must be whole seconds from 1 to 60", "board", "closed_after")
    return BoardConfig(**board)
