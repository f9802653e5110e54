import { z } from 'zod';

/** A pause on money leaving the account after a security change, with the customer-facing reason. */
export const pauseSchema = z.object({ until: z.string(), message: z.string() });
export type Pause = z.infer<typeof pauseSchema>;

/** What is paused right now: all withdrawals, transfers, and withdrawals to single bank accounts. */
export const securityPausesResponseSchema = z.object({
  withdrawals: pauseSchema.nullable(),
  transfers: pauseSchema.nullable(),
  bankAccounts: z.array(pauseSchema.extend({ bankAccountId: z.uuid() })),
});
export type SecurityPauses = z.infer<typeof securityPausesResponseSchema>;

/** Indian time, as "23 Nov, 02:15 pm": the customers are in India. */
export function formatPauseEnd(moment: Date): string {
  const parts = new Intl.DateTimeFormat('en-IN', {
    timeZone: 'Asia/Kolkata',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(moment);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} ${part('dayPeriod').toLowerCase()}`;
}
