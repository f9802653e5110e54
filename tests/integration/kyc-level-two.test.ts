import { sql } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { KYC_DOCUMENT_MESSAGES, KYC_REVIEW_MESSAGES, type SubmitLevelTwoRequest } from '#shared/contracts/kyc-documents';
import { PENDING_CHANGE_MESSAGES } from '#shared/contracts/pending-changes';
import { openImage, parseMasterKey, masterKeyFor, MASTER_KEY_FILE } from '../../src/server/features/kyc/documents/encryption.ts';
import { normalizeImage } from '../../src/server/features/kyc/documents/images.ts';
import { findImage } from '../../src/server/features/kyc/documents/repository.ts';
import { KYC_IMAGES_PER_DAY } from '../../src/server/features/kyc/documents/service.ts';
import { setRoleAndVipLevel, uploadFile } from '../fixtures/admin.ts';
import { BLUE, expectQuarters, GREEN, phoneTiff, plainJpeg, quartersOf, RED, withExif, YELLOW } from '../fixtures/exif-photos.ts';
import { avifHeader, HEIC_EXIF_MARKER, heicFixture, withZeroedPictureData } from '../fixtures/heic-photos.ts';
import { useIntegrationFile, useTwoAdminApp } from '../fixtures/integration-file.ts';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  expectStatus,
  ledgerTransferCount,
  requestWithdrawal,
  signUpFundedCustomer,
  withKycDailyLimits,
} from '../fixtures/wallet.ts';
import fs from 'node:fs';
import path from 'node:path';

/*
 * KYC level 2 (decision 050): photos stored encrypted and without their metadata, the submission and
 * its refusals, the desk's case, the audited image views and the decisions, with two-person control
 * of the approval on an app of its own.
 */

const { harness, admin } = useIntegrationFile();

const EXIF_MARKER = 'GPS-28.6139N-77.2090E-secret-phone';

/** A photo as a phone sends it: a JPEG with an EXIF segment (position, camera) after its start. */
function phonePhoto(width = 640, height = 480, shade = 90): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    data[index * 4] = (index % width) % 256;
    data[index * 4 + 1] = shade;
    data[index * 4 + 2] = Math.floor(index / width) % 256;
    data[index * 4 + 3] = 255;
  }
  const plain = Buffer.from(jpeg.encode({ data, width, height }, 80).data);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from(EXIF_MARKER, 'latin1')]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([plain.subarray(0, 2), segment, payload, plain.subarray(2)]);
}

function upload(app: TestApp, user: SignedUpUser, purpose: string, bytes: Buffer, liveness?: unknown) {
  if (liveness === undefined)
    return uploadFile(app.app, `/api/kyc/level2/images/${purpose}`, { cookie: user.cookie, bytes, contentType: 'image/jpeg', fileName: 'photo.jpg' });
  const form = new FormData();
  form.append('liveness', JSON.stringify(liveness));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'selfie.jpg');
  return app.app.inject({
    method: 'POST',
    url: `/api/kyc/level2/images/${purpose}`,
    headers: { origin: 'http://localhost:3000', cookie: user.cookie },
    payload: form,
  });
}

const LIVENESS_SCORES = { passedFrames: 12, liveScore: 0.93, realScore: 0.88, faceScore: 0.97, documentSimilarity: 0.71 };

/** The steps the server chose for this customer and its token, as the browser's liveness check sends them back (decision 052). */
async function livenessFor(app: TestApp, user: SignedUpUser): Promise<Record<string, unknown>> {
  const response = await call(app.app, { method: 'POST', url: '/api/kyc/level2/liveness-challenge', cookie: user.cookie });
  expectStatus(response, 200);
  const { challenge, token } = response.json() as { challenge: string[]; token: string };
  return { challenge, challengeToken: token, ...LIVENESS_SCORES };
}

async function imageCount(user: SignedUpUser): Promise<number> {
  const result = await harness.database.handle.db.execute<{ count: number }>(sql`select count(*)::int as count from kyc_images where user_id = ${user.id}`);
  return result.rows[0]?.count ?? 0;
}

async function uploaded(app: TestApp, user: SignedUpUser, purpose: string, liveness?: unknown): Promise<string> {
  const response = await upload(app, user, purpose, phonePhoto(), liveness);
  expectStatus(response, 201);
  return response.json().image.id as string;
}

async function submissionBody(app: TestApp, user: SignedUpUser, overrides: Partial<SubmitLevelTwoRequest> = {}): Promise<SubmitLevelTwoRequest> {
  return {
    documentType: 'driving_licence',
    documentNumber: 'MH12 20110012345',
    nameOnDocument: 'ASHA RAO',
    frontImageId: await uploaded(app, user, 'document_front'),
    backImageId: await uploaded(app, user, 'document_back'),
    selfieImageId: await uploaded(app, user, 'selfie', await livenessFor(app, user)),
    address: { line1: '12 MG Road, Indiranagar', city: 'Bengaluru', state: 'Karnataka', pinCode: '560038' },
    geolocation: { status: 'granted', latitude: 12.97, longitude: 77.64, accuracyMeters: 30 },
    ...overrides,
  };
}

function submit(app: TestApp, user: SignedUpUser, body: unknown) {
  return call(app.app, {
    method: 'POST',
    url: '/api/kyc/level2',
    cookie: user.cookie,
    body,
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Test phone' },
  });
}

async function submitted(app: TestApp, user: SignedUpUser): Promise<string> {
  expectStatus(await submit(app, user, await submissionBody(app, user)), 200);
  const row = await app.database.handle.db.execute<{ id: string }>(sql`select level2_submission_id as id from kyc_records where user_id = ${user.id}`);
  return row.rows[0]?.id as string;
}

async function submissionCount(app: TestApp, userId: string): Promise<number> {
  const result = await app.database.handle.db.execute<{ count: number }>(
    sql`select count(*)::int as count from kyc_level2_submissions where user_id = ${userId}`,
  );
  return result.rows[0]?.count ?? 0;
}

async function viewAudits(app: TestApp, imageId: string): Promise<{ actor: string }[]> {
  const result = await app.database.handle.db.execute<{ actor: string }>(
    sql`select actor_user_id as actor from audit_log where action = 'kyc.document_view' and target_id = ${imageId} order by id`,
  );
  return result.rows;
}

async function kycOf(app: TestApp, user: SignedUpUser) {
  const response = await call(app.app, { url: '/api/kyc', cookie: user.cookie });
  expectStatus(response, 200);
  return response.json();
}

describe('KYC images at rest', () => {
  it('stores a new JPEG without the EXIF, encrypted: the stored bytes are not the image, and a wrong master key cannot read it', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const photo = phonePhoto();
    const response = await upload(harness, customer, 'document_front', photo);
    expectStatus(response, 201);
    expect(response.json()).toMatchObject({ message: KYC_DOCUMENT_MESSAGES.imageSaved, image: { purpose: 'document_front', width: 640, height: 480 } });
    const id = response.json().image.id as string;

    const raw = await harness.database.handle.db.execute<{ content: Buffer; wrapped: Buffer }>(
      sql`select content, wrapped_key as wrapped from kyc_images where id = ${id}`,
    );
    const stored = raw.rows[0]?.content as Buffer;
    expect(stored.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(stored.includes(Buffer.from(EXIF_MARKER, 'latin1'))).toBe(false);
    expect(stored.includes(photo.subarray(200, 232))).toBe(false);

    const image = await findImage(harness.database.handle.db, id);
    if (image === undefined) throw new Error('image not stored');
    const plain = openImage(masterKeyFor(harness.context.config), image.sealed, { imageId: id, userId: customer.id });
    expect(plain.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(plain.includes(Buffer.from('Exif', 'latin1'))).toBe(false);
    expect(plain.includes(Buffer.from(EXIF_MARKER, 'latin1'))).toBe(false);
    expect(jpeg.decode(plain).width).toBe(640);

    const wrongKey = parseMasterKey(Buffer.alloc(32, 7).toString('base64'));
    expect(() => openImage(wrongKey, image.sealed, { imageId: id, userId: customer.id })).toThrow();
    // Even told it is the right key, a wrong key fails GCM's check instead of showing anything.
    expect(() => openImage({ ...wrongKey, id: image.sealed.masterKeyId }, image.sealed, { imageId: id, userId: customer.id })).toThrow();
    // Bytes moved to another customer's row do not decrypt either.
    expect(() => openImage(masterKeyFor(harness.context.config), image.sealed, { imageId: id, userId: admin.id })).toThrow();
    // The generated master key lives in the data directory, readable by its owner only.
    const keyFile = path.join(harness.context.config.dataDirectory, MASTER_KEY_FILE);
    expect(fs.statSync(keyFile).mode & 0o077).toBe(0);
  });

  it('stores a photo taken with the phone turned upright, as its EXIF orientation says', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    // The phone turned a quarter to the left: the sensor's rows are the scene's right side (orientation 6), big-endian EXIF.
    const sideways = withExif(plainJpeg(320, 480, [GREEN, YELLOW, RED, BLUE]), phoneTiff('MM', 6));
    const response = await upload(harness, customer, 'document_front', sideways);
    expectStatus(response, 201);
    expect(response.json().image).toMatchObject({ width: 480, height: 320 });
    const id = response.json().image.id as string;
    const image = await findImage(harness.database.handle.db, id);
    if (image === undefined) throw new Error('image not stored');
    const stored = jpeg.decode(openImage(masterKeyFor(harness.context.config), image.sealed, { imageId: id, userId: customer.id }), { useTArray: true });
    expect([stored.width, stored.height]).toEqual([480, 320]);
    expectQuarters(quartersOf(stored.width, stored.height, stored.data), [RED, GREEN, BLUE, YELLOW]);
  });

  it('refuses an unreadable HEIC, files that are no photo, tiny photos and huge ones with a field message, storing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(200)]);
    const cases: [Buffer, number, string][] = [
      [heic, 400, KYC_DOCUMENT_MESSAGES.photoUnreadable],
      [Buffer.from('not a picture at all'), 400, KYC_DOCUMENT_MESSAGES.notAnImage],
      [phonePhoto(200, 150), 400, KYC_DOCUMENT_MESSAGES.tooSmall],
      [Buffer.alloc(11 * 1024 * 1024, 1), 413, KYC_DOCUMENT_MESSAGES.tooLarge],
    ];
    for (const [bytes, status, message] of cases) {
      const response = await upload(harness, customer, 'document_front', bytes);
      expect(response.statusCode, message).toBe(status);
      expect(response.json().error.fields).toEqual({ file: message });
    }
    const badLiveness = await upload(harness, customer, 'selfie', phonePhoto(), { challenge: [], liveScore: 2 });
    expect(badLiveness.statusCode).toBe(400);
    expect(badLiveness.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.livenessInvalid });
    const count = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from kyc_images where user_id = ${customer.id}`,
    );
    expect(count.rows[0]?.count).toBe(0);
  });

  it('refuses a form that is malformed or cut short with 400 and a field message, not a server error', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const payloads = [
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nabcdef',
      'no boundary anywhere',
    ];
    for (const payload of payloads) {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/api/kyc/level2/images/document_front',
        headers: { origin: 'http://localhost:3000', cookie: customer.cookie, 'content-type': 'multipart/form-data; boundary=XyZ' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.chooseImage });
    }
  });

  it('refuses a photo beyond the day’s allowance with 429, storing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const first = await uploaded(harness, customer, 'document_front');
    // The rest of the day's allowance as copies of the first photo's row, rather than that many decodes.
    await harness.database.handle.db.execute(sql`
      insert into kyc_images (user_id, purpose, width, height, size_bytes, master_key_id, wrapped_key, content_iv, content_tag, content)
      select user_id, purpose, width, height, size_bytes, master_key_id, wrapped_key, content_iv, content_tag, content
      from kyc_images, generate_series(2, ${KYC_IMAGES_PER_DAY}) where id = ${first}`);
    const refused = await upload(harness, customer, 'document_front', phonePhoto());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: KYC_DOCUMENT_MESSAGES.tooManyUploads });
    const count = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from kyc_images where user_id = ${customer.id}`,
    );
    expect(count.rows[0]?.count).toBe(KYC_IMAGES_PER_DAY);
  });
});

/** A photo as an iPhone sends it when the page accepts HEIC: the file as the camera wrote it. */
function uploadHeic(app: TestApp, user: SignedUpUser, purpose: string, bytes: Buffer, liveness?: unknown) {
  const form = new FormData();
  if (liveness !== undefined) form.append('liveness', JSON.stringify(liveness));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/heic' }), 'IMG_0042.HEIC');
  return app.app.inject({
    method: 'POST',
    url: `/api/kyc/level2/images/${purpose}`,
    headers: { origin: 'http://localhost:3000', cookie: user.cookie },
    payload: form,
  });
}

async function storedJpeg(app: TestApp, user: SignedUpUser, id: string): Promise<{ sealed: Buffer; plain: Buffer }> {
  const raw = await app.database.handle.db.execute<{ content: Buffer }>(sql`select content from kyc_images where id = ${id}`);
  const image = await findImage(app.database.handle.db, id);
  if (image === undefined) throw new Error('image not stored');
  return { sealed: raw.rows[0]?.content as Buffer, plain: openImage(masterKeyFor(app.context.config), image.sealed, { imageId: id, userId: user.id }) };
}

describe('HEIC photos (decision 063)', () => {
  it('stores a HEIC document and selfie as new JPEGs, upright, encrypted and without the EXIF, and takes them in a submission', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const turned = heicFixture('turned-quarters.heic');
    const front = await uploadHeic(harness, customer, 'document_front', turned);
    expectStatus(front, 201);
    expect(front.json()).toMatchObject({ message: KYC_DOCUMENT_MESSAGES.imageSaved, image: { purpose: 'document_front', width: 480, height: 320 } });
    const frontId = front.json().image.id as string;
    const { sealed, plain } = await storedJpeg(harness, customer, frontId);
    expect(sealed.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(sealed.includes(Buffer.from(HEIC_EXIF_MARKER, 'latin1'))).toBe(false);
    expect(plain.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(plain.includes(Buffer.from('Exif', 'latin1'))).toBe(false);
    expect(plain.includes(Buffer.from(HEIC_EXIF_MARKER, 'latin1'))).toBe(false);
    const stored = jpeg.decode(plain, { useTArray: true });
    expect([stored.width, stored.height]).toEqual([480, 320]);
    expectQuarters(quartersOf(stored.width, stored.height, stored.data), [RED, GREEN, BLUE, YELLOW]);

    const selfie = await uploadHeic(harness, customer, 'selfie', heicFixture('face.heic'), await livenessFor(harness, customer));
    expectStatus(selfie, 201);
    expect(selfie.json().image).toMatchObject({ purpose: 'selfie', width: 640, height: 480 });
    const selfieId = selfie.json().image.id as string;
    expect(jpeg.decode((await storedJpeg(harness, customer, selfieId)).plain).width).toBe(640);
    expect((await findImage(harness.database.handle.db, selfieId))?.liveness).toMatchObject(LIVENESS_SCORES);

    const body = await submissionBody(harness, customer, { documentType: 'passport', documentNumber: 'A1234567', backImageId: undefined });
    expectStatus(await submit(harness, customer, { ...body, frontImageId: frontId, selfieImageId: selfieId }), 200);
    expect(await kycOf(harness, customer)).toMatchObject({ levelTwo: { status: 'pending_review', documentType: 'passport' } });
  });

  it('refuses a HEIC over the pixel limit, a damaged or cut one and an AVIF with a field message and 4xx, storing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const face = heicFixture('face.heic');
    const cases: [Buffer, number, string][] = [
      [heicFixture('over-24-megapixels.heic'), 413, KYC_DOCUMENT_MESSAGES.tooManyPixels],
      [face.subarray(0, 2000), 400, KYC_DOCUMENT_MESSAGES.photoUnreadable],
      [withZeroedPictureData(face), 400, KYC_DOCUMENT_MESSAGES.photoUnreadable],
      [avifHeader(), 400, KYC_DOCUMENT_MESSAGES.otherFormatRefused],
    ];
    for (const [bytes, status, message] of cases) {
      const response = await uploadHeic(harness, customer, 'document_front', bytes);
      expect(response.statusCode, message).toBe(status);
      expect(response.json().error.fields).toEqual({ file: message });
    }
    const selfie = await uploadHeic(harness, customer, 'selfie', face.subarray(0, 2000), await livenessFor(harness, customer));
    expect(selfie.statusCode).toBe(400);
    expect(selfie.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.photoUnreadable });
    expect(await imageCount(customer)).toBe(0);
  });
});

describe('the live selfie’s challenge', () => {
  it('is chosen by the server, two different steps; the selfie keeps the steps and scores without the token', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const liveness = await livenessFor(harness, customer);
    const challenge = liveness.challenge as string[];
    expect(challenge).toHaveLength(2);
    expect(new Set(challenge).size).toBe(2);
    const id = await uploaded(harness, customer, 'selfie', liveness);
    const stored = await findImage(harness.database.handle.db, id);
    expect(stored?.liveness).toEqual({ challenge, ...LIVENESS_SCORES });
  });

  it('refuses a report that names other steps, another customer’s token or a forged one, storing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const other = await signUpVerifiedUser(harness.app);
    const liveness = await livenessFor(harness, customer);
    const easier = (liveness.challenge as string[]).includes('turn_right') ? ['blink'] : ['turn_right'];
    const forged = `${String(liveness.challengeToken).split('.')[0]}.${Buffer.alloc(32).toString('base64url')}`;
    const refused = [
      { ...liveness, challenge: easier },
      // The customer's own steps under the other customer's token: the steps may even be the same ones.
      { ...liveness, challengeToken: (await livenessFor(harness, other)).challengeToken },
      { ...liveness, challengeToken: forged },
    ];
    for (const report of refused) {
      const response = await upload(harness, customer, 'selfie', phonePhoto(), report);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.livenessChallengeExpired });
    }
    const withoutToken = await upload(harness, customer, 'selfie', phonePhoto(), { ...liveness, challengeToken: undefined });
    expect(withoutToken.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.livenessInvalid });
    const count = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from kyc_images where user_id = ${customer.id}`,
    );
    expect(count.rows[0]?.count).toBe(0);
  });

  it('serves one selfie only: a second upload with the same token is refused like an expired one and stores nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const liveness = await livenessFor(harness, customer);
    await uploaded(harness, customer, 'selfie', liveness);
    const again = await upload(harness, customer, 'selfie', phonePhoto(), liveness);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.livenessChallengeExpired });
    expect(await imageCount(customer)).toBe(1);
    // A new challenge is the way forward.
    await uploaded(harness, customer, 'selfie', await livenessFor(harness, customer));
    expect(await imageCount(customer)).toBe(2);
  });

  it('takes one of two selfies sent at the same moment with one token, whichever commits first', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const liveness = await livenessFor(harness, customer);
    const responses = await Promise.all([
      upload(harness, customer, 'selfie', phonePhoto(640, 480, 40), liveness),
      upload(harness, customer, 'selfie', phonePhoto(640, 480, 200), liveness),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 400]);
    const refused = responses.find((response) => response.statusCode === 400);
    expect(refused?.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.livenessChallengeExpired });
    expect(await imageCount(customer)).toBe(1);
  });

  it('is refused to a visitor who is not signed in', async () => {
    const response = await call(harness.app, { method: 'POST', url: '/api/kyc/level2/liveness-challenge' });
    expect(response.statusCode).toBe(401);
  });
});

/** A selfie upload of several frames: the report first, then one `file` part per frame, in order (decision 052). */
function uploadFrames(user: SignedUpUser, frames: Buffer[], liveness: unknown) {
  const form = new FormData();
  form.append('liveness', JSON.stringify(liveness));
  frames.forEach((frame, index) => form.append('file', new Blob([new Uint8Array(frame)], { type: 'image/jpeg' }), `selfie-${index + 1}.jpg`));
  return harness.app.inject({
    method: 'POST',
    url: '/api/kyc/level2/images/selfie',
    headers: { origin: 'http://localhost:3000', cookie: user.cookie },
    payload: form,
  });
}

describe('the best of several selfie frames', () => {
  // The second frame has the highest face score together with the third; the tie goes to the higher liveness.
  const FRAME_SCORES = [
    { liveScore: 0.99, realScore: 0.99, faceScore: 0.9, documentSimilarity: 0.8 },
    { liveScore: 0.85, realScore: 0.7, faceScore: 0.97, documentSimilarity: 0.6 },
    { liveScore: 0.8, realScore: 0.95, faceScore: 0.97, documentSimilarity: null },
  ];

  it('checks every frame, keeps only the best one encrypted and records every frame’s scores for the reviewer', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const { challenge, challengeToken } = await livenessFor(harness, customer);
    const frames = [phonePhoto(640, 480, 20), phonePhoto(640, 480, 120), phonePhoto(640, 480, 220)];
    const before = await imageCount(customer);
    const response = await uploadFrames(customer, frames, { challenge, challengeToken, passedFrames: 4, frames: FRAME_SCORES });
    expectStatus(response, 201);
    const id = response.json().image.id as string;
    expect(await imageCount(customer)).toBe(before + 1);

    const stored = await findImage(harness.database.handle.db, id);
    expect(stored?.liveness).toEqual({ challenge, passedFrames: 4, ...FRAME_SCORES[1], frames: FRAME_SCORES, keptFrameIndex: 1 });
    const viewed = await call(harness.app, { url: `/api/admin/kyc/images/${id}`, cookie: admin.cookie });
    expectStatus(viewed, 200);
    // The kept bytes are the second frame's re-encoding (jpeg-js encodes the same pixels to the same bytes), not the others'.
    const expected = await Promise.all(frames.map(async (frame) => normalizeImage(frame)));
    const jpegs = expected.map((result) => (result.kind === 'ok' ? result.jpeg : Buffer.alloc(0)));
    expect(viewed.rawPayload.equals(jpegs[1] as Buffer)).toBe(true);
    expect(viewed.rawPayload.equals(jpegs[0] as Buffer)).toBe(false);
    expect(viewed.rawPayload.equals(jpegs[2] as Buffer)).toBe(false);
  });

  it('refuses 4 frames, a report that does not match the frames, scores out of range and a bad frame with 400, storing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const { challenge, challengeToken } = await livenessFor(harness, customer);
    const three = [phonePhoto(640, 480, 20), phonePhoto(640, 480, 120), phonePhoto(640, 480, 220)];
    const report = { challenge, challengeToken, passedFrames: 4, frames: FRAME_SCORES };

    const four = await uploadFrames(customer, [...three, phonePhoto(640, 480, 60)], { ...report, frames: [...FRAME_SCORES, FRAME_SCORES[0]] });
    expect(four.statusCode).toBe(400);
    expect(four.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.tooManyFrames });
    const mismatch = await uploadFrames(customer, three, { ...report, frames: FRAME_SCORES.slice(0, 2) });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.frameCountMismatch });
    const outOfRange = await uploadFrames(customer, three, { ...report, frames: [FRAME_SCORES[0], { ...FRAME_SCORES[1], faceScore: 1.5 }, FRAME_SCORES[2]] });
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.json().error.fields).toEqual({ liveness: KYC_DOCUMENT_MESSAGES.livenessInvalid });
    const badFrame = await uploadFrames(customer, [three[0] as Buffer, Buffer.from('not a photo at all'), three[2] as Buffer], report);
    expect(badFrame.statusCode).toBe(400);
    expect(badFrame.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.notAnImage });
    expect(await imageCount(customer)).toBe(0);
    // Nothing was stored, so the challenge's token is still unspent.
    expectStatus(await uploadFrames(customer, three, report), 201);
  });
});

describe('the level 2 submission', () => {
  it('records the document, the address and the trail; GET /api/kyc answers the state and what is missing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const before = await kycOf(harness, customer);
    expect(before).toMatchObject({ level: 1, nextLevel: 2, levelTwo: { status: 'none' } });
    expect(before.missing.map((item: { check: string }) => item.check)).toEqual(['secondDocument', 'selfie', 'address']);

    const id = await submitted(harness, customer);
    const after = await kycOf(harness, customer);
    expect(after).toMatchObject({
      level: 1,
      levelTwo: { status: 'pending_review', documentType: 'driving_licence' },
      checks: { secondDocument: { state: 'pending' } },
    });
    const row = await harness.database.handle.db.execute(
      sql`select document_number as number, ip_address as ip, user_agent as agent, geolocation_status as geo, latitude from kyc_level2_submissions where id = ${id}`,
    );
    expect(row.rows[0]).toMatchObject({ number: 'MH1220110012345', agent: 'Mozilla/5.0 (Linux; Android 14) Test phone', geo: 'granted', latitude: 12.97 });
    expect(typeof row.rows[0]?.ip).toBe('string');
    expect((await submit(harness, customer, await submissionBody(harness, customer))).json().error.message).toBe(KYC_DOCUMENT_MESSAGES.alreadyPending);
  });

  it('refuses bad input with a field message and records nothing: formats, a full Aadhaar anywhere, a missing back, another customer’s photo', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const other = await signUpVerifiedUser(harness.app);
    const othersPhoto = await uploaded(harness, other, 'document_front');
    const body = await submissionBody(harness, customer);
    const cases: [unknown, string, string][] = [
      [{ ...body, documentType: 'passport', documentNumber: '12345678' }, 'documentNumber', KYC_DOCUMENT_MESSAGES.passportNumber],
      [{ ...body, documentType: 'voter_id', documentNumber: 'AB1234567' }, 'documentNumber', KYC_DOCUMENT_MESSAGES.voterIdNumber],
      [{ ...body, documentNumber: 'MH12 2011' }, 'documentNumber', KYC_DOCUMENT_MESSAGES.drivingLicenceNumber],
      [{ ...body, documentType: 'aadhaar_masked', documentNumber: '2345 6789 0123' }, 'documentNumber', KYC_DOCUMENT_MESSAGES.fullAadhaarRefused],
      [{ ...body, nameOnDocument: 'Asha 234567890123' }, 'nameOnDocument', KYC_DOCUMENT_MESSAGES.fullAadhaarRefused],
      [{ ...body, address: { ...body.address, line2: 'Aadhaar 2345-6789-0123' } }, 'address.line2', KYC_DOCUMENT_MESSAGES.fullAadhaarRefused],
      [{ ...body, address: { ...body.address, pinCode: '056003' } }, 'address.pinCode', KYC_DOCUMENT_MESSAGES.pinCodeInvalid],
      [{ ...body, backImageId: undefined }, 'backImageId', KYC_DOCUMENT_MESSAGES.backNeeded],
      [{ ...body, frontImageId: othersPhoto }, 'frontImageId', KYC_DOCUMENT_MESSAGES.imageUnknown],
      [{ ...body, selfieImageId: body.frontImageId }, 'selfieImageId', KYC_DOCUMENT_MESSAGES.imageUnknown],
    ];
    for (const [input, field, message] of cases) {
      const response = await submit(harness, customer, input);
      expect(response.statusCode, `${field}: ${message}`).toBe(400);
      expect(response.json().error.fields[field], field).toBe(message);
    }
    expect(await submissionCount(harness, customer.id)).toBe(0);
    // A masked Aadhaar keeps its last 4 digits only.
    expectStatus(await submit(harness, customer, { ...body, documentType: 'aadhaar_masked', documentNumber: 'XXXX XXXX 0123' }), 200);
    const kept = await harness.database.handle.db.execute<{ number: string }>(
      sql`select document_number as number from kyc_level2_submissions where user_id = ${customer.id}`,
    );
    expect(kept.rows).toEqual([{ number: 'XXXX XXXX 0123' }]);
  });

  it('is refused below level 1', async () => {
    const customer = await signUpUser(harness.app);
    const response = await call(harness.app, { method: 'POST', url: '/api/kyc/level2', cookie: customer.cookie, body: {} });
    expect([400, 403]).toContain(response.statusCode);
    expect(await submissionCount(harness, customer.id)).toBe(0);
  });
});

describe('the desk', () => {
  it('shows the case with both name verdicts, the trails and the liveness report, and serves images to PIN-verified admins only, auditing each view', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const id = await submitted(harness, customer);
    const list = await call(harness.app, { url: '/api/admin/kyc/level2-reviews?limit=100', cookie: admin.cookie });
    expectStatus(list, 200);
    expect(list.json().items.find((item: { id: string }) => item.id === id)).toMatchObject({ userId: customer.id, nameMatch: { verdict: 'match' } });

    const detail = await call(harness.app, { url: `/api/admin/kyc/level2-reviews/${id}`, cookie: admin.cookie });
    expectStatus(detail, 200);
    const found = detail.json();
    expect(found).toMatchObject({
      documentNumber: 'MH1220110012345',
      nameOnDocument: 'ASHA RAO',
      pan: { status: 'verified' },
      liveness: LIVENESS_SCORES,
      submission: { userAgent: 'Mozilla/5.0 (Linux; Android 14) Test phone', geolocation: { status: 'granted' } },
    });
    expect(found.panNameMatch).not.toBeNull();
    expect(found.images.map((image: { purpose: string }) => image.purpose)).toEqual(['document_front', 'document_back', 'selfie']);
    const imageId = found.images[0].id as string;

    const viewed = await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: admin.cookie });
    expectStatus(viewed, 200);
    expect(viewed.headers['content-type']).toBe('image/jpeg');
    expect(viewed.headers['cache-control']).toBe('no-store');
    expect(viewed.rawPayload.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expectStatus(await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: admin.cookie }), 200);
    expect(await viewAudits(harness, imageId)).toEqual([{ actor: admin.id }, { actor: admin.id }]);

    // An admin whose session has not verified the PIN, the customer themselves and another customer see nothing, and no view is recorded.
    const unverifiedAdmin = await signUpUser(harness.app);
    await setRoleAndVipLevel(harness, unverifiedAdmin.id, { role: 'admin' });
    const noPin = await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: unverifiedAdmin.cookie });
    expect(noPin.statusCode).toBe(403);
    expect(noPin.json().error).toMatchObject({ code: 'PIN_REQUIRED', message: KYC_REVIEW_MESSAGES.pinNeeded });
    // This file's app has a single admin: two-person control is tested on an app of its own below.
    await setRoleAndVipLevel(harness, unverifiedAdmin.id, { role: 'user' });
    const other = await signUpVerifiedUser(harness.app);
    for (const who of [customer, other]) {
      expect((await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: who.cookie })).statusCode).toBe(403);
      expect((await call(harness.app, { url: `/api/admin/kyc/level2-reviews/${id}`, cookie: who.cookie })).statusCode).toBe(403);
    }
    expect(await viewAudits(harness, imageId)).toHaveLength(2);
  });

  it('asks for one item again with a reason the customer sees, who can then send again', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const id = await submitted(harness, customer);
    const noReason = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/level2-reviews/${id}/request-again`,
      cookie: admin.cookie,
      body: { item: 'selfie' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields).toEqual({ reason: KYC_REVIEW_MESSAGES.reasonNeeded });
    const asked = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/level2-reviews/${id}/request-again`,
      cookie: admin.cookie,
      body: { item: 'selfie', reason: 'Your face is not visible in the selfie.' },
    });
    expectStatus(asked, 200);
    const kyc = await kycOf(harness, customer);
    expect(kyc.levelTwo).toMatchObject({ status: 'resubmit_requested', requestedAgain: 'selfie', reason: 'Your face is not visible in the selfie.' });
    expect(kyc.checks.selfie.state).toBe('missing');
    expect((await call(harness.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: admin.cookie })).statusCode).toBe(409);
    expectStatus(await submit(harness, customer, await submissionBody(harness, customer)), 200);
    expect(await submissionCount(harness, customer.id)).toBe(2);
  });

  it('takes a case without the live selfie, which waits for it and cannot be approved', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const body = await submissionBody(harness, customer);
    expectStatus(await submit(harness, customer, { ...body, selfieImageId: undefined }), 200);
    const kyc = await kycOf(harness, customer);
    expect(kyc.checks).toMatchObject({ secondDocument: { state: 'pending' }, selfie: { state: 'missing' }, address: { state: 'pending' } });
    const id = (
      await harness.database.handle.db.execute<{ id: string }>(sql`select level2_submission_id as id from kyc_records where user_id = ${customer.id}`)
    ).rows[0]?.id;
    const refused = await call(harness.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: admin.cookie });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(KYC_REVIEW_MESSAGES.selfieMissing);
    expect((await kycOf(harness, customer)).level).toBe(1);
  });

  it('rejects with the reason the customer sees; approves to level 2, whose limits then apply', async () => {
    const rejected = await signUpVerifiedUser(harness.app);
    const rejectedId = await submitted(harness, rejected);
    expectStatus(
      await call(harness.app, {
        method: 'POST',
        url: `/api/admin/kyc/level2-reviews/${rejectedId}/reject`,
        cookie: admin.cookie,
        body: { reason: 'The licence has expired.' },
      }),
      200,
    );
    expect((await kycOf(harness, rejected)).levelTwo).toMatchObject({ status: 'rejected', reason: 'The licence has expired.' });

    const customer = await signUpVerifiedUser(harness.app);
    const id = await submitted(harness, customer);
    const ownCase = await call(harness.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: customer.cookie });
    expect(ownCase.statusCode).toBe(403);
    const approved = await call(harness.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: admin.cookie });
    expectStatus(approved, 200);
    expect(approved.json()).toMatchObject({ message: KYC_REVIEW_MESSAGES.approved, case: { status: 'approved' }, pendingChangeId: null });
    await withKycDailyLimits(harness, { levelOneInrPaise: 1000000, levelTwoInrPaise: 50000000 }, async () => {
      const kyc = await kycOf(harness, customer);
      expect(kyc).toMatchObject({ level: 2, nextLevel: null, missing: [], levelTwo: { status: 'approved' }, levelLimits: { dailyInr: '500000.00' } });
      expect(kyc.checks.selfie.state).toBe('verified');
      const second = await call(harness.app, {
        method: 'POST',
        url: `/api/admin/kyc/level2-reviews/${id}/reject`,
        cookie: admin.cookie,
        body: { reason: 'x' },
      });
      expect(second.statusCode).toBe(409);
    });
  });
});

describe('level 2 limits', () => {
  it('apply to withdrawals once level 2 is approved, instead of level 1’s; beyond them nothing moves', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    const id = await submitted(harness, customer);
    await withKycDailyLimits(harness, { levelOneInrPaise: 100000, levelTwoInrPaise: 500000 }, async () => {
      // 20 USDT at the default rate of 83.00 is 1,660 INR: beyond level 1's 1,000 a day.
      const atLevelOne = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
      expect(atLevelOne.statusCode).toBe(400);
      expect(atLevelOne.json().error.code).toBe('WITHDRAWAL_LIMIT');
      expectStatus(await call(harness.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: admin.cookie }), 200);
      expectStatus(await requestWithdrawal(harness, customer, { amount: '50', bankAccountId }), 201);
      const before = await ledgerTransferCount(harness);
      const refused = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: 'WITHDRAWAL_LIMIT',
        message: 'Your KYC level allows ₹5,000.00 of withdrawals a day: ₹850.00 left today.',
      });
      expect(await ledgerTransferCount(harness)).toBe(before);
      expect(await balanceMicros(harness, customer.id)).toBe(50_000_000n);
    });
  });
});

describe('approving level 2 while two admins exist', () => {
  const { harness: twoAdmins, first, second } = useTwoAdminApp();

  it('waits for a second admin, who confirms it; the requester cannot', async () => {
    const customer = await signUpVerifiedUser(twoAdmins.app);
    const id = await submitted(twoAdmins, customer);
    const asked = await call(twoAdmins.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: first.cookie });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ message: KYC_REVIEW_MESSAGES.approvalWaiting });
    const changeId = asked.json().pendingChangeId as string;
    expect((await kycOf(twoAdmins, customer)).level).toBe(1);
    const again = await call(twoAdmins.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: second.cookie });
    expect(again.json().error.message).toBe(KYC_REVIEW_MESSAGES.approvalAlreadyWaiting);

    const own = await call(twoAdmins.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: first.cookie });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(PENDING_CHANGE_MESSAGES.ownChange);
    expectStatus(await call(twoAdmins.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie }), 200);
    expect((await kycOf(twoAdmins, customer)).level).toBe(2);
    const audit = await twoAdmins.database.handle.db.execute<{ actor: string }>(
      sql`select actor_user_id as actor from audit_log where target_user_id = ${customer.id} and action = 'kyc.level2_approve'`,
    );
    expect(audit.rows).toEqual([{ actor: second.id }]);
  });

  it('goes stale when the case is rejected meanwhile', async () => {
    const customer = await signUpVerifiedUser(twoAdmins.app);
    const id = await submitted(twoAdmins, customer);
    const asked = await call(twoAdmins.app, { method: 'POST', url: `/api/admin/kyc/level2-reviews/${id}/approve`, cookie: first.cookie });
    expect(asked.statusCode).toBe(202);
    expectStatus(
      await call(twoAdmins.app, {
        method: 'POST',
        url: `/api/admin/kyc/level2-reviews/${id}/reject`,
        cookie: second.cookie,
        body: { reason: 'Blurred photo.' },
      }),
      200,
    );
    const confirm = await call(twoAdmins.app, {
      method: 'POST',
      url: `/api/admin/pending-changes/${asked.json().pendingChangeId}/confirm`,
      cookie: second.cookie,
    });
    expect(confirm.statusCode).toBe(409);
    expect((await kycOf(twoAdmins, customer)).level).toBe(1);
  });
});
