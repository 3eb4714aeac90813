"""A running table: the config, the journal, the game, the devices, the loop and the
display, put together and started in the right order.

1. Take the journal's lock (`journal.lock`), open the journal with its key and check it
   (`controller.app.runtime.journal_files`: a journal that does not check out, or whose last row
   is behind its own pit cursor, is refused, naming the row), then rebuild the game by replaying
   it (after a power cut the table comes back exactly where it stopped, and says so on the
   display). The rows the start-up check took on trust (those before its checkpoint) are
   checked in the background; a broken one stops the table.
2. Open the devices (the shoe told where its sequence stood, so its resends are recognised),
   and tell them the gate, lamp and display states the game is in.
3. Serve the status display, then run the controller thread until told to stop.

Stopping finishes the event in hand, closes the devices (the gate falls to its fail-safe
state) and the journal.
"""

from __future__ import annotations

import dataclasses
import datetime
import gc
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from controller.app.config import TableConfig
from controller.app.console.supervisor import on_demo_pins
from controller.app.console.web import CONSOLE, status_server
from controller.app.runtime import snapshots
from controller.app.runtime.devices import TableDevices, open_devices
from controller.app.runtime.games import make_game
from controller.app.runtime.journal_archive import Archiver
from controller.app.runtime.journal_files import (
    BackgroundCheck,
    TableHistory,
    check_pit_cursor,
    open_table_journal,
    read_key,
)
from controller.app.runtime.journal_rotation import Rotation
from controller.app.runtime.loop import JournalBroken, Publish, Stop, TableLoop
from controller.app.runtime.preflight import preflight
from controller.app.runtime.witnessed_head import check_witnessed_head
from controller.game import Game
from controller.game.jsonable import to_jsonable
from controller.journal.lock import JournalLock
from controller.journal.store import Journal, JournalCorrupt
from controller.ports import DeviceLost, DeviceRestored, ShowLimits, TableClosed
from controller.rating import settings_json
from drivers.realtime import use_realtime

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True, slots=True)
class TableStarted:
    """Journaled at every start: which table, game and rules the rows that follow are for,
    and how it rates players (so `tablectl journal replay` needs no config), and whether
    it recovered."""

    table_id: str
    game: str
    rules: dict[str, Any]
    simulated: bool
    replayed_events: int
    rating: dict[str, Any] = dataclasses.field(default_factory=dict)  # [rating], as JSON


class Feed(Protocol):
    """Something that shows or forwards the table's state (the status display, the pit):
    ``publish`` is called by the controller thread after every burst of events and must
    return at once, never waiting on the network. The state is a hand-over: built from
    copies (`TableLoop.snapshot`), never changed after, so the feed may read and serialise
    it on its own thread whenever it likes."""

    def start(self) -> object: ...
    def publish(self, state: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


class RunningTable:
    def __init__(
        self,
        config: TableConfig,
        *,
        simulate: bool | str | None = False,
        serve: bool = True,
        seed: int | None = None,
    ) -> None:
        preflight(config)  # the same checks as `tablectl config check`, before anything opens
        self.config = config
        # True or "all": every device simulated; "gpio": the table's GPIO only
        self.simulate = "all" if simulate is True else (simulate or None)
        self.events: queue.Queue[Any] = queue.Queue()
        # held while the table runs: a second table, or a reopen, on this journal is refused
        self.lock = JournalLock(config.journal_path).acquire(f"the table {config.table_id}")
        journal: Journal | None = None
        try:
            check_pit_cursor(config)  # behind its own pit cursor: rolled back
            journal = open_table_journal(config)
            check_witnessed_head(config)  # the head the pit signed: reached, or refused
        except BaseException:
            if journal is not None:
                journal.close()
            self.lock.release()
            raise
        self.journal_check: BackgroundCheck | None = None
        game = make_game(config)
        self.server = status_server(config, self.events) if serve else None
        self.feeds: list[Feed] = [] if self.server is None else [self.server]
        acknowledged: Callable[[], int] | None = None  # by the pit's broker: see Archiver
        if config.pit is not None:
            from controller.app.pit.publisher import pit_publisher

            pit = pit_publisher(config)
            acknowledged = pit.acknowledged
            self.feeds.append(pit)
        self.loop = TableLoop(
            game,
            journal,
            self.events,
            publish=self._publish,
            require_dealer=bool(config.staff),  # docs/security.md: sign in to use the console
            # a snapshot taken under other rules (or other [rating]) is not used
            rules=snapshots.taken_under(config.rules, config.rating),
            snapshot_every=config.journal_keeping.snapshot_every,
        )
        # the journal rolls over by trading day or size; sealed files are archived
        keeping = config.journal_keeping
        key = read_key(config.journal_path, config.journal_key)
        self.archiver = (
            Archiver(config.journal_path, key, keeping, self._journal_broken, acknowledged)
            if keeping.archive_dir
            else None
        )
        self.rotation = Rotation(
            keeping, key, on_rotated=None if self.archiver is None else self.archiver.wake
        )
        self.loop.after_round = self.rotation
        self.devices: TableDevices | None = None
        self._seed = seed
        self._thread: threading.Thread | None = None
        self.state: dict[str, Any] = {}
        self.demo_pins: list[str] = []  # staff still on the shipped demo PINs (a warning)
        self.pin_check: threading.Thread | None = None  # finds them, after the start
        self.closing = threading.Event()  # set by close(): background work stops

    @property
    def game(self) -> Game:
        """The game the loop plays (after a restart: the one restored from a snapshot)."""
        return self.loop.game

    @property
    def journal(self) -> Journal:
        """The live file of the journal (it changes when the journal rotates)."""
        return self.loop.journal

    def _publish(self, state: dict[str, Any]) -> None:
        state = {
            "table": self.config.table_id,
            "site": self.config.site,
            "simulated": self.simulate or False,
            "limits": {"minimum": self.config.minimum, "maximum": self.config.maximum},
            "demo_pins": list(self.demo_pins),
            # CLOCK_MONOTONIC (time.perf_counter on Linux): comparable across processes on
            # one machine, for the latency benchmarks and the display's staleness check
            "published_at": time.perf_counter(),
            **state,
        }
        self.state = state
        for feed in self.feeds:
            feed.publish(state)

    def start(self) -> RunningTable:
        replayed = self.loop.replay(TableHistory(self.config))
        if replayed:
            log.warning("recovered from the journal: %d events replayed", replayed)
        if self.server is not None and self.loop.wrong_pins is not None:
            failures, until = self.loop.wrong_pins  # a restart does not lift a lockout
            left = datetime.datetime.fromisoformat(until) - datetime.datetime.now(datetime.UTC)
            self.server.gate.restore(CONSOLE, failures, left.total_seconds())
        config = self.config
        rules_json = to_jsonable(config.rules)
        rules_json.pop("type")
        started = TableStarted(
            config.table_id,
            config.game,
            rules_json,
            self.simulate is not None,
            replayed,
            settings_json(config.rating),
        )
        self.journal.record(started, source="controller", round=self.game.round_no)
        try:
            self.devices = open_devices(
                self.config,
                self.events,
                simulate=self.simulate,
                resume=self.loop.shoe_resume(),  # from the snapshot and the rows after it
                seed=self._seed,
                chips_resume=self.loop.shoe_resume("chips"),  # [chips] reader
            )
            self.loop.devices = self.devices.by_source
            self.loop.replay_outputs()
            self.loop.execute(ShowLimits(self.config.minimum, self.config.maximum))
            shoe = self.devices.shoe
            if self.loop.recovered and not shoe.resends:
                # A reader without acknowledgement cannot send again a card the stopped
                # controller read but had not journaled: the restart is a loss of the reader
                # (docs/rfid.md), and the game holds if its gate was open (shoe_audit).
                self.events.put(
                    DeviceLost(
                        source=shoe.name,
                        reason="the controller restarted: a card read before it stopped "
                        "may not be in the journal",
                        resends=False,
                    )
                )
                self.events.put(DeviceRestored(source=shoe.name))  # the reader itself is up
            for feed in self.feeds:
                feed.start()
        except Exception:
            self.close()
            raise
        # Everything made so far (the replayed game, the modules, the devices) lives as
        # long as the process: frozen, a full collection no longer walks it (10 to 25 ms on
        # a table's heap, in the controller's path whenever one came: docs/install.md).
        snapshots.read_sources(self.game)  # a snapshot then opens no file on the card path
        gc.collect()
        gc.freeze()
        self._thread = threading.Thread(target=self._control, name="controller", daemon=True)
        self._thread.start()
        if self.config.staff:  # scrypt per member: beside the table, not before it deals
            self.pin_check = threading.Thread(
                target=self._warn_of_demo_pins, name="demo-pins", daemon=True
            )
            self.pin_check.start()
        if self.archiver is not None:
            self.archiver.start()
        if self.journal.checked_from:  # rows up to the checkpoint were taken on trust
            self.journal_check = BackgroundCheck(
                self.journal, self.config.journal_key, self._journal_broken
            ).start()
        return self

    def _control(self) -> None:
        """The controller thread: real-time when the deploy unit allows it (LimitRTPRIO,
        `drivers.realtime`: this thread and the readers', never the status server's)."""
        use_realtime("controller thread")
        self.loop.run()

    def _warn_of_demo_pins(self) -> None:
        """Staff still on the shipped demo PINs: a warning in the log and on the dealer's
        and surveillance's displays (the state's ``demo_pins``), the demo's included."""
        found = on_demo_pins(self.config.staff, stop=self.closing)
        if found and not self.closing.is_set():
            log.warning(
                "staff %s still have the shipped demo PINs (README): anyone can sign in as "
                "them; give each a PIN of their own (tablectl pin-hash)",
                ", ".join(found),
            )
            self.demo_pins = found
            self.events.put(Publish())  # the controller thread publishes it

    def _journal_broken(self, exc: JournalCorrupt) -> None:
        """From the background check: the controller thread records it and stops."""
        self.events.put(JournalBroken(exc.seq, exc.reason))

    def stop(self) -> None:
        """Finish the event in hand, then close everything. A table that rates players
        closes their ratings first (`TableClosed`); a table killed keeps them open."""
        if self._thread is not None and self.config.rating.enabled:
            self.events.put(TableClosed(source="controller"))
        self.events.put(Stop())
        if self._thread is not None:
            self._thread.join(timeout=30)
        self.close()

    def close(self) -> None:
        if self.pin_check is not None:
            # Joined, not left to die with the process: a daemon thread still inside
            # OpenSSL's scrypt when the interpreter exits crashed it (SIGSEGV) as
            # OpenSSL's own exit handler freed what that call was using.
            self.closing.set()
            self.pin_check.join(timeout=30)
        if self.archiver is not None:
            self.archiver.close()
        if self.journal_check is not None:
            self.journal_check.close()
        for feed in self.feeds:
            feed.close()
        if self.devices is not None:
            self.devices.close()
            self.devices = None
        self.journal.close()
        self.lock.release()
