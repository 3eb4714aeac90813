"""A table controller in its own process, for the power-cut tests, the soak and the
benchmarks: a config written from the example with the shoe on a simulated shoe's pty,
`tablectl run --sim gpio` started, waited for, killed, restarted.

Only the shoe is outside the controller (it must outlive a killed controller and resend,
as a real shoe does); the console is the table's HTTP console API (`sim_hardware.remote`).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim_hardware.remote import ConsoleClient

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def write_config(
    folder: Path,
    shoe_url: str,
    port: int,
    extra: str = "",
    *,
    rfid_decks: Sequence[Path] = (),
    repeat_window_ms: int = 1000,
) -> Path:
    """The example blackjack table, with the shoe at ``shoe_url``, the journal in
    ``folder``, the display on ``port``, and no sensors for insurance or for the layout to
    back keyed wagers (wagers and insurance are keyed on the console). ``extra`` is
    appended (e.g. a [pit] section). With ``rfid_decks`` the shoe is an RDM6300 reader
    reading those enrolled decks."""
    text = (EXAMPLES / "blackjack-table.toml").read_text()
    protocol = 'protocol = "tablectl"  # docs/protocol.md'
    if rfid_decks:
        listed = ", ".join(f'"{path}"' for path in rfid_decks)
        protocol = (
            f'protocol = "rdm6300"\ndecks = [{listed}]\nrepeat_window_ms = {repeat_window_ms}'
        )
    replacements = {
        'url = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_SHOE01-if00-port0"': (
            f'url = "{shoe_url}"'
        ),
        'protocol = "tablectl"  # docs/protocol.md': protocol,
        'path = "/var/lib/tablectl/bj-01.sqlite"': f'path = "{folder}/journal.sqlite"',
        "port = 8080": f"port = {port}",
        "boxes = 5\n": "boxes = 5\ninsurance_sensors = false\n",
        # the remote hands key wagers on the console: they cannot reach the controller
        # process's simulated sensors to put chips on a spot
        "spot_sensors = true": "spot_sensors = false",
    }
    for old, new in replacements.items():
        if old not in text:
            raise ValueError(f"the example config no longer has {old!r}")
        text = text.replace(old, new)
    path = folder / "table.toml"
    path.write_text(text + extra)
    return path


class ControllerProcess:
    """`tablectl run --config CONFIG --sim gpio` as a child process."""

    def __init__(self, config: Path, client: ConsoleClient) -> None:
        self.config = config
        self.client = client
        if client.secret_file is None:  # `run` creates it beside the journal on first start
            client.secret_file = config.parent / "console.secret"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the controller is not running")
        return self.process.pid

    def start(self, timeout: float = 30.0) -> dict[str, Any]:
        """Start it and wait until it publishes a state; returns that state."""
        command = [sys.executable, "-m", "controller.app.cli", "run"]
        self.process = subprocess.Popen(
            [*command, "--config", str(self.config), "--sim", "gpio"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.client.state()
            if state.get("view"):
                return state
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the controller exited: {err}")
            time.sleep(0.02)  # polling a starting process's port
        raise TimeoutError(f"the controller did not publish a state within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: the power cut."""
        self._end(signal.SIGKILL)

    def stop(self) -> int:
        """SIGTERM: a clean stop; returns the exit code."""
        return self._end(signal.SIGTERM)

    def _end(self, how: signal.Signals) -> int:
        process, self.process = self.process, None
        if process is None:
            return 0
        process.send_signal(how)
        code = process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
        return code


def settle(client: ConsoleClient, seen: int, timeout: float = 3.0) -> dict[str, Any]:
    """Wait until the table has journaled something after row ``seen`` and then stayed the
    same for one poll (nothing more arriving); returns that state."""
    deadline = time.monotonic() + timeout
    state = client.state()
    while time.monotonic() < deadline:
        time.sleep(0.02)  # polling another process's state
        again = client.state()
        if again.get("journal_seq", 0) > seen and again == state:
            return again
        state = again
    return state
