"""The payout mismatches on the pit floor page (rule 4.1), in real headless
Chromium over a real mosquitto: per table, per game and per dealer, by kind (over, under,
uncollected), how many and the chip units in question, each mismatch counted once however
often its spot was read wrong; the columns appear live when the shift has its first.

    .venv/bin/python -m tests.app.floor.test_pit_payouts_page [OUTPUT.png]

draws the same floor at 1280x800 into a PNG, to look at.
"""

from __future__ import annotations

import datetime
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from controller.app.floor.view import PitView
from tests.support.pit import Broker

SEQ = itertools.count(1)


def _say(view: PitView, table: str, leaf: str, **body: Any) -> None:
    """A message as a table publishes it, handed to the view as its MQTT thread would."""
    view.floor.take(f"casino/dunedin/table/{table}/{leaf}", json.dumps({"v": 1, **body}).encode())


def _row(
    view: PitView, table: str, row_kind: str, actor: str, round_: int, /, **payload: Any
) -> None:
    """One journal row on the table's ``event`` topic (a fresh seq and hash each)."""
    seq = next(SEQ)
    wall = datetime.datetime.now(datetime.UTC).isoformat()
    _say(view, table, "event", seq=seq, wall=wall, round=round_, kind=row_kind, actor=actor,
         payload=payload, hash=f"{seq:064x}")  # fmt: skip


def _mismatch(
    view: PitView, table: str, actor: str, round_: int, kind: str, owed: int, paid: int
) -> None:
    _row(view, table, "PayoutMismatch", actor, round_, box=1, spot="box1", kind=kind,
         owed=owed, paid=paid, reads=20 + paid, rule="4.1", text="")  # fmt: skip


def open_floor(view: PitView) -> None:
    """Two blackjack tables dealing, a dealer signed in at each, a round settled at each."""
    for table, dealer, name in (("bj-01", "d01", "Ann Dealer"), ("bj-02", "d02", "Bo Dealer")):
        _say(view, table, "status", status="online", reason="connected", game="blackjack")
        _row(view, table, "DealerSignedIn", dealer, 0, staff_id=dealer, name=name)
        _row(view, table, "RoundSettled", dealer, 1, wagers_in=40, house_result=0, paid_out=40)


def mistakes(view: PitView) -> None:
    """bj-01 (d01): round 2, box 1 paid 25 on a 20 win, then 30 (one overpayment, 10 in
    question), put right, then 22 (a second one, 2), accepted; round 3, a losing 20 left
    on the spot. bj-02 (d02): round 2, 15 paid on a 20 win (5 under)."""
    _mismatch(view, "bj-01", "d01", 2, "over", 20, 25)
    _mismatch(view, "bj-01", "d01", 2, "over", 20, 30)
    _row(view, "bj-01", "MismatchCorrected", "d01", 2, box=1, spot="box1", kind="over",
         owed=20, paid=20, reads=40)  # fmt: skip
    _mismatch(view, "bj-01", "d01", 2, "over", 20, 22)
    _row(view, "bj-01", "MismatchAccepted", "d01", 2, box=1, spot="box1", kind="over",
         owed=20, paid=22, who="s01", reason="the player gave it back by hand")  # fmt: skip
    _row(view, "bj-01", "PayoutMismatch", "d01", 3, box=1, spot="box1", kind="uncollected",
         owed=0, paid=20, reads=20, rule="4.1", text="")  # fmt: skip
    _mismatch(view, "bj-02", "d02", 2, "under", 20, 15)


def cell(page: Any, figures: str, key: str, kind: str) -> Any:
    return page.locator(f'#{figures} tr[data-key="{key}"] td[data-kind="{kind}"]')


def test_rule_4_1_the_floor_page_draws_the_payout_mismatches(broker: Broker, browser: Any) -> None:
    view = PitView(broker.url, port=0).start()
    try:
        open_floor(view)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            page.goto(view.url + "/")
            page.wait_for_selector('#fig-tables tr[data-key="bj-02"]')
            page.wait_for_selector('#fig-dealers tr[data-key="d02"]')
            # no mismatch yet this shift: no columns for them, no note
            assert page.locator("#figures th.pm").count() == 0
            assert page.locator("#fig-payouts").is_hidden()

            mistakes(view)  # live, over Server-Sent Events
            page.wait_for_selector('#fig-tables tr[data-key="bj-01"] td[data-kind="uncollected"]')
            for figures in ("fig-tables", "fig-games", "fig-dealers"):
                heads = page.locator(f"#{figures} th.pm").all_inner_texts()
                assert heads == ["Over", "Under", "Uncollected"], (figures, heads)
            assert page.locator("#fig-payouts").is_visible()
            assert "rule 4.1" in page.inner_text("#fig-payouts")

            # per table: read wrong twice then put right is one; wrong again is another
            over = cell(page, "fig-tables", "bj-01", "over")
            assert over.inner_text() == "2 \u00b7 12"
            assert (over.get_attribute("data-count"), over.get_attribute("data-amount")) == (
                "2",
                "12",
            )
            title = over.get_attribute("title")
            assert title == "2 overpaid: 12 chip units in question (rule 4.1)"
            assert cell(page, "fig-tables", "bj-01", "uncollected").inner_text() == "1 \u00b7 20"
            assert cell(page, "fig-tables", "bj-01", "under").inner_text() == "0"
            assert cell(page, "fig-tables", "bj-02", "under").inner_text() == "1 \u00b7 5"
            assert cell(page, "fig-tables", "bj-02", "over").inner_text() == "0"
            # per dealer, and the game (both tables)
            assert cell(page, "fig-dealers", "d01", "over").inner_text() == "2 \u00b7 12"
            assert cell(page, "fig-dealers", "d02", "under").inner_text() == "1 \u00b7 5"
            assert cell(page, "fig-dealers", "d02", "uncollected").inner_text() == "0"
            assert cell(page, "fig-games", "blackjack", "under").inner_text() == "1 \u00b7 5"
            # the page agrees with the API it was drawn from
            api = {f["key"]: f for f in view.figures()["tables"]}
            assert api["bj-01"]["payout_mismatches"] == {
                "over": {"count": 2, "amount": 12},
                "uncollected": {"count": 1, "amount": 20},
            }
            # readable at 1280x800: every figure table inside its section, nothing cut off
            overflow = page.evaluate(
                """() => [...document.querySelectorAll('.figure-tables table')].filter(
                    (t) => t.getBoundingClientRect().right >
                           document.getElementById('figures').getBoundingClientRect().right
                ).map((t) => t.id)"""
            )
            assert overflow == []
        finally:
            page.close()
    finally:
        view.close()


if __name__ == "__main__":  # a picture of it, to look at
    import tempfile

    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "pit-payout-mismatches.png")
    with tempfile.TemporaryDirectory() as folder:
        server = Broker(Path(folder)).start()
        shown = PitView(server.url, port=0).start()
        try:
            open_floor(shown)
            mistakes(shown)
            with sync_playwright() as p:
                chromium = p.chromium.launch(executable_path="/usr/bin/chromium")
                tab = chromium.new_page(viewport={"width": 1280, "height": 800})
                tab.goto(shown.url + "/")
                tab.wait_for_selector('#fig-tables td[data-kind="over"]')
                tab.locator("#figures").screenshot(path=str(out))
                chromium.close()
        finally:
            shown.close()
            server.kill()
    print(out)
