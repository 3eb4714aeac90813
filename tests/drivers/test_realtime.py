"""The real-time policy for the card path's threads only (`drivers.realtime`):
taken only when the deploy unit grants ``LimitRTPRIO``, for the calling thread only, never
above `MAX_PRIORITY`; refused quietly; and asked for by the reader and controller threads."""

from __future__ import annotations

import os
import queue
import resource
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from controller.ports import Event
from drivers import realtime
from tests.drivers.test_card_source import ScriptedSource
from tests.needs import unavailable

ROOT = Path(__file__).resolve().parents[2]


class Scheduler:
    """os.sched_setscheduler, recorded (and refused when ``refuse`` is set)."""

    def __init__(self, refuse: OSError | None = None) -> None:
        self.calls: list[tuple[int, int, int]] = []
        self.refuse = refuse

    def __call__(self, tid: int, policy: int, param: Any) -> None:
        if self.refuse is not None:
            raise self.refuse
        self.calls.append((tid, policy, param.sched_priority))


def limit(monkeypatch: pytest.MonkeyPatch, soft: int) -> Scheduler:
    monkeypatch.setattr(realtime.resource, "getrlimit", lambda which: (soft, soft))
    scheduler = Scheduler()
    monkeypatch.setattr(realtime.os, "sched_setscheduler", scheduler)
    return scheduler


def test_without_the_units_limit_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    scheduler = limit(monkeypatch, 0)
    assert realtime.use_realtime("controller thread") is False
    assert scheduler.calls == []


def test_with_the_limit_the_calling_thread_alone_is_made_fifo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scheduler = limit(monkeypatch, 10)
    assert realtime.use_realtime("controller thread") is True
    assert scheduler.calls == [(threading.get_native_id(), os.SCHED_FIFO, 10)]


@pytest.mark.parametrize("soft", [99, resource.RLIM_INFINITY])
def test_the_priority_stays_below_the_kernels_own_threads(
    monkeypatch: pytest.MonkeyPatch, soft: int
) -> None:
    scheduler = limit(monkeypatch, soft)
    realtime.use_realtime("controller thread")
    assert [priority for _, _, priority in scheduler.calls] == [realtime.MAX_PRIORITY]
    assert realtime.MAX_PRIORITY < 50  # the kernel's interrupt threads run at 50


def test_a_refusal_is_logged_and_the_thread_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    limit(monkeypatch, 10)
    monkeypatch.setattr(
        realtime.os, "sched_setscheduler", Scheduler(PermissionError(1, "not permitted"))
    )
    assert realtime.use_realtime("shoe: reader thread") is False
    assert "shoe: reader thread: cannot use the real-time policy" in caplog.text


def test_the_reader_thread_asks_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(
        "drivers.card_source.use_realtime",
        lambda what: asked.append(f"{what} on {threading.current_thread().name}") or False,
    )
    events: queue.Queue[Event] = queue.Queue()
    with ScriptedSource(events):
        pass
    assert asked == ["scripted: reader thread on scripted-scripted"]


SCRIPT = """
import os, resource, threading, sys
sys.path.insert(0, sys.argv[1])
from drivers import realtime
try:
    resource.setrlimit(resource.RLIMIT_RTPRIO, (5, 5))
except (ValueError, OSError):  # no CAP_SYS_RESOURCE (a container): the limit stood in for
    realtime.realtime_priority = lambda: 5
use_realtime = realtime.use_realtime
seen = {}
def card_path():
    seen["done"] = use_realtime("test thread")
    seen["mine"] = os.sched_getscheduler(threading.get_native_id())
thread = threading.Thread(target=card_path)
thread.start(); thread.join()
if not seen["done"]:
    print("skip: the kernel refused SCHED_FIFO here"); sys.exit(0)
print(seen["mine"] == os.SCHED_FIFO, os.sched_getscheduler(0) == os.SCHED_OTHER)
"""


@pytest.mark.skipif(not hasattr(os, "sched_setscheduler"), reason="Linux only")
def test_on_linux_only_the_calling_thread_becomes_real_time() -> None:
    """For real, in a process of its own: the thread that asked is SCHED_FIFO, the
    process's main thread (standing for the status server's) is not."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    if done.stdout.startswith("skip"):
        unavailable(done.stdout.removeprefix("skip: ").strip())
    assert done.stdout.split() == ["True", "True"]
