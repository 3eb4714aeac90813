"""The serial shoe driver against the simulated shoe over a real pseudo-terminal (and TCP).

A card leaves the simulated shoe, crosses a real serial line byte by byte through a line
that corrupts, splits, duplicates and drops, and reaches the driver's queue exactly once,
in order; the controller's acknowledgement (after "journaling") is what lets the shoe
forget it.
"""

from __future__ import annotations

import logging
import queue
import random
import time
from collections.abc import Iterator

import pytest

from controller.cards import DECK, Card
from controller.ports import (
    CardDrawn,
    ChipsSensed,
    DeviceFault,
    DeviceHello,
    DeviceLost,
    DeviceRestored,
    Event,
    Fault,
    LockShoe,
    ShoeStatusChanged,
    UnlockShoe,
)
from drivers import transport
from drivers.errors import DeviceNotFound
from drivers.serial_device import SerialDevice
from firmware_bridge import messages as m
from firmware_bridge.frame import encode_frame
from sim_hardware.device import DeviceRefused, SimulatedChipReader
from sim_hardware.faults import FaultyLink, LineFaults
from sim_hardware.link import Link, PtyLink, TcpLink
from sim_hardware.shoe import SimulatedShoe

WAIT = 10.0


class Controller:
    """Stands in for the controller thread: takes events off the queue, "journals" them,
    then acknowledges, exactly as the event loop does."""

    def __init__(self, driver: SerialDevice) -> None:
        self.driver = driver
        self.journal: list[Event] = []

    def drain(self, block: bool = False) -> None:
        while True:
            try:
                event = self.driver.events.get(timeout=WAIT if block else 0)
            except queue.Empty:
                if block:
                    raise AssertionError(f"no event within {WAIT} s") from None
                return
            self.journal.append(event)
            seq = getattr(event, "seq", None)
            if seq is not None:
                self.driver.acknowledge(seq)
            block = False

    def until(self, kind: type[Event]) -> Event:
        """Drain until an event of ``kind`` arrives (waiting, never sleeping)."""
        start = len(self.journal)
        while True:
            for event in self.journal[start:]:
                if isinstance(event, kind):
                    return event
            start = len(self.journal)
            self.drain(block=True)

    def until_acknowledged(self, device: SimulatedShoe) -> bool:
        """Go on taking events (and ACKing them) until the device has had an ACK for all it
        sent: a status sent after the last card may still be on a faulty line."""
        deadline = time.monotonic() + WAIT
        while not device.wait_until_acknowledged(0.05):
            self.drain()
            if time.monotonic() > deadline:
                return False
        return True

    def cards(self) -> list[Card]:
        return [e.card for e in self.journal if isinstance(e, CardDrawn)]


@pytest.fixture
def pty() -> Iterator[PtyLink]:
    link = PtyLink()
    yield link
    link.close()


def faulty(link: Link, seed: int) -> FaultyLink:
    out = LineFaults(random.Random(seed), corrupt=0.02, split=0.05, duplicate=0.02, drop=0.02)
    back = LineFaults(random.Random(seed + 1), corrupt=0.01, drop=0.01, duplicate=0.01)
    return FaultyLink(link, outbound=out, inbound=back)


def random_cards(n: int, seed: int) -> list[Card]:
    rng = random.Random(seed)
    return [rng.choice(DECK) for _ in range(n)]


def deal(shoe: SimulatedShoe, ctl: Controller, n: int, pull_at: tuple[int, ...] = ()) -> None:
    for i in range(n):
        shoe.draw()
        if i in pull_at:
            shoe.link.disconnect()  # the cable comes out mid-stream...
            ctl.until(DeviceLost)
            shoe.link.reconnect()  # ...and goes back in
            ctl.until(DeviceRestored)
        ctl.drain()
    while len(ctl.cards()) < n:
        ctl.drain(block=True)


def test_2000_cards_through_a_faulty_line_arrive_exactly_once_in_order(pty: PtyLink) -> None:
    cards = random_cards(2000, seed=11)
    line = faulty(pty, seed=12)
    with (
        SimulatedShoe(line, cards=cards, rng=random.Random(13)) as shoe,
        SerialDevice(pty.url, queue.Queue(), resend_interval=0.05) as driver,
    ):
        ctl = Controller(driver)
        deal(shoe, ctl, len(cards))
        assert ctl.cards() == cards
        seqs = [e.seq for e in ctl.journal if isinstance(e, CardDrawn)]
        assert len(set(seqs)) == len(seqs)
        assert line.outbound is not None and line.outbound.counts["drop"] > 0
        assert line.outbound.counts["corrupt"] > 0 and line.outbound.counts["duplicate"] > 0
        assert driver.session.counters.duplicates > 0  # the duplicates were really there
        assert ctl.until_acknowledged(shoe)


def test_2000_cards_with_the_cable_pulled_twice(pty: PtyLink) -> None:
    cards = random_cards(2000, seed=21)
    with (
        SimulatedShoe(faulty(pty, seed=22), cards=cards, rng=random.Random(23)) as shoe,
        SerialDevice(pty.url, queue.Queue(), resend_interval=0.05) as driver,
    ):
        ctl = Controller(driver)
        deal(shoe, ctl, len(cards), pull_at=(700, 1400))
        assert ctl.cards() == cards
        assert sum(isinstance(e, DeviceLost) for e in ctl.journal) == 2
        assert sum(isinstance(e, DeviceRestored) for e in ctl.journal) == 2
        assert shoe.link.connected


def test_over_a_tcp_socket_url() -> None:
    link = TcpLink()
    cards = random_cards(300, seed=31)
    with (
        SimulatedShoe(faulty(link, seed=32), cards=cards, rng=random.Random(33)) as shoe,
        SerialDevice(link.url, queue.Queue(), resend_interval=0.05) as driver,
    ):
        ctl = Controller(driver)
        deal(shoe, ctl, len(cards), pull_at=(150,))
        assert ctl.cards() == cards


def test_the_shoe_forgets_a_card_only_after_the_controller_acknowledges(pty: PtyLink) -> None:
    with (
        SimulatedShoe(pty, decks=1) as shoe,
        SerialDevice(pty.url, queue.Queue()) as driver,
    ):
        card = shoe.draw()
        event = driver.events.get(timeout=WAIT)
        while not isinstance(event, CardDrawn):
            event = driver.events.get(timeout=WAIT)
        assert event.card == card and shoe.session.unacknowledged == 1
        assert event.seq is not None
        driver.acknowledge(event.seq)
        assert shoe.wait_until_acknowledged(WAIT)


def test_hello_reports_the_device(pty: PtyLink) -> None:
    with (
        SimulatedShoe(pty, serial_number="SHOE-42") as _,
        SerialDevice(pty.url, queue.Queue()) as d,
    ):
        hello = Controller(d).until(DeviceHello)
        assert isinstance(hello, DeviceHello)
        assert (hello.device_kind, hello.serial_number, hello.protocol_version) == (
            "shoe",
            "SHOE-42",
            1,
        )


def test_gate_lock_reaches_the_shoe_and_it_refuses_to_deal(pty: PtyLink) -> None:
    with SimulatedShoe(pty) as shoe, SerialDevice(pty.url, queue.Queue()) as driver:
        ctl = Controller(driver)
        ctl.until(DeviceHello)
        driver.execute(LockShoe())
        status = ctl.until(ShoeStatusChanged)
        assert isinstance(status, ShoeStatusChanged) and status.gate_locked
        with pytest.raises(DeviceRefused, match="locked"):
            shoe.draw()
        driver.execute(UnlockShoe())
        assert shoe.wait_for(lambda: not shoe.gate_locked, WAIT)
        shoe.draw()
        ctl.until(CardDrawn)


def test_the_cut_card_is_reported(pty: PtyLink) -> None:
    with (
        SimulatedShoe(pty, decks=1, cut_card_at=2) as shoe,
        SerialDevice(pty.url, queue.Queue()) as driver,
    ):
        ctl = Controller(driver)
        for _ in range(3):
            shoe.draw()
        status = ctl.until(ShoeStatusChanged)
        assert isinstance(status, ShoeStatusChanged) and status.cut_card_seen
        while len(ctl.cards()) < 3:
            ctl.drain(block=True)
        kinds = [type(e).__name__ for e in ctl.journal if not isinstance(e, DeviceHello)]
        assert kinds == ["CardDrawn", "CardDrawn", "ShoeStatusChanged", "CardDrawn"]


@pytest.mark.parametrize(
    ("reliable", "raw", "fault"),
    [
        (True, (m.MessageType.CARD_DRAWN, b"Zz\x00\x00\x00\x00"), Fault.BAD_CARD),
        (True, (m.MessageType.SHOE_STATUS, b""), Fault.MALFORMED),
        (False, encode_frame(0x7E, 0), Fault.UNKNOWN_MESSAGE),
        (False, b"\x00" + b"\x05" * 200 + b"\x00", Fault.OVERSIZE),
        (False, encode_frame(m.MessageType.HELLO, 0, bytes([9, 1, 0])), Fault.UNSUPPORTED_VERSION),
        (
            False,
            encode_frame(m.MessageType.CARD_DRAWN, 1, b"As\x00\x00\x00\x00")[:-2],
            Fault.BAD_CRC,
        ),
    ],
    ids=["bad-card", "malformed", "unknown-message", "oversize", "unsupported-version", "bad-crc"],
)
def test_bad_input_gives_a_named_fault_and_loses_nothing(
    pty: PtyLink, reliable: bool, raw: bytes | tuple[int, bytes], fault: Fault
) -> None:
    with SimulatedShoe(pty) as shoe, SerialDevice(pty.url, queue.Queue()) as driver:
        ctl = Controller(driver)
        ctl.until(DeviceHello)
        first = shoe.draw()
        ctl.until(CardDrawn)
        if isinstance(raw, tuple):
            shoe.send_reliable_frame(*raw)  # intact frame, wrong content: it takes a number
        else:
            shoe.send_raw(raw)
        reported = ctl.until(DeviceFault)
        assert isinstance(reported, DeviceFault) and reported.fault is fault
        assert (reported.seq is not None) is reliable
        second = shoe.draw()
        while len(ctl.cards()) < 2:
            ctl.drain(block=True)
        assert ctl.cards() == [first, second]  # nothing recorded was lost, nothing doubled
        assert driver.faults == 1
        assert shoe.wait_until_acknowledged(WAIT)  # the faulty message was recorded and ACKed


def test_a_bad_crc_is_naked_counted_and_logged(
    pty: PtyLink, caplog: pytest.LogCaptureFixture
) -> None:
    with SimulatedShoe(pty) as shoe, SerialDevice(pty.url, queue.Queue()) as driver:
        ctl = Controller(driver)
        ctl.until(DeviceHello)
        frame = bytearray(encode_frame(m.MessageType.HEARTBEAT, 0))
        frame[3] ^= 0x40
        with caplog.at_level(logging.WARNING, logger="drivers.serial_device"):
            shoe.send_raw(bytes(frame))
            ctl.until(DeviceFault)
        assert driver.session.counters.bad_frames == 1
        assert driver.session.counters.naks_sent == 1
        assert "bad-crc" in caplog.text


def test_a_missing_port_refuses_to_start(tmp_path: object) -> None:
    with pytest.raises(DeviceNotFound, match="no device at /nonexistent/ttyUSB9"):
        SerialDevice("/nonexistent/ttyUSB9", queue.Queue()).start()


def test_a_silent_device_is_reported_lost(pty: PtyLink) -> None:
    """Nobody answers on the line: after the heartbeat timeout the device is lost."""
    with SerialDevice(pty.url, queue.Queue(), heartbeat_timeout=0.2) as driver:
        lost = Controller(driver).until(DeviceLost)
        assert isinstance(lost, DeviceLost) and "no word" in lost.reason


def test_low_latency_is_asked_of_usb_adapters_and_a_refusal_is_logged(
    pty: PtyLink, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert not transport.is_usb_serial(pty.url)  # a pty is not a USB adapter
    monkeypatch.setattr(transport, "is_usb_serial", lambda path: True)
    with caplog.at_level(logging.WARNING, logger="drivers.transport"):
        port = transport.open_transport(pty.url)  # the pty refuses TIOCSSERIAL
        port.close()
    assert "cannot set low-latency mode" in caplog.text


def test_a_chip_reader_reports_the_value_on_a_spot(pty: PtyLink) -> None:
    with SimulatedChipReader(pty) as reader, SerialDevice(pty.url, queue.Queue()) as driver:
        ctl = Controller(driver)
        hello = ctl.until(DeviceHello)
        assert isinstance(hello, DeviceHello) and hello.device_kind == "chip_reader"
        reader.sense("box3", 250)
        reader.sense("insurance3", 100)
        ctl.until(ChipsSensed)
        while sum(isinstance(e, ChipsSensed) for e in ctl.journal) < 2:
            ctl.drain(block=True)
        sensed = [(e.spot, e.total) for e in ctl.journal if isinstance(e, ChipsSensed)]
        assert sensed == [("box3", 250), ("insurance3", 100)]
        assert reader.wait_until_acknowledged(WAIT)
