// Text and card faces for the status display, shared by app.js and the games' own drawings
// (/game.js, each from its game's folder): escaping, money, seat lists, the rule a reason
// cites, and the four suits as inline SVG (no font or image to fetch). Loaded first, as
// window.TableFaces, the one place these live.
"use strict";

window.TableFaces = (() => {
  // --- text -------------------------------------------------------------------------
  const esc = (value) =>
    String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const money = (n) => `$${Number(n || 0).toLocaleString("en-NZ")}`;
  const seatList = (xs) => (xs && xs.length ? xs.join(", ") : "none");
  // "rule 9.5" for a clause of the rules; a named reason that is not one ("table
  // variant", "hold procedure") as it is (controller/game/records.py, cite)
  const cite = (rule) => (/^[0-9]/.test(rule || "") ? `rule ${rule}` : String(rule || ""));

  // --- card faces ---------------------------------------------------------------------
  const SUITS = {
    s: ["spades", false,
      '<path d="M50 4C78 30 96 44 96 62c0 14-11 22-23 22-9 0-16-5-19-12 1 10 5 18 13 24H33c8-6 12-14 13-24-3 7-10 12-19 12C15 84 4 76 4 62 4 44 22 30 50 4z"/>'],
    h: ["hearts", true,
      '<path d="M50 92C20 68 4 48 4 30 4 14 16 4 30 4c9 0 16 5 20 14C54 9 61 4 70 4c14 0 26 10 26 26 0 18-16 38-46 62z"/>'],
    d: ["diamonds", true, '<path d="M50 2l40 48-40 48-40-48z"/>'],
    c: ["clubs", false,
      '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/><circle cx="50" cy="50" r="12"/>' +
      '<path d="M45 50h10c1 20 6 34 16 46H29c10-12 15-26 16-46z"/>'],
  };
  const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };

  function cardFace(text, key) {
    const rank = text.slice(0, -1);
    const suit = SUITS[text.slice(-1).toLowerCase()];
    if (!suit) return `<div class="card blank" data-key="${esc(key)}" aria-label="card"></div>`;
    const shown = rank === "T" ? "10" : rank;
    const name = `${RANKS[rank] || rank} of ${suit[0]}`;
    return (
      `<div class="card${suit[1] ? " red" : ""}" data-card="${esc(text)}" data-key="${esc(key)}" ` +
      `role="img" aria-label="${esc(name)}"><span>${esc(shown)}</span>` +
      `<svg viewBox="0 0 100 100" aria-hidden="true">${suit[2]}</svg></div>`
    );
  }

  // --- player ratings (docs/ratings.md) -------------------------------------------------
  // The view's "rated" marks: which boxes (seats) a rating is open at. A mark, never who
  // the player is; a name only where the table is configured to show one ([rating]
  // show_names) and the view carries it.
  const ratedBoxes = (view) => new Set((view.rated || []).map((r) => r.box));
  const ratedTag = (view, box) =>
    ratedBoxes(view).has(box) ? `<span class="tag blue" data-rated="${esc(box)}">RATED</span>` : "";
  const ratedLine = (view, word = "BOX") => {
    const rated = view.rated || [];
    if (!rated.length) return "";
    const marks = rated.map((r) =>
      `<span data-rated-box="${esc(r.box)}">${esc(word)} ${esc(r.box)}${r.name ? ` (${esc(r.name)})` : ""}</span>`);
    return `<div class="rated-line" data-rated-line="1">RATED: ${marks.join(" · ")}</div>`;
  };

  // The console's rating buttons (a table that rates: the view has "rated"): END RATING
  // on a rated box, RATE (an anonymous rating, named later) on a box in play that is not.
  const ratingButtons = (view, boxes, word = "BOX") => {
    if (!Array.isArray(view.rated)) return [];
    const rated = ratedBoxes(view);
    const out = [...rated].sort((a, b) => a - b).map((box) => ({
      name: `end_rating${box}`, label: `END RATING ${word} ${box}`, lit: false,
      body: { action: "end_rating", args: { box } },
    }));
    for (const box of boxes) {
      if (!rated.has(box)) {
        out.push({
          name: `start_rating${box}`, label: `RATE ${word} ${box}`, lit: false,
          body: { action: "start_rating", args: { box } },
        });
      }
    }
    return out;
  };

  return { esc, money, seatList, cite, cardFace, ratedTag, ratedLine, ratingButtons };
})();
