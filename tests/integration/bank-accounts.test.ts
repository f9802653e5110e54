import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, decide, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness, admin } = useIntegrationFile();

const validAccount = {
  accountHolderName: 'Asha Rao',
  accountNumber: '123456789012',
  accountNumberConfirmation: '123456789012',
  ifscCode: 'SBIN0001234',
  upiId: 'asha@oksbi',
};

function list(user: SignedUpUser) {
  return call(harness.app, { url: '/api/bank-accounts', cookie: user.cookie });
}

async function storedAccounts(userId: string) {
  const result = await harness.database.handle.db.execute(sql`select account_number, ifsc_code, upi_id from bank_accounts where user_id = ${userId}`);
  return result.rows;
}

describe('bank accounts', () => {
  it('starts empty, adds an account and lists it with the last 4 digits only', async () => {
    const user = await signUpVerifiedUser(harness.app);
    expect((await list(user)).json()).toEqual({ items: [], newAccountPauseHours: 0, checkedWithBank: false });
    const created = await call(harness.app, {
      method: 'POST',
      url: '/api/bank-accounts',
      cookie: user.cookie,
      body: { ...validAccount, accountNumber: '1234 5678 9012', accountNumberConfirmation: '1234 5678 9012', ifscCode: ' sbin0001234 ' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().message).toBe('Bank account added successfully');
    const listed = (await list(user)).json();
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({
      accountHolderName: 'Asha Rao',
      bankName: 'State Bank of India',
      accountNumberLast4: '9012',
      ifscCode: 'SBIN0001234',
      upiId: 'asha@oksbi',
      hasPendingWithdrawal: false,
    });
    expect(JSON.stringify(listed)).not.toContain('123456789012');
    expect(await storedAccounts(user.id)).toEqual([{ account_number: '123456789012', ifsc_code: 'SBIN0001234', upi_id: 'asha@oksbi' }]);
  });

  it('stores a UPI id of the published VPA form at its longest: a 256-character name and a 64-letter handle', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const upiId = `${'a.b_c-9'.repeat(36)}abcd@${'x'.repeat(64)}`;
    expect(upiId.split('@')[0]).toHaveLength(256);
    await addBankAccount(harness, user, { upiId });
    expect((await storedAccounts(user.id)).map((row) => row.upi_id)).toEqual([upiId]);
  });

  it('stores an empty UPI id as none', async () => {
    const user = await signUpVerifiedUser(harness.app);
    await addBankAccount(harness, user, { upiId: '' });
    await addBankAccount(harness, user, { upiId: null });
    const { upiId: _left, ...withoutUpi } = validAccount;
    // Another number: the same account cannot be saved twice (issue 12).
    const response = await call(harness.app, {
      method: 'POST',
      url: '/api/bank-accounts',
      cookie: user.cookie,
      body: { ...withoutUpi, accountNumber: '987654321098', accountNumberConfirmation: '987654321098' },
    });
    expect(response.statusCode).toBe(201);
    expect((await storedAccounts(user.id)).map((row) => row.upi_id)).toEqual([null, null, null]);
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ accountHolderName: 'A' }, 'accountHolderName', 'Account holder name must be at least 2 characters.'],
    [{ accountHolderName: '  ' }, 'accountHolderName', 'Account holder name must be at least 2 characters.'],
    [{ accountHolderName: 'x'.repeat(101) }, 'accountHolderName', 'Account holder name must be at most 100 characters.'],
    [{ accountHolderName: '\u{1F600}' }, 'accountHolderName', 'Account holder name must be at least 2 characters.'],
    [{ accountHolderName: 'Asha\u0000Rao' }, 'accountHolderName', 'This field contains characters that are not allowed.'],
    [{ accountNumber: '12345678', accountNumberConfirmation: '12345678' }, 'accountNumber', 'Account number must be at least 9 characters.'],
    [{ accountNumber: '1234567890123456789', accountNumberConfirmation: '1234567890123456789' }, 'accountNumber', 'Account number must be at most 18 digits.'],
    [{ accountNumber: '12345678901A', accountNumberConfirmation: '12345678901A' }, 'accountNumber', 'Account number must contain digits only.'],
    [{ accountNumberConfirmation: '123456789013' }, 'accountNumberConfirmation', 'The account numbers do not match. Type the account number again.'],
    [{ accountNumberConfirmation: undefined }, 'accountNumberConfirmation', 'Type the account number again to confirm it.'],
    [{ ifscCode: 'SBIN0999999' }, 'ifscCode', 'This IFSC code is not in the list of Indian bank branches. Check it on your cheque book or passbook.'],
    [{ ifscCode: 'ZZZZ0000001' }, 'ifscCode', 'This IFSC code is not in the list of Indian bank branches. Check it on your cheque book or passbook.'],
    [{ ifscCode: 'SBIN000123' }, 'ifscCode', 'IFSC code must be 11 characters.'],
    [{ ifscCode: 'SBIN00012345' }, 'ifscCode', 'IFSC code must be 11 characters.'],
    [{ ifscCode: 'SBIN1001234' }, 'ifscCode', 'IFSC code must be 4 letters, then 0, then 6 letters or digits (for example SBIN0001234).'],
    [{ ifscCode: '1BIN0001234' }, 'ifscCode', 'IFSC code must be 4 letters, then 0, then 6 letters or digits (for example SBIN0001234).'],
    [{ ifscCode: 'SBIN0-01234' }, 'ifscCode', 'IFSC code must be 4 letters, then 0, then 6 letters or digits (for example SBIN0001234).'],
    ...[
      'asha',
      'asha@',
      'a@b@c',
      'a@okhdfc',
      'as ha@okhdfc',
      'asha@ok-hdfc',
      'asha@okhdfc1',
      'asha@ok.hdfc',
      'asha@h',
      `${'a'.repeat(257)}@ybl`,
      `asha@${'b'.repeat(65)}`,
    ].map((upiId): [Record<string, unknown>, string, string] => [{ upiId }, 'upiId', BANK_ACCOUNT_MESSAGES.upiShape]),
    [{ accountNumber: undefined }, 'accountNumber', 'Account number must be at least 9 characters.'],
  ])('refuses %j with the message and saves nothing', async (override, field, message) => {
    const user = await signUpVerifiedUser(harness.app);
    const response = await call(harness.app, { method: 'POST', url: '/api/bank-accounts', cookie: user.cookie, body: { ...validAccount, ...override } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    expect(await storedAccounts(user.id)).toEqual([]);
  });

  it('edits only the fields sent, keeping the account number when it is left out', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const id = await addBankAccount(harness, user, { accountNumber: validAccount.accountNumber });
    const response = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${id}`,
      cookie: user.cookie,
      body: { accountHolderName: 'Asha R', bankName: 'HDFC Bank', ifscCode: 'HDFC0000001', upiId: '' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Bank account updated successfully',
      bankAccount: { accountHolderName: 'Asha R', bankName: 'HDFC Bank', ifscCode: 'HDFC0000001', upiId: null, accountNumberLast4: '9012' },
    });
    const bad = await call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${id}`, cookie: user.cookie, body: { ifscCode: 'HDFC' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('IFSC code must be 11 characters.');
    const empty = await call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${id}`, cookie: user.cookie, body: {} });
    expect(empty.statusCode).toBe(400);
    expect(await storedAccounts(user.id)).toEqual([{ account_number: '123456789012', ifsc_code: 'HDFC0000001', upi_id: null }]);
  });

  it("answers 404 for another customer's account, for reading, editing and deleting", async () => {
    const owner = await signUpVerifiedUser(harness.app);
    const stranger = await signUpVerifiedUser(harness.app);
    const id = await addBankAccount(harness, owner);
    expect((await list(stranger)).json().items).toEqual([]);
    const edit = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${id}`,
      cookie: stranger.cookie,
      body: { accountHolderName: 'Mine now' },
    });
    expect(edit.statusCode).toBe(404);
    expect(edit.json().error.message).toBe('Bank account not found');
    const remove = await call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${id}`, cookie: stranger.cookie });
    expect(remove.statusCode).toBe(404);
    expect(remove.json().error.message).toBe('Bank account not found');
    expect((await list(owner)).json().items[0].bankName).toBe('State Bank of India');
  });

  it('deletes an account, but not while a withdrawal to it is pending', async () => {
    const user = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, user, '50');
    const id = await addBankAccount(harness, user);
    const withdrawalId = (await requestWithdrawal(harness, user, { amount: '10', bankAccountId: id })).json().withdrawal.id;
    expect((await list(user)).json().items[0].hasPendingWithdrawal).toBe(true);
    const refused = await call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${id}`, cookie: user.cookie });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This bank account has a pending withdrawal. You can delete it once the withdrawal is approved or rejected.');
    await decide(harness, admin, 'withdrawals', withdrawalId, 'reject');
    const deleted = await call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${id}`, cookie: user.cookie });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ ok: true, message: 'Bank account deleted successfully' });
    expect((await list(user)).json().items).toEqual([]);
    const again = await call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${id}`, cookie: user.cookie });
    expect(again.statusCode).toBe(404);
    // The decided withdrawal keeps its copy of the bank details.
    const withdrawal = await call(harness.app, { url: `/api/withdrawals/${withdrawalId}`, cookie: user.cookie });
    expect(withdrawal.json().withdrawal).toMatchObject({ bankAccountId: null, bank: { accountNumberLast4: '9012' } });
  });

  it('never deletes an account while a concurrent withdrawal to it is being made', async () => {
    for (let round = 0; round < 4; round += 1) {
      const user = await signUpVerifiedUser(harness.app);
      await fundWallet(harness, admin, user, '50');
      const id = await addBankAccount(harness, user);
      const [withdrawal, removal] = await Promise.all([
        requestWithdrawal(harness, user, { amount: '10', bankAccountId: id }),
        call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${id}`, cookie: user.cookie }),
      ]);
      // Either the withdrawal came first (and the delete is refused) or the account was gone (and the withdrawal is refused).
      expect([withdrawal.statusCode, removal.statusCode].sort()).toEqual(withdrawal.statusCode === 201 ? [201, 409] : [200, 404]);
    }
  });

  it('keeps at most 20 accounts per customer', async () => {
    const user = await signUpVerifiedUser(harness.app);
    for (let index = 0; index < 20; index += 1) await addBankAccount(harness, user, { accountNumber: `1234567890${String(index).padStart(2, '0')}` });
    const response = await call(harness.app, { method: 'POST', url: '/api/bank-accounts', cookie: user.cookie, body: validAccount });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('You can save at most 20 bank accounts. Delete one you no longer use first.');
  });

  it('needs a PIN-verified session', async () => {
    expect((await call(harness.app, { url: '/api/bank-accounts' })).statusCode).toBe(401);
    const user = await signUpUser(harness.app);
    expect((await list(user)).statusCode).toBe(403);
    const add = await call(harness.app, { method: 'POST', url: '/api/bank-accounts', cookie: user.cookie, body: validAccount });
    expect(add.statusCode).toBe(403);
  });

  it('refuses the same account number and IFSC twice for one customer, on add and on edit, but not for another customer', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const other = await signUpVerifiedUser(harness.app);
    await addBankAccount(harness, user, { accountNumber: validAccount.accountNumber });
    const again = await call(harness.app, {
      method: 'POST',
      url: '/api/bank-accounts',
      cookie: user.cookie,
      body: { ...validAccount, accountNumber: '1234 5678 9012', ifscCode: 'sbin0001234', bankName: 'SBI' },
    });
    expect(again.statusCode).toBe(409);
    const message = 'You have already saved this bank account (same account number and IFSC code).';
    expect(again.json().error).toMatchObject({ message, fields: { accountNumber: message } });
    expect(await storedAccounts(user.id)).toHaveLength(1);

    // Same number at another branch is another account; editing it into a copy is refused too.
    const secondId = await addBankAccount(harness, user, { accountNumber: '123456789012', ifscCode: 'SBIN0005678' });
    const edit = await call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${secondId}`, cookie: user.cookie, body: { ifscCode: 'SBIN0001234' } });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toBe(message);
    // Editing an account without making a copy still works.
    const rename = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${secondId}`,
      cookie: user.cookie,
      body: { accountHolderName: 'Asha Rao B' },
    });
    expect(rename.statusCode).toBe(200);

    await addBankAccount(harness, other, { accountNumber: validAccount.accountNumber });
    expect(await storedAccounts(other.id)).toHaveLength(1);

    // Two racing copies: exactly one is saved.
    const third = await signUpVerifiedUser(harness.app);
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => call(harness.app, { method: 'POST', url: '/api/bank-accounts', cookie: third.cookie, body: validAccount })),
    );
    expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });
});

describe('payees checked like a bank checks them (decision 044)', () => {
  it('takes the bank from the IFSC dataset, not from what was typed, and looks codes up for the form', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const created = await call(harness.app, {
      method: 'POST',
      url: '/api/bank-accounts',
      cookie: user.cookie,
      body: { ...validAccount, ifscCode: 'UTIB0000001', bankName: 'Typed Bank Ltd' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().bankAccount).toMatchObject({ bankName: 'Axis Bank', ifscCode: 'UTIB0000001', branchName: null });
    const stored = await harness.database.handle.db.execute<{ bank_name: string }>(sql`select bank_name from bank_accounts where user_id = ${user.id}`);
    expect(stored.rows).toEqual([{ bank_name: 'Axis Bank' }]);

    // A new IFSC on edit brings its bank with it.
    const id = created.json().bankAccount.id as string;
    const edited = await call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${id}`, cookie: user.cookie, body: { ifscCode: 'KKBK0000261' } });
    expect(edited.json().bankAccount).toMatchObject({ bankName: 'Kotak Mahindra Bank', ifscCode: 'KKBK0000261' });

    const lookup = await call(harness.app, { url: '/api/bank-accounts/ifsc/icic0001122', cookie: user.cookie });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ ifscCode: 'ICIC0001122', bankName: 'ICICI Bank', branchName: null });
    const unknown = await call(harness.app, { url: '/api/bank-accounts/ifsc/SBIN0999999', cookie: user.cookie });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.fields).toEqual({
      ifscCode: 'This IFSC code is not in the list of Indian bank branches. Check it on your cheque book or passbook.',
    });
  });

  it('refuses an edit to an unknown IFSC or an unconfirmed account number at the field, and changes nothing', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const id = await addBankAccount(harness, user);
    const before = await storedAccounts(user.id);
    const patch = (body: Record<string, unknown>) => call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${id}`, cookie: user.cookie, body });
    const unknownIfsc = await patch({ ifscCode: 'SBIN0999999' });
    expect(unknownIfsc.statusCode).toBe(400);
    expect(unknownIfsc.json().error.fields).toEqual({
      ifscCode: 'This IFSC code is not in the list of Indian bank branches. Check it on your cheque book or passbook.',
    });
    const mismatch = await patch({ accountNumber: '111122223333', accountNumberConfirmation: '111122223334' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields).toEqual({ accountNumberConfirmation: 'The account numbers do not match. Type the account number again.' });
    const unconfirmed = await patch({ accountNumber: '111122223333' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().error.fields).toMatchObject({ accountNumberConfirmation: 'The account numbers do not match. Type the account number again.' });
    expect(await storedAccounts(user.id)).toEqual(before);
  });
});
