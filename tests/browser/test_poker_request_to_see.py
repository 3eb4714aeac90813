"""11.4(c) on the poker view: "Any player at the table may request to see any or all hands
involved in the final showdown." The console sends the request; the view tells the dealer
whose hand to expose."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from controller.cards import Card
from controller.poker.game import PokerGame
from controller.ports import ButtonPressed, CardDrawn, ConsoleAction, ConsoleButton
from tests.support.browser import serve
from tests.support.poker_scenes import console, poker_game, poker_state


def showdown_with_a_mucked_hand() -> PokerGame:
    """Four seats, the button on 1: seat 3 folds; after the draw seat 4 bets kings and is
    called by seat 1's trips and seat 2's queens, which may be mucked (11.4(c))."""
    game = poker_game()
    for seat in (1, 2, 3, 4):
        console(game, "sit", seat=seat, stack=100)
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    held = {
        4: "Kc Kd 8h 5s 2c",
        1: "7c 7d 7h 4s 3c",
        2: "Qs Qh Jd 6s 3d",
        3: "2d 4d 6h 8s Tc",
    }
    dealt = {seat: [Card.parse(c) for c in text.split()] for seat, text in held.items()}
    for index in range(5):
        for seat in game.table.in_hand:
            game.handle(CardDrawn(source="shoe", card=dealt[seat][index]))
    for name, seat in (("call", 4), ("call", 1), ("call", 2), ("fold", 3)):
        console(game, name, seat=seat)
    for seat in (2, 4, 1):
        console(game, "discard", seat=seat, count=0)
    console(game, "raise_", seat=4, amount=2)
    console(game, "call", seat=1)
    console(game, "call", seat=2)
    return game


def test_11_4c_the_console_asks_to_see_a_hand_for_a_player(page: Page) -> None:
    game = showdown_with_a_mucked_hand()
    assert game.table.showdown_order is not None
    assert game.table.showdown_order.may_muck == (2,)
    server = serve(poker_state(game))
    try:
        assert server.console_url is not None
        page.goto(server.console_url)
        page.locator("#asked-by").fill("3")
        page.locator('#buttons button[data-button="see2"]').click()
        assert server.events.get(timeout=5) == ConsoleAction(
            source="console", action="request_to_see", args={"by_seat": 3, "seat": 2}
        )
        page.locator('#buttons button[data-button="see_all"]').click()
        assert server.events.get(timeout=5) == ConsoleAction(
            source="console", action="request_to_see", args={"by_seat": 3}
        )
    finally:
        server.close()


def test_11_4c_the_view_says_whose_hand_to_expose_on_request(page: Page) -> None:
    game = showdown_with_a_mucked_hand()
    console(game, "request_to_see", by_seat=3, seat=2)
    server = serve(poker_state(game))
    try:
        page.goto(server.url + "/")
        expect(page.locator("#next-text")).to_contain_text("seat 3 asked to see seat 2: expose it")
        showdown = page.locator(".panel", has_text="SHOWDOWN (11.4(c))")
        expect(showdown).to_contain_text("May muck: 2.")
        expect(showdown.locator('[data-request="0"]')).to_have_text(
            "Seat 3 asked to see seat 2: expose it"
        )
    finally:
        server.close()
