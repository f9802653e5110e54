import { currentLanguage, translate, type MessageKey, type MessageValues } from './i18n.ts';
import { KNOWN_MESSAGE_PATTERNS, KNOWN_MESSAGES } from './known-messages.ts';

const KNOWN: Readonly<Record<string, MessageKey>> = KNOWN_MESSAGES;

/** The money gate's refusal (src/shared/contracts/kyc.ts kycGateMessage), whose list is built of the KYC_MISSING_TEXTS. */
const KYC_GATE = /^(Withdrawals|Transfers to other customers) need KYC level 1\. Still missing: (.+)\. Open the KYC page to finish\.$/;
const KYC_MISSING: Readonly<Record<string, MessageKey>> = {
  'verify your e-mail address': 'kyc.missingEmail',
  'verify your mobile number': 'kyc.missingMobile',
  'get your PAN verified in your name': 'kyc.missingPan',
  'add a photo of your PAN card': 'kyc.missingPanCard',
  'declare your tax residence': 'kyc.missingTaxResidence',
};

/**
 * A message the screen was given as English text (a schema's validation message, the server's
 * refusal or confirmation) in the screen's language: the English text itself in English, its
 * Hindi when it is one of the known messages, and otherwise the text as it came (a rejection
 * reason an admin typed, say). `values` replace what the message carries (a date in the
 * screen's own format instead of the server's English one).
 */
export function localizeMessage(message: string, values?: MessageValues): string {
  if (currentLanguage() === 'en') return message;
  const key = KNOWN[message];
  if (key) return translate(key);
  for (const { pattern, key: patternKey, names } of KNOWN_MESSAGE_PATTERNS) {
    const match = pattern.exec(message);
    if (!match) continue;
    const found = Object.fromEntries(names.map((name, index) => [name, name === 'count' ? Number(match[index + 1]) : (match[index + 1] ?? '')]));
    return translate(patternKey, { ...found, ...values });
  }
  // errorMessage (src/web/lib/api.ts) adds the server's reference for support to a server-side failure.
  const referenced = /^(.+) Reference: (\S+)$/.exec(message);
  if (referenced) return translate('message.withReference', { message: localizeMessage(referenced[1] ?? '', values), reference: referenced[2] ?? '' });
  const gate = KYC_GATE.exec(message);
  if (gate) {
    const items = (gate[2] ?? '').split('; ').map((item) => (KYC_MISSING[item] ? translate(KYC_MISSING[item]) : item));
    return translate(gate[1] === 'Withdrawals' ? 'kyc.gateWithdrawals' : 'kyc.gateTransfers', { missing: items.join('; ') });
  }
  return message;
}
