"""An RDM6300 that loses its power is a lost reader, not a quiet shoe: with ``power_line``
the driver watches the serial adapter's input wired to the reader's supply (docs/rfid.md).

The line is pyserial's own ``loop://`` port, whose CTS follows its RTS (and DSR its DTR),
so the test drops and restores the "supply" by setting RTS. No test sleeps: each waits on
the event queue with a timeout."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.app.config import parse_config
from controller.errors import ConfigError
from controller.ports import CardDrawn, DeviceLost, DeviceRestored, Event
from drivers.deck import parse_deck
from drivers.rfid import Rdm6300Reader
from firmware_bridge.rdm6300 import encode

ROOT = Path(__file__).resolve().parents[2]
ACE = "0F002A3B5C"
WAIT = 5.0


@pytest.fixture
def line() -> Iterator[serial.SerialBase]:
    port = serial.serial_for_url("loop://", timeout=0.02)
    yield port
    port.close()


def next_of(events: queue.Queue[Event], kind: type) -> Event:
    while True:
        event = events.get(timeout=WAIT)
        if isinstance(event, kind):
            return event


def reader(line: serial.SerialBase, events: queue.Queue[Event], **options: object) -> Rdm6300Reader:
    deck = parse_deck([f"{ACE} As"], source="test-deck")
    return Rdm6300Reader("loop://", deck, events, opener=lambda url: line, **options)  # type: ignore[arg-type]


def test_a_reader_that_loses_its_power_is_lost_and_back_when_powered(
    line: serial.SerialBase,
) -> None:
    events: queue.Queue[Event] = queue.Queue()
    rfid = reader(line, events, power_line="cts").start()
    try:
        line.rts = False  # the reader's supply drops; the adapter stays up
        lost = next_of(events, DeviceLost)
        assert isinstance(lost, DeviceLost) and not lost.resends
        assert "no power" in lost.reason and "CTS" in lost.reason
        line.rts = True
        next_of(events, DeviceRestored)
        line.write(encode(ACE))
        drawn = next_of(events, CardDrawn)
        assert isinstance(drawn, CardDrawn) and str(drawn.card) == "As"
    finally:
        rfid.close()


def test_without_a_power_line_the_supply_is_not_watched(line: serial.SerialBase) -> None:
    events: queue.Queue[Event] = queue.Queue()
    rfid = reader(line, events).start()
    try:
        line.rts = False
        line.write(encode(ACE))  # read as ever: nothing says the line carries the supply
        drawn = next_of(events, CardDrawn)
        assert isinstance(drawn, CardDrawn)
    finally:
        rfid.close()


def test_only_the_adapters_inputs_can_carry_the_supply() -> None:
    with pytest.raises(ValueError, match="cts, dsr, cd"):
        reader(serial.serial_for_url("loop://"), queue.Queue(), power_line="rts")


@pytest.mark.parametrize(
    ("shoe", "message"),
    [
        ('protocol = "rdm6300"\nurl = "sim://"\npower_line = "rts"', "must be one of cts, dsr, cd"),
        ('url = "sim://"\npower_line = "cts"', "only an rdm6300 reader's supply is watched"),
    ],
    ids=["not-an-input", "not-an-rdm6300"],
)
def test_the_config_names_a_power_line_it_cannot_watch(shoe: str, message: str) -> None:
    text = (ROOT / "examples" / "blackjack-table.toml").read_text()
    start, end = text.index("[shoe]"), text.index("[display]")
    with pytest.raises(ConfigError, match=r"shoe\.power_line") as caught:
        parse_config(text[:start] + f"[shoe]\n{shoe}\n\n" + text[end:], source="t.toml")
    assert message in str(caught.value)
