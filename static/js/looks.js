/* Looks, on every page. The game's "More" menu and the site's menu on the game page (each a
   <details>, which works without this script) close once one of their actions is chosen, on a
   click elsewhere and on Escape. On the Looks
   page each choice shows at once on the page itself (the data attributes of <html> that the
   server renders, solitaire/accounts/looks.py), before it is saved. */
(function () {
  "use strict";

  function closeMenus(except) {
    document.querySelectorAll("details.more[open], details.site-menu[open]").forEach((menu) => {
      if (menu !== except) menu.removeAttribute("open");
    });
  }

  document.addEventListener("click", (event) => {
    const menu = event.target.closest("details.more, details.site-menu");
    if (!menu) {
      closeMenus(null);
      return;
    }
    if (event.target.closest(".more-menu button, .more-menu a")) {
      // After the click has done its work (a request sent, a dialog answered).
      setTimeout(() => menu.removeAttribute("open"), 0);
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const open = document.querySelector("details.more[open], details.site-menu[open]");
    if (!open) return;
    open.removeAttribute("open");
    open.querySelector("summary").focus();
    // Escape also puts back held cards (keys.js): that one press is for the menu only.
    event.stopImmediatePropagation();
  }, true);

  document.addEventListener("change", (event) => {
    const form = event.target.closest("[data-looks-form]");
    if (!form || event.target.type !== "radio") return;
    document.documentElement.setAttribute(`data-${event.target.name}`, event.target.value);
  });
})();
