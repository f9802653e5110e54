import { useQuery } from '@tanstack/react-query';
import { IFSC_PATTERN, ifscLookupResponseSchema } from '#shared/contracts/bank-accounts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/**
 * The bank (and branch) of the IFSC being typed, from the server's IFSC dataset (decision 044): the
 * customer sees which bank the code belongs to before saving, and an unknown code is said at once.
 * The server looks the code up again when the account is saved.
 */
export function IfscBankLine({ ifscCode }: { ifscCode: string }) {
  const code = ifscCode.trim().toUpperCase();
  const complete = IFSC_PATTERN.test(code);
  const lookup = useQuery({
    queryKey: [...QUERY_KEYS.wallet, 'ifsc', code],
    enabled: complete,
    staleTime: Number.POSITIVE_INFINITY,
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
    queryFn: ({ signal }) => apiRequest(`/api/bank-accounts/ifsc/${encodeURIComponent(code)}`, ifscLookupResponseSchema, { signal }),
  });
  if (!complete) return null;
  if (lookup.isPending) return <p className="text-sm text-slate-500">{t('bank.lookingUp')}</p>;
  if (lookup.isError) {
    return (
      <p className="text-sm text-red-700" data-testid="ifsc-bank">
        {localizeMessage(lookup.error.message)}
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-700" data-testid="ifsc-bank">
      {t('bank.bank')} <span className="font-medium">{lookup.data.bankName}</span>
      {lookup.data.branchName && <> · {t('bank.branch', { branch: lookup.data.branchName })}</>}
    </p>
  );
}
