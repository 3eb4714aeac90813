"""Baccarat's status page in real Chromium: the game's own drawing (controller/baccarat/static/
baccarat.js, served at /game.js by controller/app/console/game_page.py, the app naming no game)
shows the hands, the five scoreboards, the boxes' wagers and commission, and its HOLD.

The known view is built from a shoe worked by hand (tests/support/baccarat_view.py), so
every count and place below is the hand-drawn one, not read back from the code under test.

    .venv/bin/python -m tests.browser.test_baccarat_page [OUTPUT_FOLDER]

writes docs/screenshots/baccarat-*.png: the real game (controller/baccarat) dealt in-process
to the middle of a shoe, at 800x480 and 1920x1080.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from controller import game as games
from controller.app.console.game_page import script_text
from controller.app.console.web import StatusServer
from controller.cards import DECK
from controller.ports import ButtonPressed, CardDrawn, ChipsSensed, ConsoleAction, ConsoleButton
from tests.support.baccarat_view import PAGE_SCRIPT, known_view
from tests.support.browser import published, serve

ROOT = Path(__file__).resolve().parents[2]

STAND_IN = "baccarat_page"  # a registered spec naming the page script (the app's side only)
BACCARAT_TABLE: dict[str, Any] = {"table": "bac-01", "limits": (10, 1000)}


def state_of(view: dict[str, Any], game: str = STAND_IN) -> dict[str, Any]:
    return published(game, view.get("coup", 0), view, **BACCARAT_TABLE)


@pytest.fixture
def toy() -> Any:
    """The toy game's spec: tests/toygame stands for an installed game, imported by its
    own name (under pytest; the screenshots, run as a module, need none)."""
    from toygame.game import SPEC

    return SPEC


@pytest.fixture
def stand_in(toy: Any) -> Iterator[str]:
    """A spec that names baccarat's page script (what the app reads of a game's spec)."""
    games.register(dataclasses.replace(toy, name=STAND_IN, page_script=PAGE_SCRIPT))
    try:
        yield STAND_IN
    finally:
        games.unregister(STAND_IN)


def open_page(page: Page, view: dict[str, Any], game: str) -> StatusServer:
    server = serve(state_of(view, game), game=game)
    page.goto(server.console_url or server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    return server


def marks(page: Page, road: str, mark: str | None = None) -> int:
    inner = "[data-mark]" if mark is None else f'[data-mark="{mark}"]'
    return page.locator(f'#view [data-road="{road}"] > {inner}').count()


def test_the_five_roads_of_a_known_shoe(page: Page, stand_in: str) -> None:
    server = open_page(page, known_view(), stand_in)
    try:
        expect(page.locator('#view [data-road="bead_plate"]')).to_be_visible()
        # bead plate: all 10 coups, the tie too: 5 B, 4 P, 1 T
        assert marks(page, "bead_plate") == 10
        assert marks(page, "bead_plate", "banker") == 5
        assert marks(page, "bead_plate", "tie") == 1
        bead = page.locator('#view [data-road="bead_plate"] [data-cell="1,3"]')  # 10th coup
        assert bead.get_attribute("data-mark") == "banker"
        # big road: the 9 wins in 5 columns; the tie a stroke on the 2nd B (column 0 row 1)
        assert marks(page, "big_road") == 9
        stroke = page.locator('#view [data-road="big_road"] [data-cell="0,1"] [data-ties]')
        assert stroke.get_attribute("data-ties") == "1"
        assert (
            page.locator('#view [data-road="big_road"] [data-cell="1,2"]').get_attribute(
                "data-mark"
            )
            == "player"
        )
        pair = page.locator('#view [data-road="big_road"] [data-cell="0,1"] [data-pair]')
        assert pair.get_attribute("data-pair") == "banker"
        # derived roads as worked by hand: r b b b r b / b b b / b r
        assert marks(page, "big_eye_boy", "red") == 2
        assert marks(page, "big_eye_boy", "blue") == 4
        assert marks(page, "small_road", "blue") == 3
        assert marks(page, "small_road", "red") == 0
        assert marks(page, "cockroach_pig", "blue") == 1
        assert marks(page, "cockroach_pig", "red") == 1
        # the big eye boy's third column holds the red of c4 r0 (drawn: r | b b b | r | b)
        assert (
            page.locator('#view [data-road="big_eye_boy"] [data-cell="2,0"]').get_attribute(
                "data-mark"
            )
            == "red"
        )
        expect(page.locator("#view [data-counts]")).to_contain_text("Banker 5 · Player 4 · Tie 1")
    finally:
        server.close()


def test_hands_totals_bets_commission_and_the_next_line(page: Page, stand_in: str) -> None:
    server = open_page(page, known_view(), stand_in)
    try:
        expect(page.locator("#next-text")).to_have_text(
            "Banker wins 7 to 5: pay and collect, then NEXT"
        )
        expect(page.locator('[data-hand="player"] .total')).to_have_text("5")
        expect(page.locator('[data-hand="banker"] .total')).to_have_text("7")
        expect(page.locator('[data-hand="banker"] .card')).to_have_count(2)
        expect(page.locator('[data-hand="banker"]')).to_contain_text("WINS")
        expect(page.locator("#round")).to_have_text("COUP 10")
        box1 = page.locator('#view [data-box="1"]')
        expect(box1).to_contain_text("BANKER $10")
        expect(box1).to_contain_text("BANKER: PAY $10")
        expect(box1.locator("[data-commission]")).to_have_text(
            "COMMISSION $0.50: collect $1 (rule 5.10(b))"
        )
        box3 = page.locator('#view [data-box="3"]')
        expect(box3).to_contain_text("PLAYER $5")
        expect(box3).to_contain_text("TIE: TAKE $2")
        expect(box3.locator("[data-commission]")).to_have_count(0)
        # the console: NEXT lit after a settled coup, and a COLLECT for box 1's commission
        expect(page.locator('#buttons [data-button="next"]')).to_have_attribute("data-lit", "true")
        expect(page.locator('#buttons [data-button="collect1"]')).to_have_count(1)
        # the game's styles arrive through the CSSOM, which the page's CSP allows
        display = page.locator('[data-hand="player"]').evaluate(
            "el => getComputedStyle(el).display"
        )
        assert display == "flex"
    finally:
        server.close()


def test_a_payout_the_chips_disagree_with_shows_on_its_box(page: Page, stand_in: str) -> None:
    view = known_view()
    text = "Box 1 Banker: paid $15, owed $10: $5 over (settlement (casino procedure))"
    view["boxes"][0]["mismatch"] = text
    server = open_page(page, view, stand_in)
    try:
        box1 = page.locator('#view [data-box="1"]')
        expect(box1.locator(".tag.red")).to_have_text("PAYOUT MISMATCH")
        expect(box1.locator(".mismatch")).to_have_text(text)
        expect(page.locator('#view [data-box="3"] .mismatch')).to_have_count(0)
    finally:
        server.close()


def test_dealing_style_b_definitions_the_shoe_line_says_so(page: Page, stand_in: str) -> None:
    """The page's shoe line says when the table deals in Dealing Style B (the NZ
    definitions of "Banker" and "Player"), and nothing of it in Style A."""
    view = known_view()
    view["rules"] = {**view.get("rules", {}), "dealing_style": "B"}
    server = open_page(page, view, stand_in)
    try:
        line = page.locator('#view [data-dealing-style="B"]')
        expect(line).to_contain_text("Dealing Style B: seated Player and Banker handle the hands")
    finally:
        server.close()
    server = open_page(page, known_view(), stand_in)
    try:
        expect(page.locator("#view .bac-board-line")).not_to_contain_text("Dealing Style")
    finally:
        server.close()


def test_a_long_shoe_shows_its_newest_columns(page: Page, stand_in: str) -> None:
    # B P alternating 40 times: 40 big-road columns; the board shows the last 26 (14-39)
    server = open_page(page, known_view("BP" * 20), stand_in)
    try:
        expect(page.locator('#view [data-road="big_road"]')).to_have_attribute("data-columns", "40")
        assert marks(page, "big_road") == 26
        assert page.locator('#view [data-road="big_road"] [data-cell="39,0"]').count() == 1
        assert page.locator('#view [data-road="big_road"] [data-cell="13,0"]').count() == 0
    finally:
        server.close()


def test_the_surveillance_page_draws_it_too(page: Page, stand_in: str) -> None:
    server = serve(state_of(known_view(), stand_in), game=stand_in)
    try:
        page.goto(server.url + "/surveillance")
        expect(page.locator('#view [data-road="cockroach_pig"]')).to_be_visible()
        assert marks(page, "big_eye_boy") == 6
        assert page.locator("#console").count() == 0  # read-only: no console at all
    finally:
        server.close()


def test_its_hold_cites_the_rule(page: Page, stand_in: str) -> None:
    violation = {"rule": "Table of Play", "message": "the Banker stands on 7", "card": "4c"}
    view = known_view(state="hold", violations=[violation])
    server = open_page(page, view, stand_in)
    try:
        expect(page.locator("#hold")).to_be_visible()
        expect(page.locator("#hold-text")).to_contain_text(
            "Table of Play: the Banker stands on 7 (card 4c)"
        )
    finally:
        server.close()


def test_without_the_script_the_view_shows_as_facts(page: Page, toy: Any) -> None:
    # the toy game names no page script: the same view falls back to the page's facts
    games.register(toy)
    try:
        server = open_page(page, known_view(), "toy")
        try:
            expect(page.locator("#view table.facts")).to_be_visible()
            assert page.locator('#view [data-road="big_road"]').count() == 0
        finally:
            server.close()
    finally:
        games.unregister("toy")


# --- the real game, dealt in-process to the middle of a shoe -----------------------------

DEALING = ("burn", "initial_deal", "player_third", "banker_third")


def mid_shoe(coups: int = 36, stop: str = "banker_third", seed: int = 11) -> Any:
    """A baccarat game (the registry's) dealt from a seeded 8-deck shoe: three boxes wager
    each coup, their commission is collected every tenth coup; it stops after ``coups``
    coups at the first moment in ``stop`` (a card due for the Banker, or the settlement)."""
    spec = games.spec("baccarat")
    game = spec.make(spec.rules())
    rng = random.Random(seed)
    shoe = list(DECK) * 8
    rng.shuffle(shoe)
    cards = iter(shoe)

    def act(name: str, **args: Any) -> None:
        game.handle(ConsoleAction(source="console", action=name, args=args, actor="test"))

    done = 0
    for _ in range(5000):
        view = game.view()
        state = view["state"]
        if done >= coups and state == stop:
            return game
        if state == "shuffle":
            act("shuffled")
        elif state in DEALING:
            game.handle(CardDrawn(source="shoe", card=next(cards)))
        elif state == "betting":
            act("place_wager", box=1, bet="banker", amount=20)
            act("place_wager", box=3, bet="player", amount=10)
            act("place_wager", box=3, bet="tie", amount=5)
            act("place_wager", box=5, bet="banker", amount=50)
            act("place_wager", box=5, bet="banker_pair", amount=5)
            game.handle(ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS))
        elif state == "settlement":
            done += 1
            if done % 10 == 0:
                for box in (1, 5):
                    act("collect_commission", box=box)
            game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
        else:
            raise AssertionError(f"the scene met the state {state!r}: {view['next_action']}")
    raise AssertionError(f"no {stop!r} after {coups} coups")


def paid_with_a_mistake(seed: int = 7) -> Any:
    """A baccarat game on chip readers (the registry's, `settlement_check` on): three boxes'
    wagers stacked on their spots, one coup dealt from a seeded shoe, every spot paid and
    collected as it should be except the first winning one, paid $5 over."""
    spec = games.spec("baccarat")
    game = spec.make(spec.rules(chip_readers=True, settlement_check=True))
    rng = random.Random(seed)
    shoe = list(DECK) * 8
    rng.shuffle(shoe)
    cards = iter(shoe)

    def stack(spot: str, total: int) -> None:
        game.handle(ChipsSensed(source="chips", spot=spot, total=total))

    game.handle(ConsoleAction(source="console", action="shuffled", args={}, actor="test"))
    while game.view()["state"] != "betting":
        game.handle(CardDrawn(source="shoe", card=next(cards)))  # the burn
    for spot, total in (("banker1", 20), ("player3", 10), ("tie3", 5), ("banker5", 50)):
        stack(spot, total)
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS))
    while game.view()["state"] != "settlement":
        game.handle(CardDrawn(source="shoe", card=next(cards)))
    checked = game.view()["payout_check"]
    wrong = next(s["spot"] for s in checked if s["owed"])
    for spot in checked:
        stack(spot["spot"], spot["end"] + 5 * (spot["spot"] == wrong))
    return game


def test_a_real_coup_paid_wrong_shows_the_mismatch_on_its_box(page: Page) -> None:
    game = paid_with_a_mistake()
    [wrong] = [s for s in game.view()["payout_check"] if s["state"] == "mismatch"]
    server = serve(real_state(game), game="baccarat")
    try:
        page.goto(server.console_url or server.url + "/")
        box = page.locator(f'#view [data-box="{wrong["box"]}"]')
        expect(box.locator(".tag.red")).to_have_text("PAYOUT MISMATCH")
        expect(box.locator(".mismatch")).to_have_text(wrong["text"])
        expect(page.locator("#next-text")).to_contain_text("$5 over")
    finally:
        server.close()


def real_state(game: Any) -> dict[str, Any]:
    return published("baccarat", game.round_no, game.view(), **BACCARAT_TABLE)


def test_the_games_spec_names_this_drawing() -> None:
    assert "window.tablectl.renderers.baccarat" in (script_text("baccarat") or "")


def test_the_real_game_mid_shoe_shows_its_five_roads(page: Page) -> None:
    game = mid_shoe()
    view = game.view()
    wins = sum(1 for r in view["results"] if r["winner"] != "tie")
    server = serve(real_state(game), game="baccarat")
    try:
        page.goto(server.console_url or server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-conn", "live")
        expect(page.locator('#view [data-road="cockroach_pig"]')).to_be_visible()
        assert marks(page, "bead_plate") == min(len(view["results"]), 12 * 6)
        assert marks(page, "big_road") == min(wins, 26 * 6)
        for road in ("big_eye_boy", "small_road", "cockroach_pig"):
            assert marks(page, road) >= 1, road
        expect(page.locator("#next-text")).to_have_text(view["next_action"])
        expect(page.locator('[data-hand="banker"]')).to_contain_text("CARD DUE")
        expect(page.locator('#view [data-box="5"]')).to_contain_text("B PAIR $5")
    finally:
        server.close()


def screenshots(out: Path) -> list[Path]:
    """docs/screenshots/baccarat-*.png: a card due to the Banker, and a settled coup."""
    from playwright.sync_api import sync_playwright

    from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS

    made: list[Path] = []
    scenes = {
        "baccarat": mid_shoe(),
        "baccarat-settled": mid_shoe(coups=41, stop="settlement"),
        "baccarat-payout-mismatch": paid_with_a_mistake(),
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, game in scenes.items():
            server = serve(real_state(game), game="baccarat")
            try:
                for width, height in ((800, 480), (1920, 1080)):
                    context = browser.new_context(viewport={"width": width, "height": height})
                    shot = context.new_page()
                    shot.goto(server.console_url or server.url + "/")
                    expect(shot.locator("body")).to_have_attribute("data-conn", "live")
                    expect(shot.locator('#view [data-road="cockroach_pig"]')).to_be_visible()
                    path = out / f"{name}-{width}x{height}.png"
                    shot.screenshot(path=str(path))
                    made.append(path)
                    context.close()
            finally:
                server.close()
        browser.close()
    return made


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for made in screenshots(folder):
        print(made)
