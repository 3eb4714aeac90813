"""Records every game shares.

`ActionRefused`: a console, supervisor or physical input the rules refused; nothing
changed. The dealer sees the rule on the display, and the journal keeps it.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class ActionRefused:
    """An input the rules refused; the dealer sees the rule."""

    action: str
    rule: str
    reason: str
