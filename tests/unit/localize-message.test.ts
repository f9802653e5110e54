import { afterAll, describe, expect, it, vi } from 'vitest';
import { kycGateMessage } from '#shared/contracts/kyc';
import { minimumDepositMessage } from '#shared/contracts/deposits';
import { BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import { chooseLanguage } from '../../src/web/lib/i18n/i18n.ts';
import { localizeMessage } from '../../src/web/lib/i18n/localize-message.ts';

/*
 * Messages the screens receive as English text (docs/decisions/046, amendment): unchanged in English, in Hindi
 * when known, and as sent when not. The catalog test holds the table's English equal to the messages.
 */

// The language switch marks the page's <html lang>; this test has no page, so a stand-in element takes the mark.
vi.stubGlobal('document', { documentElement: { lang: 'en' } });
afterAll(async () => {
  await chooseLanguage('en');
  vi.unstubAllGlobals();
});

const PAUSE = 'Withdrawals to this bank account are paused until 28 Nov, 10:42 pm because it was added or its details changed recently.';

describe('localizeMessage', () => {
  it('returns every message unchanged while the screens are in English', () => {
    for (const message of [BANK_ACCOUNT_MESSAGES.confirmationMismatch, minimumDepositMessage('10'), PAUSE, 'An admin typed this reason.']) {
      expect(localizeMessage(message, { until: 'elsewhere' })).toBe(message);
    }
  });

  it('says known messages, messages with values and the KYC gate in Hindi, and leaves unknown text as sent', async () => {
    await chooseLanguage('hi');
    expect(localizeMessage(BANK_ACCOUNT_MESSAGES.confirmationMismatch)).toBe('दोनों खाता संख्याएँ मेल नहीं खातीं। खाता संख्या फिर से लिखें।');
    expect(localizeMessage(minimumDepositMessage('1,500.00'))).toBe('न्यूनतम जमा 1,500.00 USDT है');
    // The pause's end is shown in the screen's own date format when the caller gives it.
    expect(localizeMessage(PAUSE, { until: '28 नव॰ 2026, 22:42' })).toBe(
      'इस बैंक खाते में निकासी 28 नव॰ 2026, 22:42 तक रुकी है क्योंकि यह हाल ही में जोड़ा गया है या इसका विवरण बदला गया है।',
    );
    expect(localizeMessage('PIN verification failed. 1 attempt remaining.')).toBe('PIN सत्यापन विफल रहा। 1 प्रयास बाकी।');
    expect(localizeMessage(kycGateMessage('transfers', ['email', 'pan']))).toBe(
      'दूसरे ग्राहकों को ट्रांसफ़र के लिए KYC स्तर 1 ज़रूरी है। अभी बाकी: अपना ईमेल पता सत्यापित करें; अपने नाम पर अपना PAN सत्यापित कराएँ। पूरा करने के लिए KYC पेज खोलें।',
    );
    expect(localizeMessage('Something went wrong on our side. Please try again. Reference: req-42')).toBe(
      'हमारी तरफ़ से कुछ गलत हो गया। कृपया फिर से कोशिश करें। संदर्भ: req-42',
    );
    expect(localizeMessage('An admin typed this reason.')).toBe('An admin typed this reason.');
  });
});
