import { PRODUCT_NAME } from '#shared/limits';
import type { AppContext } from '../../context.ts';
import { escapeHtml } from '../../platform/mail/mailer.ts';
import * as users from '../users/service.ts';

export type SecurityChange = 'pin-reset' | 'pin-changed' | 'password-reset' | 'password-changed' | 'phone-changed' | 'bank-account-added' | 'bank-account-changed';

const DESCRIPTIONS: Record<SecurityChange, { subject: string; sentence: string }> = {
  'pin-reset': { subject: 'your transaction PIN was reset', sentence: 'The transaction PIN of your account was reset through the link we e-mailed you.' },
  'pin-changed': { subject: 'your transaction PIN was changed', sentence: 'The transaction PIN of your account was changed.' },
  'password-reset': { subject: 'your password was reset', sentence: 'The password of your account was reset through the link we e-mailed you.' },
  'password-changed': { subject: 'your password was changed', sentence: 'The password of your account was changed, and every other session of it was signed out.' },
  'phone-changed': { subject: 'your phone number was changed', sentence: 'The phone number saved in your account was changed.' },
  'bank-account-added': { subject: 'a bank account was added', sentence: 'A bank account was added to your account for withdrawals.' },
  'bank-account-changed': { subject: 'a bank account was changed', sentence: 'A bank account saved in your account for withdrawals was changed.' },
};

/**
 * Tells the owner about a change that an intruder would make: if it was not
 * them, they can act (the cooling-off gives them the time). The change is
 * already committed, so a failure to send is logged and not thrown.
 */
export async function notifySecurityChange(
  context: AppContext,
  userId: string,
  change: SecurityChange,
  log: { error(object: object, message: string): void },
  /** Lines naming what changed, old and new masked ("Account number: ••••1234 → ••••5678"). */
  details: string[] = [],
): Promise<void> {
  const { subject, sentence } = DESCRIPTIONS[change];
  const hours = context.config.securityCoolingOffHours;
  const pauseNote =
    hours > 0 && change !== 'pin-changed' && change !== 'phone-changed'
      ? `For your safety, withdrawals${change.startsWith('bank-account') ? ' to that bank account' : ' and transfers'} are paused for ${hours} hours.`
      : '';
  const advice = `If this was not you, reset your password at ${context.config.appOrigin}/forgot-password at once and contact support.`;
  try {
    const email = await users.findEmail(context.database.db, userId);
    if (!email) return;
    const lines = [sentence, ...details, pauseNote, advice].filter((line) => line !== '');
    await context.mailer.send({
      to: email,
      subject: `${PRODUCT_NAME}: ${subject}`,
      text: [...lines, '', `- ${PRODUCT_NAME}`].join('\n'),
      html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p>${PRODUCT_NAME}</p>`,
    });
  } catch (error) {
    log.error({ userId, change, reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown' }, 'A security notification could not be sent');
  }
}
