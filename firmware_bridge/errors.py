"""The project's root error, and the wire protocol's own.

`TableError` is the root of every error this project raises on purpose. It lives here, on
the ground floor, because `firmware_bridge` may import nothing outside the standard
library, and its `BridgeError` must still be a `TableError`. Every other package imports
it from here (`controller.errors` re-exports it).
"""

from __future__ import annotations


class TableError(Exception):
    """Root of every error raised on purpose by the table controller."""


class BridgeError(TableError, ValueError):
    """A wire-protocol value cannot be encoded or decoded."""
