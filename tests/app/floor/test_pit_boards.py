"""A picked table in its game's own drawing on the pit floor (controller/app/floor/boards.py):
the floor keeps the last public view of each table whose game names a page script, serves
the script at /game/<name>.js and the view at /api/view, and the page draws the board
(baccarat's five roads) when the manager picks the table. Nothing in the pit names a game:
the game here is a stand-in spec that names baccarat's script."""

from __future__ import annotations

import dataclasses
import datetime
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from toygame.game import SPEC as TOY

from controller import game as games
from controller.app.floor.boards import GameViews
from controller.app.floor.view import PitView
from controller.app.pit.signing import public_text, sign
from controller.baccarat.roads import compute
from tests.support.baccarat_view import PAGE_SCRIPT, known_view
from tests.support.pit import Broker

DRAWN = "pit_board_game"


@pytest.fixture
def drawn() -> Iterator[str]:
    games.register(dataclasses.replace(TOY, name=DRAWN, page_script=PAGE_SCRIPT))
    games.register(TOY)
    try:
        yield DRAWN
    finally:
        games.unregister(DRAWN)
        games.unregister("toy")


def state_topic(table: str) -> str:
    return f"casino/dunedin/table/{table}/state"


def state_payload(game: str, view: dict[str, Any]) -> bytes:
    return json.dumps({"v": 1, "state": {"game": game, "round": 3, "view": view}}).encode()


def test_only_a_drawable_games_state_is_kept(drawn: str) -> None:
    views = GameViews()
    view = {"renderer": "baccarat", "roads": compute([])}
    views.take(state_topic("bac-01"), state_payload(drawn, view))
    views.take(state_topic("toy-01"), state_payload("toy", {"state": "idle"}))  # no script
    views.take(state_topic("x-01"), state_payload("no_such_game", view))  # not installed
    views.take("casino/dunedin/table/bac-02/event", state_payload(drawn, view))  # not state
    views.take(state_topic("bac-03"), b"not json")
    assert views.get("bac-01") == {"game": drawn, "view": view}
    assert views.get("toy-01") is None
    assert views.get("x-01") is None
    assert views.get("bac-02") is None
    assert views.get("bac-03") is None


def test_made_up_game_names_are_never_looked_up_or_kept(
    drawn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state naming games off the registry (a broken or hostile publisher) costs no
    lookup and leaves nothing behind, however many names it makes up."""
    looked_up: list[str] = []
    real_spec = games.registry.spec
    monkeypatch.setattr(
        games.registry, "spec", lambda name: looked_up.append(name) or real_spec(name)
    )
    views = GameViews()
    view = {"renderer": "baccarat", "roads": compute([])}
    for n in range(200):
        views.take(state_topic(f"t-{n}"), state_payload(f"made-up-{n}", view))
    views.take(state_topic("bac-01"), state_payload(drawn, view))
    views.take(state_topic("bac-02"), state_payload(drawn, view))
    assert looked_up == [drawn]  # once, for the registered game
    assert views.get("t-7") is None and views.get("bac-02") == {"game": drawn, "view": view}


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


TABLE_KEY = Ed25519PrivateKey.generate()  # the tables' signing key: the view believes it


def _say(view: PitView, table: str, leaf: str, body: dict[str, Any]) -> None:
    """As the MQTT client's callback hands the view a message, signed by its table."""
    topic = f"casino/dunedin/table/{table}/{leaf}"
    at = datetime.datetime.now(datetime.UTC).isoformat()
    body = {"v": 1, "table": table, "site": "dunedin", "at": at, **body}
    if leaf == "state":  # a table's state names its journal's head
        body["state"] = {"journal_seq": 1, **body["state"]}
    payload = sign(TABLE_KEY, topic, json.dumps(body, separators=(",", ":")).encode())
    view._message(SimpleNamespace(topic=topic, payload=payload, retain=False))


def test_the_picked_table_shows_its_roads(broker: Broker, browser: Any, drawn: str) -> None:
    keys = {table: public_text(TABLE_KEY) for table in ("bac-01", "toy-01")}
    view = PitView(broker.url, port=0, table_keys=keys).start()
    try:
        _say(view, "bac-01", "status", {"status": "online", "reason": "connected", "game": drawn})
        _say(view, "bac-01", "state", {"state": {"game": drawn, "round": 10, "view": known_view()}})
        _say(view, "toy-01", "status", {"status": "online", "reason": "connected", "game": "toy"})
        _say(
            view,
            "toy-01",
            "state",
            {"state": {"game": "toy", "round": 1, "view": {"state": "idle"}}},
        )
        status, script = _get(f"{view.url}/game/{drawn}.js")
        assert status == 200 and "window.tablectl.renderers.baccarat" in script
        assert _get(f"{view.url}/game/toy.js")[0] == 404  # names no script
        assert _get(f"{view.url}/api/view?table=toy-01")[0] == 404
        status, kept = _get(f"{view.url}/api/view?table=bac-01")
        assert status == 200 and json.loads(kept)["game"] == drawn
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        try:
            page.goto(view.url + "/")
            page.click('tr[data-table="bac-01"]')
            page.wait_for_selector('#board:not([hidden]) [data-road="big_road"]')
            board = page.locator("#board-view")
            # the worked shoe B B T P P P B P B B, as drawn by hand in test_roads.py
            assert board.locator('[data-road="bead_plate"] > [data-mark]').count() == 10
            assert board.locator('[data-road="big_road"] > [data-mark]').count() == 9
            assert board.locator('[data-road="big_eye_boy"] > [data-mark]').count() == 6
            assert board.locator('[data-road="small_road"] > [data-mark]').count() == 3
            assert board.locator('[data-road="cockroach_pig"] > [data-mark]').count() == 2
            assert "bac-01" in (page.text_content("#board-title") or "")
            page.click('tr[data-table="toy-01"]')  # a game without a drawing: no board
            page.wait_for_selector("#board", state="hidden")
        finally:
            page.close()
    finally:
        view.close()
