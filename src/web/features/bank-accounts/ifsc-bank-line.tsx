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
export function useIfscLookup(ifscCode: string) {
  const code = ifscCode.trim().toUpperCase();
  const complete = IFSC_PATTERN.test(code);
  const lookup = useQuery({
    queryKey: [...QUERY_KEYS.wallet, 'ifsc', code],
    enabled: complete,
    staleTime: Number.POSITIVE_INFINITY,
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
    queryFn: ({ signal }) => apiRequest(`/api/bank-accounts/ifsc/${encodeURIComponent(code)}`, ifscLookupResponseSchema, { signal }),
  });
  // The dataset's "unknown code" names the IFSC field: the form says it there, where the server's refusal on saving would say it too.
  const fieldError = complete && lookup.error instanceof ApiError ? lookup.error.fields.ifscCode : undefined;
  return { complete, lookup, fieldError };
}

/** The bank line under the IFSC field; a refusal about the code itself is the field's error (`fieldError`), not repeated here. */
export function IfscBankLine({ ifsc }: { ifsc: ReturnType<typeof useIfscLookup> }) {
  const { complete, lookup, fieldError } = ifsc;
  if (!complete || fieldError !== undefined) return null;
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
