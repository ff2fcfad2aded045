/* The replay viewer's "Play": step forward through the game at the chosen speed. Each step
   is the "Forward" link, which htmx follows: it swaps in the next move's board (#replay) and
   pushes that move's address, so the address always names the move shown. Without this
   script the First, Back, Forward and Last links work as plain page loads; with it the arrow
   keys (and Home and End) step too. On a shared game's page its owner's "Copy" puts the
   link on the clipboard (hidden without this script, which alone can copy). */
(function () {
  "use strict";

  let playing = false;
  /** The pending step, while playing and the board shown has settled. */
  let timer = null;

  function controls() {
    return document.querySelector("[data-replay]");
  }

  function hasStep(name) {
    return document.querySelector(`#replay [data-step="${name}"]`);
  }

  function step(name) {
    const link = hasStep(name);
    if (link) link.click();
    return Boolean(link);
  }

  function schedule() {
    const seconds = parseFloat(controls().querySelector("[data-speed]").value) || 1;
    clearTimeout(timer);
    timer = setTimeout(function () {
      timer = null;
      if (!step("forward")) setPlaying(false);
    }, seconds * 1000);
  }

  function setPlaying(on) {
    const button = controls().querySelector("[data-play]");
    playing = on;
    clearTimeout(timer);
    timer = null;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? button.dataset.textPause : button.dataset.textPlay;
  }

  function offerCopy() {
    const button = document.querySelector("[data-copy]");
    const said = document.querySelector("[data-copy-said]");
    if (!button || !said || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      const field = document.querySelector(button.dataset.copy);
      field.select();
      navigator.clipboard.writeText(field.value).then(function () {
        said.textContent = said.dataset.copied;
      });
    });
  }

  function init() {
    offerCopy();
    const box = controls();
    if (!box) return;
    box.hidden = false;
    box.querySelector("[data-play]").addEventListener("click", function () {
      if (playing) {
        setPlaying(false);
        return;
      }
      setPlaying(true);
      // From the last move, play starts again from the deal (the next board schedules on).
      if (!hasStep("forward")) step("first");
      else schedule();
    });
    box.querySelector("[data-speed]").addEventListener("change", function () {
      if (timer !== null) schedule();
    });
    // The next step waits until the board it follows is in sight (only steps swap here;
    // schedule() keeps one step pending however many elements report settling).
    document.body.addEventListener("htmx:afterSettle", function () {
      if (!playing) return;
      if (hasStep("forward")) schedule();
      else setPlaying(false);
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target.closest("input, select, textarea, button")) return;
      const keys = { ArrowRight: "forward", ArrowLeft: "back", Home: "first", End: "last" };
      if (!(event.key in keys)) return;
      if (playing) setPlaying(false);
      step(keys[event.key]);
      event.preventDefault();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
