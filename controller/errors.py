"""Errors of the rules layer. The root `TableError` is shared by every package."""

from __future__ import annotations

from firmware_bridge.errors import TableError

__all__ = ["BalanceError", "ConfigError", "IllegalAction", "RuleError", "TableError"]


class RuleError(TableError):
    """Base of the errors raised by the game rules."""


class IllegalAction(RuleError, ValueError):
    """An action the rules forbid at this moment. `rule` names the Gazette clause."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"rule {rule}: {message}")
        self.rule = rule
        self.reason = message


class BalanceError(RuleError, ArithmeticError):
    """Chips in do not equal chips out plus the house result: a payout or pot is wrong."""


class ConfigError(TableError, ValueError):
    """A table configuration or data file is wrong. The message names the key and line."""
