"""Tests that bite (`make mutate`): the RDM6300 reader's card path (drivers/rfid.py).

What they pin: the RDM6300's line settings (docs/protocol.md "RDM6300": 9600 baud; a short
read timeout), the one-read-per-pass window (`hold`) and the reconnect backoff the caller
gives, the junk-byte count across reads, and the words of a lost line and a failed close,
which name the port. A scripted line (`ScriptedLine`) stands in for the port, so each test
controls exactly which bytes each read returns; no test sleeps, each waits on the queue."""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time

import pytest
import serial

from controller.cards import Card
from controller.ports import CardDrawn, DeviceLost, Event
from drivers.deck import DeckEnrolment, parse_deck
from drivers.errors import DeviceNotFound
from drivers.rfid import Rdm6300Reader, open_rdm6300
from firmware_bridge.rdm6300 import encode

ACE, MARKER = "0F002A3B5C", "0F002A3B5E"
URL = "scripted://rdm6300"
WAIT = 5.0


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class ScriptedLine:
    """A port that returns the chunks it was given, one chunk (or less) per read."""

    def __init__(self, *, close_error: OSError | None = None) -> None:
        self._chunks: collections.deque[bytes] = collections.deque()
        self._lock = threading.Lock()
        self.sizes: list[int] = []  # every size the driver asked for
        self.failure: Exception | None = None
        self.close_error = close_error
        self.closed = False

    def send(self, data: bytes) -> None:
        with self._lock:
            self._chunks.append(data)

    @property
    def in_waiting(self) -> int:
        with self._lock:
            return len(self._chunks[0]) if self._chunks else 0

    def read(self, size: int = 1) -> bytes:
        if self.failure is not None:
            raise self.failure
        with self._lock:
            self.sizes.append(size)
            chunk = self._chunks.popleft() if self._chunks else b""
            if len(chunk) > size:
                self._chunks.appendleft(chunk[size:])
                chunk = chunk[:size]
        if not chunk:
            time.sleep(0.002)  # the port's read timeout, shortened
        return chunk

    def close(self) -> None:
        self.closed = True
        if self.close_error is not None:
            raise self.close_error


@pytest.fixture
def deck() -> DeckEnrolment:
    return parse_deck([f"{ACE} As", f"{MARKER} 2c"], source="test-deck")


def reader_on(
    line: ScriptedLine,
    deck: DeckEnrolment,
    events: queue.Queue[Event],
    clock: ManualClock | None = None,
    hold: float | None = None,
) -> Rdm6300Reader:
    if hold is not None:  # given: the reader's own default (1 s) is not used
        return Rdm6300Reader(
            URL, deck, events, name="shoe-rfid", clock=clock or ManualClock(),
            opener=lambda url: line, hold=hold,
        )  # fmt: skip
    return Rdm6300Reader(
        URL,
        deck,
        events,
        name="shoe-rfid",
        clock=clock or ManualClock(),
        opener=lambda url: line,
    )


def drawn(card: str, tag: str) -> CardDrawn:
    return CardDrawn(source="shoe-rfid", card=Card.parse(card), tag=tag)


def test_rdm6300_line_is_opened_at_9600_baud_with_a_short_read_timeout() -> None:
    port = open_rdm6300("loop://")
    try:
        assert port.baudrate == 9600  # type: ignore[attr-defined]
        assert port.timeout == 0.05  # type: ignore[attr-defined]
    finally:
        port.close()


def test_rdm6300_reads_what_is_waiting_and_never_waits_for_a_second_byte(
    deck: DeckEnrolment,
) -> None:
    """With nothing waiting the driver asks for one byte, so a frame's last byte is handed
    on as soon as it comes, not held back for the port's timeout."""
    line, events = ScriptedLine(), queue.Queue[Event]()
    frame = encode(ACE)
    line.send(frame[:13])  # thirteen bytes waiting at the first read, then the last one
    line.send(frame[13:])
    with reader_on(line, deck, events):
        assert events.get(timeout=WAIT) == drawn("As", ACE)
    assert 13 in line.sizes  # all that was waiting, in one read
    assert set(line.sizes) <= {1, 13}


def test_rdm6300_one_read_per_pass_with_the_default_one_second_window(
    deck: DeckEnrolment,
) -> None:
    line, events, clock = ScriptedLine(), queue.Queue[Event](), ManualClock()
    with reader_on(line, deck, events, clock=clock):
        line.send(encode(ACE))
        assert events.get(timeout=WAIT) == drawn("As", ACE)
        clock.now += 1.5  # out of the field for more than a second: a second pass
        line.send(encode(ACE))
        assert events.get(timeout=WAIT) == drawn("As", ACE)


def test_rdm6300_the_window_given_is_the_one_used(deck: DeckEnrolment) -> None:
    line, events, clock = ScriptedLine(), queue.Queue[Event](), ManualClock()
    with reader_on(line, deck, events, clock=clock, hold=5.0) as reader:
        line.send(encode(ACE))
        assert events.get(timeout=WAIT) == drawn("As", ACE)
        clock.now += 3.0  # within five seconds: the same pass
        line.send(encode(ACE))
        line.send(encode(MARKER))
        assert events.get(timeout=WAIT) == drawn("2c", MARKER)
        assert reader.stats["repeats"] == 1


def test_rdm6300_junk_bytes_are_counted_across_reads(deck: DeckEnrolment) -> None:
    line, events = ScriptedLine(), queue.Queue[Event]()
    with reader_on(line, deck, events) as reader:
        line.send(b"\x00\x11\x22")  # three bytes of line noise
        line.send(b"\x33\x44" + encode(MARKER))  # two more, then a card
        assert events.get(timeout=WAIT) == drawn("2c", MARKER)
        assert reader.stats["junk-bytes"] == 5


def test_rdm6300_a_failed_read_is_device_lost_naming_the_port(deck: DeckEnrolment) -> None:
    line, events = ScriptedLine(), queue.Queue[Event]()
    opened: list[str] = []

    def opener(url: str) -> ScriptedLine:
        if opened:
            raise DeviceNotFound(f"no device at {url}")
        opened.append(url)
        return line

    reader = Rdm6300Reader(URL, deck, events, name="shoe-rfid", opener=opener)
    with reader:
        line.failure = serial.SerialException("cable pulled")
        lost = events.get(timeout=WAIT)
    assert lost == DeviceLost(
        source="shoe-rfid", reason=f"read failed on {URL}: cable pulled", resends=False
    )


def test_rdm6300_reconnects_at_the_backoff_given(deck: DeckEnrolment) -> None:
    """A line that stays gone is retried at the caller's pace: eight tries within two
    seconds at 1 ms (the default, 50 ms doubling to 2 s, takes over five)."""
    line, events = ScriptedLine(), queue.Queue[Event]()
    tries: list[float] = []
    eighth = threading.Event()

    def opener(url: str) -> ScriptedLine:
        if not tries:
            tries.append(time.monotonic())
            return line
        tries.append(time.monotonic())
        if len(tries) > 8:
            eighth.set()
        raise DeviceNotFound(f"no device at {url}")

    with Rdm6300Reader(URL, deck, events, opener=opener, backoff=(0.001, 0.001)):
        line.failure = OSError("gone")
        assert isinstance(events.get(timeout=WAIT), DeviceLost)
        assert eighth.wait(2.0)


def test_rdm6300_start_and_a_failed_close_name_the_port(
    deck: DeckEnrolment, caplog: pytest.LogCaptureFixture
) -> None:
    line, events = ScriptedLine(close_error=OSError("adapter gone")), queue.Queue[Event]()
    with caplog.at_level(logging.DEBUG), reader_on(line, deck, events):
        pass
    messages = [r.getMessage() for r in caplog.records]
    assert f"shoe-rfid: rdm6300 card source on {URL}" in messages
    assert f"error closing {URL}: adapter gone" in messages
    assert line.closed
