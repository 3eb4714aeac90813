"""The poker view, the read-only surveillance view, the page's own assets only, and the
layout at the Pi touch display's 800x480 and at 1920x1080."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.app.console.web import StatusServer
from controller.app.runtime.table import RunningTable
from controller.ports import ConsoleAction
from tests.support.browser import Hands, console_url, serve
from tests.support.poker_scenes import (
    poker_first_round,
    poker_reshuffle,
    poker_showdown,
    poker_state,
)


@pytest.fixture
def poker_server() -> Iterator[StatusServer]:
    server = serve(poker_state(poker_first_round()))
    try:
        yield server
    finally:
        server.close()


def test_11_5_poker_view_shows_whose_action_the_call_and_the_raise_bounds(
    page: Page, poker_server: StatusServer
) -> None:
    page.goto(poker_server.url + "/")
    expect(page.locator("#next-text")).to_have_text(
        "Seat 1 to act (11.2(c)): CALL $10 · RAISE by $2 to $10 over the call (11.5) · FOLD"
    )
    expect(page.locator('.seat[data-seat="1"] .tag').first).to_have_text("BUTTON")
    expect(page.locator('.seat[data-seat="2"]')).to_contain_text("BLIND 1")
    expect(page.locator('.seat[data-seat="3"]')).to_contain_text("BLIND 2")
    expect(page.locator('.seat[data-seat="1"]')).to_contain_text("TO ACT")
    expect(page.locator('.seat[data-seat="6"]')).to_contain_text("ALL IN")
    # seat 6's all-in makes the only side pot: the bet levels of the round make none
    expect(page.locator('[data-pot="0"]')).to_have_text("Main pot $19: seats 1, 2, 3, 5, 6")
    expect(page.locator('[data-pot="1"]')).to_have_text("Side pot 1 $2: seats 1, 2, 3, 5")
    expect(page.locator("[data-pot]")).to_have_count(2)
    expect(page.locator('#buttons button[data-button="call"]')).to_have_text("CALL $10")
    expect(page.locator("#raise-by")).to_have_attribute("max", "10")


def test_surveillance_view_is_read_only(page: Page, poker_server: StatusServer) -> None:
    page.goto(poker_server.url + "/surveillance")
    expect(page.locator(".seat")).to_have_count(5)
    expect(page.locator("text=SURVEILLANCE: READ ONLY")).to_be_visible()
    expect(page.locator("#console")).to_have_count(0)
    expect(page.locator("button")).to_have_count(0)
    expect(page.locator("#sup-dialog")).to_have_count(0)


def test_the_page_loads_nothing_but_the_controllers_own_assets(
    page: Page, table: RunningTable, hands: Hands
) -> None:
    assert table.server is not None
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    response = page.goto(console_url(table))
    assert response is not None
    assert "default-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    hands.stack([])
    hands.shuffled()
    hands.press("next")
    expect(page.locator("body")).to_have_attribute("data-state", "betting")
    origin = urlsplit(table.server.url).netloc
    assert requested and all(urlsplit(url).netloc == origin for url in requested), requested


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_page_fits_the_screen_with_large_type(
    browser: Browser, table: RunningTable, hands: Hands, size: tuple[int, int]
) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(console_url(table))  # as the kiosk shows it: signed in, with its console
        hands.stack([])
        hands.shuffled()
        hands.press("next")
        for box in (1, 2, 3, 4, 5):
            hands.wager(box)
        hands.press("no_more_bets")
        for _ in range(11):  # five boxes' two cards each and the dealer's first
            hands.draw()
        expect(page.locator("#view .card")).to_have_count(11)
        clipped = page.evaluate(
            """() => { const m = document.querySelector("main");
                       return [document.documentElement.scrollWidth - innerWidth,
                               m.scrollHeight - m.clientHeight]; }"""
        )
        assert clipped == [0, 0], clipped  # nothing cut off at the side or the bottom
        for button in page.locator("#buttons button").all():  # every console button on screen
            rect = button.bounding_box()
            assert rect is not None and rect["y"] + rect["height"] <= height
            assert rect["height"] >= 44  # a finger's width (WCAG 2.5.5)
        next_px = page.evaluate(
            "() => parseFloat(getComputedStyle(document.getElementById('next-text')).fontSize)"
        )
        assert next_px >= (18 if height < 600 else 36)
    finally:
        context.close()


def test_11_4_showdown_order_and_the_odd_chip_by_suit(page: Page) -> None:
    server = serve(poker_state(poker_showdown()))
    try:
        page.goto(server.url + "/")
        expect(page.locator("#next-text")).to_have_text(
            "Showdown (11.4(c)): seats 1, 3 expose in that order; "
            "award the pots as shown (11.4(d)), then NEXT"
        )
        awards = page.locator(".panel", has_text="POT AWARDS (11.4(d))")
        expect(awards).to_contain_text(
            "Main pot $5: seat 1 $3, seat 3 $2 (high card) · odd chip $1 to seat 1"
        )
        expect(page.locator(".panel", has_text="SHOWDOWN")).to_contain_text("Expose in order: 1, 3")
    finally:
        server.close()


def test_the_poker_console_sends_the_rules_api_calls(
    page: Page, poker_server: StatusServer
) -> None:
    assert poker_server.console_url is not None
    page.goto(poker_server.console_url)  # the kiosk: the console cookie, then "/"
    expect(page).to_have_url(poker_server.url + "/")  # the secret left the address bar
    page.locator('#buttons button[data-button="call"]').click()
    assert poker_server.events.get(timeout=5) == ConsoleAction(
        source="console", action="call", args={"seat": 1}
    )
    page.locator("#raise-by").fill("6")
    page.locator('#buttons button[data-button="raise"]').click()
    assert poker_server.events.get(timeout=5) == ConsoleAction(
        source="console", action="raise_", args={"seat": 1, "amount": 6}
    )


def test_11_3_b_the_reshuffle_names_only_the_earlier_discards(page: Page) -> None:
    server = serve(poker_state(poker_reshuffle()))
    try:
        page.goto(server.url + "/")
        expect(page.locator("#next-text")).to_have_text(
            "Stub out (11.3(b)): shuffle ONLY the discards of seats 2, 3, cut, "
            "then deal seat 4 1 more"
        )
        draw = page.locator(".panel", has_text="THE DRAW (11.3)")
        expect(draw).to_contain_text("Seat 4 drawing: 1 card · stub 0 cards")
        expect(draw).to_contain_text(
            "RESHUFFLE (11.3(b)): only the earlier discards of seats 2 (4), 3 (4); "
            "NOT seats 4, 5, 6, 7, 8, 1"
        )
        expect(page.locator('.seat[data-seat="4"] .tag').last).to_have_text("DRAWING")
    finally:
        server.close()


def test_eight_poker_seats_and_the_draw_fit_the_pi_display(browser: Browser) -> None:
    server = serve(poker_state(poker_reshuffle()))
    context = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        expect(page.locator(".seat")).to_have_count(8)
        clipped = page.evaluate(
            """() => { const m = document.querySelector("main");
                       return [document.documentElement.scrollWidth - innerWidth,
                               m.scrollHeight - m.clientHeight]; }"""
        )
        assert clipped == [0, 0], clipped
        tops = {
            round(box["y"])
            for box in (s.bounding_box() for s in page.locator(".seat").all())
            if box
        }
        assert len(tops) == 1  # one row of seats
    finally:
        context.close()
        server.close()
