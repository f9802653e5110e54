import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * What the web app shows first on a page, before its session check or its route's chunk has
 * answered: the FullPageLoader of src/web/components/ui/spinner.tsx, "Initializing..." behind the
 * session guards and "Loading..." while a page's chunk loads (tests/unit/route-shells.test.ts
 * checks that this markup is React's, to the byte).
 */
export function fullPageLoaderMarkup(text: 'Initializing...' | 'Loading...'): string {
  return (
    '<div class="flex min-h-screen flex-col items-center justify-center gap-3 text-slate-600">' +
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" ' +
    `aria-label="${text}" role="status" class="animate-spin text-brand-700 size-8"><path d="M21 12a9 9 0 1 1-6.219-8.56"></path></svg>` +
    `<p>${text}</p></div>`
  );
}

interface FirstVisitRoute {
  /** The source of the lazy route chunk that src/web/routes.tsx loads for the page (a key of Vite's build manifest, relative to src/web). */
  source: string;
  /** The loader the web app renders first there: behind RedirectIfSignedIn the session check's, elsewhere the route chunk's. */
  loaderText: 'Initializing...' | 'Loading...';
}

/**
 * The pages a first visit lands on, by path. Pages behind sign-in are left out: a first visit to
 * them goes on to the login page.
 */
export const FIRST_VISIT_ROUTES: Readonly<Record<string, FirstVisitRoute>> = {
  '/': { source: 'features/landing/landing-page.tsx', loaderText: 'Initializing...' },
  '/login': { source: 'features/auth/login-page.tsx', loaderText: 'Initializing...' },
  '/signup': { source: 'features/auth/signup-page.tsx', loaderText: 'Initializing...' },
  '/forgot-password': { source: 'features/auth/forgot-password-page.tsx', loaderText: 'Loading...' },
  '/reset-password': { source: 'features/auth/reset-password-page.tsx', loaderText: 'Loading...' },
  '/privacy': { source: 'features/landing/privacy-page.tsx', loaderText: 'Loading...' },
  '/terms': { source: 'features/landing/terms-page.tsx', loaderText: 'Loading...' },
  '/contact': { source: 'features/landing/contact-page.tsx', loaderText: 'Loading...' },
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
 * preloads. Without them the browser finds the route's chunk only after the entry has run (and the
 * session check answered), one download after another; with them all download at once, beside the
 * entry. Built once from the build manifest; empty when there is none (a build without it, or the
 * tests' stand-in web folder), and index.html is then served as it is.
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
  const root = '<div id="root"></div>';
  for (const [pagePath, { source, loaderText }] of Object.entries(FIRST_VISIT_ROUTES)) {
    const files: string[] = [];
    staticClosure(manifest, source, files);
    // The entry and what index.html already preloads are named there once.
    const links = files
      .filter((file) => !html.includes(`"/${file}"`))
      .map((file) => `    <link rel="modulepreload" crossorigin fetchpriority="low" href="/${escapeAttribute(file)}">\n`)
      .join('');
    let page = process.env.ROUTE_SHELL_PRELOAD === '0' ? html : `${html.slice(0, insertAt)}${links}${html.slice(insertAt)}`;
    if (process.env.ROUTE_SHELL_LOADER !== '0') page = page.replace(root, `<div id="root">${fullPageLoaderMarkup(loaderText)}</div>`);
    shells.set(pagePath, shellOf(page));
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
