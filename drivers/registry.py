"""Card-source back-ends by name, imported only when asked for (python-can's interface list).

``[shoe] protocol`` names one of `CARD_SOURCES`:

- ``tablectl``: our serial protocol (docs/protocol.md), `drivers.serial_device.SerialDevice`;
  the URL is a serial port or any pyserial URL;
- ``rdm6300``: a 125 kHz RDM6300 reader at the shoe's mouth, `drivers.rfid.Rdm6300Reader`;
  the URL is its serial port (9600 baud); cards come from the deck enrolment;
- ``hid``: a USB keyboard-emulating RFID reader read over pyusb,
  `drivers.hid_reader.HidRfidReader`; the URL is ``usb://VVVV:PPPP`` (hex vendor and
  product id) with an optional ``/INTERFACE``; cards come from the deck enrolment.

A back-end is imported lazily, so a table that never reads USB does not need pyusb; one
whose library is missing, or a name not in the list, is a `CardSourceUnavailable` naming
it, never a fall-back to another back-end.
"""

from __future__ import annotations

import importlib
import queue
import re
from typing import Any

from controller.ports import Event
from drivers.card_source import CardSource
from drivers.deck import DeckEnrolment
from drivers.errors import DeviceError

CARD_SOURCES: dict[str, tuple[str, str]] = {
    "tablectl": ("drivers.serial_device", "SerialDevice"),
    "rdm6300": ("drivers.rfid", "Rdm6300Reader"),
    "hid": ("drivers.hid_reader", "HidRfidReader"),
}
"""Protocol name: (module, class)."""

RFID_PROTOCOLS = frozenset({"rdm6300", "hid"})
"""The back-ends that read tags, and so need a deck enrolment."""

_USB_URL = re.compile(r"usb://([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?:/(\d+))?")


class CardSourceUnavailable(DeviceError, NotImplementedError):
    """No back-end of that name, or its library is not installed."""


def card_source_class(protocol: str) -> type[CardSource]:
    """The class of the back-end named ``protocol``, imported now."""
    try:
        module_name, class_name = CARD_SOURCES[protocol]
    except KeyError:
        known = ", ".join(sorted(CARD_SOURCES))
        raise CardSourceUnavailable(
            f"no card source {protocol!r}; the known ones are {known}"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CardSourceUnavailable(
            f"card source {protocol!r} needs a library that is not installed: {exc}"
        ) from exc
    cls: type[CardSource] = getattr(module, class_name)
    return cls


def parse_usb_url(url: str) -> tuple[int, int, int]:
    """``usb://ffff:0035`` or ``usb://ffff:0035/1``: (vendor id, product id, interface)."""
    match = _USB_URL.fullmatch(url)
    if match is None:
        raise DeviceError(f"{url!r} is not a USB reader URL (usb://VVVV:PPPP[/INTERFACE])")
    vendor, product, interface = match.groups()
    return int(vendor, 16), int(product, 16), int(interface or 0)


def create_card_source(
    protocol: str,
    url: str,
    events: queue.Queue[Event],
    *,
    name: str = "shoe",
    deck: DeckEnrolment | None = None,
    **options: Any,
) -> CardSource:
    """A card source of back-end ``protocol`` at ``url`` feeding ``events`` (not started).
    ``deck`` is required by the RFID back-ends and refused by the others; ``options`` go to
    the back-end's constructor (``baudrate``, ``hold``, ``resume``...)."""
    cls: Any = card_source_class(protocol)  # each back-end's constructor has its own shape
    source: CardSource
    if protocol in RFID_PROTOCOLS:
        if deck is None:
            raise DeviceError(f"{name}: an {protocol} reader needs the deck enrolment")
        if protocol == "hid":
            vendor, product, interface = parse_usb_url(url)
            source = cls(vendor, product, deck, events, name=name, interface=interface, **options)
        else:
            source = cls(url, deck, events, name=name, **options)
    elif deck is not None:
        raise DeviceError(f"{name}: the {protocol} protocol sends cards, not tags: no deck")
    else:
        source = cls(url, events, name=name, **options)
    return source
