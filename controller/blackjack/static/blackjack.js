// Blackjack's drawing for the status page, shipped in the game's folder and served at
// /game.js for a blackjack table (GameSpec.page_script; controller/app/console/game_page.py),
// so the app's page names no game. It registers window.tablectl.renderers.blackjack, which
// app.js calls with each state: the dealer's cards, each box's hands with their totals
// ("soft 17" says SOFT), who acts, what each person on a box is owed or loses, the shoe's
// gate and shuffle, and the console's buttons. The NEXT line and the HOLD banner are the
// view's own words (next_action, hold_text), which app.js shows as they are.
//
// The text and card faces are the page's (static/faces.js, window.TableFaces); the styles
// only this drawing uses go in a constructed style sheet (CSSOM, which the page's
// Content-Security-Policy allows: no inline style). The pit has no faces and no board of
// this game to draw, so there the script registers nothing.
"use strict";

(() => {
  if (!window.TableFaces) return;  // the pit (controller/app/floor/boards.py): nothing to draw
  const { esc, money, cardFace, ratedTag, ratedLine, ratingButtons } = window.TableFaces;

  // a hand's total: SOFT, BUST and BLACKJACK stand out
  const CSS = `
    .total.soft { color: var(--blue); }
    .total.bust { color: #ff8a8a; text-decoration: line-through; }
    .total.blackjack { color: var(--amber); }
  `;
  if (!document.adoptedStyleSheets.some((s) => s.tablectlBlackjack)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    sheet.tablectlBlackjack = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  // --- the layout ------------------------------------------------------------------------
  function totalText(total) {
    const t = String(total || "");
    const cls = t.startsWith("soft") ? "soft" : t.startsWith("bust") ? "bust" : t === "blackjack" ? "blackjack" : "";
    return `<span class="total ${cls}">${esc(t.toUpperCase())}</span>`;
  }

  function boxesNamed(text, pattern) {
    const match = pattern.exec(text || "");
    return match ? match[1].split(/,\s*/).map(Number) : [];
  }

  function blackjackView(state, view) {
    const round = view.round ?? state.round;
    const dealer = view.dealer || { cards: [] };
    const collectIns = view.state === "insurance_settlement"
      ? boxesNamed(view.next_action, /insurance: boxes ([\d, ]+)/) : [];
    const payNow = boxesNamed(view.next_action, /^Pay box (\d+)/);
    let html =
      `<div class="row-line dealer"><span class="who">DEALER</span>` +
      `<div class="cards">${dealer.cards.map((c, i) => cardFace(c, `${round}|d|${i}|${c}`)).join("")}</div>` +
      `${totalText(dealer.total)}</div>`;
    const boxes = view.boxes || [];
    html += `<div class="boxes">`;
    if (!boxes.length) html += `<p class="muted">No wagers on the layout.</p>`;
    for (const box of boxes) {
      const acting = box.hands.some((h) => h.acting);
      const attention = collectIns.includes(box.number) || payNow.includes(box.number) || !!box.mismatch;
      html += `<div class="box${acting ? " acting" : ""}${attention ? " attention" : ""}" data-box="${box.number}">`;
      html += `<div class="boxno"><span>BOX ${box.number}</span>`;
      html += ratedTag(view, box.number);
      if (acting) html += `<span class="tag">ACTING</span>`;
      if (collectIns.includes(box.number)) html += `<span class="tag red">COLLECT INSURANCE</span>`;
      if (payNow.includes(box.number)) html += `<span class="tag">PAY NOW</span>`;
      if (box.mismatch) html += `<span class="tag red">PAYOUT MISMATCH</span>`;
      html += `</div>`;
      box.hands.forEach((hand, h) => {
        html += `<div class="hand${hand.acting ? " acting" : ""}">` +
          `<div class="cards">${hand.cards.map((c, i) => cardFace(c, `${round}|${box.number}|${h}|${i}|${c}`)).join("")}</div>` +
          `<div>${totalText(hand.total)}${hand.doubled ? ` <span class="tag blue">DOUBLED</span>` : ""}</div></div>`;
      });
      html += personLines(box);
      // the chips disagree with what the box is owed (rule 4.1): NEXT is refused
      if (box.mismatch) html += `<div class="collect mismatch">${esc(box.mismatch)}</div>`;
      html += `</div>`;
    }
    html += `</div>`;
    const shoe = [`Shoe gate ${view.gate_locked ? "LOCKED" : "open"}`];
    shoe.push(view.shuffle_due ? `SHUFFLE DUE (rule ${view.shuffle_due})` : "cutting card not out");
    if (view.burns_due) shoe.push(`BURN ${view.burns_due} CARD${view.burns_due === 1 ? "" : "S"}`);
    html += `<div class="shoe">${esc(shoe.join(" · "))}</div>`;
    html += ratedLine(view);
    return html;
  }

  // The dealer's money, one line per person on the box: a stake that is not lost stays on
  // the layout, so PAY is only the winnings to add to it, PUSH a stand-off, TAKE a loss;
  // PAID marks a blackjack already paid at once (10.1, 10.3(a)).
  function personLines(box) {
    const people = box.people || [];
    const shared = people.length > 1;
    return people.map((p) => {
      const who = shared ? `${esc(p.person)} ` : "";
      let line = `<div class="money person" data-person="${esc(p.person)}">${who}Wager ${money(p.wager)}`;
      if (p.insurance) {
        line += ` · Insurance ${money(p.insurance)}${p.insurance_state ? ` ${esc(p.insurance_state)}` : ""}`;
      }
      line += `</div>`;
      if (p.paid_at_once) line += `<div class="paid">${who}PAID ${money(p.paid_at_once)} (rule ${esc(p.paid_rule)})</div>`;
      if (p.void) line += `<div class="push">${who}VOID (rule 9.6): stake back</div>`;
      else if (p.push) line += `<div class="push">${who}PUSH</div>`;
      if (p.pay) line += `<div class="owed">${who}PAY ${money(p.pay)}</div>`;
      if (p.take) line += `<div class="collect">${who}TAKE ${money(p.take)}</div>`;
      if (p.note) line += `<div class="money note">${esc(p.note)}</div>`;
      return line;
    }).join("");
  }

  // --- the console ------------------------------------------------------------------------
  function blackjackButtons(view) {
    const b = view.buttons || {};
    const s = view.state;
    // dark while the chips disagree with a payout (rule 4.1): NEXT is refused
    const nextLit = b.next !== false && (Boolean(b.stand) || /press NEXT/.test(view.next_action || "") ||
      /^Pay box/.test(view.next_action || ""));
    const rating = ratingButtons(view, (view.boxes || []).map((box) => box.number));
    return [
      ["no_more_bets", "NO MORE BETS", Boolean(b.no_more_bets)],
      ["next", "NEXT", nextLit],
      ["double", "DOUBLE", Boolean(b.double)],
      ["split", "SPLIT", Boolean(b.split)],
      ["insurance_closed", "INSURANCE CLOSED", s === "insurance" || s === "insurance_settlement"],
      ["even_money", "EVEN MONEY", Boolean(b.insurance_open)],
      ["void_hand", "VOID HAND", false, "danger"],
    ].map(([name, label, lit, cls]) => (
      // 7.1: with a shuffle due, NEXT's place is SHUFFLED: a shuffle is confirmed, never
      // taken from NEXT
      name === "next" && b.shuffled && view.shuffle_due
        ? { name: "shuffled", label: "SHUFFLED", lit: true, body: { action: "shuffled", args: {} } }
        : { body: { button: name }, label, lit, cls, name })).concat(rating);
  }

  window.tablectl = window.tablectl || {};
  window.tablectl.renderers = window.tablectl.renderers || {};
  window.tablectl.renderers.blackjack = { view: blackjackView, buttons: blackjackButtons };
})();
