"""Lamps, the shoe gate, the dealer-button display and the limit sign, read back from the
pins of the simulated table (every change, in order, with its time)."""

from __future__ import annotations

import itertools
import queue
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.app.config.pins import parse_pinmap
from controller.ports import (
    Event,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShowButtonPosition,
    ShowLimits,
    UnlockShoe,
)
from drivers.gpio import BadCommand, OutputNotFitted, TableIO
from drivers.lamps import limit_lines
from sim_hardware.table import SimTable

ROOT = Path(__file__).resolve().parents[2]
BLACKJACK = (ROOT / "examples" / "blackjack-table.toml").read_text()
POKER = (ROOT / "examples" / "poker-table.toml").read_text()
TIMEOUT = 3.0

Make = Callable[[str], tuple[SimTable, TableIO]]


@pytest.fixture
def table() -> Iterator[Make]:
    opened: list[tuple[SimTable, TableIO]] = []

    def make(text: str) -> tuple[SimTable, TableIO]:
        pinmap = parse_pinmap(text)
        sim = SimTable(pinmap)
        events: queue.Queue[Event] = queue.Queue()
        opened.append((sim, TableIO(pinmap, events, pin_factory=sim.pin_factory)))
        return opened[-1]

    yield make
    for sim, io in opened:
        io.close()
        sim.close()


def levels(sim: SimTable, output: str) -> list[float]:
    return [level for _, level in sim.history(output)]


# --- lamps --------------------------------------------------------------------------------


def test_steady_and_off_leave_one_change_each(table: Make) -> None:
    sim, io = table(BLACKJACK)
    io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.STEADY))
    io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.STEADY))
    io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.OFF))
    assert levels(sim, "lamp:dealer_action") == [1.0, 0.0]
    assert io.outputs is not None and io.outputs.pattern(Lamp.DEALER_ACTION) is LampPattern.OFF


def test_an_active_low_lamp_is_inverted(table: Make) -> None:
    sim, io = table(
        BLACKJACK.replace("dealer_action = 18", 'dealer_action = { pin = 18, active = "low" }')
    )
    assert sim.level("lamp:dealer_action") == 1.0  # dark
    io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.STEADY))
    assert sim.level("lamp:dealer_action") == 0.0


def gaps(history: list[tuple[float, float]]) -> list[float]:
    return [b[0] - a[0] for a, b in itertools.pairwise(history)]


def test_the_hold_lamp_flashes_fast_for_a_violation(table: Make) -> None:
    sim, io = table(BLACKJACK)
    io.execute(SetLamp(Lamp.HOLD, LampPattern.FLASH))
    history = sim.wait_for(lambda: h if len(h := sim.history("lamp:hold")) >= 5 else None)
    assert [level for _, level in history[:5]] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert all(0.06 < gap < 0.5 for gap in gaps(history[:5]))  # about 0.125 s, not 0.5 s
    io.execute(SetLamp(Lamp.HOLD, LampPattern.OFF))
    assert sim.level("lamp:hold") == 0.0


def test_blink_is_slower_than_flash(table: Make) -> None:
    sim, io = table(BLACKJACK)
    io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.BLINK))
    history = sim.wait_for(lambda: h if len(h := sim.history("lamp:dealer_action")) >= 2 else None)
    assert [level for _, level in history[:2]] == [1.0, 0.0]
    assert gaps(history[:2])[0] > 0.3


def test_a_pwm_lamp_pulses_through_intermediate_levels(table: Make) -> None:
    sim, io = table(BLACKJACK)
    io.execute(SetLamp(Lamp.BETTING_OPEN, LampPattern.PULSE))
    sim.wait_for(lambda: any(0.1 < level < 0.9 for level in levels(sim, "lamp:betting_open")))


def test_a_plain_lamp_blinks_when_asked_to_pulse(table: Make) -> None:
    sim, io = table(BLACKJACK)
    io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.PULSE))
    sim.wait_for(lambda: len(sim.history("lamp:dealer_action")) >= 2)
    assert set(levels(sim, "lamp:dealer_action")) <= {0.0, 1.0}


def test_close_turns_a_flashing_lamp_off(table: Make) -> None:
    sim, io = table(BLACKJACK)
    io.execute(SetLamp(Lamp.HOLD, LampPattern.FLASH))
    sim.wait_for(lambda: sim.level("lamp:hold") == 1.0)
    io.close()
    assert sim.level("lamp:hold") == 0.0


# --- the shoe gate ------------------------------------------------------------------------

GATE_LOCKED_FAIL_SAFE = BLACKJACK
GATE_UNLOCKED_FAIL_SAFE = BLACKJACK.replace('fail_safe = "locked"', 'fail_safe = "unlocked"')
GATE_ACTIVE_LOW = BLACKJACK.replace('active = "high"       # the pin', 'active = "low"  # the pin')


@pytest.mark.parametrize(
    ("text", "fail_safe_locked", "de_energised_level"),
    [
        (GATE_LOCKED_FAIL_SAFE, True, 0.0),
        (GATE_UNLOCKED_FAIL_SAFE, False, 0.0),
        (GATE_ACTIVE_LOW, True, 1.0),
    ],
    ids=["locked-fail-safe", "unlocked-fail-safe", "active-low-driver"],
)
def test_the_gate_starts_and_ends_in_its_fail_safe_state(
    table: Make, text: str, fail_safe_locked: bool, de_energised_level: float
) -> None:
    sim, io = table(text)
    assert sim.level("gate") == de_energised_level  # on start: de-energised
    assert sim.gate_locked is fail_safe_locked
    assert all(level == de_energised_level for level in levels(sim, "gate"))  # never left it
    io.execute(UnlockShoe() if fail_safe_locked else LockShoe())
    assert sim.level("gate") == 1.0 - de_energised_level  # energised: away from fail-safe
    assert sim.gate_locked is not fail_safe_locked
    io.close()  # the controller stops
    assert sim.level("gate") == de_energised_level
    assert sim.gate_locked is fail_safe_locked
    assert levels(sim, "gate")[-1] == de_energised_level


def test_lock_and_unlock_drive_the_gate(table: Make) -> None:
    sim, io = table(GATE_UNLOCKED_FAIL_SAFE)
    io.execute(LockShoe())
    assert sim.gate_locked is True and io.outputs is not None and io.outputs.gate_locked
    io.execute(LockShoe())
    io.execute(UnlockShoe())
    assert levels(sim, "gate") == [1.0, 0.0]


# --- the dealer-button display -------------------------------------------------------------


def most_seats_ever_lit(sim: SimTable) -> int:
    """Replay every pin change in order; the most seat lamps lit at any one instant."""
    assert sim.pinmap.position is not None
    seats = set(sim.pinmap.position.pins)
    lit: set[int] = set()
    most = 0
    for change in sim.changes():
        if change.gpio in seats:
            (lit.add if change.level > 0.5 else lit.discard)(change.gpio)
            most = max(most, len(lit))
    return most


def test_the_button_display_never_shows_two_seats(table: Make) -> None:
    sim, io = table(POKER)
    for seat in (3, 1, 8, 2, 2, None, 5, 4, 7, 6):
        io.execute(ShowButtonPosition(seat))
        assert sim.lit_seats() == ([] if seat is None else [seat])
    assert most_seats_ever_lit(sim) == 1


def test_a_seat_off_the_table_is_refused(table: Make) -> None:
    sim, io = table(POKER)
    io.execute(ShowButtonPosition(4))
    with pytest.raises(BadCommand, match="seat 9"):
        io.execute(ShowButtonPosition(9))
    assert sim.lit_seats() == [4]


# --- the limit sign (rule 11.5) -------------------------------------------------------------


def test_11_5_limit_sign_shows_minimum_and_maximum(table: Make) -> None:
    sim, io = table(POKER)
    io.execute(ShowLimits(minimum=10, maximum=500))
    assert sim.lcd is not None
    assert sim.lcd.lines == ("TABLE LIMITS", "MIN $10 MAX $500")
    io.execute(ShowLimits(minimum=25, maximum=10000))
    assert sim.lcd.lines == ("TABLE LIMITS", "MIN $25-$10000")
    assert [lines for _, lines in sim.lcd.history][-1] == sim.lcd.lines


def test_11_5_reversed_limits_are_refused(table: Make) -> None:
    _, io = table(POKER)
    with pytest.raises(BadCommand, match=r"rule 11\.5"):
        io.execute(ShowLimits(minimum=500, maximum=10))


def test_limit_lines_never_cut_a_number() -> None:
    assert limit_lines(5, 50, columns=16, rows=1, currency="") == ["MIN 5 MAX 50"]
    assert limit_lines(10, 500, columns=8, rows=2, currency="$") == ["$10-$500"]
    with pytest.raises(BadCommand, match="do not fit"):
        limit_lines(100000, 1000000, columns=8, rows=2, currency="$")


# --- routing --------------------------------------------------------------------------------


def test_outputs_not_in_the_pin_map_are_refused_not_ignored(table: Make) -> None:
    _, io = table(BLACKJACK)
    assert not io.handles(ShowLimits(10, 500))
    assert not io.handles(ShowButtonPosition(1))
    assert io.handles(LockShoe()) and io.handles(SetLamp(Lamp.HOLD, LampPattern.STEADY))
    with pytest.raises(OutputNotFitted, match="limit sign"):
        io.execute(ShowLimits(10, 500))
    _, poker = table(POKER)
    assert not poker.handles(SetLamp(Lamp.INSURANCE_OPEN, LampPattern.STEADY))
    with pytest.raises(OutputNotFitted, match="insurance_open"):
        poker.execute(SetLamp(Lamp.INSURANCE_OPEN, LampPattern.STEADY))
    with pytest.raises(OutputNotFitted, match="gate"):
        poker.execute(UnlockShoe())
