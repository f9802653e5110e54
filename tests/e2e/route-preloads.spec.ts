import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Request } from '@playwright/test';
import { E2E_DIST_DIRECTORY } from './support/constants.ts';

/*
 * The served index.html of a first-visit page preloads that page's route chunk and its imports
 * (src/server/http/route-shells.ts): the browser fetches them while the session check is still
 * under way, instead of after it has answered.
 */
interface ManifestChunk {
  file: string;
  imports?: string[];
}
const manifest = JSON.parse(fs.readFileSync(path.join(E2E_DIST_DIRECTORY, 'web', '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

function chunkFiles(key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkFiles(imported, files);
  return files;
}

const pages = [
  { url: '/login', source: 'features/auth/login-page.tsx', heading: 'Welcome Back' },
  { url: '/', source: 'features/landing/landing-page.tsx', heading: null },
];

for (const { url, source, heading } of pages) {
  test(`${url}: the route's chunks download before the session check answers, and the page then works as before`, async ({ page, request }) => {
    const routeChunk = manifest[source]?.file;
    expect(routeChunk, `${source} in the build manifest`).toBeDefined();

    const html = await (await request.get(url)).text();
    expect(html).toContain(`<link rel="modulepreload" crossorigin fetchpriority="low" href="/${routeChunk}">`);
    // Every script the page's chunk needs is named: the entry's by Vite, the rest by the server.
    for (const file of chunkFiles(source)) expect(html, file).toContain(`"/${file}"`);

    // The session check is held until the route's chunk has been asked for; without the preloads
    // the web app asks for it only after the session check has answered, so neither would ever come
    // and the test would fail at its time limit.
    let routeChunkRequested: (value: Request) => void = () => undefined;
    const routeChunkRequest = new Promise<Request>((resolve) => {
      routeChunkRequested = resolve;
    });
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname === `/${routeChunk}`) routeChunkRequested(sent);
    });
    let sessionCheckHeld = false;
    await page.route('**/api/me', async (route) => {
      sessionCheckHeld = true;
      await routeChunkRequest;
      await route.continue();
    });

    await page.goto(url);
    const sent = await routeChunkRequest;
    expect(new URL(sent.url()).pathname, `${routeChunk} requested while /api/me was held`).toBe(`/${routeChunk}`);
    // The page drawn at build time shows its heading at once; the live page's is inside #root,
    // which stays hidden until the web app has drawn it after the session check.
    const livePage = page.locator('#root');
    if (heading) await expect(livePage.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    else await expect(livePage.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => sessionCheckHeld).toBe(true);
  });
}
