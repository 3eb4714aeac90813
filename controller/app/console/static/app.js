// The table's status display and touch console (docs/display.md).
//
// One Server-Sent Events stream (/api/events) brings the controller's state after every
// event; the page renders it and never invents state of its own. If nothing (a state or a
// ping, sent every 0.5 s) is heard for WATCHDOG_MS, or the stream fails, the page says
// DISCONNECTED at once, greys out what it shows, and keeps reconnecting by itself.
//
// The page holds no secret: it is the table's console because the kiosk opened the console
// URL once, which set an HttpOnly cookie the page cannot read (docs/security.md). Every
// write it makes is a same-origin JSON POST with the X-Tablectl-Console header. Dealer
// sign-in and supervisor actions send the staff id and the PIN as typed to the server,
// which checks them against the [[staff]] hashes in the table config and counts wrong ones.
"use strict";

(() => {
  const MODE = document.body.dataset.mode; // "dealer" or "surveillance"
  const WATCHDOG_MS = 1500;
  const CONNECT_TIMEOUT_MS = 2000;
  const $ = (id) => document.getElementById(id);
  // "rule 9.5" for a clause of the rules; a named reason that is not one ("table
  // variant", "hold procedure") as it is (controller/game/records.py, cite)
  const cite = (rule) => (/^[0-9]/.test(rule || "") ? `rule ${rule}` : String(rule || ""));

  // For the browser tests and bench/page_latency.py: what was shown, and when each card
  // face was first rendered (epoch milliseconds, high resolution, at the next frame).
  const page = { state: null, states: 0, cards: [], connected: false };
  window.tablePage = page;

  const { esc, money, seatList, cardFace, totalText } = window.TableFaces;

  // --- connection ---------------------------------------------------------------------
  let source = null;
  let lastHeard = 0;
  let connectStarted = 0;
  let retryTimer = null;
  let backoff = 250;

  function setConnected(live) {
    page.connected = live;
    document.body.dataset.conn = live ? "live" : "disconnected";
    $("conn").textContent = live ? "LIVE" : "DISCONNECTED";
    $("disconnected").hidden = live;
  }

  function heard() {
    lastHeard = performance.now();
    backoff = 250;
    if (!page.connected) setConnected(true);
  }

  function drop() {
    if (source) source.close();
    source = null;
    setConnected(false);
    if (retryTimer === null) {
      retryTimer = setTimeout(() => { retryTimer = null; connect(); }, backoff);
      backoff = Math.min(backoff * 2, 1000);
    }
  }

  function connect() {
    if (source) source.close();
    connectStarted = performance.now();
    source = new EventSource("/api/events");
    source.addEventListener("state", (event) => {
      heard();
      render(JSON.parse(event.data));
    });
    source.addEventListener("ping", heard);
    source.onerror = drop;
  }

  setInterval(() => {
    const now = performance.now();
    if (page.connected && now - lastHeard > WATCHDOG_MS) drop();
    else if (!page.connected && source && now - connectStarted > CONNECT_TIMEOUT_MS) drop();
  }, 200);

  // --- rendering ----------------------------------------------------------------------
  function render(state) {
    page.state = state;
    page.states += 1;
    const view = state.view || {};
    const body = document.body;
    body.dataset.game = state.game || "";
    body.dataset.state = view.state || "";
    $("table-name").textContent = `${state.table || "table"} · ${(state.game || "").toUpperCase()}`;
    $("sim").hidden = !state.simulated;
    const demoPins = state.demo_pins || []; // staff still on the README's demo PINs
    $("demo-pins").hidden = !demoPins.length;
    $("demo-pins").textContent = `DEMO PINS: ${demoPins.join(", ")}`;
    $("demo-pins").title = "These staff sign in with the demo PINs the README prints: give each a PIN of their own (tablectl pin-hash)";
    $("round").textContent = `${String(view.round_word || "round").toUpperCase()} ${state.round ?? ""}`;
    $("phase").textContent = String(view.state || "").replace(/_/g, " ").toUpperCase();
    const limits = state.limits || {};
    $("limits").textContent = `LIMITS ${money(limits.minimum)}–${money(limits.maximum)}`;
    $("recovered").hidden = !state.recovered;

    const hold = holdOf(state);
    body.dataset.hold = hold ? "1" : "0";
    $("hold").hidden = !hold;
    $("hold-text").textContent = hold || "";

    const before = new Set(Array.from(document.querySelectorAll("#view .card[data-key]"), (el) => el.dataset.key));
    // the game's view says which of the page's drawings it needs (its GameSpec's
    // renderer); a game without one of its own is shown as its view's plain facts
    const drawn = view.renderer || "";
    const own = gameDrawing(drawn);
    if (own) {
      $("next-text").textContent = own.next ? own.next(view) : (view.next_action || "");
      $("view").innerHTML = own.view(state, view);
    } else if (drawn === "poker") {
      $("next-text").textContent = pokerNext(view);
      $("view").innerHTML = pokerView(view);
    } else if (drawn === "blackjack") {
      $("next-text").textContent = view.next_action || "";
      $("view").innerHTML = blackjackView(state, view);
    } else {
      $("next-text").textContent = view.next_action || "";
      $("view").innerHTML = genericView(view);
    }
    noteNewCards(before);
    $("notices").innerHTML = notices(state);
    const line = $("journal-line");
    if (line) line.textContent = `journal row ${state.journal_seq} · ${state.events_processed} events since start`;
    if (MODE === "dealer") {
      renderDealer(state);
      renderConsole(state, view);
    }
  }

  // A game's own drawing, from its folder (/game.js, controller/app/console/game_page.py): it
  // registers window.tablectl.renderers[<its renderer>] = { view(state, view) -> HTML,
  // next(view) -> the NEXT line, buttons(view) -> console buttons, hold(view) -> the HOLD
  // banner's text ("" when not on HOLD); each optional }.
  function gameDrawing(name) {
    const own = ((window.tablectl || {}).renderers || {})[name];
    return name && own && typeof own.view === "function" ? own : null;
  }

  function noteNewCards(before) {
    const fresh = [];
    for (const el of document.querySelectorAll("#view .card[data-key]")) {
      if (!before.has(el.dataset.key)) fresh.push(el.dataset.key);
    }
    if (!fresh.length) return;
    const dom = performance.timeOrigin + performance.now();
    requestAnimationFrame(() => {
      const frame = performance.timeOrigin + performance.now();
      for (const key of fresh) page.cards.push({ key, dom, frame });
    });
  }

  function holdOf(state) {
    const view = state.view || {};
    const own = gameDrawing(view.renderer || "");
    if (own && own.hold) return own.hold(view);  // the game's own words for its HOLD
    if (typeof view.hold_text !== "string") {  // a view without its own HOLD banner text
      const h = Array.isArray(view.hold) ? view.hold[0] : view.hold;
      return h ? `${cite(h.rule)}: ${h.message}${h.card ? ` (card ${h.card})` : ""}: a supervisor must clear the table` : "";
    }
    const holds = view.hold || [];
    if (!holds.length && view.state !== "hold") return "";
    // each violation once, with who raised it (the view groups them)
    const text = view.hold_text || holds.map((v) => `${cite(v.rule)}: ${v.message}`).join("; ");
    return text || "the table is on hold";
  }

  function notices(state) {
    const items = (state.notices || []).slice(-2).reverse();
    const devices = Object.entries(state.devices || {}).filter(([, s]) => s !== "ok");
    const lines = devices.map(([name, s]) => `<p><strong>${esc(name.toUpperCase())}</strong> ${esc(s)}</p>`);
    for (const n of items) {
      if (n.type === "ActionRefused") {
        lines.push(`<p>REFUSED ${esc(n.action)}${n.rule ? ` (${esc(cite(n.rule))})` : ""}: ${esc(n.reason)}</p>`);
      } else if (n.type === "DeviceLost") {
        lines.push(`<p>DEVICE LOST ${esc(n.source)}: ${esc(n.reason)}</p>`);
      } else if (n.type === "DeviceFault") {
        lines.push(`<p>DEVICE FAULT ${esc(n.source)}: ${esc(n.fault)}</p>`);
      } else if (n.type === "ControllerFault") {
        lines.push(`<p>CONTROLLER FAULT on ${esc(n.event)}: ${esc(n.error)}</p>`);
      }
    }
    return lines.join("");
  }

  // --- a game the page has no drawing of: its view's facts, as they are ----------------
  function genericView(view) {
    const rows = Object.entries(view)
      .filter(([k]) => !["renderer", "round_word", "decisions", "state"].includes(k))
      .map(([k, v]) => `<tr><th>${esc(k.replace(/_/g, " "))}</th><td>${esc(typeof v === "string" ? v : JSON.stringify(v))}</td></tr>`);
    return `<div class="panel"><table class="facts">${rows.join("")}</table></div>`;
  }

  // --- blackjack ----------------------------------------------------------------------
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

  // --- poker --------------------------------------------------------------------------
  function pokerNext(view) {
    if (view.hold) return `HOLD (${cite(view.hold.rule)}): a supervisor must clear the table`;
    const a = view.action;
    if (a) {
      const call = a.can_check ? "CHECK" : `CALL ${money(a.call)}`;
      const raise = a.can_raise ? ` · RAISE ${money(a.raise_min)} to ${money(a.raise_max)} (11.5)` : "";
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
        `${action.can_raise ? ` · RAISE ${money(action.raise_min)} to ${money(action.raise_max)} (rule 11.5)` : " · no raise"}` +
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

  // --- console (dealer page only) -----------------------------------------------------
  let consoleKey = "";
  let raiseBy = null;

  function blackjackButtons(view) {
    const b = view.buttons || {};
    const s = view.state;
    // dark while the chips disagree with a payout (rule 4.1): NEXT is refused
    const nextLit = b.next !== false && (Boolean(b.stand) || /press NEXT/.test(view.next_action || "") ||
      /^Pay box/.test(view.next_action || ""));
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
        : { body: { button: name }, label, lit, cls, name }));
  }

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
    return buttons;
  }

  function renderConsole(state, view) {
    const drawn = view.renderer || "";
    const own = gameDrawing(drawn);
    const buttons = own ? (own.buttons ? own.buttons(view) : []) : drawn === "poker" ? pokerButtons(view) : drawn === "blackjack" ? blackjackButtons(view) : [];
    const key = JSON.stringify(buttons.map((b) => [b.name, b.label, b.lit, b.raise ? [b.raise.seat, b.raise.raise_min, b.raise.raise_max] : 0]));
    if (key === consoleKey) return;
    consoleKey = key;
    const host = $("buttons");
    host.textContent = "";
    for (const b of buttons) {
      if (b.raise) {
        const a = b.raise;
        if (raiseBy === null || raiseBy < a.raise_min || raiseBy > a.raise_max) raiseBy = a.raise_min;
        const input = document.createElement("input");
        input.type = "number";
        input.min = a.raise_min;
        input.max = a.raise_max;
        input.value = raiseBy;
        input.id = "raise-by";
        input.setAttribute("aria-label", "raise by");
        input.addEventListener("change", () => { raiseBy = Number(input.value); });
        host.append(input);
        b.body = null;
        b.onPress = () => send({ action: "raise_", args: { seat: a.seat, amount: Number(input.value) } });
      }
      if (b.request) {
        let input = $("asked-by");
        if (!input) {
          input = document.createElement("input");
          input.type = "number";
          input.min = 1;
          input.id = "asked-by";
          input.placeholder = "asked by seat";
          input.setAttribute("aria-label", "asked by seat");
          host.append(input);
        }
        const seat = b.request.seat;
        b.onPress = () => send({
          action: "request_to_see",
          args: seat ? { by_seat: Number(input.value), seat } : { by_seat: Number(input.value) },
        });
      }
      const el = document.createElement("button");
      el.type = "button";
      el.textContent = b.label;
      el.dataset.button = b.name;
      el.dataset.lit = String(Boolean(b.lit));
      el.setAttribute("aria-description", b.lit ? "allowed now" : "not expected now");
      if (b.cls) el.classList.add(b.cls);
      el.addEventListener("click", b.onPress || (() => send(b.body)));
      host.append(el);
    }
  }

  // Every write: same origin, JSON, the console header; the cookie goes by itself.
  function post(path, body) {
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Tablectl-Console": "1" },
      body: JSON.stringify(body),
    });
  }

  async function send(body) {
    try {
      const response = await post("/api/console", body);
      if (!response.ok) {
        const answer = await response.json().catch(() => ({}));
        $("notices").insertAdjacentHTML("afterbegin", `<p>CONSOLE: ${esc(answer.error || response.status)}</p>`);
      }
    } catch (err) {
      drop();
    }
  }

  // --- supervisor ---------------------------------------------------------------------
  // The decisions on offer come with the game's view ({decision, text, needs}): the
  // page copies none of them.
  function openSupervisor() {
    const state = page.state || {};
    const dialog = $("sup-dialog");
    const decisions = (state.view && state.view.decisions) || [];
    const box = $("sup-decisions");
    box.querySelectorAll("label").forEach((el) => el.remove());
    decisions.forEach(({ decision: value, text, needs: arg }, i) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "decision";
      input.value = value;
      input.checked = i === 0;
      input.dataset.needs = arg || "";
      input.addEventListener("change", showDecisionArgs);
      label.append(input, ` ${text}`);
      box.append(label);
    });
    $("sup-box").value = "";
    showDecisionArgs();
    const hold = holdOf(state);
    $("sup-context").textContent = hold ? `HOLD: ${hold}` : "The table is not on HOLD: the rules will refuse a decision now.";
    $("sup-result").textContent = "";
    $("sup-result").className = "";
    $("sup-pin").value = "";
    dialog.showModal();
    fetch("/api/session", { credentials: "same-origin" }).then((r) => r.json()).then((s) => {
      if (!s.console) $("sup-result").textContent = "This screen is not the table's console.";
      else if (!s.supervisors) $("sup-result").textContent = "No supervisor is configured for this table ([[staff]]).";
      else if (s.locked_for > 0) $("sup-result").textContent = `Wait ${Math.ceil(s.locked_for)} s: too many wrong PINs`;
    }).catch(() => {});
  }

  // A decision's own arguments (void_box: which box) come from the fields it needs.
  function showDecisionArgs() {
    const chosen = $("sup-form").querySelector("input[name=decision]:checked");
    const needs = chosen ? chosen.dataset.needs : "";
    $("sup-box-label").hidden = needs !== "box";
  }

  function decisionArgs() {
    const args = {};
    for (const input of $("sup-form").querySelectorAll("[data-arg]")) {
      if (!input.closest("[hidden]") && input.value !== "") args[input.dataset.arg] = Number(input.value);
    }
    return args;
  }

  async function submitSupervisor(event) {
    event.preventDefault();
    const form = $("sup-form");
    const decision = form.querySelector("input[name=decision]:checked");
    const body = {
      staff: $("sup-staff").value.trim(), reason: $("sup-reason").value,
      decision: decision ? decision.value : "", pin: $("sup-pin").value, args: decisionArgs(),
    };
    $("sup-pin").value = ""; // the PIN is not kept in the page
    const result = $("sup-result");
    try {
      const response = await post("/api/supervisor", body);
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        result.textContent = "Accepted: journaled";
        result.className = "ok";
        $("sup-dialog").close();
      } else {
        result.textContent = `REFUSED: ${answer.error || response.status}`;
        result.className = "";
      }
    } catch (err) {
      result.textContent = "REFUSED: the controller is not answering";
    }
  }

  // --- dealer sign-in ------------------------------------------------------------------
  // Who is signed in comes from the published state (the controller journals it and
  // restores it after a restart); the page only asks.
  function renderDealer(state) {
    const dealer = state.dealer;
    const chip = $("dealer");
    if (!chip) return;
    chip.textContent = dealer ? `DEALER ${dealer.name}` : (state.console_locked ? "NO DEALER: SIGN IN" : "NO DEALER");
    chip.title = dealer ? `staff id ${dealer.id}` : "";
    chip.classList.toggle("warn", !dealer && Boolean(state.console_locked));
    document.body.dataset.dealer = dealer ? dealer.id : "";
  }

  // The dealer chip opens the sign-in panel; with a dealer signed in, it asks to sign out.
  function openSignIn() {
    const dealer = (page.state || {}).dealer;
    $("signin-fields").hidden = Boolean(dealer);
    $("signin-submit").hidden = Boolean(dealer);
    $("signout-submit").hidden = !dealer;
    $("signout-text").hidden = !dealer;
    $("signout-text").textContent = dealer ? `Signed in: ${dealer.name} (${dealer.id}). Sign out?` : "";
    $("signin-result").textContent = "";
    $("signin-pin").value = "";
    $("signin-dialog").showModal();
  }

  async function signOut() {
    try {
      const response = await post("/api/signout", {});
      const answer = await response.json().catch(() => ({}));
      if (response.ok) $("signin-dialog").close();
      else $("signin-result").textContent = `REFUSED: ${answer.error || response.status}`;
    } catch (err) {
      $("signin-result").textContent = "REFUSED: the controller is not answering";
    }
  }

  async function submitSignIn(event) {
    event.preventDefault();
    const body = { staff: $("signin-staff").value.trim(), pin: $("signin-pin").value };
    $("signin-pin").value = ""; // the PIN is not kept in the page
    const result = $("signin-result");
    try {
      const response = await post("/api/signin", body);
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        $("signin-staff").value = "";
        $("signin-dialog").close();
      } else {
        result.textContent = `REFUSED: ${answer.error || response.status}`;
      }
    } catch (err) {
      result.textContent = "REFUSED: the controller is not answering";
    }
  }

  function checkConsole() {
    fetch("/api/session", { credentials: "same-origin" }).then((r) => r.json()).then((s) => {
      document.body.dataset.console = s.console ? "1" : "0";
      const chip = $("not-console");
      if (chip) chip.hidden = Boolean(s.console);
    }).catch(() => {});
  }

  if (MODE === "dealer") {
    $("dealer").addEventListener("click", openSignIn);
    $("signin-form").addEventListener("submit", submitSignIn);
    $("signout-submit").addEventListener("click", signOut);
    $("signin-cancel").addEventListener("click", () => { $("signin-pin").value = ""; $("signin-dialog").close(); });
    checkConsole();
    $("sup-open").addEventListener("click", openSupervisor);
    $("sup-form").addEventListener("submit", submitSupervisor);
    $("sup-cancel").addEventListener("click", () => { $("sup-pin").value = ""; $("sup-dialog").close(); });
  }

  connect();
})();
