"""What the floor view's tests share.

- Journal rows as the pit receives them, for the tests of its figures and store: one
  table's row at a number of seconds into a fixed shift (START), so that the figures'
  hours and the store's order are the same on every run.
- Pit staff: a pit manager and a surveillance officer with their PINs, a client that signs
  in over HTTP as the page does, and the page's own sign-in. The hashes are made once per
  run at the lowest scrypt cost the format allows (log2 n = 10), so a sign-in in a test
  costs a millisecond, not 50.
"""

from __future__ import annotations

import datetime
import functools
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from controller.app.config import StaffMember
from controller.app.floor.staff import PitStaff
from controller.app.pin_hashes import hash_pin

START = 1_800_000_000.0  # 2027-01-15T08:00:00Z


def at(seconds: float) -> str:
    """The wall-clock text of ``seconds`` after START, as a journal row carries it."""
    return datetime.datetime.fromtimestamp(START + seconds, datetime.UTC).isoformat()


def row(
    table: str,
    seconds: float,
    row_kind: str,
    actor: str | None = "d01",
    round_: int = 1,
    **payload: Any,
) -> dict[str, Any]:
    """A row of ``table``'s journal, ``seconds`` into the shift (its seq too); the row's
    kind is ``row_kind``, so that a payload may have a ``kind`` of its own (a mismatch's)."""
    return {"table": table, "site": "s", "seq": int(seconds), "wall": at(seconds),
            "round": round_, "kind": row_kind, "actor": actor, "payload": payload}  # fmt: skip


MANAGER = ("pm01", "4821", "Anna Reid")
SURVEILLANCE = ("sv01", "7312", "Hemi Walker")
PAGE_HEADERS = {"Content-Type": "application/json", "X-Tablectl-Pit": "1"}


@functools.cache
def pit_staff() -> PitStaff:
    return PitStaff(
        (
            StaffMember(MANAGER[0], MANAGER[2], "pit_manager", hash_pin(MANAGER[1], log2_n=10)),
            StaffMember(
                SURVEILLANCE[0],
                SURVEILLANCE[2],
                "surveillance",
                hash_pin(SURVEILLANCE[1], log2_n=10),
            ),
        )
    )


def write_staff_file(path: Path) -> Path:
    """The same staff as a ``--staff`` file."""
    entries = [
        f'[[staff]]\nid = "{m.id}"\nname = "{m.name}"\nrole = "{m.role}"\n'
        f'pin_hash = "{m.pin_hash}"\n'
        for m in pit_staff().members
    ]
    path.write_text("\n".join(entries))
    return path


def request(
    url: str, body: bytes | None, headers: dict[str, str], method: str = "POST"
) -> tuple[int, dict[str, str], bytes]:
    """One request as anyone on the network would send it: (status, headers, body)."""
    asked = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(asked, timeout=10) as answer:
            return int(answer.status), dict(answer.headers), answer.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return int(exc.code), dict(exc.headers), exc.read()


class StaffClient:
    """Someone at the pit view's page, as its script behaves: the page's headers, the
    session cookie it was given."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookie = ""

    def sign_in(self, staff: str, pin: str) -> int:
        status, headers, _ = self.post("/api/signin", {"staff": staff, "pin": pin})
        cookie = headers.get("Set-Cookie", "")
        if status == 200:
            self.cookie = cookie.split(";", 1)[0]
        return status

    def post(
        self, path: str, body: Any, extra: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        headers = {**PAGE_HEADERS, **({"Cookie": self.cookie} if self.cookie else {})}
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        status, answered, text = request(self.url + path, raw, {**headers, **(extra or {})})
        try:
            decoded: Any = json.loads(text)
        except ValueError:
            decoded = text.decode(errors="replace")
        return status, answered, decoded


def manager(url: str) -> StaffClient:
    client = StaffClient(url)
    assert client.sign_in(MANAGER[0], MANAGER[1]) == 200
    return client


def sign_in_on_page(page: Any, staff: tuple[str, str, str] = MANAGER) -> None:
    """Sign in on the floor page's own form, and wait until it says who is signed in."""
    page.wait_for_selector("#signin:not([hidden])")
    page.fill("#staff-id", staff[0])
    page.fill("#staff-pin", staff[1])
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#who:not([hidden])")
