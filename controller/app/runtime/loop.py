"""The controller thread: one queue in, the journal before anything leaves, the world last.

The loop takes events in bursts: the event it woke for and every event already queued
behind it (at most `BURST`). For the burst, in this order:

1. apply each event to the game, in queue order (pure computation on the game's memory:
   nothing leaves it);
2. append every event and the records the game produced for it (payouts, violations,
   refusals) to the journal in ONE transaction, each event before its records: durable on
   disk when it returns (group commit: one wait for the disk for the whole burst);
3. for each event in order, carry out the game's commands (gate, lamps, displays) on the
   devices that can, then acknowledge the event to the device that sent it, so a device
   resends anything the controller had not recorded when the power went;
4. publish the state after the last event once (status display, pit feed): a reference
   to a state built from copies (`snapshot`), handed over without waiting on the network;
   the feeds serialise it on their own threads. (Building the view on a helper thread
   during step 2's fsync was tried and measured: no gain, the two threads then
   queue for the interpreter lock; docs/install.md.)

An event that arrives alone is a burst of one; under a burst (a shoe's resends after a
reconnect, the console and the shoe at once) the disk wait and the published view are
paid once for all of it (64 queued events: 4 ms instead of 100 ms one by one).

This departs from a plain "journal, then apply" (docs/architecture.md) in one respect: the
events and their records share one disk write instead of one or two each. What that order
protects still holds: nothing an event causes (a command, an acknowledgement, a published
state) happens before the event is durable, and an event the power cut caught before step 2
was never acknowledged, so the device sends it again. If the journal cannot be written the
loop stops at once (`failed`) with nothing of the burst carried out or acknowledged: the
game in memory is then ahead of the journal, and only a restart, which replays the journal,
may go on.

Only this thread touches the game. A refused console input (`IllegalAction`) is journaled as
`ActionRefused` and shown; it never stops the table. An error in the rules code itself is
journaled as `ControllerFault`, logged with its traceback, and the table goes on with the
next event: replaying the journal meets the same error at the same place, so recovery is
still exact.

Who did it: a dealer signs in at the console (`DealerSignedIn`, checked and queued by the
status server); until they sign out, every row the loop journals names them as its actor
(the card they drew, the button they pressed, the payouts of their round), except a
supervisor's decision, which names the supervisor. The loop, not the game, handles the
sign-in events, and a replay restores who is signed in. When the config lists staff
(``require_dealer``), touch-console input while nobody is signed in is refused and not
journaled (it reached nothing); the physical buttons and sensors always work.

`replay` rebuilds the game from a journal after a restart: from the last snapshot
(`controller.app.runtime.snapshots`, written every `snapshot_every` rounds) and the events after it,
or from every event when there is none it can use (the records are re-derived, not
re-read); the devices are then told the final gate, lamp and display states once.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from controller.app.runtime import snapshots
from controller.app.runtime.loop_parts import (
    ControllerFault,
    Device,
    History,
    JournalBroken,
    Publish,
    Stop,
    command_channel,
    count_pins,
    unsigned_refusal,
)
from controller.app.runtime.loop_parts import action_name as _action_name
from controller.app.runtime.loop_parts import from_console as _from_console
from controller.app.runtime.loop_parts import wall as _wall
from controller.errors import IllegalAction, TableError
from controller.game import ActionRefused, Game
from controller.game.jsonable import to_jsonable
from controller.journal.store import (
    Entry,
    Journal,
    JournalError,
    Row,
    as_row,
    decode_event,
)
from controller.ports import (
    CardDrawn,
    Command,
    ConsoleAction,
    DealerSignedIn,
    DealerSignedOut,
    DeviceFault,
    DeviceHello,
    DeviceLost,
    DeviceRestored,
    Event,
    LockShoe,
    SupervisorAction,
    SupervisorPinRefused,
)

__all__ = ["BURST", "ControllerFault", "Device", "History", "JournalBroken", "Publish", "Stop",
           "TableLoop"]  # fmt: skip

log = logging.getLogger(__name__)

BURST = 64  # events journaled in one transaction at most (the queue's backlog, drained)
SNAPSHOT_EVERY = 5  # rounds between snapshots, by default ([journal] snapshot_every)


class TableLoop:
    def __init__(
        self,
        game: Game,
        journal: Journal,
        events: queue.Queue[Any],
        *,
        devices: dict[str, Device] | None = None,
        publish: Callable[[dict[str, Any]], None] | None = None,
        require_dealer: bool = False,
        rules: Any = None,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.game = game
        self.journal = journal
        self.events = events
        self.devices = devices or {}
        self.publish = publish
        self.require_dealer = require_dealer
        self.dealer: DealerSignedIn | None = None  # signed in at the console
        self.recovered = False
        self.processed = 0
        self.idle = threading.Event()
        self._progress = threading.Condition()
        self.failed: str | None = None
        self.broken_row: int | None = None  # the journal's row the full check found broken
        self.device_status: dict[str, str] = {}
        self._final: list[Command] = []
        self.notices: deque[dict[str, Any]] = deque(maxlen=8)  # refusals, faults, losses
        self.last_card_at: str | None = None  # wall clock of the last card (the pit)
        self.hold_since: str | None = None  # wall clock the current HOLD began (the pit)
        self.rules_id = snapshots.rules_id(rules)
        self.snapshot_every = snapshot_every  # rounds between snapshots (0: none)
        self.rounds_since_snapshot = 0
        self.restored_from: int | None = None  # the snapshot's row the last replay began at
        self.channels: dict[tuple[str, ...], Command] = {}  # the last command on each
        self.resume: dict[str, snapshots.Resume] = {}  # each device's boot id and last seq
        self.greeted: set[str] = set()  # devices that said HELLO since this loop began
        self.after_round: Callable[[TableLoop], None] | None = None  # rotation (journal.fileset)
        self.wrong_pins: snapshots.WrongPins | None = None  # the console's, from the journal

    # --- recovery -----------------------------------------------------------------------

    def replay(self, history: History | None = None, *, full: bool = False) -> int:
        """Bring the (fresh) game to where the journal stops; return how many events were
        applied. From the last snapshot when it can be used (`controller.app.runtime.snapshots`):
        the game and the loop's state as they were then, and the events after it; else
        every event. Read from ``history`` (the whole set of files,
        `controller.journal.fileset.SetReader`), by default this file; ``full``: every event
        even with a snapshot. The final state of every output channel (gate, each lamp,
        displays) is kept for `replay_outputs`, to tell the devices once they are open."""
        source: History = self.journal if history is None else history
        entries: Iterable[Entry] | None = None
        self.restored_from = None
        found = None if full else source.last_authentic(snapshots.KIND)
        if found is not None:
            try:
                restored = snapshots.decode(
                    found.payload, self.game, rules=self.rules_id, seq=found.seq
                )
            except snapshots.SnapshotUnusable as exc:
                log.warning("the snapshot at journal row %d is not used (%s): replaying the "
                            "whole journal", found.seq, exc)  # fmt: skip
            else:
                self.game = restored.game
                self.dealer = restored.loop.dealer
                self.channels = dict(restored.loop.channels)
                self.resume = dict(restored.loop.resume)
                self.wrong_pins = restored.loop.wrong_pins
                self.restored_from = found.seq
                entries = source.entries(since=found.seq)
        if entries is None:
            entries = source.entries()
        count = 0
        self.rounds_since_snapshot = 0
        for entry in entries:
            event = decode_event(entry)
            if event is None:
                if entry.kind == snapshots.KIND:  # the next one falls due as it would have
                    self.rounds_since_snapshot = 0
                continue
            self._track(event)
            self.wrong_pins = count_pins(self.wrong_pins, event, entry.wall)
            round_before = self.game.round_no
            self._tell_time(entry.wall, event, entry.actor)
            outputs = self._apply(event, live=False)
            self.rounds_since_snapshot += self.game.round_no != round_before
            for output in outputs:
                if isinstance(output, Command):
                    self.channels[command_channel(output)] = output
            count += 1
        for output in self.game.pending():
            if isinstance(output, Command):
                self.channels[command_channel(output)] = output
        self._final = list(self.channels.values())
        self.recovered = count > 0 or self.restored_from is not None
        return count

    def _track(self, event: Event) -> None:
        """Where each device's sequence stands (`shoe_resume`), event by event."""
        if isinstance(event, DeviceHello):
            if self.resume.get(event.source, (None, None))[0] != event.boot_id:
                self.resume[event.source] = (event.boot_id, None)
            return
        seq = getattr(event, "seq", None)
        if seq is not None:
            self.resume[event.source] = (self.resume.get(event.source, (None, None))[0], seq)

    def shoe_resume(self, source: str = "shoe") -> tuple[int, int] | None:
        """The boot id of ``source``'s last HELLO and the last sequence number journaled
        after it (as `controller.app.runtime.devices.shoe_resume` reads it from the whole journal),
        known without reading the journal again."""
        boot, last = self.resume.get(source, (None, None))
        return (boot, last) if boot is not None and last is not None else None

    def loop_state(self) -> snapshots.LoopState:
        return snapshots.LoopState(
            self.dealer, dict(self.channels), dict(self.resume), self.wrong_pins
        )

    def snapshot_row(self) -> Row:
        """A snapshot of the game and the loop now, as a row (`controller.app.runtime.snapshots`);
        the next one falls due `snapshot_every` rounds from now."""
        payload = snapshots.encode(self.game, self.loop_state(), rules=self.rules_id)
        self.rounds_since_snapshot = 0
        return (snapshots.KIND, payload, "controller", self.game.round_no, None)

    def write_snapshot(self) -> None:
        self.journal.append_many([self.snapshot_row()])

    def replay_outputs(self) -> None:
        """Tell the devices the state the replayed game is in."""
        for command in self._final:
            self.execute(command)
        self._final = []

    # --- the loop -----------------------------------------------------------------------

    def run(self, stop: threading.Event | None = None) -> None:
        """Drain the queue until a `Stop` arrives (or ``stop`` is set). If the journal
        cannot be written the loop stops at once, with the shoe locked and no event of the
        burst acknowledged: a table that cannot record must not deal (`failed` says why)."""
        self._publish()
        while stop is None or not stop.is_set():
            try:
                event = self.events.get(timeout=0.5)
            except queue.Empty:
                self.idle.set()
                continue
            burst, marker = self._burst(event)
            if burst:
                try:
                    self.steps(burst)
                except JournalError as exc:
                    log.critical("the journal failed; the table stops: %s", exc)
                    self.failed = str(exc)
                    self.execute(LockShoe())
                    self.idle.set()
                    return
            if isinstance(marker, Stop | JournalBroken):
                if isinstance(marker, JournalBroken):
                    self._halt(marker)
                return
            if isinstance(marker, Publish):
                self._publish()
            if self.events.empty():
                self.idle.set()

    def _burst(self, first: Any) -> tuple[list[Event], Stop | JournalBroken | Publish | None]:
        """``first`` and the events queued behind it, up to a `Stop`, `JournalBroken` or
        `Publish` (returned beside them: what was queued before it is still done first)."""
        burst: list[Event] = []
        item = first
        while True:
            if isinstance(item, Stop | JournalBroken | Publish):
                return burst, item
            burst.append(item)
            if len(burst) >= BURST:
                return burst, None
            try:
                item = self.events.get_nowait()
            except queue.Empty:
                return burst, None

    def step(self, event: Event) -> None:
        """One event, as a burst of one."""
        self.steps([event])

    def steps(self, events: Sequence[Event]) -> None:
        """Apply ``events`` in order, journal them all in one transaction, then carry out
        and acknowledge each in order and publish the state after the last. Raises
        `JournalError` (nothing carried out, acknowledged or published) if the journal
        cannot be written."""
        self.idle.clear()
        round_start = self.game.round_no
        applied: list[tuple[Event, Sequence[Any] | None, int]] = []  # event, outputs, rows
        rows: list[Any] = []
        walls: list[str] = []
        for event in events:
            if self.require_dealer and self.dealer is None and _from_console(event):
                applied.append((event, None, 0))  # refused: not journaled (it reached nothing)
                continue
            round_before = self.game.round_no
            event_wall = self.journal.now()  # its rows' wall time, told to the game first
            self._tell_time(event_wall, event)
            outputs = self._apply(event, live=True)
            self._track(event)
            self.wrong_pins = count_pins(self.wrong_pins, event, _wall())
            round_after = self.game.round_no
            on_duty = None if self.dealer is None else self.dealer.staff_id
            rows.append(
                as_row(event, source=event.source, round=round_before, actor=self._actor(event))
            )
            rows += [
                as_row(output, source="controller", round=round_after, actor=on_duty)
                for output in outputs
                if not isinstance(output, Command)
            ]
            walls += [event_wall] * (len(rows) - len(walls))
            applied.append((event, outputs, len(rows)))
        seq = self.journal.last_seq
        if rows:
            self.journal.append_many(rows, walls=walls)  # durable: from here on things may leave
        for event, produced, rows_so_far in applied:
            at = seq + rows_so_far  # the seq of this event's last row
            if produced is None:
                self._refuse_unsigned(event, at)
                continue
            if isinstance(event, CardDrawn):
                self.last_card_at = _wall()
            for output in produced:
                if isinstance(output, Command):
                    self.channels[command_channel(output)] = output
                    self.execute(output)
                elif isinstance(output, ActionRefused | ControllerFault):
                    self._notice(to_jsonable(output), at)
            self._watch_devices(event, at)
            event_seq = getattr(event, "seq", None)
            if event_seq is not None:
                device = self.devices.get(event.source)
                if device is not None:
                    device.acknowledge(event_seq)
        self._publish()
        with self._progress:
            self.processed += len(events)
            self._progress.notify_all()
        if self.game.round_no != round_start:
            self._round_ended()

    def _round_ended(self) -> None:
        """A round ended: every `snapshot_every` rounds a snapshot (a failure to write it
        is a journal that cannot be written: the loop stops); then the journal's
        checkpoint moves up (the next start checks only the rows after it; one that cannot
        be written only makes that check longer); then the journal may rotate."""
        self.rounds_since_snapshot += 1
        if self.snapshot_every and self.rounds_since_snapshot >= self.snapshot_every:
            self.write_snapshot()
        try:
            self.journal.checkpoint()
        except JournalError as exc:
            log.warning("%s", exc)
        if self.after_round is not None:
            self.after_round(self)

    def _halt(self, broken: JournalBroken) -> None:
        failed = f"journal row {broken.seq}: {broken.reason}"
        log.critical("the journal is broken; the table stops: %s", failed)
        self.failed = failed
        self.broken_row = broken.seq
        try:
            self.journal.record(broken, source="controller", round=self.game.round_no)
            self.journal.mark_broken(broken.seq, broken.reason)
        except JournalError as exc:
            log.critical("%s", exc)
        self.execute(LockShoe())
        self._publish()
        self.idle.set()

    def _refuse_unsigned(self, event: Event, seq: int) -> None:
        """Touch-console input while no dealer is signed in: shown, never journaled (it
        reached nothing, and a replay must not meet it)."""
        log.warning("console input refused: no dealer is signed in (%s)", _action_name(event))
        self._notice(unsigned_refusal(event), seq)

    def _actor(self, event: Event) -> str | None:
        """Who the event's row names: the supervisor for their decision, the dealer for
        their own sign-in and sign-out, else the dealer on duty (when one is signed in)."""
        if isinstance(event, SupervisorAction):
            return event.who
        if isinstance(event, DealerSignedIn | DealerSignedOut):
            return event.staff_id
        if self.dealer is not None:
            return self.dealer.staff_id
        if isinstance(event, SupervisorPinRefused):
            return None  # the id claimed is in the row's payload, not its actor
        if isinstance(event, ConsoleAction):
            return event.actor  # set only in-process (the demo's scripted dealer)
        return None

    def _tell_time(self, wall: str, event: Event, actor: str | None = None) -> None:
        """Tell a game that keeps time (its player ratings, docs/ratings.md) the wall time
        of the event about to be applied, the one its journal row gets, and who acts in
        it (live: the row's actor; a replay: the row's own): it reads no clock itself,
        so a replay gives it the same times."""
        tell = getattr(self.game, "at", None)
        if tell is not None:
            tell(wall, actor if actor is not None else self._actor(event))

    def _apply(self, event: Event, *, live: bool) -> Sequence[Any]:
        if isinstance(event, DealerSignedIn):
            self.dealer = event
            return []
        if isinstance(event, DealerSignedOut):
            if self.dealer is not None and self.dealer.staff_id == event.staff_id:
                self.dealer = None
            return []
        try:
            outputs: Sequence[Any] = self.game.handle(event)
        except IllegalAction as exc:
            outputs = [ActionRefused(_action_name(event), exc.rule, exc.reason)]
        except TableError as exc:
            outputs = [ActionRefused(_action_name(event), "", str(exc))]
        except Exception as exc:  # a bug in the rules code: journal it, keep the table up
            if live:
                log.exception("the rules failed on %r", event)
            outputs = [ControllerFault(type(event).__name__, f"{type(exc).__name__}: {exc}")]
        return outputs

    def execute(self, command: Command, only: str | None = None) -> None:
        """Carry out ``command`` on every device that handles it (``only``: that one)."""
        for name, device in self.devices.items():
            if only not in (None, name) or not device.handles(command):
                continue
            try:
                device.execute(command)
            except TableError as exc:
                log.error("%s could not %s: %s", name, type(command).__name__, exc)

    def _watch_devices(self, event: Event, seq: int) -> None:
        if isinstance(event, DeviceLost):
            self.device_status[event.source] = f"LOST: {event.reason}"
            self._notice(to_jsonable(event), seq)
        elif isinstance(event, DeviceRestored | DeviceHello):
            self.device_status[event.source] = "ok"
            if isinstance(event, DeviceHello) and event.source in self.greeted:
                # a device that said HELLO again may have restarted and forgotten what it
                # was told (a shoe's gate); its first was told at the start (replay_outputs)
                for command in list(self.channels.values()):
                    self.execute(command, only=event.source)
            self.greeted.add(event.source)
        elif isinstance(event, DeviceFault):
            self._notice(to_jsonable(event), seq)

    def _notice(self, item: dict[str, Any], seq: int) -> None:
        """Shown on the display until eight newer ones push it out; ``seq`` is the journal
        row it came with (the last row of its event)."""
        self.notices.append({"journal_seq": seq, **item})

    def snapshot(self) -> dict[str, Any]:
        """The state the status display and the pit see: the game's view and the loop's.
        ``last_card_at`` and ``hold_since`` (wall clock, ISO) are for the pit's floor view:
        the time since the last card, and how long a HOLD has lasted."""
        view = self.game.view()
        if not view.get("hold"):
            self.hold_since = None
        elif self.hold_since is None:
            self.hold_since = _wall()
        return {
            "journal_seq": self.journal.last_seq,
            "journal_hash": self.journal.last_hash,  # the head, for the pit's watch
            "events_processed": self.processed,
            "recovered": self.recovered,
            "devices": dict(self.device_status),
            "notices": list(self.notices),
            "game": self.game.name,
            "round": self.game.round_no,
            "dealer": None
            if self.dealer is None
            else {"id": self.dealer.staff_id, "name": self.dealer.name},
            "console_locked": self.require_dealer and self.dealer is None,
            "last_card_at": self.last_card_at,
            "hold_since": self.hold_since,
            "view": view,
        }

    def _publish(self) -> None:
        if self.publish is not None:
            self.publish(self.snapshot())

    def wait_processed(self, count: int, timeout: float) -> bool:
        """Wait until more than ``count`` events have been processed in all."""
        with self._progress:
            return self._progress.wait_for(lambda: self.processed > count, timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until the queue is drained (for tests and benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.idle.wait(timeout=deadline - time.monotonic()) and self.events.empty():
                return True
        return False
