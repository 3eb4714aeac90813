"""``spy://`` hex-dumps both directions of a shoe's line: what the controller writes (TX)
and what the device sends (RX), though the transport reads the port's descriptor itself
rather than through pyserial's spy."""

from __future__ import annotations

import os
import pty
import tty
from pathlib import Path

from drivers.transport import open_transport, read_available


def test_spy_shows_the_devices_frames_as_well_as_ours(tmp_path: Path) -> None:
    device, line = pty.openpty()
    tty.setraw(line)
    dump = tmp_path / "spy.txt"
    port = open_transport(f"spy://{os.ttyname(line)}?file={dump}", timeout=0.2)
    try:
        port.write(b"\x01\x02hello")  # to the device
        os.write(device, b"\xc0\xffrom shoe")  # from the device
        got = b""
        while len(got) < 10:
            got += read_available(port, 2.0)
        assert got == b"\xc0\xffrom shoe"
    finally:
        port.close()
        os.close(device)
        os.close(line)
    text = dump.read_text()
    tx = [row for row in text.splitlines() if " TX " in row]
    rx = [row for row in text.splitlines() if " RX " in row]
    assert tx and "68 65 6C 6C 6F" in " ".join(tx)  # "hello"
    assert rx and "C0 FF 72 6F 6D" in " ".join(rx), text  # the device's frame
