"""The scripted dealer gives a doubled hand its one card, whoever pressed DOUBLE (the
soak presses console buttons at random moments: a hand doubled on 19 was stood on, the
table refused the stand, and the dealer pressed NEXT for ever)."""

from __future__ import annotations

import random
from typing import Any

from sim_hardware.dealer import BlackjackDealer


class Hands:
    senses_layout = False

    def __init__(self) -> None:
        self.done: list[str] = []

    def draw(self) -> str:
        self.done.append("draw")
        return "5h"

    def shuffle(self) -> None:
        self.done.append("shuffle")

    def press(self, button: str) -> None:
        self.done.append(button)

    def wager(self, box: int, on: bool) -> None:
        self.done.append(f"wager {box} {on}")

    def insurance(self, box: int, on: bool) -> None:
        self.done.append(f"insurance {box} {on}")

    def console(self, action: str, **args: Any) -> None:
        self.done.append(action)

    def supervisor(self, decision: str, reason: str) -> None:
        self.done.append(decision)


def test_a_doubled_two_card_hand_gets_its_card_not_a_stand() -> None:
    hand = {"cards": ["Ts", "9s"], "total": "19", "doubled": True, "acting": True}
    view = {"state": "boxes_acting", "boxes": [{"number": 3, "hands": [hand]}], "buttons": {}}
    hands = Hands()
    dealer = BlackjackDealer(hands, lambda: {"view": view}, random.Random(1))
    did = dealer.step()
    assert hands.done == ["draw"], did
    hand["doubled"] = False
    dealer.step()
    assert hands.done == ["draw", "next"]  # an undoubled 19 stands
