import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PENDING_CHANGE_KINDS } from '#shared/contracts/enums';
import { PENDING_CHANGE_HANDLERS } from '../../src/server/features/pending-change-handlers.ts';
import { pendingChangeContentSchema, PENDING_CHANGE_KIND_DESCRIPTIONS } from '../../src/server/features/pending-changes/kinds.ts';

/*
 * Changes that wait for a second admin are kinds of the one decision skeleton (docs/decisions/033):
 * every kind is described, typed and handled, and the registry is built outside the features.
 */

const featuresDirectory = path.resolve(import.meta.dirname, '../../src/server/features');

async function sourcesOf(directory: string): Promise<{ file: string; source: string }[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => ({ file: path.relative(featuresDirectory, file), source: await readFile(file, 'utf8') })));
}

function importsOf(source: string): string[] {
  return [...source.matchAll(/^import[^;]*?from '([^']+)';/gms)].map((match) => match[1] ?? '');
}

describe('pending change kinds', () => {
  it('have a description and a handler of their own kind each', () => {
    for (const kind of PENDING_CHANGE_KINDS) {
      expect(PENDING_CHANGE_KIND_DESCRIPTIONS[kind], kind).toBeDefined();
      expect(PENDING_CHANGE_HANDLERS[kind].kind).toBe(kind);
    }
  });

  it('parse a payload as its kind says, and refuse one of another kind', () => {
    const grant = { userId: '6f1c1a9e-0b0e-4d3c-9d5e-2b7b8f3c4a10', from: 'user' };
    expect(pendingChangeContentSchema.parse({ kind: 'admin_role_grant', payload: grant })).toEqual({ kind: 'admin_role_grant', payload: grant });
    expect(pendingChangeContentSchema.safeParse({ kind: 'deposit_address', payload: grant }).success).toBe(false);
    expect(pendingChangeContentSchema.safeParse({ kind: 'large_withdrawal_limit', payload: { fromInrPaise: '100', toInrPaise: '1e9' } }).success).toBe(false);
    expect(pendingChangeContentSchema.safeParse({ kind: 'unknown', payload: {} }).success).toBe(false);
  });

  it('are put together by the app’s wiring: the pending-changes feature imports no other feature, and no feature imports the registry', async () => {
    const sources = await sourcesOf(featuresDirectory);
    const ownImports = sources.filter(({ file }) => file.startsWith(`pending-changes${path.sep}`)).flatMap(({ source }) => importsOf(source));
    expect(ownImports.length).toBeGreaterThan(0);
    expect(ownImports.filter((specifier) => /^\.\.\/(?!\.\.\/)/.test(specifier))).toEqual([]);
    const registryImporters = sources.filter(
      ({ file, source }) => file.includes(path.sep) && importsOf(source).some((specifier) => specifier.endsWith('/pending-change-handlers.ts')),
    );
    expect(registryImporters.map(({ file }) => file)).toEqual([]);
    const wiring = sources.find(({ file }) => file === 'index.ts');
    expect(importsOf(wiring?.source ?? '')).toContain('./pending-change-handlers.ts');
  });
});
