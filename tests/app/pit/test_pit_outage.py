"""The pit feed through a broker outage: a simulated table plays while the broker is stopped
and restarted twice and the controller is SIGKILLed once; a subscriber still gets every
journaled event, exactly once after de-duplicating by seq, in order, none missing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from controller.app.runtime.journal_files import open_journal
from tests.support.pit import Broker, DemoTable, Recorder, schema_validator, write_config


def check_complete_and_ordered(seen: list[int], last: int) -> None:
    """Every seq from 1 to ``last``, each new one exactly one past the highest so far; a
    repeat (after a cut or a restart) is dropped by the subscriber, never a gap."""
    highest = 0
    for seq in seen:
        if seq <= highest:
            continue  # a duplicate, recognised by its seq
        assert seq == highest + 1, f"seq {seq} arrived before {highest + 1}"
        highest = seq
    assert highest == last, f"received up to {highest}, the journal has {last}"


def test_no_event_is_lost_or_reordered_through_two_broker_outages_and_a_sigkill(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = write_config(tmp_path, "blackjack", "bj-09", broker.url)
    journal = tmp_path / "bj-09.sqlite"
    topic = "casino/demo-casino/table/bj-09/#"
    recorder = recorders(broker.port, topic, client_id="surveillance", persistent=True)

    def seqs() -> list[int]:
        return [body["seq"] for body in recorder.on("/event")]

    def got_more(than: int) -> bool:
        return recorder.wait_for(lambda r: max(seqs(), default=0) > than, timeout=30)

    table = DemoTable(config, journal)
    try:
        assert got_more(20), table.output()
        for outage in (1, 2):
            broker.stop()  # the table plays on and journals; its rows wait in the journal
            assert table.wait_actions(25), table.output()
            if outage == 1:
                table.kill()  # SIGKILL while the backlog exists only in the journal
                table = DemoTable(config, journal)  # recovers from the same journal
                assert table.wait_actions(15), table.output()
            before = max(seqs(), default=0)
            broker.start()
            assert got_more(before + 5), table.output()
            assert table.wait_actions(10), table.output()  # more play with the broker up
        assert table.stop() == 0, table.output()
    finally:
        table.kill()
    with open_journal(journal, readonly=True) as rows:
        last = rows.last_seq
        kinds = {entry.kind for entry in rows.entries()}
    assert "RoundSettled" in kinds  # rounds were played, not just started
    assert recorder.wait_for(lambda r: max(seqs(), default=0) >= last, timeout=30)
    check_complete_and_ordered(seqs(), last)
    assert sum(body["kind"] == "TableStarted" for body in recorder.on("/event")) >= 2
    # every payload a real table sent matches its documented schema (docs/mqtt-schema)
    for leaf in ("event", "state", "status", "alarm"):
        validate = schema_validator(leaf)
        for body in recorder.on(f"/{leaf}"):
            validate(body)
    assert recorder.on("/state") and {s["status"] for s in recorder.on("/status")} == {
        "online",
        "offline",
    }


def test_the_check_itself_finds_a_gap_and_a_reorder() -> None:
    check_complete_and_ordered([1, 2, 2, 1, 3], 3)
    for bad, last in (([1, 3, 2], 3), ([1, 2], 3), ([2, 1], 2)):
        try:
            check_complete_and_ordered(bad, last)
        except AssertionError:
            continue
        raise AssertionError(f"{bad} passed")
