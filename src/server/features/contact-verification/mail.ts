import { CONTACT_LIMITS } from '#shared/contracts/contact-verification';
import { PRODUCT_NAME } from '#shared/limits';
import { escapeHtml, type MailMessage, singleUseLinkMessage } from '../../platform/mail/mailer.ts';

/** The e-mails of the contact checks: the verification link, the change link to a new address, and the notice to the old one. */

export function verificationLinkMessage(to: string, link: string): MailMessage {
  return singleUseLinkMessage({
    to,
    subject: `${PRODUCT_NAME}: verify your e-mail address`,
    request: `Please confirm that this e-mail address belongs to your ${PRODUCT_NAME} account.`,
    purpose: 'to verify it:',
    linkText: 'Verify your e-mail address',
    link,
    lifetimeMinutes: CONTACT_LIMITS.emailLinkLifetimeHours * 60,
    ifNotAsked: `If you did not open a ${PRODUCT_NAME} account, ignore this e-mail.`,
    signature: PRODUCT_NAME,
  });
}

export function changeLinkMessage(to: string, link: string): MailMessage {
  return singleUseLinkMessage({
    to,
    subject: `${PRODUCT_NAME}: confirm your new e-mail address`,
    request: `We received a request to make this the e-mail address of a ${PRODUCT_NAME} account.`,
    purpose: 'to confirm it; the change happens only then:',
    linkText: 'Confirm your new e-mail address',
    link,
    lifetimeMinutes: CONTACT_LIMITS.emailLinkLifetimeHours * 60,
    ifNotAsked: 'If you did not ask for this, ignore this e-mail; nothing changes.',
    signature: PRODUCT_NAME,
  });
}

/** To the old address, when the change is asked for and again when it takes effect: an intruder's change must not go unnoticed. */
export function emailChangeNoticeMessage(options: { to: string; newEmail: string; stage: 'asked' | 'done'; appOrigin: string }): MailMessage {
  const sentence =
    options.stage === 'asked'
      ? `Someone signed in to your account asked to change its e-mail address to ${options.newEmail}. The change happens only when the link we sent to that address is opened.`
      : `The e-mail address of your account was changed to ${options.newEmail}. We will write to that address from now on.`;
  const advice = `If this was not you, reset your password at ${options.appOrigin}/forgot-password at once and contact support.`;
  const lines = [sentence, advice];
  return {
    to: options.to,
    subject: `${PRODUCT_NAME}: ${options.stage === 'asked' ? 'a change of your e-mail address was asked for' : 'your e-mail address was changed'}`,
    text: [...lines, '', `- ${PRODUCT_NAME}`].join('\n'),
    html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p>${PRODUCT_NAME}</p>`,
  };
}
