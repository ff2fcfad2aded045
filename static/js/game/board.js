/* The board's htmx lifecycle, heard in one place. htmx tells of each request and swap by
   events on the element concerned (the board, the catch-up poll, the hints' region), which
   reach the document; this module alone listens to them, and calls each module with work to
   do at that moment in the order written here, which is the order the work needs: the queue
   tells ahead.js whether an answer confirms its flight before motion.js measures the board;
   the focus is noted before the swap and put back after it; the answer's motion starts before
   the flights it confirms give way; the dragged cards left where they were let go wait until
   the motion has measured them. */

import * as ahead from "./ahead.js";
import * as catchup from "./catchup.js";
import * as clock from "./clock.js";
import * as hints from "./hints.js";
import * as drag from "./input/drag.js";
import * as keys from "./input/keys.js";
import * as motion from "./motion.js";
import * as pick from "./pick.js";
import * as queue from "./queue.js";

/** A request is being made: the catch-up question may be held back; a post says how long
    the page was hidden. */
function configRequest(event) {
  catchup.holdBack(event);
  clock.reportAway(event.detail);
}

/** A request sets off: what moves ends (unless it is the catch-up question). */
function beforeRequest(event) {
  motion.requestStarts(event.detail.elt);
}

/** An answer is about to be swapped in. */
function beforeSwap(event) {
  const detail = event.detail;
  queue.answerComing(detail);
  keys.rememberFocus();
  hints.takeRefusal(detail);
  motion.measureBefore(detail);
}

/** An answer is swapped in, before the browser draws it. */
function afterSwap(event) {
  pick.sync();
  drag.swapped();
  keys.swapped(event.target);
  motion.placeSkip();
  const start = performance.now();
  try {
    motion.playAnswer();
  } finally {
    ahead.confirmed();
  }
  performance.measure("motion: travel", { start });
  drag.answerIn();
}

/** A request has ended, its answer swapped in or not. */
function afterRequest(event) {
  const detail = event.detail;
  queue.requestEnded(detail);
  catchup.requestEnded(detail);
  hints.requestEnded(detail);
  drag.answerIn();
}

/** Every swap of an answer has settled (htmx has given the new elements their attributes). */
function afterSettle() {
  queue.settled();
  keys.settled();
  hints.show();
  clock.settled();
  motion.placeSkip();
}

export function listen() {
  document.addEventListener("htmx:configRequest", configRequest);
  document.addEventListener("htmx:beforeRequest", beforeRequest);
  document.addEventListener("htmx:beforeSwap", beforeSwap);
  document.addEventListener("htmx:afterSwap", afterSwap);
  document.addEventListener("htmx:afterRequest", afterRequest);
  document.addEventListener("htmx:afterSettle", afterSettle);
}
