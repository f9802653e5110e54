// Builds the web app and the server into one folder: <dir>/web, <dir>/server (with its SQL migrations), <dir>/shared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const outputDirectory = path.resolve(process.argv[2] ?? 'dist');
const steps = [
  ['npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', path.join(outputDirectory, 'web')]],
  ['npx', ['tsc', '-p', 'tsconfig.server.json', '--outDir', outputDirectory]],
];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
fs.cpSync('src/server/db/migrations', path.join(outputDirectory, 'server', 'db', 'migrations'), { recursive: true });
console.log(`Built into ${outputDirectory}`);
