"""The soak's figures and checks, computed from the journal and what the soak saw.

Separate from the run (tools/soak.py) so that what "passed" means reads in one place:

- nothing lost, nothing duplicated: every shoe message sent (serial shoe: sequence numbers
  1..sent) or card slid past the reader (RFID: by tag) is journaled exactly once;
- every round balances: each row of the game's round-end record (`GameSpec.round_end`)
  gives, by the spec's settlement figures, drop == paid out + house win (docs/architecture.md:
  chips in = chips out + house result); a void round too, by the same fields; a
  `ControllerFault` row counts as unbalanced;
- every injected fault absorbed or reported (`unaccounted` lists those that were not).
"""

from __future__ import annotations

import logging
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.app.runtime.journal_files import open_journal
from tools.soak_games import DEFAULT, SoakGame

log = logging.getLogger("soak")

STALL_SECONDS = 120.0  # a round that lasts longer is stuck (rounds take seconds)


@dataclass
class SoakResult:
    seconds: float
    seed: int
    steps: int = 0
    rounds_played: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    violations: dict[str, int] = field(default_factory=dict)
    refusals: dict[str, int] = field(default_factory=dict)
    device_faults: dict[str, int] = field(default_factory=dict)
    holds_cleared: int = 0
    events_journaled: int = 0
    rows_journaled: int = 0
    shoe_messages_sent: int = 0
    events_lost: int = 0
    events_duplicated: int = 0
    rounds_unbalanced: int = 0
    controller_faults: int = 0
    recoveries: int = 0
    recovery_median_s: float = 0.0
    recovery_max_s: float = 0.0
    cable_recoveries: int = 0
    cable_recovery_median_s: float = 0.0
    cable_recovery_max_s: float = 0.0
    foreign_cards_dealt: int = 0  # doctored shoes dealt past their extra As
    shoe_reports_with_extra: int = 0
    chain_rows_verified: int = 0
    unaccounted: list[str] = field(default_factory=list)
    game: str = DEFAULT
    decks: int = 6

    @property
    def ok(self) -> bool:
        return (
            self.events_lost == 0
            and self.events_duplicated == 0
            and self.rounds_unbalanced == 0
            and self.controller_faults == 0
            and not self.unaccounted
            and self.rounds_played > 0
        )


@dataclass
class Observed:
    """What the soak saw outside the journal: the faults it injected and how it went."""

    faults: Counter[str]
    steps: int = 0
    restart_times: list[float] = field(default_factory=list)
    cable_times: list[float] = field(default_factory=list)
    foreign_dealt: int = 0  # doctored shoes dealt past their extra As
    empty_shoes: int = 0
    stalls: int = 0
    stuck: bool = False
    shoe_sent: int = 0  # serial shoe: messages sent (sequence numbers 1..sent)
    slid: Counter[str] | None = None  # RFID: tags slid past the reader (None: serial)


def figures(journal: Path, game: SoakGame, seen: Observed, seconds: float,
            seed: int) -> SoakResult:  # fmt: skip
    """The figures of a finished run, from its journal (verified) and what it saw."""
    result = SoakResult(seconds, seed, steps=seen.steps, game=game.name,
                        decks=game.profile.decks)  # fmt: skip
    faults = seen.faults
    result.faults = dict(sorted(faults.items()))
    with open_journal(journal, readonly=True) as opened:
        result.chain_rows_verified = opened.verify()
        rows = list(opened.entries())
    result.rows_journaled = len(rows)
    kinds = Counter(row.kind for row in rows)
    result.events_journaled = sum(1 for row in rows if row.source not in ("controller",))
    if seen.slid is not None:
        _count_by_tag(result, rows, seen.slid)
    else:
        seqs = Counter(
            row.payload["seq"]
            for row in rows
            if row.source == "shoe" and row.payload.get("seq") is not None
        )
        result.shoe_messages_sent = seen.shoe_sent
        result.events_lost = sum(1 for seq in range(1, seen.shoe_sent + 1) if seq not in seqs)
        result.events_duplicated = sum(n - 1 for n in seqs.values() if n > 1)
    result.rounds_played = kinds[game.round_end]
    result.controller_faults = kinds["ControllerFault"]
    result.rounds_unbalanced = result.controller_faults + sum(
        1 for row in rows if row.kind == game.round_end and unbalanced(game, row.payload)
    )
    result.violations = dict(
        sorted(Counter(r.payload.get("rule", "?") for r in rows if r.kind == "Violation").items())
    )
    result.refusals = dict(
        sorted(Counter(_refusal_rule(r.payload) for r in rows
                       if r.kind in ("Refused", "ActionRefused")).items())
    )  # fmt: skip
    result.device_faults = dict(
        sorted(Counter(r.payload.get("fault", "?") for r in rows
                       if r.kind == "DeviceFault").items())
    )  # fmt: skip
    result.holds_cleared = kinds["HoldCleared"]
    result.foreign_cards_dealt = seen.foreign_dealt
    result.shoe_reports_with_extra = sum(1 for r in rows if _shoe_report_extra(r.payload))
    result.recoveries = len(seen.restart_times)
    if seen.restart_times:
        result.recovery_median_s = round(statistics.median(seen.restart_times), 3)
        result.recovery_max_s = round(max(seen.restart_times), 3)
    result.cable_recoveries = len(seen.cable_times)
    if seen.cable_times:
        result.cable_recovery_median_s = round(statistics.median(seen.cable_times), 3)
        result.cable_recovery_max_s = round(max(seen.cable_times), 3)
    result.unaccounted = _unaccounted(game, seen, result, kinds, rows)
    return result


def unbalanced(game: SoakGame, payload: dict[str, Any]) -> str | None:
    """Why a round-end row does not balance (None: it does). The spec's settlement figures
    give the drop and the house's win; the profile reads what was paid back; a void round
    is checked by the same fields (its wagers must all come back)."""
    try:
        drop_win = game.figures({**payload, "void": False})
        paid = game.profile.paid_out(payload)
    except (KeyError, TypeError, ValueError) as exc:
        return f"round-end row {payload}: {exc}"
    if drop_win is None:
        return f"round-end row {payload}: no settlement figures"
    drop, win = drop_win
    if drop != paid + win:
        log.warning("unbalanced: %s in, %s paid out, house %s: %s", drop, paid, win, payload)
        return f"{drop} in but {paid} paid out and {win} to the house"
    return None


def _shoe_report_extra(payload: dict[str, Any]) -> bool:
    """A shoe-end audit (`controller.shoe_audit.ShoeReport`: the row itself, or a game's
    row that carries it as ``report``) naming cards beyond the shoe's composition."""
    inner = payload.get("report")
    audit = inner if isinstance(inner, dict) else payload
    return "unseen" in audit and bool(audit.get("extra"))


def _count_by_tag(result: SoakResult, rows: list[Any], slid: Counter[str]) -> None:
    """RFID: every card slid past the reader journaled once with its tag (lost: slid out,
    not journaled; duplicated: journaled more often than presented)."""
    journaled = Counter(
        r.payload.get("tag") for r in rows if r.kind == "CardDrawn" and r.source == "shoe"
    )
    result.shoe_messages_sent = slid.total()
    result.events_lost = sum((slid - journaled).values())
    for tag in slid - journaled:
        log.warning("lost: the card of tag %s slid out but was never journaled", tag)
    result.events_duplicated = sum((journaled - slid).values())


def _unaccounted(game: SoakGame, seen: Observed, result: SoakResult, kinds: Counter[str],
                 rows: list[Any]) -> list[str]:  # fmt: skip
    """Each injected fault must be absorbed (nothing lost or doubled) or reported."""
    faults = seen.faults
    problems = []
    if seen.slid is not None:
        problems += _reader_unaccounted(faults, result, kinds, rows)
    elif faults["unknown_tag"] > result.device_faults.get("bad-card", 0):
        problems.append(
            f"{faults['unknown_tag']} unknown tags but "
            f"{result.device_faults.get('bad-card', 0)} bad-card faults journaled"
        )
    held_cards = sum(1 for r in rows if r.kind == "Violation" and r.payload.get("card"))
    if faults["out_of_order_card"] > held_cards:
        problems.append(
            f"{faults['out_of_order_card']} cards out of order but {held_cards} "
            "violations citing a card journaled"
        )
    rule = game.profile.foreign_card_rule
    if result.violations.get(rule, 0) < seen.foreign_dealt:
        problems.append(
            f"{seen.foreign_dealt} shoes dealt an extra As but "
            f"{result.violations.get(rule, 0)} {rule} violations journaled"
        )
    if faults["sigkill"] != kinds["TableStarted"] - 1:
        problems.append(
            f"{faults['sigkill']} SIGKILLs but {kinds['TableStarted']} TableStarted rows"
        )
    if seen.empty_shoes:
        problems.append(f"the shoe ran empty {seen.empty_shoes} times (no shuffle due)")
    if seen.stalls:
        problems.append(f"{seen.stalls} times a round lasted over {STALL_SECONDS:.0f} s")
    if seen.stuck:
        problems.append("the table did not finish its last round within two minutes")
    if faults["cable_not_recovered_30s"]:
        problems.append(f"{faults['cable_not_recovered_30s']} cable pulls not recovered")
    return problems


def _reader_unaccounted(faults: Counter[str], result: SoakResult, kinds: Counter[str],
                        rows: list[Any]) -> list[str]:  # fmt: skip
    """RFID: every reader fault is a named row (a fault, a loss, a violation)."""
    problems = []
    named = result.device_faults
    pairs = [
        ("unknown_tag", named.get("unknown-tag", 0), "unknown-tag faults"),
        ("cable_pulled", kinds["DeviceLost"], "DeviceLost rows"),
        ("reader_noise", named.get("bad-checksum", 0), "bad-checksum faults"),
    ]
    for fault, count, what in pairs:
        if faults[fault] > count:
            problems.append(f"{faults[fault]} {fault} but {count} {what} journaled")
    again = _violations_saying(rows, "already read since the shuffle")
    if faults["tag_read_again"] > again:
        problems.append(f"{faults['tag_read_again']} tags read again but {again} violations")
    unseen = _violations_saying(rows, "cards may have left the shoe unseen")
    if faults["reader_pulled_gate_open"] > unseen:
        problems.append(
            f"{faults['reader_pulled_gate_open']} readers pulled with the gate open but "
            f"{unseen} holds saying cards may have passed unseen"
        )
    return problems


def _violations_saying(rows: list[Any], words: str) -> int:
    return sum(1 for r in rows if r.kind == "Violation" and words in r.payload.get("message", ""))


def _refusal_rule(payload: dict[str, Any]) -> str:
    rule = payload.get("rule")
    return str(rule) if rule else "?"


def _nth(n: int) -> str:
    """7 -> "7th", 2 -> "2nd": which copy of the ace of spades the doctored shoe adds."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def report(result: SoakResult) -> str:
    """The soak's figures, as text."""
    game = "" if result.game == DEFAULT else f" ({result.game})"
    lines = [
        f"soak{game}: {result.seconds:.0f} s, seed {result.seed}, {result.steps} dealer steps",
        f"rounds played:          {result.rounds_played}",
        "faults injected:        " + ", ".join(f"{k} {v}" for k, v in result.faults.items()),
        "violations by rule:     "
        + (", ".join(f"{k}: {v}" for k, v in result.violations.items()) or "none"),
        "refusals by rule:       "
        + (", ".join(f"{k}: {v}" for k, v in result.refusals.items()) or "none"),
        "device faults:          "
        + (", ".join(f"{k}: {v}" for k, v in result.device_faults.items()) or "none"),
        f"holds cleared:          {result.holds_cleared}",
        f"events journaled:       {result.events_journaled} "
        f"({result.rows_journaled} rows with records; chain verified)",
        f"events lost:            {result.events_lost} "
        f"(of {result.shoe_messages_sent} shoe messages)",
        f"events duplicated:      {result.events_duplicated}",
        f"rounds unbalanced:      {result.rounds_unbalanced} "
        f"(ControllerFault rows: {result.controller_faults})",
        f"recoveries (SIGKILL):   {result.recoveries}, "
        f"median {result.recovery_median_s:.2f} s, max {result.recovery_max_s:.2f} s",
        f"cable pulls recovered:  {result.cable_recoveries}, "
        f"median {result.cable_recovery_median_s:.2f} s, max {result.cable_recovery_max_s:.2f} s",
        f"foreign cards dealt:     {result.foreign_cards_dealt} (a {_nth(result.decks + 1)} As; "
        f"shoe-end reports with extra cards: {result.shoe_reports_with_extra})",
        "unaccounted faults:     " + ("; ".join(result.unaccounted) or "none"),
        "RESULT: " + ("PASS" if result.ok else "FAIL"),
    ]
    return "\n".join(lines)
