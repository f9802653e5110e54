// Builds the web app and the server when the sources are newer than the last build. `npm start` runs
// this, then replaces its shell with the server (`exec` in package.json), so that SIGTERM and SIGINT
// sent to npm reach the server itself, as under Docker, systemd and Kubernetes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'dist', '.build-stamp');
const inputs = ['src', 'public', 'scripts', 'package-lock.json', 'vite.config.ts', 'tsconfig.base.json', 'tsconfig.server.json'];

function newestModification(target) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestModification(path.join(target, entry)));
  return newest;
}

const builtAt = fs.existsSync(stampFile) ? fs.statSync(stampFile).mtimeMs : 0;
const sourcesChangedAt = Math.max(...inputs.map(newestModification));
if (sourcesChangedAt > builtAt || !fs.existsSync(path.join(root, 'dist', 'server', 'main.js'))) {
  console.log('Building the app...');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
