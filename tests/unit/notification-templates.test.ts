import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as templates from '../../src/server/features/notifications/templates.ts';
import { RESET_MAIL_TEXTS, WALLET_ADDED_MAIL_TEXTS, walletAddedMessage } from '../../src/server/features/notifications/account-mail.ts';
import {
  CONTACT_LINK_MAIL_TEXTS,
  EMAIL_CHANGE_NOTICE_TEXTS,
  changeLinkMessage,
  emailChangeNoticeMessage,
  verificationLinkMessage,
} from '../../src/server/features/contact-verification/mail.ts';
import { DESCRIPTIONS, DETAIL_LABELS, HINDI_DESCRIPTIONS, SECURITY_MAIL_LINES, detailLine } from '../../src/server/features/security/notifications.ts';
import { FREEZE_MESSAGES } from '#shared/contracts/kyc';
import type { LocalizedNotification } from '../../src/server/platform/notifications/service.ts';

/*
 * Every notification a customer gets is written in English (the spec's texts, unchanged) and in Hindi
 * (issue 33, decision 051). Each template is called here for each of its branches; a template without
 * this list's case, or a branch without its Hindi, fails the test.
 */

const deposit = { id: 'd-1', userId: 'u-1', amountUsdtMicros: 1_500_000_000n, network: 'TRC20', transactionHash: 'a'.repeat(64) };
const withdrawal = {
  id: 'w-1',
  userId: 'u-1',
  amountUsdtMicros: 1_500_000_000n,
  amountInrPaise: 12_450_000n,
  bankName: 'HDFC Bank',
  accountNumberLast4: '4321',
  reference: 'RD7K2M9Q',
};
const transfer = {
  id: 't-1',
  amountUsdtMicros: 25_000_000n,
  sender: { id: 'u-1', name: 'Asha Rao', email: 'asha@example.com' },
  recipient: { id: 'u-2', name: 'Ravi Kumar', email: 'ravi@example.com' },
};

const CASES: Record<keyof typeof templates, () => LocalizedNotification[]> = {
  depositDecided: () => [
    templates.depositDecided({ ...deposit, outcome: 'approved', rejectionReason: null }),
    templates.depositDecided({ ...deposit, outcome: 'rejected', rejectionReason: 'Wrong network' }),
    templates.depositDecided({ ...deposit, outcome: 'rejected', rejectionReason: null }),
  ],
  withdrawalDecided: () => [
    templates.withdrawalDecided({ ...withdrawal, outcome: 'approved', payoutReference: 'HDFCN52026112712345', rejectionReason: null }),
    templates.withdrawalDecided({ ...withdrawal, outcome: 'approved', payoutReference: null, rejectionReason: null }),
    templates.withdrawalDecided({ ...withdrawal, outcome: 'rejected', payoutReference: null, rejectionReason: 'Name does not match' }),
  ],
  withdrawalReversed: () => [templates.withdrawalReversed({ ...withdrawal, netInrPaise: withdrawal.amountInrPaise, reason: 'Account closed' })],
  withdrawalCancelled: () => [templates.withdrawalCancelled(withdrawal)],
  payeeBlocked: () =>
    (['name_mismatch', 'invalid', 'check_failed', 'rejected'] as const).map((check) =>
      templates.payeeBlocked({ userId: 'u-1', bankName: 'HDFC Bank', accountNumberLast4: '4321', check }),
    ),
  transferDecided: () => [
    ...templates.transferDecided({ ...transfer, outcome: 'approved', rejectionReason: null }),
    ...templates.transferDecided({ ...transfer, outcome: 'rejected', rejectionReason: 'Suspicious' }),
  ],
  depositIncidentForCustomer: () => [
    templates.depositIncidentForCustomer({ ...deposit, depositId: deposit.id }, 'held'),
    templates.depositIncidentForCustomer({ ...deposit, depositId: deposit.id }, 'debited', 'Reorganisation'),
    templates.depositIncidentForCustomer({ ...deposit, depositId: deposit.id }, 'written_off'),
  ],
  payoutStuckForAdmin: () => [
    templates.payoutStuckForAdmin({ userId: 'u-9', reference: withdrawal.reference, lastError: null, stuckMinutes: 30 }),
    templates.payoutStuckForAdmin({ userId: 'u-9', reference: withdrawal.reference, lastError: 'Gateway timeout', stuckMinutes: 30 }),
  ],
  closedAccountMoneyForAdmin: () => [
    templates.closedAccountMoneyForAdmin({ userId: 'u-9', closedUserId: 'u-1', email: 'asha@example.com', balanceUsdtMicros: 12_500_000n }),
  ],
  accountFrozen: () => [templates.accountFrozen('u-1')],
  accountReviewFinished: () => [templates.accountReviewFinished('u-1')],
  kycRefreshDue: () => [templates.kycRefreshDue('u-1', new Date('2026-12-12T10:00:00Z'))],
  kycRefreshOverdue: () => [templates.kycRefreshOverdue('u-1')],
  referralRewardTakenBack: () => [
    templates.referralRewardTakenBack({ userId: 'u-1', rewardId: 'r-1', rewardUsdtMicros: 5_000_000n, takenBackUsdtMicros: 5_000_000n }),
    templates.referralRewardTakenBack({ userId: 'u-1', rewardId: 'r-1', rewardUsdtMicros: 5_000_000n, takenBackUsdtMicros: 2_000_000n }),
  ],
};

const DEVANAGARI = /[\u0900-\u097F]/;
const FIELDS = ['title', 'body', 'emailSubject', 'emailText'] as const;

describe('notification templates', () => {
  it('has a case here for every template, so that none goes unchecked', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(templates).sort());
  });

  for (const [name, build] of Object.entries(CASES)) {
    it(`${name}: every branch has its Hindi, in Hindi, with the same amounts and references as the English`, () => {
      for (const notification of build()) {
        expect(notification.hindi, `${name} (${notification.kind}) has no Hindi`).toBeDefined();
        for (const field of FIELDS) {
          const english = notification[field];
          const hindi = notification.hindi[field];
          expect(hindi, `${name} ${field}`).toMatch(DEVANAGARI);
          expect(hindi).not.toBe(english);
          // The figures, references and hashes the English names are named in the Hindi too.
          for (const figure of english.match(/₹[\d,]+\.\d{2}|[\d,]+\.\d{2} USDT|[a-f0-9]{64}|RD7K2M9Q|HDFCN\d+/g) ?? [])
            expect(hindi, `${name} ${field}`).toContain(figure);
        }
      }
    });
  }

  it('keeps the English texts exactly, and Indian grouping for rupees in both languages', () => {
    const paid = templates.withdrawalDecided({ ...withdrawal, outcome: 'approved', payoutReference: 'HDFCN52026112712345', rejectionReason: null });
    expect(paid.title).toBe('Withdrawal paid');
    expect(paid.body).toBe('₹1,24,500.00 was paid to HDFC Bank ••••4321. Bank reference (UTR): HDFCN52026112712345.');
    expect(paid.hindi.body).toContain('₹1,24,500.00');
    const credited = templates.depositDecided({ ...deposit, outcome: 'approved', rejectionReason: null });
    expect(credited.body).toBe('Your deposit of 1,500.00 USDT (TRC20) was credited to your wallet.');
    expect(credited.hindi.title).toBe('जमा राशि जमा हो गई');
  });

  it('has every security e-mail (a PIN, a password, a phone or a bank account changed) in Hindi as well', () => {
    expect(Object.keys(HINDI_DESCRIPTIONS).sort()).toEqual(Object.keys(DESCRIPTIONS).sort());
    for (const [change, hindi] of Object.entries(HINDI_DESCRIPTIONS)) {
      expect(hindi.subject, change).toMatch(DEVANAGARI);
      expect(hindi.sentence, change).toMatch(DEVANAGARI);
    }
    expect(SECURITY_MAIL_LINES.hi.pause('account', 24)).toMatch(/24 घंटे/);
    expect(SECURITY_MAIL_LINES.en.pause('bank-account', 24)).toBe('For your safety, withdrawals to that bank account are paused for 24 hours.');
  });

  it('has the password and PIN reset e-mails in Hindi, with the link’s lifetime', () => {
    for (const kind of ['password', 'pin'] as const) {
      const hindi = RESET_MAIL_TEXTS[kind].hi(30);
      for (const text of [hindi.subject, hindi.request, hindi.linkText, hindi.ifNotAsked, hindi.opening ?? '']) expect(text, kind).toMatch(DEVANAGARI);
      expect(hindi.opening).toContain('30 मिनट');
    }
    expect(RESET_MAIL_TEXTS.password.en(30).request).toBe('We received a request to reset the password of your account.');
  });

  it('has the freeze and unfreeze notices in Hindi, the English as the spec and the app say it', () => {
    const frozen = templates.accountFrozen('u-1');
    expect(frozen.body).toBe(FREEZE_MESSAGES.customer);
    expect(frozen.hindi.body).toMatch(DEVANAGARI);
    expect(templates.accountReviewFinished('u-1').hindi.title).toBe('खाते की समीक्षा पूरी हुई');
  });

  it('says the freeze in Hindi in the same words as the app (its catalog, message.accountFrozen)', () => {
    const catalog = JSON.parse(fs.readFileSync('src/web/lib/i18n/catalogs/hi.json', 'utf8')) as Record<string, string>;
    expect(templates.accountFrozen('u-1').hindi.body).toBe(catalog['message.accountFrozen']);
  });

  it('has the e-mail verification and e-mail change mails in Hindi, with the link and its lifetime', () => {
    const link = 'https://app.example/verify-email?token=abc';
    for (const build of [verificationLinkMessage, changeLinkMessage]) {
      const english = build('asha@example.com', 'en', link);
      const hindi = build('asha@example.com', 'hi', link);
      expect(hindi.subject).toMatch(DEVANAGARI);
      expect(hindi.text).toMatch(DEVANAGARI);
      expect(hindi.text).toContain(link);
      expect(hindi.text).toContain('1440 मिनट');
      expect(hindi.text).not.toBe(english.text);
    }
    expect(verificationLinkMessage('asha@example.com', 'en', link).text).toContain('Open this link within 1440 minutes to verify it:');
    expect(Object.keys(CONTACT_LINK_MAIL_TEXTS.verify.hi)).toEqual(expect.arrayContaining(Object.keys(CONTACT_LINK_MAIL_TEXTS.verify.en)));
    for (const stage of ['asked', 'done'] as const) {
      const hindi = emailChangeNoticeMessage({ to: 'asha@example.com', language: 'hi', newEmail: 'new@example.com', stage, appOrigin: 'https://app.example' });
      expect(hindi.subject, stage).toMatch(DEVANAGARI);
      expect(hindi.text, stage).toContain('new@example.com');
      expect(hindi.text, stage).toContain('https://app.example/forgot-password');
      expect(EMAIL_CHANGE_NOTICE_TEXTS.hi.sentence(stage, 'x@example.com')).toMatch(DEVANAGARI);
    }
    expect(EMAIL_CHANGE_NOTICE_TEXTS.en.subject('done')).toBe('your e-mail address was changed');
  });

  it('has the wallet-added mail in Hindi, naming the network and the address', () => {
    const address = 'TXYZ1234567890abcdefghijklmnopqrst';
    const hindi = walletAddedMessage({ to: 'asha@example.com', language: 'hi' }, { network: 'TRC20', address });
    expect(hindi.subject).toMatch(DEVANAGARI);
    expect(hindi.text).toMatch(DEVANAGARI);
    expect(hindi.text).toContain(address);
    expect(hindi.text).toContain('TRC20');
    expect(Object.keys(WALLET_ADDED_MAIL_TEXTS.hi).sort()).toEqual(Object.keys(WALLET_ADDED_MAIL_TEXTS.en).sort());
    expect(walletAddedMessage({ to: 'a@example.com', language: 'en' }, { network: 'TRC20', address }).subject).toBe(
      'Rupeedesk: a wallet was added to your account',
    );
  });

  it('writes the security e-mails’ detail lines (a bank account’s changed fields) in the reader’s language, masked values kept', () => {
    expect(Object.keys(DETAIL_LABELS.hi).sort()).toEqual(Object.keys(DETAIL_LABELS.en).sort());
    const detail = { field: 'accountNumber', from: '••••1234', to: '••••5678' } as const;
    expect(detailLine('en', detail)).toBe('Account number: ••••1234 → ••••5678');
    expect(detailLine('hi', detail)).toBe('खाता संख्या: ••••1234 → ••••5678');
    expect(detailLine('hi', { field: 'accountHolder', from: 'A••• R•••', to: 'R••• K•••' })).toMatch(/^खाताधारक: A••• R••• → R••• K•••$/);
  });
});
