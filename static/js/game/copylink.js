/* The share link's "Copy" button (hidden without this script, which alone can copy): it
   selects the link's text and puts it on the clipboard, and says so. */

import { say } from "./page.js";

/** The page is loaded: offer every [data-copy] button. */
export function start() {
  document.querySelectorAll("[data-copy]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      const field = document.querySelector(button.dataset.copy);
      field.select();
      const done = () => say(button.dataset.copied || "");
      if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done);
    });
  });
}
