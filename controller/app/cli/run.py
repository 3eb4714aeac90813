"""`tablectl run --config FILE [--sim]`: run a table.

Reads and checks the config, recovers from the journal, opens the devices (the real ones,
or with ``--sim`` the simulated shoe and table, which the log and the display then say),
serves the status display and runs until SIGTERM or SIGINT, which finish the event in hand
and leave the shoe gate in its fail-safe state. Under systemd it reports ready and feeds
the watchdog (deploy/tablectl.service).

A journal that does not check out, at the start or in the full check after it, ends the
process with `JOURNAL_REFUSED`, not 1: the unit's ``RestartPreventExitStatus`` names it,
so systemd does not start the table again into the same refusal (a supervisor opens a new
journal: docs/security.md). Any other failure exits 1 or 2 and is restarted.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

from controller.app.cli import say
from controller.app.config import load_config
from controller.app.runtime import systemd
from controller.app.runtime.table import RunningTable
from controller.errors import TableError
from controller.journal.store import JournalCorrupt

log = logging.getLogger(__name__)

JOURNAL_REFUSED = 65
"""The exit status of a table whose journal does not check out (sysexits' EX_DATAERR)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, type=Path, help="the table config (TOML)")
    parser.add_argument(
        "--sim",
        nargs="?",
        const="all",
        choices=("all", "gpio"),
        default=None,
        help="use simulators: 'all' (the default) for the shoe and the table's GPIO, "
        "'gpio' for the GPIO only (the shoe as configured)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the simulated shoe's shuffle")


def run(args: argparse.Namespace) -> int:
    # Blocked before any thread starts, so that every thread inherits it: a SIGTERM that
    # comes during the start (systemd stopping a table that is still starting) waits for
    # `serve_until_signalled` instead of killing the process in whichever thread it hits.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        config = load_config(args.config)
        table = RunningTable(config, simulate=args.sim, seed=args.seed).start()
    except JournalCorrupt as exc:
        print(f"tablectl run: {exc}", file=sys.stderr)
        return JOURNAL_REFUSED
    except TableError as exc:
        say("tablectl run", exc)
        return 2
    except OSError as exc:
        print(f"tablectl run: {exc}", file=sys.stderr)
        return 1
    return serve_until_signalled(table)


def serve_until_signalled(table: RunningTable) -> int:
    """Block SIGINT and SIGTERM in every thread and wait for one here: the controller
    thread is never interrupted in the middle of an event."""
    signals = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    url = table.server.url if table.server is not None else "(no display)"
    print(f"table {table.config.table_id} running; status display on {url}", flush=True)
    systemd.notify("READY=1")
    interval = min(1.0, systemd.watchdog_interval())
    while True:
        received = signal.sigtimedwait(signals, interval)
        if received is not None:
            log.info("stopping on %s", signal.Signals(received.si_signo).name)
            break
        if table.loop.failed is not None:
            print(f"tablectl run: stopped: {table.loop.failed}", file=sys.stderr)
            break
        systemd.notify("WATCHDOG=1")
    systemd.notify("STOPPING=1")
    table.stop()
    if table.loop.broken_row is not None:
        return JOURNAL_REFUSED
    return 0 if table.loop.failed is None else 1
