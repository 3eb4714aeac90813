"""The table's limits bind everyone: a wager outside ``[limits]`` (the limit sign) is
refused whoever keys it, a supervisor's `change_wager` included, with the refusal citing
the limits on the dealer's display; only a supervisor's override, with a reason, lets one
stand, journaled with who and why (`LimitOverridden`) and an alarm to the pit.

Blackjack against a real `tablectl run` process through its own console (the example
table: limits 2 to 100). Poker (rule 11.5) and baccarat take no supervisor's wager; their
rules refuse a wager outside the limits whoever keys it, a supervisor signed in to deal
included."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app.config import load_config, parse_config
from controller.app.console.schema import supervisor_decisions
from controller.app.floor.alarms import AlarmLog
from controller.app.floor.store import KEPT_KINDS, PitStore
from controller.app.pit.publisher import PitPublisher
from controller.baccarat.rules import WAGERS_RULE, BaccaratRules
from controller.baccarat.wagers import check_wager
from controller.blackjack.rules import Variants
from controller.blackjack.table import BlackjackTable
from controller.errors import IllegalAction
from controller.game.records import TABLE_LIMITS
from sim_hardware.link import PtyLink
from sim_hardware.remote import DEMO_DEALER, DEMO_SUPERVISOR, ConsoleClient
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, write_config

pytestmark = pytest.mark.timeout(180)

MAXIMUM = 100  # examples/blackjack-table.toml: [limits] 2 to 100


class Table:
    def __init__(self, folder: Path, controller: ControllerProcess) -> None:
        self.folder = folder
        self.config = folder / "table.toml"
        self.journal = folder / "journal.sqlite"
        self.controller = controller
        self.console = controller.client

    def rows(self, after: int = 0) -> list[tuple[Any, ...]]:
        """(seq, wall, round, source, kind, payload, actor, hash) after ``after``."""
        db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
        try:
            return db.execute(
                "SELECT seq, wall, round, source, kind, payload, actor, hash FROM journal "
                "WHERE seq > ? ORDER BY seq",
                (after,),
            ).fetchall()
        finally:
            db.close()

    def last_seq(self) -> int:
        rows = self.rows()
        return int(rows[-1][0]) if rows else 0

    def after(self, seq: int, kind: str) -> list[tuple[Any, ...]]:
        """The rows after ``seq`` once one of ``kind`` is among them (another process:
        the journal is read again after each round trip to it)."""
        for _ in range(300):
            rows = self.rows(seq)
            if any(r[4] == kind for r in rows):
                return rows
            self.console.state()
        raise AssertionError(f"no {kind} after row {seq}: {self.rows(seq)}")

    def supervisor(self, decision: str, reason: str, **args: Any) -> None:
        staff, pin = DEMO_SUPERVISOR
        body = {"staff": staff, "pin": pin, "decision": decision, "reason": reason, "args": args}
        assert self.console.post("/api/supervisor", body), self.console.last_status


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    folder = tmp_path_factory.mktemp("limits")
    with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(3)) as shoe:
        port = free_port()
        client = ConsoleClient(f"http://127.0.0.1:{port}")
        controller = ControllerProcess(write_config(folder, shoe.link.url, port), client)
        controller.start()
        try:
            assert client.sign_in(*DEMO_DEALER), client.last_status
            open_betting(client, shoe)
            yield Table(folder, controller)
        finally:
            controller.stop()


def open_betting(client: ConsoleClient, shoe: SimulatedShoe) -> None:
    """Shuffle, burn and press NEXT, as the dealer does, until the table takes bets."""
    for _ in range(20):
        view = client.state().get("view") or {}
        if view.get("state") == "betting":
            return
        if view.get("shuffle_due"):
            assert client.post("/api/console", {"action": "shuffled", "args": {}})
        elif view.get("burns_due"):
            shoe.draw_when_open()
        else:
            assert client.post("/api/console", {"button": "next"})
        # another process: its view, polled until it shows what was done (a count of events
        # moves on the shoe's status report too, before its burn card is taken)
        deadline = time.monotonic() + 10.0
        while (client.state().get("view") or {}) == view:
            assert time.monotonic() < deadline, "the table did not take the dealer's action"
    raise AssertionError(f"the table did not open betting: {client.state().get('view')}")


def payloads(rows: list[tuple[Any, ...]], kind: str) -> list[dict[str, Any]]:
    return [json.loads(r[5]) for r in rows if r[4] == kind]


def test_table_limits_refuse_a_supervisors_change_wager_over_the_maximum(table: Table) -> None:
    seen = table.last_seq()
    table.supervisor("change_wager", "the player asked", box=3, person=1, amount=1_000_000)
    rows = table.after(seen, "ActionRefused")
    assert [(r[4], r[6]) for r in rows[:1]] == [("SupervisorAction", DEMO_SUPERVISOR[0])]
    [refusal] = payloads(rows, "ActionRefused")
    assert refusal["action"] == "supervisor change_wager"
    assert refusal["rule"] == TABLE_LIMITS
    assert "a wager of 1000000 is outside the table's limits, 2 to 100" in refusal["reason"]
    assert not payloads(rows, "WagerChanged") and not payloads(rows, "WagerPlaced")
    notices = table.console.state()["notices"]  # on the dealer's display, in their words
    assert any("outside the table's limits" in n.get("reason", "") for n in notices)
    assert json.loads(table.rows()[-1][5]).get("amount") != 1_000_000


def test_table_limits_refuse_the_dealers_keyed_wager_under_the_minimum_and_over_the_maximum(
    table: Table,
) -> None:
    for amount in (1, MAXIMUM + 1):
        seen = table.last_seq()
        body = {"action": "place_wager", "args": {"box": 2, "person": 1, "amount": amount}}
        assert table.console.post("/api/console", body)
        [refusal] = payloads(table.after(seen, "ActionRefused"), "ActionRefused")
        assert refusal["rule"] == TABLE_LIMITS and f"a wager of {amount}" in refusal["reason"]
    seen = table.last_seq()
    body = {"action": "place_wager", "args": {"box": 2, "person": 1, "amount": MAXIMUM}}
    assert table.console.post("/api/console", body)
    assert payloads(table.after(seen, "WagerPlaced"), "WagerPlaced")[0]["amount"] == MAXIMUM


def test_table_limits_a_supervisors_override_stands_journaled_with_who_and_why(
    table: Table,
) -> None:
    seen = table.last_seq()
    table.supervisor("override_limit", "no reason given", box=4, person=1, amount=40)
    [refusal] = payloads(table.after(seen, "ActionRefused"), "ActionRefused")
    assert "within the table's limits" in refusal["reason"]  # no override needed: none taken
    seen = table.last_seq()
    reason = "high roller, shift manager approved"
    table.supervisor("override_limit", reason, box=4, person=1, amount=500)
    rows = table.after(seen, "LimitOverridden")
    assert payloads(rows, "WagerChanged") == [
        {"box": 4, "person": 1, "sensed": 0, "amount": 500, "who": DEMO_SUPERVISOR[0]}
    ]
    [override] = [r for r in rows if r[4] == "LimitOverridden"]
    assert json.loads(override[5]) == {
        "who": DEMO_SUPERVISOR[0],
        "spot": "box4",
        "amount": 500,
        "minimum": 2,
        "maximum": MAXIMUM,
        "reason": reason,
    }
    assert [r[6] for r in rows if r[4] == "SupervisorAction"] == [DEMO_SUPERVISOR[0]]
    # the pit: the row goes out on the alarm topic, and the floor shows it as an alert
    text = table.config.read_text() + '\n[pit]\nbroker = "mqtt://127.0.0.1:1"\n'
    config = parse_config(text, source=str(table.config))  # the publisher is never started
    topics = dict(PitPublisher(config).row_messages(override))
    assert topics["alarm"]["severity"] == "override"
    assert "LimitOverridden" in KEPT_KINDS  # the pit's store keeps it for its alarm log
    log = AlarmLog(PitStore(table.folder / "pit.sqlite"))
    assert log.take("s", config.table_id, topics["alarm"], True)
    [entry] = log.newest()
    assert entry["alert"] is True and entry["words"] == "Table limit overridden"
    assert DEMO_SUPERVISOR[0] in entry["message"] and reason in entry["message"]


def test_table_limits_an_override_says_why() -> None:
    table = BlackjackTable(Variants(minimum_wager=2, maximum_wager=100))
    with pytest.raises(IllegalAction) as refused:
        table.override_limit("s01", 1, 1, 500, "   ")
    assert refused.value.rule == TABLE_LIMITS and "says why" in refused.value.reason


def test_table_limits_from_the_config_reach_the_blackjack_rules(table: Table) -> None:
    rules = load_config(table.config).rules
    assert (rules.minimum_wager, rules.maximum_wager) == (2, MAXIMUM)


# --- poker (rule 11.5) and baccarat: no supervisor's wager; the limits bind whoever keys --


@pytest.mark.parametrize("game", ["poker", "baccarat"])
def test_rule_11_5_no_supervisor_decision_of_poker_or_baccarat_sets_a_wager(game: str) -> None:
    """A supervisor of these games clears a HOLD and nothing else: no decision takes an
    amount, so every wager goes through the rules' own limit check (poker's 11.5 in
    betting.py, baccarat's in wagers.py), whoever is signed in to deal."""
    for decision in supervisor_decisions(game).values():
        assert "amount" not in [p.name for p in decision.params], decision


def test_baccarat_a_wager_outside_the_table_limits_is_refused_whoever_keys_it() -> None:
    rules = BaccaratRules(minimum_wager=10, maximum_wager=1000)
    with pytest.raises(IllegalAction) as refused:
        check_wager(rules, [{}] * rules.boxes, 1, "banker", 1_000_000)
    assert refused.value.rule == WAGERS_RULE
    assert "outside the table's limits 10 to 1000" in refused.value.reason
