"""The dealer's page in real headless Chromium, against a blackjack table on the simulators
(the simulated shoe on a pty read by the real serial driver, the real GPIO driver on
MockFactory pins, the real journal and loop). Every wait is on a page condition."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.table import RunningTable
from tests.support.browser import LOCKOUT_TRIES, PIN, SUPERVISOR, Hands, cards, console_url

# box 1: T 7 = 17; box 2: 9 T = 19; the dealer: A, then 5 (soft 16), then 2 (soft 18)
INSURANCE_ROUND = cards("Ts 9h Ad 7c Td 5s 2c")


def open_page(page: Page, table: RunningTable, path: str = "/") -> None:
    page.goto(console_url(table, path))  # the kiosk: through the console URL once
    expect(page.locator("body")).to_have_attribute("data-conn", "live")


def deal_to_insurance(hands: Hands) -> None:
    hands.stack(INSURANCE_ROUND)
    hands.shuffled()  # SHUFFLED and the burn (7.1a)
    hands.press("next")  # open betting
    hands.wager(1)
    hands.wager(2)
    hands.press("no_more_bets")
    for _ in range(5):
        hands.draw()


def test_a_round_appears_card_by_card(page: Page, table: RunningTable, hands: Hands) -> None:
    open_page(page, table)
    hands.stack(INSURANCE_ROUND)
    hands.shuffled()
    hands.press("next")
    hands.wager(1)
    hands.wager(2)
    expect(page.locator(".box")).to_have_count(2)
    expect(page.locator('.box[data-box="1"]')).to_contain_text("Wager $2")
    hands.press("no_more_bets")
    where = ['[data-box="1"]', '[data-box="2"]', ".dealer", '[data-box="1"]', '[data-box="2"]']
    for count, place in enumerate(where, start=1):
        card = hands.draw()
        expect(page.locator("#view .card")).to_have_count(count)  # one more face, no more
        expect(page.locator(f"{place} .card").last).to_have_attribute("data-card", card)
    expect(page.locator('.box[data-box="1"] .total')).to_have_text("17")
    expect(page.locator(".dealer .total")).to_have_text("SOFT 11")  # soft totals say so
    expect(page.locator("#next-text")).to_contain_text("Insurance open")
    hands.press("next")  # insurance closed, nobody took it
    hands.press("next")  # box 1 stands
    expect(page.locator('.box[data-box="2"]')).to_have_class("box acting")
    hands.press("next")  # box 2 stands
    hands.draw()  # the dealer's second card: soft 16, shown as such
    expect(page.locator(".dealer .total")).to_have_text("SOFT 16")
    hands.draw()  # soft 18: the dealer stands; 4.1 settles: 17 loses, 19 wins
    expect(page.locator("#next-text")).to_contain_text("Pay and collect as shown (rule 4.1)")
    expect(page.locator('.box[data-box="1"] .collect')).to_have_text("TAKE $2")
    # the winnings to add to the stake left on the layout, never the stake as well
    expect(page.locator('.box[data-box="2"] .owed')).to_have_text("PAY $2")


def test_9_5_losing_insurance_collection_shows_the_boxes_and_clears_with_the_sensors(
    page: Page, table: RunningTable, hands: Hands
) -> None:
    open_page(page, table)
    deal_to_insurance(hands)
    hands.insurance(1)  # box 1 takes insurance on the dealer's ace (9.2)
    expect(page.locator('.box[data-box="1"]')).to_contain_text("Insurance $1")
    hands.press("next")  # insurance closed
    hands.press("next")
    hands.press("next")
    hands.draw()  # the dealer's second card is not a ten: insurance loses
    expect(page.locator("#next-text")).to_have_text("Collect losing insurance: boxes 1 (rule 9.5)")
    expect(page.locator('.box[data-box="1"] .tag.red')).to_have_text("COLLECT INSURANCE")
    expect(page.locator('.box[data-box="2"] .tag.red')).to_have_count(0)
    hands.insurance(1, on=False)  # the dealer collects: the sensor clears
    expect(page.locator(".tag.red")).to_have_count(0)
    expect(page.locator("#next-text")).not_to_contain_text("Collect losing insurance")


def hold_on_late_insurance(page: Page, table: RunningTable, hands: Hands) -> None:
    """Insurance placed on box 1 after the boxes' second cards while the dealer shows a 5:
    a card-order breach the table holds for (rule 9.2)."""
    open_page(page, table)
    hands.stack(cards("Ts 9h 5d 7c 8d"))
    hands.shuffled()
    hands.press("next")
    hands.wager(1)
    hands.wager(2)
    hands.press("no_more_bets")
    for _ in range(5):
        hands.draw()
    hands.insurance(1)
    expect(page.locator("#hold")).to_be_visible()


def test_a_hold_shows_the_rule_in_words(page: Page, table: RunningTable, hands: Hands) -> None:
    hold_on_late_insurance(page, table, hands)
    expect(page.locator("#hold strong")).to_have_text("HOLD")  # the word, not only red
    expect(page.locator("#hold-text")).to_contain_text("rule 9.2")
    expect(page.locator("body")).to_have_attribute("data-hold", "1")


def supervise(page: Page, pin: str, decision: str = "keep_card", box: int | None = None) -> None:
    page.locator("#sup-open").click()
    page.locator(f'#sup-decisions input[value="{decision}"]').check()
    if box is not None:
        page.locator("#sup-box").fill(str(box))  # shown for a decision about one box
    page.locator("#sup-staff").fill(SUPERVISOR.id)
    page.locator("#sup-reason").fill("insurance chips were the player's change")
    page.locator("#sup-pin").fill(pin)
    page.locator("#sup-submit").click()


def test_supervisor_pin_wrong_is_refused_and_right_clears_the_hold_journaled(
    page: Page, table: RunningTable, hands: Hands
) -> None:
    hold_on_late_insurance(page, table, hands)
    assert PIN not in page.content()  # the page holds no PIN (nor its hash)
    supervise(page, "0000")
    expect(page.locator("#sup-result")).to_contain_text(
        f"REFUSED: wrong staff id or PIN ({LOCKOUT_TRIES - 1} tries left)"
    )
    expect(page.locator("#sup-pin")).to_have_value("")  # not kept in the page
    assert table.server is not None and table.server.gate.failures("console") == 1
    assert table.state["view"]["state"] == "hold"  # nothing reached the table
    page.locator("#sup-cancel").click()
    supervise(page, PIN)
    expect(page.locator("#sup-dialog")).not_to_be_visible()
    expect(page.locator("#hold")).to_be_hidden()
    assert table.server.gate.failures("console") == 0
    assert table.loop.wait_idle(5.0)  # the clear's rows written: the table is not writing
    with open_journal(table.config.journal_path, create=True) as journal:
        rows = [r for r in journal.entries() if r.kind == "SupervisorAction"]
    assert len(rows) == 1
    assert rows[0].actor == SUPERVISOR.id  # the staff member the PIN named, from the config
    payload: dict[str, Any] = rows[0].payload
    assert payload["reason"] == "insurance chips were the player's change"
    assert payload["decision"] == "keep_card"


def test_console_buttons_light_from_the_machine(
    page: Page, table: RunningTable, hands: Hands
) -> None:
    open_page(page, table)
    hands.stack([])
    hands.shuffled()
    hands.press("next")
    no_more_bets = page.locator('#buttons button[data-button="no_more_bets"]')
    expect(no_more_bets).to_have_attribute("data-lit", "false")  # no wager yet
    hands.wager(1)
    expect(no_more_bets).to_have_attribute("data-lit", "true")  # can_no_more_bets
    hands.chips("box1.p2")  # a second person wagers on box 1: each wager is shown
    expect(page.locator('.box[data-box="1"] .money.person')).to_have_text(
        ["p1 Wager $2", "p2 Wager $2"]
    )
    no_more_bets.click()  # the touch console's twin of the button
    expect(page.locator("body")).to_have_attribute("data-state", "no_more_bets")
    expect(no_more_bets).to_have_attribute("data-lit", "false")


def test_9_6_void_hand_from_the_console_needs_the_supervisor_pin(
    page: Page, table: RunningTable, hands: Hands
) -> None:
    open_page(page, table)
    deal_to_insurance(hands)
    page.locator('#buttons button[data-button="void_hand"]').click()  # the dealer asks
    expect(page.locator("#hold-text")).to_contain_text("rule 9.6")
    supervise(page, PIN, decision="void_hand")
    expect(page.locator("#hold")).to_be_hidden()
    expect(page.locator("body")).not_to_have_attribute("data-state", "hold")
    with open_journal(table.config.journal_path, create=True) as journal:
        rows = [r for r in journal.entries() if r.kind == "SupervisorAction"]
    assert [(r.actor, r.payload["decision"]) for r in rows] == [(SUPERVISOR.id, "void_hand")]


def test_9_6_a_supervisor_voids_one_box_named_in_the_panel(
    page: Page, table: RunningTable, hands: Hands
) -> None:
    hold_on_late_insurance(page, table, hands)
    page.locator("#sup-open").click()
    expect(page.locator("#sup-box")).to_be_hidden()  # keep the card: no box to name
    page.locator("#sup-cancel").click()
    supervise(page, PIN, decision="void_box", box=1)
    expect(page.locator("#sup-dialog")).not_to_be_visible()
    # the console queues the action (202): the HOLD gone from the page is the table's
    # state published after the action was journaled
    expect(page.locator("#hold")).to_be_hidden()
    with open_journal(table.config.journal_path, create=True) as journal:
        rows = [r for r in journal.entries() if r.kind == "SupervisorAction"]
    assert [(r.actor, r.payload["decision"], r.payload["args"]) for r in rows] == [
        (SUPERVISOR.id, "void_box", {"box": 1})
    ]
