import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { DEPOSIT_MESSAGES, depositRequestSchema, minimumDepositMessage, type Deposit } from '#shared/contracts/deposits';
import { formatUsdtShort, parseUsdtMicros } from '#shared/money';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { submitDeposit, useIdempotencyKeys, useRefreshMoney } from './api.ts';

export type DepositForm = z.input<typeof depositRequestSchema>;
const FIELDS = ['network', 'amount', 'transactionHash'] as const;

/** The shared deposit rule, and the operator's minimum deposit said at the amount before the request. */
export function depositFormSchema(minimumMicros: bigint) {
  return depositRequestSchema.superRefine((values, context) => {
    const amount = parseUsdtMicros(values.amount);
    if (amount.ok && amount.value > 0n && amount.value < minimumMicros) {
      context.addIssue({ code: 'custom', path: ['amount'], message: minimumDepositMessage(formatUsdtShort(minimumMicros)) });
    }
  });
}

/** Sends the deposit claim once per intent; a refusal lands at its field or once near the button. */
export function useDepositSubmission(form: UseFormReturn<DepositForm>, onSubmitted: (deposit: Deposit) => void) {
  const refreshMoney = useRefreshMoney();
  const endOfSession = useEndOfSessionHandler();
  const idempotencyKeys = useIdempotencyKeys();
  const [submitError, setSubmitError] = useActionError(form);

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(undefined);
    try {
      const request = { network: values.network, amount: values.amount, transactionHash: values.transactionHash };
      const answer = await submitDeposit(request, idempotencyKeys.keyFor(request));
      idempotencyKeys.forget();
      toast.success(localizeMessage(answer.message || DEPOSIT_MESSAGES.submitted));
      void refreshMoney();
      onSubmitted(answer.deposit);
    } catch (error) {
      if (endOfSession(error)) return;
      setSubmitError(applySubmissionFailure(form, error, FIELDS, t('deposit.failed')).actionError);
    }
  });

  return { onSubmit, submitError };
}
