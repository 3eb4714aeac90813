// Draw poker's drawing for the status page, shipped in the game's folder and served at
// /game.js for a poker table (GameSpec.page_script; controller/app/console/game_page.py), so
// the app's page names no game. It registers window.tablectl.renderers.poker, which app.js
// calls with each state: the seats (stack, bet, how many cards each holds, never which), the
// pots and uncalled bets, the action and the draw (with the stub's reshuffle, 11.3(b)), the
// showdown and the pot awards (11.4), the NEXT line, and the console's buttons (a raise
// carries its bounds, app.js puts the amount's field beside it; a request to see hands
// carries the seat asked about, 11.4(c)).
//
// The text and card faces are the page's (static/faces.js, window.TableFaces); the styles
// only this drawing uses go in a constructed style sheet (CSSOM, which the page's
// Content-Security-Policy allows: no inline style). The pit has no faces and no board of
// this game to draw, so there the script registers nothing. The players' board (/board,
// controller/app/console/static/board.js) calls players(facts, language): the blinds, the
// button, the pot and each seat's card backs (never a card), in English or Simplified Chinese.
"use strict";

(() => {
  if (!window.TableFaces) return;  // the pit (controller/app/floor/boards.py): nothing to draw
  const { esc, money, seatList, cite, ratedTag, ratedLine, ratingButtons } = window.TableFaces;

  const CSS = `
    .seats { display: grid; grid-template-columns: repeat(auto-fit, minmax(calc(var(--u) * 22), 1fr));
      gap: calc(var(--u) * 1); }
    .seat { border: 3px solid var(--line); border-radius: 10px; padding: calc(var(--u) * 0.8);
      background: rgba(0,0,0,0.25); }
    .seat.folded { opacity: 0.55; border-style: dotted; }
    /* the held cards are private (the controller shows how many, not which): small backs */
    .seat .cards { min-height: 0; gap: 3px; }
    .seat .card.blank { width: calc(var(--card-w) * 0.36); height: calc(var(--card-w) * 0.5);
      border-radius: 3px; border-width: 1px; }
    /* up to eight seats in one row, even at 800 px */
    .seats { grid-template-columns: repeat(auto-fit, minmax(min(calc(var(--u) * 22), calc((100vw - 60px) / 8)), 1fr)); }
    .seat { font-size: 0.82em; padding: calc(var(--u) * 0.6); }
    .seat .boxno > span:last-child { display: flex; flex-wrap: wrap; gap: 2px; }
  `;
  if (!document.adoptedStyleSheets.some((s) => s.tablectlPoker)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    sheet.tablectlPoker = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  // --- the table ------------------------------------------------------------------------
  // A raise's bounds are chips added over the call, said so ("to" alone read as a total).
  function raiseBy(a) {
    const by = a.raise_min === a.raise_max ? money(a.raise_min) :
      `${money(a.raise_min)} to ${money(a.raise_max)}`;
    return `RAISE by ${by} over the call`;
  }

  function pokerNext(view) {
    if (view.hold) return `HOLD (${cite(view.hold.rule)}): a supervisor must clear the table`;
    const a = view.action;
    if (a) {
      const call = a.can_check ? "CHECK" : `CALL ${money(a.call)}`;
      const raise = a.can_raise ? ` · ${raiseBy(a)} (11.5)` : "";
      return `Seat ${a.seat} to act (${a.rule}): ${call}${raise} · FOLD`;
    }
    const d = view.draw;
    if (d && d.reshuffle && d.stub === 0) {
      const owners = (d.reshuffle.owners || []).map(([seat]) => seat);
      return `Stub out (11.3(b)): shuffle ONLY the discards of seats ${seatList(owners)}, cut, ` +
        `then deal seat ${d.drawer} ${d.owed ?? ""} more`.trimEnd();
    }
    if (d && d.drawer) {
      return d.owed ? `Deal seat ${d.drawer} ${d.owed} card${d.owed === 1 ? "" : "s"} (11.3)` :
        `Seat ${d.drawer}: how many cards to draw? (11.3)`;
    }
    if (view.state === "dealing") return "Deal five cards one at a time, clockwise from left of the button (11.3(a))";
    if (view.showdown && view.state !== "waiting") {
      const sd = view.showdown;
      const who = `seat${sd.must_expose.length > 1 ? "s" : ""} ${seatList(sd.must_expose)}`;
      const pay = view.settlement ? "; award the pots as shown (11.4(d)), then NEXT" : "";
      return `Showdown (11.4(c)): ${who} expose in that order${requested(view)}${pay}`;
    }
    if (view.settlement && view.settlement.void) return "Hand void: return the chips as shown, then NEXT";
    if (view.state === "waiting" || view.state === "complete") return "Press NEXT to start the hand";
    return String(view.state || "").replace(/_/g, " ");
  }

  // 11.4(c): "Any player at the table may request to see any or all hands"
  function asked(r) {
    const many = r.seats.length > 1;
    return `asked to see seat${many ? "s" : ""} ${seatList(r.seats)}: expose ${many ? "them" : "it"}`;
  }

  function requested(view) {
    return (view.requests || []).map((r) => `; seat ${r.by_seat} ${asked(r)}`).join("");
  }

  function pokerView(view) {
    const action = view.action;
    let html = `<div class="seats">`;
    for (const s of view.seats || []) {
      const acting = action && action.seat === s.seat;
      const drawing = view.draw && view.draw.drawer === s.seat;
      const cls = ["seat", acting || drawing ? "acting" : "", s.folded ? "folded" : ""].join(" ");
      html += `<div class="${cls}" data-seat="${s.seat}"><div class="boxno"><span>SEAT ${s.seat}</span><span>`;
      html += ratedTag(view, s.seat);
      if (view.button === s.seat) html += `<span class="tag blue">BUTTON${view.button_dead ? " (DEAD)" : ""}</span> `;
      if (s.blind) html += `<span class="tag">BLIND ${s.blind}</span> `;
      if (acting) html += `<span class="tag">TO ACT</span> `;
      if (drawing) html += `<span class="tag">DRAWING</span> `;
      if (s.folded) html += `<span class="tag red">FOLDED</span> `;
      if (s.all_in) html += `<span class="tag red">ALL IN</span> `;
      if (!s.in_hand) html += `<span class="tag blue">OUT</span> `;
      html += `</span></div>`;
      html += `<div class="money">Stack ${money(s.stack)}</div>`;
      if (s.in_hand) {
        html += `<div class="money">Bet ${money(s.bet)} · in pot ${money(s.contributed)}</div>`;
        html += `<div class="cards">${Array.from({ length: s.cards }, (_, i) => `<div class="card blank" data-key="${view.hand}|${s.seat}|${i}" aria-label="card held"></div>`).join("")}</div>`;
      }
      html += `</div>`;
    }
    html += `</div>`;
    html += ratedLine(view, "SEAT");

    // side pots only where an all-in makes one; an uncalled bet nobody left can call
    const pots = view.pots || [];
    const uncalled = view.uncalled || [];
    if (pots.length || uncalled.length) {
      html += `<div class="pots"><strong>POTS</strong> `;
      html += pots.map(([chips, seats], i) => {
        const name = i === 0 ? "Main pot" : `Side pot ${i}`;
        return `<span data-pot="${i}">${name} <strong>${money(chips)}</strong>: seats ${seatList(seats)}</span>`;
      }).concat(uncalled.map(([seat, chips]) =>
        `<span data-uncalled="${seat}">Uncalled (seat ${seat}) <strong>${money(chips)}</strong>: goes back</span>`,
      )).join(" · ");
      html += `</div>`;
    }
    if (action) {
      html += `<div class="panel"><h3>ACTION (${esc(action.rule)})</h3><p>Seat ${action.seat}: ` +
        `${action.can_check ? "may CHECK" : `CALL ${money(action.call)}`}` +
        `${action.can_raise ? ` · ${raiseBy(action)} (rule 11.5)` : " · no raise"}` +
        ` · FOLD</p></div>`;
    }
    const d = view.draw;
    if (d) {
      html += `<div class="panel"><h3>THE DRAW (11.3)</h3><p>`;
      html += d.drawer ? `Seat ${d.drawer} drawing${d.owed != null ? `: ${d.owed} card${d.owed === 1 ? "" : "s"}` : ""}` : "Draw complete";
      html += ` · stub ${d.stub} card${d.stub === 1 ? "" : "s"}`;
      if (d.pile != null) html += ` · reshuffled discards ${d.pile} left`;
      html += `</p>`;
      if (d.discards_by_owner.length) {
        html += `<p>Discards: ${d.discards_by_owner.map(([seat, n]) => `seat ${seat}: ${n}`).join(" · ")}</p>`;
      }
      if (d.reshuffle) {
        const r = d.reshuffle;
        html += `<p><strong>RESHUFFLE (11.3(b))</strong>: only the earlier discards of seats ` +
          `${seatList((r.owners || []).map(([seat, n]) => `${seat} (${n})`))}; ` +
          `NOT seats ${seatList(r.excluded_seats)}</p>`;
      }
      html += `</div>`;
    }
    const sd = view.showdown;
    if (sd) {
      html += `<div class="panel"><h3>SHOWDOWN (11.4(c))</h3><p>Called: seat ${sd.called}. ` +
        `Expose in order: ${seatList(sd.must_expose)}. May muck: ${seatList(sd.may_muck)}.</p>` +
        `<p>${sd.winners.length > 1 ? "Winners: seats" : "Winner: seat"} ${seatList(sd.winners)} with ${esc(sd.winning_hand)}</p>` +
        (view.requests || []).map((r, i) => `<p data-request="${i}">Seat ${r.by_seat} ${asked(r)}</p>`).join("") +
        `</div>`;
    }
    const st = view.settlement;
    if (st) {
      html += `<div class="panel"><h3>${st.void ? "HAND VOID: CHIPS RETURNED" : "POT AWARDS (11.4(d))"}</h3>`;
      for (const award of st.awards || []) {
        html += `<p>${award.pot === 0 ? "Main pot" : `Side pot ${award.pot}`} ${money(award.amount)}: ` +
          `${award.shares.map(([seat, chips]) => `seat ${seat} ${money(chips)}`).join(", ")} (${esc(award.hand)})` +
          `${award.odd_chip ? ` · odd chip ${money(award.odd_chip)} to seat ${award.odd_chip_seat} (highest card by suit)` : ""}</p>`;
      }
      if ((st.returned || []).length) html += `<p>Returned: ${st.returned.map(([seat, c]) => `seat ${seat} ${money(c)}`).join(", ")}</p>`;
      if (st.rake) html += `<p>Rake ${money(st.rake)}</p>`;
      html += `</div>`;
    }
    return html;
  }

  // --- the console ------------------------------------------------------------------------
  function pokerButtons(view) {
    const buttons = [];
    const idle = view.state === "waiting" || view.state === "complete";
    buttons.push({ name: "next", label: "NEXT HAND", lit: idle && !view.hold, body: { button: "next" } });
    const a = view.action;
    if (a) {
      const seat = a.seat;
      if (a.can_check) buttons.push({ name: "check", label: `CHECK (seat ${seat})`, lit: true, body: { action: "check", args: { seat } } });
      else buttons.push({ name: "call", label: `CALL ${money(a.call)}`, lit: true, body: { action: "call", args: { seat } } });
      buttons.push({ name: "raise", label: "RAISE", lit: a.can_raise, raise: a, body: null });
      buttons.push({ name: "fold", label: "FOLD", lit: a.can_fold, cls: "danger", body: { action: "fold", args: { seat } } });
    }
    const d = view.draw;
    if (d && d.drawer && d.owed == null) {
      for (let n = 0; n <= 5; n += 1) {
        buttons.push({ name: `draw${n}`, label: n ? `DRAWS ${n}` : "STANDS PAT", lit: true, body: { action: "discard", args: { seat: d.drawer, count: n } } });
      }
    }
    const shown = view.showdown_seats || [];  // 11.4(c): a player asks to see hands
    if (shown.length && !view.hold) {
      buttons.push({ name: "see_all", label: "SEE ALL HANDS (11.4(c))", lit: false, request: { seat: null } });
      for (const seat of (view.showdown && view.showdown.may_muck) || []) {
        buttons.push({ name: `see${seat}`, label: `SEE SEAT ${seat}`, lit: false, request: { seat } });
      }
    }
    return buttons.concat(ratingButtons(view, (view.seats || []).map((s) => s.seat), "SEAT"));
  }


  // --- the players' board (controller/poker/board.py decides its facts) ------------------
  // The table notice of 11.5(a) (in the board's frame), the blinds, the button, the pot and
  // each seat's place in the hand: how many cards it holds, never which (11.3(a)).
  const PLAYERS_WORDS = {
    en: {
      title: "Draw poker", blinds: "BLINDS", button: "BUTTON", seat: (n) => `SEAT ${n}`, hand: (n) => `HAND ${n}`,
      pot: "POT", folded: "FOLDED", allIn: "ALL IN", toAct: "TO ACT", blind: (n) => (n === 1 ? "SMALL BLIND" : n === 2 ? "BIG BLIND" : `BLIND ${n}`),
      notice: "The table limits are the minimum and maximum wager (rule 11.5(a))",
      phase: {
        waiting: "WAITING FOR PLAYERS", button_placed: "BUTTON PLACED", dealing: "DEALING", first_round: "FIRST BETTING ROUND",
        drawing: "THE DRAW", final_round: "FINAL BETTING ROUND", showdown: "SHOWDOWN", complete: "HAND OVER", hold: "PLEASE WAIT",
      },
    },
    "zh-Hans": {
      title: "换牌扑克", blinds: "盲注", button: "庄位", seat: (n) => `${n} 号座`, hand: (n) => `第 ${n} 手`,
      pot: "底池", folded: "弃牌", allIn: "全押", toAct: "行动中", blind: (n) => (n === 1 ? "小盲" : n === 2 ? "大盲" : `盲注 ${n}`),
      notice: "投注限额即每注最低及最高金额（规则 11.5(a)）",
      phase: {
        waiting: "等待玩家", button_placed: "庄位已定", dealing: "发牌中", first_round: "第一轮下注",
        drawing: "换牌", final_round: "最后一轮下注", showdown: "摊牌", complete: "本手结束", hold: "请稍候",
      },
    },
  };
  const PLAYERS_CSS = `
    .pb-pk { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; gap: calc(var(--u) * 1.6); }
    .pb-pk .facts { display: grid; grid-template-columns: minmax(0, 2fr) repeat(3, minmax(0, 1fr)); gap: calc(var(--u) * 1.2); text-align: center; }
    .pb-pk .facts .panel b { display: block; font-size: 2em; white-space: nowrap; }
    .pb-pk .facts .panel b[data-phase] { font-size: 1.6em; line-height: 1.5; }
    .pb-pk .facts .panel span { color: var(--accent); font-weight: 800; font-size: 0.85em; }
    .pb-pk .notice { text-align: center; font-size: 0.9em; }
    .pb-pk .seats { flex: 1; display: grid; grid-template-columns: repeat(auto-fit, minmax(calc(var(--u) * 24), 1fr)); gap: calc(var(--u) * 1.6); align-content: center; }
    .pb-pk .seat { text-align: center; border: calc(var(--u) * 0.4) solid var(--line); border-radius: calc(var(--u) * 1.2);
      padding: calc(var(--u) * 1); background: rgba(0,0,0,0.3); display: flex; flex-direction: column; gap: calc(var(--u) * 0.6); align-items: center; }
    .pb-pk .seat b { font-size: 1.6em; }
    .pb-pk .seat .tags { min-height: 1.4em; display: flex; flex-wrap: wrap; gap: 0.3em; justify-content: center; }
    .pb-pk .seat.acting { border-color: var(--accent); box-shadow: 0 0 0 calc(var(--u) * 0.4) var(--accent); }
    .pb-pk .seat.folded { opacity: 0.45; border-style: dotted; }
    .pb-pk .seat .tag { font-size: 0.75em; font-weight: 900; padding: 0 0.4em; border-radius: calc(var(--u) * 0.5); background: var(--accent); color: #000; }
    .pb-pk .seat .backs { display: flex; min-height: calc(var(--u) * 9); padding-left: calc(var(--u) * 2.6); }
    .pb-pk .seat .back { margin-left: calc(var(--u) * -2.6); width: calc(var(--u) * 5.4); height: calc(var(--u) * 7.6); box-shadow: calc(var(--u) * -0.3) 0 calc(var(--u) * 0.6) rgba(0,0,0,0.5); border-radius: calc(var(--u) * 0.4); border: 2px solid #fff;
      background: repeating-linear-gradient(45deg, #24466b 0 6px, #1a3552 6px 12px); }
    @media (orientation: portrait) { .pb-pk .facts { grid-template-columns: repeat(3, minmax(0, 1fr)); } .pb-pk .facts .panel:first-child { grid-column: 1 / -1; } }
  `;

  function playersSheet() {
    if (document.adoptedStyleSheets.some((s) => s.tablectlPokerPlayers)) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(PLAYERS_CSS);
    sheet.tablectlPokerPlayers = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  function players(facts, language) {
    playersSheet();
    const w = PLAYERS_WORDS[language] || PLAYERS_WORDS.en;
    const blinds = (facts.stakes || []).map((b) => money(b)).join(" / ");
    const seats = (facts.seats || []).map((s) => {
      const tags = [];
      if (s.seat === facts.button) tags.push(`<span class="tag" data-button>${esc(w.button)}</span>`);
      if (s.blind) tags.push(`<span class="tag">${esc(w.blind(s.blind))}</span>`);
      if (s.all_in) tags.push(`<span class="tag">${esc(w.allIn)}</span>`);
      if (s.folded) tags.push(`<span class="tag">${esc(w.folded)}</span>`);
      if (s.seat === facts.to_act) tags.push(`<span class="tag">${esc(w.toAct)}</span>`);
      const backs = s.folded ? "" : Array.from({ length: s.cards || 0 }, () => `<span class="back" data-back></span>`).join("");
      const cls = `seat${s.folded ? " folded" : ""}${s.seat === facts.to_act ? " acting" : ""}`;
      return `<div class="${cls}" data-seat="${esc(s.seat)}"><b>${esc(w.seat(s.seat))}</b><div class="backs">${backs}</div><div class="tags">${tags.join("")}</div></div>`;
    }).join("");
    const phase = w.phase[facts.phase] || "";
    return (
      `<div class="pb-pk"><div class="facts">` +
      `<div class="panel"><span>${esc(w.hand(facts.hand ?? ""))}</span><b data-phase="${esc(facts.phase)}">${esc(phase)}</b></div>` +
      `<div class="panel"><span>${esc(w.blinds)}</span><b data-blinds>${esc(blinds)}</b></div>` +
      `<div class="panel"><span>${esc(w.button)}</span><b data-button-seat>${esc(facts.button == null ? "–" : w.seat(facts.button))}</b></div>` +
      `<div class="panel"><span>${esc(w.pot)}</span><b data-pot>${esc(money(facts.pot))}</b></div></div>` +
      `<div class="notice">${esc(w.notice)}</div><div class="seats">${seats}</div></div>`
    );
  }

  window.tablectl = window.tablectl || {};
  window.tablectl.renderers = window.tablectl.renderers || {};
  window.tablectl.renderers.poker = {
    view: (state, view) => pokerView(view), next: pokerNext, buttons: pokerButtons,
    players, title: (language) => (PLAYERS_WORDS[language] || PLAYERS_WORDS.en).title,
  };
})();
