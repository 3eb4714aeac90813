"""The loop's small parts: the markers put on its queue, the record of a fault in the rules
code, the output channels, how an event is named, and the console's wrong-PIN count: the
things the loop hands around, apart from `controller.app.runtime.loop`, which is the order
in which an event is journaled, applied and acknowledged."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable
from typing import Any, Protocol

from controller.app.runtime.snapshots import WrongPins
from controller.journal.store import Entry
from controller.ports import (
    ButtonPressed,
    Command,
    ConsoleAction,
    DealerSignedIn,
    Event,
    SetLamp,
    SignInRefused,
    SupervisorAction,
    SupervisorPinRefused,
)


class Device(Protocol):
    """What the loop needs of a device: carrying out the commands it has the hardware for,
    and ``acknowledge(seq)``, called once an event carrying a sequence number is journaled
    (a no-op for a device with no acknowledgement: `drivers.card_source.CardSource`)."""

    def handles(self, command: Command) -> bool: ...
    def execute(self, command: Command) -> None: ...
    def acknowledge(self, seq: int) -> None: ...


class History(Protocol):
    """Where a replay reads the journal: one file (`Journal`) or a set of them
    (`controller.journal.fileset.SetReader`)."""

    def last_authentic(self, kind: str) -> Entry | None: ...
    def entries(self, *, since: int = 0) -> Iterable[Entry]: ...


@dataclasses.dataclass(frozen=True, slots=True)
class ControllerFault:
    """The rules code failed on an event. The event is journaled; the table goes on."""

    event: str
    error: str


@dataclasses.dataclass(frozen=True, slots=True)
class Stop:
    """Put on the queue to make the loop finish the event in hand and return."""


@dataclasses.dataclass(frozen=True, slots=True)
class Publish:
    """Put on the queue to make the loop publish its state again: a fact beside the game
    changed (a start-up warning found after the start). Nothing is journaled."""


@dataclasses.dataclass(frozen=True, slots=True)
class JournalBroken:
    """Put on the queue by the journal's full check after the start: row ``seq`` is
    broken (``reason``). The loop journals it, marks the checkpoint so the next start
    refuses at once, locks the shoe and stops (`failed`)."""

    seq: int
    reason: str


def command_channel(command: Command) -> tuple[str, ...]:
    """Commands that replace one another share a channel: the last one wins."""
    if isinstance(command, SetLamp):
        return ("lamp", command.lamp.value)
    name = type(command).__name__
    return ("gate",) if name in ("LockShoe", "UnlockShoe") else (name,)


def wall() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


def from_console(event: Event) -> bool:
    """Input from the touch console (not the physical buttons, whose source is the
    table's GPIO)."""
    if isinstance(event, ConsoleAction):
        return True
    return isinstance(event, ButtonPressed) and event.source == "console"


def action_name(event: Event) -> str:
    if isinstance(event, ConsoleAction):
        return event.action
    if isinstance(event, SupervisorAction):
        return f"supervisor {event.decision}"
    return type(event).__name__


def unsigned_refusal(event: Event) -> dict[str, Any]:
    """The notice for touch-console input while no dealer is signed in (never journaled)."""
    return {
        "type": "ActionRefused",
        "action": action_name(event),
        "rule": "",
        "reason": "no dealer is signed in at the console: sign in first",
    }


def count_pins(count: WrongPins | None, event: Event, at: str) -> WrongPins | None:
    """The console's wrong-PIN count after ``event`` (``at``: its row's wall clock), as
    the journal tells it: each refusal carries the count and the wait it began; a right
    PIN at the console (a sign-in, a supervisor's decision) ends it. A restart restores it
    (`controller.app.console.supervisor.PinGate.restore`)."""
    if isinstance(event, SignInRefused | SupervisorPinRefused):
        until = datetime.datetime.fromisoformat(at) + datetime.timedelta(seconds=event.locked_for)
        return (event.failures, until.isoformat())
    if isinstance(event, SupervisorAction) or (
        isinstance(event, DealerSignedIn) and event.source == "console"
    ):
        return None
    return count
