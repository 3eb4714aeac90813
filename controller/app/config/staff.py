"""``[[staff]]`` (any number) and ``[supervisor]`` (optional): who may use the console.

Each ``[[staff]]`` entry has ``id``, ``name``, ``role`` (``"dealer"`` or
``"supervisor"``) and ``pin_hash`` (from `tablectl pin-hash`) of a person who may sign in
at the console or clear a HOLD; the journal names them by ``id``, so an id is unique.
``[supervisor]`` is the PIN lockout: ``lockout_tries`` wrong PINs in a row are free, then
each one more waits ``lockout_first_seconds``, doubling, at most ``lockout_seconds``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema
from controller.app.pin_hashes import parse_hash
from controller.errors import ConfigError

__all__ = [
    "ROLES",
    "STAFF_ID",
    "STAFF_SCHEMA",
    "SUPERVISOR_SCHEMA",
    "StaffMember",
    "SupervisorConfig",
    "parse_staff",
    "parse_supervisor",
]

STAFF_ID = re.compile(r"[A-Za-z0-9._-]{1,32}")
ROLES = ("dealer", "supervisor")

STAFF_SCHEMA: Schema = {
    "id": (str, REQUIRED),
    "name": (str, REQUIRED),
    "role": (str, REQUIRED),
    "pin_hash": (str, REQUIRED),
}
SUPERVISOR_SCHEMA: Schema = {
    "lockout_tries": (int, 5),
    "lockout_seconds": (int, 300),
    "lockout_first_seconds": (int, 5),
}


@dataclass(frozen=True)
class SupervisorConfig:
    """``[supervisor]``: the lockout after repeated wrong PINs at the console (dealer
    sign-in and supervisor PINs count together): ``lockout_tries`` wrong PINs in a row are
    free, then each further one makes the console wait ``lockout_first_seconds``, doubled
    each time, at most ``lockout_seconds``. The PINs themselves are in ``[[staff]]``."""

    lockout_tries: int = 5
    lockout_seconds: int = 300
    lockout_first_seconds: int = 5


@dataclass(frozen=True)
class StaffMember:
    """A ``[[staff]]`` entry: who may sign in at the console to deal (any role) or take a
    supervisor's decision (``role = "supervisor"``). The journal names them by ``id``."""

    id: str
    name: str
    role: str
    pin_hash: str = dataclasses.field(repr=False)


def parse_supervisor(check: Checker, doc: dict[str, Any]) -> SupervisorConfig | None:
    """The lockout, or None when the section is left out (the console's defaults)."""
    supervisor_doc = doc.get("supervisor")
    if isinstance(supervisor_doc, dict) and "pin_hash" in supervisor_doc:
        raise check.error(
            "the shared supervisor PIN is gone: give each supervisor a [[staff]] entry "
            'with role = "supervisor" and their own pin_hash (docs/security.md)',
            "supervisor",
            "pin_hash",
        )
    if "supervisor" not in doc:
        return None
    supervisor = SupervisorConfig(**check.section(doc, "supervisor", SUPERVISOR_SCHEMA))
    for key in SUPERVISOR_SCHEMA:
        if getattr(supervisor, key) < 1:
            raise check.error("must be at least 1", "supervisor", key)
    return supervisor


def parse_staff(
    check: Checker, doc: dict[str, Any], roles: tuple[str, ...] = ROLES
) -> tuple[StaffMember, ...]:
    """The ``[[staff]]`` entries: unique ids, one of ``roles`` (the table's, or the pit's
    in its staff file: `controller.app.floor.staff`), a well-formed PIN hash."""
    members: list[StaffMember] = []
    for index, entry in enumerate(check.array(doc, "staff", STAFF_SCHEMA)):

        def error(message: str, key: str, index: int = index) -> ConfigError:
            return check.entry_error(message, "staff", index, key)

        member = StaffMember(**entry)
        if not STAFF_ID.fullmatch(member.id):
            raise error(f"{member.id!r}: letters, digits, '.', '-' and '_' only, 1 to 32", "id")
        if any(m.id == member.id for m in members):
            raise error(f"{member.id!r} is listed twice", "id")
        if member.role not in roles:
            raise error(f"must be one of {', '.join(roles)}, not {member.role!r}", "role")
        if not member.name.strip() or len(member.name) > 64 or not member.name.isprintable():
            raise error("must be a printable name of 1 to 64 characters", "name")
        try:
            parse_hash(member.pin_hash)
        except ConfigError as exc:
            raise error(f"{exc} (make one with tablectl pin-hash)", "pin_hash") from None
        members.append(member)
    return tuple(members)
