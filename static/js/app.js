/* The site as an app (solitaire/app.py, docs/app.md): every page registers the service worker
   (at the root, its scope the whole site) and tells it the page's language, for the page it
   shows when the network is away. Where the browser has no service worker, nothing happens. */
(function () {
  "use strict";

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
