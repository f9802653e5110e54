import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { bestFrameIndex, containsFullAadhaar, normalizeDocumentNumber } from '#shared/contracts/kyc-documents';
import { masterKeyFromDataDirectory, MASTER_KEY_FILE, openImage, parseMasterKey, sealImage } from '../../src/server/features/kyc/documents/encryption.ts';
import { normalizeImage, scaleDown, sniffImageType } from '../../src/server/features/kyc/documents/images.ts';

/* The pure parts of KYC level 2 (decision 050): number formats, the Aadhaar refusal, the image normalisation and the envelope. */

describe('document numbers', () => {
  it('keeps each type’s format, compacted and upper-cased, and a masked Aadhaar’s last 4 digits only', () => {
    expect(normalizeDocumentNumber('passport', 'a1234567')).toEqual({ number: 'A1234567' });
    expect(normalizeDocumentNumber('driving_licence', 'MH12 2011-0012345')).toEqual({ number: 'MH1220110012345' });
    expect(normalizeDocumentNumber('voter_id', 'abc1234567')).toEqual({ number: 'ABC1234567' });
    expect(normalizeDocumentNumber('aadhaar_masked', 'XXXX XXXX 1234')).toEqual({ number: 'XXXX XXXX 1234' });
    expect(normalizeDocumentNumber('aadhaar_masked', '1234')).toEqual({ number: 'XXXX XXXX 1234' });
    expect('error' in normalizeDocumentNumber('passport', 'A12345')).toBe(true);
    expect('error' in normalizeDocumentNumber('voter_id', 'ＡBC1234567')).toBe(true);
  });

  it('finds a full Aadhaar number alone or grouped, and not a licence number or a PIN code', () => {
    for (const text of ['234567890123', '2345 6789 0123', 'no. 2345-6789-0123 here']) expect(containsFullAadhaar(text), text).toBe(true);
    for (const text of ['MH1220110012345', '560038', '1234 5678 9012', 'XXXX XXXX 0123', '12 MG Road']) expect(containsFullAadhaar(text), text).toBe(false);
    expect(normalizeDocumentNumber('aadhaar_masked', '2345 6789 0123')).toEqual({ error: expect.stringContaining('Never enter a full 12-digit Aadhaar') });
  });
});

function rgba(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4, 200);
  for (let index = 3; index < data.length; index += 4) data[index] = 255;
  return data;
}

describe('image normalisation', () => {
  it('tells the type from the bytes, refuses a HEIC it cannot read, and other files', async () => {
    expect(sniffImageType(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(12)]))).toBe('heic');
    expect((await normalizeImage(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypmif1', 'latin1'), Buffer.alloc(10)]))).kind).toBe('unreadable');
    expect((await normalizeImage(Buffer.from('GIF89a......'))).kind).toBe('not-an-image');
  });

  it('re-encodes a PNG as a JPEG and checks the size from the header before decoding', async () => {
    const png = new PNG({ width: 400, height: 400 });
    rgba(400, 400).copy(png.data);
    const result = await normalizeImage(PNG.sync.write(png));
    expect(result).toMatchObject({ kind: 'ok', width: 400, height: 400 });
    if (result.kind === 'ok') expect(jpeg.decode(result.jpeg).width).toBe(400);
    // A header claiming 10,000 x 10,000 pixels is refused without decoding.
    const huge = PNG.sync.write(png);
    huge.writeUInt32BE(10_000, 16);
    huge.writeUInt32BE(10_000, 20);
    expect((await normalizeImage(huge)).kind).toBe('too-many-pixels');
  });

  it('scales the longer side down to the stored size', () => {
    const scaled = scaleDown({ width: 800, height: 200, rgba: new Uint8Array(rgba(800, 200)) }, 400);
    expect([scaled.width, scaled.height]).toEqual([400, 100]);
    expect(scaled.rgba[0]).toBe(200);
  });
});

describe('the envelope', () => {
  it('round-trips under the master key, and generates that key once into the data directory, readable by its owner only', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'kyc-key-'));
    try {
      const first = masterKeyFromDataDirectory(directory);
      const again = masterKeyFromDataDirectory(directory);
      expect(again.id).toBe(first.id);
      expect(fs.statSync(path.join(directory, MASTER_KEY_FILE)).mode & 0o077).toBe(0);
      const binding = { imageId: 'image-1', userId: 'user-1' };
      const sealed = sealImage(first, Buffer.from('the pixels'), binding);
      expect(sealed.content.includes(Buffer.from('the pixels'))).toBe(false);
      expect(openImage(first, sealed, binding).toString()).toBe('the pixels');
      expect(() => openImage(parseMasterKey('a'.repeat(64)), sealed, binding)).toThrow();
      expect(() => openImage(first, { ...sealed, content: Buffer.from(sealed.content.map((byte) => byte ^ 1)) }, binding)).toThrow();
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('the best selfie frame (decision 052)', () => {
  const frame = (faceScore: number, liveScore: number, realScore: number, documentSimilarity: number | null) => ({
    faceScore,
    liveScore,
    realScore,
    documentSimilarity,
  });

  it('ranks by face score, then liveness, then the real score, then the similarity to the document, then the earlier frame', () => {
    expect(bestFrameIndex([frame(0.9, 1, 1, 1), frame(0.95, 0.1, 0.1, null)])).toBe(1);
    expect(bestFrameIndex([frame(0.95, 0.8, 1, 1), frame(0.95, 0.9, 0.1, null), frame(0.95, 0.85, 1, 1)])).toBe(1);
    expect(bestFrameIndex([frame(0.95, 0.9, 0.7, 1), frame(0.95, 0.9, 0.8, null)])).toBe(1);
    expect(bestFrameIndex([frame(0.95, 0.9, 0.8, null), frame(0.95, 0.9, 0.8, 0.2)])).toBe(1);
    expect(bestFrameIndex([frame(0.95, 0.9, 0.8, 0.5), frame(0.95, 0.9, 0.8, 0.5)])).toBe(0);
    expect(bestFrameIndex([frame(0.5, 0.5, 0.5, 0.5)])).toBe(0);
  });
});
