import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, formatLedgerReport } from '../../src/server/platform/ledger/check.ts';
import { usdtMicrosToWire } from '#shared/money';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, decide, decideWithUtr, expectStatus, requestTransfer, requestWithdrawal, submitDeposit } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/**
 * Random sequences of deposits, approvals, rejections, withdrawals and
 * transfers, run through the API against a simple model of every balance.
 * After each sequence the ledger check passes and every balance equals the model.
 */

const { harness, admin } = useIntegrationFile();
const customers: { user: SignedUpUser; bankAccountId: string }[] = [];
let secondAdmin: SignedUpUser;

beforeAll(async () => {
  secondAdmin = await signUpAdminWithVerifiedPin(harness, { fullName: 'Second Admin' });
  // These properties are about the ledger, not the two-admin rule (tested in two-admin-rolling-window.test.ts): the
  // runs withdraw far more than the large-withdrawal amount from one customer within 24 hours, so it is raised out of
  // reach and every decision is final at the first admin's answer.
  await harness.database.handle.db.execute(sql`update admin_settings set large_withdrawal_inr_paise = 100000000000 where id = 1`);
  // A referral chain: customer 1 was referred by customer 0, customer 2 by customer 1.
  const first = await signUpVerifiedUser(harness.app);
  const second = await signUpVerifiedUser(harness.app, { referralCode: first.referralCode });
  const third = await signUpVerifiedUser(harness.app, { referralCode: second.referralCode });
  for (const user of [first, second, third]) customers.push({ user, bankAccountId: await addBankAccount(harness, user) });
}, 60_000);

const customerIndex = fc.integer({ min: 0, max: 2 });
const pick = fc.nat({ max: 1000 });

type Command =
  | { kind: 'deposit'; customer: number; amountUsdtMicros: bigint }
  | { kind: 'withdraw'; customer: number; amountCents: bigint }
  | { kind: 'transfer'; from: number; to: number; amountCents: bigint }
  | { kind: 'decide'; pick: number; approve: boolean }
  | { kind: 'decideAgain'; pick: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      customer: customerIndex,
      amountUsdtMicros: fc.bigInt({ min: 10_000_000n, max: 2_000_000_000n }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('withdraw' as const), customer: customerIndex, amountCents: fc.bigInt({ min: 100n, max: 150_000n }) }),
  },
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
        expectStatus(await decideWithUtr(harness, admin, item.kind, item.id, step.approve ? 'approve' : 'reject'), 200);
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

/*
 * Interleaved sequences: three customers and two admins each run a command list at the same time, so requests
 * overlap on the server in whatever order the scheduler gives them. No single serial order is known, so the model
 * allows any of them:
 * - a customer's own debits are serial (one actor per customer), and no other actor ever debits that wallet, so
 *   when a withdrawal or transfer is sent its wallet holds at least what is known to be there (credits whose
 *   decision answered before it was sent) and at most that plus every credit already asked for: a request within
 *   the lower bound must be accepted, one beyond the upper bound refused, and one in between may go either way;
 * - two admins deciding one request at once (approve against reject): exactly one wins, the other gets 409;
 * - afterwards, with everything decided, every balance equals the sum of the effects of the accepted operations
 *   (additions commute, so the order does not matter), money is conserved, no balance is negative, every accepted
 *   request is stored with the decision the model recorded, and the ledger check passes.
 */

type CustomerCommand =
  | { kind: 'deposit'; amountUsdtMicros: bigint }
  | { kind: 'withdraw'; amountCents: bigint }
  | { kind: 'transfer'; recipientOffset: 1 | 2; amountUsdtMicros: bigint };

type AdminCommand = { kind: 'decide'; pick: number; approve: boolean } | { kind: 'race'; pick: number };

const customerCommand: fc.Arbitrary<CustomerCommand> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deposit' as const), amountUsdtMicros: fc.bigInt({ min: 10_000_000n, max: 2_000_000_000n }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), amountCents: fc.bigInt({ min: 100n, max: 150_000n }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      recipientOffset: fc.constantFrom(1 as const, 2 as const),
      // Transfers carry at most 2 decimals, so whole cents.
      amountUsdtMicros: fc.bigInt({ min: 1n, max: 80_000n }).map((cents) => cents * 10_000n),
    }),
  },
);

const adminCommand: fc.Arbitrary<AdminCommand> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('decide' as const), pick, approve: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('race' as const), pick }) },
);

const interleavedRun = fc.record({
  customers: fc.tuple(...[0, 1, 2].map(() => fc.array(customerCommand, { minLength: 1, maxLength: 6, size: 'max' }))),
  admins: fc.tuple(fc.array(adminCommand, { minLength: 1, maxLength: 8, size: 'max' }), fc.array(adminCommand, { minLength: 1, maxLength: 8, size: 'max' })),
});

type Decision = 'approve' | 'reject';

/** Who gains what when a request is decided one way or the other (deposits also pay the referral chain 0 <- 1 <- 2). */
function creditsOf(item: Pending, decision: Decision): { customer: number; amountUsdtMicros: bigint }[] {
  if (item.kind === 'deposits') {
    if (decision === 'reject') return [];
    return [
      { customer: item.customer, amountUsdtMicros: item.amountUsdtMicros },
      ...(item.customer >= 1 ? [{ customer: item.customer - 1, amountUsdtMicros: (item.amountUsdtMicros * 10n) / 10_000n }] : []),
      ...(item.customer >= 2 ? [{ customer: item.customer - 2, amountUsdtMicros: (item.amountUsdtMicros * 2n) / 10_000n }] : []),
    ];
  }
  if (item.kind === 'withdrawals') return decision === 'reject' ? [{ customer: item.customer, amountUsdtMicros: item.amountUsdtMicros }] : [];
  return [{ customer: decision === 'approve' ? (item.to as number) : item.customer, amountUsdtMicros: item.amountUsdtMicros }];
}

const STORED_REQUESTS = { deposits: 'usdt_deposits', withdrawals: 'withdrawal_requests', transfers: 'transfers' } as const;

async function runInterleaved(run: { customers: CustomerCommand[][]; admins: AdminCommand[][] }): Promise<void> {
  const initial = await Promise.all(customers.map(({ user }) => balanceMicros(harness, user.id)));
  const confirmedCredits = customers.map(() => 0n);
  const askedCredits = customers.map(() => 0n);
  const acceptedDebits = customers.map(() => 0n);
  const pending: Pending[] = [];
  const decided = new Map<string, { item: Pending; decision: Decision }>();
  let customersRunning = run.customers.length;
  let wakeAdmins: (() => void)[] = [];
  const notifyAdmins = () => {
    for (const wake of wakeAdmins) wake();
    wakeAdmins = [];
  };

  const submitted = (item: Pending) => {
    pending.push(item);
    notifyAdmins();
  };
  /** Takes a pending request, waiting for one while customers are still submitting. */
  const takePending = async (index: number): Promise<Pending | undefined> => {
    while (pending.length === 0 && customersRunning > 0) await new Promise<void>((resolve) => wakeAdmins.push(resolve));
    const chosen = pending[index % Math.max(pending.length, 1)];
    if (chosen) pending.splice(pending.indexOf(chosen), 1);
    return chosen;
  };
  const ask = (item: Pending, decision: Decision) => {
    for (const credit of creditsOf(item, decision)) askedCredits[credit.customer] = (askedCredits[credit.customer] as bigint) + credit.amountUsdtMicros;
  };
  const confirm = (item: Pending, decision: Decision) => {
    for (const credit of creditsOf(item, decision)) confirmedCredits[credit.customer] = (confirmedCredits[credit.customer] as bigint) + credit.amountUsdtMicros;
    decided.set(item.id, { item, decision });
  };

  /** Sends a debit and checks its answer against the bounds on the wallet at that moment. */
  const debit = async (customer: number, amountUsdtMicros: bigint, send: () => ReturnType<typeof requestWithdrawal>) => {
    const known = (initial[customer] as bigint) + (confirmedCredits[customer] as bigint) - (acceptedDebits[customer] as bigint);
    const response = await send();
    const possible = (initial[customer] as bigint) + (askedCredits[customer] as bigint) - (acceptedDebits[customer] as bigint);
    if (amountUsdtMicros <= known) expectStatus(response, 201);
    else if (amountUsdtMicros > possible) expectStatus(response, 400);
    if (response.statusCode === 201) {
      acceptedDebits[customer] = (acceptedDebits[customer] as bigint) + amountUsdtMicros;
      return response;
    }
    expectStatus(response, 400);
    expect(response.json().error.code).toBe('INSUFFICIENT_BALANCE');
    return undefined;
  };

  const customerActor = async (customer: number, commands: CustomerCommand[]) => {
    const { user, bankAccountId } = customers[customer]!;
    for (const step of commands) {
      if (step.kind === 'deposit') {
        const id = await submitDeposit(harness, user, usdtMicrosToWire(step.amountUsdtMicros));
        submitted({ kind: 'deposits', id, customer, amountUsdtMicros: step.amountUsdtMicros });
      } else if (step.kind === 'withdraw') {
        const amountUsdtMicros = step.amountCents * 10_000n;
        const accepted = await debit(customer, amountUsdtMicros, () =>
          requestWithdrawal(harness, user, { amount: usdtMicrosToWire(amountUsdtMicros), bankAccountId }),
        );
        if (accepted) submitted({ kind: 'withdrawals', id: accepted.json().withdrawal.id, customer, amountUsdtMicros });
      } else {
        const to = (customer + step.recipientOffset) % customers.length;
        const recipientEmail = customers[to]!.user.email;
        const accepted = await debit(customer, step.amountUsdtMicros, () =>
          requestTransfer(harness, user, { recipientEmail, amount: usdtMicrosToWire(step.amountUsdtMicros) }),
        );
        if (accepted) submitted({ kind: 'transfers', id: accepted.json().transfer.id, customer, to, amountUsdtMicros: step.amountUsdtMicros });
      }
    }
  };

  const adminActor = async (self: SignedUpUser, other: SignedUpUser, commands: AdminCommand[]) => {
    for (const step of commands) {
      const item = await takePending(step.pick);
      if (!item) return;
      if (step.kind === 'decide') {
        const decision: Decision = step.approve ? 'approve' : 'reject';
        ask(item, decision);
        expectStatus(await decideWithUtr(harness, self, item.kind, item.id, decision), 200);
        confirm(item, decision);
      } else {
        // Both admins at once, opposite decisions: exactly one wins and the other is told it was already decided.
        ask(item, 'approve');
        ask(item, 'reject');
        const [approval, rejection] = await Promise.all([
          decideWithUtr(harness, self, item.kind, item.id, 'approve'),
          decide(harness, other, item.kind, item.id, 'reject'),
        ]);
        expect([approval.statusCode, rejection.statusCode].sort()).toEqual([200, 409]);
        confirm(item, approval.statusCode === 200 ? 'approve' : 'reject');
      }
    }
  };

  const customerActors = run.customers.map((commands, customer) =>
    customerActor(customer, commands).finally(() => {
      customersRunning -= 1;
      notifyAdmins();
    }),
  );
  // Every actor finishes before the run ends, even when one fails: an actor left running would debit or decide after
  // the next run read its starting balances, and fast-check's shrinking would then report that as the counterexample.
  const outcomes = await Promise.allSettled([
    ...customerActors,
    adminActor(admin, secondAdmin, run.admins[0]!),
    adminActor(secondAdmin, admin, run.admins[1]!),
  ]);

  // Reject what is still pending, so runs do not pile up waiting deposits (customers may have only 20).
  for (const item of pending.splice(0)) {
    expectStatus(await decide(harness, admin, item.kind, item.id, 'reject'), 200);
    confirm(item, 'reject');
  }
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;

  const report = await checkLedger(harness.database.handle.db);
  expect(report.ok, formatLedgerReport(report)).toBe(true);
  const actual = await Promise.all(customers.map(({ user }) => balanceMicros(harness, user.id)));
  const expected = initial.map((balance, customer) => balance + (confirmedCredits[customer] as bigint) - (acceptedDebits[customer] as bigint));
  expect(actual).toEqual(expected);
  for (const balance of actual) expect(balance >= 0n).toBe(true);

  // Conservation: customers together gained what approved deposits and their referral rewards brought in and lost
  // what approved withdrawals paid out; transfers and refunds only move money between them.
  let broughtIn = 0n;
  let paidOut = 0n;
  for (const { item, decision } of decided.values()) {
    if (item.kind === 'deposits' && decision === 'approve') broughtIn += creditsOf(item, decision).reduce((sum, credit) => sum + credit.amountUsdtMicros, 0n);
    if (item.kind === 'withdrawals' && decision === 'approve') paidOut += item.amountUsdtMicros;
  }
  const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
  expect(sum(actual)).toBe(sum(initial) + broughtIn - paidOut);

  // Every accepted request is stored, decided as the model recorded.
  for (const kind of ['deposits', 'withdrawals', 'transfers'] as const) {
    const ids = [...decided.values()].filter(({ item }) => item.kind === kind).map(({ item }) => item.id);
    if (ids.length === 0) continue;
    const stored = await harness.database.handle.db.execute<{ id: string; status: string }>(
      sql`select id, status from ${sql.identifier(STORED_REQUESTS[kind])} where id in ${sql`(${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`}`,
    );
    const statusById = new Map(stored.rows.map((row) => [row.id, row.status]));
    for (const id of ids) expect(statusById.get(id), `${kind} ${id}`).toBe(decided.get(id)?.decision === 'approve' ? 'approved' : 'rejected');
  }
}

describe('money properties under concurrency', () => {
  it(
    'keeps the ledger consistent and balances within the model for interleaved sequences of three customers and two admins',
    { timeout: 300_000 },
    async () => {
      await fc.assert(fc.asyncProperty(interleavedRun, runInterleaved), { numRuns: 30 });
    },
  );
});
