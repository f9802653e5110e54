import type { Language } from '#shared/contracts/enums';
import type { LedgerReason } from '../../platform/ledger/ledger.ts';

/** A wallet movement's reason as the statement names it; `withdrawal_payout` never touches a wallet. */
export type WalletMovementReason = Exclude<LedgerReason, 'withdrawal_payout'>;

export interface StatementLabels {
  title: string;
  period: string;
  generated: string;
  customer: string;
  name: string;
  mobile: string;
  openingBalance: string;
  closingBalance: string;
  totalCredits: string;
  totalDebits: string;
  date: string;
  description: string;
  credit: string;
  debit: string;
  balance: string;
  reference: string;
  utr: string;
  transactionHash: string;
  network: string;
  counterparty: string;
  inrToBank: string;
  tds: string;
  noMovements: string;
  amountsNote: string;
  page: (page: number, pages: number) => string;
  referralLevel: (level: number) => string;
  reasons: Record<WalletMovementReason, string>;
}

const english: StatementLabels = {
  title: 'Account statement',
  period: 'Period',
  generated: 'Generated',
  customer: 'Customer',
  name: 'Name',
  mobile: 'Mobile',
  openingBalance: 'Opening balance',
  closingBalance: 'Closing balance',
  totalCredits: 'Total credits',
  totalDebits: 'Total debits',
  date: 'Date (IST)',
  description: 'Description',
  credit: 'Credit (USDT)',
  debit: 'Debit (USDT)',
  balance: 'Balance (USDT)',
  reference: 'Reference',
  utr: 'UTR',
  transactionHash: 'Transaction hash',
  network: 'Network',
  counterparty: 'Counterparty',
  inrToBank: 'INR to bank',
  tds: 'TDS',
  noMovements: 'No movements in this period.',
  amountsNote: 'Amounts in USDT to 6 decimals and INR to the paisa, with Indian digit grouping; times in India Standard Time (IST).',
  page: (page, pages) => `Page ${page} of ${pages}`,
  referralLevel: (level) => `level ${level}`,
  reasons: {
    deposit_credit: 'Deposit',
    deposit_reversal: 'Deposit reversed',
    referral_reward_reversal: 'Referral bonus taken back',
    withdrawal_hold: 'Withdrawal to bank',
    withdrawal_refund: 'Withdrawal returned',
    withdrawal_reversal: 'Withdrawal returned by the bank',
    transfer_hold: 'Transfer sent',
    transfer_credit: 'Transfer received',
    transfer_refund: 'Transfer returned',
    referral_reward: 'Referral bonus',
  },
};

const hindi: StatementLabels = {
  title: 'खाता विवरण',
  period: 'अवधि',
  generated: 'बनाया गया',
  customer: 'ग्राहक',
  name: 'नाम',
  mobile: 'मोबाइल',
  openingBalance: 'प्रारंभिक शेष',
  closingBalance: 'अंतिम शेष',
  totalCredits: 'कुल जमा',
  totalDebits: 'कुल नामे',
  date: 'दिनांक (IST)',
  description: 'विवरण',
  credit: 'जमा (USDT)',
  debit: 'नामे (USDT)',
  balance: 'शेष (USDT)',
  reference: 'संदर्भ',
  utr: 'UTR',
  transactionHash: 'लेनदेन हैश',
  network: 'नेटवर्क',
  counterparty: 'दूसरा पक्ष',
  inrToBank: 'बैंक को INR',
  tds: 'TDS',
  noMovements: 'इस अवधि में कोई लेनदेन नहीं।',
  amountsNote: 'राशियाँ USDT में 6 दशमलव तक और INR में पैसे तक, भारतीय अंक समूहन के साथ; समय भारतीय मानक समय (IST) में।',
  page: (page, pages) => `पृष्ठ ${page} / ${pages}`,
  referralLevel: (level) => `स्तर ${level}`,
  reasons: {
    deposit_credit: 'जमा',
    deposit_reversal: 'जमा वापस ली गई',
    referral_reward_reversal: 'रेफ़रल बोनस वापस लिया गया',
    withdrawal_hold: 'बैंक में निकासी',
    withdrawal_refund: 'निकासी वापस आई',
    withdrawal_reversal: 'बैंक ने निकासी लौटाई',
    transfer_hold: 'भेजा गया ट्रांसफ़र',
    transfer_credit: 'मिला ट्रांसफ़र',
    transfer_refund: 'ट्रांसफ़र वापस आया',
    referral_reward: 'रेफ़रल बोनस',
  },
};

export const STATEMENT_LABELS: Record<Language, StatementLabels> = { en: english, hi: hindi };

/** Dates as the statement shows them, in India time: "27 Nov 2026, 14:30" (Hindi month names in Hindi, digits and a 24-hour clock in both). */
export function statementDateTime(language: Language, date: Date): string {
  return new Intl.DateTimeFormat(language === 'hi' ? 'hi-IN' : 'en-IN', {
    timeZone: 'Asia/Kolkata',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    numberingSystem: 'latn',
  }).format(date);
}

/** An India date (YYYY-MM-DD) as the statement's period shows it: "27 Nov 2026". */
export function statementDay(language: Language, day: string): string {
  return new Intl.DateTimeFormat(language === 'hi' ? 'hi-IN' : 'en-IN', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    numberingSystem: 'latn',
  }).format(new Date(`${day}T00:00:00Z`));
}
