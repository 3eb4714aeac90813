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
// this game to draw, so there the script registers nothing. The players' board (/board,
// controller/app/console/static/board.js) calls players(facts, language): the round in play
// and the last results per box, in English or Simplified Chinese.
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


  // --- the players' board (controller/blackjack/board.py decides its facts) --------------
  // The round in play card by card (every card face up, no hole card) and the last rounds'
  // results per box, in English or Simplified Chinese.
  const PLAYERS_WORDS = {
    en: {
      title: "Blackjack", dealer: "DEALER", box: (n) => `BOX ${n}`, round: (n) => `ROUND ${n}`,
      last: "LAST ROUNDS", soft: "SOFT", bust: "BUST", blackjack: "BLACKJACK", void: "VOID",
      outcome: { win: "WIN", blackjack: "BLACKJACK", even_money: "EVEN MONEY", lose: "LOSE", push: "PUSH", returned: "RETURNED", void: "VOID" },
      waiting: "PLACE YOUR BETS",
    },
    "zh-Hans": {
      title: "二十一点", dealer: "庄家", box: (n) => `${n} 号位`, round: (n) => `第 ${n} 局`,
      last: "近期结果", soft: "软", bust: "爆牌", blackjack: "黑杰克", void: "无效",
      outcome: { win: "赢", blackjack: "黑杰克", even_money: "等额赔付", lose: "输", push: "平局", returned: "退还", void: "无效" },
      waiting: "请下注",
    },
  };
  const PLAYERS_CSS = `
    .pb-bj { flex: 1 1 auto; min-height: 0; display: grid; gap: calc(var(--u) * 1.6);
      grid-template-columns: minmax(0, 44fr) minmax(0, 56fr); }
    .pb-round { display: flex; flex-direction: column; gap: calc(var(--u) * 1.2); }
    .pb-bj .hand { display: flex; align-items: center; gap: calc(var(--u) * 1.2); padding: calc(var(--u) * 0.6) calc(var(--u) * 1);
      border-radius: calc(var(--u) * 1); background: rgba(0,0,0,0.3); }
    .pb-bj .hand .who { font-weight: 900; min-width: 4.6em; }
    .pb-bj .hand.dealer { border: calc(var(--u) * 0.4) solid var(--accent); }
    .pb-bj .cards { --card-w: calc(var(--u) * 5.6); flex: 1; }
    .pb-bj .total { font-size: 1.5em; font-weight: 900; white-space: nowrap; }
    .pb-bj .total.bust { color: #ff8a8a; }
    .pb-bj .total.blackjack { color: var(--accent); }
    .pb-bj .waiting { font-size: 1.6em; font-weight: 900; color: var(--accent); text-align: center; padding: calc(var(--u) * 2); }
    .pb-bj table { width: 100%; border-collapse: collapse; font-size: 0.85em; }
    .pb-bj td span { white-space: nowrap; }
    .pb-bj th, .pb-bj td { padding: calc(var(--u) * 0.5) calc(var(--u) * 0.6); text-align: center; border-bottom: 1px solid var(--line); }
    .pb-bj th { color: var(--accent); font-size: 0.85em; }
    .pb-bj td .o { display: block; font-weight: 900; font-size: 0.8em; border-radius: calc(var(--u) * 0.5); }
    .pb-bj td .o.win, .pb-bj td .o.blackjack, .pb-bj td .o.even_money { background: #2e7d32; }
    .pb-bj td .o.lose { background: #b71c1c; }
    .pb-bj td .o.push, .pb-bj td .o.void, .pb-bj td .o.returned { background: #546e7a; }
    .pb-bj tr:first-child td { background: rgba(255,255,255,0.12); }
    @media (orientation: portrait) { .pb-bj { grid-template-columns: minmax(0, 1fr); align-content: start; } }
  `;
  let boardWords = PLAYERS_WORDS.en;

  function playersSheet() {
    if (document.adoptedStyleSheets.some((s) => s.tablectlBlackjackPlayers)) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(PLAYERS_CSS);
    sheet.tablectlBlackjackPlayers = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  // "soft 17", "bust 24", "blackjack", "20" in the board's words
  function totalWords(total) {
    const t = String(total || "");
    const w = boardWords;
    if (t === "blackjack") return [w.blackjack, "blackjack"];
    if (t.startsWith("bust ")) return [`${w.bust} ${t.slice(5)}`, "bust"];
    if (t.startsWith("soft ")) return [`${w.soft} ${t.slice(5)}`, "soft"];
    return [t, ""];
  }

  function playersHand(label, hand, key) {
    const cards = (hand.cards || []).map((c, i) => cardFace(c, `${key}|${i}|${c}`)).join("");
    const [total, cls] = totalWords(hand.total);
    return `<div class="hand ${key.startsWith("dealer") ? "dealer" : ""}"><span class="who">${esc(label)}</span>` +
      `<div class="cards">${cards}</div><span class="total ${cls}">${esc(total)}</span></div>`;
  }

  function resultsTable(results) {
    const w = boardWords;
    const numbers = [...new Set(results.flatMap((r) => (r.boxes || []).map((b) => b.box)))].sort((a, b) => a - b);
    const head = `<tr><th>#</th><th>${esc(w.dealer)}</th>${numbers.map((n) => `<th>${esc(w.box(n))}</th>`).join("")}</tr>`;
    const rows = results.map((r) => {
      const cells = numbers.map((n) => {
        const box = (r.boxes || []).find((b) => b.box === n);
        if (!box) return "<td></td>";
        return `<td data-result-box="${n}">` + (box.hands || []).map((h) =>
          `<span>${esc(totalWords(h.total)[0])}</span><span class="o ${esc(h.outcome)}">${esc(w.outcome[h.outcome] || h.outcome)}</span>`).join("") + "</td>";
      }).join("");
      const dealer = r.void ? w.void : totalWords(r.dealer)[0];
      return `<tr data-result-round="${esc(r.round)}"><td>${esc(r.round)}</td><td>${esc(dealer)}</td>${cells}</tr>`;
    }).join("");
    return `<table>${head}${rows}</table>`;
  }

  function players(facts, language) {
    playersSheet();
    const w = boardWords = PLAYERS_WORDS[language] || PLAYERS_WORDS.en;
    const dealer = facts.dealer || { cards: [] };
    const boxes = facts.boxes || [];
    const dealt = boxes.length || (dealer.cards || []).length;
    const round = dealt
      ? playersHand(w.dealer, dealer, `dealer|${facts.round}`) +
        boxes.map((b) => (b.hands || []).map((h, i) => playersHand(w.box(b.number), h, `box${b.number}|${i}|${facts.round}`)).join("")).join("")
      : `<div class="waiting">${esc(w.waiting)}</div>`;
    return (
      `<div class="pb-bj"><section class="pb-round panel"><div class="heading" data-round="${esc(facts.round)}">${esc(w.round(facts.round ?? ""))}</div>${round}</section>` +
      `<section class="panel"><div class="heading">${esc(w.last)}</div>${resultsTable(facts.results || [])}</section></div>`
    );
  }

  window.tablectl = window.tablectl || {};
  window.tablectl.renderers = window.tablectl.renderers || {};
  window.tablectl.renderers.blackjack = {
    view: blackjackView, buttons: blackjackButtons,
    players, title: (language) => (PLAYERS_WORDS[language] || PLAYERS_WORDS.en).title,
  };
})();
