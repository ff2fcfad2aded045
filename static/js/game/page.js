/* What the server drew, read where every module reads it: the board, its piles, the table's
   state (#table-state: ply, version and the legal moves), what the stock holds and how many
   cards a deal takes, and the live region to say things in. This module keeps no state: each
   read is of the page as it is now, and every rule the page plays by is one the server wrote
   into it (the page never works one out from a look: a class, a button's text). */

export function board() {
  return document.getElementById("board");
}

/** The ply and version of the board shown, and its legal moves (#table-state's data). */
export function tableState() {
  const el = document.getElementById("table-state");
  return el ? el.dataset : {};
}

/** The pile element of a pile name ("t3", "f1", "w", "s") on the board. */
export function pileOf(name) {
  const b = board();
  return b && name ? b.querySelector(`[data-pile="${CSS.escape(name)}"]`) : null;
}

/** The pile names where a pick may legally go, from the moves the server listed
    (#table-state's data-legal: "t3:2-t7 w-f1"). */
export function targetsOf(pick) {
  if (!pick) return [];
  const from = `${pick}-`;
  return (tableState().legal || "").split(" ")
    .filter((move) => move.startsWith(from))
    .map((move) => move.slice(from.length));
}

/** The stock's button (deal or redeal), or null when clicking the stock does nothing. */
export function stockButton() {
  const b = board();
  return b ? b.querySelector('[data-pile="s"] button') : null;
}

/** How many cards the stock holds and how many one deal takes, as the server wrote them
    (the stock's data-cards, the board's data-deal: the game's rule). */
export function stockCounts() {
  const stock = pileOf("s");
  const b = board();
  return {
    cards: stock ? Number(stock.dataset.cards) || 0 : 0,
    perDeal: b ? Number(b.dataset.deal) || 0 : 0,
  };
}

/** Say ``text`` in #announce as a message (a box of its own, readable on every table); a
    ``lasting`` one does not fade (the page is offline). */
export function say(text, lasting = "") {
  const region = document.getElementById("announce");
  if (!region || !text) return;
  const message = document.createElement("span");
  message.className = lasting ? "message info lasting" : "message info";
  message.textContent = text;
  region.replaceChildren(message);
}

/** What the last answer played (#motion's data: "steps", the moves; "cascade", a won game's
    foundations), parsed; null when it says nothing. */
export function played(name) {
  const holder = document.getElementById("motion");
  try {
    return JSON.parse((holder && holder.dataset[name]) || "null");
  } catch {
    return null;
  }
}
