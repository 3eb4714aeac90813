// The pit floor view: one row per table seen on the broker, updated over Server-Sent Events
// (/api/events); /api/tables gives the same JSON on request. No external resources.
"use strict";

function cell(row, text, cls) {
  const td = document.createElement("td");
  if (text instanceof Node) td.appendChild(text); else td.textContent = text;
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

function age(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 60) return Math.round(seconds) + " s ago";
  if (seconds < 3600) return Math.round(seconds / 60) + " min ago";
  return Math.round(seconds / 3600) + " h ago";
}

function render(floor) {
  const body = document.getElementById("tables");
  body.replaceChildren();
  const tables = floor.tables || [];
  let online = 0, holds = 0, journals = 0;
  for (const t of tables) {
    const row = document.createElement("tr");
    row.dataset.table = t.table;
    row.dataset.status = t.status;
    if (t.status === "online") online += 1;
    if (t.status !== "online") row.classList.add("offline");
    if (t.hold) { row.classList.add("hold"); holds += 1; }
    if (t.journal_alarm) { row.classList.add("journal"); journals += 1; }
    if (t.journal_hash) row.title = "journal head " + t.journal_seq + ":" + t.journal_hash;
    const name = document.createElement("span");
    name.textContent = t.table + " ";
    if (t.simulated) {
      const sim = document.createElement("span");
      sim.className = "sim";
      sim.textContent = "SIMULATED";
      name.appendChild(sim);
    }
    cell(row, name);
    cell(row, t.site);
    cell(row, t.game);
    const status = t.quiet ? t.status + " (quiet)" : t.status;
    cell(row, status, "status-" + t.status + (t.quiet ? " quiet" : ""));
    cell(row, t.state);
    cell(row, t.round === null ? "" : String(t.round));
    const alarms = document.createElement("div");
    if (t.journal_alarm) {
      const journal = document.createElement("span");
      journal.className = "journal-alarm";
      journal.textContent = "JOURNAL " + t.journal_alarm;
      alarms.appendChild(journal);
    }
    if (t.hold) {
      const hold = document.createElement("span");
      hold.className = "hold-text";
      hold.textContent = "HOLD " + t.hold;
      alarms.appendChild(hold);
    }
    for (const a of t.alarms) {
      const line = document.createElement("span");
      line.className = "alarm";
      line.textContent = "#" + a.seq + " " + a.kind + (a.rule ? " (rule " + a.rule + ")" : "") +
        (a.message ? ": " + a.message : "");
      alarms.appendChild(line);
    }
    cell(row, alarms);
    cell(row, age(t.last_event_age) + (t.last_kind ? " · " + t.last_kind : ""));
    cell(row, t.next_action);
    body.appendChild(row);
  }
  if (!tables.length) {
    const row = document.createElement("tr");
    cell(row, "No table seen on the broker yet.").colSpan = 9;
    body.appendChild(row);
  }
  document.getElementById("summary").textContent =
    tables.length + " tables, " + online + " online, " + holds + " on hold" +
    (journals ? ", " + journals + " JOURNAL ALARMS" : "");
  const broker = document.getElementById("broker");
  broker.textContent = floor.broker ? "broker connected" : "BROKER UNREACHABLE: statuses are stale";
  broker.className = floor.broker ? "link-up" : "link-down";
  document.body.dataset.broker = floor.broker ? "up" : "down";
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource("/api/events");
  source.addEventListener("floor", (e) => render(JSON.parse(e.data)));
  source.onopen = () => { link.textContent = "live"; link.className = "link-up"; };
  source.onerror = () => { link.textContent = "live updates: reconnecting"; link.className = "link-down"; };
}

fetch("/api/tables").then((r) => r.json()).then(render).catch(() => {});
connect();
