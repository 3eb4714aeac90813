"""A keyboard-emulating USB RFID reader, read directly over pyusb, as table events.

Such a reader enumerates as a USB HID boot keyboard and "types" the tag id, then Enter.
Left to the kernel, those keystrokes would land in whatever has the keyboard focus (the
dealer's status screen, a login prompt), so the driver takes the device away from the
kernel: find it by vendor and product id, detach the kernel's HID driver from its
interface if it is active, claim the interface, and read 8-byte input reports from its
interrupt IN endpoint. `firmware_bridge.hid` turns reports into tag ids; the deck
enrolment turns tags into cards. Events are the same as the RDM6300 driver's
(`drivers.rfid`): `CardDrawn`, `DeviceFault(UNKNOWN_TAG / MALFORMED)`, `DeviceLost`,
`DeviceRestored`.

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
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import usb.core
import usb.util

from controller.ports import CardDrawn, DeviceFault, DeviceLost, DeviceRestored, Event, Fault
from drivers.deck import DeckEnrolment
from drivers.errors import DeviceClosed, DeviceError, DeviceNotFound, DeviceTimeout
from drivers.rfid import tag_event
from firmware_bridge.hid import HidDecoded, HidDecoder, HidProblem
from firmware_bridge.rdm6300 import PresenceFilter

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


class HidRfidReader:
    """A USB keyboard RFID reader feeding ``events``. `start()`, then `close()`."""

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
        self.name = name
        self.deck = deck
        self._usb = (vendor_id, product_id, interface, find, backend)
        self._events = events
        self._clock = clock
        self._presence = PresenceFilter(hold)
        self._timeout_ms = read_timeout_ms
        self._backoff_first, self._backoff_max = backoff
        self._connection: UsbHidConnection | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.stats: Counter[str] = Counter()

    def start(self) -> None:
        """Claim the reader (raising `DeviceError` if it cannot) and start the thread."""
        if self._thread is not None:
            raise DeviceError(f"{self.name}: reader already started")
        self._connection = self._connect()
        log.info("%s: HID RFID reader %s claimed", self.name, self._connection.label)
        self._thread = threading.Thread(target=self._run, name=f"hid-{self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread, release the interface, reattach the kernel driver."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            if self._thread.is_alive():
                log.error("%s: reader thread did not stop", self.name)
        self._drop_connection()

    def __enter__(self) -> HidRfidReader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> UsbHidConnection:
        vendor_id, product_id, interface, find, backend = self._usb
        return UsbHidConnection(
            vendor_id, product_id, interface=interface, find=find, backend=backend
        )

    def _run(self) -> None:
        decoder = HidDecoder()
        try:
            while not self._stop.is_set():
                connection = self._connection
                if connection is None:
                    decoder = HidDecoder()
                    self._reconnect()
                    continue
                try:
                    report = connection.read_report(self._timeout_ms)
                except DeviceTimeout:
                    continue
                except DeviceError as exc:
                    self._lose(str(exc))
                    continue
                for item in decoder.feed(report):
                    self._handle(item)
        except Exception:  # a bug here must not die silently in a daemon thread
            log.exception("%s: reader thread failed", self.name)
            self._events.put(DeviceLost(source=self.name, reason="reader thread failed"))
        finally:
            self._drop_connection()

    def _handle(self, item: HidDecoded) -> None:
        if isinstance(item, HidProblem):
            self.stats[str(item.kind)] += 1
            log.warning("%s: %s: %s", self.name, item.kind, item.detail)
            detail = f"{item.kind}: {item.detail}"
            self._events.put(DeviceFault(source=self.name, fault=Fault.MALFORMED, detail=detail))
            return
        if not self._presence.seen(item.tag.upper(), self._clock()):
            self.stats["repeats"] += 1
            return
        event = tag_event(self.name, self.deck, item.tag)
        self.stats["reads" if isinstance(event, CardDrawn) else "unknown-tag"] += 1
        self._events.put(event)

    def _lose(self, reason: str) -> None:
        log.error("%s: device lost: %s", self.name, reason)
        self.stats["lost"] += 1
        self._drop_connection()
        self._events.put(DeviceLost(source=self.name, reason=reason))

    def _reconnect(self) -> None:
        delay = self._backoff_first
        while not self._stop.wait(delay):
            try:
                self._connection = self._connect()
            except DeviceError as exc:
                log.debug("%s: reconnect failed: %s", self.name, exc)
                delay = min(delay * 2, self._backoff_max)
                continue
            log.info("%s: device restored", self.name)
            self.stats["restored"] += 1
            self._events.put(DeviceRestored(source=self.name))
            return

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
