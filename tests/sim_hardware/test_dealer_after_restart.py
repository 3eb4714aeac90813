"""The scripted blackjack dealer after the table restarted mid-round: it reads from the
screen what it did before (a dealer script started anew remembers nothing). Rule 9.5:
losing insurance is collected before any further card, so a dealer who forgets the
insured boxes leaves the table waiting with its gate locked."""

from __future__ import annotations

import random
from typing import Any

from sim_hardware.dealer import BlackjackDealer


class Hands:
    senses_layout = True

    def __init__(self) -> None:
        self.insurance_off: list[int] = []

    def insurance(self, box: int, on: bool) -> None:
        if not on:
            self.insurance_off.append(box)


def test_rule_9_5_a_restarted_dealer_collects_the_insurance_the_screen_shows() -> None:
    view = {
        "state": "insurance_settlement",
        "boxes": [
            {"number": 1, "insurance": {"p1": 0}, "hands": []},
            {"number": 2, "insurance": {"p1": 1}, "hands": []},
        ],
    }
    state: dict[str, Any] = {"view": view}
    hands = Hands()
    dealer = BlackjackDealer(hands, lambda: state, random.Random(1), insurance_sensors=True)  # type: ignore[arg-type]
    dealer.step()
    assert hands.insurance_off == [2]
