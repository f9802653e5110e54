import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { storedFiles } from '../../db/schema.ts';
import type { FilePurpose } from '#shared/contracts/settings';

export type StoredFileRow = typeof storedFiles.$inferSelect;

export async function insertStoredFile(
  db: Executor,
  values: {
    purpose: FilePurpose;
    originalName: string;
    contentType: string;
    sizeBytes: number;
    sha256: string;
    storageKey: string;
    uploadedByUserId: string;
    qrContent: string | null;
  },
): Promise<StoredFileRow> {
  const [row] = await db.insert(storedFiles).values(values).returning();
  if (!row) throw new Error('insert into stored_files returned no row');
  return row;
}

export async function findStoredFile(db: Executor, id: string): Promise<StoredFileRow | undefined> {
  const [row] = await db.select().from(storedFiles).where(eq(storedFiles.id, id));
  return row;
}

/** Deletes every file of `purpose` but the ones named, and answers them (their chunks are the caller's to delete). */
export async function deleteFilesOfPurposeExcept(db: Executor, purpose: FilePurpose, keptIds: string[]): Promise<StoredFileRow[]> {
  return db
    .delete(storedFiles)
    .where(and(eq(storedFiles.purpose, purpose), notInArray(storedFiles.id, keptIds)))
    .returning();
}

/**
 * Removes the chunks of uploads that never got their stored_files row (the
 * server stopped half-way). An hour is far longer than any upload may take.
 */
export async function pruneAbandonedFileChunks(db: Executor): Promise<number> {
  const result = await db.execute(
    sql`delete from stored_file_chunks c
         where c.created_at < now() - interval '1 hour'
           and not exists (select 1 from stored_files f where f.storage_key = c.storage_key)`,
  );
  return result.rowCount ?? 0;
}
