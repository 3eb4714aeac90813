"""Players' card readers at the boxes: the RDM6300 module over a real pseudo-terminal (fed
by the simulated reader) and the USB reader that types the number (over a fake pyusb
backend, the real pyusb code on top). No test sleeps: each waits on the queue."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.ports import CardDrawn, DeviceLost, DeviceRestored, Event, PlayerCardPresented
from drivers.errors import DeviceError, DeviceNotFound
from drivers.player_cards import HidPlayerCards, Rdm6300PlayerCards, player_card_reader
from drivers.registry import CardSourceUnavailable
from sim_hardware.rdm6300 import SimulatedRdm6300
from tests.support.usb import PID, VID, FakeReaderBackend

CARD = "0F00A1B2C3"  # a player card's 125 kHz tag
OTHER = "0F00A1B2C4"
WAIT = 5.0


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[SimulatedRdm6300]:
    with SimulatedRdm6300(link=tmp_path / "box3-reader") as reader:
        yield reader


@pytest.fixture
def serial_reader(
    sim: SimulatedRdm6300, events: queue.Queue[Event]
) -> Iterator[Rdm6300PlayerCards]:
    reader = player_card_reader("rdm6300", sim.path, 3, events, backoff=(0.01, 0.05))
    assert isinstance(reader, Rdm6300PlayerCards)
    reader.start()
    yield reader
    reader.close()


def presented(number: str, box: int = 3, source: str = "player-cards-3") -> PlayerCardPresented:
    return PlayerCardPresented(source=source, box=box, number=number)


def test_a_card_held_at_the_box_reader_is_one_presentation_naming_the_box(
    sim: SimulatedRdm6300, serial_reader: Rdm6300PlayerCards, events: queue.Queue[Event]
) -> None:
    sim.present(CARD, repeats=6)  # a reader repeats the frame while the card is in its field
    sim.present(OTHER, repeats=2)
    assert events.get(timeout=WAIT) == presented(CARD)
    assert events.get(timeout=WAIT) == presented(OTHER)
    assert serial_reader.stats["player-cards"] == 2
    assert serial_reader.stats["repeats"] == 6


def test_a_player_card_is_never_a_playing_card_even_when_its_tag_looks_like_one(
    sim: SimulatedRdm6300, serial_reader: Rdm6300PlayerCards, events: queue.Queue[Event]
) -> None:
    sim.present(CARD)
    event = events.get(timeout=WAIT)
    assert not isinstance(event, CardDrawn)
    assert isinstance(event, PlayerCardPresented) and event.box == 3


def test_a_pulled_box_reader_is_lost_then_restored_and_reads_again(
    sim: SimulatedRdm6300, serial_reader: Rdm6300PlayerCards, events: queue.Queue[Event]
) -> None:
    sim.unplug()
    lost = events.get(timeout=WAIT)
    assert isinstance(lost, DeviceLost) and lost.source == "player-cards-3"
    sim.replug()
    assert isinstance(events.get(timeout=WAIT), DeviceRestored)
    sim.present(CARD)
    assert events.get(timeout=WAIT) == presented(CARD)


def test_a_usb_reader_that_types_the_number_is_a_presentation(
    events: queue.Queue[Event],
) -> None:
    backend = FakeReaderBackend()
    reader = player_card_reader(
        "hid", f"usb://{VID:04x}:{PID:04x}", 5, events, name="seat5", backend=backend
    )
    assert isinstance(reader, HidPlayerCards)
    reader.start()
    try:
        backend.type("6012345678901234")  # a loyalty card's number, typed with Enter
        assert events.get(timeout=WAIT) == presented("6012345678901234", 5, "seat5")
    finally:
        reader.close()


def test_a_box_reader_that_is_not_there_at_start_is_an_error_naming_it(
    tmp_path: Path, events: queue.Queue[Event]
) -> None:
    reader = player_card_reader("rdm6300", str(tmp_path / "no-such-port"), 2, events)
    with pytest.raises(DeviceNotFound, match="no-such-port"):
        reader.start()
    reader.close()


def test_only_tag_readers_read_player_cards_and_the_refusal_names_them(
    events: queue.Queue[Event],
) -> None:
    with pytest.raises(CardSourceUnavailable, match=r"'tablectl'.*hid, rdm6300"):
        player_card_reader("tablectl", "loop://", 1, events)
    with pytest.raises(DeviceError, match="not a USB reader URL"):
        player_card_reader("hid", "/dev/ttyUSB0", 1, events)
