import { z } from 'zod';
import type { KycProviderConfig } from '../../env.ts';
import { cashfreeBeneficiaryName } from './cashfree-client.ts';
import { PayoutProviderError } from './provider.ts';
import type { AccountValidationFacts, AccountValidationProvider } from './razorpayx-validations.ts';

/*
 * Cashfree's Bank Account Verification V2 as documented (docs/decisions/062 names the pages), the penny drop of
 * PAYOUT_PROVIDER=cashfree: POST {KYC_API_URL}/verification/bank-account/sync with the Verification API's headers
 * x-client-id and x-client-secret and the body { bank_account, ifsc, name }. It answers in the request with
 * reference_id, account_status (VALID or INVALID), account_status_code, name_at_bank and Cashfree's own
 * name_match_result; GET /verification/bank-account?reference_id= answers the same later. The registered name is
 * judged by our one name rule, as RazorpayX's is (decision 054); Cashfree's verdict is not used.
 */

const API_VERSION = '2023-12-18';
const REQUEST_TIMEOUT_MILLISECONDS = 10_000;

const answerSchema = z.object({
  reference_id: z.union([z.number().int().nonnegative(), z.string().min(1).max(64)]).transform(String),
  account_status: z.string().max(40).nullish(),
  account_status_code: z.string().max(100).nullish(),
  name_at_bank: z.string().max(200).nullish(),
});

const errorSchema = z.object({ code: z.string().max(100).optional(), message: z.string().nullish() });

function factsOf(answer: z.infer<typeof answerSchema>): AccountValidationFacts {
  const status = answer.account_status?.toUpperCase();
  const accountStatus = status === 'VALID' ? 'active' : status === 'INVALID' ? 'invalid' : null;
  // RECEIVED or IN_PROCESS: the bank has not answered yet, and the result is asked for again later.
  const pending = status === 'RECEIVED' || status === 'IN_PROCESS' || status === 'PENDING';
  return {
    providerValidationId: answer.reference_id,
    status: pending ? 'created' : accountStatus === null ? 'failed' : 'completed',
    accountStatus,
    registeredName: answer.name_at_bank?.trim() || null,
    details: (answer.account_status_code ?? answer.account_status ?? null)?.slice(0, 480) ?? null,
  };
}

export function createCashfreeValidationClient(config: KycProviderConfig): AccountValidationProvider {
  const headers = { accept: 'application/json', 'x-client-id': config.clientId, 'x-client-secret': config.clientSecret, 'x-api-version': API_VERSION };

  /** A 400 or 422 is a refusal of the details as they are; no answer, another status or a timeout leaves the result unknown. */
  async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<AccountValidationFacts> {
    let response: Response;
    try {
      response = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MILLISECONDS),
      });
    } catch (error) {
      throw new PayoutProviderError(`Cashfree unreachable: ${error instanceof Error ? error.message : String(error)}`, 'unavailable', { cause: error });
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const described = errorSchema.safeParse(answer);
      const words = described.success ? (described.data.message ?? described.data.code ?? '') : '';
      const message = `Cashfree answered HTTP ${response.status} to ${method} ${path.split('?')[0]}${words ? `: ${words}` : ''}`.slice(0, 480);
      throw new PayoutProviderError(message, response.status === 400 || response.status === 422 ? 'refused' : 'unavailable');
    }
    const parsed = answerSchema.safeParse(answer);
    if (!parsed.success) throw new PayoutProviderError('Cashfree sent a bank account verification of unexpected shape', 'unexpected');
    return factsOf(parsed.data);
  }

  return {
    validate: (validation) =>
      request('POST', '/verification/bank-account/sync', {
        bank_account: validation.accountNumber,
        ifsc: validation.ifsc,
        name: cashfreeBeneficiaryName(validation.holderName),
      }),
    fetch: (providerValidationId) => request('GET', `/verification/bank-account?${new URLSearchParams({ reference_id: providerValidationId }).toString()}`),
    // Cashfree's sync verification answers in the request; no webhook of it is taken.
    verifyWebhook: () => false,
    readWebhook: () => undefined,
  };
}
