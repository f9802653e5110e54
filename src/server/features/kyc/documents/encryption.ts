import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Envelope encryption of KYC images (decision 050). Each image is encrypted with AES-256-GCM under a
 * data key of its own; the data key is stored wrapped (AES-256-GCM again) by the master key, which is
 * never in the database: it comes from KYC_ENCRYPTION_KEY, or is generated once into the data
 * directory as the embedded database's password is (a file of mode 0600, never overwritten). A copy
 * of the database or a backup alone therefore cannot show a document.
 */

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const MASTER_KEY_FILE = 'kyc-encryption.key';

export interface MasterKey {
  key: Buffer;
  /** The first 16 hex digits of the key's SHA-256: which key wrapped an image, without revealing it. */
  id: string;
}

export interface SealedImage {
  masterKeyId: string;
  /** IV (12 bytes), tag (16) and the encrypted data key (32): 60 bytes. */
  wrappedKey: Buffer;
  contentIv: Buffer;
  contentTag: Buffer;
  content: Buffer;
}

/** The key is told apart from a wrong one by its id, and a wrong key never decrypts: GCM's tag fails. */
export class WrongMasterKeyError extends Error {}

function masterKeyOf(key: Buffer): MasterKey {
  if (key.length !== KEY_BYTES) throw new Error('The KYC master key must be 32 bytes.');
  return { key, id: createHash('sha256').update(key).digest('hex').slice(0, 16) };
}

/** The configured key (64 hex digits or base64 of 32 bytes), checked by env.ts. */
export function parseMasterKey(text: string): MasterKey {
  return masterKeyOf(Buffer.from(text, /^[0-9a-fA-F]{64}$/.test(text) ? 'hex' : 'base64'));
}

/** The master key in DATA_DIR, generated on first use; two processes starting together read the one that was written first. */
export function masterKeyFromDataDirectory(dataDirectory: string): MasterKey {
  const file = path.join(dataDirectory, MASTER_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDirectory, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return parseMasterKey(fs.readFileSync(file, 'utf8').trim());
}

const masterKeys = new Map<string, MasterKey>();

/** The process's master key: KYC_ENCRYPTION_KEY when set, else the data directory's (read once). */
export function masterKeyFor(config: { kycEncryptionKey: string | undefined; dataDirectory: string }): MasterKey {
  const cacheKey = config.kycEncryptionKey === undefined ? `dir:${config.dataDirectory}` : `env:${config.kycEncryptionKey}`;
  let found = masterKeys.get(cacheKey);
  if (found === undefined) {
    found = config.kycEncryptionKey === undefined ? masterKeyFromDataDirectory(config.dataDirectory) : parseMasterKey(config.kycEncryptionKey);
    masterKeys.set(cacheKey, found);
  }
  return found;
}

function encrypt(key: Buffer, plain: Buffer, associated: Buffer): { iv: Buffer; tag: Buffer; content: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associated);
  const content = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), content };
}

function decrypt(key: Buffer, sealed: { iv: Buffer; tag: Buffer; content: Buffer }, associated: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(associated);
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.content), decipher.final()]);
}

/**
 * Encrypts an image. `imageId` and `userId` are authenticated with it (GCM's associated data), so
 * bytes copied into another row, or another customer's, do not decrypt.
 */
export function sealImage(master: MasterKey, plain: Buffer, binding: { imageId: string; userId: string }): SealedImage {
  const associated = Buffer.from(`${binding.imageId}:${binding.userId}`);
  const dataKey = randomBytes(KEY_BYTES);
  const image = encrypt(dataKey, plain, associated);
  const wrapped = encrypt(master.key, dataKey, associated);
  dataKey.fill(0);
  return {
    masterKeyId: master.id,
    wrappedKey: Buffer.concat([wrapped.iv, wrapped.tag, wrapped.content]),
    contentIv: image.iv,
    contentTag: image.tag,
    content: image.content,
  };
}

/** Decrypts an image; a different master key, or bytes that were changed or moved, throw. */
export function openImage(master: MasterKey, sealed: SealedImage, binding: { imageId: string; userId: string }): Buffer {
  if (sealed.masterKeyId !== master.id) throw new WrongMasterKeyError(`image was wrapped by master key ${sealed.masterKeyId}, this process has ${master.id}`);
  const associated = Buffer.from(`${binding.imageId}:${binding.userId}`);
  const wrapped = {
    iv: sealed.wrappedKey.subarray(0, IV_BYTES),
    tag: sealed.wrappedKey.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
    content: sealed.wrappedKey.subarray(IV_BYTES + TAG_BYTES),
  };
  const dataKey = decrypt(master.key, wrapped, associated);
  try {
    return decrypt(dataKey, { iv: sealed.contentIv, tag: sealed.contentTag, content: sealed.content }, associated);
  } finally {
    dataKey.fill(0);
  }
}
