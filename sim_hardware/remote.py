"""The scripted dealer's hands on a table running in another process.

The shoe is a `SimulatedShoe` in this process, on a pseudo-terminal the table opens as its
shoe; everything else goes through the table's console API (controller/app/console/web.py), as a
touch console would: buttons, wagers keyed in (a table without chip sensors), insurance,
supervisor decisions. Used where the controller must be a separate process that can be
killed: the power-cut tests and the soak.

The client is the table's console the way the kiosk is (docs/security.md): it reads the
console secret from its file, presents it once (``GET /?console=<secret>``), keeps the
cookie the answer sets, and sends every write as JSON with the ``X-Tablectl-Console``
header. The hands sign a dealer in before their first console action.
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from controller.cards import Card

HEADER = "X-Tablectl-Console"
DEMO_DEALER = ("d01", "1357")  # examples/*.toml: the demo staff
DEMO_SUPERVISOR = ("s01", "2468")


class ConsoleClient:
    def __init__(
        self, base_url: str, timeout: float = 5.0, secret_file: Path | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.secret_file = secret_file  # None: reads only (ControllerProcess sets it)
        self._cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self._cookies)
        )
        self.last_status = 0

    def present_secret(self) -> bool:
        """Be the table's console: present the secret once; the cookie is kept."""
        if self.secret_file is None:
            return False
        try:
            secret = self.secret_file.read_text(encoding="ascii").strip()
            query = urllib.parse.urlencode({"console": secret})
            with self._opener.open(f"{self.base_url}/?{query}", timeout=self.timeout) as r:
                r.read()
        except (OSError, ValueError):
            return False
        return any(True for _ in self._cookies)

    def state(self) -> dict[str, Any]:
        """The table's published state; {} while the table is not answering."""
        try:
            with urllib.request.urlopen(f"{self.base_url}/api/state", timeout=self.timeout) as r:
                state: dict[str, Any] = json.loads(r.read())
                return state
        except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
            return {}

    def post(self, path: str, body: dict[str, Any]) -> bool:
        """Send a console or supervisor action; False if the table did not take it
        (`last_status` says how it answered: 0 when it did not)."""
        if not any(True for _ in self._cookies):
            self.present_secret()
        request = urllib.request.Request(
            f"{self.base_url}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", HEADER: "1"},
            method="POST",
        )
        self.last_status = 0
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                self.last_status = response.status
                return bool(response.status == 202)
        except urllib.error.HTTPError as exc:
            self.last_status = exc.code
            exc.close()
            return False
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def sign_in(self, staff: str, pin: str) -> bool:
        """Sign a dealer in at this console."""
        return self.post("/api/signin", {"staff": staff, "pin": pin})


class DealingShoe(Protocol):
    """A simulated shoe the hands deal from: `sim_hardware.shoe.SimulatedShoe` (our serial
    protocol) or `sim_hardware.rdm6300.SimulatedRfidShoe` (an RDM6300 at its mouth)."""

    decks: int

    @property
    def cards_left(self) -> int: ...
    def draw_when_open(self, timeout: float = ...) -> Card: ...
    def load(self, cards: Sequence[Card] | None = None, cut_card_at: int | None = None) -> None: ...


class RemoteHands:
    """`sim_hardware.dealer.TableHands` over a console API and a local simulated shoe.
    Wagers are keyed in (``place_wager``); chips taken off the layout are not sensed."""

    senses_layout = False

    def __init__(
        self,
        client: ConsoleClient,
        shoe: DealingShoe,
        stake: int = 2,
        pin: str = "",
        *,
        supervisor: str = DEMO_SUPERVISOR[0],
        dealer: tuple[str, str] | None = DEMO_DEALER,
    ) -> None:
        self.client = client
        self.shoe = shoe
        self.stake = stake
        self.pin = pin
        self.supervisor_id = supervisor
        self.dealer = dealer  # (staff id, PIN) signed in whenever the console is locked

    def _sign_in(self) -> None:
        """As a dealer does when the screen asks: sign in whenever the table says the console
        is locked. A replayed journal keeps a dealer signed in, but a sign-in caught by a
        power cut before it was journaled never happened, so a flag kept here would lie."""
        if self.dealer is not None and self.client.state().get("console_locked", True):
            self.client.sign_in(*self.dealer)

    def draw(self) -> str:
        return str(self.shoe.draw_when_open())

    def shuffle(self) -> None:
        self.shoe.load()

    def press(self, button: str) -> None:
        self._sign_in()
        self.client.post("/api/console", {"button": button})

    def wager(self, box: int, on: bool) -> None:
        if on:
            self.console("place_wager", box=box, person=1, amount=self.stake)

    def insurance(self, box: int, on: bool) -> None:
        if on:
            self.console("insure", box=box, person=1, amount=self.stake // 2)

    def console(self, action: str, **args: Any) -> None:
        self._sign_in()
        self.client.post("/api/console", {"action": action, "args": args})

    def supervisor(self, decision: str, reason: str) -> None:
        body = {
            "staff": self.supervisor_id,
            "decision": decision,
            "reason": reason,
            "pin": self.pin,
        }
        self.client.post("/api/supervisor", body)
