/* The site as an app (solitaire/app.py, docs/app.md): every page registers the service worker
   (at the root, its scope the whole site) and tells it the page's language, for the page it
   shows when the network is away. Where the browser has no service worker, nothing happens.

   It also opens a game in one request rather than two (docs/performance.md): the forms that
   open a game send "answer=page" once this script runs, and the server answers them with the
   game page itself, not a redirect to it. That page, or one a link opened (/daily/<game>/),
   names its own address (<link rel="canonical">), put here in the address bar: a reload asks
   for the game, neither the form again nor the link. Without this script the forms send no
   such field and are answered with a redirect, as before. */
(function () {
  "use strict";

  const enable = (root) => {
    for (const input of root.querySelectorAll("input[data-with-script]")) input.disabled = false;
  };
  enable(document);
  // A form that came later (a hint's answer offers a new winnable deal), swapped in by htmx.
  document.addEventListener("htmx:load", (event) => enable(event.target));
  const canonical = document.querySelector('link[rel="canonical"]');
  if (canonical) {
    const address = new URL(canonical.href);
    if (address.origin === location.origin && address.pathname !== location.pathname) {
      history.replaceState(history.state, "", address.pathname + location.hash);
    }
  }

  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  const url = script.dataset.serviceWorker;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope: "/" }).then((registration) => {
      const worker = registration.active || registration.waiting || registration.installing;
      if (worker) worker.postMessage({ language: document.documentElement.lang });
    }).catch(() => {
      // No worker (a private window, a browser that refuses it): the site works as before.
    });
  });
})();
