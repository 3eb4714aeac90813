"""The pit feed's cost and capacity.

    .venv/bin/python bench/mqtt.py [--broker mqtt://host:port] [--seconds 10] [--cards 300]
                                   [--rows 20000] [--json]

Without ``--broker`` it starts its own mosquitto on a free loopback port (in a temporary
folder) and stops it at the end. Three measurements:

1. ``capacity``: how many journal rows per second one publisher gets acknowledged (PUBACK)
   by the broker: a journal of ``--rows`` rows is written first, then the publisher is
   started and timed until its durable cursor reaches the last row.
2. ``while_playing``: a simulated table (the demo's: real pty, real drivers, scripted
   dealer at full speed) plays for ``--seconds`` with the pit feed on; the rows it
   journaled per second, and the rows per second the broker acknowledged, and how far the
   feed was behind at the end.
3. ``card_to_state``: from the simulated shoe writing a card frame to the controller
   thread publishing the state with that card (the moment the status display and the pit
   are handed it), with the pit feed on and off, alternating runs of ``--cards`` cards.
   Target: the median with publishing on within 10% of off.
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.app.cli.demo import SimHands, act, demo_config
from controller.app.config import PitConfig, TableConfig
from controller.app.pit.publisher import PitPublisher
from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.table import RunningTable
from controller.ports import CardDrawn
from sim_hardware.dealer import BlackjackDealer

TARGET_CHANGE = 0.10
RUNS = 6  # alternating on, off, on...: each side gets --cards cards


class Mosquitto:
    """A throwaway broker on a free loopback port."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        conf = folder / "mosquitto.conf"
        conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\nuser {getpass.getuser()}\n"
            "log_dest stderr\nlog_type error\nlog_type information\nmax_queued_messages 0\n"
        )
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.proc = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        for line in self.proc.stderr:  # wait for its own "running" line
            if " running" in line:
                break
        else:
            raise RuntimeError("mosquitto did not start")
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def with_pit(config: TableConfig, broker: str | None) -> TableConfig:
    pit = None if broker is None else PitConfig(broker=broker, keepalive=10)
    return dataclasses.replace(config, pit=pit)


def capacity(broker: str, rows: int, folder: Path) -> dict[str, Any]:
    config = with_pit(demo_config("blackjack", folder / "capacity.sqlite", port=0), broker)
    with open_journal(config.journal_path, create=True) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")  # the setup only, not what is measured
        for n in range(rows):
            journal.append(
                "CardDrawn",
                {"card": "AS", "seq": n, "device_ms": None},
                source="shoe",
                round=n // 10,
            )
        last = journal.last_seq
    publisher = PitPublisher(config)
    start = time.perf_counter()
    publisher.start()
    try:
        if not publisher.wait_acknowledged(last, timeout=600):
            raise RuntimeError("the broker did not acknowledge every row")
        elapsed = time.perf_counter() - start
    finally:
        publisher.close()
    return {"rows": rows, "seconds": round(elapsed, 2), "rows_per_second": round(rows / elapsed)}


def while_playing(broker: str, seconds: float, folder: Path, seed: int) -> dict[str, Any]:
    config = with_pit(demo_config("blackjack", folder / "playing.sqlite", port=0), broker)
    table = RunningTable(config, simulate=True, serve=False, seed=seed).start()
    publisher = next(feed for feed in table.feeds if isinstance(feed, PitPublisher))
    try:
        dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(seed))
        first = table.journal.last_seq
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            act(table, dealer)
        played = time.perf_counter() - start
        last = table.journal.last_seq
        behind = last - (publisher.cursor.seq if publisher.cursor else 0)
        publisher.wait_acknowledged(last, timeout=60)
        drained = time.perf_counter() - start
    finally:
        table.stop()
    journaled = last - first
    return {
        "seconds": round(played, 2),
        "rounds": dealer.rounds_finished,
        "rows_journaled_per_second": round(journaled / played, 1),
        "rows_acknowledged_per_second": round(journaled / drained, 1),
        "rows_behind_at_end": behind,
    }


class Probe:
    """The last feed: notes when each state is published, and the journal row it is at."""

    def __init__(self) -> None:
        self.published: list[tuple[float, int]] = []
        self.lock = threading.Lock()

    def start(self) -> Probe:
        return self

    def publish(self, state: dict[str, Any]) -> None:
        now = time.perf_counter()
        with self.lock:
            self.published.append((now, int(state["journal_seq"])))

    def close(self) -> None:
        pass


class TimedHands(SimHands):
    def __init__(self, table: RunningTable) -> None:
        super().__init__(table)
        self.table = table
        self.writes: list[float] = []

    def draw(self) -> str:
        started = time.perf_counter()
        card = super().draw()  # a refused draw (the gate locked) writes no frame
        self.writes.append(started)
        return card


def card_latencies(
    config: TableConfig, cards: int, seed: int, pace: float
) -> tuple[list[float], list[float]]:
    """(frame written -> state published, card event queued -> state published), in ms."""
    table = RunningTable(config, simulate=True, serve=False, seed=seed)
    probe = Probe()
    table.feeds.append(probe)
    queued: list[float] = []
    put = table.events.put

    def timed_put(item: Any, *args: Any, **kw: Any) -> None:
        if isinstance(item, CardDrawn):
            queued.append(time.perf_counter())
        put(item, *args, **kw)

    table.events.put = timed_put  # type: ignore[method-assign]
    table.start()
    try:
        hands = TimedHands(table)
        dealer = BlackjackDealer(hands, lambda: table.state, random.Random(seed))
        while len(hands.writes) < cards:
            act(table, dealer)
            if pace:
                time.sleep(pace)  # the dealer's hands between actions (not a wait for a result)
        with probe.lock:
            published = list(probe.published)
        # the i-th card frame written is the i-th CardDrawn journaled
        rows = [e.seq for e in table.journal.entries() if e.kind == "CardDrawn"]
    finally:
        table.stop()

    def latencies(starts: list[float]) -> list[float]:
        out = []
        for started, row in zip(starts, rows, strict=False):
            after = next((t for t, seq in published if seq >= row and t >= started), None)
            if after is not None:
                out.append((after - started) * 1000.0)
        return out

    return latencies(hands.writes), latencies(queued)


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "cards": len(values),
        "median_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
        "max_ms": round(ordered[-1], 3),
    }


def card_to_state(broker: str, cards: int, folder: Path, seed: int, pace: float) -> dict[str, Any]:
    runs: dict[str, list[float]] = {
        "frame_on": [],
        "frame_off": [],
        "queue_on": [],
        "queue_off": [],
    }
    for run in range(RUNS):  # alternate, so drift on a shared machine hits both alike
        base = demo_config("blackjack", folder / f"latency-{run}.sqlite", port=0)
        side = "on" if run % 2 == 0 else "off"
        config = with_pit(base, broker if side == "on" else None)
        frame, queued = card_latencies(config, cards * 2 // RUNS, seed + run, pace)
        runs[f"frame_{side}"].extend(frame)
        runs[f"queue_{side}"].extend(queued)
    result: dict[str, Any] = {name: summary(values) for name, values in runs.items()}
    meets = True
    for path in ("frame", "queue"):
        change = result[f"{path}_on"]["median_ms"] / result[f"{path}_off"]["median_ms"] - 1.0
        result[f"{path}_median_change"] = round(change, 3)
        meets = meets and change <= TARGET_CHANGE
    result["target_change"] = TARGET_CHANGE
    result["meets_target"] = meets
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", default=None, help="default: a mosquitto of its own")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--cards", type=int, default=300)
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.05,
        help="seconds between the dealer's actions in the latency runs (default 0.05; 0: "
        "back to back, which measures the feed's catch-up competing with the next card)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mqtt-") as name:
        folder = Path(name)
        own = None if args.broker else Mosquitto(folder)
        broker = args.broker or (own.url if own else "")
        try:
            result: dict[str, Any] = {
                "broker": broker,
                "capacity": capacity(broker, args.rows, folder),
                "while_playing": while_playing(broker, args.seconds, folder, args.seed),
                "card_to_state": card_to_state(broker, args.cards, folder, args.seed, args.pace),
            }
        finally:
            if own is not None:
                own.stop()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        cap, play, lat = result["capacity"], result["while_playing"], result["card_to_state"]
        print(f"broker {broker}")
        print(
            f"capacity: {cap['rows_per_second']} journal rows/s acknowledged by the broker "
            f"({cap['rows']} rows in {cap['seconds']} s)"
        )
        print(
            f"while playing: {play['rows_journaled_per_second']} rows/s journaled, "
            f"{play['rows_acknowledged_per_second']} rows/s acknowledged, "
            f"{play['rows_behind_at_end']} rows behind at the end ({play['rounds']} rounds)"
        )
        labels = {"frame": "shoe frame written", "queue": "card event queued"}
        for path, label in labels.items():
            for side in ("on", "off"):
                s = lat[f"{path}_{side}"]
                print(
                    f"{label} -> state published, pit {side:<3}: median {s['median_ms']:7.3f} ms"
                    f"  p95 {s['p95_ms']:7.3f}  max {s['max_ms']:7.3f}  ({s['cards']} cards)"
                )
            print(f"  median change with publishing on: {lat[f'{path}_median_change']:+.1%}")
        verdict = "meets" if lat["meets_target"] else "MISSES"
        print(f"target: within {TARGET_CHANGE:.0%} on both: {verdict}")
    return 0 if result["card_to_state"]["meets_target"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
