import { z } from 'zod';
import type { KycProviderConfig } from '../../env.ts';

/*
 * Cashfree's Verification API, PAN verification (Secure ID, "Verify PAN" sync, API version 2023-12-18):
 * POST {KYC_API_URL}/verification/pan with headers x-client-id and x-client-secret and the body
 * { pan, name }. A 200 answers { pan, type, reference_id, name_provided, registered_name, valid,
 * message, name_match_score, name_match_result, aadhaar_seeding_status ("Y" linked, "N" not linked),
 * pan_status ("VALID", "INVALID", ...), ... }; the Aadhaar seeding status is sent only from API
 * versions after 2022-09-12 (the x-api-version header). tests/fixtures/cashfree-stand-in.ts answers
 * the same from the same documentation.
 */

const API_VERSION = '2023-12-18';
const TIMEOUT_MILLISECONDS = 10_000;
/** A PAN answer is a few hundred bytes; a longer body is not one. */
const MAX_BODY_BYTES = 64 * 1024;

const panAnswerSchema = z.object({
  valid: z.boolean().optional(),
  registered_name: z.string().max(200).nullish(),
  name_match_score: z.union([z.number(), z.string().max(10)]).nullish(),
  aadhaar_seeding_status: z.string().max(10).nullish(),
  pan_status: z.string().max(40).nullish(),
  reference_id: z.union([z.number(), z.string().max(100)]).nullish(),
  type: z.string().max(40).nullish(),
});

export type PanCheckResult =
  | {
      outcome: 'valid';
      registeredName: string;
      providerNameScore: number | null;
      /** False: the PAN is inoperative (not linked to Aadhaar); null: the provider did not say. */
      aadhaarLinked: boolean | null;
      reference: string | null;
    }
  | { outcome: 'invalid'; reference: string | null }
  | { outcome: 'unavailable'; problem: string };

function scoreOf(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const score = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(score) && score >= 0 && score <= 100 ? Math.round(score) : null;
}

function aadhaarLinkedOf(status: string | null | undefined, panStatus: string | null | undefined): boolean | null {
  if (panStatus !== null && panStatus !== undefined && /INOPERATIVE/i.test(panStatus)) return false;
  if (status === 'Y') return true;
  if (status === 'N') return false;
  return null;
}

/** Asks Cashfree about the PAN; never throws: a provider that cannot answer is `unavailable`. */
export async function verifyPanWithCashfree(config: KycProviderConfig, pan: string, name: string): Promise<PanCheckResult> {
  let response: Response;
  try {
    response = await fetch(`${config.apiUrl}/verification/pan`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-client-id': config.clientId,
        'x-client-secret': config.clientSecret,
        'x-api-version': API_VERSION,
      },
      body: JSON.stringify({ pan, name }),
      signal: AbortSignal.timeout(TIMEOUT_MILLISECONDS),
    });
  } catch (error) {
    return { outcome: 'unavailable', problem: error instanceof Error ? error.message : String(error) };
  }
  const text = await response.text().catch(() => '');
  if (text.length > MAX_BODY_BYTES) return { outcome: 'unavailable', problem: `answer of ${text.length} bytes` };
  // 400 and 422 are Cashfree's answers to a PAN it does not accept; anything else is the provider's problem, not the PAN's.
  if (response.status === 400 || response.status === 422) return { outcome: 'invalid', reference: null };
  if (!response.ok) return { outcome: 'unavailable', problem: `HTTP ${response.status}` };
  let parsed: z.infer<typeof panAnswerSchema>;
  try {
    parsed = panAnswerSchema.parse(JSON.parse(text));
  } catch {
    return { outcome: 'unavailable', problem: 'an answer that is not a PAN verification' };
  }
  const reference = parsed.reference_id === null || parsed.reference_id === undefined ? null : String(parsed.reference_id).slice(0, 100);
  const statusValid = parsed.pan_status === null || parsed.pan_status === undefined || !/^INVALID/i.test(parsed.pan_status);
  if (parsed.valid !== true || !statusValid || !parsed.registered_name) return { outcome: 'invalid', reference };
  return {
    outcome: 'valid',
    registeredName: parsed.registered_name.trim().slice(0, 200),
    providerNameScore: scoreOf(parsed.name_match_score),
    aadhaarLinked: aadhaarLinkedOf(parsed.aadhaar_seeding_status, parsed.pan_status),
    reference,
  };
}
