"""Dealer sign-in at the table's own page: the console is locked until a dealer signs in
with their staff id and PIN; then every row the table journals names them, until they
sign out. Wrong PINs are refused, counted and journaled."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.table import RunningTable
from tests.support.browser import DEALER, DEALER_PIN, Hands, console_url


def sign_in(page: Page, staff: str, pin: str) -> None:
    page.locator("#dealer").click()  # the dealer chip in the top bar
    page.locator("#signin-staff").fill(staff)
    page.locator("#signin-pin").fill(pin)
    page.locator("#signin-submit").click()


def test_a_dealer_signs_in_at_the_console_and_the_rows_name_them(
    page: Page, unsigned_table: RunningTable
) -> None:
    table = unsigned_table
    hands = Hands(table)
    page.goto(console_url(table))
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    expect(page.locator("#dealer")).to_have_text("NO DEALER: SIGN IN")
    expect(page.locator("#not-console")).to_be_hidden()  # this browser is the console

    rows_before = table.journal.last_seq
    # locked: nobody signed in (the 7.1(a) shuffle is due, so SHUFFLED stands in NEXT's place)
    page.locator('#buttons button[data-button="shuffled"]').click()
    expect(page.locator("#notices")).to_contain_text("no dealer is signed in")
    assert table.journal.last_seq == rows_before  # refused, and nothing journaled

    sign_in(page, DEALER.id, "0000")
    expect(page.locator("#signin-result")).to_contain_text("REFUSED: wrong staff id or PIN")
    expect(page.locator("#signin-pin")).to_have_value("")  # not kept in the page
    page.locator("#signin-cancel").click()
    sign_in(page, DEALER.id, DEALER_PIN)
    expect(page.locator("#signin-dialog")).not_to_be_visible()
    expect(page.locator("#dealer")).to_have_text(f"DEALER {DEALER.name}")

    hands.stack([])
    hands.shuffled()  # SHUFFLED as the dealer now signed in, and the burn (7.1a)
    page.locator('#buttons button[data-button="next"]').click()  # betting opens
    expect(page.locator("body")).to_have_attribute("data-state", "betting")
    hands.wager(1)  # a sensor: its row names the dealer on duty too
    page.locator("#dealer").click()
    expect(page.locator("#signout-text")).to_contain_text(f"Signed in: {DEALER.name}")
    page.locator("#signout-submit").click()
    expect(page.locator("#dealer")).to_have_text("NO DEALER: SIGN IN")

    with open_journal(table.config.journal_path, create=True) as journal:
        rows = [r for r in journal.entries() if r.seq > rows_before]
    kinds = [(r.kind, r.actor) for r in rows]
    refused = next(r for r in rows if r.kind == "SignInRefused")
    assert refused.payload["who"] == DEALER.id and refused.payload["failures"] == 1
    signed_in = kinds.index(("DealerSignedIn", DEALER.id))
    signed_out = kinds.index(("DealerSignedOut", DEALER.id))
    between = rows[signed_in + 1 : signed_out]
    assert any(r.kind == "ButtonPressed" for r in between)
    assert any(r.kind == "SpotOccupied" for r in between)
    assert all(r.actor == DEALER.id for r in between), [(r.kind, r.actor) for r in between]


def test_a_browser_that_is_not_the_console_shows_no_console_buttons(
    page: Page, unsigned_table: RunningTable
) -> None:
    """The same page opened without the console URL (another screen, a visitor's laptop) is
    a view: it says so and offers no button the server would refuse anyway."""
    server = unsigned_table.server
    assert server is not None
    page.goto(server.url + "/")
    expect(page.locator("body")).to_have_attribute("data-conn", "live")
    expect(page.locator("#not-console")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()
    page.goto(console_url(unsigned_table))  # the kiosk's own URL makes it the console
    expect(page.locator("#not-console")).to_be_hidden()
    expect(page.locator("#console")).to_be_visible()
