// Builds the web app and the server into one folder: <dir>/web, <dir>/server (with its SQL migrations), <dir>/shared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const outputDirectory = path.resolve(process.argv[2] ?? 'dist');
const steps = [
  ['npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', path.join(outputDirectory, 'web')]],
  ['npx', ['tsc', '-p', 'tsconfig.server.json', '--outDir', outputDirectory]],
];
for (const [command, args] of steps) {
  // A production build whatever the caller's NODE_ENV: under a test runner (NODE_ENV=test) Vite would
  // otherwise bundle React's development build, and the app would register no service worker.
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const webDirectory = path.join(outputDirectory, 'web');
// The landing and login pages drawn to HTML (docs/decisions/065): src/web/prerender/render-pages.tsx built for Node
// into a folder of this project (its imports resolve from node_modules), run once, and its HTML kept in prerendered-pages.json.
fs.mkdirSync('.build', { recursive: true });
const prerenderDirectory = fs.mkdtempSync(path.resolve('.build', 'prerender-'));
try {
  const built = spawnSync('npx', ['vite', 'build', '--ssr', 'prerender/render-pages.tsx', '--logLevel', 'error', '--outDir', prerenderDirectory], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  const { renderPrerenderedPages } = await import(pathToFileURL(path.join(prerenderDirectory, 'render-pages.js')).href);
  fs.writeFileSync(path.join(webDirectory, 'prerendered-pages.json'), `${JSON.stringify(await renderPrerenderedPages())}\n`);
} finally {
  fs.rmSync(prerenderDirectory, { recursive: true, force: true });
}
// Compressed copies beside each text asset, which the server sends to browsers that accept them.
for (const entry of fs.readdirSync(webDirectory, { recursive: true })) {
  const file = path.join(webDirectory, String(entry));
  if (!/\.(js|css|html|svg|json|webmanifest)$/.test(file) || !fs.statSync(file).isFile()) continue;
  const content = fs.readFileSync(file);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
}
// The compiled server finds '#shared/...' in the compiled shared folder, as the sources find it in src/shared.
fs.writeFileSync(path.join(outputDirectory, 'package.json'), `${JSON.stringify({ type: 'module', imports: { '#shared/*': './shared/*.js' } }, null, 2)}\n`);
fs.cpSync('src/server/db/migrations', path.join(outputDirectory, 'server', 'db', 'migrations'), { recursive: true });
// `npm start` rebuilds only when a source is newer than this stamp (scripts/start.mjs).
fs.writeFileSync(path.join(outputDirectory, '.build-stamp'), new Date().toISOString());
console.log(`Built into ${outputDirectory}`);
