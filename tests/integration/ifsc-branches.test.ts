import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import { startIfscApiStandIn, type IfscApiStandIn } from '../fixtures/ifsc-api-stand-in.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

// The branch of an IFSC comes from the IFSC API (decision 067), here its local stand-in; the offline dataset still decides which codes exist.
let standIn: IfscApiStandIn;
beforeAll(async () => {
  standIn = await startIfscApiStandIn();
});
afterAll(async () => {
  await standIn.close();
});
const { harness, admin } = useIntegrationFile({ app: () => ({ ifscApiUrl: standIn.url }) });

function lookUp(user: SignedUpUser, ifscCode: string) {
  return call(harness.app, { url: `/api/bank-accounts/ifsc/${ifscCode}`, cookie: user.cookie });
}

async function storedBranches(userId: string) {
  const result = await harness.database.handle.db.execute<{ ifsc_code: string; branch_name: string | null }>(
    sql`select ifsc_code, branch_name from bank_accounts where user_id = ${userId}`,
  );
  return result.rows;
}

describe('the IFSC fills the branch (decision 067)', () => {
  it('fills the branch for the form, stores it with the account, and shows it to the customer and to admins', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const lookup = await lookUp(user, 'utib0000001');
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ ifscCode: 'UTIB0000001', bankName: 'Axis Bank', branchName: 'AHMEDABAD - ELLISBRIDGE' });

    const id = await addBankAccount(harness, user, { ifscCode: 'UTIB0000001' });
    expect(await storedBranches(user.id)).toEqual([{ ifsc_code: 'UTIB0000001', branch_name: 'AHMEDABAD - ELLISBRIDGE' }]);
    const listed = await call(harness.app, { url: '/api/bank-accounts', cookie: user.cookie });
    expect(listed.json().items).toMatchObject([{ id, bankName: 'Axis Bank', branchName: 'AHMEDABAD - ELLISBRIDGE' }]);
    const payees = await call(harness.app, { url: `/api/admin/users/${user.id}/payees`, cookie: admin.cookie });
    expect(payees.statusCode).toBe(200);
    expect(payees.json().items).toMatchObject([{ id, bankName: 'Axis Bank', branchName: 'AHMEDABAD - ELLISBRIDGE' }]);

    // The lookup, the save and two more lookups asked the API once; the API's own bank name never replaces the dataset's.
    await lookUp(user, 'UTIB0000001');
    await lookUp(user, 'UTIB0000001');
    expect(standIn.requests.get('UTIB0000001')).toBe(1);
  });

  it('asks the API once for a code that many look up at the same moment, and keeps its 404 too', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const answers = await Promise.all(Array.from({ length: 6 }, () => lookUp(user, 'HDFC0001234')));
    expect(answers.map((answer) => answer.json().branchName)).toEqual(Array(6).fill('MUMBAI - ANDHERI EAST'));
    expect(standIn.requests.get('HDFC0001234')).toBe(1);

    // KKBK0000261 is in the offline dataset but not in the stand-in: the bank alone, and the API is not asked again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const lookup = await lookUp(user, 'KKBK0000261');
      expect(lookup.json()).toEqual({ ifscCode: 'KKBK0000261', bankName: 'Kotak Mahindra Bank', branchName: null });
    }
    expect(standIn.requests.get('KKBK0000261')).toBe(1);
  });

  it('works with the bank alone while the API is down, and fills the branch on a later lookup', async () => {
    const user = await signUpVerifiedUser(harness.app);
    standIn.mode = 'down';
    try {
      const lookup = await lookUp(user, 'ICIC0001122');
      expect(lookup.statusCode).toBe(200);
      expect(lookup.json()).toEqual({ ifscCode: 'ICIC0001122', bankName: 'ICICI Bank', branchName: null });
      const created = await call(harness.app, {
        method: 'POST',
        url: '/api/bank-accounts',
        cookie: user.cookie,
        body: { accountHolderName: 'Asha Rao', accountNumber: '555566667777', accountNumberConfirmation: '555566667777', ifscCode: 'ICIC0001122' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().bankAccount).toMatchObject({ bankName: 'ICICI Bank', branchName: null });
    } finally {
      standIn.mode = 'answer';
    }
    expect(standIn.requests.get('ICIC0001122')).toBe(2);
    const later = await lookUp(user, 'ICIC0001122');
    expect(later.json().branchName).toBe('PUNE - BANER');
    expect(await storedBranches(user.id)).toEqual([{ ifsc_code: 'ICIC0001122', branch_name: 'PUNE - BANER' }]);
  });

  it('answers with the bank alone when the API does not answer within its timeout', async () => {
    const user = await signUpVerifiedUser(harness.app);
    standIn.mode = 'silent';
    try {
      const started = Date.now();
      const lookup = await lookUp(user, 'SBIN0001234');
      expect(lookup.statusCode).toBe(200);
      expect(lookup.json()).toEqual({ ifscCode: 'SBIN0001234', bankName: 'State Bank of India', branchName: null });
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      standIn.mode = 'answer';
    }
    const stored = await harness.database.handle.db.execute(sql`select 1 from ifsc_branches where ifsc_code = 'SBIN0001234'`);
    expect(stored.rows).toEqual([]);
  });

  it('refuses an unknown IFSC offline, at the field, without asking the API', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const lookup = await lookUp(user, 'SBIN0999999');
    expect(lookup.statusCode).toBe(404);
    expect(lookup.json().error.fields).toEqual({ ifscCode: BANK_ACCOUNT_MESSAGES.unknownIfsc });
    const created = await call(harness.app, {
      method: 'POST',
      url: '/api/bank-accounts',
      cookie: user.cookie,
      body: { accountHolderName: 'Asha Rao', accountNumber: '555566667777', accountNumberConfirmation: '555566667777', ifscCode: 'SBIN0999999' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.fields).toEqual({ ifscCode: BANK_ACCOUNT_MESSAGES.unknownIfsc });
    expect(standIn.requests.has('SBIN0999999')).toBe(false);
    expect(await storedBranches(user.id)).toEqual([]);
  });
});
