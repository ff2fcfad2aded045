/* The actions' queue: every action (a move, a deal, an undo, a redo, the board's other
   actions) joins it and is sent when the answer to the one before is in, with the ply and
   version of the board then shown (the server's, #table-state): so actions made quickly are
   all played, in order, none twice, and the server judges each on the board it has. This
   module owns the queue, the action on its way and what the last answer played; actions.js
   makes the actions, ahead.js flies the cards of those that set off before their answer.

   Sent by htmx (htmx.ajax), an action's answer replaces the board (#board), or after a move
   only what changed comes out of band; board.js tells this module where the answer stands. */

import * as ahead from "./ahead.js";
import { online, sayOffline } from "./network.js";
import { board, played, say } from "./page.js";
import { hold } from "./pick.js";
import { cue } from "./sound.js";
import { moveTime, off } from "./standins.js";

/** An action the server could not take for now (503: no worker free, or the balancer's queue
    full; Retry-After says when to come back) is sent again after that time, first in line, for
    this long after it was first sent (ms); past it the player is told, and what waits goes back.
    It cannot be played twice: each send carries the board it was made on (#table-state). */
const RETRY_FOR = 15000;
/** The wait before the action sent goes again (ms), when its answer was a 503; else null. */
let retryIn = null;
/** Until when (Date.now()) nothing is sent: the time a 503 asked to wait. */
let resumeAt = 0;

/** The actions waiting to be sent, oldest first. */
const queue = [];
const QUEUE_LIMIT = 20;
/** The action sent, until its answer is in. */
let sending = null;
/** Whether the answer to the action sent is being swapped in (then it is in once settled). */
let swapped = false;
/** The action and the moves (#motion's steps) of the last answer, when it was one of ours. */
let last = null;

/** A request is on its way (htmx marks the element that sent it), or actions wait for their
    turn; asking whether the game moved on elsewhere (#board [data-poll]) does not count. */
export function busy() {
  return queue.length > 0 || sending !== null ||
    document.querySelector(".htmx-request:not([data-poll])") !== null;
}

/** The action on its way and those waiting, oldest first. */
export function waiting() {
  return [sending, ...queue].filter(Boolean);
}

/** The pile names an action waiting (or on its way) moves cards from or to ("*": all). */
export function touched() {
  const piles = new Set();
  for (const action of waiting()) action.piles.forEach((name) => piles.add(name));
  return piles;
}

/** The last answer's action kind and moves, when it answered one of ours; else null. */
export function lastAnswer() {
  return last;
}

/** The sound of an action of the player's (a card placed, a deal); none for the board's other
    actions. */
function soundOf(action) {
  if (action.kind === "deal") return "deal";
  return ["move", "foundation", "undo", "redo"].includes(action.kind) ? "placed" : "";
}

/** Add ``action`` ({kind, url, values, piles, flight, still}) to the queue and send what may
    go. Returns false when the queue is full or the page is offline (the action is not made:
    its cards go back, and the page says why). */
export function enqueue(action) {
  if (!online()) {
    if (action.flight) ahead.back(action.flight);
    sayOffline();
    cue("refused");
    return false;
  }
  if (queue.length >= QUEUE_LIMIT) return false;
  hold("");
  // A card set off at once sounds as it lands; the others when their answer comes.
  if (action.flight && soundOf(action)) {
    cue(soundOf(action), off() ? 0 : moveTime());
    action.sounded = true;
  }
  queue.push(action);
  next();
  return true;
}

/** Send the next action, if none is on its way. One that no longer means what the player
    asked (the cards it moves are not those the board showed) is dropped, its cards sent back. */
function next() {
  if (sending || !queue.length || document.querySelector(".htmx-request:not([data-poll])")) {
    return;
  }
  if (Date.now() < resumeAt) return; // a 503's wait: its timer sends

  const action = queue.shift();
  if (!action.still()) {
    if (action.flight) ahead.back(action.flight);
    next();
    return;
  }
  sending = action;
  if (action.firstSent === undefined) action.firstSent = Date.now();
  const b = board();
  const token = b.querySelector("input[name=csrfmiddlewaretoken]").value;
  htmx.ajax("POST", action.url(), {
    source: b,
    target: b,
    swap: "outerHTML",
    values: typeof action.values === "function" ? action.values() : action.values,
    // A refusal comes as an answer like any other (200, its status in X-Refused,
    // games/web/edge.py): the browser logs no failed load for a move the rules refuse.
    headers: { "X-CSRFToken": token, "X-Refusal-As-Answer": "yes" },
  });
}

/** The game is not as the page thought (moved on elsewhere, a race, a refusal, no answer):
    what waits was made on a board that never was. Its cards go back. */
function dropQueue() {
  queue.splice(0).forEach((action) => action.flight && ahead.back(action.flight));
}

/** An answer for the board is about to be swapped in (htmx:beforeSwap's detail): ahead.js
    learns whether it confirms the flight of the action sent, before motion.js measures. */
export function answerComing(detail) {
  const b = board();
  if (!b || detail.target !== b) return;
  const xhr = detail.xhr;
  // A 503 is an answer the page expects (the server busy for a moment), not an error: nothing
  // to draw; the catch-up poll asks again later, an action goes again (or the player is told).
  if (xhr.status === 503) {
    detail.shouldSwap = false;
    detail.isError = false;
  }
  if (!sending) {
    // The board the catch-up poll brought: the last answer no longer says what an undo takes
    // back. A poll with no news (204) swaps nothing and changes nothing.
    if (detail.shouldSwap) last = null;
    return;
  }
  if (xhr.status === 503 && Date.now() - sending.firstSent < RETRY_FOR) {
    retryIn = retryAfter(xhr);
    return;
  }
  if (xhr.status === 503) say(b.dataset.textBusy);
  swapped = detail.shouldSwap;
  const refused = xhr.status >= 400 || xhr.getResponseHeader("X-Refused") !== null;
  if (refused) cue("refused");
  if (swapped) ahead.answer(sending.flight, refused);
  if (refused || !swapped) dropQueue();
}

/** The answer to the action sent is in (swapped in and settled, or nothing to swap). */
function answered() {
  const action = sending;
  sending = null;
  swapped = false;
  const steps = played("steps") || [];
  last = action ? { kind: action.kind, steps } : null;
  // The sounds of the page's own answers only: what the catch-up brings is silent.
  if (action && steps.length && !action.sounded && soundOf(action)) cue(soundOf(action));
  if (action && Object.keys(played("cascade") || {}).length) cue("win");
  if (action && action.flight) ahead.back(action.flight);
  // An answer with no move played nothing: the board it brings is the server's (a stale
  // board, a refusal), and what waits was made on the one the page showed.
  if (action && !steps.length) dropQueue();
  next();
}

/** Every swap has settled (htmx:afterSettle). */
export function settled() {
  if (sending && swapped) answered();
}

/** The milliseconds a 503 asks to wait (Retry-After, in seconds; 1 s when it says nothing),
    never past the time left to try. */
function retryAfter(xhr) {
  const seconds = Number(xhr.getResponseHeader("Retry-After"));
  const wait = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
  return Math.min(wait, Math.max(0, sending.firstSent + RETRY_FOR - Date.now()));
}

/** A request has ended (htmx:afterRequest's detail). */
export function requestEnded(detail) {
  if (sending && retryIn !== null && detail.elt === board()) {
    // Sent again after the wait, before the actions made since; its cards stay in the air.
    queue.unshift(sending);
    sending = null;
    resumeAt = Date.now() + retryIn;
    setTimeout(() => {
      resumeAt = 0;
      next();
    }, retryIn);
    retryIn = null;
    return;
  }
  if (sending && !swapped && detail.elt === board()) answered();
  // Another request (a hint, say) held the queue back.
  else if (!sending) setTimeout(next, 0);
}
