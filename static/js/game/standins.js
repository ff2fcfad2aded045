/* Stand-ins: copies of cards that fly in a layer over the board while the cards they stand for
   wait hidden in their places (ahead.js before an answer, travel.js and cascade.js after it).
   Also what every flight shares: whether motion is off, a card's box on the screen, the
   transform that draws a card at a place, and starting animations in the frame being drawn.
   No state: each function works on what it is given. */

/** How long (ms) the player's move travels, at the normal pace. */
export const MOVE = 200;
/** Each pace of the Looks page (<html data-motion>) as a factor of every flight's time. */
const PACES = { slow: 1.6, normal: 1, fast: 0.6 };

/** The player's pace: a factor of every flight's time (1 at the normal pace). */
export function pace() {
  return PACES[document.documentElement.dataset.motion] || 1;
}

/** How long (ms) the player's move travels at the player's pace. */
export function moveTime() {
  return MOVE * pace();
}

/** Whether cards only appear where they go: under prefers-reduced-motion, or when
    <html data-motion="off"> (the player's setting). */
export function off() {
  return (
    window.matchMedia("(prefers-reduced-motion: reduce)").matches ||
    document.documentElement.dataset.motion === "off"
  );
}

export function box(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, w: r.width, h: r.height };
}

/** A layer for stand-ins, over the board (``extra`` adds a class to it), appended to
    ``parent``. */
export function layer(parent, extra = "") {
  const el = document.createElement("div");
  el.className = extra ? `motion-layer ${extra}` : "motion-layer";
  el.setAttribute("aria-hidden", "true");
  parent.appendChild(el);
  return el;
}

/** Classes of a card that say what is happening to it on the board, not what it is. */
const STATES = ["picked", "drag-source", "hint-source", "target", "over", "ahead-away"];
/** What a copy of a card loses: it is no link, no button, nothing to focus or to name. */
const UNCOPIED = [
  "id", "href", "data-pick", "aria-label", "tabindex", "role", "name", "value", "type",
];
/** What a copy of a card loses of the pile it lay on: the stock's count, a badge. */
const PILE_MARKS = ".count, .badge";
/** Classes of a card that belong to its pile's control, not to the card. */
const PILE_CLASSES = ["stock-button"];

/** A copy of a card to fly in its place: the card alone, a plain span (never the stock's
    button, its count, or a control's look). */
export function copy(el) {
  const card = document.createElement("span");
  card.className = el.className;
  for (const attr of el.attributes) {
    if (attr.name !== "class" && !UNCOPIED.includes(attr.name)) {
      card.setAttribute(attr.name, attr.value);
    }
  }
  card.append(...Array.from(el.childNodes, (node) => node.cloneNode(true)));
  card.querySelectorAll(PILE_MARKS).forEach((mark) => mark.remove());
  card.classList.remove(...STATES, ...PILE_CLASSES);
  card.classList.add("motion-card");
  card.setAttribute("aria-hidden", "true");
  return card;
}

/** The faces of the cards an answer names that the board may not show (#motion's template),
    by card code. */
export function faceTemplate() {
  const template = document.querySelector("#motion > template");
  const faces = {};
  if (template) {
    template.content.querySelectorAll("[data-card]").forEach((el) => {
      faces[el.dataset.card] = el;
    });
  }
  return faces;
}

/** The face-up side of a card's stand-in (``token``: travel.js), if it is ever face up. */
export function faceOf(token, faces) {
  const up = token.up || token.flips.some((f) => f.up);
  if (!up) return null;
  if (token.el && token.up) return copy(token.el);
  if (token.real && !token.real.classList.contains("back")) return copy(token.real);
  if (token.code && faces[token.code]) return copy(faces[token.code]);
  return null;
}

/** The face-down side, if it is ever face down. */
export function backOf(token) {
  const down = !token.up || token.flips.some((f) => !f.up);
  if (!down) return null;
  if (token.el && !token.up) return copy(token.el);
  if (token.real && token.real.classList.contains("back")) return copy(token.real);
  // A card of the stock: a plain back, not the stock's button with its count.
  const back = document.createElement("span");
  back.className = "card back motion-card";
  back.dataset.card = "down";
  back.setAttribute("aria-hidden", "true");
  return back;
}

/** The transform that draws a card of ``size`` at ``place`` in the layer at ``origin``. */
export function placed(place, size, origin) {
  const sx = size.w ? place.w / size.w : 1;
  const sy = size.h ? place.h / size.h : 1;
  return { transform: `translate(${place.x - origin.left}px, ${place.y - origin.top}px) scale(${sx}, ${sy})` };
}

/** Start ``animations`` at this frame's time rather than at the next frame's (as a new
    animation would, pending until then): the cards are seen moving in the next frame drawn. */
export function startNow(animations) {
  const now = document.timeline.currentTime;
  if (now !== null) animations.forEach((animation) => (animation.startTime = now));
}
