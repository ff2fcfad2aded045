/* Click to play. Click a card to pick it up (with the cards above it), click a column or a
   foundation to put it there, click the card again (or press Escape) to put it back; a
   double-click sends a card to a foundation; one tap on a card with exactly one legal move
   plays it, where the player's setting says so. The stock, undo, redo and the board's other
   actions go by the queue too (a click made while an answer is on its way is played after
   it, never lost). Without these scripts the cards are links (?pick=t3:2) and the piles get
   "Put here" buttons, so every move also works by plain page loads. */

import { BOARD_ACTIONS, boardAction, deal, move, redo, toFoundation, undo } from "../actions.js";
import { board, targetsOf } from "../page.js";
import { canPutOn, heldPick, pickUp, putBack } from "../pick.js";

/** What a click (or Enter) on ``card`` (a pickable card, or null) in ``pile`` does: put the
    held cards back, put them on the pile, or pick the card up. Returns whether it did. */
export function activate(card, pile) {
  const target = pile ? pile.dataset.pile : "";
  const held = heldPick();
  if (held && card && card.dataset.pick === held) {
    putBack();
    return true;
  }
  if (canPutOn(target)) {
    move(held, target);
    return true;
  }
  if (card) {
    pickUp(card);
    return true;
  }
  return false;
}

/** Whether one tap on a card with exactly one move plays it: the player's setting (<html>'s
    data-tap, solitaire/accounts/looks.py), by default on a touch screen. */
function oneTap() {
  const setting = document.documentElement.dataset.tap || "touch";
  return setting === "on" || (setting === "touch" && matchMedia("(pointer: coarse)").matches);
}

/** The one move of ``card`` (its pick and target), when nothing is held and the board lists
    exactly one for it; else null. */
function onlyMove(card) {
  if (heldPick() || !card || !oneTap()) return null;
  const targets = targetsOf(card.dataset.pick);
  return targets.length === 1 ? [card.dataset.pick, targets[0]] : null;
}

/** The board's buttons: the stock, undo and redo, and BOARD_ACTIONS, by the queue. Heard
    before anything else hears the click (capture), so that htmx does not send it too. */
function button(event) {
  const b = board();
  const pressed = event.target.closest && event.target.closest("button");
  if (!b || !pressed || !b.contains(pressed) || pressed.disabled) return;
  if (pressed.closest('[data-pile="s"]')) deal();
  else if (pressed.id === "undo") undo();
  else if (pressed.id === "redo") redo();
  else if (BOARD_ACTIONS.includes(pressed.id)) boardAction(pressed);
  else return;
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** What a click or a tap on ``target`` (an element on the board) does: play a card's only
    move, pick a card up, put the held cards down or back. Returns whether it did anything. */
export function playAt(target) {
  if (target.closest(".controls, .outcome, .pick-note")) return false;
  if (target.closest("button")) return false;
  const picked = target.closest("a[data-pick]");
  const pile = target.closest("[data-pile]");
  const only = onlyMove(picked);
  if (only) {
    // Played through the same queue as every other move.
    move(...only);
    return true;
  }
  return activate(picked, pile);
}

function card(event) {
  const b = board();
  if (!b || event.button !== 0 || !b.contains(event.target)) return;
  if (playAt(event.target)) event.preventDefault();
}

function doubleClick(event) {
  const b = board();
  const picked = b && b.contains(event.target) && event.target.closest("a[data-pick]");
  if (!picked) return;
  event.preventDefault();
  toFoundation(picked.dataset.pick);
}

/** The buttons' clicks (heard first of all clicks: capture), the cards' clicks and double
    clicks, and Escape to put the held cards back. */
export function listen() {
  document.addEventListener("click", button, true);
  document.addEventListener("click", card);
  document.addEventListener("dblclick", doubleClick);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && heldPick()) putBack();
  });
}
