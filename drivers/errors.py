"""Errors raised at the device boundary. Low-level errors (pyserial's SerialException,
pyusb's USBError, OSError) are wrapped in these with ``raise ... from exc``."""

from __future__ import annotations

from firmware_bridge.errors import TableError


class DeviceError(TableError, OSError):
    """A device could not be opened, read or written."""


class DeviceNotFound(DeviceError, FileNotFoundError):
    """The configured device is not there (no such port, no such USB device)."""


class DeviceTimeout(DeviceError, TimeoutError):
    """A device did not answer in time."""


class DeviceClosed(DeviceError, ConnectionError):
    """The line to the device is closed (cable pulled, port gone, socket closed)."""
