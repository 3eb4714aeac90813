"""Opening a byte line to a device by URL, the pymodbus way.

Everything goes through ``serial.serial_for_url(url, exclusive=True)``, so a table config
can name ``/dev/ttyUSB0``, ``/dev/serial/by-id/usb-FTDI_...``, a pseudo-terminal of the
simulator, ``socket://127.0.0.1:9000``, ``loop://`` or ``spy:///dev/ttyUSB0`` (which
hex-dumps the traffic for an engineer) without the driver knowing which.

On USB serial adapters we ask for low-latency mode: FTDI chips hold received bytes for
their latency timer (16 ms by default) before sending them up the USB bus, which would
dominate the time from a card leaving the shoe to the controller seeing it.
"""

from __future__ import annotations

import errno
import logging
import os
import select
from typing import Protocol

import serial
from serial.urlhandler import protocol_spy

from drivers.errors import DeviceClosed, DeviceError, DeviceNotFound

log = logging.getLogger(__name__)


def open_transport(
    url: str, *, baudrate: int = 115200, timeout: float | None = 0.05
) -> serial.SerialBase:
    """Open ``url`` exclusively. Raises `DeviceNotFound` or `DeviceError`, never pyserial's."""
    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, exclusive=True)
    except serial.SerialException as exc:
        if exc.errno == errno.ENOENT or ("://" not in url and not os.path.exists(url)):
            raise DeviceNotFound(f"no device at {url}: {exc}") from exc
        raise DeviceError(f"cannot open {url}: {exc}") from exc
    except (OSError, ValueError) as exc:
        raise DeviceError(f"cannot open {url}: {exc}") from exc
    _ask_low_latency(port, url)
    return port


class Closable(Protocol):
    def close(self) -> None: ...


def close_quietly(port: Closable | None, url: str) -> None:
    """Close a port that may already be gone (a pulled adapter): never raises."""
    if port is None:
        return
    try:
        port.close()
    except (serial.SerialException, OSError) as exc:
        log.debug("error closing %s: %s", url, exc)


def is_usb_serial(path: str) -> bool:
    """True when ``path`` (or the link it is) is a tty on a USB bus, per sysfs."""
    name = os.path.basename(os.path.realpath(path))
    device = f"/sys/class/tty/{name}/device"
    return os.path.exists(device) and "/usb" in os.path.realpath(device)


def _ask_low_latency(port: serial.SerialBase, url: str) -> None:
    setter = getattr(port, "set_low_latency_mode", None)
    if setter is None or "://" in url:
        return  # sockets, loop:// and friends have no latency timer
    if not is_usb_serial(url):
        log.debug("%s is not a USB serial adapter; low-latency mode not needed", url)
        return
    try:
        setter(True)
    except (ValueError, OSError) as exc:
        log.warning(
            "%s: cannot set low-latency mode (%s); reads may lag by the adapter's "
            "latency timer (16 ms on FTDI). Try: setserial %s low_latency",
            url,
            exc,
            url,
        )


def read_available(port: serial.SerialBase, timeout: float) -> bytes:
    """Whatever the line holds now (up to 4 KiB), waiting up to ``timeout`` for the first
    byte; b"" on timeout. Raises `DeviceClosed` when the line is gone.

    On a POSIX serial port this is one select() and one read() on the port's descriptor:
    pyserial's own ``read(n)`` needs the count in advance, so a frame would take two
    wake-ups (the first byte, then the rest), which doubled the card latency over a pty.
    Other ports (sockets, loop://) go through pyserial. A ``spy://`` port is read the same
    way, so what it reads is handed to its hex dump here (pyserial's spy dumps only what
    passes through its own ``read``): the engineer sees the device's bytes as well as ours.
    """
    fd = getattr(port, "fd", None)
    try:
        if fd is None:
            return bytes(port.read(max(1, port.in_waiting)))
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return b""
        data = os.read(fd, 4096)
    except BlockingIOError:
        return b""
    except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
        # TypeError/AttributeError: pyserial's port object torn down under a read
        raise DeviceClosed(f"read failed: {exc}") from exc
    if not data:  # Linux: a vanished tty is "ready" but reads nothing
        raise DeviceClosed("the device reports data ready but sends none: disconnected?")
    if isinstance(port, protocol_spy.Serial):
        port.formatter.rx(data)
    return data
