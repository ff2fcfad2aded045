/* The clock: time played, ticking on the page while it is in sight.

   The server counts time played (games/services/play.py): every gap between two of the
   player's actions, to the millisecond, at most two minutes a gap, less the time the page was
   hidden in it. The clock's <time data-clock> (games/templatetags/cards.py game_info) says
   where that stood at the last action (data-ms), how long ago that action was when the page
   was drawn (data-since), which action it was (data-at) and the most a gap counts (data-idle).
   This script shows what the server would count if the player acted now: the time at the
   last action, plus the time since, less the time hidden, at most data-idle. It stops while
   the page is hidden, and tells the server how long it was hidden: every request the page
   sends to its game carries "away", the milliseconds hidden since the last action. A new
   action (a new data-at) starts the count of hidden time again. Without this script the
   clock shows the time at the last action, and a hidden page's time counts like any pause,
   at most two minutes. This module owns the count of hidden time. */

import { board } from "./page.js";

/** The last action the clock counts from: its data-at, and when this page learnt of it. */
let at = null;
let since = 0;
let learnt = 0;
/** Hidden time since that action (ms), and since when the page is hidden now (or null). */
let away = 0;
let hiddenFrom = null;
let timer = null;

function clockEl() {
  return document.querySelector("#game-info time[data-clock]");
}

function text(ms) {
  const total = Math.floor(ms / 1000);
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  const ss = String(s).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Hidden time since the last action, the current hidden spell included. */
function hidden(now) {
  return away + (hiddenFrom === null ? 0 : now - hiddenFrom);
}

/** Take up a newly drawn clock: a new action starts the count again. */
function follow(el, now) {
  if (el.dataset.at === at) return;
  at = el.dataset.at;
  since = Number(el.dataset.since) || 0;
  learnt = now;
  away = 0;
  hiddenFrom = document.visibilityState === "hidden" ? now : null;
}

function tick() {
  const el = clockEl();
  if (!el || el.dataset.since === undefined) return;  // a finished game: no clock runs
  const now = performance.now();
  follow(el, now);
  const idle = Number(el.dataset.idle) || 120000;
  const gap = Math.min(Math.max(since + (now - learnt) - hidden(now), 0), idle);
  const shown = text(Number(el.dataset.ms) + gap);
  if (el.textContent !== shown) el.textContent = shown;
}

function run() {
  if (timer === null) timer = setInterval(tick, 250);
  tick();
}

function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

/** The page's sight: the clock stops while it is hidden, and counts the time. */
export function listen() {
  document.addEventListener("visibilitychange", () => {
    const now = performance.now();
    if (document.visibilityState === "hidden") {
      if (hiddenFrom === null) hiddenFrom = now;
      pause();
    } else {
      if (hiddenFrom !== null) away += now - hiddenFrom;
      hiddenFrom = null;
      run();
    }
  });
}

/** A request is being made (htmx:configRequest's detail): every post to the game says how
    long the page was hidden since the last action. */
export function reportAway(detail) {
  const b = board();
  const path = detail.path || "";
  if (!b || detail.verb !== "post" || !path.startsWith(b.dataset.gameUrl || "\u0000")) {
    return;
  }
  detail.parameters.away = Math.round(hidden(performance.now()));
}

/** A new clock comes with every answer (out of band): follow it at once. */
export function settled() {
  tick();
}

/** The page is loaded: the clock runs. */
export function start() {
  const el = clockEl();
  if (el) follow(el, performance.now());
  if (document.visibilityState !== "hidden") run();
}
