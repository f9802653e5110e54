import { STATEMENT_LIMITS, STATEMENT_MESSAGES, type StatementQuery } from '#shared/contracts/statements';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { consumeRateLimit } from '../../platform/rate-limit/service.ts';
import { renderStatementCsv } from './csv.ts';
import { STATEMENT_LABELS } from './labels.ts';
import { renderStatementPdf } from './pdf.ts';
import * as statementRepository from './repository.ts';
import { buildStatement, type Statement } from './statement.ts';

const MILLISECONDS_PER_DAY = 86_400_000;

/** Midnight at the start of an India date, as a moment. */
function indiaMidnight(day: string): Date {
  return new Date(`${day}T00:00:00+05:30`);
}

export interface StatementFile {
  body: Buffer | string;
  contentType: string;
  fileName: string;
}

/**
 * The customer's own statement for a period of India dates: the balance at the start of `from` and at
 * the end of `to`, and every movement between, read from the ledger in one snapshot (so the lines lead
 * from the opening to the closing balance), in the customer's language. Only ever the caller's wallet.
 */
export async function ownStatement(context: AppContext, userId: string, query: StatementQuery): Promise<StatementFile> {
  const { db } = context.database;
  await consumeRateLimit(db, `statement:account:${userId}`, STATEMENT_LIMITS.perAccountPerWindow, STATEMENT_LIMITS.windowSeconds);
  const start = indiaMidnight(query.from);
  const end = new Date(indiaMidnight(query.to).getTime() + MILLISECONDS_PER_DAY);
  const statement = await db.transaction(
    async (transaction): Promise<Statement> => {
      const holder = await statementRepository.findHolder(transaction, userId);
      if (!holder) throw AppError.notFound('Account not found');
      const rows = await statementRepository.listMovements(transaction, userId, start, end, STATEMENT_LIMITS.maxRows + 1);
      if (rows.length > STATEMENT_LIMITS.maxRows) throw AppError.fieldError('from', STATEMENT_MESSAGES.tooManyRows);
      const balances = await statementRepository.balancesAt(transaction, userId, start, end);
      return buildStatement(
        { operatorName: context.config.operatorName, holder, from: query.from, to: query.to, generatedAt: new Date(), ...balances, rows },
        STATEMENT_LABELS[holder.language],
      );
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const labels = STATEMENT_LABELS[statement.language];
  const fileName = `statement-${query.from}-to-${query.to}.${query.format}`;
  if (query.format === 'csv') return { body: renderStatementCsv(statement, labels), contentType: 'text/csv; charset=utf-8', fileName };
  return { body: await renderStatementPdf(statement, labels), contentType: 'application/pdf', fileName };
}
