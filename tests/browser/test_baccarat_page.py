"""Baccarat's status page in real Chromium: the game's own drawing (controller/baccarat/static/
baccarat.js, served at /game.js by controller/app/console/game_page.py, the app naming no game)
shows the hands, the five scoreboards, the boxes' wagers and commission, and its HOLD.

The known view is built here from a shoe worked by hand (tests/controller/baccarat/
test_roads.py, the worked shoe B B T P P P B P B B), so every count and place below is
the hand-drawn one, not read back from the code under test.

    .venv/bin/python tests/browser/test_baccarat_page.py [OUTPUT_FOLDER]

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

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":
    sys.path[:0] = [str(HERE), str(HERE.parents[1]), str(HERE.parent)]

import pytest  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from scenes import serve  # noqa: E402
from toygame.game import SPEC as TOY  # noqa: E402

from controller import game as games  # noqa: E402
from controller.app.console.game_page import script_text  # noqa: E402
from controller.app.console.web import StatusServer  # noqa: E402
from controller.baccarat.roads import compute  # noqa: E402
from controller.cards import DECK  # noqa: E402
from controller.ports import ButtonPressed, CardDrawn, ConsoleAction, ConsoleButton  # noqa: E402

PAGE_SCRIPT = "controller.baccarat:static/baccarat.js"
STAND_IN = "baccarat_page"  # a registered spec naming the page script (the app's side only)
WORKED = "BBTPPPBPBB"
TOTALS = {"B": ("banker", 3, 5), "P": ("player", 6, 2), "T": ("tie", 4, 4)}


def results(letters: str) -> list[dict[str, Any]]:
    out = []
    for c in letters:
        winner, player, banker = TOTALS[c]
        out.append(
            {
                "winner": winner,
                "player_total": player,
                "banker_total": banker,
                "natural": False,
                "player_pair": False,
                "banker_pair": False,
            }
        )
    return out


def known_view(letters: str = WORKED, **more: Any) -> dict[str, Any]:
    """A coup settled mid-shoe: Banker 7 beats Player 5; box 1 won on Banker (commission
    owed 0.50, collected as 1), box 3 lost on Player and has a Tie wager."""
    shoe = results(letters)
    shoe[1]["banker_pair"] = True  # the second coup: a Banker pair (a red dot, top left)
    view: dict[str, Any] = {
        "renderer": "baccarat",
        "round_word": "coup",
        "state": "settlement",
        "coup": len(shoe),
        "next_action": "Banker wins 7 to 5: pay and collect, then NEXT",
        "player": {"cards": ["3h", "2c"], "total": 5, "due": False},
        "banker": {"cards": ["Kd", "7s"], "total": 7, "due": False},
        "result": {**shoe[-1], "player_total": 5, "banker_total": 7, "coup": len(shoe)},
        "boxes": [
            {
                "number": 1,
                "bets": {"banker": 10},
                "commission_owed": 50,
                "commission_to_collect": 1,
                "payouts": [
                    {"bet": "banker", "outcome": "win", "won": 10, "lost": 0, "returned": 10}
                ],
            },
            {
                "number": 3,
                "bets": {"player": 5, "tie": 2},
                "commission_owed": 0,
                "commission_to_collect": 0,
                "payouts": [
                    {"bet": "player", "outcome": "lose", "won": 0, "lost": 5, "returned": 0},
                    {"bet": "tie", "outcome": "lose", "won": 0, "lost": 2, "returned": 0},
                ],
            },
        ],
        "results": shoe,
        "roads": compute(shoe),
        "shoe": {"number": 1, "decks": 8, "coups": len(shoe), "cut_card_out": False},
        "rules": {"commission_rule": "5.10(b)"},
        "buttons": {"next": True, "no_more_bets": False, "shuffled": False},
        "violations": [],
        "hold": None,
        "decisions": [],
    }
    view.update(more)
    return view


def state_of(view: dict[str, Any], game: str = STAND_IN) -> dict[str, Any]:
    return {
        "table": "bac-01",
        "simulated": True,
        "limits": {"minimum": 10, "maximum": 1000},
        "journal_seq": 0,
        "events_processed": 0,
        "recovered": False,
        "devices": {"shoe": "ok"},
        "notices": [],
        "game": game,
        "round": view.get("coup", 0),
        "view": view,
    }


@pytest.fixture
def stand_in() -> Iterator[str]:
    """A spec that names baccarat's page script (what the app reads of a game's spec)."""
    games.register(dataclasses.replace(TOY, name=STAND_IN, page_script=PAGE_SCRIPT))
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


def test_without_the_script_the_view_shows_as_facts(page: Page) -> None:
    # the toy game names no page script: the same view falls back to the page's facts
    games.register(TOY)
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


def real_state(game: Any) -> dict[str, Any]:
    return {**state_of(game.view(), "baccarat"), "table": "bac-01", "round": game.round_no}


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
    scenes = {"baccarat": mid_shoe(), "baccarat-settled": mid_shoe(coups=41, stop="settlement")}
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
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[1] / "docs" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for made in screenshots(folder):
        print(made)
