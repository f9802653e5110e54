import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  DEPOSIT_ACCOUNT_PATHS,
  DEPOSIT_KEY_MAX_LENGTH,
  depositKeyListResponseSchema,
  depositKeyVariable,
  setDepositKeyResponseSchema,
  type DepositKeyStatus,
  type SetDepositKeyRequest,
} from '#shared/contracts/deposit-keys';
import type { DepositNetwork } from '#shared/contracts/enums';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { ApiError, apiRequest, errorMessage } from '../../lib/api.ts';
import { adminKeys } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { PendingChangesPanel } from './components/pending-changes-panel.tsx';

/*
 * The deposit keys (decisions 035 and 045): per network, the account-level extended public key that
 * customers' own deposit addresses are derived from. The page shows each key only in part, where it
 * comes from and how many addresses were issued, and sets one where the server's environment sets
 * none. The server decides everything: it refuses anything private with a field error, and while
 * two admins exist a change waits for the second (the pending change is confirmed in the panel here).
 */

const depositKeysQueryKey = [...adminKeys.all, 'deposit-keys'] as const;
const NETWORK_NAMES: Record<DepositNetwork, string> = { TRC20: 'TRC20 (TRON)', ERC20: 'ERC20 (Ethereum)' };

function useDepositKeys() {
  return useQuery({
    queryKey: depositKeysQueryKey,
    queryFn: ({ signal }) => apiRequest('/api/admin/deposit-keys', depositKeyListResponseSchema, { signal }),
  });
}

const setDepositKey = (body: SetDepositKeyRequest) => apiRequest('/api/admin/deposit-keys', setDepositKeyResponseSchema, { method: 'POST', body });

function KeyForm({ status }: { status: DepositKeyStatus }) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await setDepositKey({ network: status.network, extendedPublicKey: value });
      setValue('');
      setFieldError(undefined);
      if ('pendingChange' in answer) toast.info(answer.message, { duration: 10_000 });
      else toast.success(answer.message, { duration: 10_000 });
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    } catch (error) {
      const refusal = error instanceof ApiError ? error.fields.extendedPublicKey : undefined;
      // A refused value may be a private key pasted by mistake: it does not stay on the screen.
      setValue('');
      setFieldError(refusal ?? errorMessage(error, 'Could not save the deposit key'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form aria-labelledby={`${formId}-title`} className="flex flex-col gap-3" onSubmit={(event) => void submit(event)} noValidate>
      <h3 id={`${formId}-title`} className="text-sm font-semibold">
        {status.keyHint === null ? `Set the ${status.network} key` : `Replace the ${status.network} key`}
      </h3>
      <FormField
        label={`Extended public key of ${DEPOSIT_ACCOUNT_PATHS[status.network]}`}
        error={fieldError}
        help="Export the account's xpub from the custody (hardware wallet or MPC). Never a private key, seed phrase or child key: they are refused and never stored."
      >
        <Textarea
          value={value}
          onChange={(event) => setValue(event.target.value)}
          maxLength={DEPOSIT_KEY_MAX_LENGTH}
          rows={3}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className="break-all font-mono text-sm"
          placeholder="xpub…"
        />
      </FormField>
      <div>
        <Button type="submit" disabled={busy || value.trim() === ''}>
          {status.keyHint === null ? 'Set key' : 'Replace key'}
        </Button>
      </div>
    </form>
  );
}

function NetworkKey({ status }: { status: DepositKeyStatus }) {
  const titleId = useId();
  const fromEnvironment = status.source === 'environment';
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex flex-wrap items-center gap-2">
          {NETWORK_NAMES[status.network]}
          {status.keyHint === null ? <Badge tone="warning">Not set</Badge> : <Badge tone="success">Own addresses</Badge>}
        </CardTitle>
        <CardDescription>
          {status.keyHint === null
            ? 'Customers use the shared address and a transaction hash or a proven wallet.'
            : 'Every customer gets an address of their own, derived from this key; deposits to it are credited automatically.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600">Key</dt>
          <dd className="break-all font-mono text-xs leading-5">{status.keyHint ?? '(none)'}</dd>
          <dt className="text-slate-600">Set in</dt>
          <dd>
            {status.source === null ? '(nowhere)' : fromEnvironment ? `The server's environment (${depositKeyVariable(status.network)})` : 'The admin settings'}
          </dd>
          <dt className="text-slate-600">Addresses issued</dt>
          <dd>{status.addressesIssued}</dd>
        </dl>
        {fromEnvironment ? (
          <p className="text-sm text-slate-600">
            The server&apos;s environment sets this key and wins over the settings: change {depositKeyVariable(status.network)} where the server is deployed.
          </p>
        ) : (
          <KeyForm status={status} />
        )}
        {status.addressesIssued > 0 && !fromEnvironment ? (
          <p className="text-xs text-slate-600">
            Customers keep the addresses they were given; only customers new to the network get addresses under a replaced key. Keep the old key&apos;s custody
            to sweep its addresses.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default function DepositKeysPage() {
  const keys = useDepositKeys();
  return (
    <AdminPage title="Deposit keys" backTo="/admin">
      <p className="text-sm text-slate-700">
        An extended public key lets this server derive customers&apos; deposit addresses without being able to spend from them. It is shown only in part: the
        whole key reveals every customer&apos;s address.
      </p>
      <PendingChangesPanel kinds={['deposit_xpub']} title="Deposit key changes waiting for a second admin" />
      {keys.isPending ? (
        <LoadingState text="Loading the deposit keys…" />
      ) : keys.isError ? (
        <ErrorState title="Could not load the deposit keys" message={errorMessage(keys.error, 'Please try again.')} onRetry={() => void keys.refetch()} />
      ) : (
        keys.data.items.map((status) => <NetworkKey key={status.network} status={status} />)
      )}
    </AdminPage>
  );
}
