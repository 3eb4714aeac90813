"""`tablectl journal dealers PATH`: which dealer dealt which rounds (surveillance asks).

A dealer signs in at the console (`DealerSignedIn`) and out (`DealerSignedOut`, or the
next dealer's sign-in); every round with a row while they were on duty is theirs. Read
from the sign-in rows themselves, in journal order, so the answer does not depend on the
actor column of any other row. A round dealt across a change of dealers is listed for
both; rounds with nobody signed in are listed as such.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import TextIO

from controller.journal.store import Entry

NOBODY = "-"


@dataclasses.dataclass
class Duty:
    """One stretch on duty: from a sign-in to the sign-out (or the end of the journal)."""

    staff_id: str
    name: str
    since: str
    until: str = ""
    rounds: list[int] = dataclasses.field(default_factory=list)


def duties(entries: Iterable[Entry]) -> list[Duty]:
    """Every stretch on duty in journal order, with nobody's (``staff_id`` "-") between."""
    found: list[Duty] = []
    current: Duty | None = None
    for entry in entries:
        if entry.kind == "DealerSignedIn":
            if current is not None:
                current.until = entry.wall
            current = Duty(str(entry.payload["staff_id"]), str(entry.payload["name"]), entry.wall)
            found.append(current)
            continue
        if entry.kind == "DealerSignedOut":
            if current is not None and current.staff_id == entry.payload["staff_id"]:
                current.until = entry.wall
                current = None
            continue
        if entry.round is None:
            continue
        if current is None:
            current = Duty(NOBODY, "nobody signed in", entry.wall)
            found.append(current)
        if entry.round not in current.rounds:
            current.rounds.append(entry.round)
        if current.staff_id == NOBODY:
            current.until = entry.wall
    return [d for d in found if d.rounds or d.staff_id != NOBODY]


def spans(rounds: Iterable[int]) -> str:
    """``[1, 2, 3, 7]`` as ``1-3, 7``."""
    runs: list[list[int]] = []
    for number in sorted(set(rounds)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs) or "none"


def list_dealers(entries: Iterable[Entry], out: TextIO, *, as_json: bool = False) -> int:
    found = duties(entries)
    if as_json:
        print(json.dumps([dataclasses.asdict(d) for d in found], indent=2), file=out)
        return 0
    by_dealer: dict[str, list[Duty]] = {}
    for duty in found:
        by_dealer.setdefault(duty.staff_id, []).append(duty)
    for staff_id, stretches in by_dealer.items():
        rounds = sorted({r for d in stretches for r in d.rounds})
        name = stretches[-1].name
        count = f"{len(rounds)} round{'' if len(rounds) == 1 else 's'}"
        print(f"{staff_id} ({name}): {count}: {spans(rounds)}", file=out)
        for duty in stretches:
            until = duty.until or "still signed in"
            print(f"  {duty.since} .. {until}: rounds {spans(duty.rounds)}", file=out)
    if not found:
        print("no rounds and no dealer sign-ins in this journal", file=out)
    return 0
