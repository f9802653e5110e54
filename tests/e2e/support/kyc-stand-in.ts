// The browser tests' Cashfree stand-in (started by e2e-server.ts) checks the PANs of the shared server and of every
// extra app, so a customer can reach KYC level 1 (decision 042) on either.
import fs from 'node:fs';
import { CASHFREE_TEST_CLIENT_ID, CASHFREE_TEST_CLIENT_SECRET } from '../../fixtures/cashfree-stand-in.ts';
import { E2E_KYC_INFO_FILE } from './constants.ts';

export function kycStandInUrl(): string {
  return (JSON.parse(fs.readFileSync(E2E_KYC_INFO_FILE, 'utf8')) as { url: string }).url;
}

export function kycEnvironment(standInUrl: string): Record<string, string> {
  return { KYC_PROVIDER: 'cashfree', KYC_API_URL: standInUrl, KYC_CLIENT_ID: CASHFREE_TEST_CLIENT_ID, KYC_CLIENT_SECRET: CASHFREE_TEST_CLIENT_SECRET };
}

/** Where the same stand-in answers as the IFSC API (decision 067): the shared server and every extra app see the same branches. */
export const IFSC_STAND_IN_PATH = '/ifsc';

export function ifscEnvironment(standInUrl: string): Record<string, string> {
  return { IFSC_API_URL: `${standInUrl}${IFSC_STAND_IN_PATH}` };
}
