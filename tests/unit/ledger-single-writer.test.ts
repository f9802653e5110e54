import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .ts file under a folder. */
function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [full] : [];
  });
}

const LEDGER_MODULE = path.join('src', 'server', 'platform', 'ledger', 'ledger.ts');
const BALANCE_WRITES = [
  /\.update\(\s*ledgerAccounts\s*\)/,
  /update\s+"?ledger_accounts"?/i,
  /insert\s+into\s+"?ledger_transfers"?/i,
  /\.insert\(\s*ledgerTransfers\s*\)/,
];

describe('the ledger is the only writer of balances', () => {
  it('no code outside ledger.ts updates ledger_accounts or inserts ledger_transfers', () => {
    const offenders = sourceFiles('src')
      .filter((file) => path.normalize(file) !== LEDGER_MODULE)
      .flatMap((file) => {
        const text = fs.readFileSync(file, 'utf8');
        return BALANCE_WRITES.filter((pattern) => pattern.test(text)).map((pattern) => `${file}: ${pattern}`);
      });
    expect(offenders).toEqual([]);
  });

  it('ledger.ts does write them (so the patterns above still match real code)', () => {
    const text = fs.readFileSync(LEDGER_MODULE, 'utf8');
    expect(BALANCE_WRITES.filter((pattern) => pattern.test(text)).length).toBeGreaterThanOrEqual(2);
  });
});
