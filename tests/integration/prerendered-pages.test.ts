import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

// A stand-in build with the landing and login pages drawn (decision 065): index.html, a manifest, and the
// prerendered-pages.json that scripts/build-into.mjs writes.
const webDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-web-prerendered-'));
fs.mkdirSync(path.join(webDirectory, '.vite'));
fs.writeFileSync(
  path.join(webDirectory, 'index.html'),
  '<!doctype html>\n<html lang="en">\n  <head>\n    <script type="module" crossorigin src="/assets/index-entry.js"></script>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n',
);
fs.writeFileSync(
  path.join(webDirectory, '.vite', 'manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index-entry.js', isEntry: true },
    'features/landing/landing-page.tsx': { file: 'assets/landing-page-p.js', isDynamicEntry: true },
    'features/auth/login-page.tsx': { file: 'assets/login-page-l.js', isDynamicEntry: true },
    'features/auth/signup-page.tsx': { file: 'assets/signup-page-s.js', isDynamicEntry: true },
  }),
);
const drawn = { '/': '<main><h1>Turn USDT into rupees</h1></main>', '/login': '<main><h1>Welcome Back</h1></main>' };
fs.writeFileSync(path.join(webDirectory, 'prerendered-pages.json'), JSON.stringify(drawn));

const { harness } = useIntegrationFile({ app: () => ({ webDirectory }), depositAddresses: false, admin: false, ledgerCheckAfterEach: false });
afterAll(() => {
  fs.rmSync(webDirectory, { recursive: true, force: true });
});

async function page(url: string, cookie?: string) {
  const response = await harness.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity', ...(cookie ? { cookie } : {}) } });
  expect(response.statusCode, url).toBe(200);
  return response;
}

describe('the landing and login pages sent drawn', () => {
  it('puts the drawn page before the empty root for a visitor without a session, and says the answer varies by cookie', async () => {
    for (const [url, html] of Object.entries(drawn)) {
      const response = await page(url);
      expect(response.body, url).toContain(`<div id="prerendered-page" data-path="${url}">${html}</div><div id="root"></div>`);
      expect(String(response.headers.vary)).toContain('cookie');
    }
    const withQuery = await page('/login?next=%2Fwallet');
    expect(withQuery.body).toContain(drawn['/login']);
  });

  it('sends the page undrawn to a signed-in browser, or to a device that chose Hindi, with another validator', async () => {
    const drawnLogin = await page('/login');
    for (const cookie of ['session=abc', '__Host-session=abc', 'rupeedesk.language=hi', 'rupeedesk.language=hi; other=1']) {
      const response = await page('/login', cookie);
      expect(response.body, cookie).not.toContain('prerendered-page');
      expect(response.body, cookie).toContain('<div id="root"></div>');
      expect(response.headers.etag, cookie).not.toBe(drawnLogin.headers.etag);
    }
    expect((await page('/', 'rupeedesk.language=en')).body).toContain(drawn['/']);
  });

  it('draws no other page', async () => {
    for (const url of ['/signup', '/dashboard', '/no-such-page']) expect((await page(url)).body, url).not.toContain('prerendered-page');
  });
});
