import type { PayoutFileFormat, PayoutFileSettings } from '#shared/contracts/payout-file-formats';
import type { SettingsRow } from './settings-row.ts';

/**
 * The settings columns of the bank file's layout (decision 064). A layout decides how a batch's file is
 * written, not who is paid or how much, so one admin changes it (no second admin, unlike rates and limits).
 */
export type PayoutFileColumns = Pick<SettingsRow, 'payoutFileFormat' | 'payoutFileDebitAccountNumber'>;

/** The columns a save changes; a request without the section keeps them. */
export function desiredPayoutFile(input: { payoutFile?: PayoutFileSettings | undefined }): Partial<PayoutFileColumns> {
  if (!input.payoutFile) return {};
  return { payoutFileFormat: input.payoutFile.format, payoutFileDebitAccountNumber: input.payoutFile.debitAccountNumber };
}

export function payoutFileOf(row: PayoutFileColumns): { format: PayoutFileFormat; debitAccountNumber: string } {
  return { format: row.payoutFileFormat, debitAccountNumber: row.payoutFileDebitAccountNumber };
}

export function payoutFileSnapshot(row: PayoutFileColumns): Record<string, string> {
  return { payoutFileFormat: row.payoutFileFormat, payoutFileDebitAccountNumber: row.payoutFileDebitAccountNumber };
}
