import { createRequire } from 'node:module';

/*
 * The IFSC dataset (decision 044): the `ifsc` package (MIT, published by Razorpay from the RBI's lists,
 * updated about monthly) ships every valid IFSC as JSON, by bank code, and the banks' names. Only its
 * data files are read; its code (which fetches branch details over the network) is never loaded.
 * Updating the dataset is updating the package (`npm install ifsc@<new version> --save-exact`).
 */

const load = createRequire(import.meta.url);

/** Branch codes by bank code: digits-only codes are stored as numbers, others as strings. */
type BranchCodes = Record<string, (number | string)[]>;

interface Dataset {
  branchesByBank: Map<string, Set<string>>;
  bankNames: Record<string, string>;
}

let dataset: Dataset | undefined;

/** Read on first use (about 1 MB), then kept: a lookup is a set membership test. */
function loaded(): Dataset {
  if (dataset === undefined) {
    const codes = load('ifsc/src/IFSC.json') as BranchCodes;
    const branchesByBank = new Map<string, Set<string>>();
    for (const [bank, branches] of Object.entries(codes)) branchesByBank.set(bank, new Set(branches.map(String)));
    dataset = { branchesByBank, bankNames: load('ifsc/src/banknames.json') as Record<string, string> };
  }
  return dataset;
}

export interface IfscEntry {
  ifscCode: string;
  bankName: string;
}

/** The bank of an IFSC in the dataset, or undefined for a code no bank uses. `ifscCode` is already of the IFSC form. The branch: ifsc-branches.ts. */
export function lookUpIfsc(ifscCode: string): IfscEntry | undefined {
  const code = ifscCode.toUpperCase();
  const bank = code.slice(0, 4);
  const branch = code.slice(5);
  const { branchesByBank, bankNames } = loaded();
  const branches = branchesByBank.get(bank);
  // Digits-only branch codes are stored as numbers, so "000123" is looked up as "123".
  const key = /^\d+$/.test(branch) ? String(Number.parseInt(branch, 10)) : branch;
  const bankName = bankNames[bank];
  if (!branches?.has(key) || bankName === undefined) return undefined;
  return { ifscCode: code, bankName };
}
