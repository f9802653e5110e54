import { sql } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { KYC_MISSING_TEXTS, PAN_MESSAGES } from '#shared/contracts/kyc';
import { KYC_DOCUMENT_MESSAGES, KYC_REVIEW_MESSAGES } from '#shared/contracts/kyc-documents';
import { masterKeyFor, openImage } from '../../src/server/features/kyc/documents/encryption.ts';
import { findImage } from '../../src/server/features/kyc/documents/repository.ts';
import { uniquePersonPan } from '../fixtures/cashfree-stand-in.ts';
import { setRoleAndVipLevel, uploadFile } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpUser, signUpPinVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { expectStatus } from '../fixtures/wallet.ts';

/*
 * The photo of the PAN card (decision 066): with no KYC provider an admin verifies the PAN from the card, so the
 * customer adds its photo through level 2's image pipeline (re-encoded, EXIF gone, encrypted), the desk sees it
 * with a verified PIN only and every view audited, and approving without it is refused.
 */

const { harness, admin } = useIntegrationFile({ app: { kycProvider: 'none' } });

const EXIF_MARKER = 'GPS-19.0760N-72.8777E-pan-card-phone';

/** A phone's photo of a card: a JPEG with an EXIF segment after its start. */
function cardPhoto(width = 640, height = 400): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    data[index * 4] = 200;
    data[index * 4 + 1] = (index % width) % 256;
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

function uploadCard(user: SignedUpUser, bytes: Buffer, contentType = 'image/jpeg') {
  return uploadFile(harness.app, '/api/kyc/pan/card-image', { cookie: user.cookie, bytes, contentType, fileName: 'pan-card.jpg' });
}

async function customerWithPendingPan(): Promise<SignedUpUser> {
  const customer = await signUpPinVerifiedUser(harness.app);
  expectStatus(await call(harness.app, { method: 'POST', url: '/api/kyc/pan', cookie: customer.cookie, body: { pan: uniquePersonPan() } }), 200);
  return customer;
}

async function kycOf(user: SignedUpUser) {
  const response = await call(harness.app, { url: '/api/kyc', cookie: user.cookie });
  expectStatus(response, 200);
  return response.json();
}

async function reviewOf(userId: string) {
  const list = await call(harness.app, { url: '/api/admin/kyc/pan-reviews?limit=100', cookie: admin.cookie });
  expectStatus(list, 200);
  return list.json().items.find((item: { userId: string }) => item.userId === userId);
}

function approve(userId: string) {
  return call(harness.app, { method: 'POST', url: `/api/admin/kyc/pan-reviews/${userId}/approve`, cookie: admin.cookie, body: { registeredName: 'ASHA RAO' } });
}

async function cardState(userId: string): Promise<{ imageId: string | null; status: string; images: number }> {
  const result = await harness.database.handle.db.execute<{ imageId: string | null; status: string; images: number }>(
    sql`select k.pan_card_image_id as "imageId", k.pan_status as status, (select count(*)::int from kyc_images i where i.user_id = k.user_id) as images
      from kyc_records k where k.user_id = ${userId}`,
  );
  return result.rows[0] ?? { imageId: null, status: 'none', images: 0 };
}

async function viewAudits(imageId: string): Promise<{ actor: string }[]> {
  const result = await harness.database.handle.db.execute<{ actor: string }>(
    sql`select actor_user_id as actor from audit_log where action = 'kyc.document_view' and target_id = ${imageId} order by id`,
  );
  return result.rows;
}

describe('the PAN card photo when no provider is configured', () => {
  it('tells the customer it is missing, refuses the approval without it, then stores it encrypted for the admin', async () => {
    const customer = await customerWithPendingPan();
    const before = await kycOf(customer);
    expect(before.checks.pan).toMatchObject({ state: 'pending', cardImage: 'needed', cardRequestReason: null });
    expect(before.missing).toContainEqual({ check: 'panCard', message: KYC_MISSING_TEXTS.panCard });
    const checks = before.missing.map((item: { check: string }) => item.check);
    expect(checks.indexOf('panCard')).toBe(checks.indexOf('pan') + 1);
    expect(await reviewOf(customer.id)).toMatchObject({ cardImageId: null, cardImageNeeded: true });

    const refused = await approve(customer.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(PAN_MESSAGES.reviewCardNeeded);
    expect((await cardState(customer.id)).status).toBe('pending_review');

    const photo = cardPhoto();
    const uploaded = await uploadCard(customer, photo);
    expectStatus(uploaded, 200);
    expect(uploaded.json()).toMatchObject({ message: PAN_MESSAGES.cardSaved, kyc: { checks: { pan: { state: 'pending', cardImage: 'received' } } } });
    expect(uploaded.json().kyc.missing.map((item: { check: string }) => item.check)).not.toContain('panCard');

    const { imageId } = await cardState(customer.id);
    if (imageId === null) throw new Error('the card photo was not linked');
    const raw = await harness.database.handle.db.execute<{ content: Buffer; purpose: string }>(
      sql`select content, purpose from kyc_images where id = ${imageId}`,
    );
    const stored = raw.rows[0]?.content as Buffer;
    expect(raw.rows[0]?.purpose).toBe('pan_card');
    expect(stored.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(stored.includes(Buffer.from(EXIF_MARKER, 'latin1'))).toBe(false);
    expect(stored.includes(photo.subarray(200, 232))).toBe(false);
    const image = await findImage(harness.database.handle.db, imageId);
    if (image === undefined) throw new Error('image not stored');
    const plain = openImage(masterKeyFor(harness.context.config), image.sealed, { imageId, userId: customer.id });
    expect(plain.includes(Buffer.from(EXIF_MARKER, 'latin1'))).toBe(false);
    expect(jpeg.decode(plain).width).toBe(640);

    expect(await reviewOf(customer.id)).toMatchObject({ cardImageId: imageId, cardImageNeeded: false });
    const viewed = await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: admin.cookie });
    expectStatus(viewed, 200);
    expect(viewed.headers['content-type']).toBe('image/jpeg');
    expect(viewed.headers['cache-control']).toBe('no-store');
    expect(viewed.rawPayload.equals(plain)).toBe(true);
    expect(await viewAudits(imageId)).toEqual([{ actor: admin.id }]);

    // An admin whose session has not verified the PIN, the customer and another customer see nothing, and no view is recorded.
    const unverifiedAdmin = await signUpUser(harness.app);
    await setRoleAndVipLevel(harness, unverifiedAdmin.id, { role: 'admin' });
    const noPin = await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: unverifiedAdmin.cookie });
    expect(noPin.statusCode).toBe(403);
    expect(noPin.json().error).toMatchObject({ code: 'PIN_REQUIRED', message: KYC_REVIEW_MESSAGES.pinNeeded });
    await setRoleAndVipLevel(harness, unverifiedAdmin.id, { role: 'user' });
    const other = await signUpPinVerifiedUser(harness.app);
    for (const who of [customer, other])
      expect((await call(harness.app, { url: `/api/admin/kyc/images/${imageId}`, cookie: who.cookie })).statusCode).toBe(403);
    expect(await viewAudits(imageId)).toHaveLength(1);

    const upload = await harness.database.handle.db.execute<{ actor: string; target: string }>(
      sql`select actor_user_id as actor, target_id as target from audit_log where action = 'kyc.pan_card_upload' and target_user_id = ${customer.id}`,
    );
    expect(upload.rows).toEqual([{ actor: customer.id, target: imageId }]);
    expectStatus(await approve(customer.id), 200);
    expect((await kycOf(customer)).checks.pan).toMatchObject({ state: 'verified', cardImage: 'not_needed' });
  });

  it('refuses bad files and a PAN that does not wait with a message at the field, and changes nothing', async () => {
    const customer = await customerWithPendingPan();
    const notAnImage = await uploadCard(customer, Buffer.from('this is not a photo of a PAN card'), 'text/plain');
    expect(notAnImage.statusCode).toBe(400);
    expect(notAnImage.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.notAnImage });
    const tooSmall = await uploadCard(customer, cardPhoto(200, 120));
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.tooSmall });
    const noFile = await call(harness.app, { method: 'POST', url: '/api/kyc/pan/card-image', cookie: customer.cookie, body: {} });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.fields).toEqual({ file: KYC_DOCUMENT_MESSAGES.chooseImage });
    expect(await cardState(customer.id)).toEqual({ imageId: null, status: 'pending_review', images: 0 });
    expect((await kycOf(customer)).checks.pan.cardImage).toBe('needed');

    // A customer without a PAN waiting has no card to send; nobody can send one for another account (the session decides whose it is).
    const withoutPan = await signUpPinVerifiedUser(harness.app);
    const early = await uploadCard(withoutPan, cardPhoto());
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(PAN_MESSAGES.cardNotWaiting);
    const images = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from kyc_images where user_id = ${withoutPan.id}`,
    );
    expect(images.rows[0]?.count).toBe(0);
    expect((await call(harness.app, { method: 'POST', url: '/api/kyc/pan/card-image', body: {} })).statusCode).toBe(401);
    expect((await cardState(customer.id)).imageId).toBeNull();
  });

  it('lets the desk ask for the card again with a reason the customer sees; approving waits for the new photo', async () => {
    const customer = await customerWithPendingPan();
    expectStatus(await uploadCard(customer, cardPhoto()), 200);
    const first = (await cardState(customer.id)).imageId;
    const noReason = await call(harness.app, { method: 'POST', url: `/api/admin/kyc/pan-reviews/${customer.id}/request-card`, cookie: admin.cookie, body: {} });
    expect(noReason.statusCode).toBe(400);
    expect((await cardState(customer.id)).imageId).toBe(first);
    const byCustomer = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/request-card`,
      cookie: customer.cookie,
      body: { reason: 'x' },
    });
    expect(byCustomer.statusCode).toBe(403);

    const asked = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/request-card`,
      cookie: admin.cookie,
      body: { reason: 'The card is blurred: the name cannot be read.' },
    });
    expectStatus(asked, 200);
    expect(asked.json()).toMatchObject({ message: PAN_MESSAGES.cardRequested, review: { cardImageId: null, cardImageNeeded: true } });
    expect((await kycOf(customer)).checks.pan).toMatchObject({ cardImage: 'needed', cardRequestReason: 'The card is blurred: the name cannot be read.' });
    const told = await harness.database.handle.db.execute<{ title: string }>(sql`select title from notifications where user_id = ${customer.id}`);
    expect(told.rows).toEqual([{ title: 'Add a photo of your PAN card' }]);
    expect((await approve(customer.id)).statusCode).toBe(409);

    expectStatus(await uploadCard(customer, cardPhoto(800, 500)), 200);
    const second = await kycOf(customer);
    expect(second.checks.pan).toMatchObject({ cardImage: 'received', cardRequestReason: null });
    expect((await cardState(customer.id)).images).toBe(2);
    expectStatus(await approve(customer.id), 200);
  });

  it('tells a customer whose PAN waited before card photos existed that the photo is missing', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    // As migration 0053 leaves such a customer: a PAN waiting for an admin, no provider answer and no card photo.
    await harness.database.handle.db.execute(sql`update profiles set pan = ${uniquePersonPan()} where user_id = ${customer.id}`);
    await harness.database.handle.db
      .execute(sql`insert into kyc_records (user_id, pan_status, pan_submitted_at) values (${customer.id}, 'pending_review', now())
      on conflict (user_id) do update set pan_status = 'pending_review', pan_submitted_at = now()`);
    const kyc = await kycOf(customer);
    expect(kyc.missing).toContainEqual({ check: 'panCard', message: KYC_MISSING_TEXTS.panCard });
    expect(kyc.checks.pan.cardImage).toBe('needed');
  });
});
