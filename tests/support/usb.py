"""A fake pyusb backend: one USB HID boot keyboard (a keyboard-emulating reader).

It implements pyusb's backend interface, so the real ``usb.core.find``, ``Device``,
``usb.util.claim_interface`` and ``Device.read`` run on top of it: a test sees exactly the
calls a libusb backend would get, with no USB hardware.
"""

from __future__ import annotations

import errno
import queue
from types import SimpleNamespace
from typing import Any

import usb.backend
import usb.core

from firmware_bridge.hid import type_tag

VID, PID = 0xFFFF, 0x0035


class FakeReaderBackend(usb.backend.IBackend):  # type: ignore[misc]
    """One HID boot keyboard (interface 0, interrupt IN endpoint 0x81) and its reports."""

    def __init__(self, *, kernel_driver: bool = True) -> None:
        super().__init__()
        self.plugged = True
        self.kernel_driver = kernel_driver
        self.configuration = 1
        self.claimed: set[int] = set()
        self.calls: list[str] = []
        self.reports: queue.Queue[bytes | Exception] = queue.Queue()

    def type(self, tag: str) -> None:
        for data in type_tag(tag):
            self.reports.put(data)

    def enumerate_devices(self) -> list[str]:
        return ["reader"] if self.plugged else []

    def get_device_descriptor(self, dev: Any) -> Any:
        return SimpleNamespace(
            bLength=18, bDescriptorType=1, bcdUSB=0x0110, bDeviceClass=0, bDeviceSubClass=0,
            bDeviceProtocol=0, bMaxPacketSize0=8, idVendor=VID, idProduct=PID,
            bcdDevice=0x0100, iManufacturer=0, iProduct=0, iSerialNumber=0,
            bNumConfigurations=1, address=3, bus=1, port_number=1, port_numbers=(1,), speed=1,
        )  # fmt: skip

    def get_configuration_descriptor(self, dev: Any, config: int) -> Any:
        return SimpleNamespace(
            bLength=9, bDescriptorType=2, wTotalLength=34, bNumInterfaces=1,
            bConfigurationValue=1, iConfiguration=0, bmAttributes=0x80, bMaxPower=50,
            extra_descriptors=[],
        )  # fmt: skip

    def get_interface_descriptor(self, dev: Any, intf: int, alt: int, config: int) -> Any:
        return SimpleNamespace(
            bLength=9, bDescriptorType=4, bInterfaceNumber=0, bAlternateSetting=0,
            bNumEndpoints=1, bInterfaceClass=3, bInterfaceSubClass=1, bInterfaceProtocol=1,
            iInterface=0, extra_descriptors=[],
        )  # fmt: skip

    def get_endpoint_descriptor(self, dev: Any, ep: int, intf: int, alt: int, cfg: int) -> Any:
        return SimpleNamespace(
            bLength=7, bDescriptorType=5, bEndpointAddress=0x81, bmAttributes=0x03,
            wMaxPacketSize=8, bInterval=10, bRefresh=0, bSynchAddress=0, extra_descriptors=[],
        )  # fmt: skip

    def open_device(self, dev: Any) -> str:
        self.calls.append("open")
        return "handle"

    def close_device(self, handle: Any) -> None:
        self.calls.append("close")

    def get_configuration(self, handle: Any) -> int:
        return self.configuration

    def set_configuration(self, handle: Any, value: int) -> None:
        self.configuration = value

    def is_kernel_driver_active(self, handle: Any, intf: int) -> bool:
        return self.kernel_driver

    def detach_kernel_driver(self, handle: Any, intf: int) -> None:
        self.calls.append(f"detach {intf}")
        self.kernel_driver = False

    def attach_kernel_driver(self, handle: Any, intf: int) -> None:
        self.calls.append(f"attach {intf}")
        self.kernel_driver = True

    def claim_interface(self, handle: Any, intf: int) -> None:
        if self.kernel_driver:
            raise usb.core.USBError("Resource busy", errno=errno.EBUSY)
        self.calls.append(f"claim {intf}")
        self.claimed.add(intf)

    def release_interface(self, handle: Any, intf: int) -> None:
        self.calls.append(f"release {intf}")
        self.claimed.discard(intf)

    def intr_read(self, handle: Any, ep: int, intf: int, buff: Any, timeout: int) -> int:
        if ep != 0x81 or intf not in self.claimed:
            raise usb.core.USBError("read on an unclaimed interface", errno=errno.EINVAL)
        try:
            item = self.reports.get(timeout=timeout / 1000)
        except queue.Empty:
            raise usb.core.USBTimeoutError("Operation timed out", errno=errno.ETIMEDOUT) from None
        if isinstance(item, Exception):
            raise item
        buff[: len(item)] = type(buff)("B", item)
        return len(item)
