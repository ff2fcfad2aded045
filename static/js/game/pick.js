/* Picking up: the cards the player holds (by a click, a tap or a key) before putting them
   down. This module owns what is held, in the notation ("w", "t3", "t3:2", "f1", or "" for
   nothing): it marks the picked cards and the piles the server lists as legal for them, and
   says so in the live region. A new board (the server's #board data-pick) sets it afresh. */

import { board, pileOf, say, targetsOf } from "./page.js";

let held = "";

/** What is held now ("" for nothing). */
export function heldPick() {
  return held;
}

/** Mark the piles a pick may go to (or none, for ""). */
function showTargets(pick) {
  const b = board();
  if (!b) return;
  b.querySelectorAll(".pile.target").forEach((el) => el.classList.remove("target"));
  targetsOf(pick).forEach((name) => {
    const pile = pileOf(name);
    if (pile) pile.classList.add("target");
  });
}

/** Hold ``pick`` (or nothing, for ""): the picked card and every card on top of it. */
export function hold(pick) {
  const b = board();
  held = pick;
  if (!b) return;
  b.querySelectorAll(".card.picked").forEach((el) => el.classList.remove("picked"));
  b.dataset.pick = pick;
  b.classList.toggle("holding", Boolean(pick));
  showTargets(pick);
  if (!pick) return;
  let el = b.querySelector(`[data-pick="${CSS.escape(pick)}"]`);
  for (; el; el = el.nextElementSibling) {
    if (el.classList.contains("card")) el.classList.add("picked");
  }
}

/** ``text`` with a capital on its first letter, none if it starts with a number: the
    server's rule for a sentence's start (games/words.py, ``sentence``). */
function sentence(text) {
  const start = text.search(/[\p{L}\p{N}]/u);
  return start < 0 ? text : text.slice(0, start) + text[start].toUpperCase() + text.slice(start + 1);
}

/** Pick up the cards of ``card`` (an a[data-pick]) and say so, the card named as the server
    names it in running text (its data-words: "la dame de carreau", "lá đầm rô"). */
export function pickUp(card) {
  hold(card.dataset.pick);
  const words = card.dataset.words || card.getAttribute("aria-label");
  say(sentence((board().dataset.textPicked || "%s").replace("%s", words)));
}

export function putBack() {
  hold("");
  say(board().dataset.textPutBack);
}

/** Whether the held cards could be put on the pile ``target`` (another column or foundation). */
export function canPutOn(target) {
  return Boolean(held) && /^[tf]\d+$/.test(target) && target !== held.split(":")[0];
}

/** Take up what the board drawn now holds (its data-pick), after a load or a swap. */
export function sync() {
  const b = board();
  held = b ? b.dataset.pick || "" : "";
  if (b) showTargets(held);
}
