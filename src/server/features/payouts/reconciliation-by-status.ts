import { PAYOUT_MESSAGES, RETURNED_PROVIDER_PAYOUT_STATES, type ReconciliationResponse } from '#shared/contracts/payouts';
import { inrPaiseToWire } from '#shared/money';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { PayoutProviderError, type PayoutProvider, type ProviderPayoutFacts } from './provider.ts';
import * as payoutRepository from './repository.ts';
import type { ProviderPayoutRow } from './repository.ts';

/*
 * The day's reconciliation with a provider that lists no transfers by day (Cashfree Payouts V2, decision 062): each
 * payout of ours on its route sent that day is asked of the provider, one request each, on the credentials the
 * payout worker sends with. So one reconciliation is bounded in time and in requests, and one runs at a time.
 */

/** Most payouts one reconciliation asks about, and how many requests are open at once. */
const MAX_STATUS_QUESTIONS = 500;
const STATUS_QUESTIONS_AT_ONCE = 5;
/** The whole reconciliation's time, below the 60 seconds a reverse proxy commonly waits for an answer. */
export const RECONCILIATION_BUDGET_MILLISECONDS = 45_000;
/** After this many answers in a row that are outages (no answer, 5xx, 429), asking more would only add load. */
const MAX_CONSECUTIVE_OUTAGES = 3;

/** Whether a reconciliation by status runs in this process: a second one is refused until it ends. */
let running = false;

type ReconciledRow = Awaited<ReturnType<typeof payoutRepository.listSentBetween>>[number];
type StatusAnswer = { facts: ProviderPayoutFacts } | { absent: true } | { error: string; outage: boolean };
type Difference = ReconciliationResponse['differences'][number];

/** What our records say a payout's state is, in the provider's words. */
export function ourState(row: { payout: ProviderPayoutRow; reversed: boolean }): string {
  if (row.reversed) return 'reversed';
  return row.payout.state;
}

function isReturned(state: string): boolean {
  return (RETURNED_PROVIDER_PAYOUT_STATES as readonly string[]).includes(state);
}

/**
 * Each payout of ours on the provider's route sent in the range is asked of the provider: by its id, or by our
 * reference (Cashfree's transfer_id) when the answer to its send was lost. A difference of amount, state or UTR, a
 * payout the provider cannot tell us about, and one it has no transfer for are reported; nothing changes. A transfer
 * the provider has and we do not know cannot be found this way. A second call while one runs in this process is a 409.
 */
export async function reconcileDayByStatus(
  db: Database,
  provider: PayoutProvider,
  request: { day: string; range: { from: Date; to: Date }; budgetMilliseconds?: number | undefined },
): Promise<ReconciliationResponse> {
  if (running) throw AppError.conflict(PAYOUT_MESSAGES.reconciliationRunning);
  running = true;
  try {
    return await reconcileWithinBudget(db, provider, request.day, request.range, request.budgetMilliseconds ?? RECONCILIATION_BUDGET_MILLISECONDS);
  } finally {
    running = false;
  }
}

async function reconcileWithinBudget(
  db: Database,
  provider: PayoutProvider,
  day: string,
  range: { from: Date; to: Date },
  budgetMilliseconds: number,
): Promise<ReconciliationResponse> {
  const sent = await payoutRepository.listSentBetween(db, range, MAX_STATUS_QUESTIONS + 1, provider.name);
  const rows = sent.slice(0, MAX_STATUS_QUESTIONS);
  const { answers, stoppedBecause } = await askAll(provider, rows, Date.now() + budgetMilliseconds);
  const reasons = [
    ...(sent.length > MAX_STATUS_QUESTIONS ? [`More than ${MAX_STATUS_QUESTIONS} payouts were sent that day; only the first were asked about.`] : []),
    ...(stoppedBecause === undefined ? [] : [`${stoppedBecause} ${rows.length - answers.length} payouts were not asked about.`]),
  ];
  const differences = answers.flatMap((answer, index) => {
    const row = rows[index];
    const difference = row === undefined ? undefined : statusDifference(row, answer);
    return difference === undefined ? [] : [difference];
  });
  return {
    day,
    transactionsRead: answers.filter((answer) => 'facts' in answer).length,
    payoutsCompared: answers.length,
    truncated: reasons.length > 0,
    truncatedReason: reasons.length > 0 ? reasons.join(' ').slice(0, 300) : null,
    differences,
  };
}

/** The answers in the rows' order, until the deadline passes or the provider keeps failing. */
async function askAll(provider: PayoutProvider, rows: ReconciledRow[], deadline: number): Promise<{ answers: StatusAnswer[]; stoppedBecause?: string }> {
  const answers: StatusAnswer[] = [];
  let outagesInARow = 0;
  for (let start = 0; start < rows.length; start += STATUS_QUESTIONS_AT_ONCE) {
    const group = await withinTime(
      Promise.all(rows.slice(start, start + STATUS_QUESTIONS_AT_ONCE).map((row) => askStatus(provider, row))),
      deadline - Date.now(),
    );
    if (group === undefined) return { answers, stoppedBecause: 'The time for one reconciliation ran out while the provider was slow to answer.' };
    for (const answer of group) {
      answers.push(answer);
      outagesInARow = 'error' in answer && answer.outage ? outagesInARow + 1 : 0;
    }
    if (outagesInARow >= MAX_CONSECUTIVE_OUTAGES && answers.length < rows.length)
      return { answers, stoppedBecause: `The provider failed ${outagesInARow} questions in a row (no answer, busy or down), so no more were asked.` };
  }
  return { answers };
}

/**
 * The work's result, or undefined when it takes longer than `milliseconds`. The requests left running end at their
 * own timeout; their answers are not read.
 */
async function withinTime<T>(work: Promise<T>, milliseconds: number): Promise<T | undefined> {
  if (milliseconds <= 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, milliseconds, undefined);
  });
  try {
    return await Promise.race([work, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}

async function askStatus(provider: PayoutProvider, row: ReconciledRow): Promise<StatusAnswer> {
  try {
    if (row.payout.providerPayoutId !== null) return { facts: await provider.fetch(row.payout.providerPayoutId) };
    if (provider.fetchByReference === undefined) return { error: 'The provider cannot be asked about a payout by our reference.', outage: false };
    const facts = await provider.fetchByReference(row.reference);
    return facts === undefined ? { absent: true } : { facts };
  } catch (error) {
    if (!(error instanceof PayoutProviderError)) throw error;
    return { error: error.message.slice(0, 300), outage: error.outage };
  }
}

function statusDifference(row: ReconciledRow, answer: StatusAnswer): Difference | undefined {
  const state = ourState(row);
  const ours = { amountInr: inrPaiseToWire(row.payout.amountInrPaise), state, utr: row.payout.utr };
  const base = { withdrawalId: row.payout.withdrawalId, reference: row.reference, ours, provider: null };
  if ('error' in answer)
    return { ...base, providerPayoutId: row.payout.providerPayoutId, problems: [`The provider could not tell this payout's status: ${answer.error}`] };
  if ('absent' in answer) {
    // A send that was refused and returned leaves nothing at the provider, as it should.
    if (isReturned(row.payout.state)) return undefined;
    return {
      ...base,
      providerPayoutId: null,
      problems: [`The answer to this payout's send was lost, and the provider has no transfer under our reference ${row.reference}.`],
    };
  }
  const { facts } = answer;
  const problems: string[] = [];
  if (row.payout.providerPayoutId === null)
    problems.push(`The answer to this payout's send was lost; the provider has it under our reference as ${facts.providerPayoutId}.`);
  if (facts.amountInrPaise !== row.payout.amountInrPaise) problems.push('The amount differs.');
  if (facts.state !== state) problems.push('The state differs.');
  if (facts.utr !== (row.payout.utr ?? null)) problems.push('The UTR differs.');
  if (problems.length === 0) return undefined;
  return {
    ...base,
    providerPayoutId: facts.providerPayoutId,
    problems,
    provider: { amountInr: inrPaiseToWire(facts.amountInrPaise), state: facts.state, utr: facts.utr },
  };
}
