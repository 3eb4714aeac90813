"""The checks a table passes before it opens anything: one list, run by `tablectl run`
(`RunningTable`) and by `tablectl config check`, so a config that checks ok starts.

`load_config` has already checked the file's shape (sections, keys, types, rules, pins);
these are the checks that need more than the file's own text: a supervisor PIN hash that
parses, an MQTT broker URL and topic names, the files the config names, the journal's
folder. Each one raises `ConfigError` naming the key and its line in the config.

Every check runs, and every mistake is reported, one line each. A folder the table writes
in that does not exist yet (the journal's, the console secret's) is `FolderMissing`: `run`
refuses to start without it, as for any mistake (a typo in the path would otherwise start
an empty journal elsewhere), and `tablectl config check` says it as the one step left on
this machine, with the command that makes it (`steps_left`).

Adding a check: write ``def check_x(config: TableConfig, at: Where) -> None`` that raises
``at.error("what is wrong", "section", "key")``, and append it to `CHECKS`. A check only
reads: it opens no device, binds no port, creates and writes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from controller.app.config import TableConfig
from controller.app.config.checker import Checker, mistakes_of, several
from controller.errors import ConfigError


class Where(Checker):
    """Points an error at the key's line in the config file (when the config came from a
    file that can still be read; otherwise at the file alone): the config's own shared
    checker, so a start-up check's error reads like the loader's."""

    def __init__(self, source: str) -> None:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeError):
            text = ""
        super().__init__(text, source)

    def missing_folder(self, folder: Path, *path: str) -> FolderMissing:
        error = self.error(f"the folder {folder} does not exist (create it first)", *path)
        return FolderMissing(str(error), folder, str(self.error("", *path)))


class FolderMissing(ConfigError):
    """A folder the table writes in does not exist yet: a step of setting the machine up
    (docs/install.md), not a mistake in the file."""

    def __init__(self, message: str, folder: Path, where: str) -> None:
        super().__init__(message)
        self.folder = folder
        self.where = where  # "file:line: journal.path: "

    @property
    def step(self) -> str:
        """The one line `config check` says: the folder, and the command that makes it for
        the service's user (docs/install.md), unless the path itself is the mistake."""
        return (
            f"{self.where}the folder {self.folder} does not exist yet: the one step left "
            f"before this table runs here is `sudo install -d -o tablectl -g tablectl -m 0750 "
            f"{self.folder}` (or correct the path, if that is not the table's folder)"
        )


Check = Callable[[TableConfig, Where], None]


def check_pin_hashes(config: TableConfig, at: Where) -> None:
    """Every ``[[staff]]`` PIN hash parses (the console refuses to start on one that does
    not): a PIN written where its hash belongs is the likely mistake."""
    from controller.app.console.supervisor import parse_hash

    for member in config.staff:
        try:
            parse_hash(member.pin_hash)
        except ConfigError as exc:
            raise at.error(
                f"{member.id}: {exc} (never the PIN itself)", "staff", "pin_hash"
            ) from None


def check_lockout(config: TableConfig, at: Where) -> None:
    if config.supervisor is None:
        return
    for key in ("lockout_tries", "lockout_seconds"):
        value = getattr(config.supervisor, key)
        if value < 1:
            raise at.error(f"must be 1 or more, not {value}", "supervisor", key)


def check_display(config: TableConfig, at: Where) -> None:
    if not 0 <= config.display_port <= 65535:
        raise at.error(f"{config.display_port} is not a TCP port (0 to 65535)", "display", "port")
    if not config.display_host.strip():
        raise at.error("must name an address, e.g. 127.0.0.1", "display", "host")


def check_journal_folder(config: TableConfig, at: Where) -> None:
    """The journal's folder must already exist: a typo in the path would otherwise start a
    new, empty journal somewhere else, and the table would lose its recovery."""
    folder = config.journal_path.parent
    if not folder.exists():
        raise at.missing_folder(folder, "journal", "path")
    if not folder.is_dir():
        raise at.error(f"the folder {folder} is not a folder (create it first)", "journal", "path")
    if config.journal_path.is_dir():
        raise at.error(f"{config.journal_path} is a folder, not a file", "journal", "path")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise at.error(f"the folder {folder} is not writable by this user", "journal", "path")


def check_journal_key(config: TableConfig, at: Where) -> None:
    """The journal's key: an existing journal needs its key (without it the
    journal cannot be checked, and is not used); a key that is there must be one only the
    service can read; a checkpoint without its journal means the journal was moved."""
    from controller.app.runtime.journal_files import KEY_WHAT, journal_key_path
    from controller.app.secrets import read_secret
    from controller.journal.store import checkpoint_path

    key = journal_key_path(config)
    where = ("journal", "key_file") if config.journal_key is not None else ("journal", "path")
    if key.exists():
        try:
            read_secret(key, KEY_WHAT)
        except ConfigError as exc:
            raise at.error(str(exc), *where) from None
    elif config.journal_path.exists():
        raise at.error(
            f"the key of the journal {config.journal_path} ({key}) is missing, so the journal "
            "cannot be checked and is not used (a new journal: tablectl journal reopen)",
            *where,
        )
    elif not key.parent.is_dir():
        raise at.missing_folder(key.parent, *where)
    marker = checkpoint_path(config.journal_path)
    if not config.journal_path.exists() and marker.exists():
        raise at.error(
            f"no journal at {config.journal_path}, but its checkpoint {marker.name} is there: "
            "the journal was moved or deleted (put it back, or tablectl journal reopen)",
            "journal",
            "path",
        )


def check_console_secret(config: TableConfig, at: Where) -> None:
    """The console's secret (docs/security.md): one that is there must be well formed and
    readable by nobody but the service and its group; a missing one is created by
    `tablectl run` (or `tablectl secrets`) in its folder, which must exist."""
    from controller.app.secrets import read_secret

    path = config.console_secret_file
    named = config.console_secret is not None
    where = ("display", "console_secret_file") if named else ("journal", "path")
    if path.exists():
        try:
            read_secret(path, "the console secret")
        except ConfigError as exc:
            raise at.error(str(exc), *where) from None
    elif not path.parent.is_dir():
        raise at.missing_folder(path.parent, *where)


def check_pit(config: TableConfig, at: Where) -> None:
    """The broker URL, the topic names, the keepalive (docs/mqtt.md)."""
    from controller.app.pit.publisher import parse_broker, topic_base

    pit = config.pit
    if pit is None:
        return
    try:
        parse_broker(pit.broker)
    except ConfigError as exc:
        raise at.error(str(exc).removeprefix("pit.broker: "), "pit", "broker") from None
    try:
        topic_base(pit.prefix, config.site, config.table_id)
    except ConfigError as exc:
        named = {"prefix": ("pit", "prefix"), "site": ("table", "site")}
        path = next((p for n, p in named.items() if str(exc).startswith(f"the {n} ")), None)
        raise at.error(str(exc), *(path or ("table", "id"))) from None
    if not 1 <= pit.keepalive <= 65535:
        raise at.error(f"must be 1 to 65535 seconds, not {pit.keepalive}", "pit", "keepalive")
    if pit.key_file and not pit.cert_file:
        raise at.error("a key_file needs its cert_file", "pit", "key_file")
    check_pit_keys(config, at)


def check_pit_keys(config: TableConfig, at: Where) -> None:
    """The pit's public key parses; the table's signing key, when there, is one only the
    service can read (a missing one is made by `tablectl run` or `tablectl secrets`)."""
    from controller.app.pit.signing import (
        TABLE_KEY_WHAT,
        parse_public,
        private_key,
        signing_key_path,
    )

    pit = config.pit
    if pit is None:
        return
    if pit.pit_public_key:
        try:
            parse_public(pit.pit_public_key, "pit_public_key")
        except ConfigError:
            raise at.error(
                "expected ed25519: and 64 hexadecimal digits (tablectl pit --public-key)",
                "pit",
                "pit_public_key",
            ) from None
    path = signing_key_path(config)
    where = ("pit", "signing_key_file") if pit.signing_key_file else ("journal", "path")
    if path.exists():
        try:
            private_key(path, TABLE_KEY_WHAT)
        except ConfigError as exc:
            raise at.error(str(exc), *where) from None
    elif not path.parent.is_dir():
        raise at.error(f"the signing key's folder {path.parent} does not exist", *where)


def check_files(config: TableConfig, at: Where) -> None:
    """Every file the config names is there and readable by this user."""
    named = []
    if config.pit is not None:
        named += [("pit", key, getattr(config.pit, key)) for key in ("ca_file", "cert_file")]
        named += [("pit", "key_file", config.pit.key_file)]
    named += [("display", key, getattr(config, key)) for key in ("tls_cert_file", "tls_key_file")]
    for section, key, value in named:
        if not value:
            continue
        path = Path(value).expanduser()
        if not path.is_file():
            what = "is not a file" if path.exists() else "does not exist"
            raise at.error(f"{path} {what}", section, key)
        if not os.access(path, os.R_OK):
            raise at.error(f"{path} is not readable by this user", section, key)


def check_shoe_decks(config: TableConfig, at: Where) -> None:
    """An RFID shoe's deck files: one complete enrolled deck per deck of the shoe, no tag in
    two (the same loading the table does when it opens the shoe). A simulated shoe
    (``sim://``) enrols its own decks."""
    if not config.shoe.rfid or config.shoe.simulated:
        return
    from controller.app.runtime.devices import load_shoe_decks
    from controller.app.runtime.games import game_spec

    try:
        load_shoe_decks(config.shoe.decks, game_spec(config).decks(config.rules))
    except ConfigError as exc:
        raise at.error(str(exc), "shoe", "decks") from None


CHECKS: list[Check] = [
    check_pin_hashes,
    check_lockout,
    check_display,
    check_journal_folder,
    check_journal_key,
    check_console_secret,
    check_pit,
    check_files,
    check_shoe_decks,
]


def findings(config: TableConfig) -> list[ConfigError]:
    """What every check finds, in `CHECKS` order; a missing folder named once."""
    at = Where(config.source)
    found: list[ConfigError] = []
    folders: set[Path] = set()
    for check in CHECKS:
        try:
            check(config, at)
        except FolderMissing as exc:
            if exc.folder not in folders:
                folders.add(exc.folder)
                found.append(exc)
        except ConfigError as exc:
            found += mistakes_of(exc)
    return found


def preflight(config: TableConfig) -> None:
    """Run every check; `ConfigError` names every mistake found, one line each."""
    found = findings(config)
    if found:
        raise several(found)


def steps_left(found: list[ConfigError]) -> tuple[list[ConfigError], list[FolderMissing]]:
    """``found`` split into the config's mistakes and the folders still to be made."""
    folders = [f for f in found if isinstance(f, FolderMissing)]
    return [f for f in found if not isinstance(f, FolderMissing)], folders
