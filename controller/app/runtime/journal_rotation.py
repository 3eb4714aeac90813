"""When the journal rolls over to a new file: by trading day or by size, always
at a round boundary, right after the loop's snapshot.

The loop calls `Rotation` after every round that ended (`TableLoop.after_round`). When the
live file holds another trading day than today's (``[journal] rotate_daily``, the day
beginning at ``day_starts``, local time), or has grown past ``rotate_mb``, the file is
sealed and the next one opened (`controller.journal.fileset.rotate`: its first row goes on
from the sealed file's last), and a snapshot is written into it with its first row, in one
transaction, so the live file alone is enough to bring the table back after a power cut.
The archive (if configured) is then woken to take the sealed file away
(`controller.app.runtime.journal_archive`).

Rotating only between rounds keeps a round's rows in one file (``journal last`` reads
across files anyway) and costs the controller thread one more file's creation (a few
milliseconds, once a day), at a moment no card is waited for.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from controller.app.config.journal import JournalKeeping
from controller.journal.fileset import rotate
from controller.journal.store import Journal, JournalError

if TYPE_CHECKING:
    from controller.app.runtime.loop import TableLoop

log = logging.getLogger(__name__)


def _local_now() -> datetime.datetime:
    return datetime.datetime.now().astimezone()


class Rotation:
    def __init__(
        self,
        keeping: JournalKeeping,
        key: bytes,
        *,
        now: Callable[[], datetime.datetime] = _local_now,
        on_rotated: Callable[[Path], None] | None = None,
    ) -> None:
        self.keeping = keeping
        self._key = key
        self._now = now
        self.on_rotated = on_rotated
        self._day: tuple[Path, datetime.date | None] | None = None  # the live file's day
        self.rotations = 0

    def trading_day(self, when: datetime.datetime) -> datetime.date:
        """The trading day ``when`` belongs to: the calendar day (local time) of ``when``
        less ``day_starts`` (with 06:00, 03:00 on the 2nd is still the 1st's night)."""
        hour, minute = self.keeping.day_starts
        local = when.astimezone() if when.tzinfo is not None else when
        return (local - datetime.timedelta(hours=hour, minutes=minute)).date()

    def _file_day(self, journal: Journal) -> datetime.date | None:
        if self._day is None or self._day[0] != journal.path:
            first = next(journal.entries(), None)
            day = None
            if first is not None:
                day = self.trading_day(datetime.datetime.fromisoformat(first.wall))
            self._day = (journal.path, day)
        return self._day[1]

    def due(self, journal: Journal) -> str | None:
        """Why the live file should roll over now, or None."""
        limit = self.keeping.rotate_bytes
        if limit:
            size = journal.data_bytes()  # on its own connection: no file opened
            if size >= limit:
                return f"size: {size} bytes, the limit is {limit}"
        if self.keeping.rotate_daily:
            day = self._file_day(journal)
            today = self.trading_day(self._now())
            if day is not None and day != today:
                return f"trading day: the file holds {day}, today is {today}"
        return None

    def __call__(self, loop: TableLoop) -> None:
        reason = self.due(loop.journal)
        if reason is None:
            return
        sealed = loop.journal.path
        try:
            loop.journal = rotate(loop.journal, self._key, reason, loop.game.round_no,
                                  [loop.snapshot_row()])  # fmt: skip
        except JournalError:
            log.critical("the journal could not rotate (%s)", reason)
            raise  # the loop stops: it has no journal to write to
        self._day = (loop.journal.path, self.trading_day(self._now()))  # the day it holds
        self.rotations += 1
        log.warning("journal rotated (%s): %s sealed, now %s", reason, sealed.name,
                    loop.journal.path.name)  # fmt: skip
        if self.on_rotated is not None:
            self.on_rotated(sealed)
