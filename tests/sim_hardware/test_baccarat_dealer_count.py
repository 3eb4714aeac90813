"""The scripted baccarat dealer counts a coup once. A power cut that takes the NEXT press
with it leaves the table in the same coup's settlement after the restart; the dealer
presses NEXT again, and that is still one coup (the journal settled it once: CoupSettled is
journaled when the coup's last card is, before NEXT)."""

from __future__ import annotations

import random
from typing import Any

from sim_hardware.baccarat_dealer import BaccaratDealer


class Presses:
    senses_layout = False

    def __init__(self) -> None:
        self.pressed: list[str] = []

    def press(self, button: str) -> None:
        self.pressed.append(button)


def test_a_next_lost_to_a_power_cut_is_pressed_again_and_counted_once() -> None:
    state: dict[str, Any] = {"round": 7, "view": {"state": "settlement", "boxes": []}}
    hands = Presses()
    dealer = BaccaratDealer(hands, lambda: state, random.Random(1))  # type: ignore[arg-type]
    dealer.step()
    dealer.step()  # the table restarted in the same coup's settlement: NEXT again
    assert hands.pressed == ["next", "next"]
    assert dealer.rounds_finished == 1
    state["round"] = 8  # the next coup's settlement is a second coup
    dealer.step()
    assert dealer.rounds_finished == 2


class Console(Presses):
    def __init__(self) -> None:
        super().__init__()
        self.actions: list[tuple[str, dict[str, Any]]] = []

    def console(self, action: str, **args: Any) -> None:
        self.actions.append((action, args))


def test_commission_account_house_procedure_the_dealer_collects_before_the_shoe_ends() -> None:
    """At the shoe's last coup the scripted dealer collects every box the display names
    before it presses NEXT (the shoe cannot end with commission owed)."""
    shoe = {"last_coup": 7, "commission_before_end": [{"box": 2, "owed": 50, "to_collect": 1}]}
    view = {"state": "settlement", "coup": 7, "boxes": [], "shoe": shoe}
    state: dict[str, Any] = {"round": 7, "view": view}
    hands = Console()
    dealer = BaccaratDealer(hands, lambda: state, random.Random(1))  # type: ignore[arg-type]
    dealer.step()
    assert hands.actions == [("collect_commission", {"box": 2})] and hands.pressed == []
    shoe["commission_before_end"] = []
    dealer.step()
    assert hands.pressed == ["next"]
