/* The network, as the page sees it. The server is the truth of every game, so while the
   browser is offline the page keeps the board it has, makes no request and refuses new actions
   (the queue asks: their cards go back) with a note that says why, in the player's language
   (the board's data-text-offline). Back online it says so, and the catch-up asks at once
   (catchup.js hears the same event). Nothing is kept to be sent later. */

import { board, say } from "./page.js";

export function online() {
  return navigator.onLine !== false;
}

/** Say that the page is offline (the note stays while it is). */
export function sayOffline() {
  const b = board();
  if (b) say(b.dataset.textOffline, "lasting");
}

export function listen() {
  window.addEventListener("offline", sayOffline);
  window.addEventListener("online", () => {
    const b = board();
    if (b) say(b.dataset.textOnline);
  });
}
