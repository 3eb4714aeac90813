"""The floor's alarm log and its watch on every table's journal head.

The alarm log lists, newest first, what a pit manager must see: each HOLD with its time,
table, the rule it cites and, once cleared, who cleared it, when and how; devices lost and
back; controller faults; a table lost (its Last Will) and back; journal alarms; restarts
that recovered a hand from the journal. No journal numbers: times and words. An alarm that
needs the manager (a HOLD, a table or device lost, a fault, a journal alarm) flashes until
the manager acknowledges it; the acknowledgement (who and when) is journaled in the pit's
own store (`PitStore.journal`), as is each table lost and each journal alarm, so they
survive a restart. The journal alarms come from the pit's durable witness of every
table's rows (`floor.witness`).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any, Protocol

from controller.app.floor.store import PitStore
from controller.app.floor.witness import Witnessed
from controller.app.floor.words import ALARM_WORDS, decision_words

log = logging.getLogger(__name__)

LOG_KEPT = 500  # alarm log entries kept in memory (the shift's newest)
ALERTS = frozenset(
    {"hold", "lost", "device", "fault", "journal", "counterfeit", "override", "refused", "rating"}
)
WITHHELD = "(the message is withheld: it names a card)"


class Heads(Protocol):
    site: str
    table: str
    journal_hash: str
    journal_alarm: str
    alarms: Any


def alarm_words(seen: Witnessed, payload: Any = None) -> str:
    """The journal alarm a row or head the witness judged (`floor.witness`) raises, or ''."""
    if seen.status == "fork":
        return (
            f"journal forked at row {seen.seq}: hash {seen.digest[:12]}, where "
            f"{seen.known[:12]} was seen before (the journal was rewritten)"
        )
    if seen.status == "back":
        return (
            f"journal head went back from row {seen.said} to row {seen.seq} (rows cut off "
            "the end, or a new journal opened)"
        )
    if seen.status == "reopened":
        said = payload if isinstance(payload, dict) else {}
        who = str(said.get("staff_id") or "?")[:40]
        why = str(said.get("reason") or "")[:200]
        return (
            f"a new journal was opened by {who}: {why} (the pit had witnessed the old one "
            f"to row {seen.old_head})"
        )
    return ""


def watch_head(seen: Heads, witnessed: Witnessed | None, head: bool, payload: Any = None) -> str:
    """A row or head the witness has judged (``head``: the journal's last row, from the
    table's state): a fork, a head that went back or a new journal raises the table's
    journal alarm, which this returns ('' if none)."""
    if witnessed is None:
        return ""  # a table that publishes no hash, or a seq no row has
    alarm = alarm_words(witnessed, payload)
    if alarm:
        log.error("table %s/%s: %s", seen.site, seen.table, alarm)
        seen.journal_alarm = alarm
        seen.alarms.appendleft(
            {"seq": witnessed.seq, "severity": "journal", "kind": "JournalHead", "rule": "",
             "message": alarm, "wall": None}
        )  # fmt: skip
    if head:
        seen.journal_hash = witnessed.digest
    return alarm


class AlarmLog:
    """The floor's alarm log (newest last in memory, newest first on the page)."""

    def __init__(self, store: PitStore) -> None:
        self.store = store
        self.entries: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def load(self, since: str) -> None:
        """Rebuild from the store: the kept rows of the shift, the tables lost, the
        acknowledgements."""
        self.entries.clear()
        pit = self.store.journal_entries()
        kinds = ("TableLost", "JournalAlarm", "RatingConflict")
        lost = [e for e in pit if e["kind"] in kinds and e["at"] >= since]
        rows = self.store.rows(since)
        merged = sorted(
            [(r["wall"], 0, r) for r in rows] + [(e["at"], 1, e) for e in lost],
            key=lambda item: (item[0], item[1]),
        )
        for _, source, item in merged:
            what = item.get("what") or {}
            if source == 0:
                body = {**item, "hash": None}
                self.take(item["site"], item["table"], body, True)
            elif item["kind"] == "JournalAlarm":
                self.journal_alarm(
                    what["site"], what["table"], item["at"], what["message"], journal=False
                )
            elif item["kind"] == "RatingConflict":
                self.rating_conflict(what, item["at"], journal=False)
            else:
                self.table_lost(what["site"], what["table"], item["at"], False, journal=False)
        for entry in pit:
            if entry["kind"] == "AlarmAcknowledged" and entry["what"]["alarm"] in self.entries:
                self.entries[entry["what"]["alarm"]]["acked"] = {
                    "by": entry["who"],
                    "at": entry["at"],
                }
            elif entry["kind"] == "TableBack":
                self.table_back(entry["what"]["site"], entry["what"]["table"], entry["at"])

    def _add(self, entry: dict[str, Any]) -> bool:
        if entry["id"] in self.entries:
            return False
        entry.setdefault("cleared", None)
        entry.setdefault("acked", None)
        entry["alert"] = entry["severity"] in ALERTS
        self.entries[entry["id"]] = entry
        while len(self.entries) > LOG_KEPT:
            self.entries.popitem(last=False)
        return True

    def take(self, site: str, table: str, body: dict[str, Any], added: bool) -> bool:
        """One published journal row; whether the log changed."""
        kind = str(body.get("kind", ""))
        payload = body.get("payload") or {}
        wall = str(body.get("wall") or "")
        key = f"{site}/{table}/{body.get('seq')}@{wall}"
        base = {"id": key, "at": wall, "site": site, "table": table, "kind": kind}
        base["words"] = ALARM_WORDS.get(kind, kind)
        if kind == "Violation":
            message = payload.get("message")
            return self._add(
                {
                    **base,
                    "severity": "hold",
                    "rule": str(payload.get("rule") or ""),
                    "message": WITHHELD if message is None else str(message),
                }
            )
        if kind == "HoldCleared":
            who = str(payload.get("who") or body.get("actor") or "")
            how = decision_words(payload)
            cleared = False
            for entry in self.entries.values():
                if entry["table"] == table and entry["site"] == site and entry["kind"] == (
                    "Violation"
                ) and entry["cleared"] is None and entry["at"] <= wall:  # fmt: skip
                    entry["cleared"] = {"by": who, "at": wall, "how": how}
                    cleared = True
            return cleared
        if kind == "DeviceLost":
            source = str(payload.get("source") or body.get("source") or "")
            return self._add(
                {**base, "severity": "device", "rule": "", "device": source,
                 "message": f"{source}: {payload.get('reason', '')}".strip(": ")}
            )  # fmt: skip
        if kind == "DeviceRestored":
            source = str(payload.get("source") or body.get("source") or "")
            for entry in reversed(self.entries.values()):
                if entry["table"] == table and entry.get("device") == source:
                    if entry["cleared"] is None:
                        entry["cleared"] = {"by": "", "at": wall, "how": "the device is back"}
                        return True
                    break
            return False
        if kind == "ChipAlarm":  # a chip not in the inventory, or not its value
            return self._add(
                {**base, "severity": "counterfeit", "rule": str(payload.get("rule") or ""),
                 "message": str(payload.get("reason") or "")}
            )  # fmt: skip
        if kind == "LimitOverridden":  # a supervisor let a wager outside the limits stand
            high = payload.get("maximum")
            limits = f"{payload.get('minimum')} to {high}" if high is not None else "no maximum"
            return self._add(
                {**base, "severity": "override", "rule": "table limits",
                 "message": f"{payload.get('who', '')} let {payload.get('amount')} stand on "
                            f"{payload.get('spot', '')} (limits {limits}): "
                            f"{payload.get('reason', '')}"}
            )  # fmt: skip
        if kind in ("DeviceFault", "ControllerFault", "JournalBroken"):
            message = payload.get("reason") or payload.get("error") or payload.get("message")
            return self._add({**base, "severity": "fault", "rule": "", "message": str(message)})
        if kind == "TableStarted" and payload.get("replayed_events"):
            n = payload["replayed_events"]
            return self._add(
                {**base, "severity": "restart", "rule": "",
                 "message": f"restarted and recovered from its journal ({n} events replayed)"}
            )  # fmt: skip
        return False

    def journal_alarm(
        self, site: str, table: str, at: str, text: str, *, journal: bool = True
    ) -> None:
        """A journal alarm (`watch_head`), journaled in the pit's store: it survives a
        restart of the view, on the table's row and in the log."""
        if journal:
            what = {"site": site, "table": table, "message": text}
            self.store.journal(at, "JournalAlarm", "pit view", what)
        key = f"{site}/{table}/journal@{at}"
        base = {"id": key, "at": at, "site": site, "table": table, "kind": "JournalHead"}
        self._add({**base, "words": ALARM_WORDS["JournalHead"], "severity": "journal",
                   "rule": "", "message": text})  # fmt: skip

    def rating_conflict(self, what: dict[str, Any], at: str, *, journal: bool = True) -> None:
        """A player rated at two tables at once (`floor.ratings`): ``what`` names the two
        tables, boxes and ratings, never the player (the alarm log needs no sign-in: the
        Ratings view, behind it, shows who), and is journaled in the pit's store."""
        if journal:
            self.store.journal(at, "RatingConflict", "pit view", what)
        site, table = str(what["site"]), str(what["table"])
        message = (
            f"the player of {table} box {what['box']} (rating {what['rating']}) is also "
            f"rated at {what['other_table']} box {what['other_box']} (rating "
            f"{what['other_rating']}): see Ratings"
        )
        key = f"{site}/{table}/rating-{what['rating']}-{what['other_table']}@{at}"
        base = {"id": key, "at": at, "site": site, "table": table, "kind": "RatingConflict"}
        self._add({**base, "words": ALARM_WORDS["RatingConflict"], "severity": "rating",
                   "rule": "", "message": message})  # fmt: skip

    def refused(self, site: str, table: str, at: str, text: str) -> None:
        """A message the view did not believe (`pit_verify.Gate`): nothing of it taken."""
        key = f"{site}/{table}/refused@{at}"
        base = {"id": key, "at": at, "site": site, "table": table, "kind": "MessageRefused"}
        self._add({**base, "words": ALARM_WORDS["MessageRefused"], "severity": "refused",
                   "rule": "", "message": text})  # fmt: skip

    def table_lost(
        self,
        site: str,
        table: str,
        at: str,
        outage: bool,
        *,
        journal: bool = True,
        heard: float | None = None,
    ) -> None:
        """A table's Last Will: its connection was lost. ``outage``: the broker was just
        back, so the outage itself may be why (shown as unknown, not offline, a while)."""
        if journal:
            self.store.journal(at, "TableLost", "pit view", {"site": site, "table": table})
        self._add(
            {
                "id": f"{site}/{table}/lost@{at}",
                "at": at,
                "site": site,
                "table": table,
                "kind": "TableLost",
                "words": ALARM_WORDS["TableLost"],
                "severity": "lost",
                "rule": "",
                "message": "connection lost during the broker outage"
                if outage
                else "connection lost (its Last Will): a crash, power or network",
                "outage": outage,
                "heard": heard,  # the pit's monotonic clock when the Will came
            }
        )
        if outage:  # not an alarm to sound: most tables are back within seconds
            self.outage(self.entries[f"{site}/{table}/lost@{at}"])

    def outage(self, entry: dict[str, Any]) -> None:
        """A table lost because the broker went away, not the table."""
        entry["outage"], entry["alert"] = True, False
        entry["message"] = "connection lost during the broker outage"

    def lost_entry(self, site: str, table: str) -> dict[str, Any] | None:
        for entry in reversed(self.entries.values()):
            if entry["site"] == site and entry["table"] == table and entry["kind"] == (
                "TableLost"
            ):  # fmt: skip
                return entry
        return None

    def table_back(self, site: str, table: str, at: str, *, journal: bool = False) -> None:
        entry = self.lost_entry(site, table)
        if entry is not None and entry["cleared"] is None:
            if journal:
                self.store.journal(at, "TableBack", "pit view", {"site": site, "table": table})
            entry["cleared"] = {"by": "", "at": at, "how": "the table is back online"}

    def acknowledge(self, alarm_id: str, by: str, at: str) -> bool:
        entry = self.entries.get(alarm_id)
        if entry is None or entry["acked"] is not None:
            return False
        what = {"alarm": alarm_id, "table": entry["table"], "what": entry["words"]}
        self.store.journal(at, "AlarmAcknowledged", by, what)
        entry["acked"] = {"by": by, "at": at}
        return True

    def newest(self, limit: int = 200, settling: float | None = None) -> list[dict[str, Any]]:
        """The newest entries first. ``settling``: a table lost after this (the pit's
        monotonic clock) is no alert yet (`Floor.WILL_SETTLE`)."""
        shown = []
        for entry in reversed(list(self.entries.values())[-limit:]):
            item = {k: v for k, v in entry.items() if k != "heard"}
            heard = entry.get("heard")
            if settling is not None and heard is not None and heard > settling:
                item["alert"] = False
            shown.append(item)
        return shown
