import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bankAccounts, users } from '../../db/schema.ts';

export async function findResetTimes(db: Executor, userId: string): Promise<{ pinResetAt: Date | null; passwordResetAt: Date | null } | undefined> {
  const [row] = await db.select({ pinResetAt: users.pinResetAt, passwordResetAt: users.passwordResetAt }).from(users).where(eq(users.id, userId));
  return row;
}

export async function listBankAccountChanges(db: Executor, userId: string) {
  return db
    .select({ id: bankAccounts.id, detailsChangedAt: bankAccounts.detailsChangedAt, payeeCheck: bankAccounts.payeeCheck, upiId: bankAccounts.upiId })
    .from(bankAccounts)
    .where(eq(bankAccounts.userId, userId));
}
