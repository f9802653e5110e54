import type { AdminProviderPayout, ProviderPayout } from '#shared/contracts/payouts';
import { inrText, shortDateTimeText } from './format.ts';

const SOURCE_TEXT: Record<ProviderPayout['events'][number]['source'], string> = {
  send: 'answer to our request',
  webhook: 'provider’s notice',
  poll: 'our question',
};

/** How often the worker sent the payout or asked about it, and its last error with when (issue 31). */
function attemptLines(payout: AdminProviderPayout): string[] {
  const attempts = `Attempts: ${payout.attempts}`;
  if (payout.lastError === null) return [attempts, 'Last error: none'];
  const when = payout.lastErrorAt === null ? '' : ` (${shortDateTimeText(payout.lastErrorAt)})`;
  return [attempts, `Last error${when}: ${payout.lastError}`];
}

/**
 * A withdrawal's payout through the provider as admins read it (decision 053): the summary with the attempts and the
 * last error, then each state reported, oldest first.
 */
export function providerPayoutLines(payout: AdminProviderPayout): { summary: string[]; events: string[] } {
  const summary = [
    `Provider state: ${payout.state === 'unsent' ? 'not sent yet' : payout.state}`,
    `${inrText(payout.amountInr)} by ${payout.mode}`,
    `UTR: ${payout.utr ?? 'none yet'}`,
    ...(payout.reason === null ? [] : [`Reason: ${payout.reason}`]),
    ...attemptLines(payout),
  ];
  const events = payout.events.map((event) =>
    [
      `${shortDateTimeText(event.at)}: ${event.state} (${SOURCE_TEXT[event.source]})`,
      ...(event.utr === null ? [] : [`UTR ${event.utr}`]),
      ...(event.reason === null ? [] : [event.reason]),
    ].join(', '),
  );
  return { summary, events };
}
