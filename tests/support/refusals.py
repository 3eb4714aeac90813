"""A refusal read word for word (rule and reason): the reason is what the dealer reads on
the status display, so a changed or dropped reason is a fault the tests must see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.errors import IllegalAction


def refusal(action: Callable[[], Any]) -> tuple[str, str]:
    """The (rule, reason) of the `IllegalAction` ``action`` raises; fails if it does not
    (a `TypeError` or any other error is not a refusal and propagates)."""
    try:
        action()
    except IllegalAction as exc:
        return exc.rule, exc.reason
    raise AssertionError("the action was allowed; a refusal was expected")
