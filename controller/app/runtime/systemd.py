"""sd_notify without a dependency: readiness and the watchdog for deploy/tablectl.service.

Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import os
import socket

_sender: socket.socket | None = None


def notify(message: str) -> None:
    """Send ``message`` to systemd. The socket is made once and kept: feeding the watchdog
    opens nothing, so a process short of file descriptors is not also killed as hung."""
    global _sender
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    if _sender is None:
        _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    _sender.sendto(message.encode(), address)


def watchdog_interval() -> float:
    """How often to feed the watchdog: half of WATCHDOG_USEC, or every 5 s without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    return int(usec) / 2e6 if usec and usec.isdigit() else 5.0
