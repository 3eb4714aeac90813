// The players' board (docs/display.md, "The players' board"): the kernel's frame.
//
// One Server-Sent Events stream (/api/board/events) brings the board document, decided on
// the server (controller/app/console/board.py: never the table's state), after every
// change, and a ping every 0.5 s. This frame draws the table's name, the casino's, the
// limits (rule 11.5(a)), the casino's colours, and TABLE CLOSED; the game's own drawing
// (its page script, /game.js) draws the facts: window.tablectl.renderers[<renderer>]
// .players(facts, language) returns the HTML, in the board's language.
//
// TABLE CLOSED shows when the server says so (an orderly stop, or nothing published yet),
// and when nothing has been heard for the board's closed_after seconds (a table switched
// off, a lost network). The stream is reopened by itself with a growing pause; the first
// document after it comes back redraws everything.
"use strict";

(() => {
  const WORDS = {
    en: {
      limits: "TABLE LIMITS", min: "MIN", max: "MAX", closed: "TABLE CLOSED",
      waiting: "Please wait for the table to open", reconnecting: "reconnecting…", live: "live",
    },
    "zh-Hans": {
      limits: "投注限额", min: "最低", max: "最高", closed: "本桌已关闭",
      waiting: "请等待开桌", reconnecting: "正在重新连接…", live: "在线",
    },
  };
  const LOST_MS = 1500; // no state or ping for this long: the stream is reopened
  const FIRST_RETRY_MS = 500;
  const MOST_RETRY_MS = 8000;
  const $ = (id) => document.getElementById(id);
  const { money } = window.TableFaces;

  // what was shown, for the browser tests
  const board = { doc: null, boards: 0, connected: false, closed: true };
  window.tableBoard = board;

  let source = null;
  let lastHeard = performance.now();
  let openedAt = performance.now();
  let retryTimer = null;
  let backoff = FIRST_RETRY_MS;
  let language = "en";

  const words = () => WORDS[language] || WORDS.en;

  function setClosed(closed) {
    board.closed = closed;
    document.body.dataset.closed = closed ? "1" : "0";
  }

  function setConnected(live) {
    board.connected = live;
    document.body.dataset.conn = live ? "live" : "lost";
    $("conn").textContent = live ? words().live : words().reconnecting;
  }

  function heard() {
    lastHeard = performance.now();
    backoff = FIRST_RETRY_MS;
    if (!board.connected) setConnected(true);
  }

  function drop() {
    if (source) source.close();
    source = null;
    setConnected(false);
    if (retryTimer === null) {
      retryTimer = setTimeout(() => { retryTimer = null; connect(); }, backoff);
      backoff = Math.min(backoff * 2, MOST_RETRY_MS);
    }
  }

  function connect() {
    if (source) source.close();
    openedAt = performance.now();
    source = new EventSource("/api/board/events");
    source.addEventListener("board", (event) => {
      heard();
      draw(JSON.parse(event.data));
    });
    source.addEventListener("ping", heard);
    source.onerror = drop;
  }

  setInterval(() => {
    const now = performance.now();
    const closedAfter = 1000 * ((board.doc && board.doc.closed_after) || 3);
    if (now - lastHeard > closedAfter) setClosed(true); // the table is gone: the players see it
    if (board.connected && now - lastHeard > LOST_MS) drop();
    else if (!board.connected && source && now - openedAt > LOST_MS) drop();
  }, 200);

  // --- drawing --------------------------------------------------------------------------
  function colours(c) {
    const root = document.documentElement.style; // CSSOM: the page's CSP allows it
    for (const [name, key] of [["--bg", "background"], ["--fg", "foreground"], ["--accent", "accent"]]) {
      if (c && /^#[0-9a-fA-F]{3,6}$/.test(c[key] || "")) root.setProperty(name, c[key]);
    }
  }

  function draw(doc) {
    board.doc = doc;
    board.boards += 1;
    language = WORDS[doc.language] ? doc.language : "en";
    const w = words();
    document.documentElement.lang = language;
    document.body.dataset.game = doc.game || "";
    document.title = doc.table || "";
    colours(doc.colours);
    $("casino").textContent = doc.casino || "";
    $("casino").hidden = !doc.casino;
    $("table").textContent = doc.table || "";
    const own = ((window.tablectl || {}).renderers || {})[doc.renderer || ""];
    $("game").textContent = (own && own.title && own.title(language)) || doc.title || "";
    const limits = doc.limits || {};
    $("limits-word").textContent = w.limits;
    $("min-word").textContent = w.min;
    $("max-word").textContent = w.max;
    $("minimum").textContent = limits.minimum == null ? "" : money(limits.minimum);
    $("maximum").textContent = limits.maximum == null ? "" : money(limits.maximum);
    $("closed-text").textContent = w.closed;
    $("closed-more").textContent = w.waiting;
    $("conn").textContent = board.connected ? w.live : w.reconnecting;
    $("facts").innerHTML = own && own.players ? own.players(doc.facts || {}, language) : "";
    setClosed(Boolean(doc.closed));
  }

  $("closed-text").textContent = words().closed;
  connect();
})();
