import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

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
export function buildRouteShells(webDirectory: string): Map<string, RouteShell> {
  const shells = new Map<string, RouteShell>();
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
  for (const [pagePath, source] of Object.entries(FIRST_VISIT_ROUTE_SOURCES)) {
    const files: string[] = [];
    staticClosure(manifest, source, files);
    // The entry and what index.html already preloads are named there once. Low priority: they must
    // not hold up the stylesheet and the entry's own scripts, which paint the page's first frame.
    const links = files
      .filter((file) => !html.includes(`"/${file}"`))
      .map((file) => `    <link rel="modulepreload" crossorigin fetchpriority="low" href="/${escapeAttribute(file)}">\n`)
      .join('');
    if (links === '') continue;
    shells.set(pagePath, shellOf(`${html.slice(0, insertAt)}${links}${html.slice(insertAt)}`));
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
