import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

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
        return [...files].map((fileName) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` }, injectTo: 'head' as const }));
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
      const assets = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith('assets/') && /\.(js|css)$/.test(fileName))
        .sort()
        .map((fileName) => `/${fileName}`);
      this.emitFile({ type: 'asset', fileName: 'precache-assets.json', source: JSON.stringify(assets) });
    },
  };
}

const frameworkModule = /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]|^\0rolldown[\\/]runtime/;
// The login and sign-up pages' modules, beyond what the landing page loads (none of them may be imported by the
// entry or the landing page: the landing budget, tests/bundle/landing-budget.test.ts, would then count their whole chunk).
const sessionContractModule = /node_modules[\\/]zod[\\/]|src[\\/](web[\\/]lib[\\/]zod-jitless\.ts|shared[\\/](text\.ts|contracts[\\/](auth|common)\.ts))$/;
const formKitModule =
  /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers|sonner|tailwind-merge|clsx|class-variance-authority|@radix-ui[\\/]react-(slot|label|primitive|compose-refs)|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|context|shared[\\/]src[\\/]utils)|radix-ui[\\/]dist)[\\/]?|src[\\/]web[\\/](lib[\\/](forms|form-errors|utils|document-title)\.ts|components[\\/]ui[\\/](button|input|label|form-field|card|password-input|action-error)\.tsx|features[\\/]auth[\\/]auth-card\.tsx)$/;
const signedInOnlyFrameworkModule = /@tanstack[\\/](query-core|react-query)[\\/]build[\\/]modern[\\/](infiniteQueryObserver|mutationObserver|useInfiniteQuery|useMutation|useIsFetching)\.js$/;

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), preloadEntryImports(), precacheList()],
  resolve: {
    // Zod in jitless mode in the browser: its eval probe would trip the Content-Security-Policy (src/web/lib/zod-jitless.ts).
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/lib/zod-jitless.ts', import.meta.url)) },
      // React Router's package exports name only its development build (warnings and invariant texts); the production one ships beside it.
      { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
    ],
  },
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
              test: /src[\\/](shared[\\/](money|limits)\.ts|web[\\/]features[\\/](rates[\\/](api|rate-card|converter|usdt-input|icons)\.tsx?|landing[\\/]public-layout\.tsx|support[\\/]))/,
            },
            // The session check's schemas (every first visit loads them beside /api/me) in one chunk rather than five.
            { name: 'session-contracts', test: sessionContractModule },
            // What the sign-in and sign-up forms are made of, in one chunk: the login page would otherwise wait on
            // some twenty small files, several levels deep, each a round trip on a phone's network.
            { name: 'form-kit', test: formKitModule },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
