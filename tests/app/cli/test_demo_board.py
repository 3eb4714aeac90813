"""`tablectl demo` prints the players' board's address beside the status display's (the
demo has no read-only address: the board is served on the console's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sim_hardware.testbed import free_port

ROOT = Path(__file__).resolve().parents[3]


def test_the_demo_prints_the_board_s_address() -> None:
    port = free_port()
    proc = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "demo", "--game", "baccarat", "--pace",
         "0", "--rounds", "0", "--port", str(port)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert f"players' board: http://127.0.0.1:{port}/board" in proc.stdout
