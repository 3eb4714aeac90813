"""Write the README's screenshots of the status display (docs/screenshots/*.png).

    .venv/bin/python -m tests.browser.screenshots [OUTPUT_FOLDER]

The blackjack shots come from a table on the simulators played to a chosen moment through
the simulated devices; the poker shots from a `PokerGame` built in-process
(tests/support/poker_scenes.py).
Each view at the Pi touch display's 800x480 and at 1920x1080.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, expect, sync_playwright

from controller.app.console.web import StatusServer
from controller.app.runtime.table import RunningTable
from tests.support.blackjack_scenes import SCENES
from tests.support.browser import Hands, cards, console_url, serve, table_config
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.poker_scenes import (
    poker_first_round,
    poker_reshuffle,
    poker_showdown,
    poker_state,
)

ROOT = Path(__file__).resolve().parents[2]

SIZES = ((800, 480), (1920, 1080))
# boxes 1-4: T K = 20; A 6 = soft 17; 9 2 = 11; 5 5 = 10; the dealer shows an ace
ROUND = cards("Ts As 9h 5d Ac Kd 6c 2h 5c")


def kiosk(server: StatusServer) -> str:
    """The dealer's page as the table's kiosk shows it: opened through the console URL."""
    return server.console_url or server.url + "/"


def shoot(browser: Browser, url: str, name: str, out: Path, wait: str) -> None:
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(url)
        expect(page.locator("body")).to_have_attribute("data-conn", "live")
        expect(page.locator(wait).first).to_be_visible()
        page.screenshot(path=str(out / f"{name}-{width}x{height}.png"))
        context.close()


def blackjack(browser: Browser, out: Path, folder: Path) -> None:
    table = RunningTable(table_config(folder / "bj.sqlite"), simulate=True, seed=3).start()
    try:
        hands = Hands(table)
        hands.stack(ROUND)
        hands.shuffled()  # SHUFFLED and the burn (7.1a)
        hands.press("next")
        for box in (1, 2, 3, 4):
            hands.wager(box)
        hands.press("no_more_bets")
        for _ in ROUND:
            hands.draw()
        hands.insurance(1)
        hands.press("next")  # insurance closed
        hands.press("next")  # box 1 stands on 20: box 2 acts on soft 17
        assert table.server is not None
        shoot(browser, console_url(table), "blackjack", out, ".box.acting")
        shoot(browser, table.server.url + "/surveillance", "surveillance", out, ".box.acting")
        hands.press("void_hand")  # the dealer asks to void the hand: HOLD, rule 9.6
        shoot(browser, console_url(table), "blackjack-hold", out, "#hold")
    finally:
        table.stop()


def blackjack_money(browser: Browser, out: Path) -> None:
    """The dealer's money view: a push, a win, a shared box, even money
    (tests/support/blackjack_scenes.py)."""
    for name, scene in SCENES.items():
        server = serve(scene(), game="blackjack")
        try:
            shoot(browser, kiosk(server), name, out, ".box")
        finally:
            server.close()


def poker(browser: Browser, out: Path) -> None:
    server = serve(poker_state(poker_first_round()))
    try:
        shoot(browser, kiosk(server), "poker", out, ".seat.acting")
    finally:
        server.close()
    for name, game in (("poker-showdown", poker_showdown()), ("poker-draw", poker_reshuffle())):
        server = serve(poker_state(game))
        try:
            shoot(browser, kiosk(server), name, out, ".panel")
        finally:
            server.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p, tempfile.TemporaryDirectory(prefix="h7-shots-") as tmp:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        blackjack(browser, out, Path(tmp))
        blackjack_money(browser, out)
        poker(browser, out)
        browser.close()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
