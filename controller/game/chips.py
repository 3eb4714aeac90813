"""Settlement checked by the chips: a kernel part every game uses.

A game knows, to the chip, what each spot is owed once its result is in; a dealer still
pays and collects by hand. This part closes the loop with what the layout senses:

- each spot's expected end state (`SpotExpected`): what the player's own chips left on it
  come to (``base``: a stake that stands, or comes back) and the winnings the dealer adds
  (``owed``); a losing spot is expected empty (collected). Where the casino hands the
  winnings over instead of stacking them on the spot (`WinningsPaid.HANDED_OVER`), only
  the stake is checked. The game says what each spot expects (blackjack:
  controller/blackjack/spots.py; baccarat and the poker pot the same way);
- with chip readers (`Sensing.CHIP_READERS`), every reading the dealer makes a spot give
  after the result is compared at once: a spot that reads right is settled (a player may
  then pick the chips up), one that reads wrong is a `PayoutMismatch` (over, under, or an
  uncollected losing wager), shown on the box; a spot nobody touched is judged when the
  dealer asks for the next round;
- with presence sensors only (`Sensing.PRESENCE`), the amounts cannot be read: a losing
  spot that still senses chips when the dealer asks for the next round is an uncollected
  losing wager;
- while a mismatch is open the next round is refused citing the settlement rule (blackjack
  4.1), until the spot reads right (`MismatchCorrected`) or a supervisor, named, accepts
  the difference with a reason (`MismatchAccepted`).

Chip identity: a reader that reports each chip's ID and the value the chip carries
(CHIP_IDS, docs/protocol.md) is checked against the casino's chip inventory
(`ChipInventory`); an unknown ID, or a value that is not the one listed for that ID, is a
`ChipAlarm` (possible counterfeit), journaled and sent to the pit.

Money is whole chip units (docs/architecture.md). Pure and sans-I/O: the app reads the inventory
file, this part parses its text. Who did it: the journal names the dealer signed in as the
actor of every row (controller/app/runtime/loop.py), so the records here carry no dealer field;
an acceptance names the supervisor (``who``).
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum

from controller.errors import ConfigError, IllegalAction

__all__ = [
    "CHIP_RULE",
    "ChipAlarm",
    "ChipInventory",
    "MismatchAccepted",
    "MismatchCorrected",
    "MismatchKind",
    "PayoutMismatch",
    "Sensing",
    "SettlementCheck",
    "SpotExpected",
    "WinningsPaid",
    "check_chips",
    "money",
]

CHIP_RULE = "chip inventory"  # not a Gazette clause: the casino's own chip inventory


class MismatchKind(StrEnum):
    OVER = "over"  # the spot holds more than it is owed
    UNDER = "under"  # less than it is owed (a stand-off or a win short-paid)
    UNCOLLECTED = "uncollected"  # a losing wager still on the spot


class Sensing(StrEnum):
    """What the spots can tell: each spot's value, or only whether chips are on it."""

    CHIP_READERS = "chip_readers"
    PRESENCE = "presence"


class WinningsPaid(StrEnum):
    """The casino's practice for a winner: winnings stacked on the spot beside the stake
    (checked by the reader), or handed over to the player (only the stake is checked)."""

    ON_SPOT = "on_spot"
    HANDED_OVER = "handed_over"


@dataclasses.dataclass(frozen=True, slots=True)
class SpotExpected:
    """One spot's end state after the result: ``base`` the player's own chips that stay
    (a stake that stands or comes back; 0 for a loser), ``owed`` the winnings the dealer
    adds on the spot. ``label`` names it for the dealer ("Box 2", "Box 2 insurance")."""

    spot: str
    box: int
    base: int
    owed: int
    label: str

    @property
    def end(self) -> int:
        """What the spot should read once paid and collected."""
        return self.base + self.owed


@dataclasses.dataclass(frozen=True, slots=True)
class PayoutMismatch:
    """A spot reads other than it should after the result (settlement, rule 4.1 for
    blackjack). ``owed``: the winnings due on it; ``paid``: what the dealer added to the
    player's own chips (negative when chips of a stake that stands were taken); for an
    uncollected losing wager, ``paid`` is what is still on the spot. ``text`` is what the
    box shows, its amounts written as the page writes money (`money`): "Box 2: paid $25,
    owed $20: $5 over (rule 4.1)"."""

    box: int
    spot: str
    kind: MismatchKind
    owed: int
    paid: int
    reads: int
    rule: str
    text: str

    @property
    def difference(self) -> int:
        """The amount in question, always positive."""
        return abs(self.paid - self.owed)


@dataclasses.dataclass(frozen=True, slots=True)
class MismatchCorrected:
    """The dealer put it right: the spot now reads what it should."""

    box: int
    spot: str
    kind: MismatchKind
    owed: int
    paid: int
    reads: int


@dataclasses.dataclass(frozen=True, slots=True)
class MismatchAccepted:
    """A supervisor, named, accepted the difference, and said why; the round may end."""

    box: int
    spot: str
    kind: MismatchKind
    owed: int
    paid: int
    who: str
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class ChipAlarm:
    """A chip the inventory does not know, or whose value is not the one listed for its
    ID: a possible counterfeit. ``listed``: the inventory's value (None: unknown ID)."""

    spot: str
    chip_id: str
    value: int
    listed: int | None
    reason: str
    rule: str = CHIP_RULE


# --- the chip inventory ----------------------------------------------------------------------


class ChipInventory:
    """The casino's chips: ID -> value in chip units. Parsed from CSV text with a header
    ``chip_id,value`` (one chip a line; ``#`` starts a comment line)."""

    __slots__ = ("values",)

    def __init__(self, values: Mapping[str, int]) -> None:
        self.values = dict(values)

    def __len__(self) -> int:
        return len(self.values)

    @classmethod
    def parse(cls, text: str, source: str = "the chip inventory") -> ChipInventory:
        """The inventory in ``text``; `ConfigError` naming the line of the first problem
        (a missing header, an empty ID, a value that is not a positive whole number, an
        ID listed twice)."""
        lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
        rows = csv.reader(io.StringIO("\n".join(lines)))
        header = next(rows, None)
        if header is None or [h.strip() for h in header] != ["chip_id", "value"]:
            raise ConfigError(f"{source}: the first line must be the header 'chip_id,value'")
        values: dict[str, int] = {}
        for number, row in enumerate(rows, start=2):
            if not row or not "".join(row).strip():
                continue
            if len(row) != 2:
                raise ConfigError(f"{source} line {number}: two fields, chip_id and value")
            chip_id, value_text = row[0].strip(), row[1].strip()
            if not chip_id:
                raise ConfigError(f"{source} line {number}: an empty chip_id")
            if not value_text.isdigit() or int(value_text) <= 0:
                raise ConfigError(
                    f"{source} line {number}: value {value_text!r} is not a whole number of "
                    "chip units above 0"
                )
            if chip_id in values:
                raise ConfigError(f"{source} line {number}: chip {chip_id} is listed twice")
            values[chip_id] = int(value_text)
        return cls(values)


def check_chips(
    inventory: ChipInventory | None, spot: str, chips: Sequence[tuple[str, int]]
) -> list[ChipAlarm]:
    """The alarms for the chips a reader reported on ``spot`` (each its ID and the value
    the chip carries). Without an inventory nothing can be checked: no alarms."""
    if inventory is None:
        return []
    alarms = []
    for chip_id, value in chips:
        listed = inventory.values.get(chip_id)
        if listed is None:
            reason = f"chip {chip_id} ({money(value)}) on {spot} is not in the chip inventory"
        elif listed != value:
            reason = (
                f"chip {chip_id} on {spot} carries {money(value)}, "
                f"the inventory lists {money(listed)}"
            )
        else:
            continue
        alarms.append(ChipAlarm(spot, chip_id, value, listed, f"{reason}: possible counterfeit"))
    return alarms


# --- the settlement check ------------------------------------------------------------------


def money(units: int) -> str:
    """Chip units as the status page writes money ("$1,250"; faces.js ``money``: a dollar
    sign and en-NZ thousands), so a mismatch's words on the box, the NEXT line and the
    refusal read like the box's own PAY and TAKE lines beside them."""
    sign = "-" if units < 0 else ""
    return f"{sign}${abs(units):,}"


def _mismatch(expected: SpotExpected, reads: int, rule: str) -> PayoutMismatch | None:
    """What is wrong with ``reads`` on a spot expecting ``expected``, or None."""
    if reads == expected.end:
        return None
    label = expected.label
    cited = f"(rule {rule})" if rule[:1].isdigit() else f"({rule})"
    if expected.end == 0:
        return PayoutMismatch(
            expected.box, expected.spot, MismatchKind.UNCOLLECTED, 0, reads, reads, rule,
            f"{label}: losing wager not collected: {money(reads)} still on the spot {cited}",
        )  # fmt: skip
    paid = reads - expected.base
    kind = MismatchKind.OVER if reads > expected.end else MismatchKind.UNDER
    diff = abs(reads - expected.end)
    owed, off = money(expected.owed), f"{money(diff)} {kind} {cited}"
    if paid < 0:
        text = f"{label}: {money(-paid)} of the stake taken, owed {owed}: {off}"
    else:
        text = f"{label}: paid {money(paid)}, owed {owed}: {off}"
    return PayoutMismatch(expected.box, expected.spot, kind, expected.owed, paid, reads, rule, text)


class SettlementCheck:
    """The spots of one result, what they read, and the mismatches open on them.

    ``sensing`` None: the table cannot check (no sensors, or the check is off).
    ``rule``: the game's settlement clause, cited on every mismatch and refusal."""

    __slots__ = (
        "accepted",
        "expected",
        "open",
        "readings",
        "rule",
        "sensing",
        "settled",
    )

    def __init__(self, sensing: Sensing | None, rule: str) -> None:
        self.sensing = sensing
        self.rule = rule
        self.expected: dict[str, SpotExpected] = {}
        self.readings: dict[str, int] = {}
        self.settled: set[str] = set()  # read right once: what happens after is the player's
        self.open: dict[str, PayoutMismatch] = {}
        self.accepted: dict[str, MismatchAccepted] = {}

    @property
    def active(self) -> bool:
        return bool(self.expected)

    def start(self, expected: Iterable[SpotExpected], readings: Mapping[str, int]) -> None:
        """The result is in: each spot's end state, and what the spots read now."""
        self.clear()
        if self.sensing is None:
            return
        self.expected = {e.spot: e for e in expected if e.spot in readings}
        self.readings = {spot: readings[spot] for spot in self.expected}

    def clear(self) -> None:
        """The round is over (or a new result replaces this one)."""
        self.expected.clear()
        self.readings.clear()
        self.settled.clear()
        self.open.clear()
        self.accepted.clear()

    def sensed(
        self, spot: str, occupied: bool, total: int | None
    ) -> list[PayoutMismatch | MismatchCorrected]:
        """A spot's sensor changed after the result; the records it makes. With chip
        readers the reading is judged at once; presence is judged at `check_all`, and a
        spot emptied corrects an uncollected wager."""
        expected = self.expected.get(spot)
        if expected is None or spot in self.accepted or spot in self.settled:
            return []
        open_ = self.open.get(spot)
        if self.sensing is Sensing.PRESENCE:
            if occupied:
                return []  # presence is judged when the next round is asked for
            self.readings[spot] = 0
            now = None
        else:
            if total is None and occupied:
                return []  # a bare presence edge: the reader's own report says how much
            reads = total if total is not None else 0
            self.readings[spot] = reads
            now = _mismatch(expected, reads, self.rule)
            if now is not None and open_ is not None and reads == 0:
                return []  # the player picked the chips up: the difference stands
        reads = self.readings[spot]
        if now is None:
            self.settled.add(spot)
            if open_ is None:
                return []
            del self.open[spot]
            return [
                MismatchCorrected(
                    expected.box, spot, open_.kind, expected.owed, reads - expected.base, reads
                )
            ]
        if open_ is not None and (open_.kind, open_.reads) == (now.kind, now.reads):
            return []
        self.open[spot] = now
        return [now]

    def check_all(self) -> list[PayoutMismatch]:
        """Judge every spot not yet judged (asked for the next round): an untouched spot
        reads what it held at the result; presence-only, a losing spot with chips on it."""
        found = []
        for spot, expected in self.expected.items():
            if spot in self.open or spot in self.accepted or spot in self.settled:
                continue
            reads = self.readings.get(spot, 0)
            if self.sensing is Sensing.PRESENCE and expected.end:
                continue  # presence cannot weigh a payout, only see a spot not emptied
            mismatch = _mismatch(expected, reads, self.rule)
            if mismatch is None:
                self.settled.add(spot)
                continue
            self.open[spot] = mismatch
            found.append(mismatch)
        return found

    def verify_next(self) -> None:
        """The next round may start only with no mismatch open: `IllegalAction` citing
        the settlement rule, naming each box and amount."""
        if self.open:
            texts = "; ".join(m.text for m in self.open.values())
            raise IllegalAction(
                self.rule,
                f"settlement does not match the chips: {texts}: correct the spot, or a "
                "supervisor accepts the difference with a reason",
            )

    def verify_accept(self, who: str, box: int, reason: str) -> list[PayoutMismatch]:
        """The open mismatches on ``box`` a supervisor may accept; `IllegalAction` if none,
        or if the supervisor is not named or gives no reason."""
        if not who.strip():
            raise IllegalAction(self.rule, "a supervisor accepting a payout must be named")
        if not reason.strip():
            raise IllegalAction(self.rule, "accepting a payout difference needs a reason")
        on_box = [m for m in self.open.values() if m.box == box]
        if not on_box:
            raise IllegalAction(self.rule, f"box {box} has no payout mismatch to accept")
        return on_box

    def accept(self, who: str, box: int, reason: str) -> list[MismatchAccepted]:
        """A supervisor accepts every open mismatch on ``box``: the records."""
        records = []
        for mismatch in self.verify_accept(who, box, reason):
            del self.open[mismatch.spot]
            record = MismatchAccepted(
                mismatch.box, mismatch.spot, mismatch.kind, mismatch.owed, mismatch.paid,
                who.strip(), reason.strip(),
            )  # fmt: skip
            self.accepted[mismatch.spot] = record
            records.append(record)
        return records

    def spots(self) -> list[dict[str, object]]:
        """Each checked spot as the display shows it: expected, read, and its state
        (``mismatch``, ``accepted``, ``ok``, or ``waiting`` for the dealer)."""
        shown: list[dict[str, object]] = []
        for spot, expected in self.expected.items():
            mismatch = self.open.get(spot)
            kind = "" if mismatch is None else mismatch.kind.value
            if mismatch is not None:
                state, text = "mismatch", mismatch.text
            elif spot in self.accepted:
                accepted = self.accepted[spot]
                state, text = "accepted", f"{expected.label}: accepted by {accepted.who}"
            elif spot in self.settled:
                state, text = "ok", ""
            else:
                state, text = "waiting", ""
            shown.append(
                {
                    "spot": spot,
                    "box": expected.box,
                    "end": expected.end,
                    "base": expected.base,
                    "owed": expected.owed,
                    "reads": self.readings.get(spot, 0),
                    "state": state,
                    "kind": kind,
                    "text": text,
                }
            )
        return shown
