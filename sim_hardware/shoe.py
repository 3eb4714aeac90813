"""A simulated card shoe that speaks the real wire protocol over a real byte line.

It behaves as the firmware of a dealing shoe would: it holds a shuffled shoe (from a seeded
`random.Random`, or an explicit card list), and each `draw` sends CARD_DRAWN with the next
sequence number, resending until the controller ACKs it. It obeys GATE_LOCK / GATE_UNLOCK
(a locked gate refuses `draw`, as a solenoid would hold the card), reports the cutting card
and an empty shoe in SHOE_STATUS (levels: the cutting card stays seen until it is loaded
again), shows LAMP commands in `lamps`, and sends heartbeats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.cards import Card, shoe_cards
from firmware_bridge import messages as m
from sim_hardware.device import DeviceRefused, SimulatedDevice
from sim_hardware.link import Link

GATE_WAIT_SECONDS = 10.0  # how long a dealer waits at a locked gate before giving up


class SimulatedShoe(SimulatedDevice):
    def __init__(
        self,
        link: Link,
        *,
        cards: Sequence[Card] | None = None,
        decks: int = 6,
        rng: random.Random | None = None,
        cut_card_at: int | None = None,
        serial_number: str = "SIM-SHOE-0001",
        **kw: object,
    ) -> None:
        super().__init__(
            link,
            kind=m.DeviceKind.SHOE,
            serial_number=serial_number,
            firmware="sim-shoe-1.0",
            rng=rng or random.Random(0),
            **kw,  # type: ignore[arg-type]
        )
        self.decks = decks
        self.cut_card_out = False
        self._cards: list[Card] = []
        self._next = 0
        self.cut_card_at = 0
        self.load(cards, cut_card_at)

    def load(self, cards: Sequence[Card] | None = None, cut_card_at: int | None = None) -> None:
        """Fill the shoe: with ``cards`` in that order, or a fresh shuffle of its decks from
        its random generator (the dealer shuffling). The cutting card goes in front of card
        number ``cut_card_at`` (0-based); by default about three quarters of the way in, as
        a dealer would place it."""
        if cards is None:
            shuffled = list(shoe_cards(self.decks))
            self.rng.shuffle(shuffled)
            cards = shuffled
        with self._lock:
            self._cards = list(cards)
            self._next = 0
            self.cut_card_out = False  # SHOE_STATUS bit 0 is a level, clear until the cut
            self.cut_card_at = (
                cut_card_at if cut_card_at is not None else max(1, len(self._cards) * 3 // 4)
            )

    def _send_card(self, card: Card, device_ms: int) -> None:
        """CARD_DRAWN for ``card`` (the lock held)."""
        self.session.send(m.CardDrawn(0, str(card), device_ms))

    def _status(self) -> m.ShoeStatus:
        """SHOE_STATUS reports levels (docs/protocol.md): the cutting card stays seen from
        its passage until the shoe is loaded again."""
        return m.ShoeStatus(
            0,
            cut_card_seen=self.cut_card_out,
            shoe_empty=self._next >= len(self._cards),
            gate_locked=self.gate_locked,
        )

    @property
    def cards_left(self) -> int:
        return len(self._cards) - self._next

    def draw_when_open(self, timeout: float = GATE_WAIT_SECONDS) -> Card:
        """What a dealer does: wait for the gate to open (the controller's GATE_UNLOCK takes
        a moment to arrive), then draw. Raises `DeviceRefused` if it stays locked.

        The wait ends as soon as the unlock arrives (the device's condition is notified
        on every message); the timeout only bounds a gate that stays locked (a HOLD), so
        it is generous: on a loaded machine the unlock can take seconds."""
        self.wait_for(lambda: not self.gate_locked, timeout)
        return self.draw()

    def draw(self) -> Card:
        """Slide the next card out. Raises `DeviceRefused` if the gate is locked or the shoe
        is empty."""
        with self._lock:
            if self.gate_locked:
                raise DeviceRefused("the shoe's gate is locked: the controller holds the table")
            if self._next >= len(self._cards):
                raise DeviceRefused("the shoe is empty")
            if self._next == self.cut_card_at:
                self.cut_card_out = True
                self.session.send(self._status())
            card = self._cards[self._next]
            self._next += 1
            device_ms = int(self.clock() * 1000) & 0xFFFFFFFF
            self._send_card(card, device_ms)
            if self._next == len(self._cards):
                self.session.send(self._status())
            self._flush()
            return card
