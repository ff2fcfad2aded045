/* The keyboard: every move without a mouse (the page lists the keys under "Keys").
   Tab and the arrow keys go from pile to pile (up and down a column between the cards that can
   be picked up); Enter or Space picks up the card in focus, or puts the held cards on the pile
   in focus; 1-9 and 0 (Shift+1-3 for columns 11-13) pick up a column's top card or put the
   held cards there; W picks up the waste's card; F sends cards to a foundation; D deals;
   U or Ctrl+Z undoes, R or Ctrl+Y redoes; Escape puts the held cards back (click.js). Keys
   pressed quickly are all played, in order (queue.js sends actions one after another).
   When a new board comes, the focus goes back to the pile (or the button) that had it: this
   module owns where the focus was. */

import { deal, move, redo, toFoundation, undo } from "../actions.js";
import { board, pileOf } from "../page.js";
import { canPutOn, heldPick, pickUp, putBack } from "../pick.js";
import { activate } from "./click.js";

function piles(row) {
  return Array.from(board().querySelectorAll(`.${row} [data-pile]`));
}

/** What to focus for a pile: its top card that can be picked up, its button, or itself. */
function focusOf(pile) {
  const cards = pile.querySelectorAll("a[data-pick]");
  if (cards.length) return cards[cards.length - 1];
  const button = pile.querySelector("button");
  if (button) return button;
  if (!pile.hasAttribute("tabindex")) pile.tabIndex = -1;
  return pile;
}

/** The pile of ``row`` whose middle is nearest (left to right) to the middle of ``pile``. */
function nearest(row, pile) {
  const box = pile.getBoundingClientRect();
  const middle = box.left + box.width / 2;
  let best = null;
  let distance = Infinity;
  for (const other of row) {
    const b = other.getBoundingClientRect();
    const d = Math.abs(b.left + b.width / 2 - middle);
    if (d < distance) {
      best = other;
      distance = d;
    }
  }
  return best;
}

/** Move the focus from ``active`` (inside ``pile``) by an arrow key, Home or End. */
function navigate(key, active, pile) {
  const top = piles("top-row");
  const tableau = piles("tableau");
  const row = top.includes(pile) ? top : tableau;
  const other = row === top ? tableau : top;
  const i = row.indexOf(pile);
  const cards = Array.from(pile.querySelectorAll("a[data-pick]"));
  const k = cards.indexOf(active);
  let next = null;
  if (key === "ArrowLeft" && i > 0) next = focusOf(row[i - 1]);
  else if (key === "ArrowRight" && i < row.length - 1) next = focusOf(row[i + 1]);
  else if (key === "Home") next = focusOf(row[0]);
  else if (key === "End") next = focusOf(row[row.length - 1]);
  else if (key === "ArrowUp" && k > 0) next = cards[k - 1];
  else if (key === "ArrowDown" && k >= 0 && k < cards.length - 1) next = cards[k + 1];
  else if (key === "ArrowUp" && row === tableau) next = focusOf(nearest(other, pile));
  else if (key === "ArrowDown" && row === top) next = focusOf(nearest(other, pile));
  if (next) next.focus();
}

/** The column a digit key names (1-9, 0 for 10, Shift+1-3 for 11-13), or 0. */
function columnOf(event) {
  if (/^[0-9]$/.test(event.key)) return Number(event.key) || 10;
  const shifted = /^Digit([1-3])$/.exec(event.code);
  return event.shiftKey && shifted ? 10 + Number(shifted[1]) : 0;
}

/** Put the held cards on ``pile``, or with nothing held pick up its top card. */
function column(pile) {
  const name = pile.dataset.pile;
  const held = heldPick();
  focusOf(pile).focus();
  if (held && canPutOn(name)) {
    move(held, name);
  } else if (held && held.split(":")[0] === name) {
    putBack();
  } else {
    const cards = pile.querySelectorAll("a[data-pick]");
    if (cards.length) pickUp(cards[cards.length - 1]);
  }
}

/** The letters of the keys in the player's language (the keys help lists them, as the server
    wrote them: data-key-waste, ...); the English ones where the page says none. */
function keyLetters() {
  const help = document.getElementById("keys-help");
  const said = help ? help.dataset : {};
  const letter = (name, fallback) => (said[name] || fallback).toLowerCase();
  return {
    waste: letter("keyWaste", "w"),
    foundation: letter("keyFoundation", "f"),
    deal: letter("keyDeal", "d"),
    undo: letter("keyUndo", "u"),
    redo: letter("keyRedo", "r"),
  };
}

function toggleHelp() {
  const help = document.getElementById("keys-help");
  if (!help) return;
  help.open = !help.open;
  if (help.open) help.querySelector("summary").focus();
}

function keydown(event) {
  const b = board();
  const active = document.activeElement;
  if (!b || event.defaultPrevented || event.isComposing || event.altKey || event.metaKey) return;
  if (active && active.closest("input, textarea, select, [contenteditable]")) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const inTable = Boolean(active && active.closest("#board .table"));
  const pile = inTable ? active.closest("[data-pile]") : null;
  const letters = keyLetters();
  let handled = true;

  if (event.ctrlKey) {
    if (key === "z" && !event.shiftKey) undo();
    else if (key === "y" || key === "z") redo();
    else handled = false;
  } else if (pile && /^(Arrow(Left|Right|Up|Down)|Home|End)$/.test(key)) {
    navigate(key, active, pile);
  } else if (key === "Enter" || key === " ") {
    // Buttons (the stock, the controls) and links outside the table do their own thing.
    if (!inTable || active.closest("button")) return;
    activate(active.closest("a[data-pick]"), pile);
  } else if (columnOf(event)) {
    const target = pileOf(`t${columnOf(event)}`);
    if (target) column(target);
    else handled = false;
  } else if (key === letters.waste) {
    const waste = pileOf("w");
    const card = waste && waste.querySelector("a[data-pick]");
    if (card) {
      card.focus();
      activate(card, waste);
    }
  } else if (key === letters.foundation) {
    const card = active && b.contains(active) && active.closest("a[data-pick]");
    const pick = heldPick() || (card ? card.dataset.pick : "");
    if (pick) {
      // Back to the pile the cards leave: the focus stays there on the new board.
      focusOf(pileOf(pick.split(":")[0])).focus();
      toFoundation(pick);
    }
  } else if (key === letters.deal) {
    deal();
  } else if (key === letters.undo) {
    undo();
  } else if (key === letters.redo) {
    redo();
  } else if (key === "?") {
    toggleHelp();
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}

/** Where the focus was when a request went: {id, pile}, or null (not on the board). */
let focused = null;

/** Note where the focus is before a swap (htmx:beforeSwap). */
export function rememberFocus() {
  const b = board();
  const active = document.activeElement;
  focused = null;
  if (!b || !active || !b.contains(active)) return;
  const pile = active.closest("[data-pile]");
  focused = { id: active.id, pile: pile ? pile.dataset.pile : "" };
}

/** Put the focus back where it was before the swap (by id, else on its pile). */
function restore() {
  const b = board();
  if (!focused || !b) return;
  const active = document.activeElement;
  if (active && active !== document.body && b.contains(active)) return;
  const { id, pile } = focused;
  const byId = id && document.getElementById(id);
  const there = pile && pileOf(pile);
  let next = null;
  if (byId && !byId.disabled) next = byId;
  else if (there) next = focusOf(there);
  else {
    next = b.querySelector(".controls button:not(:disabled), .outcome button, a[data-pick]");
  }
  if (next) next.focus({ preventScroll: true });
}

/** A swap into ``target`` is done (htmx:afterSwap): the focus back, if it was on the board. A
    new board, or after a move the piles it touched (and the counters, out of band): the swaps
    may come as several events, so the focus is put back after each and once all settled. */
export function swapped(target) {
  const b = board();
  if (b && b.contains(target)) restore();
}

/** Every swap has settled (htmx:afterSettle). */
export function settled() {
  restore();
  focused = null;
}

/** Every key pressed on the page. */
export function listen() {
  document.addEventListener("keydown", keydown);
}

/** The page is loaded: the keys' help is offered (its keys work only with this script). */
export function start() {
  const help = document.getElementById("keys-help");
  if (help) help.hidden = false;
}
