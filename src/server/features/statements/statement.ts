import type { Language } from '#shared/contracts/enums';
import { maskedPhoneNumber } from '#shared/contracts/contact-verification';
import type { StatementHolder, StatementMovementRow } from './repository.ts';
import type { StatementLabels, WalletMovementReason } from './labels.ts';

/** One movement as both files show it. */
export interface StatementLine {
  createdAt: Date;
  reason: WalletMovementReason;
  description: string;
  signedUsdtMicros: bigint;
  /** The wallet's balance just after this movement. */
  balanceUsdtMicros: bigint;
  reference: string | null;
  utr: string | null;
  /** For a withdrawal: the rupees sent to the bank (gross less TDS) and the TDS withheld. */
  inrToBankPaise: bigint | null;
  tdsInrPaise: bigint | null;
  network: string | null;
  transactionHash: string | null;
  counterparty: string | null;
}

export interface Statement {
  operatorName: string;
  language: Language;
  holder: { name: string; maskedPhone: string };
  from: string;
  to: string;
  generatedAt: Date;
  openingUsdtMicros: bigint;
  closingUsdtMicros: bigint;
  totalCreditsUsdtMicros: bigint;
  totalDebitsUsdtMicros: bigint;
  lines: StatementLine[];
}

function descriptionOf(row: StatementMovementRow, reason: WalletMovementReason, labels: StatementLabels): string {
  const name = labels.reasons[reason];
  return row.referralLevel === null ? name : `${name} (${labels.referralLevel(row.referralLevel)})`;
}

/**
 * The statement's lines, each with the running balance from the opening one. The closing balance read
 * from the ledger must be where the lines lead: a difference is a broken ledger, not a customer's error.
 */
export function buildStatement(
  parts: {
    operatorName: string;
    holder: StatementHolder;
    from: string;
    to: string;
    generatedAt: Date;
    openingUsdtMicros: bigint;
    closingUsdtMicros: bigint;
    rows: StatementMovementRow[];
  },
  labels: StatementLabels,
): Statement {
  let balance = parts.openingUsdtMicros;
  let credits = 0n;
  let debits = 0n;
  const lines = parts.rows.map((row): StatementLine => {
    if (row.reason === 'withdrawal_payout') throw new Error(`ledger transfer ${row.ledgerTransferId} pays a withdrawal out of a customer wallet`);
    balance += row.signedUsdtMicros;
    if (row.signedUsdtMicros > 0n) credits += row.signedUsdtMicros;
    else debits -= row.signedUsdtMicros;
    const isWithdrawal = row.withdrawalInrPaise !== null;
    const tdsInrPaise = row.withdrawalTdsInrPaise ?? 0n;
    return {
      createdAt: row.createdAt,
      reason: row.reason,
      description: descriptionOf(row, row.reason, labels),
      signedUsdtMicros: row.signedUsdtMicros,
      balanceUsdtMicros: balance,
      reference: row.withdrawalReference ?? row.referenceId,
      utr: row.utr,
      inrToBankPaise: isWithdrawal ? (row.withdrawalInrPaise ?? 0n) - tdsInrPaise : null,
      tdsInrPaise: isWithdrawal ? tdsInrPaise : null,
      network: row.network,
      transactionHash: row.transactionHash,
      counterparty: row.counterpartyEmail,
    };
  });
  if (balance !== parts.closingUsdtMicros) {
    throw new Error(
      `statement lines lead from ${parts.openingUsdtMicros} to ${balance} micro-USDT, but the ledger's closing balance is ${parts.closingUsdtMicros}`,
    );
  }
  return {
    operatorName: parts.operatorName,
    language: parts.holder.language,
    holder: { name: parts.holder.name, maskedPhone: maskedPhoneNumber(parts.holder.phone) },
    from: parts.from,
    to: parts.to,
    generatedAt: parts.generatedAt,
    openingUsdtMicros: parts.openingUsdtMicros,
    closingUsdtMicros: parts.closingUsdtMicros,
    totalCreditsUsdtMicros: credits,
    totalDebitsUsdtMicros: debits,
    lines,
  };
}
