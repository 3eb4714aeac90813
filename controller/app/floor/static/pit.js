// The pit floor: a map of the tables by pit/area, one row per table, the alarm log, the
// shift's figures and charts; updated over Server-Sent Events (/api/events). Rows, tiles
// and alarm lines are kept and updated in place (columns never jump, charts reload only
// when a round is settled). No external resources; the alert sound is made by WebAudio.
"use strict";

const PRESENCE = {
  dealing: "Dealing", quiet: "Quiet", hold: "HOLD", offline: "OFFLINE",
  closed: "Closed", unknown: "Unknown",
};
const WORST = { offline: 0, hold: 1, unknown: 2, quiet: 3, closed: 4, dealing: 5 };
const ATTENTION = new Set(["offline", "hold", "unknown"]);
let floor = null;
let soundOn = true;
let audio = null;
const heard = new Set(); // alert ids the sound has been played for
let chartVersion = "";
let selected = null; // the table whose charts are shown (a click on its row or tile)

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function pad(n) { return String(n).padStart(2, "0"); }

function clock(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (isNaN(d)) return "";
  return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
}

function ago(iso) {
  if (!iso || !floor) return "";
  const seconds = (Date.parse(floor.now) - Date.parse(iso)) / 1000;
  if (isNaN(seconds)) return "";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + pad(s % 60) + " s";
  return Math.floor(s / 3600) + " h " + pad(Math.floor(s / 60) % 60) + " min";
}

function money(n) {
  if (n === null || n === undefined) return "";
  return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString("en");
}

function rate(r) {
  if (r === null || r === undefined) return "";
  return r >= 100 ? String(Math.round(r)) : r.toFixed(1);
}

function pct(p) {
  if (p === null || p === undefined) return "";
  return (p < 0 ? "\u2212" : "") + Math.abs(p).toFixed(1) + " %";
}

function beep() {
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    for (const [at, hz] of [[0, 880], [0.25, 660]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = hz;
      gain.gain.value = 0.15;
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.2);
    }
  } catch (e) { /* no audio device: the flash still shows */ }
}

// --- one table: its row in the list and its tile on the map ----------------------------

const rows = new Map();
const tiles = new Map();
const alarmItems = new Map();

function choose(id) {
  selected = selected === id ? null : id;
  if (floor) render(floor);
}

function makeRow(t) {
  const row = el("tr");
  row.dataset.table = t.table;
  row.addEventListener("click", (e) => { if (!e.target.closest("button")) choose(t.table); });
  const names = ["table", "game", "dealer", "presence", "state", "card", "hold", "rounds num",
    "win num", "trend"];
  row.cells_ = {};
  for (const name of names) {
    const td = el("td", "c-" + name.split(" ")[0] + (name.endsWith("num") ? " num" : ""));
    row.appendChild(td);
    row.cells_[name.split(" ")[0]] = td;
  }
  const img = el("img", "spark");
  img.width = 120; img.height = 30; img.alt = "win/loss over the shift";
  row.cells_.trend.appendChild(img);
  row.img_ = img;
  return row;
}

function fill(td, parts) {
  td.replaceChildren(...parts.filter((p) => p !== null).map(
    (p) => (p instanceof Node ? p : document.createTextNode(p))));
}

function line(cls, text) { return el("span", "line " + cls, text); }

function alertFor(t) {
  return (floor.alarms || []).some((a) => a.table === t.table && a.alert && !a.acked && !a.cleared);
}

function updateRow(row, t) {
  const c = row.cells_;
  row.dataset.status = t.shown;
  row.dataset.area = t.area || "";
  row.dataset.game = t.game || "";
  row.className = "s-" + t.shown + (t.journal_alarm ? " journal" : "") +
    (alertFor(t) ? " flash" : "");
  row.title = t.journal_hash ? "journal head " + t.journal_seq + ":" + t.journal_hash : "";
  const name = el("span", "tname", t.table);
  fill(c.table, [name, t.simulated ? el("span", "sim", "SIM") : null,
    line("sub", t.area || t.site)]);
  fill(c.game, [t.game_words || "", line("sub", t.limits ? "limits " + t.limits[0] + "\u2013" +
    t.limits[1] : "")]);
  fill(c.dealer, t.dealer ? [t.dealer.name, line("sub", t.dealer.id)] :
    [line("muted", t.shown === "dealing" || t.shown === "hold" ? "nobody signed in" : "\u2014")]);
  const presence = [el("span", "pill p-" + t.shown, PRESENCE[t.shown] || t.shown)];
  if (t.shown_since && t.shown !== "dealing") presence.push(line("sub", "since " + clock(t.shown_since)));
  if (t.why && t.shown !== "hold") presence.push(line("why", t.why));
  if (t.replayed || t.recovered) {
    presence.push(el("span", "flag", t.restarted_at ? "RESTARTED " + clock(t.restarted_at) +
      (t.replayed ? " · recovered" : "") : "RECOVERED"));
  }
  fill(c.presence, presence);
  const stale = t.shown === "offline" || t.shown === "unknown" || t.shown === "closed";
  fill(c.state, [t.state_words || "\u2014", t.round !== null && t.round !== undefined ?
    line("sub", (t.round_word || "round") + " " + t.round) : null,
    stale && t.state_words ? line("lastknown", "last known") : null]);
  fill(c.card, t.last_card_at ? [ago(t.last_card_at) + " ago", line("sub", "at " +
    clock(t.last_card_at))] : [line("muted", "none yet")]);
  const hold = [];
  if (t.journal_alarm) hold.push(el("span", "journal-alarm", "JOURNAL " + t.journal_alarm));
  if (t.hold) {
    const text = el("span", "hold-text", "HOLD " + t.hold);
    text.title = "HOLD " + t.hold;
    hold.push(text);
    if (t.hold_since) hold.push(line("sub", "since " + clock(t.hold_since) + " (" + ago(t.hold_since) + ")"));
  }
  if (!hold.length) hold.push(line("muted", "\u2014"));
  fill(c.hold, hold);
  const f = t.figures || {};
  fill(c.rounds, [String(f.rounds || 0), line("sub", f.rounds_per_hour ? rate(f.rounds_per_hour) + "/h" : "")]);
  const win = el("span", f.win < 0 ? "neg" : f.win > 0 ? "pos" : "", money(f.win || 0));
  fill(c.win, [win, line("sub", f.hold_pct !== null && f.hold_pct !== undefined ? pct(f.hold_pct) : "")]);
  const src = "/chart/win.svg?w=120&h=30&table=" + encodeURIComponent(t.table) + "&v=" + (f.rounds || 0) + "." + (f.win || 0) + "." + encodeURIComponent(floor.shift.start);
  if (row.img_.dataset.src !== src) { row.img_.dataset.src = src; row.img_.src = src; }
}

function updateTile(tile, t) {
  tile.dataset.status = t.shown;
  tile.className = "tile s-" + t.shown + (alertFor(t) ? " flash" : "");
  const sub = t.shown === "hold" ? (t.hold_rule ? "rule " + t.hold_rule : "") + (t.hold_since ? " · " + ago(t.hold_since) : "")
    : t.shown === "dealing" || t.shown === "quiet" ? (t.last_card_at ? "card " + ago(t.last_card_at) + " ago" : "")
    : t.shown_since ? "since " + clock(t.shown_since) : "";
  fill(tile, [el("b", "", t.table), el("span", "tgame", t.game_words || ""),
    el("span", "tstate", PRESENCE[t.shown] === "Dealing" ? (t.state_words || "Dealing") : PRESENCE[t.shown]),
    el("span", "tsub", sub)]);
  tile.title = t.table + ": " + (PRESENCE[t.shown] || t.shown) + (t.why ? " (" + t.why + ")" : "");
}

// --- filters and sorting ---------------------------------------------------------------

function options(select, values) {
  const have = new Set([...select.options].map((o) => o.value));
  for (const v of values) {
    if (v && !have.has(v)) select.appendChild(new Option(v, v));
  }
}

function passes(t) {
  const area = document.getElementById("f-area").value;
  const game = document.getElementById("f-game").value;
  const state = document.getElementById("f-state").value;
  if (area && (t.area || "(not on the plan)") !== area) return false;
  if (game && t.game_words !== game) return false;
  if (state === "attention") return ATTENTION.has(t.shown);
  return !state || t.shown === state;
}

function sorted(tables) {
  const by = document.getElementById("sort").value;
  const key = {
    table: (t) => [t.table],
    area: (t) => [t.area || "\uffff", t.table],
    game: (t) => [t.game_words, t.table],
    state: (t) => [WORST[t.shown] ?? 9, t.table],
    card: (t) => [t.last_card_at || "", t.table],
    win: (t) => [(t.figures || {}).win || 0, t.table],
  }[by] || ((t) => [t.table]);
  return [...tables].sort((a, b) => {
    const x = key(a), y = key(b);
    for (let i = 0; i < x.length; i++) {
      if (x[i] < y[i]) return -1;
      if (x[i] > y[i]) return 1;
    }
    return 0;
  });
}

// --- the page --------------------------------------------------------------------------

function renderMap(tables) {
  const areas = document.getElementById("areas");
  const plan = (floor.areas || []).map((a) => ({ name: a.name, tables: a.tables }));
  const placed = new Set(plan.flatMap((a) => a.tables));
  const rest = tables.map((t) => t.table).filter((id) => !placed.has(id));
  if (rest.length) plan.push({ name: plan.length ? "Not on the floor plan" : "Tables", tables: rest });
  const byId = new Map(tables.map((t) => [t.table, t]));
  const wanted = plan.map((a) => a.name + ":" + a.tables.join(",")).join("|");
  if (areas.dataset.plan !== wanted) {
    areas.dataset.plan = wanted;
    areas.replaceChildren();
    for (const area of plan) {
      const box = el("div", "area");
      box.appendChild(el("h3", "", area.name));
      const grid = el("div", "tiles");
      for (const id of area.tables) {
        let tile = tiles.get(id);
        if (!tile) {
          tile = el("div", "tile");
          tile.addEventListener("click", () => choose(id));
        }
        tile.dataset.table = id;
        tiles.set(id, tile);
        grid.appendChild(tile);
      }
      box.appendChild(grid);
      areas.appendChild(box);
    }
  }
  for (const [id, tile] of tiles) {
    const t = byId.get(id);
    if (t) updateTile(tile, t);
    else { tile.className = "tile s-none"; fill(tile, [el("b", "", id), el("span", "tsub", "not seen yet")]); }
    tile.classList.toggle("filtered", t ? !passes(t) : true);
  }
}

function renderList(tables) {
  const body = document.getElementById("tables");
  const shown = sorted(tables.filter(passes));
  const keep = [];
  for (const t of shown) {
    let row = rows.get(t.table);
    if (!row) { row = makeRow(t); rows.set(t.table, row); }
    updateRow(row, t);
    keep.push(row);
  }
  if (!tables.length) {
    const row = el("tr", "empty");
    const td = el("td", "", "No table seen on the broker yet.");
    td.colSpan = 10;
    row.appendChild(td);
    keep.push(row);
  }
  const same = keep.length === body.children.length && keep.every((r, i) => body.children[i] === r);
  if (!same) body.replaceChildren(...keep);
  document.getElementById("shown-count").textContent =
    shown.length === tables.length ? "" : shown.length + " of " + tables.length + " tables shown";
}

function renderAlarms(alarms) {
  const list = document.getElementById("alarm-log");
  const open = alarms.filter((a) => a.alert && !a.acked).length;
  document.getElementById("alarm-count").textContent = open ? open + " to acknowledge" : "";
  const items = alarms.map((a) => {
    const signature = JSON.stringify(a);
    const known = alarmItems.get(a.id);
    if (known && known.dataset.signature === signature) return known;
    const li = el("li", "a-" + a.severity);
    alarmItems.set(a.id, li);
    li.dataset.signature = signature;
    li.dataset.id = a.id;
    li.dataset.kind = a.kind;
    if (a.cleared) li.classList.add("cleared");
    if (a.acked) li.classList.add("acked");
    if (a.alert && !a.acked && !a.cleared) li.classList.add("flash");
    const head = el("div", "ahead");
    head.append(el("time", "", clock(a.at)), el("b", "atable", a.table), el("span", "awords", a.words));
    if (a.rule) head.appendChild(el("span", "arule", "rule " + a.rule));
    li.appendChild(head);
    if (a.message) li.appendChild(el("div", "amsg", a.message));
    if (a.cleared) {
      li.appendChild(el("div", "acleared", (a.kind === "Violation" ? "Cleared " : "Back ") +
        clock(a.cleared.at) + (a.cleared.by ? " by " + a.cleared.by : "") +
        (a.cleared.how ? ": " + a.cleared.how : "")));
    } else if (a.kind === "Violation") {
      li.appendChild(el("div", "aopen", "Not cleared yet"));
    }
    if (a.acked) {
      li.appendChild(el("div", "aack", "Acknowledged " + clock(a.acked.at) + " by " + a.acked.by));
    } else if (a.alert) {
      const button = el("button", "ack", "Acknowledge");
      button.type = "button";
      button.addEventListener("click", () => acknowledge(a.id));
      li.appendChild(button);
    }
    return li;
  });
  if (!items.length) items.push(el("li", "none", "No alarm this shift."));
  const same = items.length === list.children.length && items.every((li, i) => list.children[i] === li);
  if (!same) list.replaceChildren(...items);
  let fresh = false;
  for (const a of alarms) {
    if (a.alert && !a.acked && !heard.has(a.id)) { heard.add(a.id); fresh = true; }
  }
  if (fresh) beep();
}

// Payouts the chips disagreed with (rule 4.1), each mismatch counted once: a
// column per kind, "how many · chip units in question", shown once the shift has any.
const PAYOUT_KINDS = [["over", "Over", "overpaid"], ["under", "Under", "underpaid"],
  ["uncollected", "Uncollected", "losing wagers not collected"]];

function payoutCell(f, [kind, , words]) {
  const m = (f.payout_mismatches || {})[kind];
  const td = el("td", "num pm" + (m ? " pm-some" : " muted"),
    m ? m.count + " \u00b7 " + m.amount.toLocaleString("en") : "0");
  td.dataset.kind = kind;
  if (m) {
    td.dataset.count = m.count;
    td.dataset.amount = m.amount;
    td.title = m.count + " " + words + ": " + m.amount.toLocaleString("en") + " chip units in question (rule 4.1)";
  }
  return td;
}

function figureTable(id, caption, items, label, payouts) {
  const table = document.getElementById(id);
  table.replaceChildren(el("caption", "", caption));
  const head = el("tr");
  for (const h of [label, "Rounds", "Rounds/h", "Drop", "Win/loss", "Hold %", "HOLDs"]) head.appendChild(el("th", h === label ? "" : "num", h));
  for (const [kind, h, words] of payouts ? PAYOUT_KINDS : []) {
    const th = el("th", "num pm", h);
    th.dataset.kind = kind;
    th.title = "payouts " + words + " (rule 4.1): how many \u00b7 chip units in question";
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const f of items) {
    const row = el("tr");
    row.dataset.key = f.key;
    const name = f.words || (f.name ? f.name + " (" + f.key + ")" : f.key);
    const holds = Object.entries(f.holds_by_rule).map(([r, n]) => "rule " + r + " \u00d7" + n).join(", ");
    const cells = [name, String(f.rounds), rate(f.rounds_per_hour),
      String(f.drop), money(f.win), pct(f.hold_pct), f.holds ? holds : "0"];
    cells.forEach((text, i) => row.appendChild(el("td", i ? "num" : "", text)));
    if (payouts) for (const k of PAYOUT_KINDS) row.appendChild(payoutCell(f, k));
    table.appendChild(row);
  }
}

function render(data) {
  floor = data;
  const tables = data.tables || [];
  const count = (s) => tables.filter((t) => t.shown === s).length;
  const journals = tables.filter((t) => t.journal_alarm).length;
  const online = tables.filter((t) => t.status === "online").length;
  document.getElementById("summary").textContent =
    tables.length + " tables, " + online + " online, " + count("hold") + " on hold" +
    (count("offline") ? ", " + count("offline") + " OFFLINE" : "") +
    (journals ? ", " + journals + " JOURNAL ALARMS" : "");
  const broker = document.getElementById("broker");
  broker.textContent = data.broker ? "broker connected" :
    "BROKER UNREACHABLE since " + clock(data.broker_down_since) + ": tables unknown";
  broker.className = data.broker ? "link-up" : "link-down";
  document.body.dataset.broker = data.broker ? "up" : "down";
  const shift = data.shift || {};
  document.getElementById("shift").textContent = "Shift from " + clock(shift.start) +
    (shift.by ? " (set by " + shift.by + ")" : "") + " · " + ago(shift.start) + " so far";
  options(document.getElementById("f-area"), [...(data.areas || []).map((a) => a.name),
    ...(tables.some((t) => !t.area) && (data.areas || []).length ? ["(not on the plan)"] : [])]);
  options(document.getElementById("f-game"), [...new Set(tables.map((t) => t.game_words))].sort());
  renderMap(tables);
  renderList(tables);
  renderAlarms(data.alarms || []);
  const figures = data.figures || {};
  const payouts = !!((figures.floor || [])[0] || {}).payout_mismatches;
  document.getElementById("fig-payouts").hidden = !payouts;
  document.querySelector(".figure-tables").classList.toggle("with-payouts", payouts);
  figureTable("fig-tables", "Per table", tables.map((t) => t.figures).filter((f) => f), "Table", payouts);
  figureTable("fig-games", "Per game", figures.games || [], "Game", payouts);
  figureTable("fig-dealers", "Per dealer", figures.dealers || [], "Dealer", payouts);
  const chosen = tables.find((t) => t.table === selected);
  if (!chosen) selected = null;
  const total = (chosen ? chosen.figures : (figures.floor || [])[0]) || {};
  document.getElementById("charts-title").textContent =
    (chosen ? chosen.table : "Floor") + " over the shift";
  document.getElementById("charts-floor").hidden = !chosen;
  const win = document.getElementById("floor-win");
  win.textContent = money(total.win || 0) + (total.hold_pct !== null && total.hold_pct !== undefined ? " · hold " + pct(total.hold_pct) : "");
  win.className = total.win < 0 ? "neg" : "pos";
  document.getElementById("floor-rph").textContent = total.rounds_per_hour ? rate(total.rounds_per_hour) + " an hour, " + total.rounds + " rounds" : "";
  const which = (selected ? "&table=" + encodeURIComponent(selected) : "") + "&v=" + data.chart_version;
  if (which !== chartVersion) {
    chartVersion = which;
    document.getElementById("chart-win").src = "/chart/win.svg?w=340&h=70" + which;
    document.getElementById("chart-rounds").src = "/chart/rounds.svg?w=340&h=50" + which;
  }
  for (const [id, row] of rows) row.classList.toggle("chosen", id === selected);
  for (const [id, tile] of tiles) tile.classList.toggle("chosen", id === selected);
  showBoard(chosen);
}

// --- the picked table in its game's own drawing (controller/app/floor/boards.py) ----------
// A game whose spec names a page script (e.g. a shoe game's scoreboards) draws the picked
// table here: /api/view?table= gives its last public view, /game/<name>.js the drawing,
// which registers window.tablectl.renderers[<renderer>] with board(view) -> markup.
const gameScripts = new Map(); // game -> Promise, each script loaded once
let boardAsked = 0;

function gameScript(game) {
  if (!gameScripts.has(game)) {
    gameScripts.set(game, new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = "/game/" + encodeURIComponent(game) + ".js";
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    }));
  }
  return gameScripts.get(game);
}

async function showBoard(chosen) {
  const section = document.getElementById("board");
  const asked = ++boardAsked;
  if (!chosen) { section.hidden = true; return; }
  try {
    const answer = await fetch("/api/view?table=" + encodeURIComponent(chosen.table));
    if (!answer.ok) throw new Error("no drawable view of this table");
    const kept = await answer.json();
    await gameScript(kept.game);
    const drawing = ((window.tablectl || {}).renderers || {})[kept.view.renderer];
    if (!drawing || typeof drawing.board !== "function") throw new Error("no board drawing");
    if (asked !== boardAsked) return; // a newer update or pick is on its way
    document.getElementById("board-title").textContent = chosen.table + " · " + (chosen.game_words || kept.game);
    document.getElementById("board-view").innerHTML = drawing.board(kept.view);
    section.hidden = false;
  } catch (err) {
    if (asked === boardAsked) section.hidden = true;
  }
}

// --- who is signed in, and the manager's actions ----------------------------------------
// Writes need pit staff signed in (/api/signin sets an HttpOnly session cookie); the server
// names who acted from that session, never from anything this page sends. Buttons a role
// may not use are hidden (body[data-may]); the server refuses them anyway.

function note(text) { document.getElementById("shift-note").textContent = text; }

function showSession(s) {
  const staff = s.staff;
  document.body.dataset.may = (s.may || []).join(" ");
  document.getElementById("signin").hidden = !!staff || !s.staff_configured;
  document.getElementById("signout").hidden = !staff;
  const who = document.getElementById("who");
  who.hidden = !staff && s.staff_configured;
  who.textContent = staff ? staff.name + " (" + staff.id + ", " + staff.role.replace("_", " ") + ")"
    : "read only: no pit staff configured";
}

function session() {
  return fetch("/api/session").then((r) => r.json()).then(showSession).catch(() => {});
}

function post(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tablectl-Pit": "1" },
    body: JSON.stringify(body),
  }).then((r) => r.json().catch(() => ({})).then((answer) => {
    if (r.ok) return answer;
    if (r.status === 401) session();
    throw new Error(answer.error || "refused (" + r.status + ")");
  }));
}

function signIn(e) {
  e.preventDefault();
  const pin = document.getElementById("staff-pin");
  const staff = document.getElementById("staff-id").value.trim();
  post("/api/signin", { staff, pin: pin.value })
    .then(() => { note(""); return session(); })
    .catch((err) => note(err.message))
    .finally(() => { pin.value = ""; });
}

function signOut() {
  post("/api/signout", {}).catch(() => {}).then(session);
}

function acknowledge(id) {
  post("/api/ack", { id }).then(refresh).catch((e) => note(e.message));
}

function startShift() {
  const value = document.getElementById("shift-time").value;
  let start = "now";
  if (value) {
    const [h, m] = value.split(":").map(Number);
    const at = new Date();
    at.setHours(h, m, 0, 0);
    if (at > new Date()) at.setDate(at.getDate() - 1); // a time later than now: yesterday's
    start = at.toISOString();
  }
  post("/api/shift", { start }).then(() => { note("Shift started."); refresh(); })
    .catch((e) => note(e.message));
}

function refresh() {
  return fetch("/api/tables").then((r) => r.json()).then(render).catch(() => {});
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource("/api/events");
  source.addEventListener("floor", (e) => render(JSON.parse(e.data)));
  source.onopen = () => { link.textContent = "live"; link.className = "link-up"; };
  source.onerror = () => { link.textContent = "live: reconnecting"; link.className = "link-down"; };
}

document.getElementById("signin").addEventListener("submit", signIn);
document.getElementById("signout").addEventListener("click", signOut);
document.getElementById("shift-set").addEventListener("click", startShift);
document.getElementById("charts-floor").addEventListener("click", () => choose(null));
document.getElementById("sound").addEventListener("click", (e) => {
  soundOn = !soundOn;
  e.target.textContent = soundOn ? "Sound on" : "Sound off";
  e.target.setAttribute("aria-pressed", String(soundOn));
  if (soundOn && audio) audio.resume();
});
for (const id of ["f-area", "f-game", "f-state", "sort"]) {
  document.getElementById(id).addEventListener("change", () => floor && render(floor));
}
session();
refresh();
connect();
