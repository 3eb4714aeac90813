"""The RDM6300 reader driver over a real pseudo-terminal, fed by the simulated reader.

No test sleeps: each waits on the event queue with a timeout. A marker tag presented last
proves that everything before it was read (the driver handles bytes in order).

The test_rdm6300_* tests pin the line settings (docs/protocol.md "RDM6300": 9600 baud; a
short read timeout), the one-read-per-pass window (`hold`) and the reconnect backoff the
caller gives, the junk-byte count across reads, and the words of a lost line and a failed
close, which name the port. A scripted line (`ScriptedLine`) stands in for the port there,
so each test controls exactly which bytes each read returns.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.cards import Card
from controller.errors import ConfigError
from controller.ports import (
    CardDrawn,
    DeviceFault,
    DeviceLost,
    DeviceRestored,
    Event,
    Fault,
    ShoeStatusChanged,
)
from drivers.deck import DeckEnrolment, parse_deck
from drivers.errors import DeviceNotFound
from drivers.rfid import Rdm6300Reader, open_rdm6300
from firmware_bridge.rdm6300 import encode
from sim_hardware.rdm6300 import SimulatedRdm6300

ACE = "0F002A3B5C"
TEN = "0F002A3B5D"
MARKER = "0F002A3B5E"
STRANGER = "1122334455"
WAIT = 5.0


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def deck() -> DeckEnrolment:
    return parse_deck([f"{ACE} As", f"{TEN} Td", f"{MARKER} 2c"], source="test-deck")


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[SimulatedRdm6300]:
    with SimulatedRdm6300(link=tmp_path / "rdm6300") as reader:
        yield reader


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


@pytest.fixture
def driver(
    sim: SimulatedRdm6300, deck: DeckEnrolment, events: queue.Queue[Event], clock: ManualClock
) -> Iterator[Rdm6300Reader]:
    reader = Rdm6300Reader(
        sim.path, deck, events, name="shoe-rfid", clock=clock, backoff=(0.01, 0.05)
    )
    reader.start()
    yield reader
    reader.close()


def next_event(events: queue.Queue[Event]) -> Event:
    return events.get(timeout=WAIT)


TAG_OF = {"As": ACE, "Td": TEN, "2c": MARKER}


def drawn(card: str, source: str = "shoe-rfid") -> CardDrawn:
    """The event for one pass of the card's tag: the card, and the tag it was read by."""
    return CardDrawn(source=source, card=Card.parse(card), tag=TAG_OF[card])


def until_marker(events: queue.Queue[Event]) -> list[Event]:
    seen: list[Event] = []
    while (event := next_event(events)) != drawn("2c"):
        seen.append(event)
    return seen


def test_one_presentation_is_one_card_drawn(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    sim.present(ACE, repeats=8)
    sim.present(MARKER, repeats=2)
    assert until_marker(events) == [drawn("As")]
    assert driver.stats["reads"] == 2
    assert driver.stats["repeats"] == 8


def test_the_same_tag_presented_again_after_the_hold_is_a_second_read(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event], clock: ManualClock
) -> None:
    sim.present(TEN, repeats=3)
    sim.present(MARKER)
    assert until_marker(events) == [drawn("Td")]
    clock.now += 5.0  # the card left the field and came back
    sim.present(TEN, repeats=3)
    assert next_event(events) == drawn("Td")


def test_unknown_tag_is_a_fault_once_per_presentation(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    sim.present(STRANGER, repeats=4)
    sim.present(MARKER)
    assert until_marker(events) == [
        DeviceFault(source="shoe-rfid", fault=Fault.UNKNOWN_TAG, detail=STRANGER)
    ]
    assert driver.stats["unknown-tag"] == 1


def test_bad_checksum_is_a_fault_and_the_good_repeat_still_reads(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    sim.present(ACE, repeats=1, bad_checksum=True)
    sim.present(ACE, repeats=2)
    sim.present(MARKER)
    fault, card = until_marker(events)
    assert isinstance(fault, DeviceFault) and fault.fault is Fault.BAD_CHECKSUM
    assert "0F002A3B5C" in fault.detail
    assert card == drawn("As")
    assert driver.stats["bad-checksum"] == 1


def test_junk_and_a_broken_frame_are_faults_and_do_not_hide_the_next_card(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    frame = encode(TEN)
    sim.send(b"\x00\xffnoise" + frame[:6] + b"?" + frame)
    sim.present(MARKER)
    fault, card = until_marker(events)
    assert isinstance(fault, DeviceFault) and fault.fault is Fault.MALFORMED
    assert card == drawn("Td")
    assert driver.stats["malformed"] == 1
    assert driver.stats["junk-bytes"] >= 7


def test_a_frame_split_across_writes_reads(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    frame = encode(ACE)
    for i in range(0, len(frame), 3):
        sim.send(frame[i : i + 3])
    assert next_event(events) == drawn("As")


def test_pulled_line_is_device_lost_then_restored_and_reading_resumes(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    sim.present(ACE)
    assert next_event(events) == drawn("As")
    sim.unplug()
    lost = next_event(events)
    assert isinstance(lost, DeviceLost) and lost.source == "shoe-rfid"
    sim.replug()
    assert next_event(events) == DeviceRestored(source="shoe-rfid")
    sim.present(TEN)
    assert next_event(events) == drawn("Td")
    assert driver.stats["lost"] == driver.stats["restored"] == 1


def test_a_missing_reader_at_start_is_an_error_not_a_silent_nothing(
    tmp_path: Path, deck: DeckEnrolment, events: queue.Queue[Event]
) -> None:
    reader = Rdm6300Reader(str(tmp_path / "no-such-tty"), deck, events)
    with pytest.raises(DeviceNotFound):
        reader.start()
    reader.close()


def test_close_twice_is_harmless(driver: Rdm6300Reader) -> None:
    driver.close()
    driver.close()


def test_simulator_writes_to_any_serial_object(
    deck: DeckEnrolment, events: queue.Queue[Event]
) -> None:
    line = serial.serial_for_url("loop://", timeout=0.05)
    sim = SimulatedRdm6300(line)
    with Rdm6300Reader("loop://", deck, events, opener=lambda url: line):
        sim.present(MARKER, repeats=2)
        assert next_event(events) == drawn("2c", source="rfid")
    sim.close()
    assert not line.is_open


def test_a_tagged_cutting_card_is_a_shoe_status_edge(events: queue.Queue[Event]) -> None:
    deck = parse_deck([f"{ACE} As", f"{STRANGER} CUT"], source="cut-deck")
    assert deck.is_cutting_card(STRANGER.lower()) and len(deck) == 1
    with SimulatedRdm6300() as sim, Rdm6300Reader(sim.path, deck, events) as reader:
        sim.present(STRANGER, repeats=4)
        sim.present(ACE)
        seen = [next_event(events), next_event(events)]
        assert [e.cut_card_seen for e in seen if isinstance(e, ShoeStatusChanged)] == [
            True,
            False,
        ]
        assert next_event(events) == CardDrawn(source="rfid", card=Card.parse("As"), tag=ACE)
        assert reader.stats["cutting-card"] == 1


def test_a_lost_rfid_reader_says_it_cannot_resend(
    sim: SimulatedRdm6300, driver: Rdm6300Reader, events: queue.Queue[Event]
) -> None:
    sim.unplug()
    lost = next_event(events)
    assert isinstance(lost, DeviceLost) and lost.resends is False


def test_a_cutting_card_tag_in_two_decks_is_refused() -> None:
    one = parse_deck([f"{STRANGER} CUT"], source="one")
    two = parse_deck([f"{STRANGER} cut"], source="two")
    with pytest.raises(ConfigError, match="already enrolled at one:1"):
        DeckEnrolment.combine(one, two)


URL = "scripted://rdm6300"


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
        assert events.get(timeout=WAIT) == drawn("As")
    assert 13 in line.sizes  # all that was waiting, in one read
    assert set(line.sizes) <= {1, 13}


def test_rdm6300_one_read_per_pass_with_the_default_one_second_window(
    deck: DeckEnrolment,
) -> None:
    line, events, clock = ScriptedLine(), queue.Queue[Event](), ManualClock()
    with reader_on(line, deck, events, clock=clock):
        line.send(encode(ACE))
        assert events.get(timeout=WAIT) == drawn("As")
        clock.now += 1.5  # out of the field for more than a second: a second pass
        line.send(encode(ACE))
        assert events.get(timeout=WAIT) == drawn("As")


def test_rdm6300_the_window_given_is_the_one_used(deck: DeckEnrolment) -> None:
    line, events, clock = ScriptedLine(), queue.Queue[Event](), ManualClock()
    with reader_on(line, deck, events, clock=clock, hold=5.0) as reader:
        line.send(encode(ACE))
        assert events.get(timeout=WAIT) == drawn("As")
        clock.now += 3.0  # within five seconds: the same pass
        line.send(encode(ACE))
        line.send(encode(MARKER))
        assert events.get(timeout=WAIT) == drawn("2c")
        assert reader.stats["repeats"] == 1


def test_rdm6300_junk_bytes_are_counted_across_reads(deck: DeckEnrolment) -> None:
    line, events = ScriptedLine(), queue.Queue[Event]()
    with reader_on(line, deck, events) as reader:
        line.send(b"\x00\x11\x22")  # three bytes of line noise
        line.send(b"\x33\x44" + encode(MARKER))  # two more, then a card
        assert events.get(timeout=WAIT) == drawn("2c")
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
