"""The simulated table's world API: chips, fingers, bounce, and the eyes on the outputs."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device, DigitalInputDevice

from controller.app.config.pins import parse_pinmap
from drivers.charlcd import CharLcd
from sim_hardware.table import SimTable

ROOT = Path(__file__).resolve().parents[2]
BLACKJACK = (ROOT / "examples" / "blackjack-table.toml").read_text()
POKER = (ROOT / "examples" / "poker-table.toml").read_text()


@pytest.fixture
def sim() -> Iterator[SimTable]:
    table = SimTable(parse_pinmap(BLACKJACK))
    yield table
    table.close()


def test_inputs_start_idle_and_the_log_starts_empty(sim: SimTable) -> None:
    assert sim.level("box1") == 1.0  # pull-up, switch open
    assert sim.level("insurance5") == 0.0  # driven sensor, active high, idle low
    assert sim.changes() == []


def test_chips_drive_the_level_the_wiring_gives(sim: SimTable) -> None:
    sim.place_chips("box1")
    sim.place_chips("insurance5")
    assert (sim.level("box1"), sim.level("insurance5")) == (0.0, 1.0)
    sim.remove_chips("box1")
    assert [level for _, level in sim.history("box1")] == [0.0, 1.0]


def test_bounce_makes_the_edges_it_says_within_10_ms(sim: SimTable) -> None:
    span = sim.place_chips("box2", bounce=5)
    history = sim.history("box2")
    assert [level for _, level in history] == [0.0, 1.0, 0.0, 1.0, 0.0]
    assert span >= history[-1][0] - history[0][0] >= 0.009  # paced, not back to back
    spans = [span]
    while len(spans) < 5 and min(spans) > 0.012:  # a busy machine may stretch one burst
        sim.remove_chips("box2")
        spans.append(sim.place_chips("box2", bounce=5))
    assert min(spans) <= 0.012
    with pytest.raises(ValueError, match="odd"):
        sim.place_chips("box2", bounce=4)


def test_a_glitch_returns_to_where_it_began(sim: SimTable) -> None:
    sim.glitch("box3", edges=6)
    assert len(sim.history("box3")) == 6
    assert sim.level("box3") == 1.0
    with pytest.raises(ValueError, match="even"):
        sim.glitch("box3", edges=3)


def test_a_press_lasts_at_least_its_hold(sim: SimTable) -> None:
    sim.press("supervisor", hold=0.2)
    (down, low), (up, high) = sim.history("supervisor")
    assert (low, high) == (0.0, 1.0)
    assert up - down >= 0.2


def test_the_wiring_holds_an_input_against_the_pull(sim: SimTable) -> None:
    sim.place_chips("box4")
    device = DigitalInputDevice("GPIO20", pull_up=True, pin_factory=sim.pin_factory)
    try:
        assert device.is_active  # the pull-up did not lift the chips off the sensor
    finally:
        device.close()


def test_unknown_names_are_refused(sim: SimTable) -> None:
    with pytest.raises(KeyError, match="box7"):
        sim.place_chips("box7")
    with pytest.raises(KeyError, match="no output"):
        sim.level("lamp-hold")


def test_wait_for_times_out_with_an_error(sim: SimTable) -> None:
    with pytest.raises(TimeoutError):
        sim.wait_for(lambda: False, timeout=0.05)


def test_the_simulator_says_so_and_leaves_the_global_factory_alone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    before = Device.pin_factory
    with caplog.at_level(logging.INFO, logger="sim_hardware.table"):
        table = SimTable(parse_pinmap(BLACKJACK))
    table.close()
    assert "SIMULATOR" in caplog.text
    assert Device.pin_factory is before


def test_the_lcd_model_reads_what_the_driver_wrote() -> None:
    table = SimTable(parse_pinmap(POKER))
    sign = table.pinmap.limit_sign
    assert sign is not None and table.lcd is not None
    lcd = CharLcd(
        rs=sign.rs,
        e=sign.e,
        data=sign.data,
        columns=16,
        rows=2,
        pin_factory=table.pin_factory,
        sleep=lambda s: None,
    )
    try:
        assert table.lcd.four_bit and table.lcd.display_on
        lcd.show(["hello", "table 7"])
        assert table.lcd.lines == ("hello", "table 7")
        lcd.show(["second"])
        assert table.lcd.lines == ("second", "")
        shown = [lines for _, lines in table.lcd.history]  # every character, as it lands
        assert ("hello", "table 7") in shown and ("second", "table 7") in shown
        assert shown[-1] == ("second", "")
    finally:
        lcd.close()
        table.close()
