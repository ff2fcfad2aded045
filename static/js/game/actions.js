/* The player's actions, made the same way however they are asked for (a click, a drag, a key):
   a move, a card sent to a foundation, a deal or a redeal, an undo, a redo, and the board's
   other actions (restart, give up, Finish, the automatic moves' switch). Each joins the queue
   (queue.js). One the server listed as legal on the board shown, on piles no action still
   waiting touches, sets off at once (ahead.js); so does a deal while the stock has a card for
   it beyond those dealt ahead, a redeal when nothing waits, and an undo or a redo whose move
   the last answer named. The answer confirms it, or the cards go back. */

import * as ahead from "./ahead.js";
import { board, stockButton, stockCounts, pileOf, targetsOf } from "./page.js";
import { hold } from "./pick.js";
import { busy, enqueue, lastAnswer, touched, waiting } from "./queue.js";

/** The cards of a pick as the board shows them ("QS JH"), "" when there are none. */
function cardsOf(pick) {
  const b = board();
  let el = b && pick ? b.querySelector(`a[data-pick="${CSS.escape(pick)}"]`) : null;
  const codes = [];
  for (; el; el = el.nextElementSibling) {
    if (el.classList.contains("card")) codes.push(el.dataset.card);
  }
  return codes.join(" ");
}

/** A move of ``pick`` to ``target`` posted to the board's ``url`` (``values``), set off at
    once when the board lists it as legal and no waiting action touches its piles. */
function cardAction(kind, url, values, pick, target) {
  const from = pick.split(":")[0];
  const cards = cardsOf(pick);
  const n = cards ? cards.split(" ").length : 0;
  const legal = target && targetsOf(pick).includes(target);
  hold(""); // the cards put down first: they set off from where they lie
  const busyPiles = touched();
  const free = !busyPiles.has("*") && !busyPiles.has(from) && !busyPiles.has(target);
  const flight = legal && free && n ? ahead.predict(from, target, n) : null;
  return enqueue({
    kind,
    url: () => board().dataset[url],
    values,
    piles: [from, target || "f"],
    flight,
    still: () => Boolean(cards) && cardsOf(pick) === cards,
  });
}

/** Play ``pick`` onto the pile ``target``: the move in the notation ("t3:2-t7"). */
export function move(pick, target) {
  return cardAction("move", "moveUrl", { move: `${pick}-${target}` }, pick, target);
}

/** Send ``pick`` to a foundation: the first that takes it (the server's choice, and the
    first the board lists). */
export function toFoundation(pick) {
  const target = targetsOf(pick).find((name) => name.startsWith("f")) || "";
  return cardAction("foundation", "foundationUrl", { pick }, pick, target);
}

/** Deal from the stock, or redeal: whichever the stock's button offers when the action is
    sent (a deal pressed while a redeal waits is a deal). A card dealt sets off face down at
    once while the stock holds one for it beyond those dealt ahead, when a deal takes one card
    (the board's data-deal: a deal of three lays a fan, not one card) and no waiting action
    touches the waste; a redeal sets off at once when nothing waits: the waste's cards fly to
    the stock. */
export function deal() {
  const button = stockButton();
  const before = waiting();
  if (!button && !before.length) return false;
  const waste = pileOf("w");
  let flight = null;
  if (button && waste) {
    const others = before.some(
      (a) => a.kind !== "deal" && (a.piles.includes("w") || a.piles.includes("*")),
    );
    const dealt = before.filter((a) => a.kind === "deal").length;
    const stock = stockCounts();
    const shown = waste.querySelectorAll(":scope > .card").length;
    if (button.value === "deal" && stock.perDeal === 1 && stock.cards > dealt && !others) {
      flight = ahead.predict("s", "w", 1);
    } else if (button.value === "redeal" && !before.length && shown) {
      flight = ahead.predict("w", "s", shown);
    }
  }
  return enqueue({
    kind: "deal",
    url: () => board().dataset.moveUrl,
    values: () => ({ move: stockButton().value }),
    piles: ["s", "w"],
    flight,
    still: () => Boolean(stockButton()),
  });
}

/** The one step an undo (or a redo) would take back, when the last answer says it: the
    player's move alone (no automatic move, no card turned), cards leaving a column. */
function knownStep(kind) {
  const was = kind === "undo" ? ["move", "foundation", "redo"] : ["undo"];
  const last = lastAnswer();
  if (!last || !was.includes(last.kind) || last.steps.length !== 1) return null;
  const step = last.steps[0];
  if (step.turn || !step.n || step.from === "s" || step.to === "s") return null;
  if (!step.to.startsWith("t")) return null;
  return step;
}

/** Undo (``kind`` "undo") or redo, by its button's address; set off at once when the last
    answer says what it takes back and nothing waits. */
function history(kind) {
  const button = document.getElementById(kind);
  if (!button || (button.disabled && !waiting().length)) return false;
  const step = !busy() && !button.disabled ? knownStep(kind) : null;
  const flight = step ? ahead.predict(step.to, step.from, step.n) : null;
  const url = button.getAttribute("hx-post");
  return enqueue({
    kind,
    url: () => url,
    values: {},
    piles: ["*"],
    flight,
    still: () => {
      const now = document.getElementById(kind);
      return Boolean(now) && !now.disabled;
    },
  });
}

export function undo() {
  return history("undo");
}

export function redo() {
  return history("redo");
}

/** The ids of the game's other actions that change the board: after the actions before them,
    never beside them. Nothing sets off ahead of their answer. */
export const BOARD_ACTIONS = ["restart", "give-up", "finish-win", "autoplay"];

/** One of BOARD_ACTIONS by its ``button``, confirmed first where the button asks
    (hx-confirm) as htmx would. */
export function boardAction(button) {
  const question = button.getAttribute("hx-confirm");
  if (question && !window.confirm(question)) return false;
  const id = button.id;
  const url = button.getAttribute("hx-post");
  const values = JSON.parse(button.getAttribute("hx-vals") || "{}");
  if (button.name) values[button.name] = button.value;
  return enqueue({
    kind: id,
    url: () => url,
    values,
    piles: ["*"],
    flight: null,
    still: () => {
      const now = document.getElementById(id);
      return Boolean(now) && !now.disabled;
    },
  });
}
