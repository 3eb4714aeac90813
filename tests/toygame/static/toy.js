// The toy game's drawing for the status page: a game outside the controller's tree ships its
// page drawing in its own folder, named by its spec's page_script ("toygame:static/toy.js"),
// and the page draws it with no change to the app. It registers
// window.tablectl.renderers.toy, as every game's drawing does (app.js, gameDrawing).
"use strict";

(() => {
  if (!window.TableFaces) return;  // the pit: no board to draw
  const { esc, cardFace, cite } = window.TableFaces;

  function view(state, v) {
    const cards = (v.cards || []).map((c, i) => cardFace(c, `${state.round}|toy|${i}|${c}`)).join("");
    return `<div class="row-line" data-toy="${esc(v.state)}"><span class="who">TOY</span>` +
      `<div class="cards">${cards}</div></div>`;
  }

  const next = (v) => (v.state === "idle" ? "Press NEXT to deal a toy round" : "Deal the toy's cards");

  const buttons = (v) => [
    { name: "next", label: "NEXT TOY ROUND", lit: v.state === "idle", body: { button: "next" } },
  ];

  // the HOLD banner, in the toy's own words
  const hold = (v) => (v.hold ? `TOY HOLD (${cite(v.hold.rule)}): ${v.hold.message}` : "");

  window.tablectl = window.tablectl || {};
  window.tablectl.renderers = window.tablectl.renderers || {};
  window.tablectl.renderers.toy = { view, next, buttons, hold };
})();
