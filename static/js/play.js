/* Click to play. Click a card to pick it up (with the cards above it), click a column or a
   foundation to put it there, click the card again (or press Escape) to put it back; a
   double-click sends a card to a foundation. Moves go to the server by htmx, with the ply and
   version of the board they were made on (#table-state, which every action includes); the
   server answers with the new board (#board), or after a move (an undo, a redo) only what
   changed, out of band: the table's state (#table-state: ply, version, the legal moves), the
   piles the move touched, the counters and the controls; and what happened (#announce). Without this script the cards are links
   (?pick=t3:2) and the piles get "Put here" buttons, so every move also works by plain page
   loads.

   drag.js (drag and drop, double-tap) and keys.js (the keyboard) play through the functions
   this script shares as window.solitaire, so a move is sent the same way however it is made. */
(function () {
  "use strict";

  /** The picked cards in the notation ("w", "t3", "t3:2", "f1"), or "". */
  let held = "";

  function board() {
    return document.getElementById("board");
  }

  /** The ply and version of the board shown (#table-state). */
  function state() {
    const el = document.getElementById("table-state");
    return el ? el.dataset : {};
  }

  /** A request is on its way (htmx marks the element that sent it); asking whether the game
      moved on elsewhere (#board [data-poll]) does not count. */
  function busy() {
    return document.querySelector(".htmx-request:not([data-poll])") !== null;
  }

  /** Whether to ask now if the game moved on elsewhere: not while the page is out of sight, a
      request is on its way, or cards are held or dragged (the move will tell, if it is stale). */
  function mayPoll() {
    return document.visibilityState === "visible" && !busy() && !held &&
      !document.querySelector(".drag-ghost");
  }

  // The catch-up poll (#poll) asks with the version of the board shown now (#table-state,
  // which the board includes), and only when mayPoll() says so (a trigger filter would do
  // that, but htmx would evaluate it as code).
  document.addEventListener("htmx:configRequest", (event) => {
    if (!event.target || event.target.id !== "poll") return;
    if (!board() || !mayPoll()) event.preventDefault();
  });

  function say(text) {
    const region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  /** The pile element of a pile name ("t3", "f1", "w", "s") on the board. */
  function pileOf(name) {
    const b = board();
    return b && name ? b.querySelector(`[data-pile="${CSS.escape(name)}"]`) : null;
  }

  /** The pile names where a pick may legally go, from the moves the server listed
      (#table-state's data-legal: "t3:2-t7 w-f1"). */
  function targetsOf(pick) {
    const state = document.getElementById("table-state");
    if (!state || !pick) return [];
    const from = `${pick}-`;
    return (state.dataset.legal || "").split(" ")
      .filter((move) => move.startsWith(from))
      .map((move) => move.slice(from.length));
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

  function hold(pick) {
    const b = board();
    held = pick;
    b.querySelectorAll(".card.picked").forEach((el) => el.classList.remove("picked"));
    b.dataset.pick = pick;
    b.classList.toggle("holding", Boolean(pick));
    showTargets(pick);
    if (!pick) return;
    // The picked card and every card on top of it in its pile.
    let el = b.querySelector(`[data-pick="${CSS.escape(pick)}"]`);
    for (; el; el = el.nextElementSibling) {
      if (el.classList.contains("card")) el.classList.add("picked");
    }
  }

  /** Pick up the cards of ``card`` (an a[data-pick]) and say so. */
  function pickUp(card) {
    hold(card.dataset.pick);
    say((board().dataset.textPicked || "%s").replace("%s", card.getAttribute("aria-label")));
  }

  function putBack() {
    hold("");
    say(board().dataset.textPutBack);
  }

  /** POST to the server; false (and nothing sent) while another request is on its way. The
      board includes #table-state (hx-include): the ply and version go with ``values``. */
  function post(url, values) {
    const b = board();
    if (busy()) return false;
    const token = b.querySelector("input[name=csrfmiddlewaretoken]").value;
    hold("");
    htmx.ajax("POST", url, {
      source: b,
      target: b,
      swap: "outerHTML",
      values: values,
      headers: { "X-CSRFToken": token },
    });
    return true;
  }

  /** Play ``pick`` onto the pile ``target``: the move in the notation ("t3:2-t7"). */
  function move(pick, target) {
    return post(board().dataset.moveUrl, { move: `${pick}-${target}` });
  }

  function toFoundation(pick) {
    return post(board().dataset.foundationUrl, { pick: pick });
  }

  /** Whether the held cards could be put on the pile ``target`` (another column or foundation). */
  function canPutOn(target) {
    return Boolean(held) && /^[tf]\d+$/.test(target) && target !== held.split(":")[0];
  }

  /** What a click (or Enter) on ``card`` (a pickable card, or null) in ``pile`` does. */
  function activate(card, pile) {
    const target = pile ? pile.dataset.pile : "";
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

  document.addEventListener("click", (event) => {
    const b = board();
    if (!b || event.button !== 0 || !b.contains(event.target)) return;
    if (event.target.closest(".controls, .outcome, .pick-note")) return;
    if (event.target.closest("button")) return;
    const card = event.target.closest("a[data-pick]");
    const pile = event.target.closest("[data-pile]");
    if (activate(card, pile)) event.preventDefault();
  });

  document.addEventListener("dblclick", (event) => {
    const b = board();
    const card = b && b.contains(event.target) && event.target.closest("a[data-pick]");
    if (!card) return;
    event.preventDefault();
    toFoundation(card.dataset.pick);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && held) putBack();
  });

  function sync() {
    const b = board();
    held = b ? b.dataset.pick || "" : "";
    if (b) showTargets(held);
  }
  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:afterSwap", sync);

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-copy]").forEach((button) => {
      button.hidden = false;
      button.addEventListener("click", () => {
        const field = document.querySelector(button.dataset.copy);
        field.select();
        const done = () => say(button.dataset.copied || "");
        if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done);
      });
    });
  });

  window.solitaire = {
    board,
    state,
    busy,
    mayPoll,
    say,
    pileOf,
    targetsOf,
    hold,
    held: () => held,
    pickUp,
    putBack,
    activate,
    canPutOn,
    move,
    toFoundation,
  };
})();
