import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import * as users from '../users/service.ts';
import { createAccount } from './accounts.ts';

export const GENERATED_ADMIN_EMAIL = 'admin@rupeedesk.local';
const ADMIN_PHONE = '+910000000000';

export type BootstrapResult = { kind: 'exists' } | { kind: 'created' | 'promoted'; email: string; generatedPassword?: string };

/**
 * Makes sure there is at least one admin. Uses ADMIN_EMAIL/ADMIN_PASSWORD when
 * given (promoting that account if it already exists), otherwise creates one
 * with a generated password that the caller prints once.
 */
export async function ensureAdmin(db: Database, configured: { email: string | undefined; password: string | undefined }): Promise<BootstrapResult> {
  return db.transaction(async (transaction) => {
    // One process at a time decides, so two servers starting together create one admin.
    await transaction.execute(sql`select pg_advisory_xact_lock(hashtext('admin-bootstrap'))`);
    if (await users.adminExists(transaction)) return { kind: 'exists' };
    const email = configured.email ?? GENERATED_ADMIN_EMAIL;
    const existing = await users.findCredentialsByEmail(transaction, email);
    if (existing) {
      await users.setRole(transaction, existing.id, 'admin');
      return { kind: 'promoted', email: existing.email };
    }
    const generatedPassword = configured.password === undefined ? randomBytes(12).toString('base64url') : undefined;
    await createAccount(transaction, {
      email,
      password: configured.password ?? (generatedPassword as string),
      name: 'Administrator',
      phone: ADMIN_PHONE,
      pin: undefined,
      role: 'admin',
      referredByUserId: undefined,
    });
    return generatedPassword === undefined ? { kind: 'created', email } : { kind: 'created', email, generatedPassword };
  });
}
