/* Drag and drop, with a mouse, a pen or a finger (pointer events). Press a card and move: the
   card and every card above it (its data-pick: "t3:2") follow the pointer, and the piles the
   server lists as legal for it light up. Let go on a pile that takes them and the
   move is played there (a POST of the move in the notation, as for a click). Let go on the
   table or where the cards came from and they go back; let go on a pile that does not take
   them and they go back while the server says why. A press that hardly moves is a click for
   click.js (a finger's or a pen's tap played when it lifts, not at the browser's click, which
   may not come); two quick taps on a card send it to a foundation (a mouse double-clicks,
   click.js). This module owns the press and the drag in progress. */

import { move, toFoundation } from "../actions.js";
import { board, pileOf, targetsOf } from "../page.js";
import { heldPick, hold } from "../pick.js";
import { playAt } from "./click.js";

/** How far (CSS pixels) a press moves before it is a drag, not a click. */
const SLOP = { mouse: 4, pen: 6, touch: 8 };
/** Two taps on one card within this time (ms) are a double tap. */
const DOUBLE_TAP = 400;

/** The press in progress: {card, pick, pointer, type, x, y}. */
let press = null;
/** The drag in progress: {ghost, sources, targets, source, over}. */
let drag = null;
/** The last tap, to see a second one: {card, time, x, y}. */
let lastTap = null;
/** Whether the click the browser may send for the press that just ended (a drag, or a tap that
    was played when the finger lifted) is to be swallowed: only that one. The next press clears it, so a tap
    made just after a drag is a tap. */
let swallowNext = false;
/** What to do when the answer to each drop comes (the cards wait where they were let go). */
const dropped = [];

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The name of the pile under the point (x, y), or "": a column reaches down the table. */
function pileAt(x, y) {
  const b = board();
  const hit = document.elementFromPoint(x, y);
  const pile = hit && hit.closest("[data-pile]");
  if (pile && b.contains(pile)) return pile.dataset.pile;
  const tableau = b.querySelector(".tableau");
  if (!tableau) return "";
  const bottom = tableau.getBoundingClientRect().bottom;
  for (const column of tableau.querySelectorAll("[data-pile]")) {
    const box = column.getBoundingClientRect();
    if (x >= box.left && x <= box.right && y >= box.top && y <= bottom) {
      return column.dataset.pile;
    }
  }
  return "";
}

/** Where a drop on pile ``name`` goes: any foundation stands for one that takes the cards. */
function dropTarget(name) {
  if (name.startsWith("f") && !drag.targets.includes(name)) {
    return drag.targets.find((t) => t.startsWith("f")) || name;
  }
  return name;
}

function start() {
  const b = board();
  const card = press.card;
  if (heldPick()) hold("");
  const sources = [];
  for (let el = card; el; el = el.nextElementSibling) {
    if (el.classList.contains("card")) sources.push(el);
  }
  const box = card.getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "pile column drag-ghost";
  ghost.setAttribute("aria-hidden", "true");
  // Where the cards came from: ahead.js and travel.js fly them on from where they are let go.
  ghost.dataset.from = press.pick;
  ghost.style.left = `${box.left}px`;
  ghost.style.top = `${box.top}px`;
  ghost.style.width = `${box.width}px`;
  // The cards as tall as on the table, where a phone's free height makes them taller.
  ghost.style.setProperty("--ch", `${box.height}px`);
  for (const el of sources) {
    const copy = el.cloneNode(true);
    for (const name of ["href", "data-pick", "aria-label"]) {
      copy.removeAttribute(name);
    }
    copy.classList.remove("picked");
    ghost.appendChild(copy);
    el.classList.add("drag-source");
  }
  document.body.appendChild(ghost);
  const targets = targetsOf(press.pick);
  for (const name of targets) {
    const pile = pileOf(name);
    if (pile) pile.classList.add("target");
  }
  b.classList.add("dragging");
  try {
    // Keep the pointer's events coming to us when it leaves the window.
    card.setPointerCapture(press.pointer);
  } catch {
    // The pointer is gone already: its pointerup or pointercancel ends the drag.
  }
  drag = { ghost, sources, targets, source: press.pick.split(":")[0], over: null };
}

function follow(event) {
  const dx = event.clientX - press.x;
  const dy = event.clientY - press.y;
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  const name = pileAt(event.clientX, event.clientY);
  const pile = name && name !== drag.source ? pileOf(dropTarget(name)) : null;
  if (pile !== drag.over) {
    if (drag.over) drag.over.classList.remove("over");
    if (pile) pile.classList.add("over");
    drag.over = pile;
  }
}

/** End the drag. The ghost stays where it was let go until the new board comes (``stay``),
    or flies back to where the cards were. */
function end(stay) {
  const { ghost, sources } = drag;
  drag = null;
  const b = board();
  if (b) {
    b.classList.remove("dragging");
    b.querySelectorAll(".pile.target, .pile.over").forEach((el) => {
      el.classList.remove("target", "over");
    });
  }
  const done = () => {
    ghost.remove();
    sources.forEach((el) => el.classList.remove("drag-source"));
  };
  if (stay) {
    dropped.push(done);
  } else if (reducedMotion()) {
    done();
  } else {
    ghost.classList.add("returning");
    ghost.style.transform = "";
    ghost.addEventListener("transitionend", done, { once: true });
    setTimeout(done, 300);
  }
}

function drop(event) {
  const name = pileAt(event.clientX, event.clientY);
  const target = name ? dropTarget(name) : "";
  const pick = press.pick;
  if (!/^[tf]\d+$/.test(target) || target === drag.source) {
    end(false);
  } else if (drag.targets.includes(target)) {
    // Played, the cards wait where they were let go (or set off from there at once, when
    // ahead.js plays the move ahead of its answer); not played, they go back.
    end(move(pick, target));
  } else {
    end(false);
    move(pick, target);
  }
}

/** A tap (no drag) by a finger or a pen, taken when the finger lifts: the browser's click may
    come late or not at all (Chromium sends none for a tap soon after a drag), and is then
    swallowed. The second quick tap on a card sends it home. */
function tap(event) {
  if (press.type === "mouse") return;
  const now = performance.now();
  const again =
    lastTap &&
    lastTap.card === press.card &&
    now - lastTap.time < DOUBLE_TAP &&
    Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < 30;
  if (again) {
    lastTap = null;
    swallowNext = true;
    toFoundation(press.pick);
  } else {
    lastTap = { card: press.card, time: now, x: event.clientX, y: event.clientY };
    if (playAt(press.card)) swallowNext = true;
  }
}

function cancel() {
  if (drag) end(false);
  press = null;
}

/** Whether dragged cards are in sight: held by the pointer, waiting where they were let go,
    or going back. */
export function dragging() {
  return document.querySelector(".drag-ghost") !== null;
}

/** A swap came (htmx:afterSwap): one that redraws the pile the cards are dragged from ends
    the drag (the cards may be others now); one that leaves that pile lets it go on, and the
    drop joins the queue of actions. */
export function swapped() {
  if (drag && drag.sources.some((el) => !el.isConnected)) cancel();
}

/** An answer is in (swapped in, or the request ended): cards left where they were dropped
    give way to the board. */
export function answerIn() {
  dropped.splice(0).forEach((done) => done());
}

/** Presses, moves and releases of the pointer; Escape; the clicks a drag leaves behind. */
export function listen() {
  document.addEventListener("pointerdown", (event) => {
    swallowNext = false;
    if (drag || !event.isPrimary || event.button !== 0) return;
    press = null;
    const b = board();
    const card = event.target.closest && event.target.closest("a[data-pick]");
    if (!b || !card || !b.contains(card)) return;
    press = {
      card,
      pick: card.dataset.pick,
      pointer: event.pointerId,
      type: event.pointerType || "mouse",
      x: event.clientX,
      y: event.clientY,
    };
  });

  document.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.pointer) return;
    if (event.buttons === 0) {
      // The button was let go where we did not hear it (another window, a dialog).
      cancel();
      return;
    }
    if (!drag) {
      const slop = SLOP[press.type] || SLOP.mouse;
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < slop) return;
      start();
    }
    follow(event);
  });

  document.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.pointer) return;
    if (drag) {
      swallowNext = true;
      drop(event);
    } else {
      tap(event);
    }
    press = null;
  });

  document.addEventListener("pointercancel", (event) => {
    if (press && event.pointerId === press.pointer) cancel();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && drag) cancel();
  });
  document.addEventListener(
    "click",
    (event) => {
      // A click from the keyboard (detail 0) follows no press: it is never the drag's.
      if (!swallowNext || event.detail === 0) return;
      swallowNext = false;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    true,
  );
  // Links are dragged by the browser itself; ours move by pointer events instead.
  document.addEventListener("dragstart", (event) => {
    const b = board();
    if (b && b.contains(event.target)) event.preventDefault();
  });
  // Cards that can be picked up take touch gestures for dragging (site.css), only with us here.
  document.documentElement.classList.add("can-drag");
  // A long press on a card is the start of a drag, not a call for the link's menu.
  document.addEventListener("contextmenu", (event) => {
    if (drag || (press && press.type !== "mouse")) event.preventDefault();
  });
}
