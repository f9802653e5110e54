import { paymentModeFor } from '#shared/contracts/payout-batches';
import type { PayoutFileFormat } from '#shared/contracts/payout-file-formats';
import { inrPaiseToWire } from '#shared/money';
import { csvCell } from '../../platform/csv.ts';
import type { WithdrawalRow } from './repository.ts';

/*
 * The bank file of a batch in each layout an admin can pick (decision 064). Every layout carries our short
 * reference in the fields the bank or provider echoes back in its report (narration or remarks, and the
 * payout's own reference), so results are matched on it whatever the layout. Columns, order and units are
 * the ones the providers publish; none is invented.
 */

/** One payment of the file, as the batch froze it. */
interface Payment {
  mode: 'UPI' | 'IMPS' | 'NEFT';
  holderName: string;
  accountNumber: string;
  ifscCode: string;
  upiId: string;
  netInrPaise: bigint;
  reference: string;
  narration: string;
}

export interface BankFile {
  body: string;
  contentType: string;
  fileName: string;
}

interface Layout {
  header: string[];
  fileName: (batchId: string) => string;
  row: (payment: Payment, debitAccountNumber: string) => string[];
  /** The net amount one row may carry, as the provider publishes it; none: the bank's own rail limits alone. */
  amountRangeInrPaise?: { min: bigint; max: bigint };
}

const GENERIC: Layout = {
  header: ['Payment Mode', 'Beneficiary Name', 'Beneficiary Account Number', 'IFSC', 'Beneficiary UPI ID', 'Amount (INR)', 'Narration', 'Reference'],
  fileName: (batchId) => `payout-batch-${batchId}.csv`,
  row: (payment) => [
    payment.mode,
    payment.holderName,
    payment.accountNumber,
    payment.ifscCode,
    payment.mode === 'UPI' ? payment.upiId : '',
    inrPaiseToWire(payment.netInrPaise),
    payment.narration,
    payment.reference,
  ],
};

/**
 * RazorpayX Bulk Payouts, the CSV template with the amount in rupees (razorpay.com/docs/x/bulk-payouts).
 * A UPI payment goes to a fund account of type `vpa`, a bank payment to one of type `bank_account`; the
 * template's example `notes[...]` columns are free-form and left out.
 */
const RAZORPAYX_BULK: Layout = {
  header: [
    'RazorpayX Account Number',
    'Payout Amount (in Rupees)',
    'Payout Currency',
    'Payout Mode',
    'Payout Purpose',
    'Fund Account Id',
    'Fund Account Type',
    'Fund Account Name',
    'Fund Account Ifsc',
    'Fund Account Number',
    'Fund Account Vpa',
    'Fund Account Phone Number',
    'Contact Name',
    'Payout Narration',
    'Payout Reference Id',
    'Fund Account Email',
    'Contact Type',
    'Contact Email',
    'Contact Mobile',
    'Contact Reference Id',
  ],
  fileName: (batchId) => `razorpayx-bulk-payouts-${batchId}.csv`,
  row: (payment, debitAccountNumber) => {
    const upi = payment.mode === 'UPI';
    return [
      debitAccountNumber,
      inrPaiseToWire(payment.netInrPaise),
      'INR',
      payment.mode,
      'payout',
      '',
      upi ? 'vpa' : 'bank_account',
      upi ? '' : payment.holderName,
      upi ? '' : payment.ifscCode,
      upi ? '' : payment.accountNumber,
      upi ? payment.upiId : '',
      '',
      payment.holderName,
      payment.narration,
      payment.reference,
      '',
      'customer',
      '',
      '',
      '',
    ];
  },
};

/**
 * Plural (Pine Labs) bulk payouts upload file (developer.pluralonline.com/v2.0/reference/bulk-payouts-prerequisite):
 * the amount in paise, our reference as the client reference id, the account or the UPI id by mode.
 */
const PLURAL_BULK: Layout = {
  header: [
    'clientReferenceId',
    'beneficiaryId',
    'payeeName',
    'accountNumber',
    'branchCode',
    'vpa',
    'email',
    'phone',
    'amountCurrency',
    'amountValue',
    'mode',
    'dateTime',
    'remarks',
    'saveBeneficiary',
    'validate',
  ],
  fileName: (batchId) => `plural-bulk-payouts-${batchId}.csv`,
  // amountValue: "Minimum value: 100 (₹1). Maximum value: 100000000 (₹10 lakh)." (decision 067)
  amountRangeInrPaise: { min: 100n, max: 100_000_000n },
  row: (payment) => {
    const upi = payment.mode === 'UPI';
    return [
      payment.reference,
      '',
      payment.holderName,
      upi ? '' : payment.accountNumber,
      upi ? '' : payment.ifscCode,
      upi ? payment.upiId : '',
      '',
      '',
      'INR',
      payment.netInrPaise.toString(),
      payment.mode,
      '',
      payment.narration,
      '',
      '',
    ];
  },
};

const LAYOUTS: Record<PayoutFileFormat, Layout> = { generic: GENERIC, razorpayx_bulk: RAZORPAYX_BULK, plural_bulk: PLURAL_BULK };

function paymentOf(withdrawal: WithdrawalRow): Payment {
  // The bank pays the net amount: the gross less the TDS withheld (docs/decisions/018).
  const netInrPaise = withdrawal.amountInrPaise - withdrawal.tdsInrPaise;
  return {
    mode: paymentModeFor(netInrPaise, withdrawal.upiId),
    holderName: withdrawal.accountHolderName,
    accountNumber: withdrawal.accountNumber,
    ifscCode: withdrawal.ifscCode,
    upiId: withdrawal.upiId ?? '',
    netInrPaise,
    reference: withdrawal.reference,
    // The short reference, not our UUID: it fits banks' and providers' narration fields (RazorpayX: 30 characters).
    narration: `Rupeedesk ${withdrawal.reference}`,
  };
}

/** A layout's per-row amount range and the batch's withdrawals outside it (by reference, with the net amount), if it has one. */
export function paymentsOutsideLayoutRange(
  format: PayoutFileFormat,
  withdrawals: WithdrawalRow[],
): { range: { min: bigint; max: bigint }; outside: { reference: string; netInrPaise: bigint }[] } | undefined {
  const range = LAYOUTS[format].amountRangeInrPaise;
  if (range === undefined) return undefined;
  const outside = withdrawals
    .map(paymentOf)
    .filter((payment) => payment.netInrPaise < range.min || payment.netInrPaise > range.max)
    .map((payment) => ({ reference: payment.reference, netInrPaise: payment.netInrPaise }));
  return { range, outside };
}

/** The file's bytes in a layout, built only from what the batch froze (bank snapshots, amounts, request order). */
export function bankFileIn(format: PayoutFileFormat, debitAccountNumber: string, batchId: string, withdrawals: WithdrawalRow[]): BankFile {
  const layout = LAYOUTS[format];
  const lines = [layout.header.map(csvCell).join(',')];
  for (const withdrawal of withdrawals) lines.push(layout.row(paymentOf(withdrawal), debitAccountNumber).map(csvCell).join(','));
  // CRLF line ends, as RFC 4180 and banks' upload tools expect.
  return { body: `${lines.join('\r\n')}\r\n`, contentType: 'text/csv; charset=utf-8', fileName: layout.fileName(batchId) };
}
