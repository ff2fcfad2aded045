{% autoescape off %}{% comment %}The service worker (solitaire/app.py, docs/app.md). It keeps the static files, whose names
   change with their contents (cache first), and a page that says the network is away. Pages go
   to the network (that page when they cannot), and every request of a game goes to the network
   untouched: the board is always the server's, and nothing is kept to be sent later.{% endcomment %}
"use strict";

const VERSION = {{ version }};
const CACHE = `solitaire-${VERSION}`;
const STATIC = {{ static_url }};
const FILES = {{ files }};
{% comment %}The offline page of each language, by language code.{% endcomment %}
const OFFLINE = {{ offline_pages }};
{% comment %}Where the language of the pages last seen is kept (a page tells it: static/js/app.js).{% endcomment %}
const LANGUAGE = "/sw/language";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...FILES, ...Object.values(OFFLINE)]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  const language = event.data && event.data.language;
  if (language && OFFLINE[language]) {
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(LANGUAGE, new Response(language))));
  }
});

{% comment %}The offline page in the language of the address asked for, else of the pages last seen.{% endcomment %}
async function offlinePage(url) {
  const cache = await caches.open(CACHE);
  const prefix = url.pathname.split("/")[1];
  let language = OFFLINE[prefix] ? prefix : "";
  if (!language) {
    const kept = await cache.match(LANGUAGE);
    language = kept ? await kept.text() : "";
  }
  const page = await cache.match(OFFLINE[language] || Object.values(OFFLINE)[0], { ignoreVary: true });
  return page || Response.error();
}

{% comment %}A static file: from the cache, else from the network (and kept).{% endcomment %}
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  {# A game's actions: the network's, untouched. #}
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage(url)));
  }
  {# Anything else (a game's catch-up question, a hint, the manifest): the network's, untouched. #}
});
{% endautoescape %}
