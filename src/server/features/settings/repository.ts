import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { adminSettings } from '../../db/schema.ts';

export type SettingsRow = typeof adminSettings.$inferSelect;

/** The single settings row (created by the migrations with the spec's defaults). */
export async function getSettings(db: Executor): Promise<SettingsRow> {
  const [row] = await db.select().from(adminSettings).where(eq(adminSettings.id, 1));
  if (!row) throw new Error('admin_settings row is missing: migrations were not applied');
  return row;
}
