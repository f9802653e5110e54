import { DEPOSIT_MESSAGES } from '#shared/contracts/deposits';
import type { DepositNetwork } from '#shared/contracts/enums';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { DepositAddress, DepositNetworkWarning } from './deposit-address.tsx';
import { DepositQrCode } from './deposit-qr-code.tsx';

/** The operator's shared deposit address of a network, as text or as a QR code (empty: the network is paused). */
export function SharedDepositAddress({ network, address }: { network: DepositNetwork; address: string }) {
  return (
    <Tabs defaultValue="address">
      <TabsList aria-label={t('deposit.addressViews')}>
        <TabsTrigger value="address">{t('deposit.walletAddress')}</TabsTrigger>
        <TabsTrigger value="qr">{t('deposit.qrCode')}</TabsTrigger>
      </TabsList>
      <TabsContent value="address">
        {address === '' ? (
          <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {localizeMessage(DEPOSIT_MESSAGES.networkUnavailable)}
          </p>
        ) : (
          <DepositAddress network={network} address={address} />
        )}
        <DepositNetworkWarning network={network} />
      </TabsContent>
      <TabsContent value="qr">
        <DepositQrCode network={network} address={address} />
      </TabsContent>
    </Tabs>
  );
}
