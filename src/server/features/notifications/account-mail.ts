import type { Language } from '#shared/contracts/enums';
import { PRODUCT_NAME } from '#shared/limits';
import { singleUseLinkMessage, type MailMessage } from '../../platform/mail/mailer.ts';

/*
 * The reset-link e-mails of the password and the transaction PIN, in the customer's language (issue 33): the
 * English is the text these e-mails always had; the Hindi says the same.
 */

type LinkMail = Omit<Parameters<typeof singleUseLinkMessage>[0], 'to' | 'link' | 'lifetimeMinutes' | 'signature'>;

export const RESET_MAIL_TEXTS: Record<'password' | 'pin', Record<Language, (minutes: number) => LinkMail>> = {
  password: {
    en: () => ({
      subject: `${PRODUCT_NAME}: reset your password`,
      request: 'We received a request to reset the password of your account.',
      purpose: 'to choose a new password:',
      linkText: 'Reset your password',
      ifNotAsked: 'If you did not ask for this, ignore this e-mail; your password stays as it is.',
    }),
    hi: (minutes) => ({
      subject: `${PRODUCT_NAME}: अपना पासवर्ड रीसेट करें`,
      request: 'हमें आपके खाते का पासवर्ड रीसेट करने का अनुरोध मिला है।',
      purpose: '',
      opening: `नया पासवर्ड चुनने के लिए यह लिंक ${minutes} मिनट के अंदर खोलें:`,
      linkText: 'अपना पासवर्ड रीसेट करें',
      ifNotAsked: 'अगर आपने यह अनुरोध नहीं किया, तो इस ई-मेल को अनदेखा करें; आपका पासवर्ड जैसा है वैसा ही रहेगा।',
    }),
  },
  pin: {
    en: () => ({
      subject: `${PRODUCT_NAME}: reset your transaction PIN`,
      request: 'We received a request to reset the transaction PIN of your account.',
      purpose: 'to choose a new PIN:',
      linkText: 'Reset your PIN',
      ifNotAsked: 'If you did not ask for this, someone knows your password: change it now (Profile, Change Password). Your PIN stays as it is.',
    }),
    hi: (minutes) => ({
      subject: `${PRODUCT_NAME}: अपना ट्रांज़ैक्शन PIN रीसेट करें`,
      request: 'हमें आपके खाते का ट्रांज़ैक्शन PIN रीसेट करने का अनुरोध मिला है।',
      purpose: '',
      opening: `नया PIN चुनने के लिए यह लिंक ${minutes} मिनट के अंदर खोलें:`,
      linkText: 'अपना PIN रीसेट करें',
      ifNotAsked: 'अगर आपने यह अनुरोध नहीं किया, तो किसी को आपका पासवर्ड पता है: उसे अभी बदलें (प्रोफ़ाइल, पासवर्ड बदलें)। आपका PIN जैसा है वैसा ही रहेगा।',
    }),
  },
};

export function resetLinkMessage(kind: 'password' | 'pin', recipient: { to: string; language: Language }, link: string, lifetimeMinutes: number): MailMessage {
  return singleUseLinkMessage({
    ...RESET_MAIL_TEXTS[kind][recipient.language](lifetimeMinutes),
    to: recipient.to,
    link,
    lifetimeMinutes,
    signature: PRODUCT_NAME,
  });
}
