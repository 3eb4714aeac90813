"""Wire benchmark: decode throughput, and card latency over a real pty beside the raw floor.

    .venv/bin/python bench/wire.py [--cards 2000] [--json]

1. Frames decoded per second: a stream of CARD_DRAWN frames through the framer alone
   (FrameDecoder), the framer plus message decoding, and the whole receiving session
   (sequence checks included).
2. Latency, over one pseudo-terminal: from the simulated shoe's write of a card frame to
   the driver putting the `CardDrawn` event on its queue; beside the floor, a raw
   `os.write`/`os.read` echo of the same bytes over a pty between two threads (a round
   trip with no protocol at all). Target: our median within 2x of the floor's.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import sys
import threading
import time
import tty
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.cards import DECK
from controller.ports import CardDrawn, Event
from drivers.serial_device import SerialDevice
from firmware_bridge import messages as m
from firmware_bridge.frame import FrameDecoder
from firmware_bridge.session import Session
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe


def decode_rates(frames: int = 100_000) -> dict[str, float]:
    rng = random.Random(1)
    stream = b"".join(
        m.encode(m.CardDrawn(i % 65536, str(rng.choice(DECK)), i)) for i in range(frames)
    )
    chunks = [stream[i : i + 4096] for i in range(0, len(stream), 4096)]

    def rate(work: object) -> float:
        start = time.perf_counter()
        work()  # type: ignore[operator]
        return frames / (time.perf_counter() - start)

    def framer() -> None:
        decoder = FrameDecoder()
        for chunk in chunks:
            decoder.feed(chunk)

    def messages() -> None:
        decoder = FrameDecoder()
        for chunk in chunks:
            for frame in decoder.feed(chunk):
                m.decode(frame)  # type: ignore[arg-type]

    def session() -> None:
        s = Session(m.DeviceKind.CONTROLLER, "c", "b", boot_id=1, clock=time.monotonic)
        s.receive_data(m.encode(m.Hello(m.DeviceKind.SHOE, 2, 0, "s", "f")))
        for chunk in chunks:
            s.receive_data(chunk)

    return {"framer": rate(framer), "framer+messages": rate(messages), "session": rate(session)}


def raw_echo_floor(rounds: int, size: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            data = os.read(slave, 4096)
            os.write(slave, data)

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    payload = b"\x5a" * size
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        os.write(master, payload)
        got = 0
        while got < size:
            got += len(os.read(master, 4096))
        samples.append(time.perf_counter() - start)
    stop.set()
    os.write(master, b"x")
    thread.join(timeout=2)
    os.close(master)
    os.close(slave)
    return samples


class StampedQueue(queue.Queue[Event]):
    """The driver's queue, noting when each card is put on it."""

    def __init__(self) -> None:
        super().__init__()
        self.card_put_at: list[float] = []

    def put(self, item: Event, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, CardDrawn):
            self.card_put_at.append(time.perf_counter())
        super().put(item, block, timeout)


def card_latency(cards: int) -> list[float]:
    """From the simulated shoe's write of a card frame to the driver putting the CardDrawn
    event on its queue."""
    link = PtyLink()
    rng = random.Random(7)
    deck = [rng.choice(DECK) for _ in range(cards + 10)]
    events = StampedQueue()
    samples = []
    with SimulatedShoe(link, cards=deck) as shoe, SerialDevice(link.url, events) as driver:
        for _ in range(10):  # warm up: hello, first cards
            shoe.draw()
        _drain_cards(events, driver, 10)
        for _ in range(cards):
            shoe.draw()
            written = shoe.last_write_at
            _drain_cards(events, driver, 1)
            samples.append(events.card_put_at[-1] - written)
    return samples


def _drain_cards(events: queue.Queue[Event], driver: SerialDevice, n: int) -> None:
    while n:
        event = events.get(timeout=10)
        seq = getattr(event, "seq", None)
        if seq is not None:
            driver.acknowledge(seq)
        if isinstance(event, CardDrawn):
            n -= 1


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rates = decode_rates()
    frame_size = len(m.encode(m.CardDrawn(1, "As", 0)))
    floor = raw_echo_floor(args.cards, frame_size)
    ours = card_latency(args.cards)
    result: dict[str, Any] = {
        "decode_frames_per_second": rates,
        "card_latency_us": {
            "median": statistics.median(ours) * 1e6,
            "p99": percentile(ours, 0.99) * 1e6,
        },
        "raw_pty_echo_us": {
            "median": statistics.median(floor) * 1e6,
            "p99": percentile(floor, 0.99) * 1e6,
        },
    }
    ratio = result["card_latency_us"]["median"] / result["raw_pty_echo_us"]["median"]
    result["median_ratio_to_floor"] = ratio
    result["target_met"] = ratio <= 2.0
    if args.json:
        print(json.dumps(result))
        return 0
    print("wire: frames decoded per second")
    for name, value in rates.items():
        print(f"  {name:<18} {value:>12,.0f}")
    print(f"wire: latency over a pty, {args.cards} cards ({frame_size}-byte frames)")
    print(f"  {'':<34} {'median':>10} {'p99':>10}")
    for label, key in (
        ("shoe write -> driver queue (ours)", "card_latency_us"),
        ("raw os.write/os.read echo (floor)", "raw_pty_echo_us"),
    ):
        row = result[key]
        print(f"  {label:<34} {row['median']:>8.1f}us {row['p99']:>8.1f}us")
    verdict = "met" if result["target_met"] else "NOT met"
    print(f"  median ratio {ratio:.2f}x the floor (target <= 2x): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
