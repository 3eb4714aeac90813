"""A keyboard-emulating USB RFID reader, read directly over pyusb, as table events.

Such a reader enumerates as a USB HID boot keyboard and "types" the tag id, then Enter.
Left to the kernel, those keystrokes would land in whatever has the keyboard focus (the
dealer's status screen, a login prompt), so the driver takes the device away from the
kernel: find it by vendor and product id, detach the kernel's HID driver from its
interface if it is active, claim the interface, and read 8-byte input reports from its
interrupt IN endpoint. `firmware_bridge.hid` turns reports into tag ids; the deck
enrolment turns tags into cards. Events are the same as the RDM6300 driver's
(`drivers.tag_reader`): `CardDrawn`, `DeviceFault(UNKNOWN_TAG / MALFORMED)`, `DeviceLost`,
`DeviceRestored`; the life cycle (thread, reconnect, lost and restored) is
`drivers.card_source.CardSource`'s.

Every ``usb.core.USBError`` is wrapped in the `drivers.errors` tree with ``raise ... from``:
no device is `DeviceNotFound`, a read timeout is `DeviceTimeout` (and just means no card),
the device gone (ENODEV, EIO, EPIPE) is `DeviceClosed`, anything else `DeviceError`.
``find`` (pyusb's ``usb.core.find``) and ``backend`` are injectable: tests give a fake
backend, so the real pyusb device logic runs without USB hardware.

On Linux the user running the controller needs access to the device node, e.g. a udev
rule ``SUBSYSTEM=="usb", ATTR{idVendor}=="ffff", ATTR{idProduct}=="0035", MODE="0660",
GROUP="plugdev"``; a permission error says so.
"""

from __future__ import annotations

import errno
import logging
import queue
import time
from collections.abc import Callable
from typing import Any

import usb.core
import usb.util

from controller.ports import Event, Fault
from drivers.deck import DeckEnrolment
from drivers.errors import DeviceClosed, DeviceError, DeviceNotFound, DeviceTimeout
from drivers.tag_reader import TagReader
from firmware_bridge.hid import HidDecoder, HidProblem

log = logging.getLogger(__name__)

_GONE = {errno.ENODEV, errno.EIO, errno.EPIPE, errno.ESHUTDOWN}


def wrap_usb_error(exc: usb.core.USBError, what: str) -> DeviceError:
    """The `DeviceError` for a pyusb error (raise it ``from exc``)."""
    code = exc.errno
    message = f"{what}: {exc}"
    if isinstance(exc, getattr(usb.core, "USBTimeoutError", ())) or code == errno.ETIMEDOUT:
        return DeviceTimeout(message)
    if code in _GONE:
        return DeviceClosed(message)
    if code == errno.EACCES:
        return DeviceError(f"{message} (no permission: add a udev rule for the reader)")
    if code == errno.EBUSY:
        return DeviceError(f"{message} (another program or driver holds the interface)")
    return DeviceError(message)


class UsbHidConnection:
    """One claimed HID interface of a reader: `read_report`, then `close`."""

    def __init__(
        self,
        vendor_id: int,
        product_id: int,
        *,
        interface: int = 0,
        find: Callable[..., Any] = usb.core.find,
        backend: Any = None,
    ) -> None:
        self.label = f"USB {vendor_id:04x}:{product_id:04x}"
        self._interface = interface
        self._detached = False
        self._claimed = False
        try:
            device = find(idVendor=vendor_id, idProduct=product_id, backend=backend)
        except usb.core.USBError as exc:
            raise wrap_usb_error(exc, f"cannot search for {self.label}") from exc
        except usb.core.NoBackendError as exc:
            raise DeviceError(f"no USB backend (install libusb-1.0): {exc}") from exc
        if device is None:
            raise DeviceNotFound(f"no USB RFID reader {self.label} is connected")
        self._device = device
        try:
            self._endpoint, self._packet_size = self._take_over()
        except usb.core.USBError as exc:
            self.close()
            raise wrap_usb_error(exc, f"cannot open {self.label}") from exc

    def _take_over(self) -> tuple[int, int]:
        device, number = self._device, self._interface
        try:
            active = device.is_kernel_driver_active(number)
        except NotImplementedError:  # backends without kernel drivers (Windows, openusb)
            active = False
        if active:
            device.detach_kernel_driver(number)
            self._detached = True
            log.info("%s: kernel driver detached from interface %d", self.label, number)
        try:
            config = device.get_active_configuration()
        except usb.core.USBError:
            device.set_configuration()
            config = device.get_active_configuration()
        usb.util.claim_interface(device, number)
        self._claimed = True
        endpoint = usb.util.find_descriptor(
            config[(number, 0)],
            custom_match=lambda e: (
                usb.util.endpoint_direction(e.bEndpointAddress) == usb.util.ENDPOINT_IN
                and usb.util.endpoint_type(e.bmAttributes) == usb.util.ENDPOINT_TYPE_INTR
            ),
        )
        if endpoint is None:
            raise DeviceError(f"{self.label}: interface {number} has no interrupt IN endpoint")
        return int(endpoint.bEndpointAddress), int(endpoint.wMaxPacketSize)

    def read_report(self, timeout_ms: int) -> bytes:
        """One input report. Raises `DeviceTimeout` when none came, `DeviceClosed` if gone."""
        try:
            data = self._device.read(self._endpoint, self._packet_size, timeout=timeout_ms)
        except usb.core.USBError as exc:
            raise wrap_usb_error(exc, f"read from {self.label} failed") from exc
        return bytes(data)

    def close(self) -> None:
        """Release the interface and give it back to the kernel. Never raises."""
        device, number = self._device, self._interface
        try:
            if self._claimed:
                usb.util.release_interface(device, number)
            if self._detached:
                device.attach_kernel_driver(number)
        except (usb.core.USBError, NotImplementedError) as exc:
            log.debug("%s: while closing: %s", self.label, exc)
        finally:
            self._claimed = self._detached = False
            usb.util.dispose_resources(device)


class HidRfidReader(TagReader):
    """A USB keyboard RFID reader feeding ``events``. `start()`, then `close()`."""

    protocol = "hid"

    def __init__(
        self,
        vendor_id: int,
        product_id: int,
        deck: DeckEnrolment,
        events: queue.Queue[Event],
        *,
        name: str = "rfid",
        interface: int = 0,
        find: Callable[..., Any] = usb.core.find,
        backend: Any = None,
        clock: Callable[[], float] = time.monotonic,
        hold: float = 1.0,
        read_timeout_ms: int = 100,
        backoff: tuple[float, float] = (0.1, 2.0),
    ) -> None:
        where = f"usb://{vendor_id:04x}:{product_id:04x}/{interface}"
        super().__init__(
            events, deck, name=name, where=where, clock=clock, hold=hold, backoff=backoff
        )
        self._usb = (vendor_id, product_id, interface, find, backend)
        self._timeout_ms = read_timeout_ms
        self._connection: UsbHidConnection | None = None
        self._decoder = HidDecoder()

    def _open_line(self) -> None:
        vendor_id, product_id, interface, find, backend = self._usb
        self._connection = UsbHidConnection(
            vendor_id, product_id, interface=interface, find=find, backend=backend
        )

    def _line_opened(self) -> None:
        self._decoder = HidDecoder()  # half a typed tag does not survive a reconnect

    def _read(self) -> list[Event]:
        connection = self._connection
        if connection is None:
            raise DeviceClosed(f"{self.where} is closed")
        try:
            report = connection.read_report(self._timeout_ms)
        except DeviceTimeout:
            return []  # no key pressed: no card
        produced: list[Event] = []
        for item in self._decoder.feed(report):
            if isinstance(item, HidProblem):
                produced.append(self._fault(Fault.MALFORMED, f"{item.kind}: {item.detail}"))
            else:
                produced += self._tag_read(item.tag)
        return produced

    def _close_line(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
