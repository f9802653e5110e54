import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { DatabaseFileStorage, legacyFilePath } from './storage.ts';

/**
 * Moves the files an older version kept in DATA_DIR/files into the database,
 * once, on start. Each file is copied inside a transaction that locks its
 * stored_files row, so two servers starting together copy it once; the copy
 * is checked against the recorded SHA-256 before the file on disk is removed.
 */
export async function moveDiskFilesIntoDatabase(db: Database, dataDirectory: string, log: Pick<FastifyBaseLogger, 'info' | 'error'>): Promise<number> {
  const candidates = await db.execute<{ id: string; storage_key: string }>(
    sql`select id, storage_key from stored_files f
         where not exists (select 1 from stored_file_chunks c where c.storage_key = f.storage_key)`,
  );
  let moved = 0;
  for (const { id, storage_key: storageKey } of candidates.rows) {
    const filePath = legacyFilePath(dataDirectory, storageKey);
    if (!fs.existsSync(filePath)) continue;
    try {
      const copied = await db.transaction(async (transaction) => {
        const locked = await transaction.execute<{ sha256: string }>(sql`select sha256 from stored_files where id = ${id} for update`);
        const expected = locked.rows[0]?.sha256;
        if (expected === undefined) return false;
        const already = await transaction.execute(sql`select 1 from stored_file_chunks where storage_key = ${storageKey} limit 1`);
        if (already.rows.length > 0) return false;
        const hash = createHash('sha256');
        async function* hashed(): AsyncGenerator<Buffer> {
          for await (const chunk of fs.createReadStream(filePath)) {
            hash.update(chunk as Buffer);
            yield chunk as Buffer;
          }
        }
        await new DatabaseFileStorage(transaction).put(storageKey, hashed());
        const actual = hash.digest('hex');
        if (actual !== expected) throw new Error(`${filePath} does not match its recorded SHA-256 (${actual} instead of ${expected})`);
        return true;
      });
      if (copied) moved += 1;
      await fs.promises.rm(filePath, { force: true });
    } catch (error) {
      log.error({ err: error, storageKey }, 'Could not move an uploaded file from disk into the database; it stays on disk');
    }
  }
  if (moved > 0) log.info({ moved }, 'Moved uploaded files from disk into the database');
  return moved;
}
