import { TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import type { DepositNetwork } from '#shared/contracts/enums';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** How many characters at each end of the address are emphasised: the part people compare after pasting. */
const EMPHASISED_CHARACTERS = 6;

const NETWORK_NAMES: Record<DepositNetwork, string> = { TRC20: 'Tron (TRC20)', ERC20: 'Ethereum (ERC20)' };

/**
 * The deposit address shown whole: wrapped, in a monospace font, with its first
 * and last six characters emphasised so the customer can check a pasted copy.
 */
export function DepositAddress({ network, address }: { network: DepositNetwork; address: string }) {
  const labelId = useId();
  const head = address.slice(0, EMPHASISED_CHARACTERS);
  const middle = address.slice(EMPHASISED_CHARACTERS, Math.max(EMPHASISED_CHARACTERS, address.length - EMPHASISED_CHARACTERS));
  const tail = address.length > EMPHASISED_CHARACTERS * 2 ? address.slice(-EMPHASISED_CHARACTERS) : '';
  return (
    <div className="flex flex-col gap-1.5">
      <p id={labelId} className="text-sm font-medium text-slate-700">
        {t('deposit.addressLabel', { network })}
      </p>
      <div className="flex items-start gap-2">
        <p
          aria-labelledby={labelId}
          data-testid="deposit-address"
          className="min-w-0 flex-1 break-all rounded-lg border border-slate-300 bg-slate-50 px-3 py-2.5 font-mono text-sm leading-6 text-slate-600"
        >
          <strong className="font-bold text-slate-950">{head}</strong>
          {middle}
          <strong className="font-bold text-slate-950">{tail}</strong>
        </p>
        <CopyButton text={address} label={t('deposit.copyAddress')} successMessage={t('deposit.addressCopied')} className="shrink-0" />
      </div>
    </div>
  );
}

/** What may be sent to the address, and what happens to anything else. */
export function DepositNetworkWarning({ network }: { network: DepositNetwork }) {
  return (
    <div role="note" className="mt-3 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden />
      <p>
        <span className="font-semibold">{t('deposit.networkWarningStrong', { network: NETWORK_NAMES[network] })}</span> {t('deposit.networkWarningRest')}
      </p>
    </div>
  );
}
