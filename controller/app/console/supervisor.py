"""Who is at the console: staff PINs, stored only as salted scrypt hashes, checked on the
server, with a growing delay after repeated wrong PINs.

Each person who may sign in to deal or take a supervisor's decision (clear a HOLD keeping
the card, void the hand: rules 9.6 and 11.4(e) leave these to a supervisor, never the
dealer) is a ``[[staff]]`` entry of the table config with their own ``pin_hash``.
`identify` checks a staff id and PIN for a role and returns the `StaffMember` from the
config: the journal names that member, never a name typed by the client. The page never
holds a PIN or a hash; it sends what was typed over the authenticated console connection
and the server checks it here.

The hash format is ``scrypt$<log2 n>$<r>$<p>$<salt, base64>$<key, base64>``: the parameters
travel with the hash, so a casino can raise the cost later without breaking old configs.
`tablectl pin-hash` (`controller.app.cli.pin_hash`) prints one for a ``[[staff]]`` entry.

`PinGate` counts wrong PINs per console (only the authenticated console can try a PIN at
all, so nobody else can lock the supervisor out): ``lockout_tries`` wrong PINs in a row
are free, then each further one makes that console wait ``lockout_first_seconds``,
doubling with each wrong PIN, at most ``lockout_seconds``; a right PIN resets the count.
Every refusal is journaled by the status server (`SupervisorPinRefused`, `SignInRefused`)
with the count and the wait it began, so a restart restores both from the journal
(`PinGate.restore`, from the table loop's replay): stopping the table does not lift a
lockout (docs/security.md).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import threading
import time
from collections.abc import Callable, Iterable

from controller.app.config import StaffMember, SupervisorConfig, TableConfig
from controller.app.pin_hashes import check_pin, hash_pin, parse_hash
from controller.errors import ConfigError, TableError

__all__ = [
    "DEMO_PINS",
    "IdentityRefused",
    "PinGate",
    "PinVerdict",
    "StaffMember",
    "check_pin",
    "hash_pin",
    "identify",
    "on_demo_pins",
    "parse_hash",
]

log = logging.getLogger(__name__)


DEMO_PINS = ("1357", "2468")  # examples/*-table.toml's staff d01 and s01: the README prints them


def on_demo_pins(staff: Iterable[StaffMember], stop: threading.Event | None = None) -> list[str]:
    """The ids of the staff whose PIN is one of the shipped `DEMO_PINS`: anyone who has
    read the README can sign in as them. One scrypt check per member and demo PIN (a
    second or more for a long staff list): run it off the start's path. A set ``stop``
    ends it after the check in hand (what it found by then is returned)."""
    found: list[str] = []
    for member in staff:
        for pin in DEMO_PINS:
            if stop is not None and stop.is_set():
                return found
            if check_pin(pin, member.pin_hash):
                found.append(member.id)
                break
    return found


class IdentityRefused(TableError, PermissionError):
    """A staff id and PIN that do not identify a member of staff in that role."""


@functools.cache
def _dummy_hash() -> str:
    """Checked when the staff id is unknown, so an unknown id costs what a wrong PIN costs."""
    return hash_pin("0000", salt=b"tablectl-no-such-staff")


def identify(
    config_or_staff: TableConfig | Iterable[StaffMember], staff_id: str, pin: str, role: str
) -> StaffMember:
    """The member of staff whose ``staff_id`` and ``pin`` these are, if they may act as
    ``role``: ``"dealer"`` (anyone on the staff list: a supervisor may deal) or
    ``"supervisor"``. `IdentityRefused` otherwise, saying no more than "wrong staff id or
    PIN" (which of the two is not told). The scrypt check costs the same either way."""
    if role not in ("dealer", "supervisor"):
        raise ValueError(f"no role {role!r}")
    staff = config_or_staff.staff if isinstance(config_or_staff, TableConfig) else config_or_staff
    member = next((m for m in staff if m.id == staff_id), None)
    ok = check_pin(pin, member.pin_hash if member is not None else _dummy_hash())
    if member is None or not ok or not pin:
        raise IdentityRefused("wrong staff id or PIN")
    if role == "supervisor" and member.role != "supervisor":
        raise IdentityRefused(f"{member.id} is not a supervisor")
    return member


@dataclasses.dataclass(frozen=True, slots=True)
class PinVerdict:
    """The answer to one attempt: the member identified, or why not, and how the count
    stands at that console."""

    member: StaffMember | None
    error: str = ""
    failures: int = 0  # wrong PINs in a row at this console, this one included
    tries_left: int = 0  # wrong PINs still free of a delay
    locked_for: float = 0.0  # seconds until a PIN is looked at again at this console

    @property
    def accepted(self) -> bool:
        return self.member is not None


@dataclasses.dataclass(slots=True)
class _Count:
    failures: int = 0
    until: float = 0.0


class PinGate:
    """Checks staff PINs and keeps each console's wrong-PIN count and delay.

    Thread-safe (the status server checks from its executor). ``clock`` is injected
    (monotonic seconds) so the delays are tested without waiting.
    """

    def __init__(
        self,
        staff: Iterable[StaffMember],
        config: SupervisorConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.staff = tuple(staff)
        for member in self.staff:
            parse_hash(member.pin_hash)  # fail at start, not at the first HOLD
        self.config = config if config is not None else SupervisorConfig()
        if min(self.config.lockout_tries, self.config.lockout_seconds) < 1:
            raise ConfigError("[supervisor] lockout_tries and lockout_seconds must be >= 1")
        self.clock = clock
        self.total_failures = 0
        self._counts: dict[str, _Count] = {}
        self._lock = threading.Lock()

    def delay_after(self, failures: int) -> float:
        """How long a console waits after ``failures`` wrong PINs in a row."""
        c = self.config
        if failures < c.lockout_tries:
            return 0.0
        return float(
            min(c.lockout_first_seconds * 2 ** (failures - c.lockout_tries), c.lockout_seconds)
        )

    def attempt(self, console: str, staff_id: str, pin: str, role: str) -> PinVerdict:
        """One PIN at ``console``: the member identified, a wrong PIN (counted), or a
        refusal during that console's delay (not looked at, not counted)."""
        if not any(m.role == role or role == "dealer" for m in self.staff):
            return PinVerdict(None, f"no {role} is configured ([[staff]] in the table config)")
        with self._lock:
            count = self._counts.setdefault(console, _Count())
            left = count.until - self.clock()
            if left > 0:
                return PinVerdict(
                    None,
                    f"{count.failures} wrong PINs: try again in {int(left + 0.999)} s",
                    count.failures,
                    0,
                    left,
                )
        try:
            member = identify(self.staff, staff_id, pin, role)  # slow: outside the lock
        except IdentityRefused as exc:
            with self._lock:
                count.failures += 1
                self.total_failures += 1
                delay = self.delay_after(count.failures)
                count.until = self.clock() + delay
                tries_left = max(0, self.config.lockout_tries - count.failures)
            log.warning("wrong PIN at the %s (%d in a row)", console, count.failures)
            if delay:
                return PinVerdict(None, f"{exc}: wait {int(delay)} s", count.failures, 0, delay)
            return PinVerdict(None, f"{exc} ({tries_left} tries left)", count.failures, tries_left)
        with self._lock:
            count.failures, count.until = 0, 0.0
        return PinVerdict(member)

    def restore(self, console: str, failures: int, locked_for: float) -> None:
        """The count and the wait left at ``console`` as the journal had them when the
        table stopped: a restart goes on where the count stood."""
        with self._lock:
            count = self._counts.setdefault(console, _Count())
            count.failures = failures
            count.until = self.clock() + max(0.0, locked_for)
        if failures:
            log.warning(
                "the console's wrong-PIN count comes back from the journal: %d in a row, "
                "%d s still to wait",
                failures,
                int(max(0.0, locked_for) + 0.999),
            )

    def failures(self, console: str) -> int:
        with self._lock:
            count = self._counts.get(console)
            return 0 if count is None else count.failures

    def status(self, console: str) -> dict[str, object]:
        """For the page: whether anyone can sign in or supervise, and this console's count
        and delay."""
        with self._lock:
            count = self._counts.get(console, _Count())
            left = max(0.0, count.until - self.clock())
            return {
                "dealers": any(True for _ in self.staff),
                "supervisors": any(m.role == "supervisor" for m in self.staff),
                "failures": count.failures,
                "locked_for": round(left, 1),
            }
