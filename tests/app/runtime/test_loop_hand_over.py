"""The hand-over: the state the controller thread publishes is the state after its event,
built from copies, so the status server and the pit may serialise it on their own threads
at any later time and still show exactly that, never a later move of the game."""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import queue
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.app.console.web import StatusServer
from controller.app.runtime.loop import TableLoop
from controller.cards import Card
from controller.game.jsonable import to_jsonable
from controller.journal.store import Journal, decode_event
from controller.ports import ConsoleButton, Lamp
from tests.app.runtime.loop_play import KEY, new_loop, play


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_a_published_state_is_the_state_after_its_event_and_never_changes(
    tmp_path: Path, game: str
) -> None:
    handed: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def publish(state: dict[str, Any]) -> None:  # what a feed holds, and a copy made at once
        handed.append((state, copy.deepcopy(state)))

    path = tmp_path / "journal.sqlite"
    play(game, path, rounds=2, seed=17, publish=publish)
    assert len(handed) > 30
    # every round of play moved the game on, and not one published state moved with it
    for state, at_the_time in handed:
        assert state == at_the_time, state["journal_seq"]
    # each is the game after the last event journaled before it: replay up to its row
    with Journal(path, key=KEY, readonly=True) as journal:
        entries = list(journal.entries())
        replayed: TableLoop = new_loop(game, journal, events=None)
        at = 0
        for state, _ in handed[1:]:  # the first is the state before any event
            while at < len(entries) and entries[at].seq <= state["journal_seq"]:
                event = decode_event(entries[at])
                if event is not None:
                    replayed._apply(event, live=False)
                at += 1
            assert replayed.game.view() == state["view"], state["journal_seq"]


def test_the_status_server_serialises_the_state_handed_over_when_asked() -> None:
    server = StatusServer(queue.Queue(), port=0, game="blackjack")
    view: dict[str, Any] = {"state": "betting", "boxes": [{"number": 3, "cards": ["Qs"]}]}
    server.publish({"game": "blackjack", "journal_seq": 7, "view": view})
    assert server._state_text is None  # nothing serialised on the publishing thread
    assert json.loads(server._text()) == {"game": "blackjack", "journal_seq": 7, "view": view}
    assert server._text() is server._text()  # once per state
    server.publish({"game": "blackjack", "journal_seq": 8, "view": view})
    assert json.loads(server._text())["journal_seq"] == 8


def _plain(value: Any) -> Any:
    """to_jsonable as it was written first, without its fast paths: the reference."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = _plain(getattr(value, f.name))
        return out
    if isinstance(value, list | tuple | frozenset | set):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_the_fast_to_jsonable_writes_what_the_plain_one_wrote(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal's rows and their hashes depend on it, and the views: the same JSON, key
    for key, for every event, every record and the view after each event."""
    played = play(game, tmp_path / "journal.sqlite", rounds=2, seed=23)
    with Journal(tmp_path / "again.sqlite", key=KEY) as journal:
        loop = new_loop(game, journal, events=None)
        module = sys.modules[type(loop.game).view.__module__]  # builds the view (or its base)
        for event in played.events:
            for item in [event, *loop._apply(event, live=False)]:
                assert json.dumps(to_jsonable(item)) == json.dumps(_plain(item))
            fast = loop.game.view()
            with monkeypatch.context() as patch:
                patch.setattr(module, "to_jsonable", _plain)
                assert json.dumps(fast) == json.dumps(loop.game.view())
    for value in (Lamp.HOLD, ConsoleButton.NEXT, True, 3.5, None, ("a", 1), frozenset({2})):
        assert json.dumps(to_jsonable(value)) == json.dumps(_plain(value))
