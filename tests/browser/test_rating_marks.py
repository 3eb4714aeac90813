"""The rated boxes on the dealer's page in real Chromium: each game's drawing marks a box
(a seat) whose player is rated, and lists the rated boxes, never with who the player is
unless the table shows names ([rating] show_names; docs/ratings.md). The views are the
real games', rated in-process."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from controller.app.console.web import StatusServer
from controller.baccarat.game import BaccaratGame
from controller.baccarat.rules import BaccaratRules
from controller.blackjack.game import BlackjackGame
from controller.blackjack.rules import Variants
from controller.cards import Card
from controller.game.table import TableGame
from controller.poker.game import PokerGame
from controller.poker.rules import PokerRules
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleAction,
    ConsoleButton,
    PlayerCardPresented,
)
from controller.rating import RatingSettings
from tests.support.browser import published, serve

CARD = "55512345678"


def console(action: str, **args: Any) -> ConsoleAction:
    return ConsoleAction(source="console", action=action, args=args)


def open_page(page: Page, game: TableGame) -> StatusServer:
    server = serve(published(game.name, game.round_no, game.view()), game=game.name)
    page.goto(server.console_url or server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    return server


def blackjack(show_names: bool = False) -> TableGame:
    game = BlackjackGame(Variants(boxes=5))
    game.rate(RatingSettings(enabled=True, show_names=show_names))
    for event in (
        console("shuffled"),
        CardDrawn(source="shoe", card=Card.parse("Qd")),  # the burn
        ButtonPressed(source="gpio", button=ConsoleButton.NEXT),  # betting opens
        PlayerCardPresented(source="reader2", box=2, number=CARD),
        console("start_rating", box=4, player="Ann Lee"),
        ChipsSensed(source="chips", spot="box2", total=6),
        ChipsSensed(source="chips", spot="box3", total=6),
    ):
        game.handle(event)
    return game


def test_the_blackjack_page_marks_the_rated_boxes_and_names_nobody(page: Page) -> None:
    server = open_page(page, blackjack())
    try:
        expect(page.locator('.box[data-box="2"] [data-rated="2"]')).to_have_text("RATED")
        expect(page.locator('.box[data-box="3"] [data-rated]')).to_have_count(0)
        expect(page.locator("[data-rated-line]")).to_have_text("RATED: BOX 2 · BOX 4")
        body = page.locator("body").inner_text()
        assert CARD not in body and "Ann Lee" not in body
    finally:
        server.close()


def test_the_page_names_a_console_name_only_when_configured(page: Page) -> None:
    server = open_page(page, blackjack(show_names=True))
    try:
        expect(page.locator("[data-rated-line]")).to_have_text("RATED: BOX 2 · BOX 4 (Ann Lee)")
        assert CARD not in page.locator("body").inner_text()
    finally:
        server.close()


@pytest.mark.parametrize("name", ["baccarat", "poker"])
def test_baccarat_and_poker_pages_mark_the_rated_box_or_seat(page: Page, name: str) -> None:
    game: TableGame
    if name == "baccarat":
        game = BaccaratGame(BaccaratRules(burn_by_first_card=False))
        game.rate(RatingSettings(enabled=True))
        game.handle(console("shuffled"))
        game.handle(console("start_rating", box=3))
        game.handle(console("place_wager", box=3, bet="banker", amount=20))
        word = "BOX"
    else:
        game = PokerGame(PokerRules())
        game.rate(RatingSettings(enabled=True))
        for seat in (1, 3):
            game.handle(console("sit", seat=seat, stack=100))
        game.handle(console("start_rating", box=3))
        word = "SEAT"
    server = open_page(page, game)
    try:
        expect(page.locator('[data-rated="3"]')).to_have_text("RATED")
        expect(page.locator("[data-rated-line]")).to_have_text(f"RATED: {word} 3")
    finally:
        server.close()


def test_the_console_rates_a_box_and_ends_a_rating(page: Page) -> None:
    """RATE on a box in play that is not rated (anonymous: named later), END RATING on a
    rated one: the console sends the rating actions every table has."""
    server = open_page(page, blackjack())
    try:
        expect(page.locator('#buttons button[data-button="start_rating2"]')).to_have_count(0)
        page.locator('#buttons button[data-button="start_rating3"]').click()
        assert server.events.get(timeout=5) == ConsoleAction(
            source="console", action="start_rating", args={"box": 3}
        )
        page.locator('#buttons button[data-button="end_rating2"]').click()
        assert server.events.get(timeout=5) == ConsoleAction(
            source="console", action="end_rating", args={"box": 2}
        )
    finally:
        server.close()


def test_a_table_that_does_not_rate_offers_no_rating_buttons(page: Page) -> None:
    game = BlackjackGame(Variants(boxes=5))
    game.handle(console("shuffled"))
    server = open_page(page, game)
    try:
        expect(page.locator('#buttons button[data-button="next"]')).to_have_count(1)
        expect(page.locator('#buttons button[data-button^="start_rating"]')).to_have_count(0)
    finally:
        server.close()
