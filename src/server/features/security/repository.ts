import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bankAccounts, payeeValidations, users } from '../../db/schema.ts';

export async function findResetTimes(db: Executor, userId: string): Promise<{ pinResetAt: Date | null; passwordResetAt: Date | null } | undefined> {
  const [row] = await db.select({ pinResetAt: users.pinResetAt, passwordResetAt: users.passwordResetAt }).from(users).where(eq(users.id, userId));
  return row;
}

/** Each payee's last change, its check and the UPI id that check covered (decision 068), for the cooling-off. */
export async function listBankAccountChanges(db: Executor, userId: string) {
  return db
    .select({
      id: bankAccounts.id,
      detailsChangedAt: bankAccounts.detailsChangedAt,
      payeeCheck: bankAccounts.payeeCheck,
      upiId: bankAccounts.upiId,
      checkedUpiId: payeeValidations.vpa,
    })
    .from(bankAccounts)
    .leftJoin(payeeValidations, eq(payeeValidations.id, bankAccounts.validationId))
    .where(eq(bankAccounts.userId, userId));
}
