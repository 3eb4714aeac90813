"""Fault injection on a byte line: what a long RS-232 run beside a card shuffler does.

`LineFaults` decides, write by write and from a seeded `random.Random`, whether the bytes
are corrupted (one byte changed), split (sent in pieces with a short pause between, so the
reader sees partial frames), duplicated, dropped or delayed. `FaultyLink` wraps a `Link`
and applies one `LineFaults` to what the device writes and another to what it reads.
Pulling the cable is `Link.disconnect` / `Link.reconnect`.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass, field

from sim_hardware.link import Link


@dataclass
class LineFaults:
    rng: random.Random
    corrupt: float = 0.0
    split: float = 0.0
    duplicate: float = 0.0
    drop: float = 0.0
    delay: float = 0.0
    delay_seconds: float = 0.002
    counts: Counter[str] = field(default_factory=Counter)

    def apply(self, data: bytes) -> list[bytes | float]:
        """What to put on the line for one write: byte strings, and pauses in seconds."""
        if not data:
            return []
        rng = self.rng
        if rng.random() < self.drop:
            self.counts["drop"] += 1
            return []
        if rng.random() < self.corrupt:
            self.counts["corrupt"] += 1
            spoiled = bytearray(data)
            at = rng.randrange(len(spoiled))
            spoiled[at] ^= rng.randrange(1, 256)
            data = bytes(spoiled)
        out: list[bytes | float] = []
        if rng.random() < self.delay:
            self.counts["delay"] += 1
            out.append(self.delay_seconds)
        if len(data) > 1 and rng.random() < self.split:
            self.counts["split"] += 1
            at = rng.randrange(1, len(data))
            out += [data[:at], 0.0005, data[at:]]
        else:
            out.append(data)
        if rng.random() < self.duplicate:
            self.counts["duplicate"] += 1
            out.append(data)
        return out

    @property
    def total(self) -> int:
        return sum(self.counts.values())


class FaultyLink:
    """A `Link` whose traffic passes through `LineFaults` in either direction."""

    def __init__(
        self,
        link: Link,
        outbound: LineFaults | None = None,
        inbound: LineFaults | None = None,
    ) -> None:
        self.link = link
        self.outbound = outbound
        self.inbound = inbound
        self.url = link.url
        self._pause = threading.Event()

    @property
    def connected(self) -> bool:
        return self.link.connected

    def write(self, data: bytes) -> None:
        if self.outbound is None:
            self.link.write(data)
            return
        for piece in self.outbound.apply(data):
            if isinstance(piece, float):
                self._pause.wait(piece)  # a slow line, not a test waiting for a result
            else:
                self.link.write(piece)

    def read(self, timeout: float) -> bytes:
        data = self.link.read(timeout)
        if self.inbound is None or not data:
            return data
        return b"".join(p for p in self.inbound.apply(data) if isinstance(p, bytes))

    def disconnect(self) -> None:
        self.link.disconnect()

    def reconnect(self) -> None:
        self.link.reconnect()

    def close(self) -> None:
        self.link.close()
