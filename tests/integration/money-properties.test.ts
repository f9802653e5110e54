import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, formatLedgerReport } from '../../src/server/platform/ledger/check.ts';
import { usdtMicrosToWire } from '../../src/shared/money.ts';
import { createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  configureDepositAddresses,
  decide,
  expectStatus,
  requestTransfer,
  requestWithdrawal,
  signUpAdmin,
  submitDeposit,
} from '../fixtures/wallet.ts';

/**
 * Random sequences of deposits, approvals, rejections, withdrawals and
 * transfers, run through the API against a simple model of every balance.
 * After each sequence the ledger check passes and every balance equals the model.
 */

let harness: TestApp;
let admin: SignedUpUser;
const customers: { user: SignedUpUser; bankAccountId: string }[] = [];

beforeAll(async () => {
  harness = await createTestApp();
  await configureDepositAddresses(harness);
  admin = await signUpAdmin(harness);
  // A referral chain: customer 1 was referred by customer 0, customer 2 by customer 1.
  const first = await signUpVerifiedUser(harness.app);
  const second = await signUpVerifiedUser(harness.app, { referralCode: first.referralCode });
  const third = await signUpVerifiedUser(harness.app, { referralCode: second.referralCode });
  for (const user of [first, second, third]) customers.push({ user, bankAccountId: await addBankAccount(harness, user) });
}, 60_000);
afterAll(async () => harness.close());

const customerIndex = fc.integer({ min: 0, max: 2 });
const pick = fc.nat({ max: 1000 });

type Command =
  | { kind: 'deposit'; customer: number; amountUsdtMicros: bigint }
  | { kind: 'withdraw'; customer: number; amountCents: bigint }
  | { kind: 'transfer'; from: number; to: number; amountCents: bigint }
  | { kind: 'decide'; pick: number; approve: boolean }
  | { kind: 'decideAgain'; pick: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deposit' as const), customer: customerIndex, amountUsdtMicros: fc.bigInt({ min: 10_000_000n, max: 2_000_000_000n }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), customer: customerIndex, amountCents: fc.bigInt({ min: 100n, max: 150_000n }) }) },
  {
    weight: 2,
    // Transfers, like withdrawals, move whole cents.
    arbitrary: fc.record({ kind: fc.constant('transfer' as const), from: customerIndex, to: customerIndex, amountCents: fc.bigInt({ min: 1n, max: 80_000n }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('decide' as const), pick, approve: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decideAgain' as const), pick }) },
);

interface Pending {
  kind: 'deposits' | 'withdrawals' | 'transfers';
  id: string;
  customer: number;
  to?: number;
  amountUsdtMicros: bigint;
}

async function runSequence(commands: Command[]): Promise<void> {
  const model = await Promise.all(customers.map(({ user }) => balanceMicros(harness, user.id)));
  const pending: Pending[] = [];
  const decided: Pending[] = [];
  const take = (index: number): Pending | undefined => {
    const chosen = pending[index % Math.max(pending.length, 1)];
    if (chosen) pending.splice(pending.indexOf(chosen), 1);
    return chosen;
  };
  const credit = (customer: number, amount: bigint) => {
    model[customer] = (model[customer] as bigint) + amount;
  };

  for (const step of commands) {
    switch (step.kind) {
      case 'deposit': {
        const id = await submitDeposit(harness, customers[step.customer]!.user, usdtMicrosToWire(step.amountUsdtMicros));
        pending.push({ kind: 'deposits', id, customer: step.customer, amountUsdtMicros: step.amountUsdtMicros });
        break;
      }
      case 'withdraw': {
        const amountUsdtMicros = step.amountCents * 10_000n;
        const { user, bankAccountId } = customers[step.customer]!;
        const response = await requestWithdrawal(harness, user, { amount: usdtMicrosToWire(amountUsdtMicros), bankAccountId });
        if (amountUsdtMicros <= model[step.customer]!) {
          expectStatus(response, 201);
          credit(step.customer, -amountUsdtMicros);
          pending.push({ kind: 'withdrawals', id: response.json().withdrawal.id, customer: step.customer, amountUsdtMicros });
        } else {
          expectStatus(response, 400);
          expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
        }
        break;
      }
      case 'transfer': {
        const sender = customers[step.from]!.user;
        const recipient = customers[step.to]!.user;
        const amountUsdtMicros = step.amountCents * 10_000n;
        const response = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: usdtMicrosToWire(amountUsdtMicros) });
        if (step.from === step.to) {
          expectStatus(response, 400);
          expect(response.json().error.message).toBe('You cannot transfer USDT to yourself.');
        } else if (amountUsdtMicros <= model[step.from]!) {
          expectStatus(response, 201);
          credit(step.from, -amountUsdtMicros);
          pending.push({ kind: 'transfers', id: response.json().transfer.id, customer: step.from, to: step.to, amountUsdtMicros });
        } else {
          expectStatus(response, 400);
          expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
        }
        break;
      }
      case 'decide': {
        const item = take(step.pick);
        if (!item) break;
        expectStatus(await decide(harness, admin, item.kind, item.id, step.approve ? 'approve' : 'reject'), 200);
        if (item.kind === 'deposits' && step.approve) {
          credit(item.customer, item.amountUsdtMicros);
          // Referral chain 0 <- 1 <- 2: 0.1 % to the referrer, 0.02 % to the referrer's referrer.
          if (item.customer >= 1) credit(item.customer - 1, (item.amountUsdtMicros * 10n) / 10_000n);
          if (item.customer >= 2) credit(item.customer - 2, (item.amountUsdtMicros * 2n) / 10_000n);
        }
        if (item.kind === 'withdrawals' && !step.approve) credit(item.customer, item.amountUsdtMicros);
        if (item.kind === 'transfers') credit(step.approve ? (item.to as number) : item.customer, item.amountUsdtMicros);
        decided.push(item);
        break;
      }
      case 'decideAgain': {
        const item = decided[step.pick % Math.max(decided.length, 1)];
        if (!item) break;
        const response = await decide(harness, admin, item.kind, item.id, step.pick % 2 === 0 ? 'approve' : 'reject');
        expectStatus(response, 409);
        break;
      }
    }
  }

  // Reject what is still pending, so runs do not pile up waiting deposits (customers may have only 20).
  for (const item of pending) {
    expectStatus(await decide(harness, admin, item.kind, item.id, 'reject'), 200);
    if (item.kind !== 'deposits') credit(item.customer, item.amountUsdtMicros);
  }

  const report = await checkLedger(harness.database.handle.db);
  expect(report.ok, formatLedgerReport(report)).toBe(true);
  const actual = await Promise.all(customers.map(({ user }) => balanceMicros(harness, user.id)));
  expect(actual).toEqual(model);
}

describe('money properties', () => {
  it('keeps the ledger consistent and every balance equal to its model for random sequences', { timeout: 300_000 }, async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 30, size: 'max' }), runSequence), { numRuns: 30 });
  });
});
