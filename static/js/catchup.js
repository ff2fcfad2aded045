/* Catching up with another device or tab: when an open game page asks whether its game moved
   on elsewhere (#poll: answered 204 while nothing changed, else with the board as it now is).

   A page asks every FAST ms for the first QUIET ms after it is opened, comes back into sight
   or is brought news, then less and less often, down to once every SLOWEST ms: a page left
   open costs the server one small request per 20 s after a minute without news. Its own
   actions put the next question off (each is itself checked against the game's version, so a
   page in play never needs to ask), and nothing is asked while the page is out of sight
   (play.js also holds a question back while a request is on its way or cards are held).
   Coming back into sight, a page asks at once (#poll's own trigger) and quickly again.

   Another tab of this browser on the same game is told of each answered action
   (BroadcastChannel, where the browser has it) and asks at once, without waiting its turn. */
(function () {
  "use strict";

  const FAST = 3000;
  const QUIET = 30000;
  const SLOWEST = 20000;
  const GROWTH = 2;

  let interval = FAST;
  let calmSince = Date.now();
  let timer = null;

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
    if (el && window.htmx && document.visibilityState === "visible") {
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

  const channel = "BroadcastChannel" in window ? new BroadcastChannel("solitaire-games") : null;
  if (channel) {
    channel.addEventListener("message", (event) => {
      if (event.data && event.data.game && event.data.game === game()) {
        ask();
        quicken();
      }
    });
  }

  document.addEventListener("htmx:afterRequest", (event) => {
    const elt = event.detail.elt;
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (elt && elt.id === "poll") {
      if (status === 200) quicken(); // the game had moved on elsewhere
      return;
    }
    if (!poll() || !event.detail.requestConfig || event.detail.requestConfig.verb !== "post") {
      return;
    }
    // One of this page's own actions: it was checked against the game as it is, so the next
    // question can wait its whole interval; the other tabs of this game hear of it now.
    schedule();
    const refused = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Refused");
    if (channel && event.detail.successful && !refused) channel.postMessage({ game: game() });
  });

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") quicken();
    else {
      clearTimeout(timer);
      timer = null;
    }
  });

  document.addEventListener("DOMContentLoaded", quicken);
  if (document.readyState !== "loading") quicken();
})();
