/* Catching up with another device or tab: when an open game page asks whether its game moved
   on elsewhere (#poll: answered 204 while nothing changed, else with the board as it now is).

   A page asks every FAST ms for the first QUIET ms after it is opened, comes back into sight
   or is brought news, then less and less often, down to once every SLOWEST ms: a page left
   open costs the server one small request per 20 s after a minute without news. Its own
   actions put the next question off (each is itself checked against the game's version, so a
   page in play never needs to ask), and nothing is asked while the page is out of sight
   nor while it is offline, a request is on its way or cards are held or dragged. Coming back
   into sight, a page asks at once (#poll's own trigger) and quickly again; so does a page whose
   network comes back.

   Another tab of this browser on the same game is told of each answered action
   (BroadcastChannel, where the browser has it) and asks at once, without waiting its turn.
   This module owns when the page asks next, and the channel. */

import { dragging } from "./input/drag.js";
import { online } from "./network.js";
import { board } from "./page.js";
import { heldPick } from "./pick.js";
import { busy } from "./queue.js";

const FAST = 3000;
const QUIET = 30000;
const SLOWEST = 20000;
const GROWTH = 2;

let interval = FAST;
let calmSince = Date.now();
let timer = null;
let channel = null;

function poll() {
  return document.getElementById("poll");
}

/** The game this page shows, as its poll's path (the same in every tab of the game). */
function game() {
  const el = poll();
  return el ? (el.getAttribute("hx-get") || "").split("?")[0] : "";
}

function ask() {
  const el = poll();
  if (el && document.visibilityState === "visible") {
    htmx.trigger(el, "catchup");
  }
}

/** The next question, ``interval`` from now (none while the page is out of sight). */
function schedule() {
  clearTimeout(timer);
  timer = null;
  if (!poll() || document.visibilityState !== "visible") return;
  timer = setTimeout(() => {
    ask();
    if (Date.now() - calmSince >= QUIET) interval = Math.min(SLOWEST, interval * GROWTH);
    schedule();
  }, interval);
}

/** News, or the page just came into sight: ask often again. */
function quicken() {
  interval = FAST;
  calmSince = Date.now();
  schedule();
}

/** Whether to ask now if the game moved on elsewhere: not while the page is out of sight or
    offline, a request is on its way, or cards are held or dragged (the move will tell, if it
    is stale). */
function mayAsk() {
  return document.visibilityState === "visible" && online() && !busy() && !heldPick() &&
    !dragging();
}

/** A request is being made (htmx:configRequest's event): the catch-up question is held
    back when it may not go now. (An htmx trigger filter would say when, but htmx would
    evaluate it as code, which the site's policy forbids.) */
export function holdBack(event) {
  if (!event.target || event.target.id !== "poll") return;
  if (!board() || !mayAsk()) event.preventDefault();
}

/** A request has ended (htmx:afterRequest's detail). */
export function requestEnded(detail) {
  const elt = detail.elt;
  const status = detail.xhr ? detail.xhr.status : 0;
  if (elt && elt.id === "poll") {
    if (status === 200) quicken(); // the game had moved on elsewhere
    return;
  }
  if (!poll() || !detail.requestConfig || detail.requestConfig.verb !== "post") {
    return;
  }
  // One of this page's own actions: it was checked against the game as it is, so the next
  // question can wait its whole interval; the other tabs of this game hear of it now.
  schedule();
  const refused = detail.xhr && detail.xhr.getResponseHeader("X-Refused");
  if (channel && detail.successful && !refused) channel.postMessage({ game: game() });
}

/** The page's sight, the network coming back (ask at once), and the other tabs' news. */
export function listen() {
  window.addEventListener("online", () => {
    ask();
    quicken();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") quicken();
    else {
      clearTimeout(timer);
      timer = null;
    }
  });
  if (!("BroadcastChannel" in window)) return;
  channel = new BroadcastChannel("solitaire-games");
  channel.addEventListener("message", (event) => {
    if (event.data && event.data.game && event.data.game === game()) {
      ask();
      quicken();
    }
  });
}

/** The page is loaded: ask often at first. */
export function start() {
  quicken();
}
