// Baccarat's drawing for the status page, shipped in the game's folder and served at
// /game.js for a baccarat table (GameSpec.page_script; controller/app/console/game_page.py), so the
// app's page names no game. It registers window.tablectl.renderers.baccarat, which app.js
// calls with each state: the hands with their totals and the card due (the NEXT line says
// which, with the rule), the five scoreboards drawn from view.roads
// (controller/baccarat/roads.py: bead plate, big road, big eye boy, small road, cockroach
// pig), and each box's wagers, settlement and commission account (rule 5.10(b)). The pit
// view loads the same script (/game/<name>.js) and shows a picked table's board(). The
// players' board (/board, controller/app/console/static/board.js) calls players(facts,
// language): the roads, the coup in play, the counts, the asks and the last coups, in
// English or Simplified Chinese.
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


  // --- the players' board (controller/baccarat/board.py decides its facts) ---------------
  // The roads big, the coup in play card by card, the counts, the asks, the last coups;
  // every word in English and Simplified Chinese, as baccarat boards show them.
  const PLAYERS_WORDS = {
    en: {
      title: "Baccarat", banker: "BANKER", player: "PLAYER", tie: "TIE",
      letter: { banker: "B", player: "P", tie: "T" },
      player_pair: "P PAIR", banker_pair: "B PAIR", natural: "NATURAL",
      wins: (side) => `${side} WINS`, tieWins: "TIE",
      coup: (n) => `COUP ${n}`, shoe: (n) => `SHOE ${n}`, place: "PLACE YOUR BETS", noMore: "NO MORE BETS",
      roads: { bead_plate: "BEAD PLATE", big_road: "BIG ROAD", big_eye_boy: "BIG EYE BOY", small_road: "SMALL ROAD", cockroach_pig: "COCKROACH PIG" },
      ask: (side) => `${side} ASK`, last: "LAST COUPS", counts: "THIS SHOE",
    },
    "zh-Hans": {
      title: "百家乐", banker: "庄", player: "闲", tie: "和",
      letter: { banker: "庄", player: "闲", tie: "和" },
      player_pair: "闲对", banker_pair: "庄对", natural: "例牌",
      wins: (side) => `${side}赢`, tieWins: "和局",
      coup: (n) => `第 ${n} 局`, shoe: (n) => `第 ${n} 靴`, place: "请下注", noMore: "停止下注",
      roads: { bead_plate: "珠盘路", big_road: "大路", big_eye_boy: "大眼仔", small_road: "小路", cockroach_pig: "曱甴路" },
      ask: (side) => `${side}问路`, last: "近期结果", counts: "本靴统计",
    },
  };
  const BOARD_COLUMNS = { bead_plate: 7, big_road: 12, derived: 10 };
  const PLAYERS_CSS = `
    .pb-bac { flex: 1 1 auto; min-height: 0; display: grid; gap: calc(var(--u) * 1.6);
      grid-template-columns: minmax(0, 36fr) minmax(0, 64fr); grid-template-rows: auto minmax(0, 1fr);
      grid-template-areas: "coup roads" "stats roads"; }
    .pb-coup { grid-area: coup; }
    .pb-roads { grid-area: roads; display: grid; gap: calc(var(--u) * 1.2); align-content: start;
      grid-template-columns: minmax(0, 7fr) minmax(0, 12fr); }
    .pb-lastrow { grid-column: 1 / -1; }
    .pb-derived { grid-column: 1 / -1; display: grid; gap: calc(var(--u) * 1.2); grid-template-columns: repeat(3, minmax(0, 1fr)); }
    .pb-stats { grid-area: stats; display: flex; flex-direction: column; gap: calc(var(--u) * 1.2); }
    .pb-road svg { display: block; width: 100%; height: auto; border-radius: calc(var(--u) * 0.5); }
    .pb-road .heading { font-size: 0.8em; }
    .pb-hands { display: flex; flex-direction: column; gap: calc(var(--u) * 1); }
    .pb-hand { display: flex; align-items: center; gap: calc(var(--u) * 1.2); padding: calc(var(--u) * 0.6) calc(var(--u) * 1);
      border: calc(var(--u) * 0.4) solid var(--line); border-radius: calc(var(--u) * 1); }
    .pb-hand.player { border-color: var(--player); }
    .pb-hand.banker { border-color: var(--banker); }
    .pb-hand.won { background: rgba(255, 255, 255, 0.14); box-shadow: 0 0 0 calc(var(--u) * 0.5) var(--accent); }
    .pb-hand .side { font-weight: 900; font-size: 1.1em; min-width: 4.4em; }
    .pb-hand.player .side { color: #9fd0ff; }
    .pb-hand.banker .side { color: #ff9c99; }
    .pb-hand .cards { --card-w: calc(var(--u) * 5.6); flex: 1; }
    .pb-hand .points { font-size: 2.4em; font-weight: 900; min-width: 1.2em; text-align: right; }
    .pb-banner { font-size: 1.4em; font-weight: 900; text-align: center; padding: calc(var(--u) * 0.6);
      border-radius: calc(var(--u) * 1); background: var(--accent); color: #000; }
    .pb-banner.banker { background: var(--banker); color: #fff; }
    .pb-banner.player { background: var(--player); color: #fff; }
    .pb-banner.tie { background: var(--tie); color: #fff; }
    .pb-status { font-weight: 800; display: flex; justify-content: space-between; gap: 1em; }
    .pb-counts { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: calc(var(--u) * 0.8); text-align: center; }
    .pb-count { border-radius: calc(var(--u) * 0.8); padding: calc(var(--u) * 0.5) 0; background: rgba(0,0,0,0.3); }
    .pb-count b { display: block; font-size: 1.6em; }
    .pb-count span { font-size: 0.7em; font-weight: 800; white-space: nowrap; }
    .pb-count.banker, .pb-count.banker_pair { border-bottom: calc(var(--u) * 0.6) solid var(--banker); }
    .pb-count.player, .pb-count.player_pair { border-bottom: calc(var(--u) * 0.6) solid var(--player); }
    .pb-count.tie { border-bottom: calc(var(--u) * 0.6) solid var(--tie); }
    .pb-asks { display: grid; grid-template-columns: 1fr; gap: calc(var(--u) * 0.8); }
    .pb-ask { display: flex; align-items: center; gap: calc(var(--u) * 1.2); font-weight: 800; font-size: 0.9em;
      padding: calc(var(--u) * 0.5) calc(var(--u) * 0.8); border-radius: calc(var(--u) * 0.8); color: #fff; }
    .pb-ask.banker { background: var(--banker); }
    .pb-ask.player { background: var(--player); }
    .pb-ask span { flex: 1; white-space: nowrap; }
    .pb-ask svg { width: calc(var(--u) * 4); height: calc(var(--u) * 4); background: #fffdf7; border-radius: 50%; }
    .pb-last { display: flex; gap: calc(var(--u) * 0.6); flex-wrap: wrap; }
    .pb-last span { min-width: calc(var(--u) * 6); height: calc(var(--u) * 6); padding: 0 calc(var(--u) * 0.8); border-radius: calc(var(--u) * 3); display: flex; align-items: center; white-space: nowrap;
      justify-content: center; font-weight: 900; font-size: 0.95em; color: #fff; border: calc(var(--u) * 0.3) solid #fff; }
    .pb-last span.banker { background: var(--banker); }
    .pb-last span.player { background: var(--player); }
    .pb-last span.tie { background: var(--tie); }
    .pb-last span:first-child { box-shadow: 0 0 0 calc(var(--u) * 0.5) var(--accent); }
    @media (orientation: portrait) {
      .pb-bac { grid-template-columns: minmax(0, 1fr); grid-template-rows: auto auto auto;
        grid-template-areas: "coup" "roads" "stats"; align-content: start; }
      .pb-hand .cards { --card-w: calc(var(--u) * 6.2); }
      .pb-asks { grid-template-columns: 1fr 1fr; }
    }
  `;

  function playersSheet() {
    if (document.adoptedStyleSheets.some((s) => s.tablectlBaccaratPlayers)) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(PLAYERS_CSS);
    sheet.tablectlBaccaratPlayers = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }

  // one road as its own SVG: `cols` columns of six cells, the newest at the right
  function roadSvg(road, name, cols, heading) {
    const size = 20;
    const { grid, from } = lastColumns(road, cols);
    const w = cols * size;
    const h = ROWS * size;
    let lines = "";
    for (let c = 0; c <= cols; c += 1) lines += `<line x1="${c * size}" y1="0" x2="${c * size}" y2="${h}"/>`;
    for (let r = 0; r <= ROWS; r += 1) lines += `<line x1="0" y1="${r * size}" x2="${w}" y2="${r * size}"/>`;
    let body = "";
    grid.forEach((column, c) => column.forEach((cell, r) => {
      if (!cell) return;
      const x = c * size;
      const y = r * size;
      const mid = size / 2;
      let shape = "";
      let mark = "";
      if (name === "bead_plate") {
        mark = cell.winner;
        shape = `<circle cx="${x + mid}" cy="${y + mid}" r="${size * 0.44}" fill="${COLOUR[cell.winner]}"/>` +
          `<text x="${x + mid}" y="${y + mid + 4.5}" font-size="12" font-weight="700" text-anchor="middle" fill="#fff">${esc(boardWords.letter[cell.winner])}</text>` +
          pairDots(cell, size, x, y);
      } else if (name === "big_road") {
        mark = cell.winner || "tie";
        if (cell.winner) shape = `<circle cx="${x + mid}" cy="${y + mid}" r="${size * 0.36}" fill="none" stroke="${COLOUR[cell.winner]}" stroke-width="3.2"/>`;
        if (cell.ties) shape += `<line data-ties="${cell.ties}" x1="${x + 4}" y1="${y + size - 4}" x2="${x + size - 4}" y2="${y + 4}" stroke="${GREEN}" stroke-width="2.6"/>`;
        shape += pairDots(cell, size, x, y);
      } else {
        mark = cell;
        shape = derivedMark(name, COLOUR[cell], x, y, size);
      }
      body += `<g data-mark="${esc(mark)}" data-cell="${from + c},${r}">${shape}</g>`;
    }));
    return (
      `<div class="pb-road"><div class="heading">${esc(heading)}</div>` +
      `<svg viewBox="0 0 ${w} ${h}" data-road="${name}" data-columns="${(road && road.columns) || 0}" role="img" aria-label="${esc(heading)}">` +
      `<rect width="${w}" height="${h}" fill="#fffdf7"/><g stroke="#c9d3cc" stroke-width="0.6">${lines}</g>${body}</svg></div>`
    );
  }

  // big eye boy: a hollow circle; small road: a filled one; cockroach pig: a stroke
  function derivedMark(name, colour, x, y, size) {
    const mid = size / 2;
    if (name === "big_eye_boy") return `<circle cx="${x + mid}" cy="${y + mid}" r="${size * 0.34}" fill="none" stroke="${colour}" stroke-width="3"/>`;
    if (name === "small_road") return `<circle cx="${x + mid}" cy="${y + mid}" r="${size * 0.38}" fill="${colour}"/>`;
    return `<line x1="${x + size * 0.2}" y1="${y + size * 0.8}" x2="${x + size * 0.8}" y2="${y + size * 0.2}" stroke="${colour}" stroke-width="3.4"/>`;
  }

  let boardWords = PLAYERS_WORDS.en;

  function playersHand(facts, side) {
    const h = (facts.hands || {})[side] || { cards: [] };
    const result = facts.result;
    const won = result && result.winner === side;
    const cards = (h.cards || []).map((c, i) => cardFace(c, `${facts.coup}|${side}|${i}|${c}`)).join("");
    const total = h.total == null ? "" : String(h.total);
    return (
      `<div class="pb-hand ${side}${won ? " won" : ""}" data-hand="${side}">` +
      `<span class="side">${esc(boardWords[side])}</span><div class="cards">${cards}</div>` +
      `<span class="points" data-total="${esc(total)}">${esc(total)}</span></div>`
    );
  }

  function playersBanner(facts) {
    const r = facts.result;
    const w = boardWords;
    if (!r) return `<div class="pb-banner" data-banner="${facts.wagers_open ? "bets" : "dealing"}">${esc(facts.wagers_open ? w.place : w.noMore)}</div>`;
    const words = r.winner === "tie" ? `${w.tieWins} ${r.player_total}` : `${w.wins(w[r.winner])} ${Math.max(r.player_total, r.banker_total)}`;
    const extra = [r.natural ? w.natural : "", r.player_pair ? w.player_pair : "", r.banker_pair ? w.banker_pair : ""].filter(Boolean);
    return `<div class="pb-banner ${r.winner}" data-result="${esc(r.winner)}">${esc(words)}${extra.length ? ` · ${esc(extra.join(" · "))}` : ""}</div>`;
  }

  function askIcons(marks) {
    return ["big_eye_boy", "small_road", "cockroach_pig"].map((name) => {
      const mark = (marks || {})[name];
      const shape = mark ? derivedMark(name, COLOUR[mark], 0, 0, 20) : "";
      return `<svg viewBox="0 0 20 20" data-ask-road="${name}" data-ask-mark="${esc(mark || "")}" role="img" aria-label="${esc(boardWords.roads[name])}: ${esc(mark || "–")}">${shape}</svg>`;
    }).join("");
  }

  function players(facts, language) {
    playersSheet();
    const w = boardWords = PLAYERS_WORDS[language] || PLAYERS_WORDS.en;
    const roads = facts.roads || {};
    const n = facts.counts || {};
    const counts = ["banker", "player", "tie", "banker_pair", "player_pair"].map((key) =>
      `<div class="pb-count ${key}" data-count="${key}"><b>${Number(n[key] || 0)}</b><span>${esc(w[key])}</span></div>`).join("");
    const ask = facts.ask || {};
    const asks = ["banker", "player"].map((side) =>
      `<div class="pb-ask ${side}" data-ask="${side}"><span>${esc(w.ask(w[side]))}</span>${askIcons(ask[side])}</div>`).join("");
    const last = (facts.last || []).map((r) =>
      `<span class="${esc(r.winner)}" data-last="${esc(r.winner)}">${esc(w.letter[r.winner] || "")}${r.winner === "tie" ? "" : Math.max(r.player_total, r.banker_total)}</span>`).join("");
    const shoe = facts.shoe || {};
    const derivedRoads = ["big_eye_boy", "small_road", "cockroach_pig"]
      .map((name) => roadSvg(roads[name], name, BOARD_COLUMNS.derived, w.roads[name])).join("");
    return (
      `<div class="pb-bac">` +
      `<section class="pb-coup panel"><div class="pb-status"><span data-coup="${esc(facts.coup)}">${esc(w.coup(facts.coup ?? ""))}</span>` +
      `<span>${esc(shoe.number == null ? "" : w.shoe(shoe.number))}</span></div>` +
      `<div class="pb-hands">${playersHand(facts, "player")}${playersHand(facts, "banker")}</div>${playersBanner(facts)}</section>` +
      `<section class="pb-roads panel">` +
      roadSvg(roads.bead_plate, "bead_plate", BOARD_COLUMNS.bead_plate, w.roads.bead_plate) +
      roadSvg(roads.big_road, "big_road", BOARD_COLUMNS.big_road, w.roads.big_road) +
      `<div class="pb-derived">${derivedRoads}</div>` +
      `<div class="pb-lastrow"><div class="heading">${esc(w.last)}</div><div class="pb-last">${last}</div></div></section>` +
      `<section class="pb-stats"><div class="panel"><div class="heading">${esc(w.counts)}</div><div class="pb-counts">${counts}</div></div>` +
      `<div class="panel pb-asks">${asks}</div></section>` +
      `</div>`
    );
  }

  window.tablectl = window.tablectl || {};
  window.tablectl.renderers = window.tablectl.renderers || {};
  // the pit's picked table (controller/app/floor/boards.py): the scoreboards alone
  const pitBoard = (view) => board(view.roads || {}, PIT) + boardLine(view.roads || {}, view.shoe, view.rules);
  window.tablectl.renderers.baccarat = {
    view: drawView, buttons, hold, board: pitBoard,
    players, title: (language) => (PLAYERS_WORDS[language] || PLAYERS_WORDS.en).title,
  };
})();
