"""The systemd unit runs what the README installs, and the notify protocol it relies on
(READY, WATCHDOG) reaches a real datagram socket."""

from __future__ import annotations

import configparser
import socket
from pathlib import Path

import pytest

from controller.app.cli.run import JOURNAL_REFUSED
from controller.app.console.connections import PER_SERVER, RESERVED_FDS
from controller.app.runtime import systemd
from drivers.realtime import MAX_PRIORITY

ROOT = Path(__file__).resolve().parents[3]


def test_the_unit_runs_tablectl_with_a_watchdog_and_the_device_groups() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "deploy" / "tablectl.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert "tablectl run --config" in service["ExecStart"]
    assert {"dialout", "gpio"} <= set(service["SupplementaryGroups"].split())
    assert service["Restart"] == "always"


def test_a_refused_journal_stops_the_unit_and_a_crash_restarts_it() -> None:
    """`tablectl run` exits `JOURNAL_REFUSED` on a journal that does not check out: the
    unit does not restart it into the same refusal; any other exit is restarted."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "deploy" / "tablectl.service")
    service = unit["Service"]
    assert service["RestartPreventExitStatus"].split() == [str(JOURNAL_REFUSED)]
    assert service["Restart"] == "always"
    assert JOURNAL_REFUSED not in (0, 1, 2)  # a clean stop, a failure, a config mistake


def test_the_unit_puts_the_controller_first_without_a_real_time_policy() -> None:
    """docs/install.md, "A loaded Pi": ahead of the kiosk for the CPU and the disk, and no
    real-time policy (it would cover the status server's thread too)."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "deploy" / "tablectl.service")
    service = unit["Service"]
    assert -20 <= int(service["Nice"]) < 0
    assert service["IOSchedulingClass"] == "best-effort"
    assert int(service["IOSchedulingPriority"]) == 0
    assert service.get("CPUSchedulingPolicy", "other") not in ("fifo", "rr")


def test_the_unit_lets_the_card_paths_threads_alone_be_real_time() -> None:
    """LimitRTPRIO: the reader and controller threads may take SCHED_FIFO
    (drivers/realtime.py), below the kernel's own threads; the unit itself sets no policy."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "deploy" / "tablectl.service")
    service = unit["Service"]
    assert 0 < int(service["LimitRTPRIO"]) <= MAX_PRIORITY
    assert "CPUSchedulingPolicy" not in service


def test_the_unit_gives_the_web_servers_their_caps_and_the_journal_its_descriptors() -> None:
    """LimitNOFILE: the status server and its read-only view, each at its cap, still leave
    the descriptors kept for the table (controller/app/console/connections.py)."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "deploy" / "tablectl.service")
    limit = int(unit["Service"]["LimitNOFILE"])
    assert limit - RESERVED_FDS >= 2 * PER_SERVER


def test_notify_sends_to_the_socket_systemd_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        monkeypatch.setenv("WATCHDOG_USEC", "4000000")
        systemd.notify("READY=1")
        assert server.recv(64) == b"READY=1"
    assert systemd.watchdog_interval() == 2.0


def test_outside_systemd_notify_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    systemd.notify("READY=1")  # no socket: must not raise
    assert systemd.watchdog_interval() == 5.0
