"""A payout mismatch on the status page, in real Chromium (rule 4.1): the box the
chips disagree with is marked PAYOUT MISMATCH and says by how much; the next step says NEXT
is refused; the supervisor's decisions offer to accept the difference.

    .venv/bin/python -m tests.browser.test_chips_page [OUTPUT_FOLDER]

writes docs/screenshots/blackjack-payout-mismatch-*.png at 800x480 and 1920x1080.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from controller.blackjack.game import BlackjackGame
from controller.blackjack.rules import Variants
from controller.cards import Card
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleAction,
    ConsoleButton,
)
from tests.support.browser import serve

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Box 2: paid $25, owed $20: $5 over (rule 4.1)"


def mismatch_state() -> dict[str, Any]:
    """Three boxes on chip readers: box 1 wins 20 and is paid right, box 2 wins 20 and is
    paid 25, box 3 loses and is collected; the dealer then presses NEXT (refused)."""
    game = BlackjackGame(Variants(boxes=5, chip_readers=True, settlement_check=True))

    def chips(spot: str, total: int) -> None:
        game.handle(ChipsSensed(source="chips", spot=spot, total=total))

    def press(button: str) -> None:
        game.handle(ButtonPressed(source="gpio", button=ConsoleButton(button)))

    game.handle(ConsoleAction(source="console", action="shuffled"))
    for code in ("Qd",):  # the burn after the shuffle
        game.handle(CardDrawn(source="shoe", card=Card.parse(code)))
    press("next")
    for spot in ("box1", "box2", "box3"):
        chips(spot, 20)
    press("no_more_bets")
    for code in ("Ts", "9s", "6d", "7h", "9d", "Td", "Tc"):  # 19, 19, 16 against a 7
        game.handle(CardDrawn(source="shoe", card=Card.parse(code)))
    press("next")
    press("next")
    press("next")
    game.handle(CardDrawn(source="shoe", card=Card.parse("Kc")))  # the dealer's 17
    chips("box1", 40)
    chips("box2", 45)
    chips("box3", 0)
    refused = game.handle(ButtonPressed(source="gpio", button=ConsoleButton.NEXT))
    notices = [
        {"journal_seq": 1, "type": "ActionRefused", "action": "next button",
         "rule": r.rule, "reason": r.reason}
        for r in refused if type(r).__name__ == "ActionRefused"
    ]  # fmt: skip
    return {
        "table": "bj-01", "site": "demo-casino", "simulated": True,
        "limits": {"minimum": 2, "maximum": 100}, "journal_seq": 40, "events_processed": 40,
        "recovered": False, "devices": {"shoe": "ok", "chips": "ok"}, "notices": notices,
        "game": "blackjack", "round": game.round_no,
        "dealer": {"id": "d01", "name": "Demo Dealer"}, "view": game.view(),
    }  # fmt: skip


def test_rule_4_1_the_mismatch_is_shown_on_its_box(page: Page) -> None:
    state = mismatch_state()
    assert state["notices"], "NEXT was not refused"
    server = serve(state, game="blackjack")
    try:
        page.goto(server.console_url or server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-conn", "live")
        box2 = page.locator('.box[data-box="2"]')
        expect(box2.locator(".mismatch")).to_have_text(TEXT)
        expect(box2.locator(".tag.red")).to_have_text("PAYOUT MISMATCH")
        expect(box2).to_have_class("box attention")
        expect(page.locator('.box[data-box="1"] .mismatch')).to_have_count(0)
        expect(page.locator("#next-text")).to_contain_text("NEXT is refused (rule 4.1)")
    finally:
        server.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    server = serve(mismatch_state(), game="blackjack")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for width, height in ((800, 480), (1920, 1080)):
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(server.console_url or server.url + "/")
                expect(page.locator('.box[data-box="2"] .mismatch')).to_be_visible()
                page.screenshot(path=str(out / f"blackjack-payout-mismatch-{width}x{height}.png"))
                context.close()
            browser.close()
    finally:
        server.close()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
