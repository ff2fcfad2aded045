/* The game page's scripts, started: the entry that esbuild bundles into static/js/game.js
   (make js). Each module has one job and owns its state (docs/architecture.md draws them);
   this one starts them in the order written here. The listeners of one event run in the order
   they were added, so the order matters where two modules hear the same event: a click on the
   board's buttons is taken by click.js before drag.js may swallow it, Escape puts held cards
   back before the keys hear it. The board's htmx events are heard by board.js alone. */

import { move } from "./actions.js";
import * as board from "./board.js";
import * as catchup from "./catchup.js";
import * as clock from "./clock.js";
import * as copylink from "./copylink.js";
import * as hints from "./hints.js";
import * as click from "./input/click.js";
import * as drag from "./input/drag.js";
import * as keys from "./input/keys.js";
import * as motion from "./motion.js";
import * as network from "./network.js";
import * as pick from "./pick.js";
import * as sound from "./sound.js";

click.listen();
drag.listen();
keys.listen();
catchup.listen();
hints.listen();
clock.listen();
motion.listen();
network.listen();
board.listen();

document.addEventListener("DOMContentLoaded", () => {
  pick.sync();
  copylink.start();
  catchup.start();
  keys.start();
  hints.show();
  clock.start();
  sound.start();
});

// The one hook for the browser tests (tests/e2e/test_phone_table.py plays a move the board
// lists without aiming a finger at a card): the page's own code never reads it.
window.solitaireTests = { move };
