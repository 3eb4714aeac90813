"""The soak's short version (tools/soak.py; `make soak` runs it for ten minutes): a
controller process plays blackjack for about a minute through every fault the injector
has, at rates raised so that each kind happens, and ends with nothing lost, nothing
doubled, every round balanced and every fault absorbed or reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.soak import Rates, report, run_soak

SHORT = Rates(cable=0.01, button=0.03, out_of_order=0.03, unknown_tag=0.01, foreign_shoe=1.0,
              kill=0.01)  # fmt: skip


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_minute_of_faults_loses_nothing_and_reports_every_fault(tmp_path: Path) -> None:
    result = run_soak(60.0, seed=20261130, rates=SHORT, folder=tmp_path)
    text = report(result)
    assert result.events_lost == 0, text
    assert result.events_duplicated == 0, text
    assert result.rounds_unbalanced == 0 and result.controller_faults == 0, text
    assert result.unaccounted == [], text
    assert result.rounds_played >= 10, text
    injected = result.faults
    for kind in ("sigkill", "cable_pulled", "unknown_tag", "out_of_order_card",
                 "foreign_shoe_loaded", "line_to_controller_corrupt"):  # fmt: skip
        assert injected.get(kind, 0) > 0, (kind, text)
    assert any(k.startswith("button_") for k in injected), text
    assert result.violations.get("3.3", 0) >= result.foreign_cards_dealt, text
    assert result.recoveries == injected["sigkill"] and result.recovery_max_s < 30, text
    assert result.holds_cleared > 0, text
    assert result.ok, text


RFID = Rates(cable=0.01, button=0.03, out_of_order=0.03, unknown_tag=0.01, kill=0.01,
             tag_again=0.01, noise=0.02)  # fmt: skip


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_an_rfid_shoe_through_a_minute_of_reader_faults(tmp_path: Path) -> None:
    """`--shoe rfid`: every card slid past the RDM6300 journaled once with its tag, and
    every reader fault a named row (unknown-tag, bad-checksum, DeviceLost, a hold)."""
    result = run_soak(60.0, seed=20261201, rates=RFID, folder=tmp_path, shoe="rfid")
    text = report(result)
    assert result.events_lost == 0 and result.events_duplicated == 0, text
    assert result.rounds_unbalanced == 0 and result.controller_faults == 0, text
    assert result.unaccounted == [], text
    assert result.rounds_played >= 10, text
    injected = result.faults
    for kind in ("sigkill", "cable_pulled", "unknown_tag", "tag_read_again", "reader_noise",
                 "out_of_order_card"):  # fmt: skip
        assert injected.get(kind, 0) > 0, (kind, text)
    assert not any(k.startswith("line_to_") for k in injected), text  # no serial shoe here
    assert result.device_faults.get("unknown-tag", 0) == injected["unknown_tag"], text
    assert result.ok, text
