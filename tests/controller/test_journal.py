"""The journal: durable, append-only, in a keyed hash chain; the check names the bad row,
checks at open only what its checkpoint does not vouch for, and sees rows cut off the end.
Its edges too: the row a broken chain is named by, `append` itself, read-only opening, a
path in folders that do not exist yet."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import os
import sqlite3
from pathlib import Path

import pytest

from controller.cards import Card
from controller.journal.store import (
    FORMAT,
    GENESIS,
    MIN_KEY_BYTES,
    Head,
    Journal,
    JournalCorrupt,
    JournalError,
    checkpoint_path,
    plain_row_hash,
    row_hash,
)
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal(tmp_path / "table.sqlite", key=KEY)
    for i, card in enumerate(["As", "Kd", "7c", "7h", "2s"], start=1):
        j.record(CardDrawn(source="shoe", card=Card.parse(card), seq=i), source="shoe", round=1)
    j.record(
        ButtonPressed(source="console", button=ConsoleButton.NEXT),
        source="console",
        round=1,
        actor="dealer 17",
    )
    return j


def tamper(path: Path, *statements: str) -> None:
    """What someone with the file and sqlite3 could do: drop the guards and edit rows."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("DROP TRIGGER journal_no_delete")
    for statement in statements:
        db.execute(statement)
    db.close()


def test_rows_are_chained_and_read_back(journal: Journal) -> None:
    rows = list(journal.entries())
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(rows))
    assert rows[0].kind == "CardDrawn" and rows[0].payload["card"] == "As"
    assert rows[5].actor == "dealer 17" and rows[5].payload["button"] == "next"
    assert journal.verify() == 6


def test_the_journal_is_durable_and_settings_are_wal_full(journal: Journal) -> None:
    db = sqlite3.connect(journal.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened = Journal(journal.path, key=KEY)
    assert reopened.last_seq == 6 and reopened.last_hash == journal.last_hash
    entry = reopened.record(
        ButtonPressed(source="console", button=ConsoleButton.NEXT), source="console"
    )
    assert entry.seq == 7 and entry.prev_hash == journal.last_hash


def test_rows_cannot_be_updated_or_deleted_through_sqlite(journal: Journal) -> None:
    db = sqlite3.connect(journal.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE journal SET payload = '{}' WHERE seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM journal WHERE seq = 2")


def test_a_changed_row_is_named(journal: Journal) -> None:
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 3""")
    with pytest.raises(JournalCorrupt, match="row 3: content changed") as caught:
        Journal(journal.path, key=KEY).verify()
    assert caught.value.seq == 3


def test_a_deleted_row_is_named(journal: Journal) -> None:
    tamper(journal.path, "DELETE FROM journal WHERE seq = 4")
    with pytest.raises(JournalCorrupt, match="row 5") as caught:
        Journal(journal.path, key=KEY).verify()
    assert caught.value.seq == 5


def test_deleting_the_newest_row_is_not_visible_to_the_chain_alone(journal: Journal) -> None:
    """Deleting the newest row leaves a valid shorter chain; a checkpoint or a head seen
    elsewhere (the pit, `journal verify --head`) is what catches that."""
    head = journal.head
    tamper(journal.path, "DELETE FROM journal WHERE seq = 6")
    assert Journal(journal.path, key=KEY).verify() == 5
    with pytest.raises(JournalCorrupt, match="row 6: missing: the journal ends at row 5"):
        Journal(journal.path, key=KEY, readonly=True, check=False).verify(head=head)
    with pytest.raises(JournalCorrupt, match="row 6: missing"):
        Journal(journal.path, key=KEY, readonly=True, head=head)


def test_a_swapped_pair_of_rows_is_named(journal: Journal) -> None:
    tamper(
        journal.path,
        "UPDATE journal SET seq = -2 WHERE seq = 2",
        "UPDATE journal SET seq = 2 WHERE seq = 3",
        "UPDATE journal SET seq = 3 WHERE seq = -2",
    )
    with pytest.raises(JournalCorrupt, match="row 2") as caught:
        Journal(journal.path, key=KEY).verify()
    assert caught.value.seq == 2


def test_a_missing_journal_is_an_error_when_reading(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "nope.sqlite", key=KEY, readonly=True)


def test_entries_by_round(journal: Journal) -> None:
    journal.record(
        ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS),
        source="console",
        round=2,
    )
    assert journal.rounds() == [1, 2]
    assert [e.seq for e in journal.entries(round=2)] == [7]


def test_events_read_back_equal_the_events_written(tmp_path: Path) -> None:
    from controller.journal.store import decode_event
    from controller.ports import (
        ConsoleAction,
        DeviceFault,
        Fault,
        SpotOccupied,
        SupervisorAction,
    )

    written = [
        CardDrawn(source="shoe", card=Card.parse("Td"), seq=65535, device_ms=12),
        ButtonPressed(source="table", button=ConsoleButton.SUPERVISOR, held=True),
        SpotOccupied(source="table", spot="box3.p2"),
        DeviceFault(source="shoe", fault=Fault.BAD_CARD, detail="Zz", seq=4),
        ConsoleAction(source="console", action="raise_", args={"seat": 4, "amount": 10}),
        SupervisorAction(source="console", who="sup 3", decision="void_hand", reason="misdeal"),
    ]
    with Journal(tmp_path / "j.sqlite", key=KEY) as journal:
        for event in written:
            journal.record(event, source=event.source)
        assert [decode_event(e) for e in journal.entries()] == written


# --- the key --------------------------------------------------------------------------


def test_the_hash_is_hmac_sha256_under_the_key(journal: Journal) -> None:
    first = next(journal.entries())
    fields = [first.seq, first.wall, first.mono, first.round, first.source, first.kind,
              first.payload, first.actor]  # fmt: skip
    message = (GENESIS + json.dumps(fields, sort_keys=True, separators=(",", ":"))).encode()
    assert first.hash == hmac.new(KEY, message, hashlib.sha256).hexdigest()
    assert first.hash == row_hash(KEY, GENESIS, fields)


def test_another_key_finds_the_first_row_forged(journal: Journal) -> None:
    with pytest.raises(JournalCorrupt, match="row 1: content changed") as caught:
        Journal(journal.path, key=OTHER_KEY, readonly=True)
    assert caught.value.seq == 1


def _forge(path: Path, seq: int, digest: object) -> None:
    """Change row ``seq`` and recompute it and every row after it with ``digest``
    (plain SHA-256, or HMAC under a wrong key): a consistent chain, made without the key."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    rows = db.execute(
        "SELECT seq, wall, mono, round, source, kind, payload, actor, prev_hash FROM journal "
        "WHERE seq >= ? ORDER BY seq",
        (seq,),
    ).fetchall()
    prev = rows[0][8]
    for number, wall, mono, round_, source, kind, payload, actor, _ in rows:
        data = json.loads(payload)
        if number == seq:
            data["card"] = "Ah"
        fields = [number, wall, mono, round_, source, kind, data, actor]
        new = digest(prev, fields)  # type: ignore[operator]
        db.execute(
            "UPDATE journal SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
            (json.dumps(data, sort_keys=True, separators=(",", ":")), prev, new, number),
        )
        prev = new
    db.close()


@pytest.mark.parametrize(
    "digest",
    [plain_row_hash, lambda prev, fields: row_hash(OTHER_KEY, prev, fields)],
    ids=["plain-sha256", "wrong-key"],
)
def test_a_row_forged_without_the_key_is_named(journal: Journal, digest: object) -> None:
    _forge(journal.path, 3, digest)
    with pytest.raises(JournalCorrupt, match="row 3: content changed") as caught:
        Journal(journal.path, key=KEY)
    assert caught.value.seq == 3


def test_a_journal_from_before_the_key_is_refused(journal: Journal) -> None:
    db = sqlite3.connect(journal.path, isolation_level=None)
    db.execute("PRAGMA user_version = 0")
    db.close()
    with pytest.raises(JournalCorrupt, match="row 1: the journal's chain is not keyed"):
        Journal(journal.path, key=KEY)


def test_a_short_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="16"):
        Journal(tmp_path / "j.sqlite", key=b"short")


# --- the checkpoint ---------------------------------------------------------------------


def _grow(journal: Journal, n: int) -> None:
    for i in range(n):
        journal.record(ButtonPressed(source="console", button=ConsoleButton.NEXT),
                       source="console", round=i)  # fmt: skip


def test_open_checks_only_the_rows_after_the_checkpoint(journal: Journal) -> None:
    assert not checkpoint_path(journal.path).exists()
    reopened = Journal(journal.path, key=KEY)  # no checkpoint: a full check, then one
    assert reopened.checked_from == 0
    assert json.loads(checkpoint_path(journal.path).read_text())["seq"] == 6
    _grow(reopened, 4)
    again = Journal(journal.path, key=KEY)
    assert again.checked_from == 5  # the checkpoint's own row (6) and rows 7 to 10
    assert again.check() == 1  # its checkpoint moved to row 10 when it opened
    reopened.checkpoint()
    assert json.loads(checkpoint_path(journal.path).read_text())["seq"] == 10


def test_a_row_changed_after_the_checkpoint_is_refused_at_open(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()  # checkpoint at row 6
    _grow(journal, 3)
    tamper(journal.path, "UPDATE journal SET round = 99 WHERE seq = 8")
    with pytest.raises(JournalCorrupt, match="row 8: content changed"):
        Journal(journal.path, key=KEY)


def test_an_older_row_is_seen_by_the_full_check_not_by_the_open(journal: Journal) -> None:
    """What the checkpoint vouches for is not read again at open; the table checks it in
    the background after starting (`BackgroundCheck`), and `verify` always does."""
    Journal(journal.path, key=KEY).close()
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 2""")
    opened = Journal(journal.path, key=KEY, readonly=True)
    with pytest.raises(JournalCorrupt, match="row 2: content changed"):
        opened.verify(upto=(opened.checked_from or 0) + 1)


def test_rows_cut_off_before_the_checkpoint_are_refused(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()  # checkpoint at row 6
    tamper(journal.path, "DELETE FROM journal WHERE seq >= 5")
    with pytest.raises(JournalCorrupt, match="row 5: missing: the journal ends at row 4 "
                       "but the checkpoint is at row 6"):  # fmt: skip
        Journal(journal.path, key=KEY)


def test_a_rewritten_end_is_refused(journal: Journal) -> None:
    """Rows cut off and new ones written in their place (with the key: the controller
    itself, run on a copy) leave a valid chain that the checkpoint does not know."""
    Journal(journal.path, key=KEY).close()  # checkpoint at row 6
    saved = checkpoint_path(journal.path).read_text()
    tamper(journal.path, "DELETE FROM journal WHERE seq = 6")
    checkpoint_path(journal.path).unlink()
    rewritten = Journal(journal.path, key=KEY)
    _grow(rewritten, 1)
    rewritten.close()
    checkpoint_path(journal.path).write_text(saved)
    with pytest.raises(JournalCorrupt, match="row 6: its hash is not the one the checkpoint"):
        Journal(journal.path, key=KEY)


def test_a_forged_checkpoint_is_refused(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()
    body = json.loads(checkpoint_path(journal.path).read_text())
    body["seq"], body["hash"] = 1, next(journal.entries()).hash  # skip the check of 2..6
    body["mac"] = hashlib.sha256(json.dumps(body).encode()).hexdigest()
    checkpoint_path(journal.path).write_text(json.dumps(body))
    with pytest.raises(JournalCorrupt, match=r"row 1: the checkpoint .* \(forged"):
        Journal(journal.path, key=KEY)


def test_a_missing_or_torn_checkpoint_means_a_full_check(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 2""")
    for damage in ("", "{not json"):
        checkpoint_path(journal.path).write_text(damage)
        with pytest.raises(JournalCorrupt, match="row 2: content changed"):
            Journal(journal.path, key=KEY)
    os.unlink(checkpoint_path(journal.path))
    with pytest.raises(JournalCorrupt, match="row 2: content changed"):
        Journal(journal.path, key=KEY)


def test_a_row_marked_broken_is_refused_at_every_open(journal: Journal) -> None:
    journal.mark_broken(3, "content changed since it was written")
    journal.checkpoint()  # nothing is vouched for after that
    with pytest.raises(JournalCorrupt, match=r"row 3: content changed .* after an earlier"):
        Journal(journal.path, key=KEY)
    with pytest.raises(JournalCorrupt, match="row 3"):
        Journal(journal.path, key=KEY, readonly=True, check=False).verify()


def _files(folder: Path) -> dict[str, bytes]:
    """The journal's files byte for byte (not the -shm, SQLite's shared-memory index,
    which every reader writes its read marks to)."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.endswith("-shm")}


def test_a_refused_journal_is_left_untouched(journal: Journal) -> None:
    """Not even its dropped guards are put back: the evidence stays as it was found."""
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 2""")
    before = _files(journal.path.parent)
    with pytest.raises(JournalCorrupt):
        Journal(journal.path, key=KEY)
    assert _files(journal.path.parent) == before


def test_head_parse() -> None:
    head = Head.parse("12:" + "Ab" * 32)
    assert head == Head(12, "ab" * 32) and str(head) == "12:" + "ab" * 32
    for bad in ("12", "x:" + "a" * 64, "-1:" + "a" * 64, "3:abc"):
        with pytest.raises(ValueError, match="SEQ:HASH"):
            Head.parse(bad)


def test_the_head_given_must_match(journal: Journal) -> None:
    with pytest.raises(JournalCorrupt, match="row 4: its hash is not the one the head given"):
        journal.verify(head=Head(4, "0" * 64))
    assert journal.verify(head=Head(4, journal.row_hash_at(4) or "")) == 6


def clock() -> tuple[object, object]:
    ticks = iter(range(1, 10_000))
    return (lambda: "2026-12-01T00:00:00.000000+00:00"), (lambda: float(next(ticks)))


def filled(path: Path, rows: int = 4) -> Journal:
    wall, mono = clock()
    j = Journal(path, key=KEY, wall=wall, mono=mono)  # type: ignore[arg-type]
    for i in range(1, rows + 1):
        j.append("Note", {"n": i}, source="test", round=1 + i // 3, actor="dealer 7")
    return j


def test_journal_append_writes_one_chained_row_and_returns_it(tmp_path: Path) -> None:
    wall, mono = clock()
    j = Journal(tmp_path / "t.sqlite", key=KEY, wall=wall, mono=mono)  # type: ignore[arg-type]
    entry = j.append("Note", {"text": "é", "n": 1}, source="console", round=4, actor="sup 3")
    assert (entry.seq, entry.round, entry.source, entry.kind, entry.actor) == (
        1,
        4,
        "console",
        "Note",
        "sup 3",
    )
    assert entry.payload == {"text": "é", "n": 1} and entry.prev_hash == GENESIS
    assert entry.wall == "2026-12-01T00:00:00.000000+00:00" and entry.mono == 1.0
    assert entry.hash == row_hash(
        KEY, GENESIS, [1, entry.wall, 1.0, 4, "console", "Note", {"text": "é", "n": 1}, "sup 3"]
    )
    assert j.head == Head(1, entry.hash) and j.last_seq == 1
    second = j.append("Note", {}, source="console")
    assert second.seq == 2 and second.prev_hash == entry.hash and second.round is None
    assert list(j.entries()) == [entry, second]
    assert [e.seq for e in j.entries(since=1)] == [2]
    assert [e.seq for e in j.entries(round=4)] == [1]
    assert j.rounds() == [4]
    j.close()
    with Journal(tmp_path / "t.sqlite", key=KEY) as again:
        assert again.verify() == 2 and again.head == Head(2, second.hash)


def test_journal_append_many_of_nothing_changes_nothing(tmp_path: Path) -> None:
    with filled(tmp_path / "t.sqlite") as j:
        head = j.head
        assert j.append_many([]) == []
        assert j.head == head


def test_journal_a_path_in_folders_that_do_not_exist_is_made(tmp_path: Path) -> None:
    path = tmp_path / "var" / "lib" / "tablectl" / "t.sqlite"
    with Journal(path, key=KEY) as j:
        j.append("Note", {}, source="test")
    assert path.exists()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == FORMAT == 2  # keyed chain
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_journal_read_only_opening_reads_and_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    with Journal(path, key=KEY, readonly=True) as j:
        assert j.readonly and j.last_seq == 4
        assert [e.payload["n"] for e in j.entries()] == [1, 2, 3, 4]
        with pytest.raises(JournalError, match="open read-only"):
            j.append("Note", {}, source="test")
        with pytest.raises(JournalError, match="open read-only"):
            j.append_many([("Note", {}, "test", None, None)])
        j.checkpoint()  # nothing: read-only
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "absent.sqlite", key=KEY, readonly=True)
    assert not (tmp_path / "absent.sqlite").exists()


def test_journal_read_only_opening_of_a_broken_journal_names_the_row(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "UPDATE journal SET payload = '{\"n\":9}' WHERE seq = 3")
    Path(str(path) + ".checkpoint").unlink(missing_ok=True)
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY, readonly=True)
    assert broken.value.seq == 3 and "content changed" in broken.value.reason


def test_journal_verify_names_the_row_whose_payload_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "UPDATE journal SET payload = 'not json' WHERE seq = 2")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 2
    assert broken.value.reason == "a column holds what was never written there"


def test_journal_verify_names_a_missing_row_by_the_row_that_follows_the_gap(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "DELETE FROM journal WHERE seq = 2")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 3
    assert broken.value.reason == "follows row 1: rows missing or moved"


def test_journal_verify_names_a_row_that_does_not_follow(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, f"UPDATE journal SET prev_hash = '{'1' * 64}' WHERE seq = 3")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 3 and "does not follow the row before it" in broken.value.reason


def test_journal_verify_upto_checks_only_that_far(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "UPDATE journal SET payload = '{\"n\":9}' WHERE seq = 4")
    with Journal(path, key=KEY, check=False) as j:
        assert j.verify(upto=3) == 3
        with pytest.raises(JournalCorrupt) as broken:
            j.verify()
        assert broken.value.seq == 4


def test_journal_verify_paces_every_pace_rows(tmp_path: Path) -> None:
    calls: list[int] = []
    with filled(tmp_path / "t.sqlite", rows=7) as j:
        assert j.verify(pace=lambda: calls.append(1), pace_rows=3) == 7
    assert len(calls) == 2


def test_journal_cut_off_rows_are_named_by_the_first_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    j = filled(path)
    head = j.head
    j.close()
    tamper(path, "DELETE FROM journal WHERE seq = 4")
    Path(str(path) + ".checkpoint").unlink(missing_ok=True)
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY, head=head)
    assert broken.value.seq == 4
    assert broken.value.reason == (
        "missing: the journal ends at row 3 but the head given is at row 4 (rows cut off the end)"
    )


def test_journal_a_head_with_another_hash_is_a_rewritten_journal(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY, head=Head(2, "0" * 64))
    assert broken.value.seq == 2 and "the head given holds" in broken.value.reason
    with Journal(path, key=KEY, head=Head(0, "0" * 64)) as j:  # row 0: nothing to reach
        assert j.last_seq == 4


def test_journal_key_shorter_than_the_minimum_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=f"must be {MIN_KEY_BYTES}\\+ bytes"):
        Journal(tmp_path / "t.sqlite", key=bytes(MIN_KEY_BYTES - 1))
    with pytest.raises(JournalError, match="bytes"):
        Journal(tmp_path / "t.sqlite", key="x" * 32)  # type: ignore[arg-type]
    Journal(tmp_path / "t.sqlite", key=bytes(MIN_KEY_BYTES)).close()


def test_journal_check_at_open_counts_only_rows_after_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()  # written from empty: no checkpoint yet
    with Journal(path, key=KEY) as j:
        assert j.checked_from == 0  # no checkpoint: the full check
        j.append("Note", {}, source="test")
        j.checkpoint()
    with Journal(path, key=KEY) as j:
        assert j.checked_from == 4  # from the checkpoint (row 5), its own row included
        assert j.check() == 1


def test_journal_rows_canonical_json_is_sorted_compact_and_keeps_unicode() -> None:
    """The row hash is over this text (docs/security.md): a verifier written elsewhere must
    produce the same bytes, so its form is pinned, not only its round trip."""
    from controller.journal.rows import canonical

    assert canonical({"b": 1, "a": ["é", None, 1.5]}) == '{"a":["é",null,1.5],"b":1}'


def test_journal_rows_hashes_against_independent_vectors() -> None:
    import hashlib
    import hmac

    from controller.journal.rows import Checkpoint, plain_row_hash

    fields = [1, "w", 1.0, None, "shoe", "CardDrawn", {"card": "Aé"}, None]
    text = '[1,"w",1.0,null,"shoe","CardDrawn",{"card":"Aé"},null]'
    assert (
        row_hash(KEY, GENESIS, fields)
        == hmac.new(KEY, (GENESIS + text).encode(), hashlib.sha256).hexdigest()
    )
    assert plain_row_hash(GENESIS, fields) == hashlib.sha256((GENESIS + text).encode()).hexdigest()
    assert Checkpoint(4, "ab", 3, "broken").message() == (
        b'tablectl journal checkpoint\x00[4,"ab",3,"broken"]'
    )


def test_journal_rows_checkpoint_sits_beside_the_journal() -> None:
    from controller.journal.rows import checkpoint_path

    assert checkpoint_path(Path("/var/t/table.sqlite")) == Path("/var/t/table.sqlite.checkpoint")


def test_journal_rows_head_parse_accepts_row_0_and_refuses_the_rest() -> None:
    assert Head.parse(f"0:{GENESIS}") == Head(0, GENESIS)
    assert Head.parse(f"12:{'AB' * 32}\n") == Head(12, "ab" * 32)
    assert str(Head(3, "cd" * 32)) == f"3:{'cd' * 32}"
    for bad in (f"-1:{GENESIS}", f"x:{GENESIS}", "3:abc", f"3:{'g' * 64}"):
        with pytest.raises(ValueError, match="expected SEQ:HASH"):
            Head.parse(bad)


def test_journal_rows_to_jsonable_and_back_for_events() -> None:
    from controller.cards import Card
    from controller.game.jsonable import to_jsonable
    from controller.journal.rows import (
        EVENT_TYPES,
        Entry,
        as_row,
        decode_event,
    )
    from controller.ports import (
        ButtonPressed,
        CardDrawn,
        ConsoleButton,
        DeviceFault,
        DeviceLost,
        Fault,
    )

    assert to_jsonable([Card.parse("As"), (1, {"k": ConsoleButton.NEXT})]) == [
        "As",
        [1, {"k": ConsoleButton.NEXT.value}],
    ]
    assert to_jsonable(frozenset({2})) == [2]
    assert {"CardDrawn", "ButtonPressed", "DeviceLost", "DeviceFault"} <= set(EVENT_TYPES)
    assert EVENT_TYPES["DeviceLost"] is DeviceLost
    for event in (
        CardDrawn(source="shoe", card=Card.parse("Kd"), seq=3),
        ButtonPressed(source="console", button=ConsoleButton.NEXT),
        DeviceLost(source="rfid", reason="cable", resends=False),
        DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="0A"),
    ):
        kind, payload, source, _, _ = as_row(event, source=event.source)
        entry = Entry(7, "w", 0.0, None, source, kind, payload, None, GENESIS, GENESIS)
        decoded = decode_event(entry)
        assert decoded == event
        for name in ("card", "button", "fault"):  # parsed back to their types, not text
            if hasattr(event, name):
                assert type(getattr(decoded, name)) is type(getattr(event, name))
        assert entry.as_dict()["payload"] == payload and entry.as_dict()["seq"] == 7
    note = Entry(8, "w", 0.0, None, "controller", "Payout", {}, None, GENESIS, GENESIS)
    assert decode_event(note) is None
    broken = Entry(9, "w", 0.0, None, "shoe", "CardDrawn", {"card": "Zz"}, None, "", "")
    with pytest.raises(JournalError, match=r"^journal row 9: its payload is not a CardDrawn: "):
        decode_event(broken)


def test_journal_wall_clock_is_utc_with_microseconds(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.sqlite", key=KEY) as j:
        wall = j.append("Note", {}, source="test").wall
    assert wall.endswith("+00:00") and len(wall) == len("2026-12-01T00:00:00.000000+00:00")


def test_journal_opened_unchecked_has_no_check_start(tmp_path: Path) -> None:
    filled(tmp_path / "t.sqlite").close()
    with Journal(tmp_path / "t.sqlite", key=KEY, check=False) as j:
        assert j.checked_from is None


def test_journal_a_path_that_cannot_be_a_database_is_a_journal_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=r"^cannot open the journal "):
        Journal(tmp_path, key=KEY)  # a folder


def test_journal_append_many_chains_rows_within_one_transaction(tmp_path: Path) -> None:
    with Journal(tmp_path / "t.sqlite", key=KEY) as j:
        rows = j.append_many([("Note", {"n": n}, "test", None, None) for n in range(3)])
        assert [r.prev_hash for r in rows[1:]] == [r.hash for r in rows[:-1]]
        assert j.verify() == 3


def test_journal_errors_after_close_name_what_failed(tmp_path: Path) -> None:
    j = filled(tmp_path / "t.sqlite")
    j.close()
    with pytest.raises(JournalError, match=r"^cannot write to the journal .*t.sqlite: "):
        j.append("Note", {}, source="test")
    with pytest.raises(JournalError, match=r"^the journal .*t.sqlite cannot be read: "):
        list(j.entries())
    with pytest.raises(JournalError, match=r"^the journal .*t.sqlite is damaged: "):
        j.row_hash_at(1)
    with pytest.raises(JournalError, match=r"^the journal .*t.sqlite is damaged: "):
        j.verify()


def test_journal_a_duplicate_seq_is_a_write_error(tmp_path: Path) -> None:
    with filled(tmp_path / "t.sqlite") as j:
        j.last_seq = 3  # as if another writer had the file: row 4 exists
        with pytest.raises(JournalError, match=r"^cannot write to the journal .*UNIQUE"):
            j.append("Note", {}, source="test")


def test_journal_row_hash_at(tmp_path: Path) -> None:
    with filled(tmp_path / "t.sqlite") as j:
        assert j.row_hash_at(4) == j.last_hash
        assert j.row_hash_at(99) is None


def test_journal_check_at_open_a_first_row_must_follow_genesis(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, f"UPDATE journal SET prev_hash = '{'1' * 64}' WHERE seq = 1")
    Path(str(path) + ".checkpoint").unlink(missing_ok=True)
    for check in (True, False):
        with pytest.raises(JournalCorrupt) as broken:
            j = Journal(path, key=KEY, check=check)
            j.verify()
        assert broken.value.seq == 1
        assert broken.value.reason == (
            "does not follow the row before it (deleted, inserted or swapped rows)"
        )


def test_journal_the_right_head_opens(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    j = filled(path)
    head = j.head
    j.close()
    with Journal(path, key=KEY, head=head) as again:
        assert again.head == head


def test_journal_a_checkpoint_at_row_0_means_a_full_check(tmp_path: Path) -> None:
    from controller.journal.rows import Checkpoint

    path = tmp_path / "t.sqlite"
    with filled(path) as j:
        j._write_checkpoint(Checkpoint(0, GENESIS))  # written while the journal was empty
    with Journal(path, key=KEY) as again:
        assert again.checked_from == 0 and again.last_seq == 4


def test_journal_a_row_found_broken_is_remembered_by_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with filled(path) as j:
        j.mark_broken(2, "content changed")
        j.append("Note", {}, source="test")
        j.checkpoint()  # must not vouch for the rows again
        with pytest.raises(JournalCorrupt) as verified:
            j.verify()
        assert (verified.value.seq, verified.value.reason) == (2, "content changed")
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY)
    assert broken.value.seq == 2
    assert broken.value.reason == (
        "content changed (found by the full check after an earlier start)"
    )
    with Journal(path, key=KEY, check=False) as j:
        j.mark_broken(3, "")
        with pytest.raises(JournalCorrupt) as unnamed:
            j.verify()
        assert (unnamed.value.seq, unnamed.value.reason) == (3, "broken")


def test_journal_an_empty_journal_marked_broken_refuses_to_open(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with Journal(path, key=KEY) as j:
        j.mark_broken(1, "gone")
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY)
    assert broken.value.seq == 1


def test_journal_verify_names_rows_cut_below_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    Journal(path, key=KEY).close()  # the check at open writes the checkpoint at row 4
    tamper(path, "DELETE FROM journal WHERE seq = 4")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 4
    assert broken.value.reason == (
        "missing: the journal ends at row 3 but the checkpoint is at row 4 (rows cut off the end)"
    )


def test_journal_rows_cut_while_open_are_missing_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with filled(path) as j:
        tamper(path, "DELETE FROM journal WHERE seq = 4")
        with pytest.raises(JournalCorrupt) as broken:
            j.verify(upto=10)
        assert broken.value.seq == 4
        assert broken.value.reason == "missing (the rows do not reach the journal's end)"


def test_journal_verify_paces_every_1000_rows_by_default(tmp_path: Path) -> None:
    calls: list[int] = []
    with Journal(tmp_path / "t.sqlite", key=KEY) as j:
        j.append_many([("Note", {}, "test", None, None)] * 1000)
        j.verify(pace=lambda: calls.append(1))
    assert calls == [1]


def test_journal_a_forged_checkpoint_is_named(tmp_path: Path) -> None:
    import json

    path = tmp_path / "t.sqlite"
    filled(path).close()
    Journal(path, key=KEY).close()
    cp = Path(str(path) + ".checkpoint")
    body = json.loads(cp.read_text())
    body["mac"] = "0" * 64
    cp.write_text(json.dumps(body))
    with pytest.raises(JournalCorrupt) as forged:
        Journal(path, key=KEY)
    assert forged.value.seq == 4
    assert forged.value.reason == (
        "the checkpoint t.sqlite.checkpoint that vouches for it does not carry the journal "
        "key's MAC (forged, or made with another key)"
    )


def test_journal_checkpoint_files_that_cannot_be_read_or_written(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    Path(str(path) + ".checkpoint").mkdir()
    with pytest.raises(JournalError, match=r"^cannot read the checkpoint "):
        Journal(path, key=KEY)
    Path(str(path) + ".checkpoint").rmdir()
    Path(str(path) + ".checkpoint.tmp").mkdir()
    with pytest.raises(JournalError, match=r"^cannot write the checkpoint "):
        Journal(path, key=KEY)


def test_journal_checkpoint_is_not_rewritten_when_nothing_is_new(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    cp = Path(str(path) + ".checkpoint")
    with Journal(path, key=KEY) as j:
        before = cp.stat().st_ino
        j.checkpoint()
        assert cp.stat().st_ino == before
        j.append("Note", {}, source="test")
        j.checkpoint()
        assert cp.stat().st_ino != before
    before = cp.stat().st_ino
    with Journal(path, key=KEY) as j:  # the checkpoint read at open is the last row
        j.checkpoint()
        assert cp.stat().st_ino == before


def test_journal_rows_a_dataclass_never_seen_before_becomes_an_object() -> None:
    """A record type met for the first time takes the general path, then the cached one:
    both give the same object, with its class name under "type"."""
    import collections
    import dataclasses

    from controller.cards import Card
    from controller.game.jsonable import to_jsonable

    @dataclasses.dataclass(frozen=True)
    class FreshRecord:
        box: int
        card: Card
        notes: tuple[str, ...] = ()

    value = FreshRecord(3, Card.parse("As"), ("a", "b"))
    expected = {"type": "FreshRecord", "box": 3, "card": "As", "notes": ["a", "b"]}
    assert to_jsonable(value) == expected
    assert to_jsonable(value) == expected  # the second time, from the cache
    assert to_jsonable(FreshRecord) is FreshRecord  # a class is not a record
    ordered = collections.OrderedDict([(1, Card.parse("Kd"))])
    assert to_jsonable(ordered) == {"1": "Kd"}


def test_journal_is_used_from_another_thread_than_the_one_that_opened_it(tmp_path: Path) -> None:
    """The start-up replay opens it, the controller thread writes to it."""
    import threading

    path = tmp_path / "t.sqlite"
    errors: list[BaseException] = []
    with filled(path) as j, Journal(path, key=KEY, readonly=True) as ro:

        def work() -> None:
            try:
                j.append("Note", {}, source="test")
                assert len(list(ro.entries())) == 5
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
    assert errors == []


def test_journal_an_empty_unkeyed_journal_is_brought_to_the_keyed_format(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    Journal(path, key=KEY).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=0")
    with Journal(path, key=KEY, readonly=True):
        pass  # read-only: not written
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    with Journal(path, key=KEY) as j:
        j.append("Note", {}, source="test")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2


def test_journal_an_unkeyed_journal_with_rows_is_refused_with_why(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=0")
    with pytest.raises(JournalCorrupt) as old:
        Journal(path, key=KEY)
    assert old.value.seq == 1
    assert old.value.reason == (
        "the journal's chain is not keyed (written by an older tablectl, with plain SHA-256): "
        "it cannot be checked; open a new journal"
    )


def test_journal_key_of_16_bytes_is_the_least_accepted(tmp_path: Path) -> None:
    Journal(tmp_path / "a.sqlite", key=bytes(range(16))).close()
    with pytest.raises(JournalError, match=r"must be 16\+ bytes"):
        Journal(tmp_path / "b.sqlite", key=bytes(range(15)))
