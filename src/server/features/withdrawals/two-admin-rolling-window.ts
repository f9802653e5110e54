import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** How far back the second-approval rule adds withdrawals up (decision 038). */
const TWO_ADMIN_WINDOW_HOURS = 24;

/**
 * Whether a withdrawal's approval needs a second admin under the rolling rule of decision 038: the
 * customer's withdrawals still to be paid (pending or in a payout batch) plus those approved in the
 * last 24 hours, this one included, come to more than the large-withdrawal amount; or the same sum
 * for the payee account (account number and IFSC, whoever's withdrawals they are) does. Splitting a
 * large amount into requests under the amount therefore does not get under the rule.
 */
export async function rollingWindowOverLimit(
  db: Executor,
  withdrawal: { id: string; userId: string; accountNumber: string; ifscCode: string; amountInrPaise: bigint },
  largeWithdrawalInrPaise: bigint,
): Promise<boolean> {
  if (withdrawal.amountInrPaise > largeWithdrawalInrPaise) return true;
  const result = await db.execute<{ customer: string; payee: string }>(sql`
    select
      coalesce(sum(amount_inr_paise) filter (where user_id = ${withdrawal.userId}), 0)::text as customer,
      coalesce(sum(amount_inr_paise) filter (where account_number = ${withdrawal.accountNumber} and ifsc_code = ${withdrawal.ifscCode}), 0)::text as payee
    from withdrawal_requests
    where id <> ${withdrawal.id}
      and (user_id = ${withdrawal.userId} or (account_number = ${withdrawal.accountNumber} and ifsc_code = ${withdrawal.ifscCode}))
      and (status in ('pending', 'processing') or (status = 'approved' and approved_at > now() - make_interval(hours => ${TWO_ADMIN_WINDOW_HOURS})))
  `);
  const sums = result.rows[0];
  if (!sums) return false;
  return (
    withdrawal.amountInrPaise + BigInt(sums.customer) > largeWithdrawalInrPaise || withdrawal.amountInrPaise + BigInt(sums.payee) > largeWithdrawalInrPaise
  );
}
