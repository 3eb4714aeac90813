// The players' ratings (/ratings): open ratings live, the shift's closed ones, each player's
// totals, filters and the CSV. Only staff granted the ratings get the data (/api/ratings
// answers 401 or 403 to anyone else, and this page then shows nothing of it). The page asks
// every two seconds; asking does not keep a session alive.
"use strict";

const EVERY_MS = 2000;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function pad(n) { return String(n).padStart(2, "0"); }

function clock(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? "" : pad(d.getHours()) + ":" + pad(d.getMinutes());
}

function played(seconds) {
  const s = Math.max(0, seconds || 0);
  if (s < 3600) return Math.floor(s / 60) + " min";
  return Math.floor(s / 3600) + " h " + pad(Math.floor(s / 60) % 60) + " min";
}

function chips(n) { return n === null || n === undefined ? "" : Number(n).toLocaleString("en"); }

function signed(n) {
  if (n === null || n === undefined) return "";
  return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString("en");
}

function cell(row, text, cls) { const td = el("td", cls, text); row.appendChild(td); return td; }

function playerCell(row, r) {
  if (r.player) return cell(row, r.player, "player");
  return cell(row, r.erased ? "name erased" : "anonymous", "player anon");
}

function money(row, n) { cell(row, signed(n), "num " + (n > 0 ? "pos" : n < 0 ? "neg" : "")); }

function flagCell(row, r) {
  const td = cell(row, "");
  if (r.flagged) {
    row.classList.add("flagged");
    td.appendChild(el("span", "flag", "at two tables"));
  }
}

function averageCell(row, r) {
  const td = cell(row, chips(r.average_bet), "num");
  if (r.adjusted) {
    const mark = el("span", "adjusted", "adjusted");
    mark.title = "by " + (r.adjusted_by || "?") + ": " + (r.adjusted_reason || "") +
      " (measured " + chips(r.measured_average_bet) + ")";
    td.appendChild(mark);
  }
}

function fill(id, rows, draw, columns, none) {
  const body = document.querySelector("#" + id + " tbody");
  body.replaceChildren();
  if (!rows.length) {
    const tr = el("tr");
    const td = el("td", "empty", none);
    td.colSpan = columns;
    tr.appendChild(td);
    body.appendChild(tr);
    return;
  }
  for (const r of rows) {
    const tr = el("tr");
    tr.dataset.table = r.table || "";
    draw(tr, r);
    body.appendChild(tr);
  }
}

function drawOpen(tr, r) {
  cell(tr, r.table); cell(tr, r.box, "num"); playerCell(tr, r);
  cell(tr, r.source === "card" ? "card" : r.source === "console" ? "console" : "");
  cell(tr, clock(r.start)); cell(tr, played(r.seconds), "num"); cell(tr, r.rounds, "num");
  cell(tr, chips(r.handle), "num"); averageCell(tr, r); cell(tr, chips(r.largest_bet), "num");
  money(tr, r.win_loss); cell(tr, r.theo, "num");
  cell(tr, r.departures === null ? "" : r.departures, "num"); flagCell(tr, r);
}

function drawClosed(tr, r) {
  cell(tr, r.table); cell(tr, r.box, "num"); playerCell(tr, r);
  cell(tr, clock(r.start) + "\u2013" + clock(r.end)); cell(tr, played(r.seconds), "num");
  cell(tr, r.rounds, "num"); cell(tr, chips(r.handle), "num"); averageCell(tr, r);
  cell(tr, chips(r.largest_bet), "num"); money(tr, r.win_loss); cell(tr, r.theo, "num");
  cell(tr, r.skill_theo, "num"); cell(tr, r.comp, "num");
  cell(tr, r.decisions_per_hour, "num"); cell(tr, r.wager_source);
  cell(tr, r.reason + (r.moved_to ? " to " + r.moved_to : "")); flagCell(tr, r);
}

function drawPlayer(tr, t) {
  cell(tr, t.player, "player"); cell(tr, t.tables.join(", ")); cell(tr, t.ratings, "num");
  cell(tr, played(t.seconds), "num"); cell(tr, t.rounds, "num"); cell(tr, chips(t.handle), "num");
  cell(tr, chips(t.average_bet), "num"); money(tr, t.win_loss); cell(tr, t.theo, "num");
  cell(tr, t.comp, "num"); flagCell(tr, t);
}

function query() {
  const q = new URLSearchParams();
  for (const [key, id] of [["table", "r-table"], ["player", "r-player"], ["state", "r-state"]]) {
    const value = document.getElementById(id).value.trim();
    if (value) q.set(key, value);
  }
  return q.toString();
}

function render(b) {
  document.getElementById("locked").hidden = true;
  document.getElementById("ratings").hidden = false;
  const select = document.getElementById("r-table");
  const chosen = select.value;
  select.replaceChildren(el("option", "", "all"));
  select.firstChild.value = "";
  for (const t of b.tables) { const o = el("option", "", t); o.value = t; select.appendChild(o); }
  select.value = b.tables.includes(chosen) ? chosen : "";
  document.getElementById("shift").textContent = "Shift from " + clock(b.shift) +
    " \u00b7 names kept " + b.keep_names_days + " days after a rating ends";
  const summary = document.getElementById("summary");
  summary.textContent = b.open.length + " open \u00b7 " + b.closed.length + " closed";
  if (b.flagged) summary.appendChild(el("span", "flag", b.flagged + " at two tables at once"));
  fill("open", b.open, drawOpen, 14, "No open rating.");
  fill("closed", b.closed, drawClosed, 17, "No rating closed this shift.");
  fill("players", b.players, drawPlayer, 11, "No named player.");
  document.getElementById("ratings-csv").href = "/api/ratings.csv?" + query();
}

function locked(text) {
  document.getElementById("ratings").hidden = true;
  const p = document.getElementById("locked");
  p.hidden = false;
  p.textContent = text;
}

function load() {
  return fetch("/api/ratings?" + query(), { headers: { Accept: "application/json" } })
    .then((r) => {
      if (r.status === 401) { locked("Sign in: the ratings are shown to pit staff granted them only."); return session(); }
      if (r.status === 403) { locked("You are not granted the players' ratings."); return null; }
      return r.json().then(render);
    })
    .catch(() => {});
}

function showSession(s) {
  const staff = s.staff;
  document.getElementById("signin").hidden = !!staff || !s.staff_configured;
  document.getElementById("signout").hidden = !staff;
  const who = document.getElementById("who");
  who.hidden = !staff;
  who.textContent = staff ? staff.name + " (" + staff.id + ")" : "";
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
    if (!r.ok) throw new Error(answer.error || "refused (" + r.status + ")");
    return answer;
  }));
}

document.getElementById("signin").addEventListener("submit", (e) => {
  e.preventDefault();
  const pin = document.getElementById("staff-pin");
  post("/api/signin", { staff: document.getElementById("staff-id").value.trim(), pin: pin.value })
    .then(() => { document.getElementById("note").textContent = ""; return session(); })
    .then(load)
    .catch((err) => { document.getElementById("note").textContent = err.message; })
    .finally(() => { pin.value = ""; });
});
document.getElementById("signout").addEventListener("click", () => {
  post("/api/signout", {}).catch(() => {}).then(session).then(load);
});
for (const id of ["r-table", "r-state"]) document.getElementById(id).addEventListener("change", load);
document.getElementById("r-player").addEventListener("input", load);
session().then(load);
setInterval(load, EVERY_MS);
