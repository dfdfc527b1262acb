// The app's service worker: after a first visit the app loads, and share
// links open, with no network. The pages (index.html and each lesson's
// pre-rendered page, lesson-ID.html) are fetched from the network first (so
// that a new version shows) and from the cache when offline, whatever their
// query (a share link's ?s=...); so are the files whose names
// do not change with their content (the worker, the model's contract, the
// measured runs), so that a new page never meets an old worker. The built
// files whose names carry a hash of their content come from the cache first.
const CACHE = 'paradl';
const BESIDE_THE_PAGE = [
  'paradl-worker.js', 'paradl-worker_bg.wasm', 'paradl-worker_loader.js', 'manifest.webmanifest', 'icon.svg',
  'ORACLE-MODEL.md', 'measured-runs.csv',
];
const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;

async function precache() {
  const cache = await caches.open(CACHE);
  const page = await fetch('./', { cache: 'no-store' });
  const html = await page.clone().text();
  await cache.put('./', page);
  const files = new Set(BESIDE_THE_PAGE);
  for (const found of html.matchAll(/(?:href=|src=|from |module_or_path: )["']\.\/([^"'?#]+)["']/g)) {
    files.add(found[1]);
  }
  await cache.addAll([...files].map((file) => './' + file));
}

// the network's answer, kept under `key`; the kept one when offline (else
// the one kept under `fallback`)
function networkFirst(request, key, fallback) {
  return fetch(request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(key, copy));
      }
      return response;
    })
    .catch(() =>
      caches.match(key, { ignoreSearch: true }).then((hit) => hit || (fallback && caches.match(fallback))),
    );
}

self.addEventListener('install', (event) => event.waitUntil(precache().then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  if (request.mode === 'navigate') {
    // each page under its own address without the query; the app's page ('./') when one was never kept
    const page = new URL(request.url);
    page.search = '';
    page.hash = '';
    const key = page.href === new URL('./', self.registration.scope).href ? './' : page.href;
    event.respondWith(networkFirst(request, key, './'));
    return;
  }
  if (!HASHED.test(new URL(request.url).pathname)) {
    event.respondWith(networkFirst(request, request));
    return;
  }
  event.respondWith(
    caches.match(request, { ignoreSearch: true }).then(
      (hit) =>
        hit ||
        fetch(request).then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        }),
    ),
  );
});
