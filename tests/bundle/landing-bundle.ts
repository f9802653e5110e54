import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** One chunk of the Vite manifest (build.manifest), keyed by its source path relative to src/web. */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const LANDING_PAGE_SOURCE = 'features/landing/landing-page.tsx';

export interface LandingBundleReport {
  files: { file: string; gzipBytes: number }[];
  totalGzipBytes: number;
}

/** Fails with a message that says how to produce the build, rather than skipping. */
export function readManifest(webDirectory: string): Manifest {
  const manifestFile = path.join(webDirectory, '.vite', 'manifest.json');
  const indexFile = path.join(webDirectory, 'index.html');
  for (const required of [indexFile, manifestFile]) {
    if (!fs.existsSync(required)) {
      throw new Error(`${required} is missing: build the web app first (npm run build, or node scripts/build-into.mjs <dir> with BUNDLE_WEB_DIR=<dir>/web).`);
    }
  }
  return JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
}

function staticClosure(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
}

/** Scripts index.html loads by itself: the entry and its module preloads. */
function scriptsOfIndexHtml(webDirectory: string): string[] {
  const html = fs.readFileSync(path.join(webDirectory, 'index.html'), 'utf8');
  const files: string[] = [];
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) {
    const reference = match[1] ?? match[2];
    if (reference && !/^[a-z]+:\/\//i.test(reference)) files.push(reference.replace(/^\//, ''));
  }
  return files;
}

/**
 * The JavaScript the landing page needs before any user action: index.html's
 * scripts, the entry with everything it imports statically, and the landing
 * route's chunk with its static imports, each counted once, gzipped at level 9.
 */
export function measureLandingBundle(webDirectory: string): LandingBundleReport {
  const manifest = readManifest(webDirectory);
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry chunk in the manifest, found ${entries.length}`);
  const files = new Set<string>(scriptsOfIndexHtml(webDirectory));
  staticClosure(manifest, (entries[0] as [string, ManifestChunk])[0], files);
  staticClosure(manifest, LANDING_PAGE_SOURCE, files);
  const measured = [...files]
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, gzipBytes: zlib.gzipSync(fs.readFileSync(path.join(webDirectory, file)), { level: 9 }).length }))
    .sort((first, second) => second.gzipBytes - first.gzipBytes);
  return { files: measured, totalGzipBytes: measured.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0) };
}
