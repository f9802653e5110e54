import { Download, Lock } from 'lucide-react';
import type { PublicSettings } from '#shared/contracts/settings';
import { DEPOSIT_NETWORKS } from '#shared/contracts/enums';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import { usePublicSettings } from '../support/index.ts';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { inrText } from './format.ts';

function Row({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className={mono ? 'font-mono text-sm break-all text-slate-900' : 'text-lg font-semibold text-slate-900'}>{value}</dd>
    </div>
  );
}

function Settings({ settings }: { settings: PublicSettings }) {
  return (
    <Tabs defaultValue="rates">
      <TabsList className="grid h-auto grid-cols-3 gap-1 sm:inline-flex">
        <TabsTrigger value="rates">Exchange Rates</TabsTrigger>
        <TabsTrigger value="addresses">Wallet Addresses</TabsTrigger>
        <TabsTrigger value="app">App Download</TabsTrigger>
      </TabsList>
      <TabsContent value="rates">
        <dl className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
          <Row label="Normal Rate (INR per USDT)" value={inrText(settings.rates.normalRate)} />
          <Row label="VIP Rate (INR per USDT)" value={inrText(settings.rates.vipRate)} />
        </dl>
      </TabsContent>
      <TabsContent value="addresses">
        <dl className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
          {DEPOSIT_NETWORKS.map((network) => {
            const qrImage = settings.qrImages[network];
            return (
              <div key={network} className="flex flex-col gap-2">
                <Row label={`${network} Wallet Address`} value={settings.addresses[network] || 'Not set up'} mono={settings.addresses[network] !== ''} />
                {qrImage.exists && qrImage.url && <img src={qrImage.url} alt={`${network} QR code`} className="size-40 rounded-lg border border-slate-200" />}
              </div>
            );
          })}
        </dl>
      </TabsContent>
      <TabsContent value="app">
        <div className="rounded-2xl border border-slate-200 bg-white p-5">
          {settings.apk.exists && settings.apk.url ? (
            <Button asChild variant="outline">
              <a href={settings.apk.url} download>
                <Download aria-hidden />
                Download
              </a>
            </Button>
          ) : (
            <p className="text-sm text-slate-600">No app file has been uploaded.</p>
          )}
        </div>
      </TabsContent>
    </Tabs>
  );
}

/**
 * The settings as a VIP customer sees them: the spec's rates, wallet addresses and app download,
 * read only, from the public settings (decision 040). Limits, who saved and the support setup are
 * the operator's and stay on the admins' form.
 */
export function VipSettingsView() {
  const settings = usePublicSettings();
  return (
    <>
      <Alert variant="info" className="flex items-start gap-2">
        <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>Read-only: you can view the settings as a VIP member, but only admins can change settings.</span>
      </Alert>
      {settings.isPending && <LoadingState text="Loading settings..." />}
      {settings.isError && (
        <ErrorState
          title="Failed to load settings"
          message={errorMessage(settings.error, 'Please check your connection and try again.')}
          onRetry={() => void settings.refetch()}
        />
      )}
      {settings.data && <Settings settings={settings.data} />}
    </>
  );
}
