/* Hints and "Can this still be won?": show the move an answer names on the board.

   The answer (#assist [data-hint-version], swapped in by htmx) names the pick or pile the move
   starts from (data-hint-source: "t3", "t3:2", "w", "f2", or "s" for the stock) and the pile it
   goes to (data-hint-target). While the board is the one the answer was given for (the same
   data-version), the source card gets the class "hint-source" and the target pile
   "hint-target"; once the board has changed, the answer says it is out of date instead and
   nothing is highlighted. The move is shown, never played. A search refused for now (429,
   with Retry-After) is an answer too: its sentence goes in #assist. Its cross puts it away. No
   state: the answer and the board say it all. */

import { board, tableState } from "./page.js";

function clear(b) {
  b.querySelectorAll(".hint-source, .hint-target").forEach((el) => {
    el.classList.remove("hint-source", "hint-target");
  });
}

function sourceOf(b, name) {
  if (name === "s") return b.querySelector('[data-pile="s"]');
  return b.querySelector(`a[data-pick="${CSS.escape(name)}"]`);
}

/** Mark the move of the answer shown, or say it is out of date (after a load or a swap). */
export function show() {
  const b = board();
  if (!b) return;
  clear(b);
  const answer = document.querySelector("#assist [data-hint-version]");
  if (!answer) return;
  const current = answer.dataset.hintVersion === tableState().version;
  answer.classList.toggle("stale", !current);
  const note = answer.querySelector("[data-stale-note]");
  if (note) note.hidden = current;
  const finish = answer.querySelector("[data-finish]");
  if (finish) finish.hidden = !current;
  if (!current) return;
  const source = answer.dataset.hintSource && sourceOf(b, answer.dataset.hintSource);
  if (source) source.classList.add("hint-source");
  const target = answer.dataset.hintTarget &&
    b.querySelector(`[data-pile="${CSS.escape(answer.dataset.hintTarget)}"]`);
  if (target) target.classList.add("hint-target");
}

/** An answer is about to be swapped (htmx:beforeSwap's detail): a search refused for now
    (429: too many from this client, or the solver's queue full) answers with its sentence
    for #assist, like any other answer, and is shown there. */
export function takeRefusal(detail) {
  const target = detail.target;
  if (detail.xhr.status === 429 && target && target.id === "assist") {
    detail.shouldSwap = true;
    detail.isError = false;
  }
}

/** A request has ended (htmx:afterRequest's detail): "Finish" answers with the board, and
    the answer it came from has done its work. */
export function requestEnded(detail) {
  const form = detail.elt;
  if (!detail.successful || !form.matches || !form.matches("[data-finish]")) return;
  putAway();
}

/** The answer goes, and what it marked on the board with it. */
function putAway() {
  const region = document.getElementById("assist");
  if (region) region.textContent = "";
  const b = board();
  if (b) clear(b);
}

/** The answer's cross puts it away. */
export function listen() {
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-assist-close]")) putAway();
  });
}
