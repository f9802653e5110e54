/* global self, caches */
// The service worker: keeps the app shell and the hashed static files so that the
// installed app opens at once, and never touches the API (docs/decisions/020).
// Bump the version when these rules change; activation deletes every other cache.
const CACHE_NAME = 'rupeedesk-shell-v2';
const SHELL_URL = '/';
// Hashed assets pile up over releases; the oldest go first beyond this many (a release has about a hundred).
const MAX_CACHED_ASSETS = 300;
// Every script and style of the release, written by the build (vite.config.ts).
const PRECACHE_LIST_URL = '/precache-assets.json';

function isApiPath(pathname) {
  return pathname === '/api' || pathname.startsWith('/api/');
}

function isCacheableResponse(response) {
  return response.ok && response.type === 'basic' && !response.redirected;
}

/** Every script and style of the release, so that any page opens offline, visited or not. */
async function releaseAssets() {
  const response = await fetch(PRECACHE_LIST_URL, { cache: 'reload' });
  if (!isCacheableResponse(response)) return [];
  const list = await response.json();
  return Array.isArray(list) ? list.filter((entry) => typeof entry === 'string' && entry.startsWith('/assets/')) : [];
}

/** The shell, the scripts and styles it names and every route's scripts and styles, so that the first offline start works too. */
async function precacheShell() {
  const cache = await caches.open(CACHE_NAME);
  const response = await fetch(SHELL_URL, { cache: 'reload' });
  if (!isCacheableResponse(response)) return;
  const html = await response.clone().text();
  await cache.put(SHELL_URL, response);
  const named = Array.from(html.matchAll(/(?:src|href)="(\/assets\/[^"?#]+)"/g), (match) => match[1]);
  const assets = [...new Set([...named, ...(await releaseAssets())])];
  await cache.addAll(assets.slice(0, MAX_CACHED_ASSETS));
}

async function trimAssets(cache) {
  const keys = await cache.keys();
  const assets = keys.filter((request) => new URL(request.url).pathname.startsWith('/assets/'));
  await Promise.all(assets.slice(0, Math.max(0, assets.length - MAX_CACHED_ASSETS)).map((request) => cache.delete(request)));
}

/** Hashed files never change under one name: the cached copy is the file. */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE_NAME);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (isCacheableResponse(response)) {
    await cache.put(request, response.clone());
    await trimAssets(cache);
  }
  return response;
}

/** Pages come from the network while it answers (a new release shows at once), else from the cached shell. */
async function networkFirstNavigation(request) {
  const cache = await caches.open(CACHE_NAME);
  try {
    const response = await fetch(request);
    const isHtml = (response.headers.get('content-type') ?? '').startsWith('text/html');
    if (isCacheableResponse(response) && isHtml) await cache.put(SHELL_URL, response.clone());
    return response;
  } catch (error) {
    const shell = await cache.match(SHELL_URL);
    if (shell) return shell;
    throw error;
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(precacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE_NAME).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Writes, other origins and every API answer (balances, the event stream) always go to the network untouched.
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApiPath(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstNavigation(request));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  }
});
