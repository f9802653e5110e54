import { test } from '@playwright/test';
import { AdminApi } from './admin-api.ts';

/**
 * The e2e server's admin for one spec file, signed in before its first test (with the
 * TRC20 deposit address set, so customers can deposit) and signed out after its last.
 * Call it at the top level of the file; the answer gives the admin once the hooks have run.
 */
export function useFileAdmin(): () => AdminApi {
  let admin: AdminApi | undefined;
  test.beforeAll(async () => {
    admin = await AdminApi.open();
    await admin.ensureTrc20DepositAddress();
  });
  test.afterAll(async () => {
    await admin?.dispose();
  });
  return () => {
    if (!admin) throw new Error('useFileAdmin(): the admin is there only inside tests and hooks');
    return admin;
  };
}
