"""A fourth game brings its own page drawing: the toy game's folder, outside controller/,
ships static/toy.js and its spec names it (``page_script``); the status server serves it at
/game.js, and the page draws the toy's view, NEXT line, HOLD banner and console buttons with
it. Nothing in the app, its page or the simulators names the toy."""

from __future__ import annotations

import queue
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import game as games
from controller.app.console import game_page
from controller.app.console.web import StatusServer
from controller.cards import Card
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton
from tests.support.browser import published
from toygame.game import DRAWN, ToyGame, ToyRules

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture
def drawn() -> Iterator[None]:
    games.register(DRAWN)
    try:
        yield
    finally:
        games.unregister(DRAWN.name)


def state_of(game: ToyGame) -> dict[str, Any]:
    """What the loop publishes: the game's view with its spec's renderer (view_facts)."""
    return published(DRAWN.name, game.round_no, DRAWN.view_facts(game.view()))


def test_game_js_is_the_toys_own_script(drawn: None) -> None:
    server = StatusServer(queue.Queue(), port=0, game=DRAWN.name).start()
    try:
        with urllib.request.urlopen(server.url + game_page.PATH, timeout=5) as response:
            text = response.read().decode()
    finally:
        server.close()
    assert text == (HERE / "static" / "toy.js").read_text(encoding="utf-8")
    assert "window.tablectl.renderers.toy" in text


def test_the_page_draws_the_toy_with_its_own_drawing(browser: Any, drawn: None) -> None:
    from playwright.sync_api import expect

    events: queue.Queue[Any] = queue.Queue()
    toy = ToyGame(ToyRules())
    toy.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    toy.handle(CardDrawn(source="shoe", card=Card.parse("Qh")))
    server = StatusServer(events, port=0, game=DRAWN.name, secret=b"k" * 32).start()
    context = browser.new_context(viewport={"width": 800, "height": 480})
    try:
        server.publish(state_of(toy))
        page = context.new_page()
        page.goto(server.console_url or "")
        expect(page.locator("body")).to_have_attribute("data-conn", "live")
        expect(page.locator('#view [data-toy] .card[data-card="Qh"]')).to_be_visible()
        assert page.locator("#view table.facts").count() == 0  # not the view's plain facts
        expect(page.locator("#next-text")).to_have_text("Deal the toy's cards")
        button = page.locator('#buttons button[data-button="next"]')
        expect(button).to_have_text("NEXT TOY ROUND")
        expect(button).to_have_attribute("data-lit", "false")

        toy.handle(CardDrawn(source="shoe", card=Card.parse("2c")))  # the round's second
        server.publish(state_of(toy))
        expect(button).to_have_attribute("data-lit", "true")
        button.click()
        pressed = events.get(timeout=5)
        assert isinstance(pressed, ButtonPressed) and pressed.button is ConsoleButton.NEXT

        toy.handle(CardDrawn(source="shoe", card=Card.parse("3d")))  # outside a round: HOLD
        server.publish(state_of(toy))
        expect(page.locator("#hold-text")).to_contain_text("TOY HOLD (toy 2): ")
    finally:
        context.close()
        server.close()


def test_nothing_in_the_app_or_the_simulators_names_the_toy() -> None:
    """The toy's drawing reaches the page by its spec alone."""
    for folder in (ROOT / "controller" / "app", ROOT / "sim_hardware"):
        for path in folder.rglob("*"):
            if path.is_file() and path.suffix in (".py", ".js", ".html", ".css"):
                text = path.read_text(encoding="utf-8").lower()
                assert not re.search(r"\btoy(game)?\b", text), path
