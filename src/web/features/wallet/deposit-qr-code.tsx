import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../components/ui/spinner.tsx';
import type { DepositNetwork } from '#shared/contracts/enums';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * A QR code drawn in the browser from the bare address, which every wallet's and exchange's scanner
 * reads. Never an uploaded picture: what the customer scans is always the address shown beside it.
 */
export function DepositQrCode({ network, address }: { network: DepositNetwork; address: string }) {
  const generated = useQuery({
    queryKey: ['qr-code', address],
    enabled: address !== '',
    staleTime: Infinity,
    // Loaded on demand: the drawing code is not needed before a QR code is.
    queryFn: async () => (await import('qrcode')).toDataURL(address, { margin: 1, width: 240, errorCorrectionLevel: 'M' }),
  });

  if (address === '' || generated.isError) return <p className="py-8 text-center text-sm text-slate-500">{t('deposit.noQrCode')}</p>;
  if (generated.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t('deposit.drawingQrCode')} />
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-2">
      <img
        src={generated.data}
        alt={t('deposit.qrCodeAlt', { network })}
        data-testid="deposit-qr-code"
        width={240}
        height={240}
        className="size-60 rounded-lg border border-slate-200 bg-white object-contain p-2"
      />
      <p className="text-xs text-slate-500">{t('deposit.qrCodeScan')}</p>
    </div>
  );
}
