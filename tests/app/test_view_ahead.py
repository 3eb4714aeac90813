"""The game's view built during the journal's commit (issue 16, `controller.app.view_ahead`):
on the helper thread while the controller thread waits for the disk, never published
before the commit, and the same view the controller thread would have built itself."""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

import pytest

from controller.app.loop import Stop
from controller.app.view_ahead import ViewAhead
from controller.journal import Journal
from tests.app.loop_play import KEY, new_loop, play


def test_the_helper_builds_the_view_while_the_caller_waits() -> None:
    ahead = ViewAhead()
    ahead.open()
    built_on: list[str] = []
    built = threading.Event()

    def build() -> dict[str, str]:
        built_on.append(threading.current_thread().name)
        built.set()
        return {"state": "betting"}

    try:
        ahead.start(build)
        # the caller is busy elsewhere (the commit): the helper gets there meanwhile
        assert built.wait(timeout=5.0), "the helper did not build the view during the wait"
        assert ahead.result() == {"state": "betting"}
    finally:
        ahead.close()
    assert built_on == ["view"]
    assert ahead.helped == 1


def test_without_the_helper_the_view_is_built_in_place() -> None:
    ahead = ViewAhead()  # never opened: a loop stepped directly (tests, the journal CLI)
    ahead.start(lambda: threading.current_thread().name)
    assert ahead.result() == threading.current_thread().name
    assert ahead.helped == 0


def test_a_view_the_helper_has_not_claimed_is_built_by_the_caller() -> None:
    ahead = ViewAhead()
    ahead.open()
    ahead.close()  # the helper gone: an offered view must still come back
    ahead.start(lambda: threading.current_thread().name)
    assert ahead.result() == threading.current_thread().name


def test_an_error_building_the_view_on_the_helper_is_raised_to_the_caller() -> None:
    ahead = ViewAhead()
    ahead.open()
    started = threading.Event()

    def broken() -> Any:
        started.set()
        raise KeyError("box 8")

    try:
        ahead.start(broken)
        assert started.wait(timeout=5.0)
        with pytest.raises(KeyError, match="box 8"):
            ahead.result()
    finally:
        ahead.close()


def test_discard_returns_only_once_the_helper_has_stopped_reading() -> None:
    """A failed commit discards the view; the loop must not touch the game again while the
    helper is still reading it."""
    ahead = ViewAhead()
    ahead.open()
    reading, release = threading.Event(), threading.Event()

    def slow() -> str:
        reading.set()
        release.wait(timeout=5.0)
        return "late"

    try:
        ahead.start(slow)
        assert reading.wait(timeout=5.0)
        discarder = threading.Thread(target=ahead.discard)
        discarder.start()
        discarder.join(timeout=0.1)
        assert discarder.is_alive()  # still waiting for the reader
        release.set()
        discarder.join(timeout=5.0)
        assert not discarder.is_alive()
    finally:
        release.set()
        ahead.close()


class DurableWitness:
    """A journal whose commit waits (up to a bound) until the game's view is being built
    on another thread, and a publisher that notes the rows committed when a state left."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.view_started = threading.Event()
        self.views_during_commit = 0
        self.commits = 0
        self.published: list[tuple[int, dict[str, Any]]] = []
        append_many = journal.append_many

        def committing(rows: list[Any]) -> Any:
            if self.view_started.wait(timeout=2.0):
                self.views_during_commit += 1
            self.view_started.clear()
            entries = append_many(rows)
            self.commits += 1
            return entries

        journal.append_many = committing  # type: ignore[method-assign]

    def watch(self, game: Any) -> None:
        view = game.view

        def watched() -> Any:
            if threading.current_thread().name == "view":
                self.view_started.set()
            return view()

        game.view = watched

    def publish(self, state: dict[str, Any]) -> None:
        self.published.append((self.commits, state))


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_the_view_is_built_during_the_commit_and_published_after_it(
    tmp_path: Path, game: str
) -> None:
    played = play(game, tmp_path / "one-by-one.sqlite", rounds=1, seed=21)
    events = played.events[:12]
    with Journal(tmp_path / "run.sqlite", key=KEY) as journal:
        witness = DurableWitness(journal)
        q: queue.Queue[Any] = queue.Queue()
        loop = new_loop(game, journal, events=q, publish=witness.publish)
        witness.watch(loop.game)
        runner = threading.Thread(target=loop.run, name="controller")
        runner.start()
        try:
            for event in events:  # one at a time: each a burst of one
                done = loop.processed
                q.put(event)
                assert loop.wait_processed(done, timeout=10.0)
        finally:
            q.put(Stop())
            runner.join(timeout=10.0)
        # the helper built every card's view while the commit waited
        assert witness.views_during_commit == len(events)
        assert loop.view_ahead.helped == len(events)
        # each state left after its commit, and shows the game after its event
        assert [commits for commits, _ in witness.published] == list(range(len(events) + 1))
        expected = new_loop(game, journal, events=None)
        for event, (_, state) in zip(events, witness.published[1:], strict=True):
            expected._apply(event, live=False)
            assert state["view"] == expected.game.view()
