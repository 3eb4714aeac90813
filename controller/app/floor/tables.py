"""What the floor view knows of every table, from its MQTT topics.

Per table: the game and its limits, who is dealing, the state in words, the time of the
last card, a HOLD with the rule it cites and since when, a restart or recovery, and whether
the table is there at all:

- **online**: its retained ``status`` says so (``dealing``; ``quiet`` when it has said
  nothing for ``quiet_after`` seconds);
- **offline** (red): its Last Will, sent by the broker when the table's connection was lost
  (a crash, a power cut, a cut network, a frozen process after 1.5 keepalives);
- **closed** (grey): it said ``offline`` itself when it stopped cleanly;
- **unknown**: the pit cannot reach the broker, so no status can be trusted; and, once the
  broker is back, a table whose Last Will the outage itself caused is unknown, not
  offline, for ``outage_grace`` seconds, the time a table takes to reconnect.

The journal's rows and head are witnessed durably in the pit's store (`floor.witness`): a
row rewritten, a head that goes backwards or a new journal raises a journal alarm kept
on the table's row and in the pit's store (`pit_alarms.watch_head`), whenever it comes
and across a restart of the view; a (table, seq) counts once in the figures.
"""

from __future__ import annotations

import datetime
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.app.console.json_bounded import loads_bounded
from controller.app.floor.alarms import AlarmLog, watch_head
from controller.app.floor.figures import when
from controller.app.floor.games import game_words
from controller.app.floor.ratings import RATING_DEPTH, RATING_MESSAGE_MAX, refusal
from controller.app.floor.store import PitStore
from controller.app.floor.words import state_words

log = logging.getLogger(__name__)

__all__ = ["KEEP_NAMES_DAYS", "Floor", "TableSeen"]

KEEP_NAMES_DAYS = 30  # a closed rating's player is erased from the pit's store after this


def iso(stamp: float) -> str:
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).isoformat()


@dataclass
class TableSeen:
    """What the floor knows of one table, from its topics."""

    site: str
    table: str
    game: str = ""
    status: str = "unknown"
    reason: str = ""
    status_since: str = ""  # wall clock (ISO) the pit heard the status change
    area: str = ""
    limits: tuple[int, int] | None = None
    dealer: dict[str, Any] | None = None
    state: str = ""
    round: int | None = None
    round_word: str = "round"  # what its game calls a round ("hand"), from its view
    next_action: str = ""
    hold: str = ""
    hold_rule: str = ""
    hold_since: str = ""
    last_card_at: str = ""
    recovered: bool = False
    restarted_at: str = ""  # a TableStarted row seen during this view's life
    replayed: int = 0
    simulated: bool = False
    journal_seq: int = 0
    last_seq: int = 0
    last_kind: str = ""
    last_heard: float | None = None  # monotonic, when the pit last heard from it
    last_event: float | None = None  # monotonic, when its last journal event arrived
    alarms: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=5))
    journal_hash: str = ""  # the head's hash (with journal_seq)
    journal_alarm: str = ""  # the journal's last alarm of the shift (from the pit's store)


class Floor:
    """The tables seen on the broker; thread-safe (paho's thread writes, the web reads)."""

    # A Last Will is shown as offline only once the pit's own link has stayed up this long
    # after it: a broker shutting down sends every table's Will just before it drops the pit.
    WILL_SETTLE = 1.0

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        *,
        store: PitStore | None = None,
        areas: dict[str, str] | None = None,
        outage_grace: float = 20.0,
        keep_names_days: int = KEEP_NAMES_DAYS,
    ) -> None:
        self.clock = clock
        self.wall = wall
        self.store = store if store is not None else PitStore(":memory:")
        self.areas = dict(areas or {})  # table id -> pit/area, from the floor file
        self.outage_grace = outage_grace
        self.keep_names_days = keep_names_days  # the retention of a rated player's name
        self.tables: dict[tuple[str, str], TableSeen] = {}
        self.version = 0
        self.rows_version = 0  # moves when a kept row (figures, alarms) arrives
        self.ratings_version = 0  # moves when a rating row is taken
        self.changed = threading.Condition()
        self.listeners: list[Callable[[], None]] = []
        self.broker_up = False
        self.broker_down_since: str = iso(self.wall())  # not yet connected
        self.was_up = False  # the link has been up once: a later "up" ends an outage
        self.broker_up_at: float | None = None  # monotonic, when it came back after one
        start = self.store.get("shift_start")
        if start is None:
            start = iso(self.wall())
            self.store.put("shift_start", start)
            self.store.put("shift_by", "the pit view's first start")
        self.shift_start = start
        self.log = AlarmLog(self.store)
        self.log.load(start)
        for site, table, game, status, reason, since in self.store.statuses():
            seen = self._table(site, table)
            seen.game, seen.status, seen.reason, seen.status_since = game, status, reason, since
        self.erase_rating_names()
        for entry in self.store.journal_entries("JournalAlarm"):
            what = entry["what"]
            if entry["at"] >= start:
                self._table(what["site"], what["table"]).journal_alarm = what["message"]

    def _table(self, site: str, table: str) -> TableSeen:
        seen = self.tables.get((site, table))
        if seen is None:
            seen = self.tables[(site, table)] = TableSeen(
                site, table, area=self.areas.get(table, "")
            )
        return seen

    # --- the broker link ----------------------------------------------------------------

    def link(self, up: bool) -> None:
        """The pit's own connection to the broker went up or down."""
        with self.changed:
            if up == self.broker_up:
                return
            self.broker_up = up
            if up and self.was_up:  # back after an outage (not the first connection)
                self.broker_up_at = self.clock()
            elif not up:
                self.broker_down_since = iso(self.wall())
                # mosquitto sends the Will of every table as it shuts down, just before
                # the pit's own link drops: those tables were lost to the outage
                recent = self.clock() - self.WILL_SETTLE
                for entry in self.log.entries.values():
                    heard = entry.get("heard")
                    if entry["kind"] == "TableLost" and heard is not None and heard >= recent:
                        self.log.outage(entry)
            self.was_up = self.was_up or up
            self._changed()
        self._notify()

    def _changed(self) -> None:
        self.version += 1
        self.changed.notify_all()

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    # --- messages -----------------------------------------------------------------------

    def take(self, topic: str, payload: bytes, retained: bool = False) -> None:
        """One MQTT message: ``<prefix>/<site>/table/<id>/<kind>``."""
        parts = topic.split("/")
        if len(parts) < 5 or parts[-3] != "table":
            return
        site, table_id, kind = parts[-4], parts[-2], parts[-1]
        if kind not in ("status", "state", "alarm", "event") or not payload:
            return  # a cleared retained message
        try:
            body = loads_bounded(payload)
        except ValueError:
            log.warning("not JSON on %s", topic)
            return
        if not isinstance(body, dict) or body.get("v") != 1:
            log.warning("unknown payload version on %s", topic)
            return
        now = self.clock()
        with self.changed:
            seen = self._table(site, table_id)
            if kind == "status":
                self._status(seen, body, retained)
            elif kind == "state":
                state = body.get("state") or {}
                head = self.store.take_head(
                    site, table_id, state.get("journal_seq"), state.get("journal_hash")
                )
                alarm = watch_head(seen, head, True)
                if alarm:
                    self.log.journal_alarm(site, table_id, iso(self.wall()), alarm)
                self._state(seen, state, now - self._age(body.get("at")))
            else:
                self._row(seen, body, now)
            if kind != "status" or seen.status == "online":
                seen.last_heard = now
            self._changed()
        self._notify()

    def take_rating(self, site: str, table: str, payload: bytes) -> None:
        """One message of a table's ``restricted/rating`` topic, its signature checked
        (`floor.verify`): refused whole, with one log line naming the table, the row and
        the field, unless every field is known and of its type (`floor.ratings.refusal`).
        Its row is witnessed like every journal row; it moves no public figure, and the
        floor's public picture does not say that it came (no last row, no wake-up),
        unless it raises an alarm: the player's other table."""
        if len(payload) > RATING_MESSAGE_MAX:
            log.warning("table %s/%s: refused a rating message: %d bytes, more than %d",
                        site, table, len(payload), RATING_MESSAGE_MAX)  # fmt: skip
            return
        try:
            body = loads_bounded(payload, RATING_DEPTH)
        except ValueError as exc:  # not JSON, not UTF-8, or nested too deep
            why = f"it is not JSON ({exc})" if isinstance(exc, json.JSONDecodeError) else exc
            log.warning("table %s/%s: refused a rating message: %s", site, table, str(why)[:120])
            return
        problem = refusal(body)
        if problem:
            seq = body.get("seq") if isinstance(body, dict) else None
            kind = body.get("kind") if isinstance(body, dict) else None
            log.warning(
                "table %s/%s: refused rating row %s (%s): %s",
                site, table, repr(seq)[:24], repr(kind)[:40], problem,
            )  # fmt: skip
            return
        alarmed = False
        with self.changed:
            seen = self._table(site, table)
            witnessed, _ = self.store.take_row(site, table, body)
            alarm = watch_head(seen, witnessed, False, body.get("payload"))
            if alarm:
                self.log.journal_alarm(site, table, iso(self.wall()), alarm)
                alarmed = True
            if witnessed is None or witnessed.kept:
                for other in self.store.ratings.take(site, table, body):
                    _, _, rating, box = other["at"]
                    what = {"site": site, "table": table, "box": box, "rating": rating,
                            "other_table": other["table"], "other_box": other["box"],
                            "other_rating": other["rating"]}  # fmt: skip
                    log.warning("table %s/%s: a player rated at two tables at once: %s",
                                site, table, what)  # fmt: skip
                    self.log.rating_conflict(what, iso(self.wall()))
                    alarmed = True
                self.ratings_version += 1
            self.erase_rating_names()
            if alarmed:
                self.rows_version += 1
                self._changed()
        if alarmed:
            self._notify()

    def erase_rating_names(self) -> int:
        """The retention: erase the player of each rating that ended more than
        ``keep_names_days`` ago (its figures stay)."""
        cutoff = self.wall() - self.keep_names_days * 86400.0
        return self.store.ratings.erase_names(iso(cutoff))

    def _status(self, seen: TableSeen, body: dict[str, Any], retained: bool) -> None:
        status, reason = str(body.get("status", "unknown")), str(body.get("reason", ""))
        seen.game = str(body.get("game", seen.game))
        if (status, reason) == (seen.status, seen.reason) and seen.status_since:
            return  # the same status again (a retained one at a reconnect): since stays
        if retained and seen.status == "unknown":
            # first seen at the pit's start: for a clean stop its ``at`` is when; for a
            # Last Will only that it was already so when the pit started
            since = str(body.get("at")) if reason == "stopped" else iso(self.wall())
        else:
            since = iso(self.wall())
        was_online = seen.status == "online"
        seen.status, seen.reason, seen.status_since = status, reason, since
        self.store.set_status(seen.site, seen.table, seen.game, status, reason, since)
        if status == "offline" and reason != "stopped" and was_online and not retained:
            self.log.table_lost(
                seen.site, seen.table, since, self._in_outage_grace(), heard=self.clock()
            )
            self.rows_version += 1
        elif status == "online":
            self.log.table_back(seen.site, seen.table, since, journal=True)

    def _row(self, seen: TableSeen, body: dict[str, Any], now: float) -> None:
        """A journal row, from the ``event`` topic (or the ``alarm`` topic's copy)."""
        seq = body.get("seq")
        witnessed, added = self.store.take_row(seen.site, seen.table, body)
        alarm = watch_head(seen, witnessed, False, body.get("payload"))
        if alarm:
            self.log.journal_alarm(seen.site, seen.table, iso(self.wall()), alarm)
        if isinstance(seq, int) and seq > seen.last_seq:
            seen.last_seq, seen.last_kind = seq, str(body.get("kind", ""))
            seen.last_event = now
        kind = str(body.get("kind", ""))
        if kind == "CardDrawn" and str(body.get("wall", "")) > seen.last_card_at:
            seen.last_card_at = str(body.get("wall"))
        elif kind == "TableStarted":
            payload = body.get("payload") or {}
            seen.restarted_at = str(body.get("wall", ""))
            seen.replayed = int(payload.get("replayed_events") or 0)
        if witnessed is not None and not witnessed.kept:
            return  # a row of a rewritten journal: not the floor's figures or alarm log
        if self.log.take(seen.site, seen.table, body, added) or added:
            self.rows_version += 1  # the figures and charts are worked out again
        if body.get("severity") or kind in ("Violation", "HoldCleared", "DeviceLost"):
            payload = body.get("payload") or {}
            item = {
                "seq": seq,
                "severity": body.get("severity") or "",
                "kind": kind,
                "rule": payload.get("rule", ""),
                "message": payload.get("message") or payload.get("reason", ""),
                "wall": body.get("wall"),
            }
            if not seen.alarms or seen.alarms[0]["seq"] != seq:
                seen.alarms.appendleft(item)

    def _age(self, at: Any) -> float:
        """Seconds since the table published a state (its ``at``; the floor's clocks are
        kept by NTP), so a retained state seen at the pit's start has its true age."""
        stamp = when(at)
        return 0.0 if stamp is None else max(0.0, self.wall() - stamp)

    @staticmethod
    def _state(seen: TableSeen, state: dict[str, Any], at: float) -> None:
        """A state is published after every event: a higher ``journal_seq`` means new
        events."""
        view = state.get("view") or {}
        seen.game = str(state.get("game", seen.game))
        seen.round = state.get("round")
        seen.round_word = str(view.get("round_word") or "round")
        journal_seq = int(state.get("journal_seq") or 0)
        if journal_seq > max(seen.journal_seq, seen.last_seq):
            seen.last_event = at
        seen.journal_seq = journal_seq
        seen.simulated = bool(state.get("simulated"))
        seen.state = str(view.get("state", ""))
        seen.next_action = str(view.get("next_action", ""))
        seen.hold, seen.hold_rule = _hold_text(view)
        seen.hold_since = str(state.get("hold_since") or "") if seen.hold else ""
        card = state.get("last_card_at")
        if isinstance(card, str) and card > seen.last_card_at:
            seen.last_card_at = card
        limits = state.get("limits") or {}
        if "minimum" in limits and "maximum" in limits:
            seen.limits = (int(limits["minimum"]), int(limits["maximum"]))
        if "dealer" in state:
            seen.dealer = state.get("dealer")
        seen.recovered = bool(state.get("recovered"))

    def refused(self, site: str, table: str, text: str) -> None:
        """A message on a table's topic the view did not believe (`pit_verify.Gate`)."""
        with self.changed:
            at = iso(self.wall())
            self.log.refused(site, table, at, text)
            seen = self.tables.get((site, table))
            if seen is not None:
                item = {"seq": None, "severity": "refused", "rule": "", "wall": at}
                seen.alarms.appendleft({**item, "kind": "MessageRefused", "message": text})
            self.rows_version += 1
            self._changed()
        self._notify()

    # --- what the page shows ------------------------------------------------------------

    def _in_outage_grace(self) -> bool:
        """Whether the broker came back so recently that a Last Will may be the outage's."""
        up = self.broker_up_at
        return up is not None and self.clock() - up < self.outage_grace

    def _shown(self, seen: TableSeen, now: float, quiet_after: float) -> tuple[str, str, str]:
        """(shown, since, why): what the page says of the table's presence."""
        if not self.broker_up:
            return "unknown", self.broker_down_since, "the pit cannot reach the broker"
        if seen.status == "offline" and seen.reason != "stopped":
            entry = self.log.lost_entry(seen.site, seen.table)
            if entry is not None and entry.get("outage") and self._in_outage_grace():
                why = "not back yet after the broker outage"
                return "unknown", self.broker_down_since, why
            heard = None if entry is None else entry.get("heard")
            if heard is not None and now - heard < self.WILL_SETTLE:
                return "unknown", seen.status_since, "connection lost just now: checking"
            return "offline", seen.status_since, "connection lost: crash, power or network"
        if seen.status == "offline":
            return "closed", seen.status_since, "stopped cleanly"
        if seen.status != "online":
            return "unknown", seen.status_since, "no status from the table yet"
        if seen.hold:
            return "hold", seen.hold_since, seen.hold
        quiet = seen.last_heard is not None and now - seen.last_heard > quiet_after
        if quiet:
            return "quiet", "", f"nothing heard for over {round(quiet_after)} s"
        return "dealing", seen.status_since, ""

    def as_dict(self, seen: TableSeen, now: float, quiet_after: float) -> dict[str, Any]:
        shown, since, why = self._shown(seen, now, quiet_after)
        last_event = seen.last_event
        quiet = (
            seen.status == "online"
            and seen.last_heard is not None
            and now - seen.last_heard > quiet_after
        )
        return {
            "site": seen.site,
            "table": seen.table,
            "area": seen.area,
            "game": seen.game,
            "game_words": game_words(seen.game),
            "limits": list(seen.limits) if seen.limits else None,
            "dealer": seen.dealer,
            "status": seen.status,
            "reason": seen.reason,
            "status_since": seen.status_since,
            "shown": shown,
            "shown_since": since,
            "why": why,
            "quiet": quiet,
            "state": seen.state,
            "state_words": state_words(seen.state, seen.game),
            "round": seen.round,
            "round_word": seen.round_word,
            "next_action": seen.next_action,
            "hold": seen.hold,
            "hold_rule": seen.hold_rule,
            "hold_since": seen.hold_since,
            "last_card_at": seen.last_card_at,
            "recovered": seen.recovered,
            "restarted_at": seen.restarted_at,
            "replayed": seen.replayed,
            "simulated": seen.simulated,
            "journal_seq": max(seen.journal_seq, seen.last_seq),
            "last_kind": seen.last_kind,
            "last_event_age": None if last_event is None else round(now - last_event, 1),
            "alarms": list(seen.alarms),
            "journal_hash": seen.journal_hash,
            "journal_alarm": seen.journal_alarm,
        }

    def alarms(self) -> list[dict[str, Any]]:
        """The alarm log, newest first (a table lost only now is not an alert yet)."""
        with self.changed:
            items = self.log.newest(settling=self.clock() - self.WILL_SETTLE)
            settled = self.broker_up and not self._in_outage_grace()
        for item in items:  # lost in the outage and not back after the grace: an alarm now
            if item["kind"] == "TableLost" and item.get("outage") and not item["cleared"]:
                item["alert"] = settled
        return items

    def snapshot(self, quiet_after: float = 60.0) -> list[dict[str, Any]]:
        now = self.clock()
        with self.changed:
            return [self.as_dict(self.tables[k], now, quiet_after) for k in sorted(self.tables)]

    def wait_for(self, check: Callable[[list[dict[str, Any]]], bool], timeout: float) -> bool:
        """Wait until ``check(snapshot)`` holds (tests); re-checked on every message."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not check(self.snapshot()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(min(left, 0.5))
            return True

    # --- the pit manager's own actions (journaled in the pit's store) -------------------

    def set_shift(self, start: str, by: str) -> None:
        with self.changed:
            self.store.journal(iso(self.wall()), "ShiftStarted", by, {"start": start})
            self.store.put("shift_start", start)
            self.store.put("shift_by", by)
            self.shift_start = start
            self.log.load(start)
            self.rows_version += 1
            self._changed()
        self._notify()

    def acknowledge(self, alarm_id: str, by: str) -> bool:
        with self.changed:
            done = self.log.acknowledge(alarm_id, by, iso(self.wall()))
            if done:
                self._changed()
        if done:
            self._notify()
        return done


def _hold_text(view: dict[str, Any]) -> tuple[str, str]:
    """The hold a table is under and the rule(s) it cites (blackjack: a list of
    violations; poker: one dict): (text, rules), or ('', '')."""
    hold = view.get("hold")
    items = hold if isinstance(hold, list) else [hold] if isinstance(hold, dict) else []
    texts, rules = [], []
    for item in items:
        if isinstance(item, dict):
            rule, message = item.get("rule", ""), item.get("message") or ""
            if rule:
                rules.append(str(rule))
            if message:
                texts.append(f"rule {rule}: {message}" if rule else str(message))
            elif rule:
                texts.append(f"rule {rule}")
    if not texts and view.get("state") == "hold":
        texts.append("on hold")
    return "; ".join(t for t in texts if t), ", ".join(rules)
