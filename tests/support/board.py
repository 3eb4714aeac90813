"""Helpers for the players' board's tests and screenshots: a game's example table on the
simulators, its scripted dealer (the demo's), the board document read over HTTP, and what
a board shows of the cards (`cards_on_board`), read from the document the server built."""

from __future__ import annotations

import dataclasses
import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from controller.app.cli.demo import Dealer, act, demo_config, make_dealer, sign_in_dealer
from controller.app.config.board import BoardConfig
from controller.app.runtime.table import RunningTable

GAMES = ("baccarat", "blackjack", "poker")
SIZES = ((1920, 1080), (1080, 1920))  # a landscape screen and a portrait one


def start_table(
    game: str, journal: Path, *, port: int = 0, seed: int = 7, board: BoardConfig | None = None
) -> RunningTable:
    """``game``'s example table on the simulators, its journal at ``journal``, the status
    display (and so the board) on ``port`` (0: any free one)."""
    config = demo_config(game, journal, port=port)
    if board is not None:
        config = dataclasses.replace(config, board=board)
    table = RunningTable(config, simulate=True, seed=seed).start()
    sign_in_dealer(table)
    return table


def dealer(table: RunningTable, seed: int = 7) -> Dealer:
    return make_dealer(table, random.Random(seed))


def step(table: RunningTable, scripted: Dealer) -> str:
    """One action of the scripted dealer, returned once the table has taken it in."""
    return act(table, scripted)


def board_url(table: RunningTable) -> str:
    if table.server is None:
        raise RuntimeError("the table serves no display")
    return table.server.url + "/board"


def fetch_board(table: RunningTable) -> dict[str, Any]:
    """``GET /api/board`` of the running table."""
    with urllib.request.urlopen(board_url(table).replace("/board", "/api/board"), timeout=10) as r:
        document: dict[str, Any] = json.loads(r.read())
    return document


def cards_on_board(facts: dict[str, Any]) -> list[str]:
    """Every card face a board's facts hold (the hands in play), sorted."""
    found: list[str] = []
    for hand in (facts.get("hands") or {}).values():  # baccarat
        found += hand.get("cards") or []
    found += (facts.get("dealer") or {}).get("cards") or []  # blackjack
    for box in facts.get("boxes") or []:
        for hand in box.get("hands") or []:
            found += hand.get("cards") or []
    return sorted(found)


def backs_on_board(facts: dict[str, Any]) -> int:
    """How many card backs a board shows (poker: the live seats' cards, never which)."""
    return sum(s.get("cards", 0) for s in facts.get("seats") or [] if not s.get("folded"))
