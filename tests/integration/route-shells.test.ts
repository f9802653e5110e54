import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { preferredEncoding } from '../../src/server/http/route-shells.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

// A stand-in build: index.html as Vite writes it, and a build manifest in which the login page's
// chunk imports a shared chunk, which imports another, and the entry.
const webDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-web-preloads-'));
fs.mkdirSync(path.join(webDirectory, '.vite'));
const indexHtml = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  '    <title>Rupeedesk</title>',
  '    <script type="module" crossorigin src="/assets/index-entry.js"></script>',
  '    <link rel="modulepreload" crossorigin href="/assets/framework-f.js">',
  '  </head>',
  '  <body><div id="root"></div></body>',
  '</html>',
  '',
].join('\n');
fs.writeFileSync(path.join(webDirectory, 'index.html'), indexHtml);
fs.writeFileSync(
  path.join(webDirectory, '.vite', 'manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index-entry.js', isEntry: true, imports: ['_framework-f.js'], css: ['assets/index.css'] },
    '_framework-f.js': { file: 'assets/framework-f.js' },
    '_zod-z.js': { file: 'assets/zod-z.js', imports: ['_framework-f.js'] },
    '_form-field-ff.js': { file: 'assets/form-field-ff.js', imports: ['_zod-z.js', 'index.html'] },
    'features/auth/login-page.tsx': { file: 'assets/login-page-l.js', isDynamicEntry: true, imports: ['_form-field-ff.js', '_zod-z.js', 'index.html'] },
    'features/landing/landing-page.tsx': { file: 'assets/landing-page-p.js', isDynamicEntry: true, imports: ['_framework-f.js'] },
    'features/dashboard/dashboard-page.tsx': { file: 'assets/dashboard-page-d.js', isDynamicEntry: true, imports: ['_zod-z.js'] },
  }),
);

const { harness } = useIntegrationFile({ app: () => ({ webDirectory }), depositAddresses: false, admin: false, ledgerCheckAfterEach: false });
afterAll(() => {
  fs.rmSync(webDirectory, { recursive: true, force: true });
});

function modulePreloads(html: string): string[] {
  return Array.from(html.matchAll(/<link rel="modulepreload" crossorigin (?:fetchpriority="low" )?href="([^"]+)">/g), (match) => match[1] as string);
}

describe('the route chunks of first-visit pages, preloaded (at low priority) in the served index.html', () => {
  it("names the login page's chunk and every chunk it imports, each once, beside what index.html already loads", async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(modulePreloads(response.body)).toEqual(['/assets/framework-f.js', '/assets/login-page-l.js', '/assets/form-field-ff.js', '/assets/zod-z.js']);
    // Everything else in index.html is kept as it was; the links go at the end of <head>.
    expect(
      response.body.replace(/ {4}<link rel="modulepreload" crossorigin fetchpriority="low" href="\/assets\/(login-page-l|form-field-ff|zod-z)\.js">\n/g, ''),
    ).toBe(indexHtml);
    expect(response.body.indexOf('/assets/zod-z.js')).toBeLessThan(response.body.indexOf('</head>'));
  });

  it('keeps the query string out of the match, and the security headers and revalidation on', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/login?next=%2Fwallet', headers: { 'accept-encoding': 'identity' } });
    expect(modulePreloads(response.body)).toContain('/assets/login-page-l.js');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('sends the compressed copy a browser accepts, with the same page inside', async () => {
    const plain = await harness.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'identity' } });
    const brotli = await harness.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain.body);
    const gzip = await harness.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('answers a revalidation of an unchanged page with 304 and no body', async () => {
    const first = await harness.app.inject({ method: 'GET', url: '/login' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await harness.app.inject({ method: 'GET', url: '/login', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const landing = await harness.app.inject({ method: 'GET', url: '/' });
    expect(landing.headers.etag).not.toBe(etag);
  });

  it("preloads the landing page's chunk on /, and nothing more on pages behind sign-in or unknown paths", async () => {
    const landing = await harness.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(modulePreloads(landing.body)).toEqual(['/assets/framework-f.js', '/assets/landing-page-p.js']);
    for (const url of ['/dashboard', '/no-such-page', '/login/extra']) {
      const response = await harness.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(indexHtml);
    }
  });

  it('leaves the API alone', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/no-such-endpoint' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });
});

describe('choosing the encoding from Accept-Encoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('BR;q=0.0, GZIP;q=0')).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
  });
});
