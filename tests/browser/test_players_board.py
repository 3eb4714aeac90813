"""The players' board in real Chromium, for every game, on a landscape screen (1920x1080)
and a portrait one (1080x1920): a game's example table on the simulators played by its
scripted dealer (the demo's), the board opened at ``/board``.

- it draws, and follows the deal: after every action of the dealer the page shows what
  the server's board document says (each card face, each card back) before the next one;
- it shows no private card: a poker board draws no card face at all (11.3(a)); a shoe
  game's only the cards face up on the layout;
- it shows TABLE CLOSED when the table stops, and when the table goes without a word
  (a lost network), and redraws by itself when the table starts again on the same port.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.app.config.board import BoardConfig
from controller.app.console.web import StatusServer
from controller.app.runtime.table import RunningTable
from controller.game import registry
from tests.support.board import (
    SIZES,
    backs_on_board,
    board_url,
    cards_on_board,
    dealer,
    fetch_board,
    start_table,
    step,
)
from tests.support.poker_play import cards_named

GAMES = [name for name in registry.names() if registry.spec(name).board is not None]
STEPS = 40  # the dealer's actions watched: a few rounds' cards


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def board_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    return str(request.param)


FACES = "Array.from(document.querySelectorAll('#facts [data-card]'), (e) => e.dataset.card)"
BACKS = "document.querySelectorAll('#facts [data-back]').length"


def shown(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(f"() => ({{cards: {FACES}.sort(), backs: {BACKS}}})"))


def wait_until_shown(page: Page, cards: list[str], backs: int) -> None:
    """The page draws exactly these faces and this many backs (waited for, with a timeout)."""
    page.wait_for_function(
        f"""([cards, backs]) =>
          JSON.stringify({FACES}.sort()) === JSON.stringify(cards) && {BACKS} === backs""",
        arg=[cards, backs],
        timeout=10_000,
    )


def open_board(page: Page, table: RunningTable) -> None:
    page.goto(board_url(table))
    expect(page.locator("body")).to_have_attribute("data-closed", "0")
    expect(page.locator("body")).to_have_attribute("data-conn", "live")


def test_the_board_draws_and_follows_every_card_showing_no_private_one(
    board_page: Page, game: str, tmp_path: Path
) -> None:
    table = start_table(game, tmp_path / "journal.sqlite")
    try:
        open_board(board_page, table)
        expect(board_page.locator("#table")).to_have_text(table.config.table_id)
        expect(board_page.locator("#minimum")).to_have_text(f"${table.config.minimum:,}")
        expect(board_page.locator("#maximum")).to_have_text(f"${table.config.maximum:,}")
        scripted = dealer(table)
        faces_seen: set[str] = set()
        most_backs = 0
        for _ in range(STEPS):
            step(table, scripted)
            document = fetch_board(table)
            facts = document["facts"]
            cards, backs = cards_on_board(facts), backs_on_board(facts)
            wait_until_shown(board_page, cards, backs)  # before the dealer's next action
            faces_seen |= set(cards)
            most_backs = max(most_backs, backs)
            view = table.state["view"]
            if registry.spec(game).private_cards:
                assert cards_named(document) == []  # 11.3(a): never a card
                assert shown(board_page)["cards"] == []  # never a face
            else:
                assert set(cards_named(document)) <= public_cards(view)
                assert set(shown(board_page)["cards"]) <= public_cards(view)
        if registry.spec(game).private_cards:
            assert faces_seen == set() and most_backs >= 5  # the deal shows as backs
        else:
            assert len(faces_seen) >= 4  # the deal shows, card by card
    finally:
        table.stop()


def public_cards(view: dict[str, Any]) -> set[str]:
    """The cards face up in the hands on the layout, from the table's own view."""
    cards: list[str] = []
    for side in ("player", "banker", "dealer"):
        cards += (view.get(side) or {}).get("cards") or []
    for box in view.get("boxes") or []:
        for hand in box.get("hands") or []:
            cards += hand.get("cards") or []
    return set(cards)


def test_the_board_says_closed_when_the_table_stops_and_redraws_when_it_restarts(
    board_page: Page, game: str, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite"
    patient = BoardConfig(closed_after=60)  # so only the table's own word closes it at once
    table = start_table(game, journal, board=patient)
    port = table.config.display_port if table.server is None else table.server.port
    try:
        open_board(board_page, table)
        scripted = dealer(table)
        for _ in range(8):
            step(table, scripted)
        drawn = board_page.evaluate("() => window.tableBoard.boards")
    finally:
        table.stop()
    expect(board_page.locator("#closed")).to_be_visible()
    expect(board_page.locator("body")).to_have_attribute("data-closed", "1")
    table = start_table(game, journal, port=port, board=patient)  # again, on the same port
    try:
        expect(board_page.locator("body")).to_have_attribute("data-closed", "0", timeout=20_000)
        expect(board_page.locator("#closed")).to_be_hidden()
        assert board_page.evaluate("() => window.tableBoard.boards") > drawn
        facts = fetch_board(table)["facts"]
        wait_until_shown(board_page, cards_on_board(facts), backs_on_board(facts))
    finally:
        table.stop()


def test_a_table_gone_without_a_word_reads_as_closed(
    board_page: Page, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lost network or a table switched off says nothing: after ``closed_after`` seconds
    of silence the players read TABLE CLOSED all the same."""
    table = start_table("baccarat", tmp_path / "journal.sqlite", board=BoardConfig(closed_after=1))
    try:
        open_board(board_page, table)
        monkeypatch.setattr(StatusServer, "_table_closing", lambda self: None)  # no word
    finally:
        table.stop()
    expect(board_page.locator("body")).to_have_attribute("data-closed", "1", timeout=5_000)
    expect(board_page.locator("#closed-text")).to_have_text("TABLE CLOSED")


def test_the_board_speaks_simplified_chinese(board_page: Page, tmp_path: Path) -> None:
    table = start_table(
        "baccarat", tmp_path / "journal.sqlite", board=BoardConfig(language="zh-Hans")
    )
    try:
        open_board(board_page, table)
        assert board_page.evaluate("() => document.documentElement.lang") == "zh-Hans"
        expect(board_page.locator("#limits-word")).to_have_text("投注限额")
        expect(board_page.locator("#game")).to_have_text("百家乐")
        expect(board_page.locator(".pb-hand.banker .side")).to_have_text("庄")
    finally:
        table.stop()
