"""The scripted dealer's hands on a table running in another process.

The shoe is a `SimulatedShoe` in this process, on a pseudo-terminal the table opens as its
shoe; everything else goes through the table's console API (controller/app/web.py), as a
touch console would: buttons, wagers keyed in (a table without chip sensors), insurance,
supervisor decisions. Used where the controller must be a separate process that can be
killed: the power-cut tests and the soak.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from sim_hardware.shoe import SimulatedShoe


class ConsoleClient:
    def __init__(self, base_url: str, timeout: float = 5.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def state(self) -> dict[str, Any]:
        """The table's published state; {} while the table is not answering."""
        try:
            with urllib.request.urlopen(f"{self.base_url}/api/state", timeout=self.timeout) as r:
                state: dict[str, Any] = json.loads(r.read())
                return state
        except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
            return {}

    def post(self, path: str, body: dict[str, Any]) -> bool:
        """Send a console or supervisor action; False if the table did not take it."""
        request = urllib.request.Request(
            f"{self.base_url}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return bool(response.status == 202)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False


class RemoteHands:
    """`sim_hardware.dealer.TableHands` over a console API and a local simulated shoe.
    Wagers are keyed in (``place_wager``); chips taken off the layout are not sensed."""

    senses_layout = False

    def __init__(
        self, client: ConsoleClient, shoe: SimulatedShoe, stake: int = 2, pin: str = ""
    ) -> None:
        self.client = client
        self.shoe = shoe
        self.stake = stake
        self.pin = pin

    def draw(self) -> str:
        return str(self.shoe.draw_when_open())

    def shuffle(self) -> None:
        self.shoe.load()

    def press(self, button: str) -> None:
        self.client.post("/api/console", {"button": button})

    def wager(self, box: int, on: bool) -> None:
        if on:
            self.console("place_wager", box=box, person=1, amount=self.stake)

    def insurance(self, box: int, on: bool) -> None:
        if on:
            self.console("insure", box=box, person=1, amount=self.stake // 2)

    def console(self, action: str, **args: Any) -> None:
        self.client.post("/api/console", {"action": action, "args": args, "actor": "dealer"})

    def supervisor(self, decision: str, reason: str) -> None:
        body = {"who": "test supervisor", "decision": decision, "reason": reason, "pin": self.pin}
        self.client.post("/api/supervisor", body)
