"""The RDM6300 reader driver over a real pseudo-terminal, fed by the simulated reader.

No test sleeps: each waits on the event queue with a timeout. A marker tag presented last
proves that everything before it was read (the driver handles bytes in order).
"""

from __future__ import annotations

import queue
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
from drivers.rfid import Rdm6300Reader
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
