/* The win: once a won game's last moves have travelled, the foundations' cards leave one after
   another, the top cards first, thrown sideways, falling and bouncing off the bottom of the
   window. The answer that won names them (#motion's data-cascade: each foundation's cards,
   bottom to top). This module keeps no state: motion.js starts the cascade and owns it while
   it runs. */

import { box, copy, faceTemplate, layer } from "./standins.js";

/** Every card has left within about CASCADE_TOTAL ms, each at least CASCADE_GAP[0] and at most
    CASCADE_GAP[1] ms after the one before; CASCADE_FLIGHT is the longest flight. */
const CASCADE_TOTAL = 1000;
const CASCADE_GAP = [8, 100];
const CASCADE_FLIGHT = 1400;
/** The time (ms) between two computed places of a falling card. */
const FRAME = 40;

/** Send the cards of ``cascade`` off the board ``b``; what it starts goes into ``running``
    (motion.js: its animations and layer). Returns the time (ms) it takes. */
export function cascadeOff(b, cascade, running) {
  const faces = faceTemplate();
  const own = layer(b);
  const origin = own.getBoundingClientRect();
  const piles = Object.entries(cascade);
  const deepest = Math.max(0, ...piles.map(([, codes]) => codes.length));
  const cards = [];
  for (let depth = 0; depth < deepest; depth++) {
    for (const [name, codes] of piles) {
      const k = codes.length - 1 - depth;
      if (k >= 0) cards.push({ name, code: codes[k], k });
    }
  }
  const even = CASCADE_TOTAL / (cards.length || 1);
  const gap = Math.max(CASCADE_GAP[0], Math.min(CASCADE_GAP[1], even));
  let end = 0;
  cards.forEach((card, i) => {
    const face = faces[card.code];
    const pile = b.querySelector(`[data-pile="${CSS.escape(card.name)}"]`);
    if (!face || !pile) return;
    const from = box(pile.querySelector(":scope > .card, :scope > .slot") || pile);
    const el = copy(face);
    el.style.width = `${from.w}px`;
    el.style.height = `${from.h}px`;
    own.appendChild(el);
    // The first to leave lies on top while waiting, and flies over those that leave later.
    el.style.zIndex = 10000 - i;
    const frames = fall(from, origin);
    const flight = (frames.length - 1) * FRAME;
    const timing = { delay: i * gap, duration: flight, fill: "both" };
    running.animations.push(el.animate(frames, timing));
    end = Math.max(end, i * gap + flight);
  });
  running.layer = own;
  b.classList.add("cascading");
  return end;
}

/** A card thrown sideways off ``from``: its places every FRAME ms until it leaves the window
    or CASCADE_FLIGHT is over. */
function fall(from, origin) {
  const side = Math.random() < 0.5 ? -1 : 1;
  const bottom = window.innerHeight - from.h;
  const gravity = 0.0022;
  let vx = side * (0.12 + Math.random() * 0.3);
  let vy = -Math.random() * 0.45;
  let x = from.x;
  let y = from.y;
  const frames = [];
  for (let t = 0; t <= CASCADE_FLIGHT; t += FRAME) {
    frames.push({ transform: `translate(${x - origin.left}px, ${y - origin.top}px)` });
    if (x < -from.w || x > window.innerWidth) break;
    vy += gravity * FRAME;
    x += vx * FRAME;
    y += vy * FRAME;
    if (y > bottom) {
      y = bottom;
      vy = -vy * 0.7;
    }
  }
  if (frames.length < 2) frames.push(frames[0]);
  return frames;
}
