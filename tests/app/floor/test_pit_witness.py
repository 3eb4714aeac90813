"""The pit's durable witness of every table's rows (`floor.witness`), row by row: what it
raises and what the figures count, whatever order rows and heads come in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.app.floor.imports import import_journal
from controller.app.floor.store import PitStore
from controller.app.floor.tables import Floor

TOPIC = "casino/dunedin/table/bj-01"
WALL = "2099-01-01T00:00:00+00:00"  # after any shift start


def row(floor: Floor, seq: int, digest: str, kind: str = "CardDrawn", **payload: Any) -> None:
    body = {"v": 1, "seq": seq, "hash": digest, "kind": kind, "wall": WALL, "payload": payload}
    floor.take(f"{TOPIC}/event", json.dumps(body).encode())


def settle(floor: Floor, seq: int, digest: str) -> None:
    row(floor, seq, digest, "RoundSettled", wagers_in=10, house_result=-5, void=False)


def head(floor: Floor, seq: int, digest: str) -> None:
    body = {"v": 1, "state": {"journal_seq": seq, "journal_hash": digest, "view": {}}}
    floor.take(f"{TOPIC}/state", json.dumps(body).encode())


def alarms(floor: Floor) -> list[str]:
    return [a["message"] for a in reversed(floor.alarms()) if a["kind"] == "JournalHead"]


def rounds(floor: Floor) -> int:
    return len(floor.store.rows(floor.shift_start, frozenset({"RoundSettled"})))


def h(seq: int, line: str = "a") -> str:
    return f"{line}{seq:063x}"


def test_a_rewrite_is_one_alarm_and_its_rounds_count_once() -> None:
    floor = Floor()
    for seq in range(1, 21):
        (settle if seq % 5 == 0 else row)(floor, seq, h(seq))
    assert rounds(floor) == 4 and alarms(floor) == []
    for seq in range(1, 31):  # rolled back to row 12, dealt again past the old head
        line = "a" if seq <= 12 else "b"
        (settle if seq % 5 == 0 else row)(floor, seq, h(seq, line))
    assert alarms(floor) == [
        f"journal forked at row 13: hash {h(13, 'b')[:12]}, where {h(13)[:12]} was seen "
        "before (the journal was rewritten)"
    ]
    assert rounds(floor) == 6  # rows 5..20 counted once (the first seen), 25 and 30 new
    settle(floor, 15, h(15, "b"))  # the rewritten row sent again after a cut: nothing new
    assert len(alarms(floor)) == 1 and rounds(floor) == 6
    settle(floor, 15, h(15))  # the original put back: another rewrite
    assert len(alarms(floor)) == 2 and rounds(floor) == 6


def test_a_head_before_its_row_is_checked_and_the_row_still_counts() -> None:
    floor = Floor()
    head(floor, 5, h(5))
    settle(floor, 5, h(5))  # the row the head named: counted
    assert rounds(floor) == 1 and alarms(floor) == []
    head(floor, 10, h(10, "b"))
    settle(floor, 10, h(10))  # the row disagrees with the head said first
    assert alarms(floor) == [
        f"journal forked at row 10: hash {h(10)[:12]}, where {h(10, 'b')[:12]} was seen "
        "before (the journal was rewritten)"
    ]
    assert rounds(floor) == 1


def test_a_head_that_went_back_is_raised_after_a_restart_of_the_view(tmp_path: Path) -> None:
    store = PitStore(tmp_path / "pit.sqlite")
    head(Floor(store=store), 40, h(40))
    store.close()
    store = PitStore(tmp_path / "pit.sqlite")
    floor = Floor(store=store)
    head(floor, 30, h(30))
    assert alarms(floor) == [
        "journal head went back from row 40 to row 30 (rows cut off the end, or a new journal "
        "opened)"
    ]
    store.close()


def test_a_supervisors_new_journal_is_an_alarm_and_counts_from_its_row_one() -> None:
    floor = Floor()
    for seq in range(1, 11):
        (settle if seq % 5 == 0 else row)(floor, seq, h(seq))
    row(floor, 1, h(1, "n"), "JournalReopened", staff_id="s01", reason="ticket 9")
    for seq in range(2, 11):
        (settle if seq % 5 == 0 else row)(floor, seq, h(seq, "n"))
    head(floor, 10, h(10, "n"))
    assert alarms(floor) == [
        "a new journal was opened by s01: ticket 9 (the pit had witnessed the old one to row 10)"
    ]
    assert rounds(floor) == 4  # the old journal's two and the new one's two


def test_an_impossible_seq_is_not_witnessed() -> None:
    floor = Floor()
    head(floor, 10**18, h(1))  # no row has it: not remembered, so no false alarm later
    head(floor, 7, h(7))
    assert alarms(floor) == []
    assert floor.store.witness.witnessed_head("dunedin", "bj-01") == (7, h(7))


def test_an_imported_journal_goes_through_the_witness(tmp_path: Path) -> None:
    store = PitStore(tmp_path / "pit.sqlite")
    floor = Floor(store=store)
    for seq in range(1, 11):
        (settle if seq % 5 == 0 else row)(floor, seq, h(seq))
    rewritten = [
        json.dumps({"seq": seq, "hash": h(seq, "b"), "kind": "RoundSettled", "wall": WALL,
                    "payload": {"wagers_in": 10, "house_result": -5}})
        for seq in (5, 10, 15)
    ]  # fmt: skip
    assert import_journal(store, "dunedin", "bj-01", rewritten) == 1  # row 15 only
    assert rounds(floor) == 3
    store.close()
