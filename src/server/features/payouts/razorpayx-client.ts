import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { providerPayoutStateSchema } from '#shared/contracts/payouts';
import type { RazorpayXConfig } from '../../env.ts';
import { PayoutProviderError, type PayoutInstruction, type PayoutProvider, type ProviderPayoutFacts, type ProviderTransaction } from './provider.ts';

const REQUEST_TIMEOUT_MILLISECONDS = 15_000;
/** The transactions API gives at most 100 a page (count), paged with skip. */
const TRANSACTIONS_PAGE = 100;
/** Longest name RazorpayX takes for a contact (50) and a bank account holder (120). */
export const CONTACT_NAME_MAX = 50;
export const HOLDER_NAME_MAX = 120;
const NARRATION_PREFIX = 'Rupeedesk';

const statusDetailsSchema = z.object({ reason: z.string().nullish(), description: z.string().nullish() }).nullish();

const payoutEntitySchema = z.object({
  id: z.string().min(1).max(64),
  entity: z.literal('payout'),
  amount: z.number().int().nonnegative(),
  status: providerPayoutStateSchema,
  utr: z.string().max(64).nullish(),
  reference_id: z.string().max(40).nullish(),
  status_details: statusDetailsSchema,
  failure_reason: z.string().nullish(),
});

const errorSchema = z.object({ error: z.object({ code: z.string().optional(), description: z.string().nullish() }) });

const transactionsSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      debit: z.number().int().nonnegative().optional(),
      amount: z.number().int().nonnegative(),
      source: z
        .object({
          id: z.string(),
          entity: z.string(),
          amount: z.number().int().nonnegative().optional(),
          status: z.string().nullish(),
          utr: z.string().nullish(),
        })
        .nullish(),
    }),
  ),
});

const webhookSchema = z.object({
  event: z.string().min(1).max(100),
  payload: z.object({ payout: z.object({ entity: payoutEntitySchema }).optional() }).passthrough(),
});

function factsOf(entity: z.infer<typeof payoutEntitySchema>): ProviderPayoutFacts {
  return {
    providerPayoutId: entity.id,
    state: entity.status,
    amountInrPaise: BigInt(entity.amount),
    utr: entity.utr ? entity.utr.toUpperCase() : null,
    reason: entity.status_details?.reason ?? null,
    description: entity.status_details?.description ?? entity.failure_reason ?? null,
    reference: entity.reference_id ?? null,
  };
}

/** RazorpayX takes letters, digits, spaces and ’-_/(). in names; anything else becomes a space. */
export function providerName(name: string, max: number): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9 '’\-_/().]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.slice(0, max).trim();
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * An authenticated JSON request to RazorpayX, answering the body of a 2xx. A 400 or 422 is a refusal (nothing was
 * made); no answer, another status or a timeout leaves the outcome unknown (PayoutProviderError 'unavailable').
 */
export function createRazorpayXRequest(config: RazorpayXConfig, timeoutMilliseconds: number) {
  const authorization = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`;
  return async function request(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: { accept: 'application/json', authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMilliseconds),
      });
    } catch (error) {
      throw new PayoutProviderError(`RazorpayX unreachable: ${error instanceof Error ? error.message : String(error)}`, 'unavailable', { cause: error });
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (response.ok) return answer;
    const described = errorSchema.safeParse(answer);
    const description = described.success ? (described.data.error.description ?? described.data.error.code ?? '') : '';
    const message = `RazorpayX answered HTTP ${response.status} to ${method} ${path.split('?')[0]}${description ? `: ${description}` : ''}`;
    // 400: the request was refused as it is (no payout was made); 401/403, 429 and 5xx may pass on a later try.
    throw new PayoutProviderError(message.slice(0, 480), response.status === 400 || response.status === 422 ? 'refused' : 'unavailable');
  };
}

/** A RazorpayX answer read by its schema; PayoutProviderError 'unexpected' when it does not fit. */
export function parsedAnswer<Schema extends z.ZodType>(schema: Schema, answer: unknown, what: string): z.output<Schema> {
  const result = schema.safeParse(answer);
  if (!result.success) throw new PayoutProviderError(`RazorpayX sent ${what} of unexpected shape`, 'unexpected');
  return result.data;
}

/** A RazorpayX webhook's raw body read as JSON by its schema; PayoutProviderError 'unexpected' when it is not JSON or does not fit. */
export function parsedWebhook<Schema extends z.ZodType>(schema: Schema, rawBody: Buffer): z.output<Schema> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch (error) {
    throw new PayoutProviderError('RazorpayX webhook body is not JSON', 'unexpected', { cause: error });
  }
  return parsedAnswer(schema, body, 'a webhook');
}

/** The composite POST /v1/payouts body: the payee's fund account inline (a bank account, or a VPA for UPI). */
function payoutBody(config: RazorpayXConfig, instruction: PayoutInstruction) {
  const holder = providerName(instruction.payee.name, HOLDER_NAME_MAX);
  const fundAccount =
    instruction.mode === 'UPI' && instruction.payee.upiId !== null
      ? { account_type: 'vpa', vpa: { address: instruction.payee.upiId } }
      : { account_type: 'bank_account', bank_account: { name: holder, ifsc: instruction.payee.ifsc, account_number: instruction.payee.accountNumber } };
  const amountPaise = Number(instruction.amountInrPaise);
  // A withdrawal's paise are far below 2^53; a bigger number would be a bug, never a payout sent rounded.
  assert(Number.isSafeInteger(amountPaise) && amountPaise > 0, `payout amount ${instruction.amountInrPaise} paise is not a positive safe integer`);
  return {
    account_number: config.accountNumber,
    amount: amountPaise,
    currency: 'INR',
    mode: instruction.mode,
    purpose: 'payout',
    fund_account: {
      ...fundAccount,
      contact: { name: providerName(instruction.payee.name, CONTACT_NAME_MAX), type: 'customer', reference_id: instruction.customerReference },
    },
    // A payout waits for funds rather than failing when the business account runs low.
    queue_if_low_balance: true,
    reference_id: instruction.reference,
    narration: `${NARRATION_PREFIX} ${instruction.reference}`,
  };
}

/** GET /v1/transactions for the business account in `range`, a page at a time, keeping the payouts' rows. */
async function listPayoutTransactions(
  config: RazorpayXConfig,
  request: ReturnType<typeof createRazorpayXRequest>,
  range: { from: Date; to: Date },
  limit: number,
): Promise<{ transactions: ProviderTransaction[]; truncated: boolean }> {
  const transactions: ProviderTransaction[] = [];
  for (let skip = 0; skip < limit; skip += TRANSACTIONS_PAGE) {
    const query = new URLSearchParams({
      account_number: config.accountNumber,
      from: String(Math.floor(range.from.getTime() / 1000)),
      to: String(Math.floor(range.to.getTime() / 1000) - 1),
      count: String(Math.min(TRANSACTIONS_PAGE, limit - skip)),
      skip: String(skip),
    });
    const page = parsedAnswer(transactionsSchema, await request('GET', `/v1/transactions?${query.toString()}`), 'a transactions page');
    for (const item of page.items) {
      if (item.source?.entity !== 'payout') continue;
      transactions.push({
        providerPayoutId: item.source.id,
        amountInrPaise: BigInt(item.source.amount ?? item.amount),
        state: item.source.status ?? 'unknown',
        utr: item.source.utr ? item.source.utr.toUpperCase() : null,
      });
    }
    if (page.items.length < Math.min(TRANSACTIONS_PAGE, limit - skip)) return { transactions, truncated: false };
  }
  return { transactions, truncated: true };
}

/**
 * RazorpayX Payouts as documented (docs/decisions/043 names the pages): the composite POST /v1/payouts with the
 * payee's fund account inline (a bank account, or a VPA for UPI), HTTP basic auth with the key id and secret, and
 * X-Payout-Idempotency; GET /v1/payouts/:id; GET /v1/transactions; webhooks signed with HMAC-SHA256 of the raw body.
 */
export function createRazorpayXClient(config: RazorpayXConfig): PayoutProvider {
  const request = createRazorpayXRequest(config, REQUEST_TIMEOUT_MILLISECONDS);

  return {
    name: 'razorpayx',

    async send(instruction) {
      const answer = await request('POST', '/v1/payouts', payoutBody(config, instruction), { 'X-Payout-Idempotency': instruction.idempotencyKey });
      return factsOf(parsedAnswer(payoutEntitySchema, answer, 'a payout'));
    },

    async fetch(providerPayoutId) {
      const answer = await request('GET', `/v1/payouts/${encodeURIComponent(providerPayoutId)}`);
      return factsOf(parsedAnswer(payoutEntitySchema, answer, 'a payout'));
    },

    listTransactions: (range, limit) => listPayoutTransactions(config, request, range, limit),

    verifyWebhook(rawBody, headers) {
      const signature = headerValue(headers, 'x-razorpay-signature');
      if (signature === undefined || !/^[0-9a-f]{64}$/i.test(signature)) return false;
      const expected = createHmac('sha256', config.webhookSecret).update(rawBody).digest();
      return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
    },

    readWebhook(rawBody, headers) {
      const eventId = headerValue(headers, 'x-razorpay-event-id');
      if (eventId === undefined || eventId.length === 0 || eventId.length > 100)
        throw new PayoutProviderError('RazorpayX webhook without an event id', 'unexpected');
      const event = parsedWebhook(webhookSchema, rawBody);
      const entity = event.payload.payout?.entity;
      return { eventId, event: event.event, payout: event.event.startsWith('payout.') && entity ? factsOf(entity) : undefined };
    },
  };
}
