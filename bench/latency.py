"""The running table's latency, idle CPU and memory, in one run.

    .venv/bin/python bench/latency.py [--cards 300] [--idle 10] [--json]

A real `tablectl run --sim gpio` process (sim_hardware/testbed.py) with its shoe on a
simulated shoe in this process, over a pty; a scripted dealer plays blackjack through the
console API until ``--cards`` cards have been dealt.

- Card to state: from the simulated shoe's write of a CARD_DRAWN frame to the controller's
  publication of the state that includes it (journal row durable on disk, rules applied,
  shoe acknowledged, the state handed to the status server), heard as the page hears it,
  on the server's event stream. Both ends are read on CLOCK_MONOTONIC (time.perf_counter on Linux),
  which is one clock for every process on the machine. Beside it, the floor: one durable
  SQLite WAL insert (synchronous=FULL) on the same disk.
- Idle CPU: the controller process's CPU over ``--idle`` seconds with its devices open
  (the shoe heartbeating) and no events, as % of one core.
- Peak RSS: the controller process's VmHWM at the end.

Targets: card to state median < 1 ms and at most 2.5x the floor measured in the same run,
p99 < 3 ms, on a quiet machine; idle CPU < 0.5 %, RSS < 60 MB.
``--json`` prints, besides the details, ``median_ms``, ``p99_ms``, ``floor_median_ms`` and
``median_floor_ratio``, and the load average before and after the run (``load_average``:
on a shared machine a p99 means little without it; docs/install.md).

Where a card's time goes (medians, 300 cards, the 2-core development machine at low load):
the shoe's line and the reader thread's wake-up 0.12 ms, decoding 0.05, the queue to the
controller thread 0.06, the rules 0.05, the rows and their HMACs 0.09, the INSERT 0.06, the
COMMIT with its fsync 0.40, the gate, lamps and ACK 0.06, the game's view 0.16. After the
table has been idle the COMMIT alone costs what the durable-insert floor costs measured the
same way, so the median (1.1 to 1.35 ms) does not meet "2.5x the floor": the line, the fsync
and the two thread wake-ups the design requires exceed it before any Python runs. The p99 is
time spent waiting for a CPU: SCHED_FIFO on the reader and controller threads
(`drivers.realtime`, granted by the deploy unit's ``LimitRTPRIO``) brings it from 4.4-6.6 ms
to 2.4-3.2 ms at load 0.5. This benchmark's controller runs without it unless the shell that
starts it has the limit (``prlimit --rtprio=10``, which needs CAP_SYS_RESOURCE).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim_hardware.dealer import BlackjackDealer
from sim_hardware.link import PtyLink
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle, write_config

TARGETS = {
    "median_ms": 1.0,
    "median_floor_ratio": 2.5,
    "p99_ms": 3.0,
    "idle_cpu_percent": 0.5,
    "rss_mb": 60.0,
}


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


class StateStream:
    """The page's view of the table: ``GET /api/events`` (Server-Sent Events), read on a
    thread of its own; `wait_past` waits for the first state past a journal row. This is
    how the display hears of a card; polling ``/api/state`` every 2 ms instead (as this
    benchmark once did) loads the controller's process with requests no real
    page makes, in the very millisecond being measured."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self._conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
        self._conn.request("GET", "/api/events")
        self._response = self._conn.getresponse()
        self._latest: dict[str, Any] = {}
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, name="bench-sse", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        event = ""
        try:
            for raw in self._response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    with self._changed:
                        self._latest = json.loads(line[6:])
                        self._changed.notify_all()
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # the controller stopped, or `close` closed the stream under the read

    def wait_past(self, seq: int, timeout: float) -> dict[str, Any] | None:
        with self._changed:
            if self._changed.wait_for(
                lambda: self._latest.get("journal_seq", 0) > seq, timeout=timeout
            ):
                return self._latest
        return None

    def close(self) -> None:
        self._conn.close()


def card_latencies(
    client: ConsoleClient, shoe: SimulatedShoe, dealer: BlackjackDealer, cards: int
) -> list[float]:
    samples: list[float] = []
    stream = StateStream(client.base_url)
    try:
        state = client.state()
        while len(samples) < cards:
            seen = state.get("journal_seq", 0)
            drawn_before = shoe.session.counters.sent
            did = dealer.step()
            if shoe.session.counters.sent > drawn_before and did.startswith(("deal", "hit")):
                written = shoe.last_write_at
                published = stream.wait_past(seen, timeout=5.0)
                if published is not None:
                    samples.append(published["published_at"] - written)
            state = settle(client, seen, timeout=0.5 if did.startswith("wait") else 3.0)
    finally:
        stream.close()
    return samples


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int, field: str = "VmHWM") -> float:
    """The process's peak (``VmHWM``) or present (``VmRSS``) resident memory, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def sqlite_floor(folder: Path, rounds: int = 300, gap: float = 0.0) -> list[float]:
    """One durable insert, ``rounds`` times: back to back (the target's floor), or each after
    ``gap`` seconds of sleep, as a card's insert comes after the table was idle (the
    process's caches cold, its CPU asleep): the floor the card path's own COMMIT meets."""
    db = sqlite3.connect(folder / f"floor-{gap}.sqlite", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, payload TEXT)")
    samples = []
    for _ in range(rounds):
        if gap:
            time.sleep(gap)
        start = time.perf_counter()
        db.execute("INSERT INTO t (payload) VALUES (?)", ("x" * 200,))
        samples.append(time.perf_counter() - start)
    db.close()
    return samples


def measure(cards: int, idle: float) -> dict[str, Any]:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="tablectl-bench-") as name:
        folder = Path(name)
        floor = sqlite_floor(folder)
        floor_idle = sqlite_floor(folder, rounds=100, gap=0.02)
        with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(5)) as shoe:
            port = free_port()
            client = ConsoleClient(f"http://127.0.0.1:{port}")
            controller = ControllerProcess(write_config(folder, shoe.link.url, port), client)
            controller.start()
            try:
                dealer = BlackjackDealer(
                    RemoteHands(client, shoe), client.state, random.Random(6),
                    insurance_sensors=False,
                )  # fmt: skip
                samples = card_latencies(client, shoe, dealer, cards)
                pid = controller.pid
                before = cpu_seconds(pid)
                time.sleep(idle)  # the idle period being measured
                idle_cpu = (cpu_seconds(pid) - before) / idle * 100
                rss, rss_now = rss_mb(pid), rss_mb(pid, "VmRSS")
            finally:
                controller.stop()
    median, floor_median = statistics.median(samples) * 1e3, statistics.median(floor) * 1e3
    return {
        "median_ms": median,
        "p99_ms": percentile(samples, 0.99) * 1e3,
        "floor_median_ms": floor_median,
        "median_floor_ratio": median / floor_median,
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "cards": len(samples),
        "card_to_state_ms": {
            "median": statistics.median(samples) * 1e3,
            "p99": percentile(samples, 0.99) * 1e3,
        },
        "sqlite_durable_insert_ms": {
            "median": statistics.median(floor) * 1e3,
            "p99": percentile(floor, 0.99) * 1e3,
        },
        "sqlite_durable_insert_after_idle_ms": {
            "median": statistics.median(floor_idle) * 1e3,
            "p99": percentile(floor_idle, 0.99) * 1e3,
        },
        "idle_cpu_percent": idle_cpu,
        "rss_mb": rss,
        # after play and the idle period: the peak is this plus the 16 MiB that scrypt
        # (n=2**14, r=8) works in while it checks the dealer's PIN at sign-in, then frees
        "rss_after_mb": rss_now,
    }


def verdicts(result: dict[str, Any]) -> dict[str, bool]:
    return {
        "median_ms": result["median_ms"] < TARGETS["median_ms"],
        "median_floor_ratio": result["median_floor_ratio"] <= TARGETS["median_floor_ratio"],
        "p99_ms": result["p99_ms"] < TARGETS["p99_ms"],
        "idle_cpu_percent": result["idle_cpu_percent"] < TARGETS["idle_cpu_percent"],
        "rss_mb": result["rss_mb"] < TARGETS["rss_mb"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=300)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.cards, args.idle)
    met = verdicts(result)
    result["targets"] = TARGETS
    result["met"] = met
    if args.json:
        print(json.dumps(result))
        return 0
    card, floor = result["card_to_state_ms"], result["sqlite_durable_insert_ms"]
    print(f"running table ({result['cards']} cards dealt through a tablectl run process)")
    print(f"  {'':<46} {'median':>9} {'p99':>9}   target")
    latency_met = "met" if met["median_ms"] and met["p99_ms"] else "NOT met"
    print(
        f"  {'shoe write -> state published (journal durable)':<46} {card['median']:>7.2f}ms "
        f"{card['p99']:>7.2f}ms   <1 / <3 ms: {latency_met}"
    )
    print(
        f"  {'one durable SQLite WAL insert (the floor)':<46} {floor['median']:>7.2f}ms "
        f"{floor['p99']:>7.2f}ms"
    )
    idle_floor = result["sqlite_durable_insert_after_idle_ms"]
    print(
        f"  {'the same insert after 20 ms idle (as a card)':<46} {idle_floor['median']:>7.2f}ms "
        f"{idle_floor['p99']:>7.2f}ms"
    )
    print(
        f"  median {result['median_floor_ratio']:.1f}x the floor (target <= 2.5x: "
        f"{'met' if met['median_floor_ratio'] else 'NOT met'}); load average "
        f"{result['load_average']['before'][0]:.2f} before, "
        f"{result['load_average']['after'][0]:.2f} after"
    )
    print(
        f"  idle CPU over {args.idle:.0f} s: {result['idle_cpu_percent']:.2f} % of one core "
        f"(target < 0.5 %: {'met' if met['idle_cpu_percent'] else 'NOT met'})"
    )
    print(
        f"  peak RSS: {result['rss_mb']:.1f} MB (target < 60 MB: "
        f"{'met' if met['rss_mb'] else 'NOT met'}); after play {result['rss_after_mb']:.1f} MB "
        "(the peak holds the 16 MiB scrypt works in to check a PIN at sign-in)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
