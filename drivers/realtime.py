"""A real-time CPU policy for the card path's own threads, and for no other thread.

systemd's ``CPUSchedulingPolicy=fifo`` covers every thread of the process, the status
server's too, so a flood of page requests could starve the table's own screen; it cannot
name one thread. What Linux can do is give one thread (a task id) ``SCHED_FIFO``:
`use_realtime` does that for the thread that calls it. It is called by the two threads a
card waits on: the card source's reader thread (`drivers.card_source`) and the controller
thread (`controller.app.runtime.table`). A real-time thread that is woken runs at once, ahead of
the kiosk's browser and any other ordinary process, instead of waiting for a CPU (on a
loaded machine that wait is most of a card's p99: docs/install.md, "A loaded Pi").

It is an opt-in by the deploy unit, not a config key: ``LimitRTPRIO=N`` in
deploy/tablectl.service lets the unprivileged service raise its own threads to priority
``N``; without that limit (a developer's shell, the tests, a unit without it) nothing
changes. What bounds a thread that spins: the kernel's real-time throttling
(``kernel.sched_rt_runtime_us``, 95 % of each second by default) leaves the rest of the
machine a share of every CPU.
"""

from __future__ import annotations

import logging
import os
import resource
import threading

log = logging.getLogger(__name__)

__all__ = ["MAX_PRIORITY", "realtime_priority", "use_realtime"]

MAX_PRIORITY = 20
"""Never higher than this, whatever the limit allows: kernel threads (interrupts, the SD
card's) run at 50 and must stay ahead of the table."""


def realtime_priority() -> int:
    """The ``SCHED_FIFO`` priority the process may use (0: none): its ``RLIMIT_RTPRIO``
    soft limit (systemd's ``LimitRTPRIO=``), at most `MAX_PRIORITY`."""
    soft, _ = resource.getrlimit(resource.RLIMIT_RTPRIO)
    if soft == resource.RLIM_INFINITY:
        return MAX_PRIORITY
    return max(0, min(int(soft), MAX_PRIORITY))


def use_realtime(what: str) -> bool:
    """Put the calling thread (and only it) under ``SCHED_FIFO`` at `realtime_priority`,
    if the process may; ``what`` names it in the log. True when it did."""
    priority = realtime_priority()
    if priority <= 0 or not hasattr(os, "sched_setscheduler"):
        return False
    try:
        os.sched_setscheduler(threading.get_native_id(), os.SCHED_FIFO, os.sched_param(priority))
    except OSError as exc:  # a kernel or container that refuses it: the thread runs as before
        log.warning("%s: cannot use the real-time policy (priority %d): %s", what, priority, exc)
        return False
    log.info("%s: real-time policy SCHED_FIFO, priority %d (LimitRTPRIO)", what, priority)
    return True
