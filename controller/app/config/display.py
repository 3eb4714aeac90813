"""``[display]`` (optional): where the status page and its console listen.

``host`` and ``port`` of the status page and its console (loopback only, unless
``tls_cert_file`` and ``tls_key_file`` are set), ``console_secret_file`` (default
``console.secret`` beside the journal), and ``view_host``/``view_port``: an optional
second address serving only the read-only views (docs/security.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.app.config.checker import Checker, Schema, defaults

__all__ = ["LOOPBACK", "SCHEMA", "DisplayConfig", "check_display", "read_display"]

SCHEMA: Schema = {
    "host": (str, "127.0.0.1"),
    "port": (int, 8080),
    "console_secret_file": (str, ""),
    "view_host": (str, ""),
    "view_port": (int, 8081),
    "tls_cert_file": (str, ""),
    "tls_key_file": (str, ""),
}

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class DisplayConfig:
    """The checked ``[display]``; `TableConfig` carries its fields flat."""

    host: str
    port: int
    console_secret: Path | None  # None: console.secret beside the journal
    view_host: str
    view_port: int
    tls_cert_file: str
    tls_key_file: str


def read_display(check: Checker, doc: dict[str, Any]) -> dict[str, Any]:
    """The keys and their types (the section is optional: left out, all defaults)."""
    return check.section(doc, "display", SCHEMA) if "display" in doc else defaults(SCHEMA)


def check_display(check: Checker, display: dict[str, Any], base: Path | None) -> DisplayConfig:
    """The console (the write API) listens beyond loopback only when the config says so
    and only over TLS; the read-only views may go on a second address (docs/security.md)."""
    if bool(display["tls_cert_file"]) != bool(display["tls_key_file"]):
        key = "tls_key_file" if display["tls_cert_file"] else "tls_cert_file"
        raise check.error("TLS needs both tls_cert_file and tls_key_file", "display", key)
    if display["host"] not in LOOPBACK and not display["tls_cert_file"]:
        raise check.error(
            f"{display['host']!r} is beyond loopback: the console (which moves money) is "
            "served there only over TLS (set tls_cert_file and tls_key_file); for "
            "read-only views elsewhere use view_host and view_port",
            "display",
            "host",
        )
    for key in ("port", "view_port"):
        if not 0 <= display[key] <= 65535:
            raise check.error("must be a port number (0 to 65535)", "display", key)
    if display["view_host"] and display["view_port"] == display["port"]:
        raise check.error("must differ from [display] port", "display", "view_port")
    secret_path: Path | None = None
    if display["console_secret_file"]:
        secret_path = Path(display["console_secret_file"]).expanduser()
        if base is not None and not secret_path.is_absolute():
            secret_path = base / secret_path
    return DisplayConfig(
        host=display["host"],
        port=display["port"],
        console_secret=secret_path,
        view_host=display["view_host"],
        view_port=display["view_port"],
        tls_cert_file=display["tls_cert_file"],
        tls_key_file=display["tls_key_file"],
    )
