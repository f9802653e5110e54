import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { WITHDRAWAL_MESSAGES, type Withdrawal } from '#shared/contracts/withdrawals';
import type { WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import type { WalletSummary } from '#shared/contracts/wallet';
import { inrPaiseToWire } from '#shared/money';
import { ApiError } from '../../lib/api.ts';
import { applySubmissionFailure } from '../../lib/form-errors.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { requestWithdrawal, useIdempotencyKeys, useRefreshMoney } from './api.ts';
import { tdsBasisPointsOf } from './withdrawal-rules.tsx';
import {
  requestedUsdtMicros,
  usdtRequestText,
  withdrawPreview,
  type WithdrawForm,
  type WithdrawPreview,
  type WithdrawRequestValues,
} from './withdraw-form-rules.ts';
import type { PinCheckOutcome } from './withdraw-pin-dialog.tsx';

const FIELDS = ['amount', 'bankAccountId'] as const;

/** What the PIN dialog asks the customer to confirm: the USDT amount, the payee and the INR amount shown when it opened. */
export type Confirmation = WithdrawRequestValues & WithdrawPreview;

/**
 * The withdrawal from the valid form to the server's answer: the form freezes the price and opens the PIN
 * dialog, the PIN sends the request, and a refusal lands at its field or once near the button.
 */
export function useWithdrawalConfirmation({
  form,
  summary,
  limits,
  onSubmitted,
  setBannerError,
}: {
  form: UseFormReturn<WithdrawForm>;
  summary: WalletSummary;
  limits: UseQueryResult<WithdrawalLimits>;
  onSubmitted: (withdrawal: Withdrawal) => void;
  setBannerError: (message: string | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const refreshMoney = useRefreshMoney();
  const endOfSession = useEndOfSessionHandler();
  const idempotencyKeys = useIdempotencyKeys();
  const [confirming, setConfirming] = useState<Confirmation>();

  const onRequest: (event: FormEvent) => Promise<void> = form.handleSubmit((values) => {
    setBannerError(undefined);
    const tdsBasisPoints = tdsBasisPointsOf(limits.data);
    // Typed in rupees or in USDT, the request is the same: the USDT amount and the rupees it pays.
    const amountUsdtMicros = requestedUsdtMicros(values, summary, tdsBasisPoints);
    if (amountUsdtMicros === undefined) return;
    const amount = usdtRequestText(amountUsdtMicros);
    // The price is frozen here: the dialog shows it, and the server refuses any other.
    setConfirming({ amount, bankAccountId: values.bankAccountId, ...withdrawPreview(amount, summary, tdsBasisPoints) });
  });

  const confirmWithPin = async (pin: string): Promise<PinCheckOutcome> => {
    if (!confirming) return { ok: true };
    try {
      const request = { amount: confirming.amount.trim(), bankAccountId: confirming.bankAccountId };
      // The expected amount is left out of the key: re-confirming at a new price after a
      // lost answer must replay the withdrawal already made, never make a second one.
      const expectedAmountInr = confirming.quote ? inrPaiseToWire(confirming.quote.amountInrPaise) : undefined;
      // The net amount shown is a precondition too: the server refuses it if the TDS rate changed meanwhile.
      const expectedNetInr = confirming.quote ? inrPaiseToWire(confirming.breakdown?.netInrPaise ?? confirming.quote.amountInrPaise) : undefined;
      const answer = await requestWithdrawal(
        {
          ...request,
          pin,
          ...(expectedAmountInr === undefined ? {} : { expectedAmountInr }),
          ...(expectedNetInr === undefined || limits.data === undefined ? {} : { expectedNetInr }),
        },
        idempotencyKeys.keyFor(request),
      );
      idempotencyKeys.forget();
      toast.success(localizeMessage(answer.message || WITHDRAWAL_MESSAGES.submitted));
      void refreshMoney();
      setConfirming(undefined);
      onSubmitted(answer.withdrawal);
      return { ok: true };
    } catch (error) {
      return refused(error);
    }
  };

  const refused = async (error: unknown): Promise<PinCheckOutcome> => {
    if (endOfSession(error)) return { ok: true };
    if (error instanceof ApiError && error.code === 'PIN_INCORRECT') {
      const remaining = error.remainingAttempts;
      return {
        ok: false,
        pinError: `${t('pin.incorrectTryAgain')}${remaining !== undefined ? ` ${t('withdraw.attemptsRemaining', { count: remaining })}` : ''}`,
      };
    }
    const failure = applySubmissionFailure(form, error, FIELDS, t('withdraw.failed'));
    moveAmountErrorToRupees(form);
    if (error instanceof ApiError && error.code === 'PRICE_CHANGED') {
      // Wait for the new rates, so the preview shows the new amount when the dialog closes;
      // the form keeps its values for the customer to confirm again.
      await Promise.allSettled([queryClient.invalidateQueries({ queryKey: QUERY_KEYS.rates }), refreshMoney(), limits.refetch()]);
    } else {
      // The balance or the accounts may have changed under us.
      void refreshMoney();
    }
    setConfirming(undefined);
    // Said once, near the button, after the dialog has closed (editing a field clears it).
    setBannerError(failure.actionError);
    return { ok: true };
  };

  return { confirming, onRequest, confirmWithPin, cancel: () => setConfirming(undefined) };
}

/** The server speaks of the USDT amount; when the customer typed rupees, its word goes to the rupee field they see. */
function moveAmountErrorToRupees(form: UseFormReturn<WithdrawForm>): void {
  const amountError = form.getFieldState('amount').error;
  if (form.getValues('unit') !== 'inr' || amountError?.message === undefined) return;
  form.clearErrors('amount');
  form.setError('amountInr', { type: amountError.type, message: amountError.message });
}
