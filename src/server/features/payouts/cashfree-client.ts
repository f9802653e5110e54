import assert from 'node:assert/strict';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ProviderPayoutState } from '#shared/contracts/payouts';
import { inrPaiseToWire, parseInrPaise } from '#shared/money';
import type { CashfreePayoutsConfig } from '../../env.ts';
import { PayoutProviderError, type PayoutInstruction, type PayoutProvider, type ProviderPayoutFacts } from './provider.ts';

/*
 * Cashfree Payouts V2 as documented (docs/decisions/062 names the pages): POST /payout/transfers (Standard Transfer
 * V2) with the payee inline in beneficiary_details, GET /payout/transfers?transfer_id= or ?cf_transfer_id= (Get
 * Transfer Status V2), the headers x-client-id, x-client-secret and x-api-version, and V2 webhooks signed with
 * HMAC-SHA256 (base64) of x-webhook-timestamp followed by the raw body, keyed with the client secret.
 */

const REQUEST_TIMEOUT_MILLISECONDS = 15_000;
/** The API version every request names (x-api-version). */
export const CASHFREE_API_VERSION = '2024-01-01';
/** Cashfree takes a beneficiary name of letters and spaces, at most 100 characters. */
const BENEFICIARY_NAME_MAX = 100;
const REMARKS_PREFIX = 'Rupeedesk';

/**
 * Cashfree's transfer statuses on the states the app keeps (RazorpayX's words, decision 043): accepted and waiting
 * is queued, waiting for an approver is pending, at the bank is processing, and the final ones map one to one.
 */
const STATUS_STATES: Record<string, ProviderPayoutState> = {
  RECEIVED: 'queued',
  QUEUED: 'queued',
  SCHEDULED: 'queued',
  APPROVAL_PENDING: 'pending',
  PENDING: 'processing',
  SUCCESS: 'processed',
  FAILED: 'failed',
  REJECTED: 'rejected',
  MANUALLY_REJECTED: 'rejected',
  REVERSED: 'reversed',
};

const transferSchema = z.object({
  transfer_id: z.string().min(1).max(40),
  // Documented as a string; a number is taken too, as the same id.
  cf_transfer_id: z.union([z.string().min(1).max(64), z.number().int().nonnegative()]).transform(String),
  status: z.string().min(1).max(40),
  status_code: z.string().max(100).nullish(),
  status_description: z.string().nullish(),
  transfer_amount: z.number().nonnegative(),
  transfer_utr: z.string().max(64).nullish(),
});

const errorSchema = z.object({ code: z.string().max(100).optional(), message: z.string().nullish(), type: z.string().optional() });

const webhookSchema = z.object({
  type: z.string().min(1).max(60),
  data: z.unknown().optional(),
});

/** Cashfree's rupees (a JSON number) read as paise through the money module, from the number's shortest text: never multiplied as a float. */
function paiseOf(transferAmount: number): bigint {
  const parsed = parseInrPaise(String(transferAmount));
  if (!parsed.ok) throw new PayoutProviderError(`Cashfree sent a transfer amount that is not rupees and paise (${parsed.reason})`, 'unexpected');
  return parsed.value;
}

function factsOf(transfer: z.infer<typeof transferSchema>): ProviderPayoutFacts {
  const state = STATUS_STATES[transfer.status.toUpperCase()];
  if (state === undefined) throw new PayoutProviderError(`Cashfree sent an unknown transfer status ${transfer.status.slice(0, 40)}`, 'unexpected');
  const utr = transfer.transfer_utr?.trim();
  return {
    providerPayoutId: transfer.cf_transfer_id,
    state,
    amountInrPaise: paiseOf(transfer.transfer_amount),
    utr: utr ? utr.toUpperCase() : null,
    reason: transfer.status_code ?? transfer.status,
    description: transfer.status_description ?? null,
    reference: transfer.transfer_id,
  };
}

function parsedTransfer(answer: unknown, what: string): ProviderPayoutFacts {
  const result = transferSchema.safeParse(answer);
  if (!result.success) throw new PayoutProviderError(`Cashfree sent ${what} of unexpected shape`, 'unexpected');
  return factsOf(result.data);
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Cashfree takes letters and spaces in a beneficiary name; anything else becomes a space. */
export function cashfreeBeneficiaryName(name: string): string {
  return name
    .replace(/[^A-Za-z ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, BENEFICIARY_NAME_MAX)
    .trim();
}

/** An answer of Cashfree's that is not 2xx, with its HTTP status and error code kept for the caller to judge. */
class CashfreeAnswerError extends PayoutProviderError {
  constructor(
    message: string,
    kind: PayoutProviderError['kind'],
    readonly httpStatus: number,
    readonly code: string | undefined,
  ) {
    super(message, kind, { outage: httpStatus >= 500 || httpStatus === 429 });
  }
}

/**
 * An authenticated JSON request to Cashfree Payouts, answering the body of a 2xx. A 400, 409 or 422 is a refusal of
 * the request as it is; no answer, another status or a timeout leaves the outcome unknown ('unavailable').
 */
function createCashfreeRequest(config: CashfreePayoutsConfig) {
  const headers = { accept: 'application/json', 'x-client-id': config.clientId, 'x-client-secret': config.clientSecret, 'x-api-version': CASHFREE_API_VERSION };
  /** `jsonBody` is JSON text, written by the caller (the transfer's amount is a number literal made from paise, decision 067). */
  return async function request(method: 'GET' | 'POST', path: string, jsonBody?: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: { ...headers, ...(jsonBody === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(jsonBody === undefined ? {} : { body: jsonBody }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MILLISECONDS),
      });
    } catch (error) {
      throw new PayoutProviderError(`Cashfree unreachable: ${error instanceof Error ? error.message : String(error)}`, 'unavailable', {
        cause: error,
        outage: true,
      });
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (response.ok) return answer;
    const described = errorSchema.safeParse(answer);
    const code = described.success ? described.data.code : undefined;
    const words = described.success ? (described.data.message ?? code ?? '') : '';
    const message = `Cashfree answered HTTP ${response.status} to ${method} ${path.split('?')[0]}${words ? `: ${words}` : ''}`.slice(0, 480);
    const refused = response.status === 400 || response.status === 409 || response.status === 422;
    throw new CashfreeAnswerError(message, refused ? 'refused' : 'unavailable', response.status, code);
  };
}

/**
 * The Standard Transfer V2 body as JSON text: the payee inline (a bank account and IFSC, or a VPA for UPI), and the
 * amount in rupees as a JSON number written from the integer paise digit by digit (12345 paise is `123.45`), so no
 * float ever stands between our paise and Cashfree's amount (decision 067).
 */
export function cashfreeTransferJson(instruction: PayoutInstruction): string {
  assert(instruction.amountInrPaise > 0n, `payout amount ${instruction.amountInrPaise} paise is not positive`);
  const rest = JSON.stringify(transferFields(instruction));
  return `{"transfer_amount":${inrPaiseToWire(instruction.amountInrPaise)},${rest.slice(1)}`;
}

/** Every field of the transfer but its amount. */
function transferFields(instruction: PayoutInstruction) {
  const upi = instruction.mode === 'UPI' && instruction.payee.upiId !== null;
  return {
    transfer_id: instruction.reference,
    transfer_currency: 'INR',
    transfer_mode: upi ? 'upi' : instruction.mode.toLowerCase(),
    beneficiary_details: {
      beneficiary_name: cashfreeBeneficiaryName(instruction.payee.name),
      beneficiary_instrument_details: upi
        ? { vpa: instruction.payee.upiId }
        : { bank_account_number: instruction.payee.accountNumber, bank_ifsc: instruction.payee.ifsc },
    },
    transfer_remarks: `${REMARKS_PREFIX} ${instruction.reference}`,
  };
}

/**
 * A refusal that may be Cashfree's answer to a transfer_id it already has: a duplicate says so in its code or its
 * status (409). Such a refusal is never taken as "nothing was made".
 */
function isDuplicateRefusal(error: CashfreeAnswerError): boolean {
  return error.httpStatus === 409 || /already|exist|duplicate/i.test(error.code ?? '');
}

/**
 * The dedupe key of a transfer event: Cashfree sends no event id, so the event, the transfer, its status and its UTR
 * stand for one (a SUCCESS that first came without its UTR and then with it is two events).
 */
function webhookEventId(type: string, facts: ProviderPayoutFacts | undefined, rawBody: Buffer): string {
  const key = facts
    ? `${type}:${facts.providerPayoutId}:${facts.reason ?? ''}:${facts.state}:${facts.utr ?? ''}`
    : `${type}:${createHash('sha256').update(rawBody).digest('hex')}`;
  return key.length <= 100 ? key : `${type.slice(0, 30)}:${createHash('sha256').update(key).digest('hex')}`;
}

export function createCashfreeClient(config: CashfreePayoutsConfig): PayoutProvider {
  const request = createCashfreeRequest(config);

  /** The transfer Cashfree has under our transfer_id; undefined when it has none (404). */
  async function findByTransferId(transferId: string): Promise<ProviderPayoutFacts | undefined> {
    try {
      return parsedTransfer(await request('GET', `/payout/transfers?${new URLSearchParams({ transfer_id: transferId }).toString()}`), 'a transfer');
    } catch (error) {
      if (error instanceof CashfreeAnswerError && error.httpStatus === 404) return undefined;
      throw error;
    }
  }

  return {
    name: 'cashfree',

    async send(instruction) {
      try {
        return parsedTransfer(await request('POST', '/payout/transfers', cashfreeTransferJson(instruction)), 'a transfer');
      } catch (error) {
        if (!(error instanceof CashfreeAnswerError) || error.kind !== 'refused') throw error;
        // Our transfer_id is the idempotency key: a retry after a lost answer is refused as a duplicate, and the
        // transfer the first attempt made is the answer. Any refusal is checked so, as a refund must never follow a made transfer.
        const existing = await findByTransferId(instruction.reference);
        if (existing) return existing;
        if (isDuplicateRefusal(error)) throw new PayoutProviderError(`${error.message} (the transfer is not yet listed)`, 'unavailable');
        throw error;
      }
    },

    async fetch(providerPayoutId) {
      const query = new URLSearchParams({ cf_transfer_id: providerPayoutId }).toString();
      return parsedTransfer(await request('GET', `/payout/transfers?${query}`), 'a transfer');
    },

    fetchByReference: findByTransferId,

    verifyWebhook(rawBody, headers) {
      const signature = headerValue(headers, 'x-webhook-signature');
      const timestamp = headerValue(headers, 'x-webhook-timestamp');
      if (signature === undefined || timestamp === undefined || !/^[\x21-\x7e]{1,40}$/.test(timestamp)) return false;
      if (!/^[A-Za-z0-9+/]{43}=$/.test(signature)) return false;
      const expected = createHmac('sha256', config.clientSecret).update(timestamp).update(rawBody).digest();
      return timingSafeEqual(expected, Buffer.from(signature, 'base64'));
    },

    readWebhook(rawBody) {
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch (error) {
        throw new PayoutProviderError('Cashfree webhook body is not JSON', 'unexpected', { cause: error });
      }
      const event = webhookSchema.safeParse(body);
      if (!event.success) throw new PayoutProviderError('Cashfree sent a webhook of unexpected shape', 'unexpected');
      // Transfer events carry the transfer; others (low balance, credit confirmation, incidents) are about no payout.
      const payout = /^TRANSFER_/.test(event.data.type) ? parsedTransfer(event.data.data, 'a transfer webhook') : undefined;
      return { eventId: webhookEventId(event.data.type, payout, rawBody), event: event.data.type, payout };
    },
  };
}
