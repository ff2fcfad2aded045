/* Click to play. Click a card to pick it up (with the cards above it), click a column or a
   foundation to put it there, click the card again (or press Escape) to put it back; a
   double-click sends a card to a foundation. Moves go to the server by htmx, with the ply of
   the board they were made on; the server answers with the new board (#board) and what
   happened (#announce). Without this script the cards are links (?pick=t3:2) and the piles
   get "Put here" buttons, so every move also works by plain page loads. */
(function () {
  "use strict";

  /** The picked cards in the notation ("w", "t3", "t3:2", "f1"), or "". */
  let held = "";

  function board() {
    return document.getElementById("board");
  }

  function say(text) {
    const region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  function hold(pick) {
    const b = board();
    held = pick;
    b.querySelectorAll(".card.picked").forEach((el) => el.classList.remove("picked"));
    b.dataset.pick = pick;
    if (!pick) return;
    // The picked card and every card on top of it in its pile.
    let el = b.querySelector(`[data-pick="${CSS.escape(pick)}"]`);
    for (; el; el = el.nextElementSibling) {
      if (el.classList.contains("card")) el.classList.add("picked");
    }
  }

  function post(url, values) {
    const b = board();
    const token = b.querySelector("input[name=csrfmiddlewaretoken]").value;
    hold("");
    return htmx.ajax("POST", url, {
      source: b,
      target: b,
      swap: "outerHTML",
      values: Object.assign({ ply: b.dataset.ply }, values),
      headers: { "X-CSRFToken": token },
    });
  }

  document.addEventListener("click", (event) => {
    const b = board();
    if (!b || event.button !== 0 || !b.contains(event.target)) return;
    if (event.target.closest(".controls, .outcome, .pick-note")) return;
    const card = event.target.closest("a[data-pick]");
    const pile = event.target.closest("[data-pile]");
    if (held) {
      if (card && card.dataset.pick === held) {
        event.preventDefault();
        hold("");
        say(b.dataset.textPutBack);
        return;
      }
      const source = held.split(":")[0];
      const target = pile ? pile.dataset.pile : "";
      if (target && target !== "s" && target !== "w" && target !== source) {
        event.preventDefault();
        post(b.dataset.moveUrl, { move: `${held}-${target}` });
        return;
      }
    }
    if (card) {
      event.preventDefault();
      hold(card.dataset.pick);
      say((b.dataset.textPicked || "%s").replace("%s", card.getAttribute("aria-label")));
    }
  });

  document.addEventListener("dblclick", (event) => {
    const b = board();
    const card = b && b.contains(event.target) && event.target.closest("a[data-pick]");
    if (!card) return;
    event.preventDefault();
    post(b.dataset.foundationUrl, { pick: card.dataset.pick });
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && held) {
      hold("");
      say(board().dataset.textPutBack);
    }
  });

  function sync() {
    const b = board();
    held = b ? b.dataset.pick || "" : "";
  }
  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:afterSettle", sync);

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
})();
