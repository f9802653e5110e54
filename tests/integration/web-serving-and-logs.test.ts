import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMailServer, waitForResetLink, type TestMailServer } from '../fixtures/mail-server.ts';
import { call, signUpUser } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const webDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-web-'));
fs.mkdirSync(path.join(webDirectory, 'assets'));
fs.writeFileSync(path.join(webDirectory, 'index.html'), '<!doctype html><title>app shell</title>');
fs.writeFileSync(path.join(webDirectory, 'assets', 'main-abc123.js'), 'console.log(1)');
fs.writeFileSync(path.join(webDirectory, 'assets', 'main-abc123.js.br'), zlib.brotliCompressSync('console.log(1)'));
fs.writeFileSync(path.join(webDirectory, 'assets', 'main-abc123.js.gz'), zlib.gzipSync('console.log(1)'));
const manifestText = '{"name":"Rupeedesk"}';
fs.writeFileSync(path.join(webDirectory, 'manifest.webmanifest'), manifestText);
fs.writeFileSync(path.join(webDirectory, 'manifest.webmanifest.gz'), zlib.gzipSync(manifestText));
fs.writeFileSync(path.join(webDirectory, 'sw.js'), '// service worker');
fs.writeFileSync(path.join(webDirectory, 'sw.js.br'), zlib.brotliCompressSync('// service worker'));

let logText = '';
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => {
  logText += chunk.toString('utf8');
});

let mail: TestMailServer;
beforeAll(async () => {
  mail = await startTestMailServer();
});
const { harness } = useIntegrationFile({
  app: () => ({ webDirectory, logDestination: logStream, smtpUrl: mail.smtpUrl }),
  depositAddresses: false,
  admin: false,
});
afterAll(async () => {
  await mail.close();
  fs.rmSync(webDirectory, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers client-side routes with index.html', async () => {
    for (const url of ['/', '/dashboard', '/admin/users/123/transactions', '/no-such-page']) {
      const response = await harness.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('app shell');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('sends the precompressed copy a browser accepts, and the plain file otherwise', async () => {
    const brotli = await harness.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log(1)');
    const gzip = await harness.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await harness.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('serves the service worker and the manifest for revalidation on every use, with their content types', async () => {
    for (const encoding of ['identity', 'br, gzip']) {
      const worker = await harness.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': encoding } });
      expect(worker.statusCode).toBe(200);
      expect(worker.headers['cache-control']).toBe('no-cache');
      expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      const manifest = await harness.app.inject({ method: 'GET', url: '/manifest.webmanifest', headers: { 'accept-encoding': encoding } });
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['cache-control']).toBe('no-cache');
      expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    }
    const policy = String((await harness.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
  });

  it('answers unknown API paths with a JSON 404, never the app shell', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/no-such-endpoint' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
  });
});

describe('the log', () => {
  it('never contains a password, PIN, session token or reset token', async () => {
    const password = 'log-audit-password-91';
    const pin = '8642';
    const user = await signUpUser(harness.app, { password, pin });
    await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin }, cookie: user.cookie });
    await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password } });
    await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: `${password}-wrong` } });
    await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    const link = await waitForResetLink(mail, user.email);
    const token = decodeURIComponent(new URL(link).searchParams.get('token') ?? '');
    await harness.app.inject({ method: 'GET', url: `/reset-password?token=${token}` });
    await call(harness.app, { method: 'POST', url: '/api/auth/reset-password', body: { token, password: 'another-password-7' } });

    expect(logText).toContain('/reset-password?token=[redacted]');
    const sessionToken = user.cookie.replace('session=', '');
    for (const secret of [password, 'another-password-7', token, sessionToken]) expect(logText).not.toContain(secret);
    expect(logText).not.toMatch(new RegExp(`"pin":\\s*"${pin}"`));
  });
});
