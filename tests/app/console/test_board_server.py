"""The players' board's server side (controller/app/console/board.py, web.py): ``/board``,
``/api/board`` and ``/api/board/events`` on the console's address and on the read-only one,
serving the board document alone (never the state), built once per published state, and
``closed`` on an orderly stop."""

from __future__ import annotations

import json
import os
import queue
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from controller.app.config.board import BoardConfig
from controller.app.console import web
from controller.app.console.board import FIELDS, board_document
from controller.app.console.web import StatusServer
from controller.baccarat.board import board_facts
from tests.support.baccarat_view import known_view
from tests.support.browser import published

BOARD = BoardConfig(name="Baccarat 3", casino="Te Whare", language="zh-Hans", accent="#c0ffee")


def baccarat_state() -> dict[str, Any]:
    view = known_view(hold={"rule": "3.1", "message": "9d is foreign", "card": "9d"})
    return published(
        "baccarat",
        view["coup"],
        view,
        table="bac-01",
        limits=(10, 1000),
        dealer={"id": "d07", "name": "Tane Rewi"},
        notices=[{"reason": "Qc keyed wrongly"}],
    )


@pytest.fixture
def servers() -> Iterator[tuple[StatusServer, StatusServer]]:
    """A baccarat table's console address and its read-only address."""
    events: queue.Queue[Any] = queue.Queue()
    console = StatusServer(events, port=0, game="baccarat", secret=os.urandom(32), board=BOARD)
    console.views.append(StatusServer(events, port=0, game="baccarat", readonly=True, board=BOARD))
    console.start()
    console.publish(baccarat_state())
    try:
        yield console, console.views[0]
    finally:
        console.close()


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, dict(refused.headers), refused.read()


def board_events(server: StatusServer, count: int) -> list[dict[str, Any]]:
    """The first ``count`` board documents the event stream sends."""
    documents: list[dict[str, Any]] = []
    with urllib.request.urlopen(server.url + "/api/board/events", timeout=5) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        kind = ""
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "board":
                documents.append(json.loads(line[6:]))
                if len(documents) == count:
                    break
    return documents


@pytest.mark.parametrize("address", ["console", "read-only"])
def test_the_board_is_served_on_both_addresses(
    servers: tuple[StatusServer, StatusServer], address: str
) -> None:
    server = servers[0] if address == "console" else servers[1]
    status, headers, page = get(server.url + "/board")
    assert status == 200 and b'src="/static/board.js"' in page
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    for asset in ("/static/board.js", "/static/board.css", "/game.js"):
        assert get(server.url + asset)[0] == 200, asset
    status, _, body = get(server.url + "/api/board")
    assert status == 200
    document = json.loads(body)
    assert document["table"] == "Baccarat 3" and document["casino"] == "Te Whare"
    assert document["limits"] == {"minimum": 10, "maximum": 1000}
    assert document["renderer"] == "baccarat" and document["language"] == "zh-Hans"
    assert document["colours"]["accent"] == "#c0ffee"
    assert document["closed"] is False
    assert board_events(server, 1) == [document]


def test_the_read_only_address_has_no_console_route(
    servers: tuple[StatusServer, StatusServer],
) -> None:
    view = servers[1]
    for path in ("/api/session", "/api/console", "/api/signin", "/api/supervisor"):
        assert get(view.url + path)[0] in (404, 405), path
    assert get(view.url + "/board?console=00")[0] == 200  # no secret to present here


def test_the_board_document_carries_only_its_documented_fields(
    servers: tuple[StatusServer, StatusServer],
) -> None:
    document = json.loads(get(servers[1].url + "/api/board")[2])
    assert set(document) == FIELDS
    assert document["facts"] == board_facts(baccarat_state()["view"])
    text = json.dumps(document)
    for private in ("Tane", "d07", "9d", "Qc", "journal", "commission", "decisions", "view"):
        assert private not in text, private


def test_a_game_without_a_board_shows_the_frame_alone() -> None:
    state = published("toy", 1, {"state": "betting", "secret": "As Kd"})
    document = board_document(state, BoardConfig(), "no-such-game", closed=False)
    assert document["facts"] == {} and document["table"] == "toy-01"
    assert document["limits"] == {"minimum": 1, "maximum": 10}
    assert "As Kd" not in json.dumps(document)


def test_nothing_published_yet_reads_as_closed() -> None:
    assert board_document({}, BoardConfig(), "baccarat", closed=False)["closed"] is True


def test_the_board_is_built_once_per_published_state(
    servers: tuple[StatusServer, StatusServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    real = web.board_document

    def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(web, "board_document", counting)
    console = servers[0]
    console.publish(baccarat_state())
    for _ in range(3):
        assert get(console.url + "/api/board")[0] == 200
    assert len(built) == 1


def test_an_orderly_stop_tells_every_board_the_table_is_closed() -> None:
    events: queue.Queue[Any] = queue.Queue()
    server = StatusServer(events, port=0, game="baccarat", readonly=True).start()
    server.publish(baccarat_state())
    documents: list[dict[str, Any]] = []
    with urllib.request.urlopen(server.url + "/api/board/events", timeout=5) as stream:
        kind = ""
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "board":
                documents.append(json.loads(line[6:]))
                if len(documents) == 1:
                    server.close()  # the table stops: the stream's last word is closed
    assert [d["closed"] for d in documents] == [False, True]
