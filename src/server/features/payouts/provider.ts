import type { PayoutProviderName, ProviderPayoutState } from '#shared/contracts/payouts';

/*
 * What the app needs of a payout provider (decision 043): send a payout once, tell its state, list the account's
 * transactions for reconciliation, and read its signed webhooks. RazorpayX implements it (razorpayx-client.ts), and
 * so does Cashfree Payouts V2 (cashfree-client.ts, decision 062), whose statuses are mapped onto RazorpayX's states.
 */

export type PayoutMode = 'IMPS' | 'UPI' | 'NEFT';

/** One payout as we ask for it. Built only from the withdrawal's stored fields, so a retry sends the same body. */
export interface PayoutInstruction {
  /** Derived from the withdrawal and never changed: every attempt of one withdrawal carries it. */
  idempotencyKey: string;
  /** Our short reference (RD and 8 letters or digits), RazorpayX's reference_id and Cashfree's transfer_id. */
  reference: string;
  amountInrPaise: bigint;
  mode: PayoutMode;
  payee: { name: string; accountNumber: string; ifsc: string; upiId: string | null };
  /** Who the payee is to us (the customer's user id), the provider contact's reference. */
  customerReference: string;
}

/** A payout as the provider reports it. */
export interface ProviderPayoutFacts {
  providerPayoutId: string;
  state: ProviderPayoutState;
  amountInrPaise: bigint;
  utr: string | null;
  /** The provider's reason code (status_details.reason) and its words (status_details.description). */
  reason: string | null;
  description: string | null;
  /** The reference_id we sent: our withdrawal reference. */
  reference: string | null;
}

/** A payout's debit on the business account, as the transactions list reports it. */
export interface ProviderTransaction {
  providerPayoutId: string;
  amountInrPaise: bigint;
  state: string;
  utr: string | null;
}

/** A verified webhook's payout event. */
export interface ProviderWebhookEvent {
  eventId: string;
  event: string;
  /** Undefined for events that are not about one payout (downtime notices). */
  payout: ProviderPayoutFacts | undefined;
}

/**
 * A failure to talk to the provider. `refused`: the provider answered that it will not make this payout (a
 * validation error): nothing was created. Every other kind leaves the outcome unknown, and the same request
 * is sent again later with the same idempotency key.
 */
export class PayoutProviderError extends Error {
  /** No answer, or the provider's own failure (5xx, 429): asking again at once would likely fail too. */
  readonly outage: boolean;

  constructor(
    message: string,
    readonly kind: 'refused' | 'unavailable' | 'unexpected',
    options?: { cause?: unknown; outage?: boolean },
  ) {
    super(message, options);
    this.outage = options?.outage ?? false;
  }
}

/** Questions to the provider about something without a final state back off to at most this. */
const MAX_BACKOFF_SECONDS = 30 * 60;

/** The wait before the next question to the provider about a payout or an account validation: the poll interval, doubling with each attempt. */
export function providerBackoffSeconds(pollSeconds: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, pollSeconds * 2 ** Math.min(attempts, 12));
}

export interface PayoutProvider {
  /** Also the route of the withdrawals handed to it: a process works only on its own provider's payouts. */
  readonly name: PayoutProviderName;
  send(instruction: PayoutInstruction): Promise<ProviderPayoutFacts>;
  fetch(providerPayoutId: string): Promise<ProviderPayoutFacts>;
  /** The payout the provider has under our reference, undefined when it has none; absent where it cannot be asked so (RazorpayX). */
  fetchByReference?(reference: string): Promise<ProviderPayoutFacts | undefined>;
  /** The business account's transactions in [from, to), at most `limit`; absent where the provider lists none (Cashfree: each payout's status is asked instead, decision 062). */
  listTransactions?(range: { from: Date; to: Date }, limit: number): Promise<{ transactions: ProviderTransaction[]; truncated: boolean }>;
  /** Whether the body was signed with our webhook secret; compared in constant time. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): boolean;
  /** Reads a verified webhook; throws PayoutProviderError('unexpected') when it cannot. */
  readWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderWebhookEvent;
}
