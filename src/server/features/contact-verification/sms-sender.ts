import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import type { SmsConfig } from '../../env.ts';
import * as repository from './repository.ts';

export interface SmsMessage {
  /** E.164, with the plus. */
  to: string;
  /** The whole text, as Twilio and the outbox carry it. */
  text: string;
  /** The values of the provider template's variables, as MSG91 carries them (its DLT-registered template holds the text). */
  variables: Record<string, string>;
}

const PROVIDER_TIMEOUT_MILLISECONDS = 10_000;

/**
 * Sends one text message through the configured provider (decision 041). Every message is recorded in
 * sms_outbox; its text is kept only when there is no provider, because then the outbox is the phone a
 * developer reads. Answers whether the provider accepted it. Nothing here logs the text or the variables:
 * they carry one-time codes.
 */
export async function sendSms(db: Executor, config: SmsConfig, message: SmsMessage, log: Pick<FastifyBaseLogger, 'info' | 'error'>): Promise<boolean> {
  if (config.provider === 'outbox') {
    const smsId = await repository.insertSms(db, { toNumber: message.to, provider: 'outbox', body: message.text });
    log.info({ smsId }, 'No SMS_PROVIDER is set: the text message was stored in the SMS outbox (npm run admin -- outbox)');
    return true;
  }
  const smsId = await repository.insertSms(db, { toNumber: message.to, provider: config.provider, body: null });
  let outcome: { providerMessageId: string } | { error: string };
  try {
    outcome = config.provider === 'msg91' ? await sendThroughMsg91(config, message) : await sendThroughTwilio(config, message);
  } catch (error) {
    outcome = { error: error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : 'the request failed' };
  }
  await repository.recordSmsOutcome(db, smsId, outcome);
  if ('error' in outcome) {
    log.error({ smsId, provider: config.provider, reason: outcome.error }, 'Sending a text message failed');
    return false;
  }
  return true;
}

/** What a provider's answer body says, read defensively: it may be JSON of any shape, or not JSON at all. */
async function answerBody(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * MSG91's Send SMS (Flow) API: POST /api/v5/flow with the `authkey` header and a JSON body naming the
 * DLT-approved template and, per recipient, the number without the plus and the template's variables.
 * It answers `{"type":"success","message":"<request id>"}`, or `{"type":"error","message":"..."}`.
 */
async function sendThroughMsg91(
  config: Extract<SmsConfig, { provider: 'msg91' }>,
  message: SmsMessage,
): Promise<{ providerMessageId: string } | { error: string }> {
  const response = await fetch(`${config.apiUrl}/api/v5/flow`, {
    method: 'POST',
    headers: { authkey: config.authKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ template_id: config.templateId, short_url: '0', recipients: [{ mobiles: message.to.replace(/^\+/, ''), ...message.variables }] }),
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MILLISECONDS),
  });
  const body = await answerBody(response);
  if (response.ok && body.type === 'success' && typeof body.message === 'string') return { providerMessageId: body.message.slice(0, 100) };
  // The provider's words are not kept: an error text may quote the request.
  return { error: `MSG91 answered HTTP ${response.status}${body.type === 'error' ? ' with an error' : ''}` };
}

/**
 * Twilio's Create a Message: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic
 * authentication with the Account SID and Auth Token, a form-encoded body of To, Body and From (or
 * MessagingServiceSid for an MG... sender). It answers 201 with the Message resource, whose `sid` starts SM.
 */
async function sendThroughTwilio(
  config: Extract<SmsConfig, { provider: 'twilio' }>,
  message: SmsMessage,
): Promise<{ providerMessageId: string } | { error: string }> {
  const form = new URLSearchParams({ To: message.to, Body: message.text });
  form.set(config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', config.from);
  const response = await fetch(`${config.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MILLISECONDS),
  });
  const body = await answerBody(response);
  if (response.status === 201 && typeof body.sid === 'string') return { providerMessageId: body.sid.slice(0, 100) };
  const code = typeof body.code === 'number' ? ` (Twilio error ${body.code})` : '';
  return { error: `Twilio answered HTTP ${response.status}${code}` };
}
