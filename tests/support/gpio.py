"""GPIO for the drivers' tests: this machine as one without the Pi's GPIO."""

from __future__ import annotations

import sys

import pytest


def no_pi_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine as one without the Pi's GPIO, even on a Pi: gpiozero's lgpio back-end
    cannot be imported (a None in sys.modules makes the import raise ImportError)."""
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)
