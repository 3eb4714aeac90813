"""A game's own drawing for the status page (controller/app/console/game_page.py): served at
/game.js for the running game, named by its GameSpec's ``page_script``, under the same
security headers as every other file; none named, an empty script; a broken entry named."""

from __future__ import annotations

import dataclasses
import queue
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from toygame.game import SPEC as TOY

from controller import game as games
from controller.app.console import game_page
from controller.app.console.web import StatusServer
from controller.errors import ConfigError
from controller.game import registry

FACES = Path(game_page.__file__).parent / "static" / "faces.js"  # any file in a package


@pytest.fixture
def drawn() -> Iterator[str]:
    """A registered game whose page script is static/faces.js of controller.app.console."""
    spec = dataclasses.replace(
        TOY, name="drawn", page_script="controller.app.console:static/faces.js"
    )
    games.register(spec)
    games.register(TOY)
    try:
        yield spec.name
    finally:
        games.unregister("drawn")
        games.unregister("toy")


def get(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


@pytest.mark.parametrize("readonly", [False, True])
def test_the_running_games_script_is_served_with_the_self_only_policy(
    drawn: str, readonly: bool
) -> None:
    server = StatusServer(queue.Queue(), port=0, game=drawn, readonly=readonly).start()
    try:
        status, headers, text = get(server.url + game_page.PATH)
    finally:
        server.close()
    assert status == 200
    assert text == FACES.read_text(encoding="utf-8")
    assert headers["Content-Type"].startswith("text/javascript")
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-cache"


def test_a_game_without_a_script_gets_an_empty_one(drawn: str) -> None:
    server = StatusServer(queue.Queue(), port=0, game="toy").start()
    try:
        status, _, text = get(server.url + game_page.PATH)
    finally:
        server.close()
    assert status == 200
    assert text == game_page.NONE
    assert game_page.script_text("toy") is None


def test_the_script_is_read_only(drawn: str) -> None:
    server = StatusServer(queue.Queue(), port=0, game=drawn).start()
    try:
        request = urllib.request.Request(server.url + game_page.PATH, data=b"x", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
    finally:
        server.close()
    assert refused.value.code == 405


@pytest.mark.parametrize(
    ("named", "words"),
    [
        ("controller.app.console:../web.py", "is not 'package:relative/path.js'"),
        ("controller.app.console:/etc/passwd.js", "is not 'package:relative/path.js'"),
        ("controller.app.console:static/app.css", "is not 'package:relative/path.js'"),
        (":static/faces.js", "is not 'package:relative/path.js'"),
        ("controller.app.console:static/nothing.js", "cannot be read"),
        ("no_such_package_here:x.js", "cannot be read"),
    ],
)
def test_a_broken_entry_is_named(named: str, words: str) -> None:
    games.register(dataclasses.replace(TOY, name="broken", page_script=named))
    try:
        with pytest.raises(ConfigError, match=f"the game 'broken': page_script .*{words}"):
            game_page.script_text("broken")
        server = StatusServer(queue.Queue(), port=0, game="broken").start()
        try:
            status, _, text = get(server.url + game_page.PATH)
        finally:
            server.close()
    finally:
        games.unregister("broken")
    assert status == 500
    assert words in text


def page_and_pit_files() -> list[Path]:
    """The status page's and the pit's files: server, pages, scripts, styles."""
    console = Path(game_page.__file__).parent
    floor = console.parent / "floor"
    files = [console / "web.py", console / "game_page.py", floor / "boards.py", floor / "view.py"]
    return files + sorted((console / "static").iterdir()) + sorted((floor / "static").iterdir())


def games_named(texts: dict[str, str]) -> list[tuple[str, str]]:
    """(file, game) for each game with a drawing of its own that a text names."""
    drawn_by_their_own = [n for n in games.names() if games.spec(n).page_script is not None]
    return [(where, n) for where, text in texts.items() for n in drawn_by_their_own if n in text]


def test_every_game_of_this_repository_ships_its_own_drawing() -> None:
    """So the check below covers every game: none is drawn by the page's own code."""
    for name in registry.BUILTIN:
        assert games.spec(name).page_script is not None, name
        assert game_page.script_text(name), name


def test_the_page_and_the_pit_name_no_game() -> None:
    """A game's drawing comes from its own folder: the status page's and the pit's files
    (server, pages, scripts, styles) name none of the games in the registry."""
    texts = {p.name: p.read_text(encoding="utf-8").lower() for p in page_and_pit_files()}
    assert "app.js" in texts and "faces.js" in texts and "app.css" in texts
    assert games_named(texts) == []


@pytest.mark.parametrize("put_back", ["function pokerView(view) {}", 'drawn === "blackjack"'])
def test_a_game_put_back_into_app_js_is_named(put_back: str) -> None:
    app_js = Path(game_page.__file__).parent / "static" / "app.js"
    text = app_js.read_text(encoding="utf-8") + put_back
    assert games_named({"app.js": text.lower()}) != []
