import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './security.ts';

/**
 * The pages a first visit lands on, by path, with the source of the lazy route chunk that
 * src/web/routes.tsx loads for each (keys of Vite's build manifest, relative to src/web).
 * Pages behind sign-in are left out: a first visit to them goes on to the login page.
 */
export const FIRST_VISIT_ROUTE_SOURCES: Readonly<Record<string, string>> = {
  '/': 'features/landing/landing-page.tsx',
  '/login': 'features/auth/login-page.tsx',
  '/signup': 'features/auth/signup-page.tsx',
  '/forgot-password': 'features/auth/forgot-password-page.tsx',
  '/reset-password': 'features/auth/reset-password-page.tsx',
  '/privacy': 'features/landing/privacy-page.tsx',
  '/terms': 'features/landing/terms-page.tsx',
  '/contact': 'features/landing/contact-page.tsx',
};

/** One chunk of Vite's build manifest (build.manifest in vite.config.ts). */
interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** index.html for one path, with its compressed copies and validator, built once at start. */
export interface RouteShell {
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

/** A first-visit page's shells: with the page already drawn in it (decision 065) when the build drew it, and without. */
export interface RouteShells {
  plain: RouteShell;
  prerendered?: RouteShell;
}

const ROOT_ELEMENT = '<div id="root"></div>';
/** The web app's language choice on this device, mirrored from its storage key (src/web/lib/i18n/i18n.ts). */
const LANGUAGE_COOKIE = 'rupeedesk.language';

/**
 * The landing and login pages are sent drawn to a visitor with no session cookie (a signed-in one goes
 * on to the dashboard) whose device chose no language other than English, the one they are drawn in.
 */
export function wantsPrerenderedPage(request: FastifyRequest): boolean {
  const language = request.cookies[LANGUAGE_COOKIE];
  const session = request.cookies[SESSION_COOKIE] ?? request.cookies[SECURE_SESSION_COOKIE];
  return session === undefined && (language === undefined || language === 'en');
}

/** The pages the build drew (scripts/build-into.mjs writes them from src/web/prerender/render-pages.tsx), by path. */
function prerenderedPagesOf(webDirectory: string): Record<string, string> {
  const file = path.join(webDirectory, 'prerendered-pages.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/** The page's drawn copy goes before the app's empty root, which styles.css hides while the copy is there. */
function withPrerenderedPage(html: string, pagePath: string, pageHtml: string): string | undefined {
  const at = html.indexOf(ROOT_ELEMENT);
  if (at < 0) return undefined;
  const copy = `<div id="prerendered-page" data-path="${escapeAttribute(pagePath)}">${pageHtml}</div>`;
  return `${html.slice(0, at)}${copy}${html.slice(at)}`;
}

/** The scripts a route's chunk needs before it can run: the chunk and everything it imports statically. */
function staticClosure(manifest: Record<string, ManifestChunk>, key: string, files: string[]): void {
  const chunk = manifest[key];
  if (!chunk?.file.endsWith('.js') || files.includes(chunk.file)) return;
  files.push(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, files);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function shellOf(html: string): RouteShell {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    gzip: zlib.gzipSync(identity, { level: 9 }),
    brotli: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * index.html for each first-visit page, naming that page's route chunk and its imports as module
 * preloads. Without them the browser asks for the route's chunk only once the entry has run and the
 * session check has answered (RedirectIfSignedIn renders the page then), and for the chunk's imports
 * only once it has arrived; with them they download beside the entry. Built once from the build
 * manifest; empty when there is none (a build without it, or the tests' stand-in web folder), and
 * index.html is then served as it is.
 */
export function buildRouteShells(webDirectory: string): Map<string, RouteShells> {
  const shells = new Map<string, RouteShells>();
  const indexFile = path.join(webDirectory, 'index.html');
  const manifestFile = path.join(webDirectory, '.vite', 'manifest.json');
  if (!fs.existsSync(indexFile) || !fs.existsSync(manifestFile)) return shells;
  const html = fs.readFileSync(indexFile, 'utf8');
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return shells;
  // At the start of the line of </head>, so that the links keep the file's indentation.
  const lineStart = html.lastIndexOf('\n', headEnd) + 1;
  const insertAt = lineStart > 0 && html.slice(lineStart, headEnd).trim() === '' ? lineStart : headEnd;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const prerenderedPages = prerenderedPagesOf(webDirectory);
  for (const [pagePath, source] of Object.entries(FIRST_VISIT_ROUTE_SOURCES)) {
    const files: string[] = [];
    staticClosure(manifest, source, files);
    // The entry and what index.html already preloads are named there once. Low priority: they must
    // not hold up the stylesheet and the entry's own scripts, which paint the page's first frame.
    const links = files
      .filter((file) => !html.includes(`"/${file}"`))
      .map((file) => `    <link rel="modulepreload" crossorigin fetchpriority="low" href="/${escapeAttribute(file)}">\n`)
      .join('');
    const page = `${html.slice(0, insertAt)}${links}${html.slice(insertAt)}`;
    const pageHtml = prerenderedPages[pagePath];
    const prerendered = pageHtml === undefined ? undefined : withPrerenderedPage(page, pagePath, pageHtml);
    if (links === '' && prerendered === undefined) continue;
    shells.set(pagePath, prerendered === undefined ? { plain: shellOf(page) } : { plain: shellOf(page), prerendered: shellOf(prerendered) });
  }
  return shells;
}

/** The encoding to send, from the request's Accept-Encoding: brotli, then gzip, else none. */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    if (quality !== undefined && !(Number(quality.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}
