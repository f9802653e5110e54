import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../components/ui/spinner.tsx';
import type { DepositNetwork } from '#shared/contracts/enums';

/** The admin's uploaded QR image; else a QR drawn in the browser from the address; else a note that there is none. */
export function DepositQrCode({ network, address, uploadedImageUrl }: { network: DepositNetwork; address: string; uploadedImageUrl: string | null }) {
  const generated = useQuery({
    queryKey: ['qr-code', address],
    enabled: !uploadedImageUrl && address !== '',
    staleTime: Infinity,
    // Loaded on demand: most visitors never open the QR tab.
    queryFn: async () => (await import('qrcode')).toDataURL(address, { margin: 1, width: 240, errorCorrectionLevel: 'M' }),
  });
  const alt = `QR code of the ${network} deposit address`;

  if (uploadedImageUrl) return <QrFrame src={uploadedImageUrl} alt={alt} />;
  if (address === '' || generated.isError) return <p className="py-8 text-center text-sm text-slate-500">No QR code available</p>;
  if (generated.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Drawing the QR code" />
      </div>
    );
  }
  return <QrFrame src={generated.data} alt={alt} />;
}

function QrFrame({ src, alt }: { src: string; alt: string }) {
  return (
    <div className="flex flex-col items-center gap-2">
      <img src={src} alt={alt} width={240} height={240} className="size-60 rounded-lg border border-slate-200 bg-white object-contain p-2" />
      <p className="text-xs text-slate-500">Scan with your wallet app to send USDT to this address.</p>
    </div>
  );
}
