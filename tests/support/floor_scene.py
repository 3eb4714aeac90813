"""A floor mid-shift for the floor view's browser tests and screenshots: a real
mosquitto, three tables dealing by themselves in their own processes (`tablectl demo`: two
blackjack, one poker), one blackjack table in this process that the test drives (a stray
card puts it on HOLD, a supervisor clears it), and the pit view with its own store and a
floor file (examples/pit-floor.toml).

    .venv/bin/python -m tests.support.floor_scene   # writes docs/screenshots/pit-floor-*.png
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.app.cli.demo import SimHands, act, sign_in_dealer
from controller.app.floor.view import PitView
from controller.app.runtime.table import RunningTable
from controller.cards import Card
from controller.ports import CardDrawn, SupervisorAction
from sim_hardware.dealer import BlackjackDealer
from tests.support.floor import pit_staff
from tests.support.pit import ROOT, Broker, DemoTable, folder_keys, make_config, write_config

FLOOR_FILE = ROOT / "examples" / "pit-floor.toml"
DEALING = [("blackjack", "bj-01"), ("blackjack", "bj-02"), ("poker", "dp-01")]
DRIVEN = "bj-03"
SIZES = [(1920, 1080), (1280, 800)]


def by_table(floor: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {t["table"]: t for t in floor}


def journal_figures(path: Path, since: str) -> tuple[int, int, int]:
    """(rounds, drop, win) straight from a table's journal, since the shift's start."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT kind, payload FROM journal WHERE kind IN ('RoundSettled', 'HandSettled') "
            "AND wall >= ?",
            (since,),
        ).fetchall()
    finally:
        db.close()
    rounds = drop = win = 0
    for kind, text in rows:
        payload = json.loads(text)
        if payload.get("void"):
            continue
        rounds += 1
        if kind == "RoundSettled":
            drop += payload["wagers_in"]
            win += payload["house_result"]
        else:
            drop += payload["chips_in"]
            win += payload["rake"]
    return rounds, drop, win


@dataclass
class Scene:
    broker: Broker
    view: PitView
    demos: dict[str, DemoTable]
    driven: RunningTable
    dealer: BlackjackDealer
    folder: Path
    closed: list[Any] = field(default_factory=list)

    def restart(self, name: str) -> None:
        """A table's process again, on the same config and journal (it replays it)."""
        old = self.demos[name]
        self.demos[name] = DemoTable(old.config, self.folder / f"{name}.sqlite", pace=old.pace)

    def play_rounds(self, rounds: int) -> None:
        """The driven table plays ``rounds`` more rounds (and stops between rounds)."""
        target = self.dealer.rounds_finished + rounds
        while self.dealer.rounds_finished < target:
            act(self.driven, self.dealer)

    def stray_card(self, card: str = "Qh") -> None:
        """A card out of the shoe between rounds: rule 5.2 puts the table on HOLD."""
        seen = self.driven.loop.processed
        self.driven.events.put(CardDrawn(source="shoe", card=Card.parse(card)))
        self.driven.loop.wait_processed(seen, timeout=10)

    def clear_hold(self, who: str = "s01", decision: str = "void_hand") -> None:
        seen = self.driven.loop.processed
        self.driven.events.put(SupervisorAction(source="console", who=who, decision=decision))
        self.driven.loop.wait_processed(seen, timeout=10)

    def wait_dealing(self, timeout: float = 120.0, rounds: int = 1) -> bool:
        """Every table online with at least ``rounds`` settled in the shift."""
        names = [name for _, name in DEALING] + [DRIVEN]

        def ready(floor: list[dict[str, Any]]) -> bool:
            seen = by_table(floor)
            return all(n in seen and seen[n]["status"] == "online" for n in names)

        def played(floor: list[dict[str, Any]]) -> bool:
            figures = {f["key"]: f for f in self.view.figures()["tables"]}
            return all(figures.get(n, {}).get("rounds", 0) >= rounds for _, n in DEALING)

        return self.view.floor.wait_for(ready, timeout) and self.view.floor.wait_for(
            played, timeout
        )


@contextmanager
def floor_scene(folder: Path, *, store: Path | None = None, pace: float = 0.15) -> Iterator[Scene]:
    broker = Broker(folder / "broker").start()
    demos: dict[str, DemoTable] = {}
    driven: RunningTable | None = None
    view: PitView | None = None
    try:
        view = PitView(
            broker.url,
            port=0,
            store=store if store is not None else folder / "pit.sqlite",
            floor_file=FLOOR_FILE,
            outage_grace=15.0,
            staff=pit_staff(),
            table_keys=folder_keys(folder, DRIVEN, *(name for _, name in DEALING)),
        ).start()
        for game, name in DEALING:
            config = write_config(folder, game, name, broker.url, keepalive=3)
            demos[name] = DemoTable(config, folder / f"{name}.sqlite", pace=pace)
        config = make_config(folder, "blackjack", DRIVEN, broker.url, keepalive=3)
        driven = RunningTable(config, simulate=True, serve=False, seed=11).start()
        sign_in_dealer(driven)
        dealer = BlackjackDealer(
            SimHands(driven), lambda: driven.state, random.Random(5), insurance_sensors=False
        )
        yield Scene(broker, view, demos, driven, dealer, folder)
    finally:
        for demo in demos.values():
            if demo.proc.poll() is None:
                demo.proc.send_signal(signal.SIGTERM)
        for demo in demos.values():
            demo.stop()
        if driven is not None:
            driven.stop()
        if view is not None:
            view.close()
        broker.kill()


def screenshots(scene: Scene, page: Any, out: Path) -> list[Path]:
    """The floor view at each size, once every table has been drawn."""
    made = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(scene.view.url + "/")
        page.wait_for_selector(f'tr[data-table="{DRIVEN}"]')
        page.wait_for_function(
            "() => document.querySelectorAll('#tables tr[data-table]').length >= 4"
        )
        page.wait_for_function(
            "() => [...document.images].every("
            "(i) => !i.offsetParent || (i.complete && i.naturalWidth))"
        )
        path = out / f"pit-floor-{width}x{height}.png"
        page.screenshot(path=str(path))
        made.append(path)
    return made


def mid_shift(scene: Scene) -> None:
    """Rounds on every table, a HOLD cleared (acknowledged), one HOLD standing."""
    scene.wait_dealing(rounds=2)
    scene.play_rounds(2)
    scene.stray_card("Qh")
    scene.view.floor.wait_for(lambda f: bool(by_table(f)[DRIVEN]["hold"]), 20)
    scene.clear_hold()
    scene.play_rounds(1)
    scene.stray_card("7s")
    scene.view.floor.wait_for(lambda f: bool(by_table(f)[DRIVEN]["hold"]), 20)


def main() -> int:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    with tempfile.TemporaryDirectory() as tmp, floor_scene(Path(tmp)) as scene:
        mid_shift(scene)
        scene.demos["bj-02"].kill()  # a crash: offline, red
        scene.view.floor.wait_for(lambda f: by_table(f)["bj-02"]["shown"] == "offline", 20)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            for path in screenshots(scene, page, out):
                print(path)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
