"""The pit feed: the table reports to an MQTT broker, and the journal is its outbox.

Topics, under ``<prefix>/<site>/table/<id>/`` (docs/mqtt.md, schemas in docs/mqtt-schema/):

- ``event``: every journal row, in sequence order, QoS 1, carrying its ``seq``;
- ``state``: the latest display model, retained;
- ``status``: ``online``/``offline``, retained; ``offline`` is also the MQTT Last Will, so
  the broker says it for a table that died or lost its network;
- ``alarm``: violations, holds cleared, device losses and faults, controller faults;
- ``restricted/event`` (``private_cards = "restricted"``): the rows whose cards the public
  ``event`` topic withholds, in full; or ``reveal`` (``"delayed"``): at the hand's end,
  the withheld cards of the hand.

Nothing is lost and nothing is reordered: the journal is already on disk before
the controller publishes, so this thread reads new rows with its own SQLite connection (WAL
lets a reader run beside the writer) and hands them to paho as QoS 1 messages. A row is
done when the broker has acknowledged (PUBACK) every message made from it; the highest seq
below which every row is done is the cursor, kept durably in a small SQLite file beside the
journal. While the connection is up paho resends its unacknowledged messages itself, in
order, on every reconnect; after a restart the publisher resumes from the cursor. A row may
therefore arrive twice (after a cut or a restart), never not at all and never after a later
one: subscribers drop a seq they have already seen.

The controller thread only calls `PitPublisher.publish`, which keeps a reference to the
state and sets an event: it never waits on the network, the disk or a lock held across I/O.

Privacy (rule 11.3(a): poker cards are dealt face down and are exposed only at the
showdown, 11.4(c)): on a poker table no card code leaves on a public topic, whichever row
or field happens to carry it (a card drawn, a discard keyed on the console, a violation's
message, a refusal that quotes the console's arguments, the state's reshuffle). A row's
fields that its record marks private (``field(metadata=CARD_MARK)``) are set to null first
(`pit_privacy.Marks`), then `withhold` walks every public payload (event, alarm, the
retained state) and sets each value that still names a card to null; each is named by its
path under ``redacted``; the full row goes to the restricted topic, or to the hand's
reveal. Blackjack here is the New Zealand no-hole-card
game, dealt all face up, so nothing of it is withheld.

Every message is signed with the table's Ed25519 key (`pit.signing`: over the topic and
the exact bytes sent, the privacy walk already done), so the pit believes nothing a
stolen broker password writes. The Last Will is signed once, when the publisher is made:
it says only that this table, since then, may be lost (docs/mqtt.md, "Signatures").

Where the parts live: the journal reads (`pit_reader.JournalReader`), the cursor file
(`pit.cursor`), the broker URL, topics and paho client (`pit.link`), the privacy walk
(`pit.privacy`). This module is the publisher's thread and what a row becomes.
"""

from __future__ import annotations

import datetime
import json
import logging
import queue
import sqlite3
import threading
import time
from typing import Any

from controller import game as games
from controller.app.config import TableConfig
from controller.app.pit.cursor import Cursor, behind_cursor, cursor_path
from controller.app.pit.link import make_client, parse_broker, topic_base
from controller.app.pit.privacy import Marks, names_a_card, public_payload, withhold
from controller.app.pit.reader import JournalReader
from controller.app.pit.signing import public_text, sign, signing_key_path, table_signing_key
from controller.errors import ConfigError, TableError

__all__ = [  # the pit's public names, importable from here wherever they live
    "Cursor",
    "PitError",
    "PitPublisher",
    "cursor_path",
    "make_client",
    "names_a_card",
    "parse_broker",
    "pit_publisher",
    "topic_base",
    "withhold",
]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
WINDOW = 1000  # journal rows handed to paho and not yet acknowledged, at most
POLL_SECONDS = 0.5  # look at the journal at least this often even without a wake-up
BATCH_SECONDS = 0.02  # after a wake-up, let a burst of events gather into one pass
STATE_SECONDS = 0.1  # the retained state at most this often (always the latest)
CURSOR_SECONDS = 0.25  # the durable cursor written at most this often (lagging only resends)
FLUSH_SECONDS = 3.0  # on close, how long to wait for the broker to take the backlog

ALARM_KINDS = {
    "Violation": "hold",
    "HoldCleared": "cleared",
    "DeviceLost": "device",
    "DeviceRestored": "cleared",
    "DeviceFault": "device",
    "ControllerFault": "fault",
    "JournalBroken": "fault",  # the journal's full check after the start: the table stops
    "ChipAlarm": "counterfeit",  # a chip not in the inventory, or not its value
    "LimitOverridden": "override",  # a supervisor let a wager outside the limits stand
}


class PitError(TableError, OSError):
    """The pit feed cannot start: its cursor file or the journal cannot be opened."""


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


class PitPublisher:
    """One table's MQTT feed (a `controller.app.runtime.table.Feed`)."""

    def __init__(self, config: TableConfig, *, window: int = WINDOW) -> None:
        if config.pit is None:
            raise ConfigError("the table config has no [pit] section")
        self.pit = config.pit
        self.table_id = config.table_id
        self.site = config.site
        self.game = config.game
        self.journal_path = config.journal_path
        self.window = window
        self.base = topic_base(self.pit.prefix, config.site, config.table_id)
        spec = games.spec(config.game)
        self.private = spec.private_cards
        self.marks = Marks.for_game(spec)  # the fields its records mark private
        self.hand_end = spec.round_end
        made = not signing_key_path(config).exists()
        self.signing_key = table_signing_key(config, create=True)
        if made:
            log.warning(
                "made the table's pit signing key %s; its public key, for the pit's floor "
                "file: %s = %r",
                signing_key_path(config),
                config.table_id,
                public_text(self.signing_key),
            )
        self.origin = ""  # the hash of the journal's row 1: which journal the heads are of
        # the client id is the login, as the broker binds it (deploy/mosquitto/mosquitto.conf)
        client_id = self.pit.username or f"tablectl-{config.site}-{config.table_id}"
        self.client, self.host, self.port = make_client(self.pit, client_id)
        self.client.max_inflight_messages_set(0)  # our window bounds it; nothing is "queued"
        self.client.max_queued_messages_set(0)
        will = f"{self.base}/status"
        self.client.will_set(
            will, self._signed(will, self._status("offline", "connection lost")), 1, True
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self._notes: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._state: dict[str, Any] | None = None
        self._state_version = 0
        self._thread: threading.Thread | None = None
        self._journal: JournalReader | None = None  # every read of the journal: pit_reader
        self.cursor: Cursor | None = None
        # publisher-thread state
        self.connected = threading.Event()
        self._resync = False
        self._outstanding: dict[int, int | None] = {}  # mid -> seq (None: state, status)
        self._left: dict[int, int] = {}  # seq -> its messages not yet acknowledged
        self._sent = 0  # highest seq handed to paho
        self._sent_state = 0
        self._state_at = 0.0  # monotonic, when the state was last sent
        self._saved_at = 0.0  # monotonic, when the cursor was last written
        self.acked_seq = 0  # every row up to here is acknowledged (the cursor, in memory)
        self.acked = threading.Condition()

    # --- the controller's side ----------------------------------------------------------

    def publish(self, state: dict[str, Any]) -> None:
        """Keep the newest state and wake the publisher: never blocks the controller."""
        self._state = state
        self._state_version += 1
        self._wake.set()

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> PitPublisher:
        """Open the journal (read-only) and the cursor, then connect in the background: an
        absent broker never delays the table's start."""
        try:
            self._journal = JournalReader(self.journal_path)
            # keyed by the journal's first row too: a new journal starts from its row 1
            self.origin = self._journal.first_hash()
            key = f"{self.pit.broker}|{self.base}|{self.origin}"
            self.cursor = Cursor(cursor_path(self.journal_path), key)
        except sqlite3.Error as exc:
            raise PitError(f"the pit feed cannot open {self.journal_path}: {exc}") from exc
        problem = behind_cursor(self._last_seq(), self.cursor.seq, self.journal_path)
        if problem:  # the table refuses this journal before it starts (check_pit_cursor)
            raise PitError(f"{problem}: the pit feed does not resend it")
        self._sent = self.acked_seq = self.cursor.seq
        log.info(
            "pit: %s:%d %s, resuming after journal row %d",
            self.host,
            self.port,
            self.base,
            self.cursor.seq,
        )
        self.client.connect_async(self.host, self.port, keepalive=self.pit.keepalive)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="pit-publisher", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Give the broker a moment to take the backlog, say ``offline``, disconnect."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=FLUSH_SECONDS + 5)
            self._thread = None
        self.client.disconnect()
        self.client.loop_stop()
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if self.cursor is not None:
            self.cursor.close()
            self.cursor = None

    def acknowledged(self) -> int:
        """The last row the broker acknowledged, as the durable cursor holds it (0 before
        the start): the journal archiver keeps every row after it at the table."""
        cursor = self.cursor
        return 0 if cursor is None else cursor.seq

    def wait_acknowledged(self, seq: int, timeout: float) -> bool:
        """Wait until the broker has acknowledged every row up to ``seq`` (tests, bench)."""
        with self.acked:
            return self.acked.wait_for(lambda: self.acked_seq >= seq, timeout)

    # --- paho's network thread: only notes, never calls back into paho ------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
            self._notes.put(("connect", 0))
        else:
            log.error("pit broker %s refused the table: %s", self.pit.broker, reason)
        self._wake.set()

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self._notes.put(("disconnect", 0))
        self._wake.set()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        self._notes.put(("ack", mid))
        self._wake.set()

    # --- the publisher thread -----------------------------------------------------------

    def _run(self) -> None:
        """Work in passes: each wake-up (a new state, an acknowledgement, a connection)
        waits a moment for the burst to gather, then does one pass. Fewer, larger passes
        leave the controller thread the interpreter when a card comes (bench/mqtt.py)."""
        try:
            while not self._stopping.is_set():
                self._wake.wait(self._idle_timeout())
                if self._stopping.wait(BATCH_SECONDS):
                    break
                self._wake.clear()
                try:
                    self._step()
                except Exception:  # the table goes on; the rows wait in the journal
                    log.exception("the pit publisher failed; trying again in a second")
                    self._stopping.wait(1.0)
                    self._wake.set()
            self._flush()
        except Exception:
            log.exception("the pit publisher failed while stopping")
        finally:
            self._save_cursor(force=True)

    def _idle_timeout(self) -> float:
        now = time.monotonic()
        timeout = POLL_SECONDS
        if self._state is not None and self._sent_state != self._state_version:
            timeout = min(timeout, self._state_at + STATE_SECONDS - now)
        if self.cursor is not None and self.acked_seq != self.cursor.seq:
            timeout = min(timeout, self._saved_at + CURSOR_SECONDS - now)
        return max(timeout, 0.0)

    def _step(self) -> None:
        self._take_notes()
        self._save_cursor()
        if not self.connected.is_set():
            return
        if self._resync:
            # paho resends what was in flight when the line dropped; nothing new goes out
            # before those are acknowledged, so nothing overtakes them.
            if self._outstanding:
                return
            self._resync = False
            self._send(f"{self.base}/status", self._status("online", "connected"), True, None)
            self._sent_state = 0
            self._state_at = 0.0
        self._send_rows()
        now = time.monotonic()
        if (
            self._state is not None
            and self._sent_state != self._state_version
            and now - self._state_at >= STATE_SECONDS
        ):
            self._sent_state, self._state_at = self._state_version, now
            self._send(f"{self.base}/state", self._state_payload(self._state), True, None)

    def _save_cursor(self, *, force: bool = False) -> None:
        cursor = self.cursor
        if cursor is None or cursor.seq == self.acked_seq:
            return
        now = time.monotonic()
        if force or now - self._saved_at >= CURSOR_SECONDS:
            cursor.save(self.acked_seq)
            self._saved_at = now

    def _flush(self) -> None:
        """On close: publish what is left while the broker is there, for a short while."""
        deadline = time.monotonic() + FLUSH_SECONDS
        while self.connected.is_set() and time.monotonic() < deadline:
            self._step()
            # the last state goes too: the head the pit holds is then the journal's last row
            latest = self._state is None or self._sent_state == self._state_version
            done = not self._outstanding and not self._resync and self._sent >= self._last_seq()
            if done and latest:
                break
            self._wake.wait(0.05)
            self._wake.clear()
        self._take_notes()
        if self.connected.is_set() and not self._resync:
            topic = f"{self.base}/status"
            info = self.client.publish(
                topic, self._signed(topic, self._status("offline", "stopped")), 1, True
            )
            try:
                info.wait_for_publish(timeout=1.0)
            except (RuntimeError, ValueError) as exc:
                log.warning("pit: could not say offline: %s", exc)

    def _take_notes(self) -> None:
        changed = False
        while True:
            try:
                what, mid = self._notes.get_nowait()
            except queue.Empty:
                break
            if what == "connect":
                self.connected.set()
                self._resync = True
            elif what == "disconnect":
                self.connected.clear()
            elif what == "ack" and mid in self._outstanding:
                seq = self._outstanding.pop(mid)
                if seq is not None:
                    self._left[seq] -= 1
                    changed = True
        if changed:
            seq = self.acked_seq
            while self._left.get(seq + 1) == 0:
                del self._left[seq + 1]
                seq += 1
            if seq != self.acked_seq:
                with self.acked:
                    self.acked_seq = seq
                    self.acked.notify_all()

    def _signed(self, topic: str, body: bytes) -> bytes:
        return sign(self.signing_key, topic, body)

    def _send(self, topic: str, payload: bytes, retain: bool, seq: int | None) -> None:
        info = self.client.publish(topic, self._signed(topic, payload), qos=1, retain=retain)
        self._outstanding[info.mid] = seq
        if seq is not None:
            self._left[seq] = self._left.get(seq, 0) + 1

    def _send_rows(self) -> None:
        room = self.window - len(self._left)
        if room <= 0 or self._journal is None:
            return
        rows = self._journal.rows_after(self._sent, room)
        for row in rows:
            self._send_row(row)
            time.sleep(0)  # let the controller thread have the interpreter if it waits

    def _send_row(self, row: tuple[Any, ...]) -> None:
        seq = row[0]
        self._left[seq] = 0  # the messages below are counted as they are handed over
        for topic, body in self.row_messages(row):
            self._send(f"{self.base}/{topic}", _dumps(body), False, seq)
        self._sent = seq

    def row_messages(self, row: tuple[Any, ...]) -> list[tuple[str, dict[str, Any]]]:
        """What one journal row ``(seq, wall, round, source, kind, payload JSON, actor,
        hash)`` becomes, in the order it is sent: ``(topic under the table's base, body)``.
        On a poker table the public ``event`` and ``alarm`` carry no card (`withhold`):
        the row in full goes first to ``restricted/event``, or waits for the hand's
        ``reveal``."""
        seq, wall, round_, source, kind, payload_text, actor, digest = row
        payload = json.loads(payload_text)
        event = {
            **self._header(),
            **{"seq": seq, "wall": wall, "round": round_, "source": source, "kind": kind},
            **{"payload": payload, "actor": actor, "hash": digest, "redacted": []},
        }
        messages: list[tuple[str, dict[str, Any]]] = []
        if self.private or self.marks.names_players(kind):  # cards, or a player's identity
            withheld: dict[str, Any] = {}
            public = public_payload(self.marks, kind, payload, payload_text, withheld)
            if withheld:
                if self.pit.private_cards == "restricted":
                    messages.append(("restricted/event", event))
                event = {**event, "payload": public, "redacted": list(withheld)}
            if kind == self.hand_end and self.pit.private_cards == "delayed":
                messages.append(("reveal", self._reveal(seq, round_)))
        if kind in ALARM_KINDS:
            messages.append(("alarm", {**event, "severity": ALARM_KINDS[kind]}))
        messages.append(("event", event))
        return messages

    def _reveal(self, end_seq: int, round_: int | None) -> dict[str, Any]:
        """What was withheld from every row since the previous hand's end (rule 11.4(c):
        the hand is over; what was face down may be shown)."""
        cards: list[dict[str, Any]] = []
        if self._journal is not None:
            for seq, kind, text in self._journal.hand_rows(self.hand_end, end_seq):
                withheld: dict[str, Any] = {}
                public_payload(self.marks, kind, json.loads(text), text, withheld)
                for field in self.marks.names_players(kind):  # a person is never revealed
                    withheld.pop(field, None)
                if withheld:
                    cards.append({"seq": seq, "kind": kind, "fields": withheld})
        return {**self._header(), "seq": end_seq, "round": round_, "rows": cards}

    def _header(self) -> dict[str, Any]:
        return {"v": SCHEMA_VERSION, "table": self.table_id, "site": self.site}

    def state_message(self, state: dict[str, Any]) -> dict[str, Any]:
        """The retained ``state`` body. On a poker table every card in it is withheld, as
        on the event topic (a reshuffle's cards, a violation's card and message...)."""
        withheld: dict[str, Any] = {}
        if self.private:
            state = withhold(state, withheld)
        body = {**self._header(), "at": _now(), "origin": self.origin, "state": state}
        return {**body, "redacted": list(withheld)}

    def _state_payload(self, state: dict[str, Any]) -> bytes:
        return _dumps(self.state_message(state))

    def _status(self, status: str, reason: str) -> bytes:
        body = {"game": self.game, "status": status, "reason": reason, "at": _now()}
        return _dumps({**self._header(), **body})

    def _last_seq(self) -> int:
        return 0 if self._journal is None else self._journal.last_seq()


def pit_publisher(config: TableConfig) -> PitPublisher:
    """The pit feed for a table config with a ``[pit]`` section (RunningTable calls it)."""
    return PitPublisher(config)
