import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { CATALOG_PARTS, isInlineEnglishKey, type CatalogPart } from './src/web/lib/i18n/catalog-parts.ts';
import {
  FACE_CHECK_MODELS,
  FACE_CHECK_MODELS_PATH,
  FACE_CHECK_WASM_FILES,
  FACE_CHECK_WASM_PATH,
  HUMAN_VERSION,
  TFJS_WASM_VERSION,
} from './src/web/features/kyc/face-check-assets.ts';

const apiPort = process.env.API_PORT ?? '3001';

/**
 * With build.modulePreload off (see below), index.html still preloads every
 * chunk the entry imports statically, so they download in parallel with it.
 */
function preloadEntryImports(): Plugin {
  return {
    name: 'preload-entry-imports',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { chunk, bundle }) {
        if (!chunk || !bundle) return [];
        const files = new Set<string>();
        const visit = (fileName: string) => {
          const imported = bundle[fileName];
          if (files.has(fileName) || !imported || imported.type !== 'chunk') return;
          files.add(fileName);
          for (const next of imported.imports) visit(next);
        };
        for (const fileName of chunk.imports) visit(fileName);
        return [...files].map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * Writes precache-assets.json: every script and style of the build, which the service worker
 * (public/sw.js) caches when it installs, so that any page opens offline, not only the ones visited.
 */
function precacheList(): Plugin {
  return {
    name: 'precache-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      // The face check's library (1.5 MB minified) is loaded by the live selfie's step only, never ahead of it.
      const faceCheck = (fileName: string) => {
        const output = bundle[fileName];
        return output?.type === 'chunk' && output.moduleIds.some((id) => /node_modules[\\/]@vladmandic[\\/]human[\\/]/.test(id));
      };
      const assets = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith('assets/') && /\.(js|css)$/.test(fileName) && !faceCheck(fileName))
        .sort()
        .map((fileName) => `/${fileName}`);
      this.emitFile({ type: 'asset', fileName: 'precache-assets.json', source: JSON.stringify(assets) });
    },
  };
}

/** The face check's files as the packages install them, by the path the app asks for them (face-check-assets.ts). */
function faceCheckFiles(): Map<string, string> {
  const installed = (name: string) => (JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
  if (installed('@vladmandic/human') !== HUMAN_VERSION || installed('@tensorflow/tfjs-backend-wasm') !== TFJS_WASM_VERSION) {
    throw new Error('src/web/features/kyc/face-check-assets.ts names other versions of @vladmandic/human or @tensorflow/tfjs-backend-wasm than installed');
  }
  const files = new Map<string, string>();
  for (const model of FACE_CHECK_MODELS) {
    for (const extension of ['json', 'bin'])
      files.set(`${FACE_CHECK_MODELS_PATH}${model}.${extension}`, `node_modules/@vladmandic/human/models/${model}.${extension}`);
  }
  for (const file of FACE_CHECK_WASM_FILES) files.set(`${FACE_CHECK_WASM_PATH}${file}`, `node_modules/@tensorflow/tfjs-backend-wasm/dist/${file}`);
  return files;
}

/**
 * The live selfie's models and WebAssembly (decision 052) from this app's origin, never a CDN: copied into the
 * build under /assets/ (cached for good, versioned paths), and served from node_modules by the dev server.
 */
function faceCheckAssets(): Plugin {
  return {
    name: 'face-check-assets',
    generateBundle() {
      for (const [url, file] of faceCheckFiles()) this.emitFile({ type: 'asset', fileName: url.slice(1), source: fs.readFileSync(file) });
    },
    configureServer(server) {
      const files = faceCheckFiles();
      server.middlewares.use((request, response, next) => {
        const file = files.get(request.url?.split('?')[0] ?? '');
        if (file === undefined) return next();
        response.setHeader(
          'content-type',
          file.endsWith('.wasm') ? 'application/wasm' : file.endsWith('.json') ? 'application/json' : 'application/octet-stream',
        );
        response.end(fs.readFileSync(file));
      });
    },
  };
}

const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';

/**
 * Vite wraps every dynamic import in its preload helper (about 900 gzipped bytes of the landing page's budget), which
 * loads the imported chunk's CSS and, with build.modulePreload on, its imports. Here modulePreload is off and the build
 * has one style sheet, which index.html links, so the helper has nothing to load: it just calls the import. The
 * build fails should a second style sheet appear, which a chunk would then need the real helper to load.
 */
function plainDynamicImports(): Plugin {
  return {
    name: 'plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    resolveId(id) {
      return id === PRELOAD_HELPER_ID ? id : undefined;
    },
    load(id) {
      return id === PRELOAD_HELPER_ID ? 'export const __vitePreload = (load) => load();' : undefined;
    },
    generateBundle(_options, bundle) {
      const styleSheets = Object.keys(bundle).filter((fileName) => fileName.endsWith('.css'));
      if (styleSheets.length > 1) throw new Error(`plain-dynamic-imports expects one style sheet, found ${styleSheets.join(', ')}`);
    },
  };
}

const CATALOG_MODULE_PREFIX = 'virtual:i18n-catalog/';

/**
 * The translation catalogs' parts as modules (docs/decisions/046): `virtual:i18n-catalog/en-inline`,
 * `en-rest` and `hi`, cut from src/web/lib/i18n/catalogs/<language>.json and compiled from ICU
 * MessageFormat at build time, so the browser carries no message parser.
 */
export function catalogParts(): Plugin {
  return {
    name: 'i18n-catalog-parts',
    resolveId(id) {
      return id.startsWith(CATALOG_MODULE_PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${CATALOG_MODULE_PREFIX}`)) return undefined;
      const part = id.slice(CATALOG_MODULE_PREFIX.length + 1) as CatalogPart;
      if (!CATALOG_PARTS.includes(part)) throw new Error(`${id}: no such catalog part (${CATALOG_PARTS.join(', ')})`);
      const file = fileURLToPath(new URL(`./src/web/lib/i18n/catalogs/${part === 'hi' ? 'hi' : 'en'}.json`, import.meta.url));
      this.addWatchFile(file);
      const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages)
          .filter(([key]) => part === 'hi' || (part === 'en-inline') === isInlineEnglishKey(key))
          .map(([key, message]) => [key, compileMessage(message)]),
      );
      // The inlined English is read without Lingui's runtime (src/web/lib/i18n/i18n.ts): text and plain {placeholders} only.
      const plain = (message: unknown) =>
        typeof message === 'string' ||
        (Array.isArray(message) && message.every((token) => typeof token === 'string' || (Array.isArray(token) && token.length === 1)));
      const refused = part === 'en-inline' ? Object.keys(compiled).filter((key) => !plain(compiled[key])) : [];
      if (refused.length > 0) throw new Error(`${refused.join(', ')}: the landing page's messages may hold plain {placeholders} only`);
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}

const frameworkModule = /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]|^\0rolldown[\\/]runtime/;
// The login and sign-up pages' modules, beyond what the landing page loads (none of them may be imported by the
// entry or the landing page: the landing budget, tests/bundle/landing-budget.test.ts, would then count their whole chunk).
const sessionContractModule = /node_modules[\\/]zod[\\/]|src[\\/](web[\\/]lib[\\/]zod-jitless\.ts|shared[\\/](text\.ts|contracts[\\/](auth|common)\.ts))$/;
// The table of server messages the forms localize (docs/decisions/046) with the contracts it reads, in one chunk beside the
// form kit; the contracts the public pages read on their own (settings, withdrawal rules, KYC, the operator's identity) stay apart.
const serverMessageModule =
  /src[\\/](web[\\/]lib[\\/]i18n[\\/](known-messages|localize-message)|shared[\\/]contracts[\\/](bank-accounts|contact-verification|deposits|transfers|wallets|withdrawals))\.ts$/;
const formKitModule =
  /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers|sonner|tailwind-merge|clsx|class-variance-authority|@radix-ui[\\/]react-(slot|label|primitive|compose-refs)|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|context|shared[\\/]src[\\/](utils|build)|icons[\\/]eye(-off)?\.mjs$)|radix-ui[\\/]dist)[\\/]?|src[\\/]web[\\/](lib[\\/](forms|form-errors|utils|document-title)\.ts|components[\\/]ui[\\/](button|input|label|form-field|card|password-input|action-error)\.tsx|features[\\/]auth[\\/]auth-card\.tsx)$/;
const featureIndexModule = /src[\\/]web[\\/]features[\\/][a-z0-9-]+[\\/]index\.ts$/;
const signedInOnlyFrameworkModule =
  /@tanstack[\\/](query-core|react-query)[\\/]build[\\/]modern[\\/](infiniteQueryObserver|mutationObserver|useInfiniteQuery|useMutation|useMutationState|useIsFetching)\.js$/;

const aliases = [
  // Zod in jitless mode in the browser: its eval probe would trip the Content-Security-Policy (src/web/lib/zod-jitless.ts).
  { find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/lib/zod-jitless.ts', import.meta.url)) },
  // React Router's package exports name only its development build (warnings and invariant texts); the production one ships beside it.
  { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
];

/**
 * The build for Node of src/web/prerender/render-pages.tsx (`vite build --ssr`, run by scripts/build-into.mjs),
 * which draws the landing and login pages to HTML at build time (docs/decisions/065).
 */
const prerenderConfig: UserConfig = {
  root: 'src/web',
  publicDir: false,
  plugins: [react(), catalogParts()],
  resolve: { alias: aliases },
  build: { ssr: 'prerender/render-pages.tsx', emptyOutDir: true, minify: false, sourcemap: false, copyPublicDir: false },
};

const browserConfig: UserConfig = {
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), preloadEntryImports(), precacheList(), catalogParts(), plainDynamicImports(), faceCheckAssets()],
  resolve: { alias: aliases },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // tests/bundle/landing-budget.test.ts reads the manifest to add up what the landing page loads.
    manifest: true,
    // Vite's preloading of lazy routes' imports costs the entry a helper and a list of every
    // route's files, which the landing page's 100 KB budget cannot carry; a route's own
    // imports load right after it instead.
    modulePreload: false,
    rolldownOptions: {
      // A web feature's index.ts only names what other features may use (decision 034): marked free of side effects, an
      // import of one name through it brings that name's module alone, not every module the index names. Without this,
      // the landing page's import of the rate card would bring the converter into its first JavaScript, and every page
      // using the wallet's index would load the transfer dialog.
      treeshake: { moduleSideEffects: [{ test: featureIndexModule, sideEffects: false }] },
      output: {
        codeSplitting: {
          // What every page needs, in one long-cached chunk that compresses better than its pieces.
          groups: [
            {
              name: 'framework',
              // Infinite lists and mutations are only used after sign-in; they load with those pages,
              // not with the landing page (about 660 gzipped bytes).
              test: (id: string) => frameworkModule.test(id) && !signedInOnlyFrameworkModule.test(id),
            },
            // The landing page's own building blocks (also used by the dashboard and the public pages) in one chunk.
            {
              name: 'public-kit',
              test: /src[\\/](shared[\\/](money-core|limits)\.ts|web[\\/]lib[\\/]prerendered-page\.ts|web[\\/]features[\\/](rates[\\/](api|rate-card|icons)\.tsx?|landing[\\/]public-layout\.tsx|support[\\/]))/,
            },
            // The session check's schemas (every first visit loads them beside /api/me) in one chunk rather than five.
            { name: 'session-contracts', test: sessionContractModule },
            // What the sign-in and sign-up forms are made of, in one chunk: the login page would otherwise wait on
            // some twenty small files, several levels deep, each a round trip on a phone's network.
            // Only the modules named: its fields localize server messages, and with its dependencies it would take in the table of
            // known messages and every contract that table reads (docs/decisions/046), so that any page reading one contract
            // (the landing page's footer and settings) would load the whole form kit.
            { name: 'form-kit', test: formKitModule, includeDependenciesRecursively: false },
            { name: 'server-messages', test: serverMessageModule, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? prerenderConfig : browserConfig));
