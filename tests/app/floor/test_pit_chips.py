"""The pit and the chips: per-table and per-dealer counts of payout mismatches
by kind with their amounts, each mismatch counted once however often its spot was read
wrong, and a possible counterfeit chip in the alarm log."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from controller.app.floor.alarms import AlarmLog
from controller.app.floor.figures import figures_csv, shift_figures
from controller.app.floor.store import KEPT_KINDS, PitStore
from controller.app.pit.publisher import ALARM_KINDS
from tests.support.floor import START, row


def mismatch(
    table: str, seconds: float, actor: str, kind: str, owed: int, paid: int,
    round_: int = 1, spot: str = "box1",
) -> dict[str, Any]:  # fmt: skip
    return row(table, seconds, "PayoutMismatch", actor, round_, box=int(spot[-1]), spot=spot,
               kind=kind, owed=owed, paid=paid, reads=paid, rule="4.1", text="")  # fmt: skip


def closed(
    table: str, seconds: float, actor: str, how: str, kind: str, round_: int = 1,
    spot: str = "box1",
) -> dict[str, Any]:  # fmt: skip
    """The row that ends a mismatch: ``MismatchCorrected`` or ``MismatchAccepted``."""
    return row(table, seconds, how, actor, round_, box=int(spot[-1]), spot=spot, kind=kind,
               owed=20, paid=20)  # fmt: skip


ROWS = [  # four mismatches: three on bj-01 (rounds 1 to 3), one on bj-02
    row("bj-01", 10, "RoundSettled", "d01", wagers_in=20, house_result=0, paid_out=20),
    mismatch("bj-01", 20, "d01", "over", 20, 25, round_=1),
    mismatch("bj-01", 30, "d01", "over", 20, 30, round_=2),
    mismatch("bj-01", 40, "d01", "uncollected", 0, 20, round_=3),
    mismatch("bj-02", 50, "d02", "under", 20, 15),
]


def counts(figures: dict[str, Any], scope: str, key: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in figures[scope] if f["key"] == key)
    return dict(found["payout_mismatches"])


def test_rule_4_1_mismatches_per_table_and_dealer_by_kind_and_amount() -> None:
    figures = shift_figures(ROWS, START, START + 3600)
    tables = {f["key"]: f for f in figures["tables"]}
    assert tables["bj-01"]["payout_mismatches"] == {
        "over": {"count": 2, "amount": 15},
        "uncollected": {"count": 1, "amount": 20},
    }
    assert tables["bj-02"]["payout_mismatches"] == {"under": {"count": 1, "amount": 5}}
    dealers = {f["key"]: f for f in figures["dealers"]}
    assert dealers["d02"]["payout_mismatches"] == {"under": {"count": 1, "amount": 5}}
    assert set(dealers["d01"]["payout_mismatches"]) == {"over", "uncollected"}
    (floor,) = figures["floor"]
    assert sum(k["count"] for k in floor["payout_mismatches"].values()) == 4


def test_a_table_without_mismatches_shows_none() -> None:
    figures = shift_figures(ROWS[:1], START, START + 3600)
    assert "payout_mismatches" not in figures["tables"][0]


def test_a_counterfeit_chip_is_an_alarm_on_the_floor(tmp_path: Path) -> None:
    assert ALARM_KINDS["ChipAlarm"] == "counterfeit"
    assert {"PayoutMismatch", "ChipAlarm"} <= KEPT_KINDS
    log = AlarmLog(PitStore(tmp_path / "pit.sqlite"))
    body = row("bj-01", 60, "ChipAlarm", "d01", spot="box2", chip_id="E004015000000001",
               value=100, listed=None, reason="chip E004015000000001 (100) on box2 is not "
               "in the chip inventory: possible counterfeit", rule="chip inventory")  # fmt: skip
    assert log.take("s", "bj-01", body, True)
    [entry] = log.newest()
    assert entry["severity"] == "counterfeit" and entry["alert"] is True
    assert entry["words"] == "Possible counterfeit chip"
    assert "possible counterfeit" in entry["message"]


def test_the_csv_carries_the_mismatches_by_kind_count_and_amount() -> None:
    figures = shift_figures(ROWS, START, START + 3600)
    lines = list(csv.DictReader(io.StringIO(figures_csv(figures, "a", "b"))))
    by_id = {(r["scope"], r["id"]): r for r in lines}
    assert by_id[("table", "bj-01")]["payout_mismatches"] == "over:2:15;uncollected:1:20"
    assert by_id[("dealer", "d02")]["payout_mismatches"] == "under:1:5"


# --- each mismatch once (a spot read wrong twice is one mismatch) -----------------------


def test_rule_4_1_a_spot_read_wrong_twice_is_one_mismatch_at_its_last_amount() -> None:
    """Paid 25 on a 20 win, then 30 as the dealer stacks more, then put right: one
    overpayment (the 10 it came to), not two."""
    rows = [
        mismatch("bj-01", 20, "d01", "over", 20, 25),
        mismatch("bj-01", 30, "d01", "over", 20, 30),
        closed("bj-01", 40, "d01", "MismatchCorrected", "over"),
    ]
    figures = shift_figures(rows, START, START + 3600)
    assert counts(figures, "tables", "bj-01") == {"over": {"count": 1, "amount": 10}}
    assert counts(figures, "dealers", "d01") == {"over": {"count": 1, "amount": 10}}
    assert counts(figures, "floor", "floor") == {"over": {"count": 1, "amount": 10}}
    text = figures_csv(figures, "a", "b")
    assert {r["scope"]: r["payout_mismatches"] for r in csv.DictReader(io.StringIO(text))} == {
        "table": "over:1:10", "game": "over:1:10", "dealer": "over:1:10", "floor": "over:1:10",
    }  # fmt: skip


def test_rule_4_1_a_mismatch_that_changes_kind_counts_once_as_it_ended() -> None:
    """Overpaid by 5, then the dealer takes too much back: under by 5 when the supervisor
    accepts it. One mismatch, counted as what was accepted."""
    rows = [
        mismatch("bj-01", 20, "d01", "over", 20, 25),
        mismatch("bj-01", 30, "d01", "under", 20, 15),
        closed("bj-01", 40, "d01", "MismatchAccepted", "under"),
    ]
    figures = shift_figures(rows, START, START + 3600)
    assert counts(figures, "tables", "bj-01") == {"under": {"count": 1, "amount": 5}}


def test_rule_4_1_after_a_mismatch_ends_the_same_spot_wrong_again_is_another() -> None:
    """A life ends when the spot reads right or a supervisor accepts: a later wrong
    reading of that spot (in the same round or the next) is a new mismatch."""
    rows = [
        mismatch("bj-01", 20, "d01", "over", 20, 25),
        closed("bj-01", 30, "d01", "MismatchCorrected", "over"),
        mismatch("bj-01", 40, "d01", "over", 20, 22),
        closed("bj-01", 50, "d01", "MismatchAccepted", "over"),
        mismatch("bj-01", 60, "d01", "over", 20, 21, round_=2),  # never closed: next round
        mismatch("bj-01", 70, "d01", "over", 20, 24, round_=3),
    ]
    figures = shift_figures(rows, START, START + 3600)
    assert counts(figures, "tables", "bj-01") == {"over": {"count": 4, "amount": 5 + 2 + 1 + 4}}


def test_rule_4_1_spots_tables_and_dealers_are_each_their_own_mismatch() -> None:
    """The same round number on another spot (a person's, the insurance) or another table
    is another mismatch; the dealer is the one signed in when it was first read wrong."""
    rows = [
        mismatch("bj-01", 20, "d01", "over", 20, 25),
        mismatch("bj-01", 21, "d01", "over", 20, 25, spot="box1.p2"),
        mismatch("bj-01", 22, "d01", "under", 40, 30, spot="insurance1"),
        mismatch("bj-02", 23, "d02", "over", 20, 25),
        mismatch("bj-01", 30, "d03", "over", 20, 30),  # read again after d03 signed in
    ]
    figures = shift_figures(rows, START, START + 3600)
    assert counts(figures, "tables", "bj-01") == {
        "over": {"count": 2, "amount": 15},
        "under": {"count": 1, "amount": 10},
    }
    assert counts(figures, "tables", "bj-02") == {"over": {"count": 1, "amount": 5}}
    assert counts(figures, "dealers", "d01")["over"]["count"] == 2
    assert "d03" not in {f["key"] for f in figures["dealers"]}


def test_rule_4_1_the_pit_store_keeps_the_rows_that_end_a_mismatch(tmp_path: Path) -> None:
    """Through the pit's own store, as the floor view reads it: the correction is kept,
    so a spot wrong, put right and wrong again is two mismatches, one read twice is one."""
    store = PitStore(tmp_path / "pit.sqlite")
    try:
        rows = [
            mismatch("bj-01", 20, "d01", "over", 20, 25),
            mismatch("bj-01", 25, "d01", "over", 20, 30),
            closed("bj-01", 30, "d01", "MismatchCorrected", "over"),
            mismatch("bj-01", 40, "d01", "under", 20, 18),
        ]
        for n, body in enumerate(rows):
            assert store.add_row("s", "bj-01", {**body, "hash": f"h{n}"})
        kept = store.rows(rows[0]["wall"])
        assert [r["kind"] for r in kept].count("MismatchCorrected") == 1
        figures = shift_figures(kept, START, START + 3600)
        assert counts(figures, "tables", "bj-01") == {
            "over": {"count": 1, "amount": 10},
            "under": {"count": 1, "amount": 2},
        }
    finally:
        store.close()
