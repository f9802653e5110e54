import { CONTACT_LIMITS } from '#shared/contracts/contact-verification';
import type { Language } from '#shared/contracts/enums';
import { PRODUCT_NAME } from '#shared/limits';
import { type MailMessage, paragraphsMessage, singleUseLinkMessage } from '../../platform/mail/mailer.ts';
import type { LinkMail } from '../notifications/account-mail.ts';

/*
 * The e-mails of the contact checks: the verification link, the change link to a new address, and the notice to the
 * old one, in the customer's profile language (issue 33, decision 055). The English is the text these e-mails always had.
 */

const LINK_LIFETIME_HOURS = CONTACT_LIMITS.emailLinkLifetimeHours;

export const CONTACT_LINK_MAIL_TEXTS: Record<'verify' | 'change', Record<Language, LinkMail>> = {
  verify: {
    en: {
      subject: `${PRODUCT_NAME}: verify your e-mail address`,
      request: `Please confirm that this e-mail address belongs to your ${PRODUCT_NAME} account.`,
      purpose: 'to verify it:',
      linkText: 'Verify your e-mail address',
      ifNotAsked: `If you did not open a ${PRODUCT_NAME} account, ignore this e-mail.`,
    },
    hi: {
      subject: `${PRODUCT_NAME}: अपना ई-मेल पता सत्यापित करें`,
      request: `कृपया पुष्टि करें कि यह ई-मेल पता आपके ${PRODUCT_NAME} खाते का है।`,
      purpose: '',
      opening: `इसे सत्यापित करने के लिए यह लिंक ${LINK_LIFETIME_HOURS * 60} मिनट के अंदर खोलें:`,
      linkText: 'अपना ई-मेल पता सत्यापित करें',
      ifNotAsked: `अगर आपने ${PRODUCT_NAME} खाता नहीं खोला है, तो इस ई-मेल को अनदेखा करें।`,
    },
  },
  change: {
    en: {
      subject: `${PRODUCT_NAME}: confirm your new e-mail address`,
      request: `We received a request to make this the e-mail address of a ${PRODUCT_NAME} account.`,
      purpose: 'to confirm it; the change happens only then:',
      linkText: 'Confirm your new e-mail address',
      ifNotAsked: 'If you did not ask for this, ignore this e-mail; nothing changes.',
    },
    hi: {
      subject: `${PRODUCT_NAME}: अपने नए ई-मेल पते की पुष्टि करें`,
      request: `हमें इस ई-मेल पते को एक ${PRODUCT_NAME} खाते का ई-मेल पता बनाने का अनुरोध मिला है।`,
      purpose: '',
      opening: `इसकी पुष्टि करने के लिए यह लिंक ${LINK_LIFETIME_HOURS * 60} मिनट के अंदर खोलें; बदलाव तभी होगा:`,
      linkText: 'अपने नए ई-मेल पते की पुष्टि करें',
      ifNotAsked: 'अगर आपने यह अनुरोध नहीं किया, तो इस ई-मेल को अनदेखा करें; कुछ नहीं बदलेगा।',
    },
  },
};

function linkMessage(kind: 'verify' | 'change', to: string, language: Language, link: string): MailMessage {
  return singleUseLinkMessage({ ...CONTACT_LINK_MAIL_TEXTS[kind][language], to, link, lifetimeMinutes: LINK_LIFETIME_HOURS * 60, signature: PRODUCT_NAME });
}

export function verificationLinkMessage(to: string, language: Language, link: string): MailMessage {
  return linkMessage('verify', to, language, link);
}

export function changeLinkMessage(to: string, language: Language, link: string): MailMessage {
  return linkMessage('change', to, language, link);
}

/** The notice to the old address, in each language: its subject, its sentence and its advice. */
export const EMAIL_CHANGE_NOTICE_TEXTS: Record<
  Language,
  {
    subject: (stage: 'asked' | 'done') => string;
    sentence: (stage: 'asked' | 'done', newEmail: string) => string;
    advice: (forgotPasswordUrl: string) => string;
  }
> = {
  en: {
    subject: (stage) => (stage === 'asked' ? 'a change of your e-mail address was asked for' : 'your e-mail address was changed'),
    sentence: (stage, newEmail) =>
      stage === 'asked'
        ? `Someone signed in to your account asked to change its e-mail address to ${newEmail}. The change happens only when the link we sent to that address is opened.`
        : `The e-mail address of your account was changed to ${newEmail}. We will write to that address from now on.`,
    advice: (url) => `If this was not you, reset your password at ${url} at once and contact support.`,
  },
  hi: {
    subject: (stage) => (stage === 'asked' ? 'आपका ई-मेल पता बदलने का अनुरोध किया गया' : 'आपका ई-मेल पता बदला गया'),
    sentence: (stage, newEmail) =>
      stage === 'asked'
        ? `आपके खाते में साइन इन किसी व्यक्ति ने उसका ई-मेल पता ${newEmail} करने का अनुरोध किया है। बदलाव तभी होगा जब उस पते पर भेजा गया लिंक खोला जाएगा।`
        : `आपके खाते का ई-मेल पता बदलकर ${newEmail} कर दिया गया है। अब से हम उसी पते पर लिखेंगे।`,
    advice: (url) => `अगर यह आपने नहीं किया, तो तुरंत ${url} पर अपना पासवर्ड रीसेट करें और सहायता से संपर्क करें।`,
  },
};

/** To the old address, when the change is asked for and again when it takes effect: an intruder's change must not go unnoticed. */
export function emailChangeNoticeMessage(options: {
  to: string;
  language: Language;
  newEmail: string;
  stage: 'asked' | 'done';
  appOrigin: string;
}): MailMessage {
  const words = EMAIL_CHANGE_NOTICE_TEXTS[options.language];
  const lines = [words.sentence(options.stage, options.newEmail), words.advice(`${options.appOrigin}/forgot-password`)];
  return paragraphsMessage({ to: options.to, subject: `${PRODUCT_NAME}: ${words.subject(options.stage)}`, paragraphs: lines, signature: PRODUCT_NAME });
}
