import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensureAdmin, GENERATED_ADMIN_EMAIL } from '../../src/server/features/auth/admin-bootstrap.ts';
import { call, signUpUser } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness } = useIntegrationFile({ depositAddresses: false, admin: false });

async function adminEmails(): Promise<string[]> {
  const result = await harness.database.handle.db.execute<{ email: string }>(
    sql`select u.email from users u join profiles p on p.user_id = u.id where p.role = 'admin' order by u.email`,
  );
  return result.rows.map((row) => row.email);
}

describe('admin bootstrap', () => {
  it('generates one admin with a printed-once password when none is configured, and then leaves it alone', async () => {
    const [first, second] = await Promise.all([
      ensureAdmin(harness.database.handle.db, { email: undefined, password: undefined }),
      ensureAdmin(harness.database.handle.db, { email: undefined, password: undefined }),
    ]);
    const created = [first, second].find((result) => result.kind === 'created');
    expect([first.kind, second.kind].sort()).toEqual(['created', 'exists']);
    expect(created).toMatchObject({ email: GENERATED_ADMIN_EMAIL });
    const password = created && 'generatedPassword' in created ? created.generatedPassword : undefined;
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await adminEmails()).toEqual([GENERATED_ADMIN_EMAIL]);

    const login = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: GENERATED_ADMIN_EMAIL, password } });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ role: 'admin', hasPin: false });

    expect(await ensureAdmin(harness.database.handle.db, { email: 'other@example.com', password: 'other-password' })).toEqual({ kind: 'exists' });
  });

  it('promotes the configured account when it already exists and no admin does', async () => {
    await harness.database.handle.db.execute(sql`update profiles set role = 'user'`);
    const user = await signUpUser(harness.app);
    const result = await ensureAdmin(harness.database.handle.db, { email: user.email.toUpperCase(), password: 'ignored-password' });
    expect(result).toEqual({ kind: 'promoted', email: user.email });
    expect(await adminEmails()).toEqual([user.email]);
  });

  it('creates the configured admin with the configured password', async () => {
    await harness.database.handle.db.execute(sql`update profiles set role = 'user'`);
    const result = await ensureAdmin(harness.database.handle.db, { email: 'boss@example.com', password: 'boss-password-1' });
    expect(result).toEqual({ kind: 'created', email: 'boss@example.com' });
    const login = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: 'boss@example.com', password: 'boss-password-1' } });
    expect(login.json().user.role).toBe('admin');
  });
});
