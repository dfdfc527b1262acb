// The app's service worker: after a first visit the app loads, and share
// links open, with no network. The page itself is fetched from the network
// first (so that a new version shows) and from the cache when offline,
// whatever its query (a share link's ?s=...); the built files, whose names
// change with their content, come from the cache first.
const CACHE = 'paradl';
const BESIDE_THE_PAGE = ['paradl-worker.js', 'paradl-worker_bg.wasm', 'paradl-worker_loader.js', 'manifest.webmanifest', 'icon.svg'];

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

self.addEventListener('install', (event) => event.waitUntil(precache().then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put('./', copy));
          }
          return response;
        })
        .catch(() => caches.match('./')),
    );
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
