import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The README promises that the app runs on the Node.js version package.json names and that `npm ci` prints no
// engine warning there: every installed package's declared Node range must accept that version.
const packageJson = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lockfile = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { engines?: unknown }>;
};

describe('the Node.js version the README names', () => {
  it('is accepted by every package in the lockfile', () => {
    const oldestSupported = semver.minVersion(packageJson.engines.node);
    expect(oldestSupported?.version).toBe('20.19.0');
    const refusing = Object.entries(lockfile.packages)
      .map(([name, entry]) => {
        const engines = entry.engines as { node?: unknown } | undefined;
        return { name, range: typeof engines?.node === 'string' ? engines.node : undefined };
      })
      .filter(({ range }) => range !== undefined && !semver.satisfies(oldestSupported?.version ?? '', range, { includePrerelease: true }))
      .map(({ name, range }) => `${name} wants node ${range}`);
    expect(refusing).toEqual([]);
  });
});
