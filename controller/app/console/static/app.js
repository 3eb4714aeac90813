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

  // For the browser tests and bench/page_latency.py: what was shown, and when each card
  // face was first rendered (epoch milliseconds, high resolution, at the next frame).
  const page = { state: null, states: 0, cards: [], connected: false };
  window.tablePage = page;

  // what the page and the games' drawings share (static/faces.js)
  const { esc, money, cite } = window.TableFaces;

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
    // the game's view names its drawing (its GameSpec's renderer), which came from the
    // game's own folder (/game.js); a game without one is shown as its view's plain facts
    const own = gameDrawing(view.renderer || "");
    if (own) {
      $("next-text").textContent = own.next ? own.next(view) : (view.next_action || "");
      $("view").innerHTML = own.view(state, view);
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

  // --- console (dealer page only) -----------------------------------------------------
  // The game's drawing gives its buttons: { name, label, lit, cls?, body } (body: what a
  // press POSTs), or one with raise: { seat, raise_min, raise_max } (an amount field beside
  // it, sent as the raise_ action) or request: { seat } (an asking seat's field, sent as
  // request_to_see; seat null: every hand).
  let consoleKey = "";
  let raiseBy = null;

  function renderConsole(state, view) {
    const own = gameDrawing(view.renderer || "");
    const buttons = own && own.buttons ? own.buttons(view) : [];
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
