"""Write the README's screenshots of the players' board (docs/screenshots/board-*.png).

    .venv/bin/python -m tests.browser.board_screenshots [OUTPUT_FOLDER]

Each from a game's example table on the simulators played by its scripted dealer (the
demo's) to a chosen moment: baccarat mid-shoe, at 1920x1080 and 1080x1920, in English and
in Simplified Chinese (the same state on a second server whose ``[board]`` says
``zh-Hans``; Chinese needs a CJK font installed, docs/install.md); blackjack with a few
rounds' results and poker mid-hand, landscape. The board is shot once it is live.
"""

from __future__ import annotations

import dataclasses
import queue
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect, sync_playwright

from controller.app.config.board import BoardConfig
from controller.app.console.web import StatusServer
from controller.app.runtime.table import RunningTable
from tests.support.board import SIZES, dealer, start_table, step
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
BOARD = BoardConfig(name="Baccarat 3", casino="Te Whare Casino")
STEPS = {"baccarat": 260, "blackjack": 120, "poker": 30}  # the dealer's actions first


def shoot(browser: Browser, url: str, path: Path, size: tuple[int, int]) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-closed", "0")
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    page.evaluate("() => document.fonts.ready")
    page.screenshot(path=str(path))
    context.close()


def dealt(game: str, view: dict[str, Any]) -> bool:
    """The moment to shoot: a coup's four cards out, a round's boxes dealt, a hand's first
    betting round."""
    if game == "baccarat":
        return len((view.get("banker") or {}).get("cards") or []) >= 2
    if game == "blackjack":
        hands = [h for box in view.get("boxes") or [] for h in box.get("hands") or []]
        dealer = (view.get("dealer") or {}).get("cards") or []
        return bool(hands) and len(dealer) == 1 and all(len(h["cards"]) >= 2 for h in hands)
    return view.get("state") == "first_round"


def played(game: str, folder: Path, board: BoardConfig) -> RunningTable:
    table = start_table(game, folder / f"{game}.sqlite", seed=11, board=board)
    scripted = dealer(table, seed=11)
    for _ in range(STEPS[game]):
        step(table, scripted)
    for _ in range(200):
        if dealt(game, table.state.get("view", {})):
            break
        step(table, scripted)
    return table


def baccarat(browser: Browser, out: Path, folder: Path) -> None:
    table = played("baccarat", folder, BOARD)
    chinese = StatusServer(
        queue.Queue(),
        port=0,
        game="baccarat",
        readonly=True,
        board=dataclasses.replace(BOARD, name="百家乐 3", language="zh-Hans"),
    ).start()
    try:
        assert table.server is not None
        chinese.publish(table.state)  # the same state, in the other language
        for width, height in SIZES:
            shoot(
                browser,
                table.server.url + "/board",
                out / f"board-baccarat-{width}x{height}.png",
                (width, height),
            )
            shoot(
                browser,
                chinese.url + "/board",
                out / f"board-baccarat-zh-{width}x{height}.png",
                (width, height),
            )
    finally:
        chinese.close()
        table.stop()


def landscape(browser: Browser, out: Path, folder: Path, game: str, name: str) -> None:
    table = played(game, folder, dataclasses.replace(BOARD, name=name))
    try:
        assert table.server is not None
        shoot(browser, table.server.url + "/board", out / f"board-{game}-1920x1080.png", SIZES[0])
    finally:
        table.stop()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="board-shots-") as tmp:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        baccarat(browser, out, Path(tmp))
        landscape(browser, out, Path(tmp), "blackjack", "Blackjack 1")
        landscape(browser, out, Path(tmp), "poker", "Draw Poker 2")
        browser.close()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
