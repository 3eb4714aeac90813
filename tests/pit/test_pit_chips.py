"""The pit and the chips (issue 18): per-table and per-dealer counts of payout mismatches
by kind with their amounts, and a possible counterfeit chip in the alarm log."""

from __future__ import annotations

import csv
import datetime
import io
from pathlib import Path
from typing import Any

from controller.app.pit import ALARM_KINDS
from controller.app.pit_alarms import AlarmLog
from controller.app.pit_figures import figures_csv, shift_figures
from controller.app.pit_store import KEPT_KINDS, PitStore

START = 1_800_000_000.0


def row(table: str, seconds: float, row_kind: str, actor: str | None, **payload: Any) -> dict:
    wall = datetime.datetime.fromtimestamp(START + seconds, datetime.UTC).isoformat()
    return {"table": table, "site": "s", "seq": int(seconds), "wall": wall,
            "round": 1, "kind": row_kind, "actor": actor, "payload": payload}  # fmt: skip


def mismatch(table: str, seconds: float, actor: str, kind: str, owed: int, paid: int) -> dict:
    return row(table, seconds, "PayoutMismatch", actor, box=1, spot="box1", kind=kind,
               owed=owed, paid=paid, reads=paid, rule="4.1", text="")  # fmt: skip


ROWS = [
    row("bj-01", 10, "RoundSettled", "d01", wagers_in=20, house_result=0, paid_out=20),
    mismatch("bj-01", 20, "d01", "over", 20, 25),
    mismatch("bj-01", 30, "d01", "over", 20, 30),
    mismatch("bj-01", 40, "d01", "uncollected", 0, 20),
    mismatch("bj-02", 50, "d02", "under", 20, 15),
]


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
