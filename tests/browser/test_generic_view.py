"""A game the page has no drawing of (the toy game of tests/toygame, registered here)
is shown as its view's facts, its HOLD in the banner and its decisions in the
supervisor's panel: a new game needs no change to the page to be dealt."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from toygame.game import SPEC, ToyGame, ToyRules

from controller import game as games
from controller.app.console.web import StatusServer
from controller.cards import Card
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton
from tests.support.browser import published, serve


def toy_state(game: ToyGame) -> dict[str, Any]:
    return published("toy", game.round_no, game.view())


@pytest.fixture
def toy() -> Iterator[ToyGame]:
    games.register(SPEC)
    try:
        yield ToyGame(ToyRules())
    finally:
        games.unregister("toy")


def test_a_game_without_a_drawing_of_its_own_shows_its_facts(page: Page, toy: ToyGame) -> None:
    toy.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    toy.handle(CardDrawn(source="shoe", card=Card.parse("Qh")))
    server: StatusServer = serve(toy_state(toy), game="toy")
    try:
        page.goto(server.url + "/")
        expect(page.locator("#round")).to_have_text("ROUND 0")
        expect(page.locator("#view table.facts")).to_contain_text("Qh")
        expect(page.locator("#hold")).to_be_hidden()
    finally:
        server.close()


def test_its_hold_is_shown_with_what_it_cites(page: Page, toy: ToyGame) -> None:
    toy.handle(CardDrawn(source="shoe", card=Card.parse("2c")))  # outside a round: HOLD
    server: StatusServer = serve(toy_state(toy), game="toy")
    try:
        page.goto(server.url + "/")
        expect(page.locator("#hold-text")).to_contain_text("toy 2: a card outside a round")
        expect(page.locator("#hold-text")).to_contain_text("(card 2c)")
    finally:
        server.close()
