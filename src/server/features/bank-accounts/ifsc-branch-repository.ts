import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bankAccounts, ifscBranches } from '../../db/schema.ts';

export type IfscBranchRow = typeof ifscBranches.$inferSelect;
export type IfscBranchAnswer = Pick<IfscBranchRow, 'ifscCode' | 'found' | 'branchName' | 'city'>;

export async function findIfscBranch(db: Executor, ifscCode: string): Promise<IfscBranchRow | undefined> {
  const [row] = await db.select().from(ifscBranches).where(eq(ifscBranches.ifscCode, ifscCode));
  return row;
}

/**
 * Keeps the API's answer for the code and fills the branch of saved accounts of that IFSC that were saved without
 * it (the API was unreachable then). Another process that asked at the same moment keeps its own, equal, answer.
 */
export async function storeIfscBranch(db: Executor, answer: IfscBranchAnswer): Promise<void> {
  await db.transaction(async (transaction) => {
    await transaction.insert(ifscBranches).values(answer).onConflictDoNothing({ target: ifscBranches.ifscCode });
    if (answer.branchName === null) return;
    await transaction
      .update(bankAccounts)
      .set({ branchName: answer.branchName })
      .where(and(eq(bankAccounts.ifscCode, answer.ifscCode), isNull(bankAccounts.branchName)));
  });
}
