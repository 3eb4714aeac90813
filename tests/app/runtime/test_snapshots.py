"""Snapshots: a table that comes back from its last snapshot and the rows after
it is the table a full replay of the journal gives, and behaves the same afterwards.

The journals are played by the demo's scripted dealers (`sim_hardware.dealer`, as the
soak and ``tablectl demo`` play them), both games, through the real loop and journal."""

from __future__ import annotations

import base64
import datetime
import json
import logging
import pickle
import queue
import shutil
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli.demo import demo_config
from controller.app.runtime import snapshots
from controller.app.runtime.devices import shoe_resume
from controller.app.runtime.games import make_game
from controller.app.runtime.loop import TableLoop
from controller.journal.store import Journal, JournalCorrupt
from controller.ports import DealerSignedIn, DeviceHello, SignInRefused
from tests.support.loop_play import KEY, new_loop, play

GAMES = ("blackjack", "poker")
HELLO = DeviceHello(
    source="shoe", device_kind="shoe", serial_number="S1", firmware="1", protocol_version=1,
    boot_id=77,
)  # fmt: skip


_GAME = {name: make_game(demo_config(name, Path("unused.sqlite"), port=0)) for name in GAMES}


def _loop(game: str, journal: Journal, **kwargs: Any) -> TableLoop:
    return new_loop(game, journal, events=queue.Queue(), **kwargs)


def _rows(journal: Journal, since: int) -> list[tuple[str, Any]]:
    """The rows after ``since``; a snapshot's pickle as the game's view it holds (equal
    states may pickle to other bytes: shared references, set order)."""
    rows = []
    for e in journal.entries(since=since):
        payload = dict(e.payload)
        if e.kind == snapshots.KIND:
            state = payload.pop("state")
            game = _GAME[e.payload["game"]]
            restored = snapshots.decode({**payload, "state": state}, game, rules="", seq=e.seq)
            payload["view"] = restored.game.view()
            payload["loop"] = restored.loop
        rows.append((e.kind, payload))
    return rows


@pytest.mark.parametrize("game", GAMES)
def test_replay_from_the_snapshot_is_the_full_replay_and_plays_on_the_same(
    tmp_path: Path, game: str
) -> None:
    played = play(game, tmp_path / "play.sqlite", rounds=14, seed=16)
    cut = len(played.events) * 4 // 5  # somewhere in a late round, snapshots behind it
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    with Journal(first, key=KEY) as journal:
        loop = _loop(game, journal, snapshot_every=3)
        loop.step(HELLO)  # the shoe's sequence: its boot id, then its cards' seqs
        loop.step(DealerSignedIn(source="console", staff_id="d01", name="Dana"))
        for event in played.events[:cut]:
            loop.step(event)
        snapshot_rows = [e.seq for e in journal.entries() if e.kind == snapshots.KIND]
    assert len(snapshot_rows) >= 3  # every 3 rounds
    shutil.copy(first, second)
    with Journal(first, key=KEY) as a, Journal(second, key=KEY) as b:
        fast, full = _loop(game, a, snapshot_every=3), _loop(game, b, snapshot_every=3)
        replayed_fast, replayed_full = fast.replay(), full.replay(full=True)
        assert fast.restored_from == snapshot_rows[-1] and full.restored_from is None
        assert replayed_fast < replayed_full / 3  # only the rows after the snapshot
        assert fast.game.view() == full.game.view()
        assert fast.game.round_no == full.game.round_no
        assert fast.loop_state() == full.loop_state()  # dealer, channels, device sequences
        assert fast.dealer is not None and fast.dealer.staff_id == "d01"
        assert fast.shoe_resume() == full.shoe_resume() == shoe_resume(b)
        assert fast.shoe_resume() is not None
        assert fast._final == full._final  # what the devices are told after the restart
        round_at_cut = fast.game.round_no
        for event in played.events[cut:]:  # then the same behaviour, event by event
            before_a, before_b = a.last_seq, b.last_seq
            fast.step(event)
            full.step(event)
            assert _rows(a, before_a) == _rows(b, before_b)
            assert fast.game.view() == full.game.view()
        assert fast.game.round_no > round_at_cut + 1  # rounds played on, snapshots written
        assert _rows(a, 0) == _rows(b, 0)


def _played(tmp_path: Path, game: str, every: int = 2) -> Path:
    played = play(game, tmp_path / "play.sqlite", rounds=5, seed=7)
    path = tmp_path / "table.sqlite"
    with Journal(path, key=KEY) as journal:
        loop = _loop(game, journal, snapshot_every=every)
        for event in played.events:
            loop.step(event)
    return path


def test_a_snapshot_from_other_code_is_not_used_the_whole_journal_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = _played(tmp_path, "blackjack")
    with Journal(path, key=KEY) as journal:
        expected = _loop("blackjack", journal)
        expected.replay(full=True)
        monkeypatch.setattr(snapshots, "code_version", lambda game: "another version")
        loop = _loop("blackjack", journal)
        with caplog.at_level(logging.WARNING):
            count = loop.replay()
    assert loop.restored_from is None
    assert count > 0
    assert loop.game.view() == expected.game.view()
    assert "written by another version of the code" in caplog.text
    assert "replaying the whole journal" in caplog.text


def test_a_snapshot_under_other_rules_is_not_used(tmp_path: Path) -> None:
    path = _played(tmp_path, "blackjack")
    with Journal(path, key=KEY) as journal:
        loop = _loop("blackjack", journal)
        loop.rules_id = snapshots.rules_id({"decks": 8})  # the config changed since
        loop.replay()
        assert loop.restored_from is None
        same = _loop("blackjack", journal)
        same.replay()
        assert same.restored_from is not None


def test_a_snapshot_row_changed_without_the_key_is_refused_before_it_is_unpickled(
    tmp_path: Path,
) -> None:
    """Someone with the file but not the key puts a pickle of their own in the row."""
    path = _played(tmp_path, "poker")

    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER journal_no_update")
    seq = db.execute("SELECT MAX(seq) FROM journal WHERE kind = 'Snapshot'").fetchone()[0]
    payload = json.loads(
        db.execute("SELECT payload FROM journal WHERE seq = ?", (seq,)).fetchone()[0]
    )
    payload["state"] = snapshots.encode(
        _GAME["poker"], snapshots.LoopState(None, {}, {}), rules=""
    )["state"]
    db.execute("UPDATE journal SET payload = ? WHERE seq = ?", (json.dumps(payload), seq))
    db.commit()
    db.close()
    with Journal(path, key=KEY, check=False) as journal:
        loop = _loop("poker", journal)
        with pytest.raises(JournalCorrupt) as caught:
            loop.replay()
    assert caught.value.seq == seq


def test_the_unpickler_refuses_a_class_outside_its_allow_list() -> None:
    game = _GAME["poker"]
    payload = snapshots.encode(game, snapshots.LoopState(None, {}, {}), rules="")
    evil = pickle.dumps((shutil.rmtree, None))  # would be called by nobody, but imported
    payload["state"] = base64.b64encode(zlib.compress(evil)).decode()
    with pytest.raises(snapshots.SnapshotUnusable, match="not allowed in a snapshot"):
        snapshots.decode(payload, game, rules="", seq=1)
    good = snapshots.encode(game, snapshots.LoopState(None, {}, {}), rules="")
    assert snapshots.decode(good, game, rules="", seq=1).game.view() == game.view()


def test_the_consoles_wrong_pin_count_comes_back_from_a_snapshot(tmp_path: Path) -> None:
    """A lockout must outlive a restart that loads a snapshot, not only a full replay."""
    with Journal(tmp_path / "j.sqlite", key=KEY) as journal:
        loop = _loop("blackjack", journal, snapshot_every=0)
        loop.steps([SignInRefused(source="console", who="d01", failures=5, locked_for=120.0)])
        loop.write_snapshot()
        refused_at = datetime.datetime.fromisoformat(next(journal.entries()).wall)
        again = _loop("blackjack", journal)
        assert again.replay() == 0 and again.restored_from is not None  # from the snapshot
        assert again.wrong_pins is not None
        failures, until = again.wrong_pins
        waits = datetime.datetime.fromisoformat(until) - refused_at
        assert failures == 5 and 119 < waits.total_seconds() < 121
