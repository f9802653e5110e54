import type { Language } from '#shared/contracts/enums';
import { PRODUCT_NAME } from '#shared/limits';
import type { AppContext } from '../../context.ts';
import { paragraphsMessage } from '../../platform/mail/mailer.ts';
import * as users from '../users/service.ts';

export type SecurityChange =
  'pin-reset' | 'pin-changed' | 'password-reset' | 'password-changed' | 'phone-changed' | 'bank-account-added' | 'bank-account-changed';

export const DESCRIPTIONS: Record<SecurityChange, { subject: string; sentence: string }> = {
  'pin-reset': { subject: 'your transaction PIN was reset', sentence: 'The transaction PIN of your account was reset through the link we e-mailed you.' },
  'pin-changed': { subject: 'your transaction PIN was changed', sentence: 'The transaction PIN of your account was changed.' },
  'password-reset': { subject: 'your password was reset', sentence: 'The password of your account was reset through the link we e-mailed you.' },
  'password-changed': {
    subject: 'your password was changed',
    sentence: 'The password of your account was changed, and every other session of it was signed out.',
  },
  'phone-changed': { subject: 'your phone number was changed', sentence: 'The phone number saved in your account was changed.' },
  'bank-account-added': { subject: 'a bank account was added', sentence: 'A bank account was added to your account for withdrawals.' },
  'bank-account-changed': { subject: 'a bank account was changed', sentence: 'A bank account saved in your account for withdrawals was changed.' },
};

/** The same e-mails in Hindi, for customers who chose Hindi (tests/unit/security-mail-texts.test.ts holds both complete). */
export const HINDI_DESCRIPTIONS: Record<SecurityChange, { subject: string; sentence: string }> = {
  'pin-reset': { subject: 'आपका ट्रांज़ैक्शन PIN रीसेट किया गया', sentence: 'आपके खाते का ट्रांज़ैक्शन PIN हमारे ई-मेल किए गए लिंक से रीसेट किया गया।' },
  'pin-changed': { subject: 'आपका ट्रांज़ैक्शन PIN बदला गया', sentence: 'आपके खाते का ट्रांज़ैक्शन PIN बदला गया।' },
  'password-reset': { subject: 'आपका पासवर्ड रीसेट किया गया', sentence: 'आपके खाते का पासवर्ड हमारे ई-मेल किए गए लिंक से रीसेट किया गया।' },
  'password-changed': { subject: 'आपका पासवर्ड बदला गया', sentence: 'आपके खाते का पासवर्ड बदला गया, और उसके बाकी सभी सत्रों से साइन आउट कर दिया गया।' },
  'phone-changed': { subject: 'आपका फ़ोन नंबर बदला गया', sentence: 'आपके खाते में सहेजा गया फ़ोन नंबर बदला गया।' },
  'bank-account-added': { subject: 'एक बैंक खाता जोड़ा गया', sentence: 'निकासी के लिए आपके खाते में एक बैंक खाता जोड़ा गया।' },
  'bank-account-changed': { subject: 'एक बैंक खाता बदला गया', sentence: 'निकासी के लिए आपके खाते में सहेजा गया एक बैंक खाता बदला गया।' },
};

/** The pause and the advice lines of these e-mails in each language. */
export const SECURITY_MAIL_LINES: Record<
  Language,
  { pause: (scope: 'bank-account' | 'account', hours: number) => string; advice: (forgotPasswordUrl: string) => string }
> = {
  en: {
    pause: (scope, hours) =>
      `For your safety, withdrawals${scope === 'bank-account' ? ' to that bank account' : ' and transfers'} are paused for ${hours} hours.`,
    advice: (url) => `If this was not you, reset your password at ${url} at once and contact support.`,
  },
  hi: {
    pause: (scope, hours) => `आपकी सुरक्षा के लिए ${scope === 'bank-account' ? 'उस बैंक खाते में निकासी' : 'निकासी और ट्रांसफ़र'} ${hours} घंटे के लिए रोके गए हैं।`,
    advice: (url) => `अगर यह आपने नहीं किया, तो तुरंत ${url} पर अपना पासवर्ड रीसेट करें और सहायता से संपर्क करें।`,
  },
};

/** A line naming what changed, old and new masked ("Account number: ••••1234 → ••••5678"); the label is written in the reader's language. */
export interface SecurityChangeDetail {
  field: 'accountNumber' | 'ifsc' | 'upiId' | 'accountHolder';
  from: string;
  to: string;
}

export const DETAIL_LABELS: Record<Language, Record<SecurityChangeDetail['field'], string>> = {
  en: { accountNumber: 'Account number', ifsc: 'IFSC', upiId: 'UPI ID', accountHolder: 'Account holder' },
  hi: { accountNumber: 'खाता संख्या', ifsc: 'IFSC', upiId: 'UPI ID', accountHolder: 'खाताधारक' },
};

export function detailLine(language: Language, detail: SecurityChangeDetail): string {
  return `${DETAIL_LABELS[language][detail.field]}: ${detail.from} → ${detail.to}`;
}

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
  details: SecurityChangeDetail[] = [],
): Promise<void> {
  const hours = context.config.securityCoolingOffHours;
  try {
    const recipient = await users.findEmailAndLanguage(context.database.db, userId);
    if (!recipient) return;
    const { subject, sentence } = (recipient.language === 'hi' ? HINDI_DESCRIPTIONS : DESCRIPTIONS)[change];
    const words = SECURITY_MAIL_LINES[recipient.language];
    const pauseNote =
      hours > 0 && change !== 'pin-changed' && change !== 'phone-changed'
        ? words.pause(change.startsWith('bank-account') ? 'bank-account' : 'account', hours)
        : '';
    const advice = words.advice(`${context.config.appOrigin}/forgot-password`);
    const lines = [sentence, ...details.map((detail) => detailLine(recipient.language, detail)), pauseNote, advice].filter((line) => line !== '');
    await context.mailer.send(paragraphsMessage({ to: recipient.email, subject: `${PRODUCT_NAME}: ${subject}`, paragraphs: lines, signature: PRODUCT_NAME }));
  } catch (error) {
    log.error({ userId, change, reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown' }, 'A security notification could not be sent');
  }
}
