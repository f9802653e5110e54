import type { Language } from '#shared/contracts/enums';
import { PRODUCT_NAME } from '#shared/limits';
import { escapeHtml, paragraphsMessage, singleUseLinkMessage, type MailMessage } from '../../platform/mail/mailer.ts';

/*
 * The reset-link e-mails of the password and the transaction PIN, in the customer's language (issue 33): the
 * English is the text these e-mails always had; the Hindi says the same.
 */

/** A single-use link e-mail's words in one language; the recipient, the link and its lifetime come with each mail. */
export type LinkMail = Omit<Parameters<typeof singleUseLinkMessage>[0], 'to' | 'link' | 'lifetimeMinutes' | 'signature'>;

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

/** The wallet-added e-mail's lines in each language: an intruder's wallet must not go unnoticed. */
export const WALLET_ADDED_MAIL_TEXTS: Record<Language, { subject: string; added: (network: string) => string; credit: string; ifNotYou: string }> = {
  en: {
    subject: `${PRODUCT_NAME}: a wallet was added to your account`,
    added: (network) => `A ${network} wallet was added to your ${PRODUCT_NAME} account:`,
    credit: 'USDT sent from this wallet to our deposit address will be credited to your account automatically.',
    ifNotYou: 'If you did not add it, remove it under My wallets and change your password at once.',
  },
  hi: {
    subject: `${PRODUCT_NAME}: आपके खाते में एक वॉलेट जोड़ा गया`,
    added: (network) => `आपके ${PRODUCT_NAME} खाते में एक ${network} वॉलेट जोड़ा गया:`,
    credit: 'इस वॉलेट से हमारे जमा पते पर भेजे गए USDT आपके खाते में अपने-आप जमा हो जाएँगे।',
    ifNotYou: 'अगर आपने इसे नहीं जोड़ा, तो इसे "मेरे वॉलेट" में हटाएँ और तुरंत अपना पासवर्ड बदलें।',
  },
};

export function walletAddedMessage(recipient: { to: string; language: Language }, wallet: { network: string; address: string }): MailMessage {
  const words = WALLET_ADDED_MAIL_TEXTS[recipient.language];
  return {
    to: recipient.to,
    subject: words.subject,
    text: [words.added(wallet.network), wallet.address, '', words.credit, words.ifNotYou, '', `- ${PRODUCT_NAME}`].join('\n'),
    html: `<p>${escapeHtml(words.added(wallet.network))}</p><p><code>${escapeHtml(wallet.address)}</code></p><p>${escapeHtml(words.credit)}</p><p>${escapeHtml(words.ifNotYou)}</p><p>${PRODUCT_NAME}</p>`,
  };
}

/** The e-mail that confirms a closed account (decision 060): an intruder who closes it must not go unnoticed either. */
export const ACCOUNT_CLOSED_MAIL_TEXTS: Record<Language, { subject: string; closed: string; kept: (years: number) => string; ifNotYou: string }> = {
  en: {
    subject: `${PRODUCT_NAME}: your account is closed`,
    closed: `Your ${PRODUCT_NAME} account was closed at your request, and you can no longer sign in to it.`,
    kept: (years) => `As the law requires, we keep your KYC records and documents for ${years} years after closing.`,
    ifNotYou: 'If you did not close it, contact support at once.',
  },
  hi: {
    subject: `${PRODUCT_NAME}: आपका खाता बंद कर दिया गया है`,
    closed: `आपके अनुरोध पर आपका ${PRODUCT_NAME} खाता बंद कर दिया गया है, और अब आप उसमें साइन इन नहीं कर सकते।`,
    kept: (years) => `क़ानून के अनुसार, हम आपके KYC रिकॉर्ड और दस्तावेज़ खाता बंद होने के बाद ${years} साल तक रखते हैं।`,
    ifNotYou: 'अगर आपने इसे बंद नहीं किया, तो तुरंत सहायता से संपर्क करें।',
  },
};

export function accountClosedMessage(recipient: { to: string; language: Language }, retentionYears: number): MailMessage {
  const words = ACCOUNT_CLOSED_MAIL_TEXTS[recipient.language];
  const lines = [words.closed, words.kept(retentionYears), words.ifNotYou];
  return paragraphsMessage({ to: recipient.to, subject: words.subject, paragraphs: lines, signature: PRODUCT_NAME });
}

/** The e-mail that tells the owner an admin reopened the closed account (decision 060). */
export const ACCOUNT_REOPENED_MAIL_TEXTS: Record<Language, { subject: string; reopened: string; signIn: string; ifUnexpected: string }> = {
  en: {
    subject: `${PRODUCT_NAME}: your account is open again`,
    reopened: `Our team reopened your closed ${PRODUCT_NAME} account, for example because money reached it after it was closed.`,
    signIn: 'You can sign in again with your e-mail and password, and withdraw what is in your wallet.',
    ifUnexpected: 'If you did not expect this, contact support, and change your password after signing in.',
  },
  hi: {
    subject: `${PRODUCT_NAME}: आपका खाता फिर से खुल गया है`,
    reopened: `हमारी टीम ने आपका बंद ${PRODUCT_NAME} खाता फिर से खोल दिया है, उदाहरण के लिए क्योंकि खाता बंद होने के बाद उसमें पैसा आया।`,
    signIn: 'आप अपने ई-मेल और पासवर्ड से फिर से साइन इन कर सकते हैं, और अपने वॉलेट में जो है उसे निकाल सकते हैं।',
    ifUnexpected: 'अगर आपको इसकी उम्मीद नहीं थी, तो सहायता से संपर्क करें, और साइन इन करने के बाद अपना पासवर्ड बदलें।',
  },
};

export function accountReopenedMessage(recipient: { to: string; language: Language }): MailMessage {
  const words = ACCOUNT_REOPENED_MAIL_TEXTS[recipient.language];
  return paragraphsMessage({
    to: recipient.to,
    subject: words.subject,
    paragraphs: [words.reopened, words.signIn, words.ifUnexpected],
    signature: PRODUCT_NAME,
  });
}
