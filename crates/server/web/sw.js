/* The service worker (served at /sw.js, so its scope is the whole site):
   after one visit, the site opens and plays against bots with no network.

   On install it keeps the shell: the lobby and the table page, their
   scripts and style, the fonts, the card art, the local table's worker
   and the engine (crates/browser in WebAssembly), the language files and
   the games' descriptions (/api/games). The server writes each file's
   version into the names below, so a new build is a new worker, with its
   own cache.

   - Pages: from the network, the kept copy when there is none (a local
     game's page, /local/?id=..., is the table page; any other page
     offline is the lobby).
   - Versioned files (a version in the query): from the cache, else the
     network, kept.
   - The language files, /api/games and the learned level's networks:
     from the network, kept; the kept copy when there is none.
   - Everything else (the API, the WebSocket) goes to the network as it
     would without a worker: online play works as before.

   A new worker waits: the lobby offers the update ("A new version is
   ready"), and the worker takes over when the person says so, never in
   the middle of a game. */

'use strict';

/** The shell, versioned by the server. */
const SHELL = [
  '/',
  '/local/',
  "/static/lobby-page.js",
  "/static/table-page.js",
  "/static/app.css",
  "/static/icons.woff2",
  "/static/emotes.woff2",
  "/static/cards.svg",
  "/static/engine.js",
  "/static/engine.wasm",
  "/static/icon-192.png",
  "/static/icon-512.png",
  '/manifest.webmanifest',
];

/** Kept fresh: the network first, the kept copy offline. */
const FRESH = ['/static/i18n-en.js', '/static/i18n-fr.js', '/static/i18n-it.js', '/api/games'];

/** This build's cache: named after its files' versions. */
const CACHE =
  'ratrace-' +
  SHELL.concat(FRESH)
    .join()
    .split('')
    .reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7)
    .toString(16);

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL.concat(FRESH))));
});

self.addEventListener('activate', (e) => {
  // the caches of older builds go; the first worker takes the open pages at once
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('ratrace-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener('message', (e) => {
  if (e.data === 'update') self.skipWaiting();
});

async function keep(req, res) {
  if (res.ok && res.status === 200) {
    const c = await caches.open(CACHE);
    await c.put(req, res.clone());
  }
  return res;
}

async function cacheFirst(req) {
  const kept = await caches.match(req);
  return kept || keep(req, await fetch(req));
}

async function networkFirst(req) {
  try {
    return await keep(req, await fetch(req));
  } catch (e) {
    const kept = await caches.match(req);
    if (kept) return kept;
    throw e;
  }
}

/** A page: the network's, the lobby and the table page kept for offline use. */
async function page(req, url) {
  const home = url.pathname.startsWith('/local') ? '/local/' : '/';
  try {
    const res = await fetch(req);
    if (url.pathname === home && res.ok) await (await caches.open(CACHE)).put(home, res.clone());
    return res;
  } catch (e) {
    const kept = await caches.match(home);
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    e.respondWith(page(req, url));
  } else if (url.pathname.startsWith('/static/') && url.searchParams.has('v')) {
    e.respondWith(cacheFirst(req));
  } else if (FRESH.includes(url.pathname)) {
    e.respondWith(networkFirst(req));
  }
});
