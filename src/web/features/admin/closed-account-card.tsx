import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { reopenAccountRequestSchema } from '#shared/contracts/account-closing';
import type { AdminUserDetail } from '#shared/contracts/admin';
import { usdtMicrosFromWire } from '#shared/money';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys, reopenClosedAccount } from './api.ts';
import { DecisionDialog, type NoteField } from './components/decision-dialog.tsx';
import { fullDateTimeText, usdtText } from './format.ts';

const REOPEN_REASON_FIELD: NoteField = {
  label: 'Reason',
  help: 'Kept in the audit log. The customer is told by e-mail that the account is open again.',
  maxLength: 500,
  multiline: true,
  schema: reopenAccountRequestSchema.shape.reason,
};

/**
 * A closed account on the admin user page (decision 060): when it closed, and the way to reopen it, for instance
 * when money reached it after the close and its owner must be able to withdraw it.
 */
export function ClosedAccountCard({ user, closedAt }: { user: AdminUserDetail; closedAt: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>();
  const holdsMoney = usdtMicrosFromWire(user.balanceUsdt) > 0n;

  const reopen = async (reason: string) => {
    setBusy(true);
    setServerError(undefined);
    try {
      const answer = await reopenClosedAccount(user.id, reason);
      toast.success(answer.message);
      setOpen(false);
    } catch (error) {
      if (error instanceof ApiError && error.fields.reason) {
        setServerError(error.fields.reason);
        return;
      }
      toast.error('The account could not be reopened', { description: errorMessage(error, 'Please try again.') });
      setOpen(false);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    }
  };

  return (
    <Card data-testid="closed-account">
      <CardHeader>
        <CardTitle>Closed account</CardTitle>
        <CardDescription>Closed by the customer on {fullDateTimeText(closedAt)}. Signing in is refused; the records are kept.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {holdsMoney && (
          <Alert variant="destructive">
            {usdtText(user.balanceUsdt)} reached this account after it was closed. Reopen it so that its owner can sign in and withdraw the money.
          </Alert>
        )}
        <div>
          <Button variant="outline" size="sm" disabled={busy} onClick={() => setOpen(true)}>
            Reopen account
          </Button>
        </div>
        {open && (
          <DecisionDialog
            title="Reopen this account?"
            description={`${user.name} (${user.email}) will be able to sign in again with the same password.`}
            confirmLabel={busy ? 'Reopening...' : 'Reopen account'}
            destructive={false}
            field={REOPEN_REASON_FIELD}
            busy={busy}
            serverError={serverError}
            onCancel={() => {
              setServerError(undefined);
              setOpen(false);
            }}
            onConfirm={(reason) => void reopen(reason)}
          />
        )}
      </CardContent>
    </Card>
  );
}
