import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { storedFileChunks } from '../../db/schema.ts';

/**
 * Where uploaded files live. In PostgreSQL today, so that every app server sees
 * every file; an S3-compatible store can take its place by implementing these
 * three calls.
 */
export interface FileStorage {
  /** Stores the bytes under a new key. When the source fails, nothing is left behind. */
  put(key: string, source: AsyncIterable<Uint8Array>): Promise<void>;
  /** The stored bytes, or undefined when the key holds nothing. */
  get(key: string): Promise<Readable | undefined>;
  /** Removes the key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** One row per 256 KiB: a 200 MB APK is 800 short inserts, and a reader holds one chunk at a time. */
export const FILE_CHUNK_BYTES = 256 * 1024;

const STORAGE_KEY_PATTERN = /^[a-z0-9_-]{1,40}\/[A-Za-z0-9_-]{1,80}(\.[a-z0-9]{1,8})?$/;

function checkedKey(key: string): string {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/**
 * Files as rows of stored_file_chunks. Every chunk is its own statement, so a
 * slow upload or download holds a pooled connection only for one chunk at a
 * time, never for the whole file. Readers only ask for keys that a
 * stored_files row names, and that row is written after put() finished.
 */
export class DatabaseFileStorage implements FileStorage {
  constructor(private readonly db: Executor) {}

  async put(key: string, source: AsyncIterable<Uint8Array>): Promise<void> {
    checkedKey(key);
    let chunkIndex = 0;
    const write = async (bytes: Buffer) => {
      await this.db.insert(storedFileChunks).values({ storageKey: key, chunkIndex, bytes });
      chunkIndex += 1;
    };
    // Less than one chunk left over from earlier pieces; full chunks are cut from the pieces without copying them.
    let carry = Buffer.alloc(0);
    try {
      for await (const received of source) {
        const piece = Buffer.from(received.buffer, received.byteOffset, received.byteLength);
        let offset = 0;
        if (carry.length > 0) {
          offset = Math.min(FILE_CHUNK_BYTES - carry.length, piece.length);
          carry = Buffer.concat([carry, piece.subarray(0, offset)]);
          if (carry.length < FILE_CHUNK_BYTES) continue;
          await write(carry);
          carry = Buffer.alloc(0);
        }
        for (; piece.length - offset >= FILE_CHUNK_BYTES; offset += FILE_CHUNK_BYTES) await write(piece.subarray(offset, offset + FILE_CHUNK_BYTES));
        if (offset < piece.length) carry = Buffer.from(piece.subarray(offset));
      }
      if (carry.length > 0) await write(carry);
    } catch (error) {
      await this.delete(key).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    checkedKey(key);
    const first = await this.chunk(key, 0);
    if (!first) return undefined;
    let nextIndex = 1;
    let firstPending: Buffer | undefined = first;
    const readChunk = (chunkIndex: number) => this.chunk(key, chunkIndex);
    return new Readable({
      // One chunk in memory at a time: the next is read only when the client took the last.
      highWaterMark: 1,
      read: function (this: Readable) {
        if (firstPending) {
          this.push(firstPending);
          firstPending = undefined;
          return;
        }
        const index = nextIndex;
        nextIndex += 1;
        readChunk(index).then(
          (bytes) => this.push(bytes ?? null),
          (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(storedFileChunks).where(eq(storedFileChunks.storageKey, checkedKey(key)));
  }

  private async chunk(key: string, chunkIndex: number): Promise<Buffer | undefined> {
    const [row] = await this.db
      .select({ bytes: storedFileChunks.bytes })
      .from(storedFileChunks)
      .where(and(eq(storedFileChunks.storageKey, key), eq(storedFileChunks.chunkIndex, chunkIndex)));
    return row?.bytes;
  }
}

/** The storage of every server: the database. */
export function fileStorageFor(context: AppContext): FileStorage {
  return new DatabaseFileStorage(context.database.db);
}

/** The path of a key in the old on-disk layout, DATA_DIR/files/<key>, from before files moved into the database. */
export function legacyFilePath(dataDirectory: string, key: string): string {
  return path.join(dataDirectory, 'files', checkedKey(key));
}
