/* Cards that set off before the server's answer (playing ahead). An action the server listed
   as legal on the board shown (actions.js asks only for those) sets its cards flying at once;
   the answer confirms the flight (its stand-ins give way to the answer's own motion, which
   goes on from where they are) or sends them back. This module owns the flights, in the
   order the actions were made, and which one the answer being swapped in is for.

   Their stand-ins fly in a layer of their own, outside the board (an answer replaces the
   board, not them), above the answers' stand-ins: cards dealt ahead lie on top. Under reduced
   motion the cards are simply there at once. */

import { board, played } from "./page.js";
import { backOf, box, copy, layer, moveTime, off, placed, startNow } from "./standins.js";

/** The flights waiting for their answers: {from, to, n, codes, tokens: [{el, origin, real}]}. */
const flights = [];
/** The flight whose answer is being swapped in: {flight, refused}, or null. */
let confirming = null;
let aheadLayer = null;

function ownLayer() {
  if (!aheadLayer || !aheadLayer.isConnected) aheadLayer = layer(document.body, "ahead");
  return aheadLayer;
}

/** The top ``n`` cards drawn on the pile ``name`` of the board ``b``. */
function topCards(b, name, n) {
  const pile = b.querySelector(`[data-pile="${CSS.escape(name)}"]`);
  if (!pile || name === "s") return [];
  return Array.from(pile.querySelectorAll(":scope > .card")).slice(-n);
}

/** Where ``n`` cards put on the pile ``name`` now would lie: a column fans them below its top
    card, any other pile lays them on its top card (or its empty place). */
function landing(b, name, n) {
  const pile = b.querySelector(`[data-pile="${CSS.escape(name)}"]`);
  const drawn = Array.from(pile.querySelectorAll(":scope > .card:not(.ahead-away)"), box);
  const slot = pile.querySelector(":scope > .slot");
  const base = drawn.length ? drawn[drawn.length - 1] : box(slot || pile);
  if (!pile.classList.contains("column")) return Array(n).fill(base);
  const last = drawn[drawn.length - 1];
  const fan = drawn.length > 1 ? last.y - drawn[drawn.length - 2].y : base.h * 0.22;
  const first = drawn.length ? 1 : 0;
  return Array.from({ length: n }, (_, k) => ({ ...base, y: base.y + fan * (k + first) }));
}

function codesOf(cards) {
  return cards.map((el) => el.dataset.card || "").join(" ");
}

/** Set off at once the ``n`` cards of the pile ``from`` that the player moved to the pile
    ``to`` (``from`` "s": a card dealt, face down until the answer names it). Returns the
    flight, or null. */
export function predict(from, to, n) {
  const b = board();
  if (!b) return null;
  const deal = from === "s";
  const reals = deal ? [] : topCards(b, from, n);
  if (!deal && reals.length !== n) return null;
  const stock = deal && b.querySelector('[data-pile="s"] > .card');
  if (deal && !stock) return null;
  const origins = deal ? [box(stock)] : reals.map(box);
  let starts = origins;
  // Cards let go of by a drag set off from where they were dropped.
  const ghost = document.querySelector(".drag-ghost[data-from]");
  if (ghost && ghost.dataset.from.split(":")[0] === from) {
    const dropped = Array.from(ghost.querySelectorAll(":scope > .card"), box).slice(-n);
    if (dropped.length === n) {
      starts = dropped;
      ghost.style.visibility = "hidden";
    }
  }
  const ends = landing(b, to, n);
  const own = ownLayer();
  const origin = own.getBoundingClientRect();
  const still = off();
  const flight = { from, to, n, codes: codesOf(reals), tokens: [] };
  const els = deal ? [backOf({ up: false, flips: [] })] : reals.map(copy);
  els.forEach((el, k) => {
    const size = origins[k];
    el.style.width = `${size.w}px`;
    el.style.height = `${size.h}px`;
    el.style.zIndex = 1000 + own.childElementCount;
    own.appendChild(el);
    const frames = [placed(starts[k], size, origin), placed(ends[k], size, origin)];
    const timing = { duration: still ? 0 : moveTime(), easing: "cubic-bezier(.33, 1, .68, 1)", fill: "forwards" };
    startNow([el.animate(still ? [frames[1], frames[1]] : frames, timing)]);
    flight.tokens.push({ el, origin: size, real: reals[k] || null });
  });
  reals.forEach((el) => el.classList.add("ahead-away"));
  flights.push(flight);
  return flight;
}

function forget(flight) {
  const i = flights.indexOf(flight);
  if (i >= 0) flights.splice(i, 1);
  if (!flights.length && aheadLayer) {
    aheadLayer.remove();
    aheadLayer = null;
  }
}

/** The answer to ``flight``'s action is about to be swapped in: it confirms the flight, or
    (``refused``) sends it back. */
export function answer(flight, refused) {
  confirming = flight ? { flight, refused } : null;
}

/** Where the cards of the flight the coming answer confirms are now, for what is left of
    their flight (the answer's motion goes on from there): {from, boxes, left}, or null. */
export function confirmedPlaces() {
  const flight = confirming && !confirming.refused ? confirming.flight : null;
  if (!flight) return null;
  return {
    from: flight.from,
    boxes: flight.tokens.map((token) => box(token.el)),
    left: Math.max(1, ...flight.tokens.flatMap((token) => token.el.getAnimations())
      .map((a) => a.effect.getComputedTiming().endTime - (a.currentTime || 0))),
  };
}

/** Send the cards of ``flight`` back to where they were, and the board shows them there. */
export function back(flight) {
  if (!flight || flight.returning || !flights.includes(flight)) return;
  flight.returning = true;
  const b = board();
  const own = ownLayer();
  const origin = own.getBoundingClientRect();
  const waiting = b ? topCards(b, flight.from, flight.n) : [];
  const there = codesOf(waiting) === flight.codes && !flight.tokens.some((t) => !t.real);
  const still = off();
  let last = null;
  flight.tokens.forEach((token, k) => {
    if (token.real) token.real.classList.remove("ahead-away");
    token.el.getAnimations().forEach((a) => a.cancel());
    const frames = [placed(box(token.el), token.origin, origin), placed(token.origin, token.origin, origin)];
    if (!token.real) frames[1].opacity = 0; // a card dealt ahead: back into the stock
    last = token.el.animate(frames, { duration: still ? 0 : moveTime(), fill: "forwards" });
    if (there && !still) waiting[k].animate([{ opacity: 0 }, { opacity: 0 }], { duration: moveTime() });
  });
  const done = () => {
    flight.tokens.forEach((token) => token.el.remove());
    forget(flight);
  };
  if (last && !still) last.finished.then(done, done);
  else done();
}

/** After a swap: the confirmed flight's stand-ins give way to the answer's (or go back),
    and the cards still waiting for their answers stay out of sight on the new board. */
export function confirmed() {
  const was = confirming;
  confirming = null;
  // The answer agrees when its first move starts where the flight did: a stale board or a
  // refusal answers with the board as it is, and no move.
  const steps = played("steps") || [];
  if (was && (was.refused || !steps.length || steps[0].from !== was.flight.from)) {
    back(was.flight);
  } else if (was) {
    was.flight.tokens.forEach((token) => token.el.remove());
    forget(was.flight);
  }
  const b = board();
  if (!b) return;
  for (const flight of flights) {
    if (flight.from === "s" || flight.returning) continue;
    const waiting = topCards(b, flight.from, flight.n);
    if (codesOf(waiting) === flight.codes) waiting.forEach((el) => el.classList.add("ahead-away"));
  }
}
