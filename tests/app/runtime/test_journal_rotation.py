"""Rotation and archive: the journal rolls over between rounds, the chain goes on
across files, sealed files are archived and leave the table only after they verify and are
archived, and never the last 10 rounds (GLI-24)."""

from __future__ import annotations

import datetime
import io
import json
import queue
import sqlite3
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli import journal as journal_cli
from controller.app.cli.demo import demo_config
from controller.app.config.journal import JournalKeeping
from controller.app.runtime.journal_archive import Archiver, archive_sealed
from controller.app.runtime.journal_rotation import Rotation
from controller.app.runtime.loop import TableLoop
from controller.app.runtime.snapshots import KIND
from controller.game.jsonable import to_jsonable
from controller.journal.fileset import SetReader, open_live, set_files, verify_set
from controller.journal.store import ROTATED, Journal, JournalCorrupt
from tests.support.loop_play import KEY, new_loop, play

KB = 1024


def _keeping(tmp_path: Path, **changes: Any) -> JournalKeeping:
    values: dict[str, Any] = dict(
        snapshot_every=2, rotate_daily=False, rotate_bytes=24 * KB,
        archive_dir=tmp_path / "archive", keep_rounds=10,
    )  # fmt: skip
    values.update(changes)
    return JournalKeeping(**values)


def _rotating(game: str, base: Path, keeping: JournalKeeping, rounds: int) -> TableLoop:
    """``rounds`` rounds played into a set that rotates by size; the loop, still open."""
    played = play(game, base.with_name("play.sqlite"), rounds=rounds, seed=16, max_steps=20000)
    rules = demo_config(game, base, port=0).rules  # as a running table gives its loop
    loop = new_loop(game, Journal(base, key=KEY), events=queue.Queue(),
                    snapshot_every=keeping.snapshot_every, rules=rules)  # fmt: skip
    rotation = Rotation(keeping, KEY)
    loop.after_round = rotation
    for event in played.events:
        loop.step(event)
    return loop


def _key_beside(base: Path) -> None:
    base.with_name(base.name + ".key").write_text(KEY.hex() + "\n")
    base.with_name(base.name + ".key").chmod(0o600)


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_the_chain_goes_on_across_files_and_the_live_file_alone_brings_it_back(
    tmp_path: Path, game: str
) -> None:
    base = tmp_path / "journal.sqlite"
    loop = _rotating(game, base, _keeping(tmp_path), rounds=12)
    loop.journal.close()
    files = set_files(base)
    assert len(files) >= 3, files
    report = verify_set(files, KEY)
    assert report.first == 1 and report.files == len(files)
    for path in files[1:]:  # each begins with the rotation, then a snapshot
        with Journal(path, key=KEY, readonly=True) as journal:
            kinds = [e.kind for e in journal.entries()][:2]
        assert kinds == [ROTATED, KIND]
    with open_live(base, KEY) as live:
        rules = demo_config(game, base, port=0).rules
        fast = new_loop(game, live, events=queue.Queue(), rules=rules)
        fast.replay()
        full = new_loop(game, live, events=queue.Queue(), rules=rules)
        full.replay(SetReader(files, KEY), full=True)
        assert fast.restored_from is not None and full.restored_from is None
        assert fast.game.view() == loop.game.view() == full.game.view()
        assert fast.loop_state() == full.loop_state()


def test_the_trading_day_begins_at_day_starts(tmp_path: Path) -> None:
    utc = datetime.UTC
    rotation = Rotation(_keeping(tmp_path, day_starts=(6, 0)), KEY)
    night = datetime.datetime(2026, 12, 2, 3, 0, tzinfo=utc).astimezone()
    shift = night.utcoffset() or datetime.timedelta()
    local = datetime.datetime(2026, 12, 2, 3, 0) + shift  # 03:00 local, as the Pi's clock
    assert rotation.trading_day(local) == datetime.date(2026, 12, 1)
    assert rotation.trading_day(local.replace(hour=7)) == datetime.date(2026, 12, 2)


def test_a_new_trading_day_rotates_at_the_next_round_end(tmp_path: Path) -> None:
    base = tmp_path / "journal.sqlite"
    today = [datetime.datetime.now().astimezone()]
    keeping = _keeping(tmp_path, rotate_daily=True, rotate_bytes=0)
    played = play("blackjack", tmp_path / "play.sqlite", rounds=4, seed=5)
    loop = new_loop("blackjack", Journal(base, key=KEY), events=queue.Queue())
    loop.after_round = Rotation(keeping, KEY, now=lambda: today[0])
    half = len(played.events) // 2
    for event in played.events[:half]:
        loop.step(event)
    assert set_files(base) == [base]  # the same day: no rotation
    today[0] += datetime.timedelta(days=1)
    for event in played.events[half:]:
        loop.step(event)
    loop.journal.close()
    files = set_files(base)
    assert len(files) == 2
    with Journal(files[1], key=KEY, readonly=True) as journal:
        first = next(journal.entries())
    assert first.kind == ROTATED and first.payload["reason"].startswith("trading day")


def test_gli24_the_last_ten_rounds_stay_at_the_table_and_archives_verify(
    tmp_path: Path,
) -> None:
    base = tmp_path / "journal.sqlite"
    keeping = _keeping(tmp_path)
    loop = _rotating("poker", base, keeping, rounds=20)
    before = set_files(base)
    archives = archive_sealed(base, KEY, keeping)
    after = set_files(base)
    assert archives and len(after) < len(before)  # some left the table...
    rounds: set[int] = set()
    for path in after[1:]:
        with Journal(path, key=KEY, readonly=True, check=False) as journal:
            rounds |= set(journal.rounds())
    with Journal(after[0], key=KEY, readonly=True, check=False) as first:
        oldest = set(first.rounds())
    assert len(rounds) < keeping.keep_rounds + 1 <= len(rounds | oldest)  # ...not one too many
    for path in before:
        if path not in after:
            assert any(a.name.startswith(path.name if path != base else base.name)
                       for a in archives)  # fmt: skip
    assert verify_set(archives[: len(before) - len(after)] + after, KEY).first == 1
    _key_beside(base)
    out = io.StringIO()
    args = Namespace(journal_command="verify", path=base, key_file=None, head=None,
                     archive=keeping.archive_dir)  # fmt: skip
    assert journal_cli.run(args, out=out) == 0, out.getvalue()
    assert out.getvalue().startswith("ok: ") and "chained across them" in out.getvalue()
    assert f"head {loop.journal.head}" in out.getvalue()
    loop.journal.close()


def test_a_sealed_file_that_does_not_verify_is_neither_archived_nor_deleted(
    tmp_path: Path,
) -> None:
    base = tmp_path / "journal.sqlite"
    keeping = _keeping(tmp_path)
    _rotating("poker", base, keeping, rounds=20).journal.close()
    files = set_files(base)
    db = sqlite3.connect(files[0])
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET actor = 'someone' WHERE seq = 3")
    db.commit()
    db.close()
    with pytest.raises(JournalCorrupt) as caught:
        archive_sealed(base, KEY, keeping)
    assert caught.value.seq == 3
    assert set_files(base) == files
    broken: list[JournalCorrupt] = []  # the running table's archiver: the table stops
    archiver = Archiver(base, KEY, keeping, broken.append).start()
    try:
        assert archiver.wait_passes(1, 60)
    finally:
        archiver.close()
    assert [b.seq for b in broken] == [3] and set_files(base) == files
    assert not list(keeping.archive_dir.glob("*")) if keeping.archive_dir else False


def _cli(action: str, path: Path, **extra: Any) -> tuple[int, str]:
    out = io.StringIO()
    args = Namespace(journal_command=action, path=path, round=None, format="jsonl", n=10,
                     key_file=None, head=None, archive=None, **extra)  # fmt: skip
    return journal_cli.run(args, out=out), out.getvalue()


def test_export_last_and_replay_read_across_files(tmp_path: Path) -> None:
    base = tmp_path / "journal.sqlite"
    loop = _rotating("poker", base, _keeping(tmp_path), rounds=16)
    # a TableStarted row, as a running table writes at every start
    loop.journal.append("TableStarted", {"table_id": "t", "game": "poker",
                        "rules": _rules("poker"),
                        "simulated": True, "replayed_events": 0}, source="controller")  # fmt: skip
    view = loop.game.view()
    loop.journal.close()
    _key_beside(base)
    assert len(set_files(base)) >= 2
    code, text = _cli("export", base)
    seqs = [json.loads(line)["seq"] for line in text.splitlines()]
    assert code == 0 and seqs == list(range(1, len(seqs) + 1))
    code, text = _cli("last", base)
    assert code == 0 and text.count("round ") == 10
    code, text = _cli("replay", base, json=True)
    state = json.loads(text)
    assert code == 0 and state["view"] == view and state["restored_from_snapshot"] is not None


def _rules(game: str) -> dict[str, Any]:
    rules: dict[str, Any] = to_jsonable(demo_config(game, Path("x.sqlite"), port=0).rules)
    rules.pop("type")
    return rules


def test_verify_names_the_file_and_row_of_a_break_across_files(tmp_path: Path) -> None:
    base = tmp_path / "journal.sqlite"
    _rotating("poker", base, _keeping(tmp_path), rounds=6).journal.close()
    _key_beside(base)
    files = set_files(base)
    assert len(files) >= 3
    code, text = _cli("verify", base)
    assert code == 0 and f"in {len(files)} files" in text
    middle = files[1]
    with Journal(middle, key=KEY, readonly=True) as journal:
        seq = journal.origin().seq + 3
    db = sqlite3.connect(middle)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET wall = '2026-01-01T00:00:00+00:00' WHERE seq = ?", (seq,))
    db.commit()
    db.close()
    code, text = _cli("verify", base)
    assert code == 1
    assert text.startswith(f"BROKEN: journal row {seq}: in {middle.name}: content changed")
    middle.rename(middle.with_name("moved.sqlite"))  # a whole file taken out of the set
    code, text = _cli("verify", base)
    assert code == 1 and f"in {files[2].name}: does not follow {files[0].name}" in text


def test_reopen_sets_the_whole_set_aside_and_it_still_verifies(tmp_path: Path) -> None:
    from controller.app.cli.journal_reopen import reopen

    base = tmp_path / "journal.sqlite"
    _rotating("poker", base, _keeping(tmp_path), rounds=4).journal.close()
    _key_beside(base)
    files = set_files(base)
    assert len(files) >= 2
    stamp = datetime.datetime(2026, 12, 1, 4, 0, tzinfo=datetime.UTC)
    aside, record = reopen(demo_config("poker", base, port=0), "s01", "key rotation", now=stamp)
    assert set_files(base) == [base]  # a new journal, one file
    moved = set_files(aside)
    assert [p.name.removeprefix(aside.name) for p in moved] == [
        p.name.removeprefix(base.name) for p in files
    ]
    assert (
        record.refused.startswith("nothing") and record.old_rows == verify_set(moved, KEY).head.seq
    )
    code, text = _cli("verify", aside)
    assert code == 0 and f"in {len(files)} files" in text
