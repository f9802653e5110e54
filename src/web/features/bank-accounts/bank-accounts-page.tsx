import { useQueryClient } from '@tanstack/react-query';
import { Landmark, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { BANK_ACCOUNT_MESSAGES, type BankAccount } from '#shared/contracts/bank-accounts';
import { AppPage } from '../shell/index.ts';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { BANK_ACCOUNTS_QUERY_KEY, deleteBankAccount, useBankAccounts } from './api.ts';
import { BankAccountFormDialog } from './bank-account-form-dialog.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { useSecurityPauses } from '../security/index.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { PayeeCheckNote, PayeeFlagNote } from './payee-flag-note.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/** A bank account's security pause in the screen's language, its end in the screen's date format. */
function pauseText(pause: { until: string; message: string } | undefined): string {
  return pause ? localizeMessage(pause.message, { until: displayDateTime(pause.until) }) : '';
}

type OpenDialog = { kind: 'add' } | { kind: 'edit'; account: BankAccount } | { kind: 'delete'; account: BankAccount } | undefined;
type PauseOf = Map<string, { until: string; message: string }>;

function BankAccountItem({ account, pause, onOpen }: { account: BankAccount; pause: ReturnType<PauseOf['get']>; onOpen: (dialog: OpenDialog) => void }) {
  return (
    <li className="flex items-start justify-between gap-3 rounded-xl border border-slate-200 p-4">
      <div className="min-w-0">
        <p className="truncate font-semibold">{account.accountHolderName}</p>
        <p className="truncate text-sm text-slate-600" data-testid="bank-account-bank">
          {account.bankName}
          {account.branchName && <> · {t('bank.branch', { branch: account.branchName })}</>}
        </p>
        <p className="font-mono text-sm text-slate-600" aria-label={t('bank.endingIn', { last4: account.accountNumberLast4 })}>
          •••• {account.accountNumberLast4}
        </p>
        {account.hasPendingWithdrawal && (
          <Badge tone="warning" className="mt-1">
            {t('bank.pendingWithdrawal')}
          </Badge>
        )}
        <PayeeFlagNote account={account} />
        <PayeeCheckNote account={account} />
        {pause && (
          <p className="mt-1 text-xs text-amber-800" data-testid="bank-account-list-pause">
            {pauseText(pause)}
          </p>
        )}
      </div>
      <div className="flex shrink-0 gap-1">
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('bank.edit', { bank: account.bankName, last4: account.accountNumberLast4 })}
          onClick={() => onOpen({ kind: 'edit', account })}
        >
          <Pencil />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="text-red-600 hover:bg-red-50"
          aria-label={t('bank.delete', { bank: account.bankName, last4: account.accountNumberLast4 })}
          onClick={() => onOpen({ kind: 'delete', account })}
        >
          <Trash2 />
        </Button>
      </div>
    </li>
  );
}

function BankAccountList({ onOpen }: { onOpen: (dialog: OpenDialog) => void }) {
  const bankAccounts = useBankAccounts();
  // A new or changed account cannot be paid to for a while (a security pause): said here, not first on the withdraw page.
  const pauses = useSecurityPauses();
  const pauseOf: PauseOf = new Map((pauses.data?.bankAccounts ?? []).map((pause) => [pause.bankAccountId, pause]));
  if (bankAccounts.isPending)
    return (
      <div className="flex items-center justify-center gap-3 py-8 text-slate-600">
        <Spinner />
        {t('bank.loading')}
      </div>
    );
  if (bankAccounts.isError) return <LoadFailed message={t('withdraw.bankAccountsFailed')} onRetry={() => void bankAccounts.refetch()} className="py-6" />;
  if (bankAccounts.data.items.length === 0)
    return (
      <div className="flex flex-col items-center gap-2 py-8 text-center text-slate-500">
        <Landmark className="size-8" aria-hidden />
        <p className="text-sm">{t('bank.empty')}</p>
      </div>
    );
  return (
    <ul className="flex flex-col gap-3" aria-label={t('bank.list')}>
      {bankAccounts.data.items.map((account) => (
        <BankAccountItem key={account.id} account={account} pause={pauseOf.get(account.id)} onOpen={onOpen} />
      ))}
    </ul>
  );
}

function DeleteBankAccountDialog({ account, onClose }: { account: BankAccount | undefined; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string>();

  const confirmDelete = async (target: BankAccount) => {
    setDeleteError(undefined);
    setDeleting(true);
    try {
      const answer = await deleteBankAccount(target.id);
      toast.success(localizeMessage(answer.message || BANK_ACCOUNT_MESSAGES.deleted));
      onClose();
    } catch (error) {
      // Said once, in the dialog that asked (toasts are for successes and live events); closing it clears it.
      setDeleteError(errorMessage(error, t('bank.deleteFailed')));
    } finally {
      setDeleting(false);
      await queryClient.invalidateQueries({ queryKey: BANK_ACCOUNTS_QUERY_KEY });
    }
  };

  return (
    <ConfirmDialog
      open={account !== undefined}
      onOpenChange={(open) => {
        if (open || deleting) return;
        onClose();
        setDeleteError(undefined);
      }}
      title={t('bank.deleteTitle')}
      description={t('bank.deleteConfirmation')}
      confirmLabel={deleting ? t('bank.deleting') : t('bank.deleteButton')}
      destructive
      busy={deleting}
      onConfirm={() => account && void confirmDelete(account)}
    >
      {deleteError && <ActionError message={deleteError} />}
    </ConfirmDialog>
  );
}

export default function BankAccountsPage() {
  const [dialog, setDialog] = useState<OpenDialog>();

  return (
    <AppPage title={t('bank.pageTitle')} backTo="/dashboard">
      <Card>
        <CardHeader className="flex-row items-center justify-between">
          <CardTitle>{t('bank.yourAccounts')}</CardTitle>
          <Button size="sm" className="shrink-0 whitespace-nowrap" onClick={() => setDialog({ kind: 'add' })}>
            <Plus aria-hidden />
            {t('bank.addAccount')}
          </Button>
        </CardHeader>
        <CardContent>
          <BankAccountList onOpen={setDialog} />
        </CardContent>
      </Card>

      <BankAccountFormDialog open={dialog?.kind === 'add'} onOpenChange={(open) => !open && setDialog(undefined)} />
      {dialog?.kind === 'edit' && (
        <BankAccountFormDialog key={dialog.account.id} open account={dialog.account} onOpenChange={(open) => !open && setDialog(undefined)} />
      )}
      <DeleteBankAccountDialog account={dialog?.kind === 'delete' ? dialog.account : undefined} onClose={() => setDialog(undefined)} />
    </AppPage>
  );
}
