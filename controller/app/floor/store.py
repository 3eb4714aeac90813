"""The pit's own store: one SQLite file the floor view keeps across its restarts.

What it keeps, and why:

- ``meta``: the shift's start (set by the pit manager), and the view's MQTT client id. The
  id is stable so the broker keeps the view's persistent session (``clean_session =
  false``, QoS 1) while the view is down, and hands it the table rows published meanwhile.
- ``rows``: the journal rows the shift figures and the alarm log are made of, as the tables
  published them on their ``event`` topics (settlements, violations, holds cleared, device
  and controller alarms, sign-ins, starts), each once (keyed by the row's hash: a row sent
  twice after a cut is stored once).
- ``witnessed``, ``superseded``, ``witness_heads``: every journal row's hash the pit has
  seen, per table and seq, and each table's witnessed head (`floor.witness`): what the
  journal alarms come from, and why a (table, seq) is kept for the figures once.
- ``ratings``, ``rating_rows``: the player ratings from the tables' ``restricted/rating``
  topic (`floor.ratings`), each row once; a closed rating's player is erased after the
  retention (``keep_names_days``), its figures kept. Deleted content is overwritten
  (``secure_delete``), so an erased name does not linger in the file's free pages.
- ``tables``: the last status each table said and since when (a view restarted knows that
  bj-04 has been offline since 21:04, not just that it is offline).
- ``pit_journal``: the pit's own append-only log, each entry chained to the one before by
  SHA-256: who set the shift's start and when, who acknowledged which alarm. What the pit
  manager did is journaled here, at the pit, not at the tables.

If the file is lost the view starts a new one: the tables' current state comes back at
once from the broker's retained ``state`` and ``status`` topics; rows published while no
view was subscribed are not on the broker (events are not retained), so the shift's
figures restart from the view's start, unless the tables' journal exports are imported
(`floor.imports`; docs/mqtt.md, "The floor view").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.app.floor.games import round_ends
from controller.app.floor.ratings import RatingBook
from controller.app.floor.witness import Witness, Witnessed, checked
from controller.errors import TableError

# the journal rows the pit keeps (the others only move the floor's clocks); and every
# game's round-end row (`kept_kinds`), for the shift figures
KEPT_KINDS = frozenset(
    {
        "Violation",
        "HoldCleared",
        "DeviceLost",
        "DeviceRestored",
        "DeviceFault",
        "ControllerFault",
        "JournalBroken",
        "DealerSignedIn",
        "DealerSignedOut",
        "TableStarted",
        "JournalReopened",
        "PayoutMismatch",  # the chips disagreed with the payout: the figures
        "MismatchCorrected",  # ... and the rows that end a mismatch, so each counts once
        "MismatchAccepted",
        "ChipAlarm",  # a possible counterfeit chip: the alarm log
        "LimitOverridden",  # a supervisor let a wager outside the limits stand: the alarm log
    }
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
    hash TEXT PRIMARY KEY, site TEXT NOT NULL, tbl TEXT NOT NULL, seq INTEGER NOT NULL,
    wall TEXT NOT NULL, round INTEGER, kind TEXT NOT NULL, actor TEXT,
    payload TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS rows_wall ON rows (wall);
CREATE TABLE IF NOT EXISTS tables (
    site TEXT NOT NULL, tbl TEXT NOT NULL, game TEXT NOT NULL, status TEXT NOT NULL,
    reason TEXT NOT NULL, since TEXT NOT NULL, PRIMARY KEY (site, tbl));
CREATE TABLE IF NOT EXISTS pit_journal (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, who TEXT NOT NULL,
    what TEXT NOT NULL, hash TEXT NOT NULL);
"""


class PitStoreError(TableError, OSError):
    """The pit's store cannot be opened or written."""


class PitStore:
    """Thread-safe (paho's thread writes rows, the web thread reads and journals)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.kept = KEPT_KINDS | round_ends().keys()  # the games' round ends: the figures
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            # a witnessed row's commit survives the view's crash, not the machine's power
            # (WAL, NORMAL: no fsync per row, so a floor's rows keep up); the manager's
            # acknowledgements and the pit's other journal entries are synced (`journal`)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA secure_delete=ON")  # an erased player's name is gone
            self._db.executescript(_SCHEMA)
            self.witness = Witness(self._db, self._lock)  # every row's hash (pit_witness)
            self.ratings = RatingBook(self._db, self._lock)  # the players' ratings
        except sqlite3.Error as exc:
            raise PitStoreError(f"the pit store {path} cannot be opened: {exc}") from exc

    @contextlib.contextmanager
    def _synced(self) -> Iterator[None]:
        """A write synced to disk before it returns (and every row witnessed before it)."""
        self._db.execute("PRAGMA synchronous=FULL")
        try:
            yield
        finally:
            self._db.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- meta ---------------------------------------------------------------------------

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, value: str) -> None:
        with self._lock, self._synced():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def client_id(self) -> str:
        """The view's MQTT client id, made once per store (its persistent session)."""
        known = self.get("client_id")
        if known is None:
            known = f"tablectl-pit-{secrets.token_hex(4)}"
            self.put("client_id", known)
        return known

    # --- rows and tables ----------------------------------------------------------------

    def take_row(
        self, site: str, table: str, body: dict[str, Any]
    ) -> tuple[Witnessed | None, bool]:
        """Witness one published journal row (`floor.witness`) and, when it is new in its
        journal, keep it for the figures: one transaction, one commit. Returns what the
        witness made of it (None: the body carries no row to witness, no hash or not a
        row's seq) and whether the figures' rows changed."""
        row = checked(body.get("seq"), body.get("hash"))
        if row is None:
            return None, False
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                seen = self.witness.row(site, table, *row, str(body.get("kind", "")))
                added = seen.counts and self._insert_row(site, table, body)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return seen, added

    def take_head(self, site: str, table: str, seq: Any, digest: Any) -> Witnessed | None:
        """Witness the head a table's state says (`floor.witness`); None: no head in it."""
        head = checked(seq, digest)
        if head is None:
            return None
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                seen = self.witness.head(site, table, *head)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return seen

    def add_row(self, site: str, table: str, body: dict[str, Any]) -> bool:
        """Keep one journal row of a kept kind; False if already kept."""
        with self._lock:
            return self._insert_row(site, table, body)

    def _insert_row(self, site: str, table: str, body: dict[str, Any]) -> bool:
        digest = body.get("hash")
        if body.get("kind") not in self.kept or not isinstance(digest, str) or not digest:
            return False
        values = (
            digest,
            site,
            table,
            int(body.get("seq") or 0),
            str(body.get("wall") or ""),
            body.get("round"),
            str(body["kind"]),
            body.get("actor"),
            json.dumps(body.get("payload") or {}),
        )
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values
        )
        return cursor.rowcount == 1

    def rows(self, since: str, kinds: frozenset[str] | None = None) -> list[dict[str, Any]]:
        """The kept rows (of ``kinds``, default all) with a wall clock at or after ``since``
        (ISO), oldest first."""
        kinds = self.kept if kinds is None else kinds
        with self._lock:
            found = self._db.execute(
                "SELECT site, tbl, seq, wall, round, kind, actor, payload FROM rows "
                "WHERE wall >= ? ORDER BY wall, seq",
                (since,),
            ).fetchall()
        return [
            {
                "site": site,
                "table": tbl,
                "seq": seq,
                "wall": wall,
                "round": round_,
                "kind": kind,
                "actor": actor,
                "payload": json.loads(payload),
            }
            for site, tbl, seq, wall, round_, kind, actor, payload in found
            if kind in kinds
        ]

    def set_status(
        self, site: str, table: str, game: str, status: str, reason: str, since: str
    ) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                (site, table, game, status, reason, since),
            )

    def statuses(self) -> list[tuple[str, str, str, str, str, str]]:
        """(site, table, game, status, reason, since) of every table the pit has seen."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM tables ORDER BY site, tbl").fetchall()
        return [tuple(str(v) for v in row) for row in rows]  # type: ignore[misc]

    # --- the pit's own journal ----------------------------------------------------------

    def journal(self, at: str, kind: str, who: str, what: dict[str, Any]) -> int:
        """Append an entry (``ShiftStarted``, ``AlarmAcknowledged``) chained to the last."""
        text = json.dumps(what, sort_keys=True)
        with self._lock, self._synced():
            last = self._db.execute(
                "SELECT hash FROM pit_journal ORDER BY id DESC LIMIT 1"
            ).fetchone()
            previous = last[0] if last else ""
            digest = hashlib.sha256(
                "\x1f".join((previous, at, kind, who, text)).encode()
            ).hexdigest()
            cursor = self._db.execute(
                "INSERT INTO pit_journal (at, kind, who, what, hash) VALUES (?, ?, ?, ?, ?)",
                (at, kind, who, text, digest),
            )
        return int(cursor.lastrowid or 0)

    def journal_entries(self, kind: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            found = self._db.execute(
                "SELECT id, at, kind, who, what, hash FROM pit_journal ORDER BY id"
            ).fetchall()
        return [
            {"id": i, "at": at, "kind": k, "who": who, "what": json.loads(what), "hash": h}
            for i, at, k, who, what, h in found
            if kind is None or k == kind
        ]

    def verify_journal(self) -> bool:
        """Whether every entry of the pit's journal chains to the one before."""
        previous = ""
        for entry in self.journal_entries():
            text = json.dumps(entry["what"], sort_keys=True)
            joined = "\x1f".join((previous, entry["at"], entry["kind"], entry["who"], text))
            if hashlib.sha256(joined.encode()).hexdigest() != entry["hash"]:
                return False
            previous = entry["hash"]
        return True
