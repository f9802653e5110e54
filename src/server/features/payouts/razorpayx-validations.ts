import { z } from 'zod';
import type { RazorpayXConfig } from '../../env.ts';
import {
  CONTACT_NAME_MAX,
  createRazorpayXClient,
  createRazorpayXRequest,
  HOLDER_NAME_MAX,
  parsedAnswer,
  parsedWebhook,
  providerName,
} from './razorpayx-client.ts';

/*
 * RazorpayX Fund Account Validation as documented (docs/decisions/054 names the pages): POST
 * /v1/fund_accounts/validations with the business account's number, the payee's fund account inline (a bank
 * account with its contact), `amount` 100 paise (the penny) and `currency` INR; GET
 * /v1/fund_accounts/validations/:id; and the webhooks fund_account.validation.completed and .failed, signed like
 * every RazorpayX webhook (HMAC-SHA256 of the raw body in X-Razorpay-Signature). A UPI id is validated by the same
 * endpoint with a fund account of type vpa. A validation may answer
 * `created` and complete later: the webhook or a later fetch gives its result.
 */

const REQUEST_TIMEOUT_MILLISECONDS = 10_000;
/** The penny: the documented amount of a bank account validation, in paise. */
const VALIDATION_AMOUNT_PAISE = 100;

/** A payee's details as they are sent for validation. */
export interface AccountValidationRequest {
  /** Our validation's id, sent in the notes so that the provider's records name it. */
  validationId: string;
  holderName: string;
  accountNumber: string;
  ifsc: string;
  /** The customer's user id: the contact's reference. */
  customerReference: string;
}

/** A payee's UPI id as it is sent for validation (decision 054, amended): no penny, the UPI id is asked of its bank. */
export interface VpaValidationRequest {
  validationId: string;
  holderName: string;
  vpa: string;
  customerReference: string;
}

/** What the provider says of one validation. */
export interface AccountValidationFacts {
  providerValidationId: string;
  status: 'created' | 'completed' | 'failed';
  /** `active` or `invalid` once completed; null before. */
  accountStatus: 'active' | 'invalid' | null;
  registeredName: string | null;
  /** The provider's words when it failed or the account is invalid. */
  details: string | null;
}

export interface AccountValidationProvider {
  validate(request: AccountValidationRequest): Promise<AccountValidationFacts>;
  /** Absent when the provider validates bank accounts only: a UPI id is then checked by its form alone. */
  validateVpa?(request: VpaValidationRequest): Promise<AccountValidationFacts>;
  /** Asks about a validation sent before; `target` says whether it checked a bank account or a UPI id (Cashfree asks each at its own path). */
  fetch(providerValidationId: string, target: 'bank_account' | 'vpa'): Promise<AccountValidationFacts>;
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): boolean;
  /** A verified webhook's validation, or undefined for another event; throws PayoutProviderError('unexpected') when unreadable. */
  readWebhook(rawBody: Buffer): AccountValidationFacts | undefined;
}

const resultsSchema = z
  .object({
    account_status: z.string().nullish(),
    registered_name: z.string().max(200).nullish(),
    details: z.string().nullish(),
  })
  .nullish();

const validationEntitySchema = z.object({
  id: z.string().min(1).max(64),
  entity: z.literal('fund_account.validation'),
  status: z.enum(['created', 'completed', 'failed']),
  results: resultsSchema,
  // The composite form of the same API names its results validation_results and calls an active account "valid".
  validation_results: resultsSchema,
  status_details: z.object({ reason: z.string().nullish(), description: z.string().nullish() }).nullish(),
});

const webhookSchema = z.object({
  event: z.string().min(1).max(100),
  payload: z.object({ 'fund_account.validation': z.object({ entity: validationEntitySchema }).optional() }).passthrough(),
});

function factsOf(entity: z.infer<typeof validationEntitySchema>): AccountValidationFacts {
  const results = entity.results ?? entity.validation_results;
  const accountStatus =
    results?.account_status === 'active' || results?.account_status === 'valid' ? 'active' : results?.account_status === 'invalid' ? 'invalid' : null;
  return {
    providerValidationId: entity.id,
    status: entity.status,
    accountStatus: entity.status === 'completed' ? accountStatus : null,
    registeredName: results?.registered_name?.trim() || null,
    details: (entity.status_details?.description ?? results?.details ?? entity.status_details?.reason ?? null)?.slice(0, 480) ?? null,
  };
}

export function createRazorpayXValidationClient(config: RazorpayXConfig): AccountValidationProvider {
  // The same account and secret sign payout and validation webhooks alike.
  const payoutClient = createRazorpayXClient(config);
  const send = createRazorpayXRequest(config, REQUEST_TIMEOUT_MILLISECONDS);
  const request = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<AccountValidationFacts> =>
    factsOf(parsedAnswer(validationEntitySchema, await send(method, path, body), 'an account validation'));

  return {
    validate: (validation) =>
      request('POST', '/v1/fund_accounts/validations', {
        account_number: config.accountNumber,
        fund_account: {
          account_type: 'bank_account',
          bank_account: { name: providerName(validation.holderName, HOLDER_NAME_MAX), ifsc: validation.ifsc, account_number: validation.accountNumber },
          contact: { name: providerName(validation.holderName, CONTACT_NAME_MAX), type: 'customer', reference_id: validation.customerReference },
        },
        amount: VALIDATION_AMOUNT_PAISE,
        currency: 'INR',
        notes: { validation_id: validation.validationId },
      }),

    // The same endpoint with a fund account of type vpa, as documented ("Validate a VPA"): its answer carries the same results.
    validateVpa: (validation) =>
      request('POST', '/v1/fund_accounts/validations', {
        account_number: config.accountNumber,
        fund_account: {
          account_type: 'vpa',
          vpa: { address: validation.vpa },
          contact: { name: providerName(validation.holderName, CONTACT_NAME_MAX), type: 'customer', reference_id: validation.customerReference },
        },
        notes: { validation_id: validation.validationId },
      }),

    fetch: (providerValidationId) => request('GET', `/v1/fund_accounts/validations/${encodeURIComponent(providerValidationId)}`),

    verifyWebhook: (rawBody, headers) => payoutClient.verifyWebhook(rawBody, headers),

    readWebhook(rawBody) {
      const event = parsedWebhook(webhookSchema, rawBody);
      const entity = event.payload['fund_account.validation']?.entity;
      return event.event.startsWith('fund_account.validation.') && entity ? factsOf(entity) : undefined;
    },
  };
}
