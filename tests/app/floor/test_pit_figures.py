"""The shift's figures, their CSV and charts, the words the floor uses, the floor file, and
the pit's own store: pure functions and a SQLite file, no broker."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller.app.floor.figures import figures_csv, series, shift_figures, svg_chart
from controller.app.floor.imports import import_journal
from controller.app.floor.store import PitStore
from controller.app.floor.tables import Floor
from controller.app.floor.view import PitView, load_floor_file
from controller.app.floor.words import (
    DECISION_WORDS,
    all_state_words,
    decision_words,
    state_words,
)
from controller.blackjack.table import STATES as BLACKJACK_STATES
from controller.errors import ConfigError
from controller.game import registry
from controller.poker.phases import STATES as POKER_STATES
from tests.support.floor import MANAGER, START, at, manager, pit_staff, row

ROWS = [
    row("bj-01", 60, "RoundSettled", wagers_in=10, house_result=4, paid_out=6, void=False),
    row("bj-01", 120, "Violation", rule="4.2", message="a card before NO MORE BETS"),
    row("bj-01", 180, "RoundSettled", wagers_in=20, house_result=-10, paid_out=30, void=False),
    row("bj-01", 200, "RoundSettled", wagers_in=5, house_result=0, paid_out=0, void=True),
    row("dp-01", 240, "DealerSignedIn", actor="d02", staff_id="d02", name="Kim Tan"),
    row("dp-01", 300, "HandSettled", actor="d02", chips_in=90, rake=4, void=False),
    row("dp-01", 400, "Violation", actor="d02", rule="11.3(b)", message=None),
]


def test_figures_per_table_game_dealer_and_floor() -> None:
    figures = shift_figures(ROWS, START, START + 1800, on_duty_at_start={"bj-01": "d01"})
    tables = {f["key"]: f for f in figures["tables"]}
    assert tables["bj-01"] | {"holds_by_rule": None} == {
        "key": "bj-01", "name": "", "game": "blackjack", "rounds": 2, "rounds_per_hour": 4.0,
        "drop": 30, "win": -6, "hold_pct": -20.0, "holds": 1, "holds_by_rule": None,
    }  # fmt: skip
    assert tables["bj-01"]["holds_by_rule"] == {"4.2": 1}
    assert (tables["dp-01"]["drop"], tables["dp-01"]["win"]) == (90, 4)  # poker: the rake
    games = {f["key"]: f for f in figures["games"]}
    assert games["poker"]["hold_pct"] == 4.4 and games["blackjack"]["rounds"] == 2
    dealers = {f["key"]: f for f in figures["dealers"]}
    assert dealers["d02"]["name"] == "Kim Tan"
    assert dealers["d02"]["rounds_per_hour"] == round(1 / ((1800 - 240) / 3600), 1)
    assert dealers["d01"]["rounds_per_hour"] == 4.0  # on duty from the shift's start
    (floor,) = figures["floor"]
    assert (floor["rounds"], floor["drop"], floor["win"], floor["holds"]) == (3, 120, -2, 2)


def test_the_csv_has_one_row_per_table_game_dealer_and_the_floor() -> None:
    figures = shift_figures(ROWS, START, START + 1800)
    text = figures_csv(figures, at(0), at(1800))
    lines = list(csv.DictReader(io.StringIO(text)))
    assert [(r["scope"], r["id"]) for r in lines] == [
        ("table", "bj-01"), ("table", "dp-01"), ("game", "blackjack"), ("game", "poker"),
        ("dealer", "d01"), ("dealer", "d02"), ("floor", "floor"),
    ]  # fmt: skip
    bj = lines[0]
    assert (bj["drop"], bj["win"], bj["hold_pct"], bj["holds_by_rule"]) == (
        "30",
        "-6",
        "-20.0",
        "4.2:1",
    )
    assert bj["shift_start"] == at(0) and text.endswith("\r\n")


def test_series_and_charts_are_svg_with_no_outside_reference() -> None:
    win, rounds = series(ROWS, START, START + 2400, None)
    assert len(win) == len(rounds) == 24 and win[-1] == -2.0
    assert sum(rounds) * 100 / 3600 == 3  # three rounds, each in a 100 s slice
    for kind, values in (("win", win), ("rounds", rounds), ("win", [])):
        text = svg_chart(kind, values, 160, 36, "bj-01 <&>")
        root = ET.fromstring(text)
        assert (
            root.get("width") == "160"
            and "href" not in text
            and "http:" not in text.replace("http://www.w3.org/2000/svg", "")
        )


def test_every_state_of_every_game_has_words() -> None:
    for game, states in (("blackjack", BLACKJACK_STATES), ("poker", POKER_STATES)):
        for state in states:
            assert state in all_state_words() and "_" not in state_words(state, game)
    assert state_words("a_new_state") == "A new state"
    assert decision_words({"decision": "void_box", "box": 3}) == "voided box 3"
    assert decision_words({"decision": "keep_card"}) == "kept the card"
    assert decision_words({"decision": "burn_card"}) == "burned the card(s) out of turn"


def test_every_game_s_supervisor_decisions_have_words_on_the_floor() -> None:
    for name in registry.names():
        offered = registry.spec(name).decisions
        assert sorted(d for d in offered if d not in DECISION_WORDS) == [], name


def test_the_floor_file(tmp_path: Path) -> None:
    path = tmp_path / "floor.toml"
    path.write_text('[[area]]\nname = "Pit 1"\ntables = ["bj-01", "bj-02"]\n')
    assert load_floor_file(path) == {"bj-01": "Pit 1", "bj-02": "Pit 1"}
    path.write_text('[[area]]\nname = "A"\ntables = ["t"]\n[[area]]\nname = "B"\ntables = ["t"]\n')
    with pytest.raises(ConfigError, match="in two areas"):
        load_floor_file(path)
    path.write_text("[[area]]\ntables = 3\n")
    with pytest.raises(ConfigError, match="needs a name"):
        load_floor_file(path)
    examples = Path(__file__).resolve().parents[3] / "examples" / "pit-floor.toml"
    assert "bj-01" in load_floor_file(examples)


def test_the_store_keeps_rows_once_and_chains_the_pits_journal(tmp_path: Path) -> None:
    store = PitStore(tmp_path / "pit.sqlite")
    body = {"seq": 5, "wall": at(5), "kind": "RoundSettled", "hash": "a" * 64,
            "payload": {"wagers_in": 2, "house_result": 2}, "actor": "d01"}  # fmt: skip
    assert store.add_row("s", "bj-01", body) and not store.add_row("s", "bj-01", body)
    assert not store.add_row("s", "bj-01", {**body, "kind": "CardDrawn", "hash": "b" * 64})
    assert [r["seq"] for r in store.rows(at(0))] == [5] and store.rows(at(6)) == []
    store.journal(at(10), "ShiftStarted", "Anna", {"start": at(0)})
    store.journal(at(20), "AlarmAcknowledged", "Anna", {"alarm": "x"})
    assert store.verify_journal() and store.client_id() == store.client_id()
    store.close()
    db = sqlite3.connect(tmp_path / "pit.sqlite")
    db.execute("UPDATE pit_journal SET who = 'Bob' WHERE id = 1")
    db.commit()
    db.close()
    store = PitStore(tmp_path / "pit.sqlite")
    assert not store.verify_journal()  # a rewritten acknowledgement does not check out
    store.close()


def test_acknowledgements_and_the_shift_survive_a_new_floor_on_the_same_store(
    tmp_path: Path,
) -> None:
    now = [START + 3600]
    store = PitStore(tmp_path / "pit.sqlite")
    floor = Floor(clock=lambda: now[0], wall=lambda: now[0], store=store)
    floor.set_shift(at(0), "Anna")
    body = {"v": 1, "seq": 9, "wall": at(100), "kind": "Violation", "hash": "c" * 64,
            "payload": {"rule": "9.3", "message": "insurance"}, "actor": "d01"}  # fmt: skip
    floor.take("casino/s/table/bj-01/event", json.dumps(body).encode())
    (entry,) = floor.alarms()
    assert floor.acknowledge(entry["id"], "Anna") and not floor.acknowledge(entry["id"], "Bob")
    again = Floor(clock=lambda: now[0], wall=lambda: now[0], store=store)
    assert again.shift_start == at(0)
    (kept,) = again.alarms()
    assert kept["acked"]["by"] == "Anna" and kept["rule"] == "9.3"
    store.close()


def test_the_managers_posts_take_json_from_the_page_and_name_the_manager_signed_in(
    tmp_path: Path,
) -> None:
    view = PitView(
        "mqtt://127.0.0.1:9", port=0, store=tmp_path / "pit.sqlite", staff=pit_staff()
    ).start()
    try:
        anna = manager(view.url)
        body = {"start": "now"}
        assert anna.post("/api/shift", body, {"Origin": "http://evil.example"})[0] == 403
        assert anna.post("/api/shift", body, {"Content-Type": "text/plain"})[0] == 415
        assert anna.post("/api/shift", body, {"X-Tablectl-Pit": ""})[0] == 403
        assert anna.post("/api/shift", {"start": "2999-01-01T00:00:00+00:00"})[0] == 400
        assert anna.post("/api/shift", {"start": "2026-01-01T00:00:00"})[0] == 400  # no offset
        assert anna.post("/api/shift", {"start": "now", "by": "Anna"})[0] == 400  # no actor
        assert anna.post("/api/shift", {"start": "now" + " " * 2000})[0] == 413
        assert anna.post("/api/shift", body, {"Origin": view.url})[0] == 200
        assert view.store.journal_entries("ShiftStarted")[0]["who"] == MANAGER[0]
        assert anna.post("/api/ack", {"id": "no such alarm"})[0] == 409
    finally:
        view.close()


def test_an_imported_poker_journal_keeps_no_card(tmp_path: Path) -> None:
    """A journal export holds every card; what goes into the pit's store is what the
    public topic would have carried (rule 11.3(a))."""
    store = PitStore(tmp_path / "pit.sqlite")
    lines = [
        json.dumps({"seq": 1, "wall": at(1), "kind": "TableStarted", "hash": "1" * 64,
                    "actor": None, "payload": {"game": "poker", "replayed_events": 0}}),
        json.dumps({"seq": 2, "wall": at(2), "kind": "Violation", "hash": "2" * 64,
                    "actor": "d01", "payload": {"rule": "11.3(b)", "card": "Qc",
                                                "message": "Qc drawn while on HOLD"}}),
    ]  # fmt: skip
    assert import_journal(store, "s", "dp-01", lines) == 2
    assert import_journal(store, "s", "dp-01", lines) == 0
    violation = store.rows(at(0))[1]["payload"]
    assert violation == {"rule": "11.3(b)", "card": None, "message": None}
    store.close()
