// Baccarat's drawing for the status page, shipped in the game's folder and served at
// /game.js for a baccarat table (GameSpec.page_script; controller/app/console/game_page.py), so the
// app's page names no game. It registers window.tablectl.renderers.baccarat, which app.js
// calls with each state: the hands with their totals and the card due (the NEXT line says
// which, with the rule), the five scoreboards drawn from view.roads
// (controller/baccarat/roads.py: bead plate, big road, big eye boy, small road, cockroach
// pig), and each box's wagers, settlement and commission account (rule 5.10(b)). The pit
// view loads the same script (/game/<name>.js) and shows a picked table's board().
//
// The scoreboards are inline SVG (no image to fetch; colours as SVG attributes, which the
// page's Content-Security-Policy allows); the layout rules go in a constructed style sheet
// (CSSOM, also allowed: no inline style). Colour is never the only signal: every bead
// carries its letter, and every mark has a data-mark naming it.
"use strict";

(() => {
  // the status page's faces (static/faces.js); the pit has none and needs only the board,
  // which cites no rule
  const plain = (value) => String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const { esc, money, cardFace, cite, ratedTag, ratedLine, ratingButtons } = window.TableFaces || {
    esc: plain,
    money: (n) => `$${Number(n || 0)}`,
    cardFace: (text) => `<span class="card-text">${plain(text)}</span>`,
    ratedTag: () => "",
    ratedLine: () => "",
    ratingButtons: () => [],
  };
  const RED = "#e53935";
  const BLUE = "#1e88e5";
  const GREEN = "#43a047";
  const COLOUR = { banker: RED, player: BLUE, tie: GREEN, red: RED, blue: BLUE };
  const LETTER = { banker: "B", player: "P", tie: "T" };
  const BETS = { player: "PLAYER", banker: "BANKER", tie: "TIE", player_pair: "P PAIR", banker_pair: "B PAIR" };
  const ROWS = 6;
  // the scoreboard in SVG units: a big cell is 20, a derived road's cell 10
  const BIG = 20;
  const SMALL = 10;
  const GAP = 8;
  const LABEL = 11;
  // how many columns each road shows: the table's screen, and the pit's narrow side panel
  function layout(bead, road) {
    const width = bead * BIG + GAP + road * BIG;
    const derivedW = (width - 2 * GAP) / 3;
    return { bead, road, width, derivedW, derived: Math.floor(derivedW / SMALL) };
  }
  const TABLE = layout(12, 26);
  const PIT = layout(6, 14);

  const CSS = `
    .bac-hands { display: flex; flex-wrap: wrap; gap: calc(var(--u) * 1.2); align-items: stretch; }
    .bac-hand { display: flex; align-items: center; gap: calc(var(--u) * 1); padding: calc(var(--u) * 0.5) calc(var(--u) * 1);
      border: 3px solid var(--line); border-radius: 10px; background: rgba(0,0,0,0.25); }
    .bac-hand.player { border-color: ${BLUE}; }
    .bac-hand.banker { border-color: ${RED}; }
    .bac-hand.due { border: 5px dashed var(--amber); }
    .bac-hand.won { box-shadow: 0 0 0 4px var(--amber); }
    .bac-hand .cards { min-height: calc(var(--card-w) * 1.4); }
    .bac-result { align-self: center; font-weight: 800; }
    .bac-board { display: block; width: 100%; height: auto; max-height: 38vh; }
    .bac-board-line { font-size: 0.72em; color: var(--dim); display: flex; flex-wrap: wrap; gap: 0 1.2em; }
    .bac-boxes { display: flex; flex-wrap: wrap; gap: calc(var(--u) * 0.8); font-size: 0.8em; }
    .bac-box { border: 2px solid var(--line); border-radius: 8px; padding: calc(var(--u) * 0.4) calc(var(--u) * 0.8);
      background: rgba(0,0,0,0.25); display: flex; flex-wrap: wrap; gap: 0 0.7em; align-items: baseline; }
    .bac-box .collect, .bac-box .owed, .bac-box .push { font-size: 1em; }
    @media (min-height: 900px) { .bac-board { max-height: 46vh; } }
  `;
  if (!document.adoptedStyleSheets.some((s) => s.tablectlBaccarat)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    sheet.tablectlBaccarat = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  // --- hands ------------------------------------------------------------------------------
  function hand(view, side) {
    const h = view[side] || { cards: [] };
    const result = view.result;
    const won = result && result.winner === side;
    const cls = `bac-hand ${side}${h.due ? " due" : ""}${won ? " won" : ""}`;
    const cards = (h.cards || []).map((c, i) => cardFace(c, `${view.coup}|${side}|${i}|${c}`)).join("");
    const total = h.total == null ? "" : String(h.total);
    return (
      `<div class="${cls}" data-hand="${side}"><span class="who">${side.toUpperCase()}</span>` +
      `<div class="cards">${cards}</div><span class="total" data-total="${esc(total)}">${esc(total)}</span>` +
      `${h.due ? `<span class="tag">CARD DUE</span>` : ""}${won ? `<span class="tag">WINS</span>` : ""}</div>`
    );
  }

  function resultLine(view) {
    const r = view.result;
    if (!r) return "";
    const words = r.winner === "tie"
      ? `TIE ${r.player_total} to ${r.banker_total}`
      : `${r.winner.toUpperCase()} WINS ${Math.max(r.player_total, r.banker_total)} to ${Math.min(r.player_total, r.banker_total)}`;
    const extra = [r.natural ? "natural" : "", r.player_pair ? "Player pair" : "", r.banker_pair ? "Banker pair" : ""].filter(Boolean);
    return `<div class="bac-result" data-result="${esc(r.winner)}">${esc(words)}${extra.length ? ` · ${esc(extra.join(" · "))}` : ""}</div>`;
  }

  // --- scoreboards ------------------------------------------------------------------------
  // The last `cols` columns of a road (the board scrolls: the newest is at the right).
  function lastColumns(road, cols) {
    const grid = (road && road.grid) || [];
    const from = Math.max(0, grid.length - cols);
    return { grid: grid.slice(from), from };
  }

  function frame(x, y, cols, size, name, label, body, total) {
    const w = cols * size;
    const h = ROWS * size;
    let lines = "";
    for (let c = 0; c <= cols; c += 1) lines += `<line x1="${c * size}" y1="0" x2="${c * size}" y2="${h}"/>`;
    for (let r = 0; r <= ROWS; r += 1) lines += `<line x1="0" y1="${r * size}" x2="${w}" y2="${r * size}"/>`;
    return (
      `<g data-road="${name}" data-columns="${total}" transform="translate(${x} ${y})">` +
      `<text x="0" y="-3" font-size="9" fill="#b8c7bd">${esc(label)}</text>` +
      `<rect width="${w}" height="${h}" fill="#fffdf7"/>` +
      `<g stroke="#c9d3cc" stroke-width="0.6">${lines}</g>${body}</g>`
    );
  }

  function pairDots(cell, size, x, y) {
    let dots = "";
    const d = size * 0.14;
    if (cell.banker_pair) dots += `<circle data-pair="banker" cx="${x + d * 1.4}" cy="${y + d * 1.4}" r="${d}" fill="${RED}" stroke="#fff" stroke-width="0.8"/>`;
    if (cell.player_pair) dots += `<circle data-pair="player" cx="${x + size - d * 1.4}" cy="${y + size - d * 1.4}" r="${d}" fill="${BLUE}" stroke="#fff" stroke-width="0.8"/>`;
    return dots;
  }

  function beadPlate(road, L) {
    const { grid, from } = lastColumns(road, L.bead);
    let body = "";
    grid.forEach((column, c) => column.forEach((cell, r) => {
      if (!cell) return;
      const x = c * BIG;
      const y = r * BIG;
      body += `<g data-mark="${cell.winner}" data-cell="${from + c},${r}">` +
        `<circle cx="${x + BIG / 2}" cy="${y + BIG / 2}" r="${BIG * 0.42}" fill="${COLOUR[cell.winner]}"/>` +
        `<text x="${x + BIG / 2}" y="${y + BIG / 2 + 4}" font-size="11" font-weight="700" text-anchor="middle" fill="#fff">${LETTER[cell.winner]}</text>` +
        `${pairDots(cell, BIG, x, y)}</g>`;
    }));
    return frame(0, LABEL, L.bead, BIG, "bead_plate", "BEAD PLATE", body, (road && road.columns) || 0);
  }

  function bigRoad(road, L) {
    const { grid, from } = lastColumns(road, L.road);
    let body = "";
    grid.forEach((column, c) => column.forEach((cell, r) => {
      if (!cell) return;
      const x = c * BIG;
      const y = r * BIG;
      const mark = cell.winner || "tie";
      let g = cell.winner
        ? `<circle cx="${x + BIG / 2}" cy="${y + BIG / 2}" r="${BIG * 0.36}" fill="none" stroke="${COLOUR[cell.winner]}" stroke-width="3"/>`
        : "";
      if (cell.ties) {
        g += `<line data-ties="${cell.ties}" x1="${x + 4}" y1="${y + BIG - 4}" x2="${x + BIG - 4}" y2="${y + 4}" stroke="${GREEN}" stroke-width="2.5"/>`;
        if (cell.ties > 1) g += `<text x="${x + BIG / 2}" y="${y + BIG / 2 + 3.5}" font-size="9" font-weight="700" text-anchor="middle" fill="#1b5e20">${cell.ties}</text>`;
      }
      body += `<g data-mark="${mark}" data-cell="${from + c},${r}">${g}${pairDots(cell, BIG, x, y)}</g>`;
    }));
    return frame(L.bead * BIG + GAP, LABEL, L.road, BIG, "big_road", "BIG ROAD", body, (road && road.columns) || 0);
  }

  // big eye boy: hollow circles; small road: filled circles; cockroach pig: strokes
  function derived(road, name, label, index, L) {
    const { grid, from } = lastColumns(road, L.derived);
    let body = "";
    grid.forEach((column, c) => column.forEach((mark, r) => {
      if (!mark) return;
      const x = c * SMALL;
      const y = r * SMALL;
      const colour = COLOUR[mark];
      let shape;
      if (name === "big_eye_boy") shape = `<circle cx="${x + 5}" cy="${y + 5}" r="3.4" fill="none" stroke="${colour}" stroke-width="1.8"/>`;
      else if (name === "small_road") shape = `<circle cx="${x + 5}" cy="${y + 5}" r="3.8" fill="${colour}"/>`;
      else shape = `<line x1="${x + 2}" y1="${y + 8}" x2="${x + 8}" y2="${y + 2}" stroke="${colour}" stroke-width="2.2"/>`;
      body += `<g data-mark="${mark}" data-cell="${from + c},${r}">${shape}</g>`;
    }));
    const x = index * (L.derivedW + GAP);
    const y = LABEL + ROWS * BIG + LABEL + 2;
    return frame(x, y, L.derived, SMALL, name, label, body, (road && road.columns) || 0);
  }

  function board(roads, L = TABLE) {
    const height = LABEL + ROWS * BIG + LABEL + 2 + ROWS * SMALL + 1;
    return (
      `<svg class="bac-board" viewBox="0 0 ${L.width} ${height}" preserveAspectRatio="xMinYMin meet" role="img" ` +
      `aria-label="scoreboards: bead plate, big road, big eye boy, small road, cockroach pig">` +
      beadPlate(roads.bead_plate, L) + bigRoad(roads.big_road, L) +
      derived(roads.big_eye_boy, "big_eye_boy", "BIG EYE BOY", 0, L) +
      derived(roads.small_road, "small_road", "SMALL ROAD", 1, L) +
      derived(roads.cockroach_pig, "cockroach_pig", "COCKROACH PIG", 2, L) +
      `</svg>`
    );
  }

  function boardLine(roads, shoe, rules) {
    const n = roads.counts || {};
    const parts = [
      `<span data-counts>Banker ${n.banker || 0} · Player ${n.player || 0} · Tie ${n.tie || 0} · ` +
        `P pair ${n.player_pair || 0} · B pair ${n.banker_pair || 0}</span>`,
    ];
    const ask = roads.ask || {};
    const words = (side) => ["big_eye_boy", "small_road", "cockroach_pig"]
      .map((k) => (ask[side] && ask[side][k]) || "–").join(" ");
    if (ask.banker) parts.push(`<span data-ask="banker">Banker next: ${esc(words("banker"))}</span>`);
    if (ask.player) parts.push(`<span data-ask="player">Player next: ${esc(words("player"))}</span>`);
    if (shoe) {
      const cut = shoe.cut_card_out ? ` · CUT CARD OUT: last coup ${shoe.last_coup}` : "";
      const style = rules && rules.dealing_style === "B" ? " · Dealing Style B: seated Player and Banker handle the hands" : "";
      parts.push(`<span data-dealing-style="${esc((rules && rules.dealing_style) || "A")}">Shoe ${esc(shoe.number)} · ${esc(shoe.decks)} decks · coup ${esc(shoe.coups)}${esc(cut)}${esc(style)}</span>`);
    }
    return `<div class="bac-board-line">${parts.join("")}</div>`;
  }

  // --- boxes: wagers, what each is paid or loses, the commission account -----------------
  const hundredths = (n) => `$${(Number(n || 0) / 100).toFixed(2)}`;

  function payoutText(p) {
    const name = BETS[p.bet] || p.bet;
    if (p.outcome === "win") return `<span class="owed">${name}: PAY ${money(p.won)}</span>`;
    if (p.outcome === "lose") return `<span class="collect">${name}: TAKE ${money(p.lost)}</span>`;
    if (p.outcome === "push") return `<span class="push">${name}: PUSH</span>`;
    return `<span class="push">${name}: VOID, RETURN ${money(p.returned)}</span>`;
  }

  function boxes(view) {
    const list = view.boxes || [];
    if (!list.length) return `<div class="bac-boxes"><span class="muted">No wagers on the layout.</span></div>`;
    const rule = cite((view.rules || {}).commission_rule || "5.10(b)");
    return `<div class="bac-boxes">` + list.map((box) => {
      const bets = Object.entries(box.bets || {})
        .map(([bet, amount]) => `<span data-bet="${esc(bet)}">${esc(BETS[bet] || bet)} ${money(amount)}</span>`).join("");
      const paid = (box.payouts || []).map(payoutText).join("");
      const owed = box.commission_owed
        ? `<span class="collect" data-commission="${box.commission_owed}">COMMISSION ${hundredths(box.commission_owed)}: ` +
          `collect ${money(box.commission_to_collect)} (${esc(rule)})</span>`
        : "";
      const wrong = box.mismatch
        ? `<span class="tag red">PAYOUT MISMATCH</span><span class="collect mismatch">${esc(box.mismatch)}</span>`
        : "";
      return `<div class="bac-box" data-box="${box.number}"><strong>BOX ${box.number}</strong>${ratedTag(view, box.number)}${bets}${paid}${owed}${wrong}</div>`;
    }).join("") + `</div>`;
  }

  function drawView(state, view) {
    const roads = view.roads || {};
    return (
      `<div class="bac-hands">${hand(view, "player")}${hand(view, "banker")}${resultLine(view)}</div>` +
      board(roads) + boardLine(roads, view.shoe, view.rules) + boxes(view) + ratedLine(view)
    );
  }

  // --- the console ------------------------------------------------------------------------
  function buttons(view) {
    const b = view.buttons || {};
    const list = [
      { name: "no_more_bets", label: "NO MORE BETS", lit: Boolean(b.no_more_bets), body: { button: "no_more_bets" } },
      b.shuffled
        ? { name: "shuffled", label: "SHUFFLED", lit: true, body: { action: "shuffled", args: {} } }
        : { name: "next", label: "NEXT", lit: Boolean(b.next), body: { button: "next" } },
    ];
    for (const box of view.boxes || []) {
      if (box.commission_owed) {
        list.push({
          name: `collect${box.number}`, label: `COLLECT BOX ${box.number}`, lit: false,
          body: { action: "collect_commission", args: { box: box.number } },
        });
      }
    }
    list.push({ name: "void_hand", label: "VOID COUP", lit: false, cls: "danger", body: { button: "void_hand" } });
    return list.concat(ratingButtons(view, (view.boxes || []).map((box) => box.number)));
  }

  // The HOLD banner: the first violation with the rule it cites.
  function hold(view) {
    if (view.state !== "hold") return "";
    const v = (view.violations || [])[0];
    if (!v) return "the table is on hold: a supervisor must clear it";
    return `${cite(v.rule)}: ${v.message}${v.card ? ` (card ${v.card})` : ""}: a supervisor must clear the table`;
  }

  window.tablectl = window.tablectl || {};
  window.tablectl.renderers = window.tablectl.renderers || {};
  // the pit's picked table (controller/app/floor/boards.py): the scoreboards alone
  const pitBoard = (view) => board(view.roads || {}, PIT) + boardLine(view.roads || {}, view.shoe, view.rules);
  window.tablectl.renderers.baccarat = { view: drawView, buttons, hold, board: pitBoard };
})();
