"""``tablectl pit --staff FILE``: who may sign in to the floor view, and as what.

A TOML file of its own, apart from the floor plan: it holds PIN hashes, and a short PIN's
scrypt hash falls to an offline search, so it is readable by the pit's service only
(0640 or tighter), while the floor plan is not secret. Each person is a ``[[staff]]``
entry as at the table (``id``, ``name``, ``role``, ``pin_hash`` from `tablectl pin-hash`),
with a pit role:

- ``pit_manager``: acknowledges alarms and starts a shift;
- ``surveillance``: signs in and reads; every write is refused (403).

``[lockout]`` (optional) is the wrong-PIN delay, with the keys and defaults of the table's
``[supervisor]`` section (docs/security.md, "Wrong PINs and the lockout").
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

from controller.app.config import STAFF_ID, StaffMember, SupervisorConfig
from controller.app.config.checker import Checker
from controller.app.config.staff import STAFF_SCHEMA, SUPERVISOR_SCHEMA
from controller.app.pin_hashes import parse_hash
from controller.errors import ConfigError

__all__ = ["PIT_MANAGER", "PIT_ROLES", "SURVEILLANCE", "PitStaff", "load_pit_staff"]

PIT_MANAGER = "pit_manager"
SURVEILLANCE = "surveillance"
PIT_ROLES = (PIT_MANAGER, SURVEILLANCE)


@dataclasses.dataclass(frozen=True)
class PitStaff:
    """The people who may sign in to the floor view, and the wrong-PIN delay."""

    members: tuple[StaffMember, ...] = ()
    lockout: SupervisorConfig = dataclasses.field(default_factory=SupervisorConfig)


def load_pit_staff(path: Path) -> PitStaff:
    """The staff file, checked whole: a mistake is one line naming the file, the line and
    the key; the view does not start on a file it cannot trust."""
    try:
        text = path.read_bytes().decode("utf-8")
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--staff {path}: {exc}") from exc
    check = Checker(text, str(path))
    unknown = set(doc) - {"staff", "lockout"}
    if unknown:
        raise check.error(
            f"unknown section(s) {', '.join(sorted(unknown))} (known: staff, lockout)"
        )
    lockout = SupervisorConfig()
    if "lockout" in doc:
        if not isinstance(doc["lockout"], dict):
            raise check.error("must be a [section]", "lockout")
        lockout = SupervisorConfig(**check.entries(doc["lockout"], "lockout", SUPERVISOR_SCHEMA))
        for key in SUPERVISOR_SCHEMA:
            if getattr(lockout, key) < 1:
                raise check.error("must be at least 1", "lockout", key)
    given = doc.get("staff", [])
    if not isinstance(given, list) or not all(isinstance(e, dict) for e in given):
        raise check.error("must be [[staff]] entries (an array of tables)", "staff")
    members: list[StaffMember] = []
    for index, entry in enumerate(given):

        def error(message: str, key: str, index: int = index) -> ConfigError:
            return check.entry_error(message, "staff", index, key)

        for key in entry:
            if key not in STAFF_SCHEMA:
                raise error(f"unknown key (known: {', '.join(STAFF_SCHEMA)})", key)
        for key in STAFF_SCHEMA:
            if not isinstance(entry.get(key), str):
                raise error("is missing, or is not text", key)
        member = StaffMember(**entry)
        if not STAFF_ID.fullmatch(member.id):
            raise error(f"{member.id!r}: letters, digits, '.', '-' and '_' only, 1 to 32", "id")
        if any(m.id == member.id for m in members):
            raise error(f"{member.id!r} is listed twice", "id")
        if member.role not in PIT_ROLES:
            raise error(f"must be one of {', '.join(PIT_ROLES)}, not {member.role!r}", "role")
        if not member.name.strip() or len(member.name) > 64 or not member.name.isprintable():
            raise error("must be a printable name of 1 to 64 characters", "name")
        try:
            parse_hash(member.pin_hash)
        except ConfigError as exc:
            raise error(f"{exc} (make one with tablectl pin-hash)", "pin_hash") from None
        members.append(member)
    return PitStaff(tuple(members), lockout)
