import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { depositAddressResponseSchema, type DepositAddressAnswer } from '#shared/contracts/deposit-addresses';
import type { DepositNetwork } from '#shared/contracts/enums';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { DepositAddress } from './deposit-address.tsx';
import { DepositQrCode } from './deposit-qr-code.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * The customer's own deposit address on the network, or null when the operator configured no
 * extended public key for it (the network then uses the shared address and a transaction hash).
 * It never changes, so it is read once per session (the cache is cleared at sign-in and sign-out).
 */
export function useOwnDepositAddress(network: DepositNetwork) {
  return useQuery({
    queryKey: ['deposit-address', network],
    staleTime: Infinity,
    queryFn: async ({ signal }): Promise<DepositAddressAnswer | null> => {
      try {
        return await apiRequest(`/api/deposits/address?network=${network}`, depositAddressResponseSchema, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'DEPOSIT_ADDRESS_NOT_CONFIGURED') return null;
        throw error;
      }
    },
  });
}

/** The address that is the customer's alone: shown whole with a copy button, as a QR code, and with what may be sent to it. */
export function OwnDepositAddress({ ownAddress, minimumUsdt }: { ownAddress: DepositAddressAnswer; minimumUsdt: string }) {
  return (
    <div className="flex flex-col gap-4">
      <DepositAddress network={ownAddress.network} address={ownAddress.address} />
      <div role="note" className="flex gap-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden />
        <p>
          <span className="font-semibold">{t('deposit.ownAddressStrong', { network: ownAddress.network })}.</span>{' '}
          {t('deposit.ownAddressNote', { minimum: minimumUsdt })}
        </p>
      </div>
      <DepositQrCode network={ownAddress.network} address={ownAddress.address} />
    </div>
  );
}
