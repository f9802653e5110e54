import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { cancelWithdrawalResponseSchema, type Withdrawal } from '#shared/contracts/withdrawals';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { apiRequest } from '../../lib/api.ts';
import { useRefreshMoney } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/**
 * The customer's Cancel button on a pending withdrawal (decision 044), with a confirmation. The server
 * decides whether it can still be cancelled (an admin or a payout batch may have taken it meanwhile) and
 * says why not; either way the page is read again.
 */
export function CancelWithdrawalButton({ withdrawal }: { withdrawal: Withdrawal }) {
  const [open, setOpen] = useState(false);
  const refreshMoney = useRefreshMoney();
  const cancel = useMutation({
    mutationFn: () => apiRequest(`/api/withdrawals/${encodeURIComponent(withdrawal.id)}/cancel`, cancelWithdrawalResponseSchema, { method: 'POST', body: {} }),
    onSuccess: async (answer) => {
      setOpen(false);
      toast.success(localizeMessage(answer.message));
      await refreshMoney();
    },
    onError: async () => {
      setOpen(false);
      await refreshMoney();
    },
  });
  if (withdrawal.status !== 'pending') return null;
  return (
    <div className="flex flex-col gap-2">
      <Button variant="outline" onClick={() => setOpen(true)} disabled={cancel.isPending}>
        {t('withdraw.cancelWithdrawal')}
      </Button>
      <ActionError message={cancel.error?.message} />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t('withdraw.cancelTitle')}
        description={t('withdraw.cancelConfirmation')}
        confirmLabel={t('withdraw.cancelYes')}
        cancelLabel={t('withdraw.cancelKeep')}
        destructive
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
    </div>
  );
}

/** What the customer gets from a withdrawal: paid to the bank, still to be paid, or (rejected or cancelled) the USDT back in the wallet. */
export function withdrawalOutcomeRow(
  withdrawal: Withdrawal,
  displayInr: (amount: string) => string,
  displayUsdt: (amount: string) => string,
): { label: string; value: string } {
  if (withdrawal.status === 'approved') return { label: t('withdraw.paid'), value: displayInr(withdrawal.netInr) };
  if (withdrawal.status === 'rejected' || withdrawal.status === 'cancelled')
    return { label: t('transactions.returned'), value: `${displayUsdt(withdrawal.amountUsdt)} USDT` };
  return { label: t('withdraw.youReceive'), value: displayInr(withdrawal.netInr) };
}
