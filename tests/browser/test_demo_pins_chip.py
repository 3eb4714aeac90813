"""The DEMO PINS chip: the dealer's display and the surveillance page name the staff still
on the shipped demo PINs (the state's ``demo_pins``), and show nothing when there are none
(docs/security.md, "The demo PINs")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import serve
from tests.support.poker_scenes import poker_first_round, poker_state


@pytest.mark.parametrize("path", ["/", "/surveillance"])
def test_the_demo_pins_chip_names_the_staff_on_them(page: Page, path: str) -> None:
    server = serve({**poker_state(poker_first_round()), "demo_pins": ["d01", "s01"]})
    try:
        page.goto(server.url + path)
        expect(page.locator("#demo-pins")).to_be_visible()
        expect(page.locator("#demo-pins")).to_have_text("DEMO PINS: d01, s01")
        server.publish({**poker_state(poker_first_round()), "demo_pins": []})
        expect(page.locator("#demo-pins")).to_be_hidden()
    finally:
        server.close()
