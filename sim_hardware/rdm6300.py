"""A simulated RDM6300 RFID reader: writes real RDM6300 frames to a real byte line.

By default it makes a pseudo-terminal (``os.openpty``), puts the slave in raw mode
(``tty.setraw``: otherwise the line discipline would echo bytes and could take 0x03 for
Ctrl-C) and writes to the master; the driver opens the slave path, exactly as it would open
``/dev/ttyUSB0``. Given ``link=``, the slave is reached through a symbolic link at that path,
the way ``/dev/serial/by-id/...`` reaches a real adapter, so `unplug` and `replug` can pull
the line and bring a new one up under the same name. It can also write to any open file
descriptor or any object with ``write(bytes)`` (a pyserial port, a socket file).

A real reader repeats the frame while the tag is in its field: `present(tag, repeats=N)`
writes it N times. Faults: ``bad_checksum=True``, or `send` any bytes (junk, split frames).

`SimulatedRfidShoe` is a whole card shoe with such a reader at its mouth: tagged decks, its
enrolment files, a draw that slides the next card past the reader (`tablectl demo --shoe
rfid`, `run --sim` with an RFID ``[shoe]``, the tests and the soak).
"""

from __future__ import annotations

import logging
import os
import random
import threading
import tty
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from controller.cards import DECK, Card
from firmware_bridge.rdm6300 import encode
from sim_hardware.device import DeviceRefused

log = logging.getLogger(__name__)


class Writable(Protocol):
    def write(self, data: bytes, /) -> object: ...


class SimulatedRdm6300:
    """A simulated reader on its own pty (default), a file descriptor or a writable."""

    def __init__(self, target: int | Writable | None = None, *, link: str | Path | None = None):
        self._link = Path(link) if link is not None else None
        self._target: int | Writable | None = target
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path: str | None = None
        if target is None:
            self._open_pty()
            log.info("simulated RDM6300 reader (not real hardware) at %s", self.path)
        elif self._link is not None:
            raise ValueError("link= is only for the simulator's own pty")

    @property
    def path(self) -> str:
        """What the driver opens: the link if there is one, else the pty slave."""
        if self._link is not None:
            return str(self._link)
        if self._slave_path is None:
            raise ValueError("this simulated reader writes to a given target, not a pty")
        return self._slave_path

    def present(self, tag: str, repeats: int = 3, *, bad_checksum: bool = False) -> None:
        """Hold ``tag`` (10 hex digits) in the field long enough for ``repeats`` frames."""
        self.send(encode(tag, bad_checksum=bad_checksum) * repeats)

    def send(self, data: bytes) -> None:
        """Write raw bytes to the line (junk, half frames, anything)."""
        target = self._master if self._target is None else self._target
        if target is None:
            raise OSError("simulated reader is unplugged")
        if isinstance(target, int):
            view = memoryview(data)
            while view:
                view = view[os.write(target, view) :]
        else:
            target.write(data)

    def unplug(self) -> None:
        """Pull the line: the driver's reads fail, and the link goes, as udev's would."""
        if self._target is not None:
            raise ValueError("only the simulator's own pty can be unplugged")
        if self._link is not None:
            # Removed first: a dangling link could name another process's new pty.
            self._link.unlink(missing_ok=True)
        self._close_pty()
        log.info("simulated RDM6300 reader unplugged")

    def replug(self) -> None:
        """Bring up a new line under the same link (needs ``link=``)."""
        if self._link is None:
            raise ValueError("replug needs link=: a new pty has a new path")
        self._close_pty()
        self._open_pty()
        log.info("simulated RDM6300 reader plugged in again at %s", self.path)

    def close(self) -> None:
        """Close the pty (if it is ours) and remove the link. The target is left open."""
        self._close_pty()
        if self._link is not None:
            self._link.unlink(missing_ok=True)

    def __enter__(self) -> SimulatedRdm6300:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open_pty(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self._slave_path = os.ttyname(self._slave)
        if self._link is not None:
            temporary = self._link.with_name(self._link.name + ".new")
            temporary.unlink(missing_ok=True)
            temporary.symlink_to(self._slave_path)
            os.replace(temporary, self._link)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None


def sim_tag(deck: int, index: int) -> str:
    """The tag the simulator sews into card ``index`` (of `DECK`) of deck ``deck`` (0-based):
    ten hex digits, ``C0`` + the deck + the card's number."""
    return f"{0xC0 + deck:02X}{index:08X}"


def sim_cut_tag(deck: int = 0) -> str:
    """The tag of the simulator's cutting card."""
    return f"{0xC0 + deck:02X}000000FF"


class SimulatedRfidShoe:
    """A card shoe with an RDM6300 reader at its mouth: ``decks`` decks of tagged cards.

    Every card of every deck has its own tag (`sim_tag`), and the cutting card too
    (`sim_cut_tag`); `write_decks` writes the deck enrolment files a table loads. `draw`
    slides the next card past the reader, which sends its frame ``repeats`` times (a real
    reader repeats while the tag is in its field). The shoe has no gate of its own: an RFID
    table's gate is on its GPIO, so ``gate_locked`` is given (the simulated table's pin);
    `draw_when_open` waits on ``wait_open`` for it, as a dealer waits at a locked gate.

    Faults for the tests and the soak: `present` any tag (an unknown one, or a card's tag
    again), `unplug` and `replug` the reader (needs ``link=``).
    """

    def __init__(
        self,
        decks: int = 6,
        *,
        rng: random.Random | None = None,
        link: str | Path | None = None,
        repeats: int = 3,
    ) -> None:
        self.decks = decks
        self.rng = rng or random.Random(0)
        self.repeats = repeats
        self.reader = SimulatedRdm6300(link=link)
        self.card_of: dict[str, Card] = {
            sim_tag(d, i): card for d in range(decks) for i, card in enumerate(DECK)
        }
        self.cut_tag = sim_cut_tag()
        self.wait_open: Callable[[float], object] | None = None
        """Blocks until the table's gate is open (None: no gate fitted)."""
        self._lock = threading.Lock()
        self._tags: list[str] = []
        self._next = 0
        self.cut_card_at = 0
        self.drawn: list[tuple[str, Card]] = []  # every card slid out, with its tag
        self.load()

    @property
    def path(self) -> str:
        """The reader's port, for ``[shoe] url``."""
        return self.reader.path

    def write_decks(self, folder: str | Path) -> list[Path]:
        """Write one deck enrolment file per deck (docs/rfid.md); the cutting card is in
        the first. Returns their paths, for ``[shoe] decks``."""
        paths: list[Path] = []
        for d in range(self.decks):
            path = Path(folder) / f"sim-deck-{d + 1}.txt"
            lines = [f"# simulated deck {d + 1} of {self.decks} (sim_hardware.rdm6300)"]
            lines += [f"{sim_tag(d, i)}  {card}" for i, card in enumerate(DECK)]
            if d == 0:
                lines.append(f"{self.cut_tag}  CUT")
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            paths.append(path)
        return paths

    def load(self, cards: Sequence[Card] | None = None, cut_card_at: int | None = None) -> None:
        """Fill the shoe: a fresh shuffle of its decks, or ``cards`` in that order (each
        given the tag of an unused copy). The cutting card goes in front of card number
        ``cut_card_at`` (0-based), by default about three quarters of the way in."""
        if cards is None:
            tags = list(self.card_of)
            self.rng.shuffle(tags)
        else:
            free: dict[Card, list[str]] = {}
            for tag, card in self.card_of.items():
                free.setdefault(card, []).append(tag)
            try:
                tags = [free[card].pop(0) for card in cards]
            except IndexError:
                raise ValueError("more copies of a card than the shoe's decks hold") from None
        with self._lock:
            self._tags = tags
            self._next = 0
            self.cut_card_at = (
                cut_card_at if cut_card_at is not None else max(1, len(tags) * 3 // 4)
            )

    @property
    def cards_left(self) -> int:
        return len(self._tags) - self._next

    @property
    def since_shuffle(self) -> list[str]:
        """The tags slid out since the shoe was last loaded (shuffled)."""
        with self._lock:
            return self._tags[: self._next]

    def draw_when_open(self, timeout: float = 10.0) -> Card:
        """What a dealer does: wait for the table's gate to open, then draw."""
        if self.wait_open is not None:
            try:
                self.wait_open(timeout)
            except TimeoutError as exc:
                message = "the gate stays locked: the controller holds the table"
                raise DeviceRefused(message) from exc
        return self.draw()

    def draw(self) -> Card:
        """Slide the next card past the reader (the cutting card first, when it is next)."""
        with self._lock:
            if self._next >= len(self._tags):
                raise DeviceRefused("the shoe is empty")
            if self._next == self.cut_card_at:
                self.reader.present(self.cut_tag, self.repeats)
            tag = self._tags[self._next]
            self._next += 1
            card = self.card_of[tag]
            self.drawn.append((tag, card))
            self.reader.present(tag, self.repeats)
            return card

    def present(self, tag: str, repeats: int | None = None) -> None:
        """Hold any tag in the reader's field: an unknown one, or a card's tag again."""
        self.reader.present(tag, self.repeats if repeats is None else repeats)

    def unplug(self) -> None:
        self.reader.unplug()

    def replug(self) -> None:
        self.reader.replug()

    def start(self) -> SimulatedRfidShoe:
        return self

    def close(self) -> None:
        self.reader.close()

    def __enter__(self) -> SimulatedRfidShoe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
