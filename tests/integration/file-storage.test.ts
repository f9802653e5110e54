import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveDiskFilesIntoDatabase } from '../../src/server/features/files/move-disk-files.ts';
import { DatabaseFileStorage, FILE_CHUNK_BYTES, legacyFilePath } from '../../src/server/features/files/storage.ts';
import { KNOWN_TRON_ADDRESS } from '../fixtures/addresses.ts';
import { signUpAdminWithVerifiedPin, storedFileKeys, uploadFile } from '../fixtures/admin.ts';
import { PNG } from 'pngjs';
import { qrPng } from '../fixtures/qr-images.ts';
import { createTestApp, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';

let first: TestApp;
let second: TestApp;
let admin: SignedUpUser;

beforeAll(async () => {
  first = await createTestApp();
  // A second app process on the same database: it shares nothing with the first but PostgreSQL.
  second = await createTestApp({ database: first.database });
  second.context.config.dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-second-server-'));
  admin = await signUpAdminWithVerifiedPin(first);
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  if (second) fs.rmSync(second.context.config.dataDirectory, { recursive: true, force: true });
});

function apkBytes(totalBytes: number): Buffer {
  const bytes = randomBytes(totalBytes);
  Buffer.from([0x50, 0x4b, 0x03, 0x04]).copy(bytes);
  return bytes;
}

describe('uploaded files on several servers', () => {
  it('serves a file uploaded through one app instance from a second instance on the same database', async () => {
    const bytes = apkBytes(3 * FILE_CHUNK_BYTES + 1_234);
    const upload = await uploadFile(first.app, '/api/admin/files/apk', {
      cookie: admin.cookie,
      bytes,
      contentType: 'application/octet-stream',
      fileName: 'app.apk',
    });
    expect(upload.statusCode).toBe(201);
    const download = await second.app.inject({ method: 'GET', url: '/api/files/apk' });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe(String(bytes.length));
    expect(download.rawPayload.equals(bytes)).toBe(true);

    // Stored as bounded chunks, never as one value.
    const key = upload.json().file.id as string;
    const chunks = await first.database.handle.db.execute<{ count: number; largest: number }>(
      sql`select count(*)::int as count, max(octet_length(c.bytes))::int as largest
            from stored_file_chunks c join stored_files f on f.storage_key = c.storage_key where f.id = ${key}`,
    );
    expect(chunks.rows[0]).toEqual({ count: 4, largest: FILE_CHUNK_BYTES });

    await first.database.handle.db.execute(sql`update admin_settings set trc20_address = ${KNOWN_TRON_ADDRESS} where id = 1`);
    const image = await qrPng(KNOWN_TRON_ADDRESS);
    expect((await uploadFile(second.app, '/api/admin/files/qr/TRC20', { cookie: admin.cookie, bytes: image })).statusCode).toBe(201);
    const qr = await first.app.inject({ method: 'GET', url: '/api/files/qr/TRC20' });
    expect(qr.statusCode).toBe(200);
    // The upload keeps a new PNG of the pixels read (decision 037).
    expect(PNG.sync.read(qr.rawPayload).data.equals(PNG.sync.read(image).data)).toBe(true);
  });

  it('leaves nothing behind when the upload fails half-way', async () => {
    const storage = new DatabaseFileStorage(first.database.handle.db);
    const before = await storedFileKeys(first);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield randomBytes(FILE_CHUNK_BYTES + 10);
      throw new Error('the client went away');
    }
    await expect(storage.put(`apk/${randomUUID()}`, failing())).rejects.toThrow('the client went away');
    expect(await storedFileKeys(first)).toEqual(before);
    expect(await storage.get(`apk/${randomUUID()}`)).toBeUndefined();
  });

  it('moves files an older version kept on disk into the database on start, checking each against its SHA-256', async () => {
    const { db } = first.database.handle;
    const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-disk-files-'));
    try {
      const good = apkBytes(FILE_CHUNK_BYTES + 77);
      const goodKey = `apk/${randomUUID()}`;
      const damagedKey = `qr_erc20/${randomUUID()}`;
      for (const [key, bytes] of [
        [goodKey, good],
        [damagedKey, Buffer.from('not what was recorded')],
      ] as const) {
        fs.mkdirSync(path.dirname(legacyFilePath(dataDirectory, key)), { recursive: true });
        fs.writeFileSync(legacyFilePath(dataDirectory, key), bytes);
      }
      const sha256 = createHash('sha256').update(good).digest('hex');
      const inserted = await db.execute<{ id: string }>(
        sql`insert into stored_files (purpose, original_name, content_type, size_bytes, sha256, storage_key)
            values ('apk', 'old.apk', 'application/vnd.android.package-archive', ${good.length}, ${sha256}, ${goodKey}),
                   ('qr_erc20', 'old.png', 'image/png', 21, ${'0'.repeat(64)}, ${damagedKey})
            returning id`,
      );
      const apkId = inserted.rows[0]?.id;
      await db.execute(sql`update admin_settings set apk_file_id = ${apkId} where id = 1`);

      expect(await moveDiskFilesIntoDatabase(db, dataDirectory, pino({ level: 'silent' }))).toBe(1);
      expect(fs.existsSync(legacyFilePath(dataDirectory, goodKey))).toBe(false);
      // A file that does not match its record is not taken in, and stays on disk for someone to look at.
      expect(fs.existsSync(legacyFilePath(dataDirectory, damagedKey))).toBe(true);
      expect(await storedFileKeys(first)).not.toContain(damagedKey);

      const download = await second.app.inject({ method: 'GET', url: '/api/files/apk' });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(good)).toBe(true);
      // Running again (the next start, or a second server) moves nothing twice.
      expect(await moveDiskFilesIntoDatabase(db, dataDirectory, pino({ level: 'silent' }))).toBe(0);
    } finally {
      fs.rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});
