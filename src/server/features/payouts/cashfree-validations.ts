import { z } from 'zod';
import type { KycProviderConfig } from '../../env.ts';
import { cashfreeBeneficiaryName } from './cashfree-client.ts';
import { PayoutProviderError } from './provider.ts';
import type { AccountValidationFacts, AccountValidationProvider, VpaValidationRequest } from './razorpayx-validations.ts';

/*
 * Cashfree's Bank Account Verification V2 as documented (docs/decisions/062 names the pages), the penny drop of
 * PAYOUT_PROVIDER=cashfree: POST {KYC_API_URL}/verification/bank-account/sync with the Verification API's headers
 * x-client-id and x-client-secret and the body { bank_account, ifsc, name }. It answers in the request with
 * reference_id, account_status (VALID or INVALID), account_status_code, name_at_bank and Cashfree's own
 * name_match_result; GET /verification/bank-account?reference_id= answers the same later. The registered name is
 * judged by our one name rule, as RazorpayX's is (decision 054); Cashfree's verdict is not used.
 *
 * A payee's UPI id is checked by the same API's UPI Verification V2 (decision 068): POST /verification/upi with
 * { verification_id, vpa, name }, answered at once with reference_id, status (VALID, INVALID, EXPIRED or
 * NPCI_NAME_INCORRECT) and name_at_bank; GET /verification/upi?verification_id= (or reference_id=) answers the same
 * later. Our validation's id is the verification_id, so a second send after a lost answer is refused with 409 and
 * the first verification is read instead: one UPI id, one verification.
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

const upiAnswerSchema = z.object({
  reference_id: z.union([z.number().int().nonnegative(), z.string().min(1).max(64)]).transform(String),
  status: z.string().min(1).max(40),
  name_at_bank: z.string().max(200).nullish(),
});

/** Cashfree's answer when a verification_id was sent before (UPI Verification V2's 409). */
const DUPLICATE_VERIFICATION_CODE = 'verification_id_already_exists';

/**
 * VALID: the UPI id exists and name_at_bank is its holder's. INVALID or EXPIRED: no payout can reach it. NPCI_NAME_INCORRECT
 * (no usable name) or any other status: nothing was confirmed, so the check failed and a person decides.
 */
function upiFactsOf(answer: z.infer<typeof upiAnswerSchema>): AccountValidationFacts {
  const status = answer.status.toUpperCase();
  const accountStatus = status === 'VALID' ? 'active' : status === 'INVALID' || status === 'EXPIRED' ? 'invalid' : null;
  return {
    providerValidationId: answer.reference_id,
    status: accountStatus === null ? 'failed' : 'completed',
    accountStatus,
    registeredName: accountStatus === 'active' ? answer.name_at_bank?.trim() || null : null,
    details: accountStatus === 'active' ? null : `UPI id ${status}`.slice(0, 480),
  };
}

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
  async function answerOf(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; answer: unknown }> {
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
    return { status: response.status, answer: await response.json().catch(() => undefined) };
  }

  function answerError(method: string, path: string, status: number, answer: unknown): PayoutProviderError {
    const described = errorSchema.safeParse(answer);
    const words = described.success ? (described.data.message ?? described.data.code ?? '') : '';
    const message = `Cashfree answered HTTP ${status} to ${method} ${path.split('?')[0]}${words ? `: ${words}` : ''}`.slice(0, 480);
    return new PayoutProviderError(message, status === 400 || status === 422 ? 'refused' : 'unavailable');
  }

  async function request<Answer>(method: 'GET' | 'POST', path: string, schema: z.ZodType<Answer>, body?: unknown): Promise<Answer> {
    const { status, answer } = await answerOf(method, path, body);
    if (status < 200 || status > 299) throw answerError(method, path, status, answer);
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new PayoutProviderError('Cashfree sent a bank account or UPI verification of unexpected shape', 'unexpected');
    return parsed.data;
  }

  const upiPath = (query: Record<string, string>) => `/verification/upi?${new URLSearchParams(query).toString()}`;

  /** A UPI id's verification; when its verification_id was taken already (an earlier send whose answer was lost), that one. */
  async function verifyVpa(validation: VpaValidationRequest): Promise<AccountValidationFacts> {
    const path = '/verification/upi';
    const body = { verification_id: validation.validationId, vpa: validation.vpa, name: cashfreeBeneficiaryName(validation.holderName) };
    const { status, answer } = await answerOf('POST', path, body);
    if (status === 409 && errorSchema.safeParse(answer).data?.code === DUPLICATE_VERIFICATION_CODE) {
      return upiFactsOf(await request('GET', upiPath({ verification_id: validation.validationId }), upiAnswerSchema));
    }
    if (status < 200 || status > 299) throw answerError('POST', path, status, answer);
    const parsed = upiAnswerSchema.safeParse(answer);
    if (!parsed.success) throw new PayoutProviderError('Cashfree sent a UPI verification of unexpected shape', 'unexpected');
    return upiFactsOf(parsed.data);
  }

  return {
    validate: async (validation) =>
      factsOf(
        await request('POST', '/verification/bank-account/sync', answerSchema, {
          bank_account: validation.accountNumber,
          ifsc: validation.ifsc,
          name: cashfreeBeneficiaryName(validation.holderName),
        }),
      ),
    validateVpa: verifyVpa,
    fetch: async (providerValidationId, target) =>
      target === 'vpa'
        ? upiFactsOf(await request('GET', upiPath({ reference_id: providerValidationId }), upiAnswerSchema))
        : factsOf(await request('GET', `/verification/bank-account?${new URLSearchParams({ reference_id: providerValidationId }).toString()}`, answerSchema)),
    // Cashfree's sync verification answers in the request; no webhook of it is taken.
    verifyWebhook: () => false,
    readWebhook: () => undefined,
  };
}
