"""What the controller accepts from devices (events) and what it asks of them (commands).

Device threads only ever build these immutable values and put them on the controller's
queue; the one controller thread applies them. Events are named in the past tense, commands
in the imperative. Drivers and simulators import this module; it imports nothing of theirs.

An event that a device will resend until it is acknowledged carries the device's sequence
number in ``seq``; the controller journals it, then calls the driver's ``acknowledge``.
Events with ``seq=None`` come from devices that have no acknowledgement (an RDM6300 reader,
a GPIO pin).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from controller.cards import Card


class Fault(StrEnum):
    """Named problems a device or its line can report. Each becomes a `DeviceFault` event."""

    BAD_CRC = "bad-crc"  # a frame whose CRC-16 does not match
    BAD_CHECKSUM = "bad-checksum"  # an RDM6300 frame whose XOR checksum does not match
    MALFORMED = "malformed"  # a frame whose length or fields do not fit its type
    OVERSIZE = "oversize"  # a frame or declared length over the protocol's maximum
    UNKNOWN_MESSAGE = "unknown-message"  # a message type this controller does not know
    BAD_CARD = "bad-card"  # a card code that is not a card
    UNSUPPORTED_VERSION = "unsupported-version"  # a HELLO with a protocol we do not speak
    SEQUENCE_GAP = "sequence-gap"  # the device skipped sequence numbers: events were lost
    UNKNOWN_TAG = "unknown-tag"  # an RFID tag that is not in the enrolled deck


class ConsoleButton(StrEnum):
    """The dealer's console buttons (and their twins on the touch console)."""

    NO_MORE_BETS = "no_more_bets"
    NEXT = "next"
    DOUBLE = "double"
    SPLIT = "split"
    INSURANCE_CLOSED = "insurance_closed"
    EVEN_MONEY = "even_money"
    VOID_HAND = "void_hand"
    SUPERVISOR = "supervisor"


class Lamp(StrEnum):
    """The table's signal lamps."""

    BETTING_OPEN = "betting_open"
    INSURANCE_OPEN = "insurance_open"
    DEALER_ACTION = "dealer_action"
    HOLD = "hold"  # red: a violation holds the table until a supervisor clears it


class LampPattern(StrEnum):
    OFF = "off"
    STEADY = "steady"
    BLINK = "blink"  # about 1 Hz
    PULSE = "pulse"  # smooth fade (PWM lamps); plain lamps blink instead
    FLASH = "flash"  # fast, for alarms


# --- events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Something that happened at the table. ``source`` names the device (config name)."""

    source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceHello(Event):
    """A device introduced itself (on connect and after every reconnect or reboot)."""

    device_kind: str
    serial_number: str
    firmware: str
    protocol_version: int
    boot_id: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn(Event):
    """A card left the shoe. ``device_ms`` is the device's own clock, when it has one;
    ``tag`` the RFID tag it was read by (an RFID shoe: each card of each deck has its own).
    Both are private (``metadata``, controller.game.records): a tag names its card as
    surely as the code does, once one reveal has paired them (rule 11.3(a))."""

    card: Card = field(metadata={"private": "card"})
    seq: int | None = None
    device_ms: int | None = None
    tag: str | None = field(default=None, metadata={"private": "card"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeStatusChanged(Event):
    cut_card_seen: bool
    shoe_empty: bool
    door_open: bool
    gate_locked: bool
    seq: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsSensed(Event):
    """A chip reader measured the value of the chips on a spot, in chip units."""

    spot: str
    total: int
    seq: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipIdsSensed(Event):
    """A chip reader that reads each chip's RFID tag reported the chips on a spot: each
    chip's ID (``chip_ids``) and the value that chip carries (``values``, chip units, in
    the same order). Checked against the casino's chip inventory."""

    spot: str
    chip_ids: tuple[str, ...]
    values: tuple[int, ...]
    seq: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotOccupied(Event):
    """Chips were placed on a spot (``box3``, ``box3.p2``, ``insurance3``, ``double3``...)."""

    spot: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotCleared(Event):
    spot: str


PLAYER_CARD_READER = "player-cards-"
"""The device name of a box's player-card reader is this and the box's number: a reader of
players' cards, never of playing cards, so its faults and losses are never the shoe's."""


def reads_player_cards(source: str) -> bool:
    """Whether the device ``source`` is a box's player-card reader."""
    return source.startswith(PLAYER_CARD_READER)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerCardPresented(Event):
    """A player's card (a casino's loyalty card) was presented at box (or seat) ``box``'s
    reader (``source``). It opens a rating, or ends the one it opened (docs/ratings.md).
    ``number`` is what the card carries, exactly as read: it names a person, so it is
    private (``{"private": "player"}``): personal data never goes to a public topic. (Not
    ``card``: a journal row's ``card`` field is a playing card, parsed as one on replay.)"""

    box: int
    number: str = field(metadata={"private": "player"})  # controller.game.records.PLAYER_MARK


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPressed(Event):
    """A console button was pressed; ``held`` is True for a long press."""

    button: ConsoleButton
    held: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsoleAction(Event):
    """A dealer's input that is more than a button: a rules-API call made from the touch
    console or keyed in (``action="double", args={"box": 3}``; ``action="raise_",
    args={"seat": 4, "amount": 10}``). ``actor`` is set only in-process (the demo's
    scripted dealer); the status server never sets it, and the journal names the dealer
    signed in at the console whenever there is one (docs/security.md). An entry of
    ``args`` whose name says cards (poker's ``discard`` ``cards``) is private."""

    action: str
    args: dict[str, Any] = field(default_factory=dict, metadata={"private": "card-keys"})
    actor: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SupervisorAction(Event):
    """A supervisor's decision, always journaled with who and why: clearing a HOLD with a
    decision (keep the card / void the hand, rule 9.6), with the decision's own arguments
    in ``args`` (blackjack: ``void_box`` names the ``box``; ``change_wager`` the ``box``,
    ``person`` and ``amount``)."""

    who: str
    decision: str
    reason: str = ""
    args: dict[str, Any] = field(default_factory=dict, metadata={"private": "card-keys"})


@dataclass(frozen=True, slots=True, kw_only=True)
class SupervisorPinRefused(Event):
    """A wrong supervisor PIN (or one tried during a lockout), journaled with who claimed
    to be the supervisor: surveillance asks "who tried, when, how often"."""

    who: str
    failures: int
    locked_for: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerSignedIn(Event):
    """A dealer signed in at the console with their staff id and PIN (checked by the
    server against ``[[staff]]``). Until they sign out, the loop names them as the actor
    of every row it journals. Games never see it; a replay restores who is signed in."""

    staff_id: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerSignedOut(Event):
    """The dealer signed in at the console signed out (or another one signed in)."""

    staff_id: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SignInRefused(Event):
    """A wrong dealer sign-in PIN at the console (or one tried during its delay), journaled
    with the staff id that was claimed: surveillance asks "who tried, when, how often"."""

    who: str
    failures: int
    locked_for: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(Event):
    """The table closes in order (the app's stop): every open rating ends. A table that
    stops without it (a power cut, a kill) keeps its ratings open for the replay."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceLost(Event):
    """A device stopped answering (cable pulled, port gone, heartbeat overdue).
    ``resends``: the device sends again what was not acknowledged (our serial protocol),
    so nothing is lost with the line; False for a reader without acknowledgement (RFID),
    whose cards passing while it was gone are gone unseen."""

    reason: str
    resends: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceRestored(Event):
    """A lost device is back."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceFault(Event):
    """A device or its line sent something wrong; nothing recorded is lost by it."""

    fault: Fault
    detail: str = field(default="")
    seq: int | None = None  # set when the faulty message holds a place in the sequence


# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """Something the controller asks a device to do."""


@dataclass(frozen=True, slots=True)
class LockShoe(Command):
    """Lock the shoe's gate: no card can be drawn."""


@dataclass(frozen=True, slots=True)
class UnlockShoe(Command):
    pass


@dataclass(frozen=True, slots=True)
class SetLamp(Command):
    lamp: Lamp
    pattern: LampPattern


@dataclass(frozen=True, slots=True)
class ShowButtonPosition(Command):
    """Light the poker dealer-button position display at ``seat`` (None: all off)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class ShowLimits(Command):
    """Show the table's minimum and maximum wager on the limit sign (rule 11.5)."""

    minimum: int
    maximum: int


# --- what a game needs wired ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceNeeds:
    """The table hardware a game cannot run without, checked against the ``[pins]`` map
    before any pin moves (controller/app/config/pins.py): console buttons, lamps, at least one box
    sensor (``box_spot``), the dealer-button position display (``position_display``).
    Each game says its own in its `controller.game.GameSpec`."""

    buttons: tuple[ConsoleButton, ...] = ()
    lamps: tuple[Lamp, ...] = ()
    box_spot: bool = False
    position_display: bool = False
