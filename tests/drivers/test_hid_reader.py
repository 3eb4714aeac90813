"""The USB HID RFID reader driver, against a fake pyusb backend (no USB hardware).

The fake implements pyusb's backend interface, so the real ``usb.core.find``, ``Device``,
``usb.util.claim_interface`` and ``Device.read`` run on top of it: the test sees exactly
the calls a libusb backend would get.
"""

from __future__ import annotations

import errno
import queue
from collections.abc import Iterator

import pytest
import usb.backend
import usb.core

from controller.cards import Card
from controller.ports import CardDrawn, DeviceFault, DeviceLost, DeviceRestored, Event, Fault
from drivers.deck import DeckEnrolment, parse_deck
from drivers.errors import DeviceClosed, DeviceError, DeviceNotFound, DeviceTimeout
from drivers.hid_reader import HidRfidReader, UsbHidConnection, wrap_usb_error
from firmware_bridge.hid import report
from tests.support.usb import PID, VID, FakeReaderBackend

WAIT = 5.0


@pytest.fixture
def backend() -> FakeReaderBackend:
    return FakeReaderBackend()


@pytest.fixture
def deck() -> DeckEnrolment:
    return parse_deck(["0002767708 As", "0002767709 Td"], source="test-deck")


@pytest.fixture
def events() -> queue.Queue[Event]:
    return queue.Queue()


@pytest.fixture
def reader(
    backend: FakeReaderBackend, deck: DeckEnrolment, events: queue.Queue[Event]
) -> Iterator[HidRfidReader]:
    hid = HidRfidReader(
        VID, PID, deck, events, name="hid", backend=backend, read_timeout_ms=20,
        backoff=(0.01, 0.05),
    )  # fmt: skip
    hid.start()
    yield hid
    hid.close()


def drawn(card: str) -> CardDrawn:
    tag = {"As": "0002767708", "Td": "0002767709"}[card]
    return CardDrawn(source="hid", card=Card.parse(card), tag=tag)


def test_open_detaches_the_kernel_driver_and_claims_the_interface(
    backend: FakeReaderBackend,
) -> None:
    connection = UsbHidConnection(VID, PID, backend=backend)
    assert backend.calls[:3] == ["open", "detach 0", "claim 0"]
    connection.close()
    assert backend.calls[3:] == ["release 0", "attach 0", "close"]
    assert backend.kernel_driver and not backend.claimed


def test_no_kernel_driver_means_nothing_to_detach_or_reattach() -> None:
    backend = FakeReaderBackend(kernel_driver=False)
    UsbHidConnection(VID, PID, backend=backend).close()
    assert not any(call.startswith(("detach", "attach")) for call in backend.calls)


def test_a_typed_tag_becomes_a_card(
    backend: FakeReaderBackend, reader: HidRfidReader, events: queue.Queue[Event]
) -> None:
    backend.type("0002767708")
    assert events.get(timeout=WAIT) == drawn("As")


def test_unknown_tag_and_unknown_key_are_faults(
    backend: FakeReaderBackend, reader: HidRfidReader, events: queue.Queue[Event]
) -> None:
    backend.type("0000000001")
    for data in [report(0x2C), report(), report(0x28), report()]:
        backend.reports.put(data)
    backend.reports.put(b"\x00\x00\x1e")  # a short report
    backend.type("0002767709")
    assert events.get(timeout=WAIT) == DeviceFault(
        source="hid", fault=Fault.UNKNOWN_TAG, detail="0000000001"
    )
    unknown = events.get(timeout=WAIT)
    assert isinstance(unknown, DeviceFault) and unknown.fault is Fault.MALFORMED
    assert "unknown-usage" in unknown.detail
    short = events.get(timeout=WAIT)
    assert isinstance(short, DeviceFault) and "3 bytes" in short.detail
    assert events.get(timeout=WAIT) == drawn("Td")


def test_a_reader_that_types_twice_per_presentation_is_one_read(
    backend: FakeReaderBackend, reader: HidRfidReader, events: queue.Queue[Event]
) -> None:
    backend.type("0002767708")
    backend.type("0002767708")
    backend.type("0002767709")
    assert [events.get(timeout=WAIT), events.get(timeout=WAIT)] == [drawn("As"), drawn("Td")]
    assert reader.stats["repeats"] == 1


def test_unplugged_reader_is_lost_then_restored(
    backend: FakeReaderBackend, reader: HidRfidReader, events: queue.Queue[Event]
) -> None:
    backend.plugged = False
    backend.reports.put(usb.core.USBError("No such device", errno=errno.ENODEV))
    lost = events.get(timeout=WAIT)
    assert isinstance(lost, DeviceLost) and "No such device" in lost.reason
    backend.plugged = True
    assert events.get(timeout=WAIT) == DeviceRestored(source="hid")
    backend.type("0002767709")
    assert events.get(timeout=WAIT) == drawn("Td")


def test_no_such_device_at_start_is_device_not_found(
    deck: DeckEnrolment, events: queue.Queue[Event]
) -> None:
    backend = FakeReaderBackend()
    backend.plugged = False
    with pytest.raises(DeviceNotFound, match="ffff:0035"):
        HidRfidReader(VID, PID, deck, events, backend=backend).start()


def test_a_busy_interface_is_a_device_error_not_a_usb_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = FakeReaderBackend()
    monkeypatch.setattr(backend, "detach_kernel_driver", lambda handle, intf: None)
    with pytest.raises(DeviceError, match="holds the interface") as caught:
        UsbHidConnection(VID, PID, backend=backend)
    assert isinstance(caught.value.__cause__, usb.core.USBError)
    assert not backend.claimed


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (usb.core.USBTimeoutError("timed out", errno=errno.ETIMEDOUT), DeviceTimeout),
        (usb.core.USBError("gone", errno=errno.ENODEV), DeviceClosed),
        (usb.core.USBError("io", errno=errno.EIO), DeviceClosed),
        (usb.core.USBError("denied", errno=errno.EACCES), DeviceError),
        (usb.core.USBError("odd"), DeviceError),
    ],
)
def test_usb_errors_are_wrapped_in_the_device_error_tree(
    exc: usb.core.USBError, kind: type[DeviceError]
) -> None:
    wrapped = wrap_usb_error(exc, "read")
    assert type(wrapped) is kind
    assert "read" in str(wrapped)
