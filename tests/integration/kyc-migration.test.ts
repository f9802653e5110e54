import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { withDatabaseName } from '../../src/server/db/embedded.ts';
import { migrationsFolder, runMigrations } from '../../src/server/db/migrate.ts';

/*
 * Migration 0032 on a database that already has customers: it must not fail on PANs that several accounts
 * share (they are kept and listed for admins), and a stored PAN waits for review, never verified.
 */

const KYC_MIGRATION = '0032_kyc_levels';
const serverUrl = inject('databaseServerUrl');
const name = `rupeedesk_kyc_migration_${randomBytes(6).toString('hex')}`;
const before = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-migrations-before-kyc-'));
let handle: DatabaseHandle | undefined;

afterAll(async () => {
  await handle?.close();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  fs.rmSync(before, { recursive: true, force: true });
});

/** The committed migrations up to the one before 0032, as their own folder. */
function migrationsBeforeKyc(): string {
  const source = migrationsFolder();
  const journal = JSON.parse(fs.readFileSync(path.join(source, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === KYC_MIGRATION);
  const kept = journal.entries.slice(0, index);
  fs.mkdirSync(path.join(before, 'meta'), { recursive: true });
  fs.writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const entry of kept) fs.copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));
  return before;
}

async function insertCustomer(db: DatabaseHandle['db'], index: number, pan: string | null, role = 'user'): Promise<string> {
  const result = await db.execute<{ id: string }>(sql`insert into users (email, password_hash, created_at)
    values (${`old-${index}@example.com`}, 'x', now() - make_interval(days => ${100 - index})) returning id`);
  const id = result.rows[0]?.id as string;
  await db.execute(sql`insert into profiles (user_id, name, phone, role, referral_code, pan, created_at)
    values (${id}, 'Old Customer', '+919876543210', ${role}, ${`OLDCU${String(index).padStart(5, '0')}`}, ${pan}, now() - make_interval(days => ${100 - index}))`);
  return id;
}

it('keeps PANs several accounts share, lists them for admins, puts stored PANs at pending review and tells customers', async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  handle = connectDatabase(withDatabaseName(serverUrl, name), { maxConnections: 2 });
  const { db } = handle;
  await migrate(db, { migrationsFolder: migrationsBeforeKyc() });

  const oldest = await insertCustomer(db, 1, 'ABCDE1234F');
  const second = await insertCustomer(db, 2, 'ABCDE1234F');
  const third = await insertCustomer(db, 3, 'ABCDE1234F');
  const withoutPan = await insertCustomer(db, 4, null);
  const operator = await insertCustomer(db, 5, null, 'admin');

  await runMigrations(db);

  const pans = await db.execute<{ userId: string; pan: string | null; shared: boolean; status: string | null }>(sql`select p.user_id as "userId", p.pan,
      p.pan_shared_before_kyc as shared, k.pan_status as status
    from profiles p left join kyc_records k on k.user_id = p.user_id order by p.created_at`);
  expect(pans.rows).toEqual([
    { userId: oldest, pan: 'ABCDE1234F', shared: false, status: 'pending_review' },
    { userId: second, pan: 'ABCDE1234F', shared: true, status: 'pending_review' },
    { userId: third, pan: 'ABCDE1234F', shared: true, status: 'pending_review' },
    { userId: withoutPan, pan: null, shared: false, status: null },
    { userId: operator, pan: null, shared: false, status: null },
  ]);
  const conflicts = await db.execute<{ userId: string; existingUserId: string; source: string }>(
    sql`select user_id as "userId", existing_user_id as "existingUserId", source from pan_conflicts order by user_id = ${second} desc`,
  );
  expect(conflicts.rows).toEqual([
    { userId: second, existingUserId: oldest, source: 'migration' },
    { userId: third, existingUserId: oldest, source: 'migration' },
  ]);
  const told = await db.execute<{ userId: string }>(sql`select user_id as "userId" from notifications where kind = 'kyc_required'`);
  expect(told.rows.map((row) => row.userId).sort()).toEqual([oldest, second, third, withoutPan].sort());
  // From now on one PAN per account: a fourth account cannot take it.
  const fourth = await insertCustomer(db, 6, null);
  await expect(db.execute(sql`update profiles set pan = 'ABCDE1234F' where user_id = ${fourth}`)).rejects.toThrow();
});
