"""Player ratings on a floor, for the Ratings view's browser test and screenshot: real table
journals holding rating rows (as tests/support/rating_rows.py writes them: the kinds and
fields the rating code journals), each table's real pit publisher, a real mosquitto, and
the real floor view (signatures checked, its own store, a staff file granting the
ratings to one host).

    .venv/bin/python -m tests.support.rating_scene   # docs/screenshots/pit-ratings-1920x1080.png
"""

from __future__ import annotations

import datetime
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.app.config import StaffMember
from controller.app.floor.staff import PitStaff
from controller.app.floor.view import PitView
from controller.app.pin_hashes import hash_pin
from controller.app.pit.publisher import PitPublisher, pit_publisher
from controller.app.runtime.journal_files import open_journal
from tests.support.floor import pit_staff
from tests.support.pit import ROOT, Broker, folder_keys, make_config
from tests.support.rating_rows import RatedPlayer

HOST = ("host1", "5566", "Tui Kereama")  # granted the ratings
TABLES = [("blackjack", "bj-01"), ("blackjack", "bj-02"), ("poker", "dp-01")]
TWICE = "4000 1234 5678 9012"  # rated at bj-01 and bj-02 at once: flagged


def staff() -> PitStaff:
    base = pit_staff()
    host = StaffMember(HOST[0], HOST[2], "pit_manager", hash_pin(HOST[1], log2_n=10))
    return PitStaff((*base.members, host), base.lockout, frozenset({HOST[0]}))


def ago(minutes: float) -> str:
    now = datetime.datetime.now(datetime.UTC)
    return (now - datetime.timedelta(minutes=minutes)).isoformat()


def rounds(player: RatedPlayer, pattern: list[tuple[dict[str, int], int, int]]) -> list[Any]:
    return [player.round(w, result, theo, departures=0 if player.game == "blackjack" else None,
                         seconds=75) for w, result, theo in pattern]  # fmt: skip


def shift_rows() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Each table's rating rows: closed ratings (one adjusted, one moved), open ones (one
    anonymous), and one player at two tables at once."""
    rows: dict[str, list[tuple[str, dict[str, Any]]]] = {name: [] for _, name in TABLES}
    flat = [({"main": 50}, -50, 21), ({"main": 50}, 50, 21), ({"main": 50, "double": 50}, 100, 41)]
    climbing = [({"main": 25}, -25, 10), ({"main": 50}, -50, 21), ({"main": 100}, 100, 41),
                ({"main": 200, "insurance": 100}, -300, 124)]  # fmt: skip
    mere = RatedPlayer("r11", 2, "Mere Tāne", start=ago(190))
    rows["bj-01"] += [mere.started(), *rounds(mere, flat * 4), mere.adjust(75, "pm01",
                      "chips hidden under the stack"), mere.ended(ago(150), "card")]  # fmt: skip
    sam = RatedPlayer("r12", 5, None, source="console", start=ago(140))
    rows["bj-01"] += [sam.started(), *rounds(sam, climbing * 3), sam.named("Sam Wu", "pm01"),
                      sam.ended(ago(110), "moved"), sam.moved("r13", 6)]  # fmt: skip
    sam2 = RatedPlayer("r13", 6, "Sam Wu", start=ago(110))
    rows["bj-01"] += [sam2.started(), *rounds(sam2, flat * 5)]
    twice = RatedPlayer("r14", 3, TWICE, start=ago(45))
    rows["bj-01"] += [twice.started(), *rounds(twice, climbing * 2)]
    anon = RatedPlayer("r15", 1, None, start=ago(30))
    rows["bj-01"] += [anon.started(), *rounds(anon, flat)]
    again = RatedPlayer("r21", 4, TWICE, start=ago(20))
    rows["bj-02"] += [again.started(), *rounds(again, flat * 2)]
    hemi = RatedPlayer("r22", 1, "Hemi Parata", start=ago(170))
    rows["bj-02"] += [hemi.started(), *rounds(hemi, climbing * 5), hemi.ended(ago(95), "empty")]
    poker = [
        ({"ante": 10, "bet": 40}, 80, 150),
        ({"ante": 10}, -10, 150),
        ({"ante": 10, "bet": 20}, -30, 150),
    ]
    ana = RatedPlayer("r31", 4, "Ana Lemalu", game="poker", start=ago(120))
    rows["dp-01"] += [ana.started(), *rounds(ana, poker * 6), ana.ended(ago(60), "dealer")]
    wiremu = RatedPlayer("r32", 2, "Wiremu Hohaia", game="poker", start=ago(50))
    rows["dp-01"] += [wiremu.started(), *rounds(wiremu, poker * 4)]
    return rows


@dataclass
class RatingScene:
    broker: Broker
    view: PitView
    publishers: list[PitPublisher]
    rows: dict[str, list[tuple[str, dict[str, Any]]]]


@contextmanager
def rating_scene(folder: Path) -> Iterator[RatingScene]:
    """The floor view once every table's rating rows have reached it."""
    broker = Broker(folder / "broker").start()
    publishers: list[PitPublisher] = []
    view: PitView | None = None
    rows = shift_rows()
    try:
        view = PitView(
            broker.url,
            port=0,
            store=folder / "pit.sqlite",
            staff=staff(),
            table_keys=folder_keys(folder, *(name for _, name in TABLES)),
        ).start()
        view.floor.set_shift(ago(240), "pm01")
        for game, name in TABLES:
            config = make_config(folder, game, name, broker.url)
            with open_journal(config.journal_path, create=True) as journal:
                for kind, payload in rows[name]:
                    journal.append(kind, payload, source="controller", round=1)
            publishers.append(pit_publisher(config).start())
        expected = sum(len(r) for r in rows.values())
        book = view.store.ratings
        if not view.floor.wait_for(lambda _: book.taken() == expected, 30):
            raise RuntimeError(f"the floor view did not get the {expected} rating rows")
        yield RatingScene(broker, view, publishers, rows)
    finally:
        for publisher in publishers:
            publisher.close()
        if view is not None:
            view.close()
        broker.kill()


def sign_in(page: Any, who: tuple[str, str, str] = HOST) -> None:
    """Sign in on the Ratings page's own form."""
    page.wait_for_selector("#signin:not([hidden])")
    page.fill("#staff-id", who[0])
    page.fill("#staff-pin", who[1])
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#who:not([hidden])")


def main() -> int:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    with (
        tempfile.TemporaryDirectory() as tmp,
        rating_scene(Path(tmp)) as scene,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(scene.view.url + "/ratings")
        sign_in(page)
        page.wait_for_selector("#closed tbody tr[data-table]")
        path = out / "pit-ratings-1920x1080.png"
        page.screenshot(path=str(path))
        print(path)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
