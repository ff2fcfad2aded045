/* What moves after an answer, and stopping it. After a move, an undo, a redo or a Finish the
   server's answer draws the board as it now is, with the moves that led there (#motion: each
   move's pile of departure, pile of arrival, how many cards, the card turned over;
   games/web/motion.py), and after a win the foundations' cards. Before the answer is swapped
   in, this module has the board measured; after, it has the cards travel (travel.js), then,
   after a win, cascade off (cascade.js). It owns the board as measured and what is moving.

   Motion never blocks: a press, a key or a new request finishes what is moving at once, and
   the move goes through. A Finish plays its moves out within 5.5 s however many; "Skip" (or a
   click, or a key) ends it, or the cascade, at once. Nothing moves under
   prefers-reduced-motion, nor when <html data-motion="off">. The time taken on each answer is
   marked for the browser's tools ("motion: measure", "motion: travel"; tests/bench/motion.py). */

import { confirmedPlaces } from "./ahead.js";
import { cascadeOff } from "./cascade.js";
import { board, played } from "./page.js";
import { box, off } from "./standins.js";
import { measure, travel } from "./travel.js";

/** More moves than this in one answer offer Skip. */
const FINISH_FROM = 12;

/** What the board looked like just before an answer was swapped in. */
let before = null;
/** What is moving now: {animations, timers, layer, timer, board}; null when nothing is. */
let running = null;

/** Whether two boxes overlap. */
function overlap(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Show or hide "Skip": in the window's lower right corner, over the table, or just above
    the message there when it would cover the message's text. */
function skipButton(shown) {
  const skip = document.getElementById("motion-skip");
  if (!skip) return;
  skip.hidden = !shown;
  skip.style.bottom = "";
  if (shown) placeSkip();
}

/** Move "Skip" above the message it would cover (the answer's message may come in after
    the board, or later). */
export function placeSkip() {
  const skip = document.getElementById("motion-skip");
  if (!skip || skip.hidden) return;
  skip.style.bottom = "";
  const own = box(skip);
  const said = document.querySelectorAll(".notices .message, .notices .assist-answer");
  const texts = Array.from(said, box)
    .filter((text) => text.w && text.h && overlap(own, text));
  if (!texts.length) return;
  const top = Math.min(...texts.map((text) => text.y));
  skip.style.bottom = `${Math.max(window.innerHeight - top + 8, 0)}px`;
}

/** End what is moving at once: every card where it is going, the won panel shown. */
function stop() {
  if (!running) return;
  const done = running;
  running = null;
  clearTimeout(done.timer);
  done.timers.forEach(clearTimeout);
  done.animations.forEach((animation) => animation.cancel());
  if (done.layer) done.layer.remove();
  done.board.classList.remove("cascading");
  done.board.querySelectorAll(".motion-holding").forEach((el) => {
    el.classList.remove("motion-holding");
  });
  skipButton(false);
}

/** Measure the board before an answer replaces any of it (htmx:beforeSwap's detail; the piles
    come out of band), what moves now ending first. A catch-up poll's "nothing new" (204)
    swaps nothing: what moves goes on. */
export function measureBefore(detail) {
  const b = board();
  if (!b || detail.target !== b || !detail.shouldSwap) return;
  stop();
  const start = performance.now();
  before = off() ? null : measure(b, confirmedPlaces());
  performance.measure("motion: measure", { start });
}

/** Show the moves of the answer just swapped in, travelling from the board measured before;
    after a win, the cascade. Called as soon as the answer is in, before the browser draws
    it: the cards set off in the frame the answer shows. */
export function playAnswer() {
  const old = before;
  before = null;
  const b = board();
  if (!b || !old || !document.getElementById("motion")) return;
  const moves = played("steps") || [];
  const cascade = played("cascade") || {};
  // Only the answer that won the game has the foundations' cards.
  const won = Object.keys(cascade).length > 0;
  const panel = b.querySelector(".outcome");
  if (!moves.length && !won) return;
  const finish = document.getElementById("motion").dataset.event === "finished";
  running = { animations: [], timers: [], layer: null, timer: 0, board: b };
  let end = 0;
  try {
    end = travel(b, old, moves, finish, running);
  } catch (error) {
    stop(); // the board as it is, never half moved
    throw error;
  }
  if (won && panel) panel.classList.add("motion-holding");
  if (won || moves.length > FINISH_FROM) skipButton(true);
  running.timer = setTimeout(() => {
    if (!won || !running) {
      stop();
      return;
    }
    running.animations.forEach((animation) => animation.cancel());
    running.animations = [];
    if (running.layer) running.layer.remove();
    running.timer = setTimeout(stop, cascadeOff(b, cascade, running));
  }, end);
}

/** A request is starting (htmx:beforeRequest's ``source``): any but the catch-up poll ends
    what moves. */
export function requestStarts(source) {
  if (!(source && source.hasAttribute && source.hasAttribute("data-poll"))) stop();
}

/** Motion never blocks: a press or a key ends it at once, and so does "Skip". */
export function listen() {
  document.addEventListener("pointerdown", stop, true);
  document.addEventListener("keydown", stop, true);
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("#motion-skip")) stop();
  });
}
