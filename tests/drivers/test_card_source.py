"""The card-source base and the registry of back-ends.

The base's life cycle is checked on a scripted back-end (its line fails and comes back on
command); the three real back-ends run their own suites on top of it (test_rfid.py,
test_hid_reader.py, test_serial_device.py). No test sleeps: each waits on the queue.
"""

from __future__ import annotations

import queue
import threading

import pytest

from controller.cards import Card
from controller.ports import CardDrawn, DeviceLost, DeviceRestored, Event, LockShoe
from drivers.card_source import CardSource
from drivers.deck import parse_deck
from drivers.errors import DeviceClosed, DeviceError, DeviceNotFound
from drivers.hid_reader import HidRfidReader
from drivers.registry import (
    CARD_SOURCES,
    CardSourceUnavailable,
    card_source_class,
    create_card_source,
    parse_usb_url,
)
from drivers.rfid import Rdm6300Reader
from drivers.serial_device import SerialDevice

WAIT = 5.0


class ScriptedSource(CardSource):
    """A back-end whose line is up while ``plugged`` is set; ``cards`` are read from it."""

    protocol = "scripted"

    def __init__(self, events: queue.Queue[Event]) -> None:
        super().__init__(events, name="scripted", where="script://", backoff=(0.001, 0.01))
        self.plugged = threading.Event()
        self.plugged.set()
        self.cards: queue.Queue[Card | Exception] = queue.Queue()
        self.opens = 0

    def _open_line(self) -> None:
        if not self.plugged.is_set():
            raise DeviceNotFound("script:// is unplugged")
        self.opens += 1

    def _read(self) -> list[Event]:
        try:
            item = self.cards.get(timeout=0.01)
        except queue.Empty:
            if not self.plugged.is_set():
                raise DeviceClosed("script:// was pulled") from None
            return []
        if isinstance(item, Exception):
            raise item
        return [CardDrawn(source=self.name, card=item)]

    def _close_line(self) -> None:
        pass


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


def test_a_pulled_line_is_lost_once_then_restored_once_and_reading_resumes(
    events: queue.Queue[Event],
) -> None:
    with ScriptedSource(events) as source:
        source.cards.put(Card.parse("As"))
        assert events.get(timeout=WAIT) == CardDrawn(source="scripted", card=Card.parse("As"))
        source.plugged.clear()
        lost = events.get(timeout=WAIT)
        assert isinstance(lost, DeviceLost) and "pulled" in lost.reason
        source.plugged.set()
        assert events.get(timeout=WAIT) == DeviceRestored(source="scripted")
        source.cards.put(Card.parse("Td"))
        assert events.get(timeout=WAIT) == CardDrawn(source="scripted", card=Card.parse("Td"))
    assert source.stats["lost"] == source.stats["restored"] == 1
    assert source.opens == 2
    assert events.empty()  # the failed reopens in between reported nothing


def test_a_missing_device_at_start_raises_and_is_not_retried(
    events: queue.Queue[Event],
) -> None:
    source = ScriptedSource(events)
    source.plugged.clear()
    with pytest.raises(DeviceNotFound):
        source.start()
    source.close()
    assert source.opens == 0 and events.empty()


def test_a_bug_in_a_back_end_is_reported_as_lost_not_a_silent_dead_thread(
    events: queue.Queue[Event],
) -> None:
    with ScriptedSource(events) as source:
        source.cards.put(ZeroDivisionError("a bug"))
        lost = events.get(timeout=WAIT)
        assert lost == DeviceLost(source="scripted", reason="reader thread failed")


def test_acknowledge_is_a_no_op_and_commands_are_refused_by_default(
    events: queue.Queue[Event],
) -> None:
    source = ScriptedSource(events)
    source.acknowledge(7)  # a reader with no acknowledgement: nothing to do, no error
    assert not source.handles(LockShoe())
    with pytest.raises(DeviceError, match="cannot LockShoe"):
        source.execute(LockShoe())


def test_starting_twice_is_refused(events: queue.Queue[Event]) -> None:
    with ScriptedSource(events) as source, pytest.raises(DeviceError, match="already"):
        source.start()


def test_the_registry_names_the_three_back_ends() -> None:
    assert set(CARD_SOURCES) == {"tablectl", "rdm6300", "hid"}
    assert card_source_class("tablectl") is SerialDevice
    assert card_source_class("rdm6300") is Rdm6300Reader
    assert card_source_class("hid") is HidRfidReader
    for name in CARD_SOURCES:
        assert card_source_class(name).protocol == name


def test_an_unknown_back_end_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(CardSourceUnavailable, match="hid, rdm6300, tablectl"):
        card_source_class("barcode")


def test_a_back_end_whose_library_is_missing_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CARD_SOURCES, "vendor", ("no_such_vendor_library", "Reader"))
    with pytest.raises(CardSourceUnavailable, match="not installed") as caught:
        card_source_class("vendor")
    assert isinstance(caught.value.__cause__, ImportError)


def test_rfid_back_ends_need_a_deck_and_the_serial_protocol_refuses_one(
    events: queue.Queue[Event],
) -> None:
    deck = parse_deck(["0F002A3B5C As"])
    with pytest.raises(DeviceError, match="deck enrolment"):
        create_card_source("rdm6300", "/dev/ttyUSB0", events)
    with pytest.raises(DeviceError, match="no deck"):
        create_card_source("tablectl", "/dev/ttyUSB0", events, deck=deck)
    reader = create_card_source("rdm6300", "/dev/ttyUSB0", events, deck=deck, hold=0.5)
    assert isinstance(reader, Rdm6300Reader) and reader.name == "shoe"
    hid = create_card_source("hid", "usb://ffff:0035/1", events, deck=deck)
    assert isinstance(hid, HidRfidReader) and hid.where == "usb://ffff:0035/1"


@pytest.mark.parametrize(
    ("url", "ids"),
    [("usb://ffff:0035", (0xFFFF, 0x35, 0)), ("usb://08FF:0009/2", (0x08FF, 0x9, 2))],
)
def test_usb_reader_urls(url: str, ids: tuple[int, int, int]) -> None:
    assert parse_usb_url(url) == ids


def test_a_bad_usb_url_is_refused() -> None:
    with pytest.raises(DeviceError, match="usb://VVVV:PPPP"):
        parse_usb_url("usb://reader")
