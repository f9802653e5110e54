import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { balanceMicros, decide, fundWallet, ledgerTransferCount, requestTransfer } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';

const { harness, admin } = useIntegrationFile();

async function pair(amount = '100'): Promise<{ sender: SignedUpUser; recipient: SignedUpUser }> {
  const sender = await signUpVerifiedUser(harness.app);
  const recipient = await signUpVerifiedUser(harness.app, { fullName: 'Ravi Kumar' });
  await fundWallet(harness, admin, sender, amount);
  return { sender, recipient };
}

describe('transfer request', () => {
  it('holds the amount from the sender at once and shows the recipient', async () => {
    const { sender, recipient } = await pair();
    const response = await requestTransfer(harness, sender, { recipientEmail: recipient.email.toUpperCase(), amount: '12.34' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      message: 'Transfer request submitted successfully',
      transfer: { direction: 'sent', counterparty: { name: 'Ravi Kumar', email: recipient.email }, amount: '12.340000', status: 'pending' },
    });
    expect(await balanceMicros(harness, sender.id)).toBe(87_660_000n);
    expect(await balanceMicros(harness, recipient.id)).toBe(0n);

    const id = response.json().transfer.id;
    const seenByRecipient = await call(harness.app, { url: `/api/transfers/${id}`, cookie: recipient.cookie });
    expect(seenByRecipient.json().transfer).toMatchObject({ direction: 'received', counterparty: { email: sender.email } });
    const stranger = await signUpVerifiedUser(harness.app);
    const hidden = await call(harness.app, { url: `/api/transfers/${id}`, cookie: stranger.cookie });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.message).toBe('Transfer not found');
  });

  it.each([
    [{ amount: '0' }, 'amount', 'Please enter a valid amount'],
    // Transfers move whole cents, like withdrawals: what the customer sees is what moves.
    [{ amount: '10.555' }, 'amount', 'Amount can have at most 2 decimal places.'],
    [{ amount: '1.0000001' }, 'amount', 'Amount can have at most 2 decimal places.'],
    [{ recipientEmail: '' }, 'recipientEmail', 'Email is required'],
    [{ recipientEmail: 'not-an-email' }, 'recipientEmail', 'Email is invalid'],
    [{ pin: 'abcd' }, 'pin', 'PIN must be exactly 4 digits'],
  ])('refuses %j with a clear message and moves nothing', async (override, field, message) => {
    const { sender, recipient } = await pair();
    const before = await ledgerTransferCount(harness);
    const response = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '10', ...override });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ message, fields: { [field]: message } });
    expect(await ledgerTransferCount(harness)).toBe(before);
  });

  it('refuses an unknown e-mail, yourself, more than the balance and a wrong PIN', async () => {
    const { sender, recipient } = await pair('20');
    const unknown = await requestTransfer(harness, sender, { recipientEmail: 'nobody-here@example.com', amount: '1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({
      message: 'No account was found for this email.',
      fields: { recipientEmail: 'No account was found for this email.' },
    });
    const self = await requestTransfer(harness, sender, { recipientEmail: sender.email, amount: '1' });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe('You cannot transfer USDT to yourself.');
    const tooMuch = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '20.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance' });
    const wrongPin = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '1', pin: '0000' });
    expect(wrongPin.statusCode).toBe(400);
    expect(wrongPin.json().error).toMatchObject({ code: 'PIN_INCORRECT', message: 'Incorrect PIN. Please try again.' });
    expect(await balanceMicros(harness, sender.id)).toBe(20_000_000n);
    const rows = await harness.database.handle.db.execute(sql`select 1 from transfers where sender_user_id = ${sender.id}`);
    expect(rows.rows).toHaveLength(0);
  });

  it('needs a PIN-verified session', async () => {
    const user = await signUpUser(harness.app);
    const response = await requestTransfer(harness, user, { recipientEmail: admin.email, amount: '1' });
    expect(response.statusCode).toBe(403);
  });

  it('lets exactly one of 10 concurrent transfers of the whole balance through', async () => {
    const { sender, recipient } = await pair('10');
    const answers = await Promise.all(Array.from({ length: 10 }, () => requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '10' })));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 400 && answer.json().error.code === 'INSUFFICIENT_BALANCE')).toHaveLength(9);
    expect(await balanceMicros(harness, sender.id)).toBe(0n);
  });

  it('makes one transfer of a retried request with the same Idempotency-Key', async () => {
    const { sender, recipient } = await pair('10');
    const headers = { 'idempotency-key': 'transfer-1' };
    const first = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '4' }, headers);
    const retry = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '4' }, headers);
    expect(retry.json()).toEqual(first.json());
    expect(await balanceMicros(harness, sender.id)).toBe(6_000_000n);
    const other = await requestTransfer(harness, sender, { recipientEmail: admin.email, amount: '4' }, headers);
    expect(other.statusCode).toBe(422);
  });
});

describe('transfer decisions', () => {
  it('approve credits the recipient; a second decision is refused', async () => {
    const { sender, recipient } = await pair();
    const id = (await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '30' })).json().transfer.id;
    const response = await decide(harness, admin, 'transfers', id, 'approve');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Transfer approved successfully',
      transfer: { status: 'approved', sender: { id: sender.id }, recipient: { id: recipient.id }, amount: '30.000000' },
    });
    expect(await balanceMicros(harness, sender.id)).toBe(70_000_000n);
    expect(await balanceMicros(harness, recipient.id)).toBe(30_000_000n);
    const again = await decide(harness, admin, 'transfers', id, 'reject');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_DECIDED', message: 'This transfer has already been approved.' });
    expect(await balanceMicros(harness, sender.id)).toBe(70_000_000n);
  });

  it('reject returns the amount to the sender', async () => {
    const { sender, recipient } = await pair();
    const id = (await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '30' })).json().transfer.id;
    const response = await decide(harness, admin, 'transfers', id, 'reject', { reason: 'Suspicious' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Transfer rejected and funds returned to sender',
      transfer: { status: 'rejected', rejectionReason: 'Suspicious' },
    });
    expect(await balanceMicros(harness, sender.id)).toBe(100_000_000n);
    expect(await balanceMicros(harness, recipient.id)).toBe(0n);
    const audit = await harness.database.handle.db.execute<{ action: string }>(sql`select action from audit_log where target_id = ${id}`);
    expect(audit.rows).toEqual([{ action: 'transfer.reject' }]);
  });

  it('lets exactly one of a racing approve and reject win', async () => {
    const { sender, recipient } = await pair();
    for (let round = 0; round < 5; round += 1) {
      const id = (await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '5' })).json().transfer.id;
      const [approve, reject] = await Promise.all([decide(harness, admin, 'transfers', id, 'approve'), decide(harness, admin, 'transfers', id, 'reject')]);
      expect([approve.statusCode, reject.statusCode].sort()).toEqual([200, 409]);
    }
    const total = (await balanceMicros(harness, sender.id)) + (await balanceMicros(harness, recipient.id));
    expect(total).toBe(100_000_000n);
  });

  it('does not let an admin decide a transfer they send or receive', async () => {
    const { sender } = await pair();
    const id = (await requestTransfer(harness, sender, { recipientEmail: admin.email, amount: '5' })).json().transfer.id;
    const response = await decide(harness, admin, 'transfers', id, 'approve');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('You cannot approve or reject a transfer you sent or receive. Another admin must decide it.');
    const otherAdmin = await signUpAdminWithVerifiedPin(harness);
    expect((await decide(harness, otherAdmin, 'transfers', id, 'reject')).statusCode).toBe(200);
    expect(await balanceMicros(harness, sender.id)).toBe(100_000_000n);
  });

  it('lists transfers for admins and refuses customers', async () => {
    const { sender, recipient } = await pair();
    const id = (await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '5' })).json().transfer.id;
    const listed = await call(harness.app, { url: '/api/admin/transfers?status=pending', cookie: admin.cookie });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.find((item: { id: string }) => item.id === id)).toMatchObject({
      sender: { email: sender.email },
      recipient: { email: recipient.email },
    });
    expect((await call(harness.app, { url: '/api/admin/transfers', cookie: sender.cookie })).statusCode).toBe(403);
    expect((await decide(harness, sender, 'transfers', id, 'approve')).statusCode).toBe(403);
    expect((await decide(harness, recipient, 'transfers', id, 'approve')).statusCode).toBe(403);
    expect(await balanceMicros(harness, recipient.id)).toBe(0n);
  });
});
