import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import type { DepositNetwork } from '#shared/contracts/enums';
import {
  WALLET_MESSAGES,
  addWalletRequestSchema,
  addWalletResponseSchema,
  removeWalletResponseSchema,
  walletChallengeRequestSchema,
  walletChallengeResponseSchema,
  walletListResponseSchema,
  type AddWalletRequest,
  type Wallet,
} from '#shared/contracts/wallets';
import { AppPage } from '../shell/index.ts';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { WALLET_QUERY_KEYS } from './api.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/*
 * "My wallets": the addresses a customer sends USDT from, each proved by
 * signing a short message in the wallet app. Deposits from them are credited
 * by themselves once final on the blockchain.
 */

function useCustomerWallets() {
  return useQuery({ queryKey: WALLET_QUERY_KEYS.customerWallets, queryFn: ({ signal }) => apiRequest('/api/wallets', walletListResponseSchema, { signal }) });
}

export default function CustomerWalletsPage() {
  const wallets = useCustomerWallets();
  // A refused removal is said once, above the list (decision 055): the row it was about may be gone by then.
  const [removeFailure, setRemoveFailure] = useState<string>();
  return (
    <AppPage title={t('wallet.myWallets')} backTo="/wallet">
      <AddWalletCard />
      <Card>
        <CardHeader>
          <CardTitle>{t('wallets.verifiedWallets')}</CardTitle>
          <CardDescription>{t('wallets.verifiedDescription')}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <ActionError message={removeFailure} />
          {wallets.isPending ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner /> {t('wallets.loading')}
            </p>
          ) : wallets.isError ? (
            <LoadFailed message={t('wallets.loadFailed')} onRetry={() => void wallets.refetch()} />
          ) : wallets.data.items.length === 0 ? (
            <p className="text-sm text-slate-600">{t('wallets.empty')}</p>
          ) : (
            <ul className="divide-y divide-slate-100" aria-label={t('wallets.verifiedWallets')}>
              {wallets.data.items.map((wallet) => (
                <WalletRow key={wallet.id} wallet={wallet} onRemoveFailure={setRemoveFailure} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </AppPage>
  );
}

function WalletRow({ wallet, onRemoveFailure }: { wallet: Wallet; onRemoveFailure: (message: string | undefined) => void }) {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const remove = useMutation({
    mutationFn: () => apiRequest(`/api/wallets/${wallet.id}`, removeWalletResponseSchema, { method: 'DELETE' }),
    onMutate: () => onRemoveFailure(undefined),
    onSuccess: (answer) => {
      toast.success(localizeMessage(answer.message));
      void queryClient.invalidateQueries({ queryKey: WALLET_QUERY_KEYS.customerWallets });
    },
    onError: (error) => {
      if (endOfSession(error)) return;
      onRemoveFailure(error instanceof ApiError && error.message ? error.message : t('wallets.removeFailed'));
      // A wallet that is no longer there (removed in another tab, say) leaves the list, which is read again.
      if (error instanceof ApiError && error.status === 404) void queryClient.invalidateQueries({ queryKey: WALLET_QUERY_KEYS.customerWallets });
    },
  });
  return (
    <li className="flex items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="text-xs font-semibold text-brand-700">{wallet.network}</p>
        <p className="break-all font-mono text-sm">{wallet.address}</p>
        <p className="text-xs text-slate-500">{t('wallets.verifiedAt', { date: displayDateTime(wallet.verifiedAt) })}</p>
      </div>
      <Button
        variant="outline"
        size="sm"
        aria-label={t('wallets.remove', { address: wallet.address })}
        disabled={remove.isPending}
        onClick={() => remove.mutate()}
      >
        <Trash2 aria-hidden />
      </Button>
    </li>
  );
}

const FIELDS = ['network', 'address', 'signature'] as const;

/** The add-wallet form: ask for the message to sign, then send the signature; a refusal at its field or once above the button. */
function useAddWalletForm() {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [challenge, setChallenge] = useState<{ message: string; network: DepositNetwork; address: string }>();
  const [formError, setFormError] = useState<string>();
  const form = useForm<AddWalletRequest>({ resolver: zodResolver(addWalletRequestSchema), defaultValues: { network: 'ERC20', address: '', signature: '' } });

  function showError(error: unknown, fallback: string): void {
    if (endOfSession(error)) return;
    if (error instanceof ApiError) {
      for (const [field, message] of Object.entries(error.fields)) {
        if ((FIELDS as readonly string[]).includes(field)) form.setError(field as (typeof FIELDS)[number], { message });
      }
    }
    setFormError(error instanceof ApiError && error.message ? error.message : fallback);
  }

  async function requestMessage(): Promise<void> {
    setFormError(undefined);
    const values = { network: form.getValues('network'), address: form.getValues('address') };
    const parsed = walletChallengeRequestSchema.safeParse(values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) form.setError(issue.path[0] as (typeof FIELDS)[number], { message: issue.message });
      return;
    }
    try {
      const answer = await apiRequest('/api/wallets/challenge', walletChallengeResponseSchema, { method: 'POST', body: parsed.data });
      setChallenge({ message: answer.message, network: parsed.data.network, address: parsed.data.address });
    } catch (error) {
      showError(error, t('wallets.messageFailed'));
    }
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const answer = await apiRequest('/api/wallets', addWalletResponseSchema, { method: 'POST', body: values });
      toast.success(localizeMessage(answer.message || WALLET_MESSAGES.added));
      setChallenge(undefined);
      form.reset({ network: values.network, address: '', signature: '' });
      void queryClient.invalidateQueries({ queryKey: WALLET_QUERY_KEYS.customerWallets });
    } catch (error) {
      showError(error, t('wallets.verifyFailed'));
    }
  });

  return { form, challenge, setChallenge, formError, requestMessage, onSubmit };
}

function AddWalletCard() {
  const { form, challenge, setChallenge, formError, requestMessage, onSubmit } = useAddWalletForm();
  const { errors, isSubmitting } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('wallets.addTitle')}</CardTitle>
        <CardDescription>{t('wallets.addDescription')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormField label={t('wallets.network')} error={errors.network?.message}>
            <Select disabled={isSubmitting} {...form.register('network', { onChange: () => setChallenge(undefined) })}>
              <option value="ERC20">ERC20 (Ethereum)</option>
              <option value="TRC20">TRC20 (TRON)</option>
            </Select>
          </FormField>
          <FormField label={t('wallets.address')} error={errors.address?.message}>
            <Input
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-sm"
              maxLength={64}
              disabled={isSubmitting}
              {...form.register('address', { onChange: () => setChallenge(undefined) })}
            />
          </FormField>
          {challenge ? <SignatureFields form={form} message={challenge.message} /> : null}
          {formError && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {localizeMessage(formError)}
            </p>
          )}
          {challenge ? (
            <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
              {isSubmitting ? t('wallets.verifying') : t('wallets.verify')}
            </Button>
          ) : (
            <Button type="button" onClick={() => void requestMessage()}>
              {t('wallets.getMessage')}
            </Button>
          )}
        </form>
      </CardContent>
    </Card>
  );
}

/** The message to sign, its copy button and the signature pasted back. */
function SignatureFields({ form, message }: { form: UseFormReturn<AddWalletRequest>; message: string }) {
  const { errors, isSubmitting } = form.formState;
  return (
    <>
      <FormField label={t('wallets.messageToSign')} help={t('wallets.signWithin')}>
        <Textarea readOnly rows={8} value={message} className="font-mono text-xs" />
      </FormField>
      <CopyButton text={message} label={t('wallets.copyMessage')} successMessage={t('wallets.messageCopied')} />
      <FormField label={t('wallets.signature')} error={errors.signature?.message} help={t('wallets.signatureHelp')}>
        <Input autoComplete="off" spellCheck={false} className="font-mono text-sm" maxLength={200} disabled={isSubmitting} {...form.register('signature')} />
      </FormField>
    </>
  );
}
