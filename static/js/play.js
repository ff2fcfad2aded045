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

  /** A request is on its way (htmx marks the element that sent it), or actions wait for their
      turn; asking whether the game moved on elsewhere (#board [data-poll]) does not count. */
  function busy() {
    return queue.length > 0 || sending !== null ||
      document.querySelector(".htmx-request:not([data-poll])") !== null;
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

  /** Say ``text`` in #announce as a message (a box of its own, readable on every table). */
  function say(text) {
    const region = document.getElementById("announce");
    if (!region || !text) return;
    const message = document.createElement("span");
    message.className = "message info";
    message.textContent = text;
    region.replaceChildren(message);
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

  // -- actions, one after another --------------------------------------------------------------
  //
  // Every action (a move, a deal, an undo, a redo) joins a queue and is sent when the answer to
  // the one before is in, with the ply and version of the board then shown (the server's): so
  // actions made quickly are all played, in order, none twice, and the server judges each on
  // the board it has. A move the server listed as legal on the board shown, on piles no action
  // still waiting touches, sets off at once (motion.js predict); so does a deal while the stock
  // has cards for it, and an undo or a redo whose moves the last answer listed. The answer
  // confirms it, or the cards go back and the server's board shows (with its reason).

  /** The actions waiting to be sent, oldest first; the one sent, until its answer is in. */
  const queue = [];
  const QUEUE_LIMIT = 20;
  let sending = null;
  /** The action and the moves (#motion's steps) of the last answer, when it was one of ours. */
  let last = null;

  function ahead() {
    return window.solitaireMotion || null;
  }

  /** The pile names an action waiting (or on its way) moves cards from or to. */
  function touched() {
    const piles = new Set();
    for (const action of [sending, ...queue]) {
      if (action) action.piles.forEach((name) => piles.add(name));
    }
    return piles;
  }

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

  /** Add ``action`` ({url, values, piles, flight, still}) to the queue and send what may go. */
  function enqueue(action) {
    if (queue.length >= QUEUE_LIMIT) return false;
    hold("");
    queue.push(action);
    next();
    return true;
  }

  /** Send the next action, if none is on its way. One that no longer means what the player
      asked (the cards it moves are not those the board showed) is dropped, its cards sent back. */
  function next() {
    if (sending || !queue.length || document.querySelector(".htmx-request:not([data-poll])")) {
      return;
    }
    const action = queue.shift();
    if (!action.still()) {
      if (action.flight) ahead().back(action.flight);
      next();
      return;
    }
    sending = action;
    const b = board();
    const token = b.querySelector("input[name=csrfmiddlewaretoken]").value;
    htmx.ajax("POST", action.url(), {
      source: b,
      target: b,
      swap: "outerHTML",
      values: typeof action.values === "function" ? action.values() : action.values,
      // A refusal comes as an answer like any other (200, its status in X-Refused,
      // games/web/edge.py): the browser logs no failed load for a move the rules refuse.
      headers: { "X-CSRFToken": token, "X-Refusal-As-Answer": "yes" },
    });
  }

  let swapped = false;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const b = board();
    if (!b || event.detail.target !== b) return;
    if (!sending) {
      last = null; // the board the catch-up poll brought
      return;
    }
    swapped = event.detail.shouldSwap;
    const xhr = event.detail.xhr;
    const refused = xhr.status >= 400 || xhr.getResponseHeader("X-Refused") !== null;
    if (swapped && ahead()) ahead().answer(sending.flight, refused);
    if (refused || !swapped) dropQueue();
  });

  /** The game is not as the page thought (moved on elsewhere, a race, a refusal, no answer):
      what waits was made on a board that never was. Its cards go back. */
  function dropQueue() {
    queue.splice(0).forEach((action) => action.flight && ahead().back(action.flight));
  }

  /** The answer to the action sent is in (swapped in and settled, or nothing to swap). */
  function answered() {
    const action = sending;
    sending = null;
    swapped = false;
    const motion = document.getElementById("motion");
    let steps = [];
    try {
      steps = JSON.parse((motion && motion.dataset.steps) || "[]");
    } catch {
      steps = [];
    }
    last = action ? { kind: action.kind, steps } : null;
    if (action && action.flight && ahead()) ahead().back(action.flight);
    // An answer with no move played nothing: the board it brings is the server's (a stale
    // board, a refusal), and what waits was made on the one the page showed.
    if (action && !steps.length) dropQueue();
    next();
  }
  document.addEventListener("htmx:afterSettle", () => {
    if (sending && swapped) answered();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (sending && !swapped && event.detail.elt === board()) answered();
    // Another request (a hint, say) held the queue back.
    else if (!sending) setTimeout(next, 0);
  });

  /** A move of ``pick`` to ``target`` posted to ``url`` (``values``), set off at once when
      the board lists it as legal and no waiting action touches its piles. */
  function cardAction(kind, url, values, pick, target) {
    const from = pick.split(":")[0];
    const cards = cardsOf(pick);
    const n = cards ? cards.split(" ").length : 0;
    const legal = target && targetsOf(pick).includes(target);
    hold(""); // the cards put down first: they set off from where they lie
    const busyPiles = touched();
    const free = !busyPiles.has("*") && !busyPiles.has(from) && !busyPiles.has(target);
    const flight = legal && free && n && ahead() ? ahead().predict(from, target, n) : null;
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
  function move(pick, target) {
    return cardAction("move", "moveUrl", { move: `${pick}-${target}` }, pick, target);
  }

  /** Send ``pick`` to a foundation: the first that takes it (the server's choice, and the
      first the board lists). */
  function toFoundation(pick) {
    const target = targetsOf(pick).find((name) => name.startsWith("f")) || "";
    return cardAction("foundation", "foundationUrl", { pick }, pick, target);
  }

  /** Deal from the stock, or redeal: whichever the stock's button offers when the action is
      sent (a deal pressed while a redeal waits is a deal). A card dealt sets off face down at
      once while the stock holds one for it beyond those dealt ahead, when one card is dealt at
      a time (a fanned waste takes three) and no waiting action touches the waste; a redeal
      sets off at once when nothing waits: the waste's cards fly to the stock. */
  function deal() {
    const b = board();
    const button = b && b.querySelector('[data-pile="s"] button');
    const waiting = [sending, ...queue].filter(Boolean);
    if (!button && !waiting.length) return false;
    const stock = () => board().querySelector('[data-pile="s"] button');
    const waste = pileOf("w");
    let flight = null;
    if (button && waste && ahead()) {
      const others = waiting.some(
        (a) => a.kind !== "deal" && (a.piles.includes("w") || a.piles.includes("*")),
      );
      const dealt = waiting.filter((a) => a.kind === "deal").length;
      const count = Number(button.textContent.trim()) || 0;
      const shown = waste.querySelectorAll(":scope > .card").length;
      if (button.value === "deal" && count > dealt && !waste.classList.contains("fanned") &&
          !others) {
        flight = ahead().predict("s", "w", 1);
      } else if (button.value === "redeal" && !waiting.length && shown) {
        flight = ahead().predict("w", "s", shown);
      }
    }
    return enqueue({
      kind: "deal",
      url: () => board().dataset.moveUrl,
      values: () => ({ move: stock().value }),
      piles: ["s", "w"],
      flight,
      still: () => Boolean(stock()),
    });
  }

  /** The one step an undo (or a redo) would take back, when the last answer says it: the
      player's move alone (no automatic move, no card turned), cards leaving a column. */
  function knownStep(kind) {
    const was = kind === "undo" ? ["move", "foundation", "redo"] : ["undo"];
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
    if (!button || (button.disabled && !queue.length && !sending)) return false;
    const step = !busy() && !button.disabled ? knownStep(kind) : null;
    const flight = step && ahead() ? ahead().predict(step.to, step.from, step.n) : null;
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

  /** The game's other actions that change the board (restart, give up, Finish, the automatic
      moves' switch): after the actions before them, never beside them, confirmed first where
      the button asks (hx-confirm) as htmx would. Nothing sets off ahead of their answer. */
  const BOARD_ACTIONS = ["restart", "give-up", "finish-win", "autoplay"];

  function boardAction(button) {
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

  // The stock, undo and redo go by the queue too (a click made while an answer is on its way
  // is played after it, never lost), and so do the board's other actions; without this
  // script they are the form's buttons.
  document.addEventListener(
    "click",
    (event) => {
      const b = board();
      const button = event.target.closest && event.target.closest("button");
      if (!b || !button || !b.contains(button) || button.disabled) return;
      let done = false;
      if (button.closest('[data-pile="s"]')) done = deal();
      else if (button.id === "undo" || button.id === "redo") done = history(button.id);
      else if (BOARD_ACTIONS.includes(button.id)) done = boardAction(button);
      else return;
      event.preventDefault();
      event.stopImmediatePropagation();
      return done;
    },
    true,
  );

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

  /** Whether one tap on a card with exactly one move plays it: the player's setting (<html>'s
      data-tap, solitaire/accounts/looks.py), by default on a touch screen. */
  function oneTap() {
    const setting = document.documentElement.dataset.tap || "touch";
    return setting === "on" || (setting === "touch" && matchMedia("(pointer: coarse)").matches);
  }

  /** The one move of ``card`` (its pick and target), when nothing is held and the board lists
      exactly one for it; else null. */
  function onlyMove(card) {
    if (held || !card || !oneTap()) return null;
    const targets = targetsOf(card.dataset.pick);
    return targets.length === 1 ? [card.dataset.pick, targets[0]] : null;
  }

  document.addEventListener("click", (event) => {
    const b = board();
    if (!b || event.button !== 0 || !b.contains(event.target)) return;
    if (event.target.closest(".controls, .outcome, .pick-note")) return;
    if (event.target.closest("button")) return;
    const card = event.target.closest("a[data-pick]");
    const pile = event.target.closest("[data-pile]");
    const only = onlyMove(card);
    if (only) {
      // Played through the same queue as every other move.
      event.preventDefault();
      move(...only);
      return;
    }
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
    deal,
    undo: () => history("undo"),
    redo: () => history("redo"),
  };
})();
