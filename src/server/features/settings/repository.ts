import { eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { preparedStatement, queryPrepared } from '../../db/prepared.ts';
import { adminSettings, adminSettingsHistory, profiles, storedFiles, users } from '../../db/schema.ts';
import type { SettingsFileColumn, SettingsRow } from './settings-row.ts';
import type { WithdrawalRuleColumns } from './withdrawal-rules.ts';

export type StoredFileRow = typeof storedFiles.$inferSelect;

/** The single settings row (created by the migrations with the spec's defaults). */
export async function getSettings(db: Executor): Promise<SettingsRow> {
  const [row] = await db.select().from(adminSettings).where(eq(adminSettings.id, 1));
  if (!row) throw new Error('admin_settings row is missing: migrations were not applied');
  return row;
}

export interface RatesRow {
  rate_normal_inr_paise: bigint;
  rate_vip_inr_paise: bigint;
  updated_at_iso: string;
}

const ratesStatement = preparedStatement<RatesRow>(
  'settings_rates',
  `select rate_normal_inr_paise, rate_vip_inr_paise, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at_iso
   from admin_settings where id = 1`,
);

/** The rates alone, for the public rates answer that every page asks for: a prepared statement, no query building. */
export async function getRates(db: Database): Promise<RatesRow> {
  const [row] = await queryPrepared(db, ratesStatement, []);
  if (!row) throw new Error('admin_settings row is missing: migrations were not applied');
  return row;
}

/** The settings row, locked until the transaction ends, so that concurrent changes see each other's result as "before". */
export async function getSettingsForUpdate(db: Executor): Promise<SettingsRow> {
  const [row] = await db.select().from(adminSettings).where(eq(adminSettings.id, 1)).for('update');
  if (!row) throw new Error('admin_settings row is missing: migrations were not applied');
  return row;
}

export type EditableSettings = Pick<
  SettingsRow,
  | 'rateNormalInrPaise'
  | 'rateVipInrPaise'
  | 'trc20Address'
  | 'erc20Address'
  | 'whatsappSupportNumber'
  | 'websiteUrl'
  | 'minDepositUsdtMicros'
  | 'largeWithdrawalInrPaise'
  | keyof WithdrawalRuleColumns
>;

export async function updateSettings(
  db: Executor,
  changes: Partial<EditableSettings> & Partial<Record<SettingsFileColumn, string | null>>,
  updatedByUserId: string,
): Promise<SettingsRow> {
  const [row] = await db
    .update(adminSettings)
    // updatedAt is the version that saves are checked against (see updateSettings in
    // service.ts), so every change must give a different one even at millisecond
    // precision (what clients see): now() is the transaction's start, which can be in
    // the same millisecond as the previous change, or even before it when this
    // transaction waited for the row lock.
    .set({
      ...changes,
      updatedByUserId,
      updatedAt: sql`date_trunc('milliseconds', greatest(now(), ${adminSettings.updatedAt} + interval '1 millisecond'))`,
    })
    .where(eq(adminSettings.id, 1))
    .returning();
  if (!row) throw new Error('admin_settings row is missing: migrations were not applied');
  return row;
}

export async function insertSettingsHistory(db: Executor, entry: { changedByUserId: string; before: unknown; after: unknown }): Promise<void> {
  await db.insert(adminSettingsHistory).values(entry);
}

/** The files the settings row refers to, by id. */
export async function findStoredFilesByIds(db: Executor, ids: string[]): Promise<Map<string, StoredFileRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(storedFiles).where(inArray(storedFiles.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

export async function findUserName(db: Executor, userId: string): Promise<{ id: string; name: string; email: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, name: profiles.name, email: users.email })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}
